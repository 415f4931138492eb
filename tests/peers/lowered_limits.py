#!/usr/bin/env python3
"""Random Pads whose pads (and now and then axes) are fed at run time, many near the int64
limits, lowered by `padkit lower` and run by ONNX Runtime, against padkit's core on the
original model (`padkit run --engine core`): both must fail, or both answer the same
tensor. Data of rank 0 to 3 (extents 0 to 3), every mode, padkit's interior padding now
and then, the axes absent, empty or a subset; seeded, so a failure reproduces. With
`--target T`, the pads and axes are initializers instead (known when the model is read, so
that the target's rule decides which Pads to keep) and the model is lowered with
`padkit lower --target T`.

    python3 tests/peers/lowered_limits.py --padkit target/debug/padkit [--cases 300] [--target onnxruntime]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

I64 = np.iinfo(np.int64)
EXTREMES = [I64.min, I64.min + 1, -I64.max, -(1 << 62), -(1 << 40), 1 << 40, 1 << 62,
            I64.max - 5, I64.max - 1, I64.max]
MODES = ["constant", "reflect", "edge", "wrap", "symmetric"]
LIMIT = 1 << 22  # bytes of output, for the lowering and the core alike
MAX_MAP_LEN = 1 << 24  # padkit_lower::MAX_MAP_LEN


def case(rng):
    """One random case: (data, pads, axes or None, mode, interior or None)."""
    rank = int(rng.integers(0, 4))
    shape = [int(d) for d in rng.integers(0, 4, rank)]
    axes = None
    if rank and rng.random() < 0.6:
        axes = [a for a in range(rank) if rng.random() < 0.5]
        if rng.random() < 0.3:
            axes = [a - rank for a in axes]
    padded = rank if axes is None else len(axes)
    pads = [int(rng.choice(EXTREMES)) if rng.random() < 0.5 else int(rng.integers(-3, 4))
            for _ in range(2 * padded)]
    mode = MODES[int(rng.integers(0, len(MODES)))]
    interior = None
    if mode == "constant" and padded and rng.random() < 0.25:
        interior = [int(rng.integers(0, 3)) for _ in range(padded)]
    data = np.arange(1, int(np.prod(shape)) + 1, dtype=np.float32).reshape(shape)
    return data, pads, axes, mode, interior


def model(data, pads, axes, mode, interior, known):
    """The case as a model: ONNX's Pad at opset 25, or padkit's own for symmetric mode and
    interior padding; data a graph input, pads and axes graph inputs too or, where `known`,
    initializers; the fill 7 a constant."""
    padkit = mode == "symmetric" or interior is not None
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(data.shape))]
    operands = [("pads", pads)] + ([("axes", axes)] if axes is not None else [])
    initializers = [helper.make_tensor("value", TensorProto.FLOAT, [], [7.0])]
    for name, ints in operands:
        if known:
            initializers.append(helper.make_tensor(name, TensorProto.INT64, [len(ints)], ints))
        else:
            inputs.append(helper.make_tensor_value_info(name, TensorProto.INT64, [len(ints)]))
    names = ["x", "pads", "value"] + (["axes"] if axes is not None else [])
    attrs = {"mode": mode}
    if interior is not None:
        attrs["interior"] = interior
    pad = helper.make_node("Pad", names, ["y"], domain="ai.padkit" if padkit else "", **attrs)
    graph = helper.make_graph([pad], "limits", inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=initializers)
    opsets = [helper.make_opsetid("", 25)] + ([helper.make_opsetid("ai.padkit", 1)] if padkit else [])
    return helper.make_model(graph, opset_imports=opsets, ir_version=13)


def core(padkit, path, feeds, tmp):
    """padkit's core on the model: its output, or None where it refuses."""
    args = [padkit, "run", "--engine", "core", path, "--max-output-bytes", str(LIMIT),
            "--output-dir", os.path.join(tmp, "out")]
    for name, value in feeds.items():
        np.save(os.path.join(tmp, f"{name}.npy"), value)
        args += ["--input", f"{name}={os.path.join(tmp, name)}.npy"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    y = onnx.load_tensor(os.path.join(tmp, "out", "y.pb"))
    if 0 in y.dims:
        # (numpy takes no shape whose other extents multiply past its limit)
        return EmptyOutput(list(y.dims))
    return onnx.numpy_helper.to_array(y)


class EmptyOutput:
    """An output with no element: its shape alone."""

    def __init__(self, shape):
        self.shape = tuple(shape)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--padkit", required=True, help="the padkit binary")
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--target", help="pads known, lowered with `padkit lower --target`")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    failures, answered, kept = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.cases):
            data, pads, axes, mode, interior = case(rng)
            path, lowered = os.path.join(tmp, "model.onnx"), os.path.join(tmp, "lowered.onnx")
            known = args.target is not None
            onnx.save(model(data, pads, axes, mode, interior, known), path)
            feeds = {"x": data}
            if not known:
                feeds["pads"] = np.array(pads, np.int64)
                if axes is not None:
                    feeds["axes"] = np.array(axes, np.int64)
            want = core(args.padkit, path, feeds, tmp)
            target = ["--target", args.target] if known else []
            done = subprocess.run([args.padkit, "lower", "--max-output-bytes", str(LIMIT),
                                   *target, path, lowered], capture_output=True, text=True)
            got = None
            if done.returncode == 0:
                kept += any(n.op_type == "Pad" for n in onnx.load(lowered).graph.node)
                try:
                    got = ort.InferenceSession(lowered, options).run(None, feeds)[0]
                except Exception:  # the runtime's refusal: the lowered model's error
                    got = None
            what = f"case {k}: shape {list(data.shape)}, pads {pads}, axes {axes}, {mode}, interior {interior}"
            if want is None and got is not None:
                failures.append(f"{what}: the core refuses, the lowered model answers {got.shape}")
            elif want is not None and got is None:
                # An empty output with an extent above padkit-lower's cap on index maps:
                # the lowered model fails rather than compute a map that long (docs/lower.md).
                if not (0 in want.shape and max(want.shape) > MAX_MAP_LEN):
                    failures.append(f"{what}: the core answers {want.shape}, the lowered model fails")
            elif want is not None:
                answered += 1
                same = want.shape == got.shape and (
                    isinstance(want, EmptyOutput) or np.array_equal(want, got, equal_nan=True))
                if not same:
                    failures.append(f"{what}: answers differ ({want.shape} and {got.shape})")
    for f in failures:
        print(f"FAIL {f}")
    lowering = f"lowered for {args.target} ({kept} kept)" if args.target else "lowered"
    print(f"{args.cases - len(failures)} of {args.cases} Pads at the int64 limits {lowering} agree "
          f"with padkit's core on ONNX Runtime ({answered} answered, the rest refused by both)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
