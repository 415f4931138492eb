#!/usr/bin/env python3
"""Builds the whole-model corpus of tests/data/models and its ONNX Runtime fixtures.

- silero-vad/*/model.onnx: the six models of the silero-vad wheel (PyPI, silero-vad 6.2.3,
  MIT, LICENSE beside them), copied unchanged: a speech front end with reflect Pads, some
  inside If branches, fed by Shape/Gather/Concat chains, inputs with symbolic and unnamed
  dims.
- generated/*/model.onnx: small nets built here with onnx.helper, the shapes of the
  benchmark's whole models: a style-transfer net (reflect Pads before convolutions), ResNet
  blocks (zero Pads before convolutions) and a layout-changing net (NCHW -> NHWC, a reflect
  Pad, back to NCHW).

Every model gets test_data_set_0 with seeded inputs and the outputs of ONNX Runtime (CPU).
Run with numpy, onnx and onnxruntime installed:

    python3 tests/data/models/make_fixtures.py [path/to/silero_vad/data]

The committed fixtures were made with onnx 1.23.2, onnxruntime 1.32.0 and numpy 2.4.6.
"""

import os
import shutil
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def weights(rng, name, shape, scale=0.1):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


class Net:
    """A graph under construction: nodes, initializers, and a counter for names."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, kind):
        self.n += 1
        return f"{kind}{self.n}"

    def node(self, op, inputs, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def const(self, array, kind="c"):
        name = self.name(kind)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def pad(self, x, pads, mode):
        return self.node("Pad", [x, self.const(np.array(pads, np.int64), "pads")], mode=mode)

    def conv(self, x, cin, cout, k):
        w = self.name("w")
        self.inits.append(weights(self.rng, w, (cout, cin, k, k)))
        b = self.const(np.zeros(cout, np.float32), "b")
        return self.node("Conv", [x, w, b], kernel_shape=[k, k])

    def instance_norm(self, x, c):
        s = self.const(np.ones(c, np.float32), "s")
        b = self.const(np.zeros(c, np.float32), "b")
        return self.node("InstanceNormalization", [x, s, b])

    def batch_norm(self, x, c):
        ones, zeros = np.ones(c, np.float32), np.zeros(c, np.float32)
        args = [self.const(ones), self.const(zeros), self.const(zeros), self.const(ones)]
        return self.node("BatchNormalization", [x, *args])

    def model(self, x_shape, out, opset=13):
        g = helper.make_graph(
            self.nodes,
            "net",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
            [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)],
            initializer=self.inits,
        )
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8
        m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
        onnx.checker.check_model(m)
        return m


def hw(p):
    """ONNX pads of p on H and W of an NCHW tensor."""
    return [0, 0, p, p, 0, 0, p, p]


def style_transfer():
    net = Net(1)
    y = net.node("Relu", [net.instance_norm(net.conv(net.pad("x", hw(4), "reflect"), 3, 16, 9), 16)])
    for _ in range(2):
        r = net.node("Relu", [net.instance_norm(net.conv(net.pad(y, hw(1), "reflect"), 16, 16, 3), 16)])
        r = net.instance_norm(net.conv(net.pad(r, hw(1), "reflect"), 16, 16, 3), 16)
        y = net.node("Add", [y, r])
    y = net.conv(net.pad(y, hw(4), "reflect"), 16, 3, 9)
    return net.model([1, 3, 128, 128], y)


def resnet_blocks():
    net = Net(2)
    y = "x"
    for _ in range(2):
        r = net.node("Relu", [net.batch_norm(net.conv(net.pad(y, hw(1), "constant"), 32, 32, 3), 32)])
        r = net.batch_norm(net.conv(net.pad(r, hw(1), "constant"), 32, 32, 3), 32)
        y = net.node("Relu", [net.node("Add", [y, r])])
    return net.model([1, 32, 56, 56], y)


def layout():
    net = Net(3)
    nhwc = net.node("Transpose", ["x"], perm=[0, 2, 3, 1])
    padded = net.pad(nhwc, [0, 2, 2, 0, 0, 2, 2, 0], "reflect")
    nchw = net.node("Transpose", [padded], perm=[0, 3, 1, 2])
    y = net.node("Relu", [net.conv(nchw, 16, 16, 5)])
    return net.model([1, 16, 64, 64], y)


def silero_inputs(session, rng):
    """Seeded inputs for a silero-vad model: 576 samples (512 and a context of 64) per
    row, zero recurrent state, a sample rate of 16 kHz."""
    feeds = {}
    for i in session.get_inputs():
        if i.name == "sr":
            feeds[i.name] = np.array(16000, np.int64)
        elif i.name == "input":
            rows = 3 if i.shape[0] == "sequence_length" else 1
            feeds[i.name] = rng.uniform(-0.5, 0.5, (rows, 576)).astype(np.float32)
        else:
            shape = [d if isinstance(d, int) else 1 for d in i.shape]
            feeds[i.name] = np.zeros(shape, np.float32)
    return feeds


def write_case(case, model_path, feeds_for):
    session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    feeds = feeds_for(session)
    outputs = session.run(None, feeds)
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    for k, i in enumerate(session.get_inputs()):
        with open(os.path.join(data, f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(feeds[i.name], i.name).SerializeToString())
    for k, (o, v) in enumerate(zip(session.get_outputs(), outputs)):
        with open(os.path.join(data, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(v), o.name).SerializeToString())


def main():
    rng = np.random.default_rng(0)
    for name, build in [("style_transfer", style_transfer), ("resnet_blocks", resnet_blocks), ("layout", layout)]:
        case = os.path.join(HERE, "generated", name)
        os.makedirs(case, exist_ok=True)
        path = os.path.join(case, "model.onnx")
        onnx.save(build(), path)
        shape = onnx.load(path).graph.input[0].type.tensor_type.shape.dim
        x = rng.standard_normal([d.dim_value for d in shape]).astype(np.float32)
        write_case(case, path, lambda s, x=x: {"x": x})
    silero = os.path.join(HERE, "silero-vad")
    source = sys.argv[1] if len(sys.argv) > 1 else None
    for variant in sorted(os.listdir(silero)):
        case = os.path.join(silero, variant)
        if not os.path.isdir(case):
            continue
        if source:
            shutil.copy(os.path.join(source, f"{variant}.onnx"), os.path.join(case, "model.onnx"))
        write_case(case, os.path.join(case, "model.onnx"), lambda s: silero_inputs(s, rng))


if __name__ == "__main__":
    main()
