#!/usr/bin/env python3
"""What `padkit lower` costs in a runtime, ONNX Runtime or OpenVINO: each workload timed
there as it is (the runtime's own Pad), lowered for any runtime (`padkit lower`, its Pads
as standard ops) and lowered for that runtime (`padkit lower --target RUNTIME`, the Pads it
runs right kept), in one run.

    python3 tests/peers/lowered_cost.py --padkit target/debug/padkit [--runtime openvino] [--runs 51]

Workloads: an image batch [1, 64, 128, 128] padded by 1 and by 4 on each side of H and W in
each ONNX mode (wrap at opset 19, the others at 18) and in padkit's symmetric mode (its own
domain, which no runtime runs: the reference there is the runtime's reflect Pad of the same
shape, as it is for wrap on OpenVINO, which has none), an audio signal [1, 1, 16000]
reflect- and symmetric-padded by 256 on each side, and the style-transfer net of
tests/data/models (reflect Pads of 4 and 1 before its convolutions). Each time is the
median of `--runs` runs after two warm-up runs, the three models of a row run in turn, on
one thread (ORT's intra_op_num_threads, OpenVINO's INFERENCE_NUM_THREADS), so that the
ratios compare the work, not the thread pools. Every output is checked: equal to the
runtime's Pad (numpy's pad where the reference is another mode), the net's to the
runtime's outputs of the original. "same graph" says
whether the model lowered for the runtime is the original graph, node for node. Prints a
Markdown table.
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

NET = os.path.join(os.path.dirname(__file__), "../data/models/generated/style_transfer")


def image(p):
    return [0, 0, p, p, 0, 0, p, p]


def workloads():
    """(name, shape, pads, mode, opset) of each Pad workload."""
    out = []
    for p in (1, 4):
        for mode in ("constant", "reflect", "edge", "wrap", "symmetric"):
            opset = 19 if mode == "wrap" else 18
            out.append((f"image {mode}, {p}", [1, 64, 128, 128], image(p), mode, opset))
    for mode in ("reflect", "symmetric"):
        out.append((f"audio {mode}, 256", [1, 1, 16000], [0, 0, 256, 0, 0, 256], mode, 18))
    return out


def pad_model(shape, pads, mode, opset):
    """ONNX's Pad, or padkit's own (`ai.padkit`) for symmetric mode."""
    padkit = mode == "symmetric"
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    init = numpy_helper.from_array(np.array(pads, dtype=np.int64), "pads")
    domain = {"domain": "ai.padkit"} if padkit else {}
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode, name="pad", **domain)
    graph = helper.make_graph([node], "pad", [x], [y], [init])
    opsets = [helper.make_opsetid("", opset)]
    opsets += [helper.make_opsetid("ai.padkit", 1)] if padkit else []
    return helper.make_model(graph, opset_imports=opsets)


class OnnxRuntime:
    """ONNX Runtime's CPU provider on one thread."""

    name, label, modes = "onnxruntime", "ORT", {"constant", "reflect", "edge", "wrap"}

    def version(self):
        return f"onnxruntime {ort.__version__}"

    def open(self, path):
        """A function of the feeds giving the model's outputs."""
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        s = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        return lambda feeds: s.run(None, feeds)


class OpenVino:
    """OpenVINO's CPU device on one thread; its Pad has no wrap mode."""

    name, label, modes = "openvino", "OpenVINO", {"constant", "reflect", "edge"}

    def version(self):
        import openvino as ov

        return f"openvino {ov.__version__}"

    def open(self, path):
        import openvino as ov

        core = ov.Core()
        compiled = core.compile_model(core.read_model(path), "CPU", {"INFERENCE_NUM_THREADS": 1})
        # (copies: OpenVINO reuses its output buffers from one run to the next)
        return lambda feeds: [np.array(v, copy=True) for v in compiled(feeds).values()]


RUNTIMES = {"onnxruntime": OnnxRuntime, "openvino": OpenVino}


