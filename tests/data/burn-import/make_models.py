#!/usr/bin/env python3
"""Builds the Pad models the burn-onnx import example imports, beside the official ONNX
Pad tests (tests/data/onnx-conformance): the cases stock burn-onnx refuses or gets wrong,
each with seeded inputs and ONNX Runtime's outputs in test_data_set_0.

- negative_edge: opset 13, mode edge, constant pads with crops (negative values);
- bool_constant: opset 13, bool data padded with True;
- int64_exact: opset 13, int64 data padded with 16777217 (not an f32);
- wrap_conv: opset 19, a wrap Pad of H and W then a 3x3 Conv (the net of a periodic
  domain);
- reflect_axes_runtime: opset 18, reflect, pads and axes given at run time (graph inputs).
- newest_onnx: what onnx 1.23's make_model writes by default, IR version 14 and opset 28
  (whose Pad is Pad-25): wrap on axes [-2, 2].

Run with numpy, onnx and onnxruntime installed:

    python3 tests/data/burn-import/make_models.py

The committed files were made with onnx 1.23.2, onnxruntime 1.32.0 and numpy 2.4.6.
"""

import os

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def save(name, nodes, inputs, output, inits, opset, feeds, ir_version=9):
    g = helper.make_graph(nodes, name, inputs, [output], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = ir_version
    onnx.checker.check_model(m, full_check=True)
    case = os.path.join(HERE, name)
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(case, "model.onnx")
    onnx.save(m, path)
    outs = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, feeds)
    for k, i in enumerate(inputs):
        t = numpy_helper.from_array(feeds[i.name], i.name)
        open(os.path.join(data, f"input_{k}.pb"), "wb").write(t.SerializeToString())
    t = numpy_helper.from_array(outs[0], output.name)
    open(os.path.join(data, "output_0.pb"), "wb").write(t.SerializeToString())


def pads(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def main():
    rng = np.random.default_rng(5)
    vi = helper.make_tensor_value_info
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    save(
        "negative_edge",
        [helper.make_node("Pad", ["x", "pads"], ["y"], mode="edge")],
        [vi("x", TensorProto.FLOAT, [2, 3, 4])],
        vi("y", TensorProto.FLOAT, [3, 3, 7]),
        [pads("pads", [1, -1, 2, 0, 1, 1])],
        13,
        {"x": x},
    )
    b = rng.integers(0, 2, (3, 4)).astype(bool)
    save(
        "bool_constant",
        [helper.make_node("Pad", ["x", "pads", "value"], ["y"], mode="constant")],
        [vi("x", TensorProto.BOOL, [3, 4])],
        vi("y", TensorProto.BOOL, [4, 7]),
        [pads("pads", [1, 2, 0, 1]), numpy_helper.from_array(np.array(True), "value")],
        13,
        {"x": b},
    )
    i = rng.integers(-9, 9, (2, 3)).astype(np.int64)
    save(
        "int64_exact",
        [helper.make_node("Pad", ["x", "pads", "value"], ["y"], mode="constant")],
        [vi("x", TensorProto.INT64, [2, 3])],
        vi("y", TensorProto.INT64, [2, 5]),
        [pads("pads", [0, 1, 0, 1]), numpy_helper.from_array(np.array(16777217, np.int64), "value")],
        13,
        {"x": i},
    )
    w = (rng.standard_normal((4, 2, 3, 3)) * 0.2).astype(np.float32)
    save(
        "wrap_conv",
        [
            helper.make_node("Pad", ["x", "pads"], ["padded"], mode="wrap"),
            helper.make_node("Conv", ["padded", "w"], ["y"], kernel_shape=[3, 3]),
        ],
        [vi("x", TensorProto.FLOAT, [1, 2, 8, 8])],
        vi("y", TensorProto.FLOAT, [1, 4, 8, 8]),
        [pads("pads", [0, 0, 1, 1, 0, 0, 1, 1]), numpy_helper.from_array(w, "w")],
        19,
        {"x": rng.standard_normal((1, 2, 8, 8)).astype(np.float32)},
    )
    save(
        "reflect_axes_runtime",
        [helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"], mode="reflect")],
        [
            vi("x", TensorProto.FLOAT, [2, 3, 4]),
            vi("pads", TensorProto.INT64, [2]),
            vi("axes", TensorProto.INT64, [1]),
        ],
        vi("y", TensorProto.FLOAT, [2, 3, 9]),
        [],
        18,
        {"x": x, "pads": np.array([2, 3], np.int64), "axes": np.array([-1], np.int64)},
    )
    save(
        "newest_onnx",
        [helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"], mode="wrap")],
        [vi("x", TensorProto.FLOAT, [2, 3, 4])],
        vi("y", TensorProto.FLOAT, [2, 6, 9]),
        [pads("pads", [1, 3, 2, 2]), pads("axes", [-2, 2])],
        28,
        {"x": x},
        ir_version=14,
    )


if __name__ == "__main__":
    main()
