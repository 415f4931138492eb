#!/usr/bin/env python3
"""Every case of an exported suite that `padkit lower` lowers, checked by onnx's checker
(`check_model(full_check=True)`, or without the full check where the original fails it)
wherever the original passes it: the lowered model must pass too. The suite's models leave
their output's shape undeclared, which the checker requires: it is declared from the
case's expected output first. No class of failure is allowed: before opset 9, whose
`Constant` holds no integers, padkit-lower casts doubles to integers (opsets 6 to 8) or
writes its integers as initializers (before opset 6, whose `Cast` names its type by a
string, which stock tract and candle-onnx do not read; docs/lower.md).

    python3 tests/peers/lowered_valid.py SUITE --padkit target/debug/padkit
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

import onnx


def check(model, full):
    """None where `model` passes the checker, else its first line."""
    try:
        onnx.checker.check_model(model, full_check=full)
        return None
    except Exception as e:  # the checker's verdict, whatever its class
        return str(e).split("\n")[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite")
    parser.add_argument("--padkit", required=True, help="the padkit binary")
    args = parser.parse_args()
    cases = sorted(c for c in os.listdir(args.suite)
                   if os.path.exists(os.path.join(args.suite, c, "model.onnx")))
    lowered_count, failures = 0, collections.Counter()
    examples = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            model = onnx.load(os.path.join(args.suite, case, "model.onnx"))
            expected = os.path.join(args.suite, case, "test_data_set_0", "output_0.pb")
            if os.path.exists(expected):
                dims = list(onnx.load_tensor(expected).dims)
                for out in model.graph.output:
                    if not out.type.tensor_type.HasField("shape"):
                        out.type.tensor_type.shape.dim.extend(
                            onnx.TensorShapeProto.Dimension(dim_value=d) for d in dims)
            original, lowered = os.path.join(tmp, "model.onnx"), os.path.join(tmp, "lowered.onnx")
            onnx.save(model, original)
            full = check(model, True) is None
            if not full and check(model, False) is not None:
                continue
            done = subprocess.run([args.padkit, "lower", original, lowered], capture_output=True)
            if done.returncode != 0:
                continue
            lowered_count += 1
            result = onnx.load(lowered)
            why = check(result, full)
            if why is None:
                continue
            key = re.sub(r"node name: [^)]*", "node name: …", why)
            failures[key] += 1
            examples.setdefault(key, case)
    for key, n in failures.most_common():
        print(f"FAIL {n} × {key} (e.g. {examples[key]})")
    print(f"{lowered_count} lowered models of valid originals: "
          f"{lowered_count - sum(failures.values())} valid, {sum(failures.values())} invalid")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
