"""``python -m padkit lower MODEL OUTPUT [--target T] [--strict-onnx] ...`` and ``python -m
padkit suite export DIR [--small] [--tag T]...``: ``padkit lower`` and ``padkit suite
export`` from Python, as the Rust CLI has them."""

import argparse
import sys

from . import LowerError, targets
from . import _native


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m padkit", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    lower = commands.add_parser("lower", help="rewrite a model's Pads into standard ops")
    lower.add_argument("model", help="the ONNX model to read")
    lower.add_argument("output", help="where to write the lowered model")
    lower.add_argument("--target", default="portable", choices=targets())
    lower.add_argument("--strict-onnx", action="store_true", help="refuse what ONNX's reference refuses")
    lower.add_argument("--max-output-bytes", type=int, help="each lowered Pad's output limit at run time")
    lower.add_argument("--max-constant-bytes", type=int, help="the budget of constants the lowering adds")
    suite = commands.add_parser("suite", help="padkit's conformance suite")
    suite_commands = suite.add_subparsers(dest="suite_command", required=True)
    export = suite_commands.add_parser("export", help="write the cases in the ONNX backend-test layout")
    export.add_argument("dir", help="an absent or empty directory, or a suite exported before")
    export.add_argument("--small", action="store_true", help="the small catalogue (several hundred cases)")
    export.add_argument("--tag", action="append", default=[], help="only the cases with this tag (repeatable)")
    args = parser.parse_args(argv)
    if args.command == "suite":
        try:
            count = _native.suite_export(args.dir, args.small, args.tag)
        except OSError as e:
            print(f"python -m padkit suite export: {e}", file=sys.stderr)
            return 1
        print(f"{count} cases written to {args.dir}")
        return 0
    with open(args.model, "rb") as f:
        model = f.read()
    try:
        lowered = _native.lower(
            model, args.target, args.strict_onnx, args.max_output_bytes, args.max_constant_bytes
        )
    except LowerError as e:
        print(f"python -m padkit lower: {args.model}: {e}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(lowered)
    return 0


if __name__ == "__main__":
    sys.exit(main())