def medians_ms(runtime, paths, feeds, runs):
    """Each model's median time and outputs, its runs interleaved with the others' (one run
    of each in turn), so that a drift of the machine reaches them all alike."""
    sessions = [runtime.open(p) for p in paths]
    outs = []
    for s in sessions:
        for _ in range(2):
            out = s(feeds)
        outs.append(out)
    times = [[] for _ in sessions]
    for _ in range(runs):
        for s, t in zip(sessions, times):
            start = time.perf_counter()
            s(feeds)
            t.append(time.perf_counter() - start)
    return [statistics.median(t) * 1e3 for t in times], outs


def lower(padkit, original, out, target):
    subprocess.run([padkit, "lower", "--target", target, original, out], check=True)
    return out


def same_graph(a, b):
    return onnx.load(a).graph.SerializeToString() == onnx.load(b).graph.SerializeToString()


def row(name, ref_ms, p_ms, t_ms, same):
    return (
        f"| {name} | {ref_ms:.2f} ms | {p_ms:.2f} ms | ×{p_ms / ref_ms:.2f} "
        f"| {t_ms:.2f} ms | ×{t_ms / ref_ms:.2f} | {'yes' if same else 'no'} |"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--padkit", required=True, help="the padkit binary")
    parser.add_argument("--runtime", choices=sorted(RUNTIMES), default="onnxruntime")
    parser.add_argument("--runs", type=int, default=51)
    args = parser.parse_args()
    runtime = RUNTIMES[args.runtime]()
    label = runtime.label
    rng = np.random.default_rng(0)
    print(f"{runtime.version()}, one thread, median of {args.runs} runs\n")
    print(
        f"| workload | {label}'s Pad | lowered | lowered / Pad | lowered for {label} "
        f"| for {label} / Pad | same graph |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        path = lambda name: os.path.join(tmp, name)  # noqa: E731
        for name, shape, pads, mode, opset in workloads():
            x = rng.standard_normal(shape, dtype=np.float32)
            feeds = {"x": x}
            onnx.save(pad_model(shape, pads, mode, opset), path("original.onnx"))
            portable = lower(args.padkit, path("original.onnx"), path("p.onnx"), "portable")
            targeted = lower(args.padkit, path("original.onnx"), path("t.onnx"), runtime.name)
            native = mode in runtime.modes
            if native:
                reference = path("original.onnx")
            else:
                # no such Pad in the runtime: its reflect Pad of the same shape is the reference
                onnx.save(pad_model(shape, pads, "reflect", opset), path("reference.onnx"))
                reference = path("reference.onnx")
                rank = len(shape)
                want = np.pad(x, list(zip(pads[:rank], pads[rank:])), mode=mode)
            paths = [reference, portable, targeted]
            (ref, p_ms, t_ms), outs = medians_ms(runtime, paths, feeds, args.runs)
            if native:
                want = outs[0][0]
            for what, (got,) in (("lowered", outs[1]), (f"lowered for {label}", outs[2])):
                if not np.array_equal(got, want):
                    raise SystemExit(f"{name}: the {what} model's output is not the Pad's")
            same = same_graph(path("original.onnx"), targeted)
            print(row(name, ref, p_ms, t_ms, same))
        # a real model: ORT's Pads kept or lowered, the rest of the net as it is
        net = os.path.join(NET, "model.onnx")
        model = onnx.load(net)
        feeds = {}
        for i, vi in enumerate(model.graph.input):
            t = onnx.TensorProto()
            with open(os.path.join(NET, "test_data_set_0", f"input_{i}.pb"), "rb") as f:
                t.ParseFromString(f.read())
            feeds[vi.name] = numpy_helper.to_array(t)
        portable = lower(args.padkit, net, path("p.onnx"), "portable")
        targeted = lower(args.padkit, net, path("t.onnx"), runtime.name)
        paths = [net, portable, targeted]
        (ref, p_ms, t_ms), (want, p_out, t_out) = medians_ms(runtime, paths, feeds, args.runs)
        for what, got in (("lowered", p_out), (f"lowered for {label}", t_out)):
            if not all(np.array_equal(g, w) for g, w in zip(got, want)):
                raise SystemExit(f"style-transfer net: the {what} model's outputs differ")
        print(row("style-transfer net (reflect Pads of 4 and 1)", ref, p_ms, t_ms, same_graph(net, targeted)))


if __name__ == "__main__":
    main()
