#!/usr/bin/env python3
"""What `padkit lower` costs in ONNX Runtime: each workload's Pad model timed in ORT as it is
(ORT's own Pad) and lowered (its Pad as standard ops), in one run, with the lowered model's
size beside the original's.

    python3 tests/peers/lowered_cost.py --padkit target/release/padkit [--runs 21]

Workloads: an image batch [1, 64, 128, 128] padded by 2 on each side of H and W in each
ONNX mode (wrap at opset 19, the others at 18), and a 1-D audio signal [1, 480000] padded
by 512 on each side in reflect mode. Each time is the median of `--runs` runs of
`session.run` after two warm-up runs, on one thread (intra_op_num_threads = 1), so that the
ratio compares the work, not the thread pools. Prints a Markdown table.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

WORKLOADS = [
    # name, shape, pads (ONNX order: begins then ends), mode, opset
    ("image constant", [1, 64, 128, 128], [0, 0, 2, 2, 0, 0, 2, 2], "constant", 18),
    ("image reflect", [1, 64, 128, 128], [0, 0, 2, 2, 0, 0, 2, 2], "reflect", 18),
    ("image edge", [1, 64, 128, 128], [0, 0, 2, 2, 0, 0, 2, 2], "edge", 18),
    ("image wrap", [1, 64, 128, 128], [0, 0, 2, 2, 0, 0, 2, 2], "wrap", 19),
    ("audio reflect", [1, 480000], [0, 512, 0, 512], "reflect", 18),
]


def pad_model(shape, pads, mode, opset):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    init = numpy_helper.from_array(np.array(pads, dtype=np.int64), "pads")
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode, name="pad")
    graph = helper.make_graph([node], "pad", [x], [y], [init])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def median_ms(path, x, runs):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    for _ in range(2):
        out = session.run(None, {"x": x})[0]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, {"x": x})
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--padkit", required=True, help="the padkit binary")
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"onnxruntime {ort.__version__}, one thread, median of {args.runs} runs\n")
    print("| workload | ORT's Pad | lowered | lowered / Pad | model bytes: original → lowered |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, shape, pads, mode, opset in WORKLOADS:
            original = os.path.join(tmp, "original.onnx")
            lowered = os.path.join(tmp, "lowered.onnx")
            onnx.save(pad_model(shape, pads, mode, opset), original)
            subprocess.run([args.padkit, "lower", original, lowered], check=True)
            x = rng.standard_normal(shape, dtype=np.float32)
            native, want = median_ms(original, x, args.runs)
            low, got = median_ms(lowered, x, args.runs)
            if not np.array_equal(got, want):
                raise SystemExit(f"{name}: the lowered model's output differs from ORT's Pad")
            sizes = f"{os.path.getsize(original)} → {os.path.getsize(lowered)}"
            print(f"| {name} | {native:.2f} ms | {low:.2f} ms | {low / native:.2f} | {sizes} |")


if __name__ == "__main__":
    main()
