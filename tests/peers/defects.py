#!/usr/bin/env python3
"""A runtime's defects page (docs/peers/RUNTIME.md) from its graded report: every wrong
answer and crash of the runtime on padkit's suite, grouped by cause (the verdict, the mode
and the feature tag of the case), each group with its smallest case, the expected and the
actual output, and a standalone reproducer; then the valid cases it refuses, the features
a newer ONNX opset brought apart from the rest.

    python3 tests/peers/defects.py RUNTIME --suite SUITE --padkit PADKIT      # write the page
    python3 tests/peers/defects.py RUNTIME --check-report                     # page vs report
    python3 tests/peers/defects.py RUNTIME --run-reproducers --padkit PADKIT  # re-run them
    python3 tests/peers/defects.py RUNTIME --refresh --suite SUITE            # report graded again

The smallest case of a group is found by a reducer that can fail: from the group's case
with the fewest output elements, it shrinks the data's extents, the pads toward zero and
the data's values to 1, 2, 3, …, one step at a time, keeping a step only where the runtime
still answers wrong (or still crashes) and padkit's core (`padkit run --engine core`)
still answers as the case's class says; the runtime runs in a worker process (12 GiB of
address space, `--memory-gib`) that is replaced when it dies. `--run-reproducers` runs each reproducer of the page as a runtime
author would paste it, and checks that the runtime's answer still differs from the one the
page expects and that padkit's core gives that expected answer on the reproducer's model.
`--check-report` needs no runtime: every wrong answer and crash of the committed report
is in one group of the committed page, with the counts the page gives.
"""

import argparse
import json
import multiprocessing as mp
import os
import queue
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import runtimes  # noqa: E402

TIMEOUT_S = 60
MAX_ATTEMPTS = 150

# ONNX Pad's features by the opset that brought them: a runtime that refuses them refuses
# a newer ONNX, not a detail of the old one.
NEWER_ONNX = [
    ("mode:wrap", 19, "`wrap` mode (Pad-19)"),
    ("feed:axes-input", 18, "the `axes` input (Pad-18)"),
    ("feed:axes-constant-node", 18, "the `axes` input (Pad-18)"),
    ("feature:axes-", 18, "the `axes` input (Pad-18)"),
    ("type:float8", 21, "float8 types (Pad-21)"),
    ("type:int4", 21, "4-bit types (Pad-21)"),
    ("type:uint4", 21, "4-bit types (Pad-21)"),
    ("type:float4e2m1", 23, "float4e2m1 (Pad-23)"),
    ("type:float8e8m0", 24, "float8e8m0 (Pad-24)"),
    ("type:int2", 25, "2-bit types (Pad-25)"),
    ("type:uint2", 25, "2-bit types (Pad-25)"),
]


REFUSALS_NOTE = (
    "Counted by the case's features, not by the runtime's reason (each case's detail in the "
    "report gives that): a \"newer ONNX\" row counts the refused cases that use a feature a "
    "later Pad version brought (the first of them in the case), the other rows the cases of "
    "a feature the runtime lacks at the case's own opset.")


def tag(case, prefix):
    for t in case["tags"]:
        if t.startswith(prefix + ":"):
            return t.split(":", 1)[1]
    return ""


def report_path(runtime):
    return os.path.join(ROOT, "docs", "conformance", f"{runtime}.json")


def page_path(runtime):
    return os.path.join(ROOT, "docs", "peers", f"{runtime}.md")


# The reference evaluators padkit's classification is read from: where a case says the
# reference is wrong (`onnx:reference-wrong`), its refusal is one of its defects too, and
# where ONNX leaves the answer open (`onnx:open`), its other answer is none.
REFERENCES = {"onnx-reference-1.24"}


def failing_groups(report, runtime):
    """{(verdict, mode, feature): [case, …]} of the runtime's wrong answers and crashes (and,
    for a reference evaluator, its refusals of the cases where it is wrong)."""
    groups = {}
    for case in report["cases"]:
        v = case["results"][runtime]["verdict"]
        if runtime in REFERENCES and "onnx:open" in case["tags"]:
            continue
        wrongly_refused = (v == "refused" and runtime in REFERENCES
                           and "onnx:reference-wrong" in case["tags"])
        if v in ("wrong", "crash") or wrongly_refused:
            key = (v, tag(case, "mode"), tag(case, "feature"))
            groups.setdefault(key, []).append(case)
    return groups


def refusals(report, runtime, must_fail):
    """{(why, feature): count} of the valid cases (not in `must_fail`) the runtime refuses: a newer ONNX's
    feature where one of NEWER_ONNX matches (first match), else the case's mode and
    feature."""
    out = {}
    groups = {c["name"] for cases in failing_groups(report, runtime).values() for c in cases}
    for case in report["cases"]:
        if case["results"][runtime]["verdict"] != "refused" or case["name"] in must_fail:
            continue
        if case["name"] in groups:  # (a reference's wrong refusal: one of its groups)
            continue
        newer = next((what for prefix, _, what in NEWER_ONNX
                      if any(t.startswith(prefix) for t in case["tags"])), None)
        if tag(case, "opset") == "ai.padkit-1":
            key = ("padkit's own domain (`ai.padkit`)", tag(case, "mode"))
        elif newer:
            key = ("newer ONNX: " + newer, "")
        else:
            key = ("missing", f"{tag(case, 'mode')} · {tag(case, 'feature')}")
        out[key] = out.get(key, 0) + 1
    return out


# ---------------------------------------------------------------------------------------
# A case as data the reducer changes and the reproducer prints.


class Case:
    """One Pad case: the model's opset and node, its data `x`, and each other operand as
    (name, array, kind) with kind "input" (a graph input), "initializer" or "constant"
    (a Constant node); attributes as the node has them."""

    def __init__(self, case_dir):
        import onnx
        from onnx import numpy_helper

        m = onnx.load(os.path.join(case_dir, "model.onnx"))
        g = m.graph
        self.opsets = [(o.domain, o.version) for o in m.opset_import]
        self.ir_version = m.ir_version
        node = next(n for n in g.node if n.op_type != "Constant")
        self.op, self.domain = node.op_type, node.domain
        self.attributes = {}
        for a in node.attribute:
            value = onnx.helper.get_attribute_value(a)
            self.attributes[a.name] = value.decode() if isinstance(value, bytes) else value
        inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        consts = {}
        for n in g.node:
            if n.op_type == "Constant":
                consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
        fed = {}
        for k, gi in enumerate(g.input):
            t = onnx.load_tensor(os.path.join(case_dir, "test_data_set_0", f"input_{k}.pb"))
            fed[gi.name] = numpy_helper.to_array(t)
        self.elem_type = g.input[0].type.tensor_type.elem_type
        self.x = fed[node.input[0]]
        self.operands = []
        for name in node.input[1:]:
            if not name:
                self.operands.append(("", None, ""))
            elif name in fed:
                self.operands.append((name, fed[name], "input"))
            elif name in inits:
                self.operands.append((name, inits[name], "initializer"))
            else:
                self.operands.append((name, consts[name], "constant"))

    def model(self):
        import onnx
        from onnx import helper, numpy_helper

        inputs = [helper.make_tensor_value_info("x", self.elem_type, list(self.x.shape))]
        inits, nodes, names = [], [], ["x"]
        for name, value, kind in self.operands:
            names.append(name)
            if kind == "input":
                code = helper.np_dtype_to_tensor_dtype(value.dtype)
                inputs.append(helper.make_tensor_value_info(name, code, list(value.shape)))
            elif kind == "initializer":
                inits.append(numpy_helper.from_array(value, name))
            elif kind == "constant":
                nodes.append(helper.make_node("Constant", [], [name],
                                              value=numpy_helper.from_array(value, name)))
        nodes.append(helper.make_node(self.op, names, ["y"], domain=self.domain or None,
                                      **self.attributes))
        y = helper.make_tensor_value_info("y", self.elem_type, None)
        graph = helper.make_graph(nodes, "pad", inputs, [y], inits)
        opsets = [helper.make_opsetid(d, v) for d, v in self.opsets]
        return helper.make_model(graph, opset_imports=opsets, ir_version=self.ir_version)

    def feeds(self):
        feeds = {"x": self.x}
        feeds.update({n: v for n, v, kind in self.operands if kind == "input"})
        return feeds

    def pads_slot(self):
        """Where the pads are: ("attribute", name) or ("operand", index)."""
        for name in ("pads", "paddings"):
            if name in self.attributes:
                return ("attribute", name)
        return ("operand", 0) if self.operands and self.operands[0][1] is not None else None


# Outputs padkit's core computes for the reducer: valid cases shrink below it. A case that
# must fail is run without it (the core refuses it by its rule, not by this limit), under
# CORE_MEMORY_KIB of address space.
CORE_OUTPUT_BYTES = 1 << 26
CORE_MEMORY_KIB = 1 << 20


def core(padkit, model, feeds, tmp, must_error=False):
    """padkit's core on the model: ("ok", output) or ("error", message)."""
    import onnx
    import numpy as np

    path = os.path.join(tmp, "core.onnx")
    onnx.save(model, path)
    out = os.path.join(tmp, "core-out")
    limit = (1 << 63) - 1 if must_error else CORE_OUTPUT_BYTES
    args = ["sh", "-c", f"ulimit -v {CORE_MEMORY_KIB}; exec \"$@\"", "sh",
            padkit, "run", "--engine", "core", path, "--output-dir", out,
            "--max-output-bytes", str(limit)]
    for name, value in feeds.items():
        # (strings as a TensorProto: numpy writes object arrays into .npy only pickled)
        if value.dtype.kind in "OSU":
            path = os.path.join(tmp, f"{name}.pb")
            onnx.save_tensor(onnx.numpy_helper.from_array(value, name), path)
        else:
            path = os.path.join(tmp, f"{name}.npy")
            np.save(path, value)
        args += ["--input", f"{name}={path}"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        return ("error", done.stderr.strip())
    return ("ok", onnx.numpy_helper.to_array(onnx.load_tensor(os.path.join(out, "y.pb"))))


def runtime_worker(runtime, jobs, results, memory_bytes):
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    for path, feeds in iter(jobs.get, None):
        import onnx

        try:
            got = runtimes.RUNNERS[runtime](path, onnx.load(path), feeds)
            results.put(("ok", got))
        except Exception as e:  # the runtime refused
            results.put(("error", f"{type(e).__name__}: {e}"))


class Runtime:
    """The runtime in a worker process, replaced when it dies or hangs."""

    def __init__(self, name, memory_gib):
        self.name, self.proc = name, None
        self.memory_bytes = memory_gib << 30
        self.ctx = mp.get_context("spawn")

    def run(self, model, feeds, tmp):
        """("ok", output), ("error", message) or ("crash", why)."""
        import onnx

        path = os.path.join(tmp, "runtime.onnx")
        onnx.save(model, path)
        if self.proc is None or not self.proc.is_alive():
            self.jobs, self.results = self.ctx.Queue(), self.ctx.Queue()
            self.proc = self.ctx.Process(target=runtime_worker,
                                         args=(self.name, self.jobs, self.results,
                                               self.memory_bytes), daemon=True)
            self.proc.start()
        self.jobs.put((path, feeds))
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                return self.results.get(timeout=0.2)
            except queue.Empty:
                if not self.proc.is_alive():
                    try:  # an answer put just before it exited
                        return self.results.get(timeout=0.5)
                    except queue.Empty:
                        break
        code = self.proc.exitcode
        self.proc.kill()
        self.proc = None
        return ("crash", "hung" if code is None else f"died with exit code {code}")

    def close(self):
        if self.proc is not None and self.proc.is_alive():
            self.jobs.put(None)
            self.proc.join(5)


def same(a, b):
    import numpy as np

    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "c":
        a, b = np.stack([a.real, a.imag]), np.stack([b.real, b.imag])
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True)) and bool(
            np.array_equal(np.signbit(a), np.signbit(b)))
    return bool(np.array_equal(a, b))


def rule(message):
    """The rule an error of padkit's core names, its numbers left out."""
    return re.sub(r"-?\d+(\.\d+)?", "N", message.split(": ", 2)[-1])


def fails(verdict, must_error, expected, got, original=None):
    """Whether the runtime's answer `got` is still a defect of kind `verdict` where padkit's
    core answers `expected`; for a case that must fail, the core's error must name the
    rule it named on the `original` case."""
    if must_error and not (expected[0] == "error"
                           and (original is None or rule(expected[1]) == rule(original))):
        return False
    if verdict == "crash":
        return got[0] == "crash" and (must_error or expected[0] == "ok")
    if verdict == "refused":
        return expected[0] == "ok" and got[0] == "error"
    if must_error:
        return got[0] == "ok"
    return expected[0] == "ok" and got[0] == "ok" and not same(got[1], expected[1])


def candidates(case):
    """Smaller cases, one step each: an extent less one, a pad nearer zero, the data's
    values 1, 2, 3, …"""
    import numpy as np

    x = case.x
    for axis in range(x.ndim):
        if x.shape[axis] > 1:
            c = _copy(case)
            c.x = np.take(x, range(x.shape[axis] - 1), axis=axis)
            yield c
    slot = case.pads_slot()
    if slot:
        pads = (list(case.attributes[slot[1]]) if slot[0] == "attribute"
                else case.operands[0][1].tolist())
        for k, p in enumerate(pads):
            for q in ([0, int(p / 2)] if abs(p) > 2 else [p - 1 if p > 0 else p + 1]):
                if p == 0 or q == p:
                    continue
                c = _copy(case)
                new = list(pads)
                new[k] = q
                _set_pads(c, slot, new)
                yield c
    if x.size and x.dtype.kind in "fiu":
        ramp = np.arange(1, x.size + 1).reshape(x.shape).astype(x.dtype)
        if not np.array_equal(ramp, x):
            c = _copy(case)
            c.x = ramp
            yield c


def _copy(case):
    import copy

    c = copy.copy(case)
    c.attributes = dict(case.attributes)
    c.operands = list(case.operands)
    return c


def _set_pads(case, slot, pads):
    import numpy as np

    if slot[0] == "attribute":
        case.attributes[slot[1]] = pads
    else:
        name, _, kind = case.operands[0]
        case.operands[0] = (name, np.array(pads, dtype=np.int64), kind)


def reduce(case, verdict, must_error, runtime, padkit, tmp):
    """The smallest case found that still fails as the group's does, the core's and the
    runtime's answers on it, and how many steps were kept."""
    expected = core(padkit, case.model(), case.feeds(), tmp, must_error)
    got = runtime.run(case.model(), case.feeds(), tmp)
    if not fails(verdict, must_error, expected, got):
        return None
    original = expected[1] if must_error else None
    if verdict == "crash" and must_error:
        # a crash where the Pad must fail (its output too large, its extents overflowing)
        # is the runtime dying on an allocation no machine holds: a smaller case would only
        # bring that allocation under the worker's address space
        return case, expected, got, 0
    attempts, kept = 0, 0
    progress = True
    while progress and attempts < MAX_ATTEMPTS:
        progress = False
        for c in candidates(case):
            attempts += 1
            e = core(padkit, c.model(), c.feeds(), tmp, must_error)
            g = runtime.run(c.model(), c.feeds(), tmp)
            if fails(verdict, must_error, e, g, original):
                case, expected, got, kept, progress = c, e, g, kept + 1, True
                break
            if attempts >= MAX_ATTEMPTS:
                break
    return case, expected, got, kept


# ---------------------------------------------------------------------------------------
# The reproducer: Python a runtime author can paste.

RUN_LINES = {
    "openvino": [
        "import openvino as ov",
        "core = ov.Core()",
        "compiled = core.compile_model(core.read_model(model.SerializeToString()), \"CPU\")",
        "got = compiled(feeds)[0]",
    ],
    "tinygrad": [
        "from tinygrad import Tensor",
        "from tinygrad.nn.onnx import OnnxRunner",
        "onnx.save(model, \"pad.onnx\")",
        "got = OnnxRunner(\"pad.onnx\")({k: Tensor(v) for k, v in feeds.items()})[\"y\"].numpy()",
    ],
    "tvm": [
        "import tvm",
        "from tvm import relax",
        "from tvm.relax.frontend.onnx import from_onnx",
        "vm = relax.VirtualMachine(tvm.compile(from_onnx(model, keep_params_in_input=False), "
        "target=\"llvm\"), tvm.cpu())",
        "got = vm[\"main\"](*[tvm.runtime.tensor(v) for v in feeds.values()]).numpy()",
    ],
    "rten": [
        "import os, subprocess, tempfile",
        "# rten is Rust: padkit's tools/rten-peer runs the model with rten 0.27's Model::load and run",
        "d = tempfile.mkdtemp()",
        "onnx.save(model, os.path.join(d, \"model.onnx\"))",
        "for k, i in enumerate(model.graph.input):",
        "    onnx.save_tensor(numpy_helper.from_array(feeds[i.name], i.name), os.path.join(d, f\"input_{k}.pb\"))",
        "peer = os.environ.get(\"RTEN_PEER\", \"target/release/rten-peer\")",
        "subprocess.run([peer, \"--run\", d, os.path.join(d, \"y.pb\")], check=True)",
        "got = numpy_helper.to_array(onnx.load_tensor(os.path.join(d, \"y.pb\")))",
    ],
    "onnx-reference-1.24": [
        "from onnx.reference import ReferenceEvaluator",
        "got = ReferenceEvaluator(model).run(None, feeds)[0]",
    ],
    "onnx2torch": [
        "import torch",
        "from onnx2torch import convert",
        "got = convert(model)(*[torch.from_numpy(v) for v in feeds.values()]).numpy()",
    ],
}


def literal(a):
    """`a` as a numpy expression."""
    import numpy as np

    a = np.asarray(a)
    special = {"inf": "np.inf", "-inf": "-np.inf", "nan": "np.nan"}

    def real(v):
        return special.get(repr(float(v)), repr(float(v)))

    if a.dtype.kind == "f":
        body = f"[{', '.join(real(v) for v in a.reshape(-1))}]"
    elif a.dtype.kind == "c":
        body = f"[{', '.join(f'complex({real(v.real)}, {real(v.imag)})' for v in a.reshape(-1))}]"
    else:
        body = repr(a.reshape(-1).tolist())
    # (numpy's object arrays, ONNX's strings: `object`, which numpy no longer names np.object)
    dtype = "object" if a.dtype.kind == "O" else f"np.{a.dtype.name}"
    return f"np.array({body}, dtype={dtype}).reshape({list(a.shape)})"


def reproducer(case, runtime, expected):
    lines = ["import numpy as np", "import onnx", "from onnx import helper, numpy_helper", ""]
    lines.append(f"x = {literal(case.x)}")
    names, inits, inputs, consts = ["\"x\""], [], [
        f"helper.make_tensor_value_info(\"x\", {case.elem_type}, x.shape)"], []
    feeds = ["\"x\": x"]
    for name, value, kind in case.operands:
        names.append(repr(name))
        if kind == "":
            continue
        var = re.sub(r"\W", "_", name)
        lines.append(f"{var} = {literal(value)}")
        if kind == "input":
            inputs.append(f"helper.make_tensor_value_info({name!r}, "
                          f"helper.np_dtype_to_tensor_dtype({var}.dtype), {var}.shape)")
            feeds.append(f"{name!r}: {var}")
        elif kind == "initializer":
            inits.append(f"numpy_helper.from_array({var}, {name!r})")
        else:
            consts.append(f"helper.make_node(\"Constant\", [], [{name!r}], "
                          f"value=numpy_helper.from_array({var}, {name!r}))")
    def py(v):
        special = {"nan": "float('nan')", "inf": "float('inf')", "-inf": "-float('inf')"}
        return special.get(repr(v), repr(v)) if isinstance(v, float) else repr(v)

    attrs = "".join(f", {k}={py(v)}" for k, v in case.attributes.items())
    domain = f", domain={case.domain!r}" if case.domain else ""
    lines.append(f"pad = helper.make_node({case.op!r}, [{', '.join(names)}], [\"y\"]{domain}{attrs})")
    lines.append(f"graph = helper.make_graph([{''.join(c + ', ' for c in consts)}pad], \"pad\", "
                 f"[{', '.join(inputs)}], "
                 f"[helper.make_tensor_value_info(\"y\", {case.elem_type}, None)], "
                 f"[{', '.join(inits)}])")
    opsets = ", ".join(f"helper.make_opsetid({d!r}, {v})" for d, v in case.opsets)
    lines.append(f"model = helper.make_model(graph, opset_imports=[{opsets}], "
                 f"ir_version={case.ir_version})")
    lines.append(f"feeds = {{{', '.join(feeds)}}}")
    lines.append("")
    lines += RUN_LINES[runtime]
    if expected[0] == "ok":
        lines.append(f"expected = {literal(expected[1])}")
        lines.append("print(\"got     \", got.tolist())")
        lines.append("print(\"expected\", expected.tolist())")
    else:
        lines.append("print(\"got\", got.tolist(), \"where ONNX's Pad must fail\")")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------


def write_page(args):
    import numpy as np

    with open(report_path(args.runtime)) as f:
        report = json.load(f)
    version = report.get("versions", {}).get(args.runtime, "?")
    manifest = {c["name"]: c for c in json.load(open(os.path.join(args.suite, "manifest.json")))["cases"]}
    groups = failing_groups(report, args.runtime)
    runtime = Runtime(args.runtime, args.memory_gib)
    out = [f"# {args.runtime} {version}: Pad defects on padkit's suite", ""]
    out.append(provenance(args.runtime, report))
    out.append("")
    counts = {v: sum(len(c) for k, c in groups.items() if k[0] == v)
              for v in ("wrong", "crash", "refused")}
    refused = (f", {counts['refused']} refusals of valid models"
               if args.runtime in REFERENCES else "")
    out.append(f"**{counts['wrong']} wrong answers and {counts['crash']} crashes{refused} in "
               f"{len(groups)} groups.**")
    out.append("")
    if args.runtime in REFERENCES:
        out.append("The groups are the reference's defects by the classes of "
                   "[docs/conformance.md](../conformance.md#what-onnx-says-about-each-case): "
                   "its refusals of valid models and its answers where the spec requires an "
                   "error or another value (`onnx:reference-wrong`). Where ONNX leaves the "
                   "answer open (`onnx:open`) its answer is no defect, and where padkit "
                   "answers beyond ONNX (`onnx:beyond`) its refusal passes.")
        out.append("")
    with tempfile.TemporaryDirectory() as tmp:
        for (verdict, mode, feature), cases in sorted(groups.items()):
            names = sorted(c["name"] for c in cases)
            types = sorted({tag(c, "type") for c in cases})
            opsets = sorted({tag(c, "opset") for c in cases})
            out.append(f"## {verdict}: {mode}, {feature} ({len(cases)} cases)")
            out.append("")
            out.append(f"Types: {', '.join(types)}. Opsets: {', '.join(opsets)}.")
            out.append("")
            # the case with the fewest output elements first
            def size(name):
                exp = manifest[name]["expected"]
                return int(np.prod(exp["output"]["shape"])) if "output" in exp else 0
            reduced = None
            for name in sorted(names, key=lambda n: (size(n), n))[:3]:
                case = Case(os.path.join(args.suite, name))
                must_error = "error" in manifest[name]["expected"]
                reduced = reduce(case, verdict, must_error, runtime, args.padkit, tmp)
                if reduced:
                    break
            if reduced is None:
                out.append(f"Not reproduced by the reducer outside the suite's harness "
                           f"(first case: `{names[0]}`); the report's detail: "
                           f"{cases[0]['results'][args.runtime].get('detail', '')}")
                out.append("")
            else:
                case, expected, got, kept = reduced
                out.append(f"Smallest case (from `{name}`, {kept} reducing steps kept): data "
                           f"{list(case.x.shape)}.")
                out.append("")
                def shown(a):
                    a = np.asarray(a)
                    return f"`{a.tolist()}` (shape {list(a.shape)}, {a.dtype})"
                if expected[0] == "ok":
                    out.append(f"- expected: {shown(expected[1])}")
                else:
                    out.append(f"- expected: an error ({expected[1][:200]})")
                if got[0] == "ok":
                    out.append(f"- {args.runtime}: {shown(got[1])}")
                else:
                    out.append(f"- {args.runtime}: {got[0]} ({got[1][:200]})")
                out.append("")
                out.append("```python")
                out.append(reproducer(case, args.runtime, expected))
                out.append("```")
                out.append("")
            out.append("<details><summary>cases</summary>")
            out.append("")
            out.extend(f"- `{n}`" for n in names)
            out.append("")
            out.append("</details>")
            out.append("")
    runtime.close()
    out.append(refusals_section(report, args.runtime, manifest))
    os.makedirs(os.path.dirname(page_path(args.runtime)), exist_ok=True)
    with open(page_path(args.runtime), "w") as f:
        f.write("\n".join(out))


REFUSALS_HEAD = "## Refusals of valid cases"


def provenance(runtime, report):
    """The page's second paragraph: how it was made, from which report."""
    return (f"Generated by `python3 tests/peers/defects.py {runtime} --suite SUITE "
            f"--padkit PADKIT` from `docs/conformance/{runtime}.json` (suite "
            f"{report['suite']['digest'][:12]}…); checked against that report by "
            f"`--check-report` in CI, and its reproducers re-run by `--run-reproducers` "
            f"where {runtime} is installed. Expected outputs are padkit's core's, which the "
            f"suite grades against numpy and onnx's reference evaluator.")


def refusals_section(report, runtime, manifest):
    """The page's last section: the valid cases the runtime refuses, counted by why."""
    out = [REFUSALS_HEAD, "", REFUSALS_NOTE, "", "| why | mode · feature | cases |", "|---|---|---|"]
    must_fail = {n for n, c in manifest.items() if "error" in c["expected"]}
    for (why, what), n in sorted(refusals(report, runtime, must_fail).items()):
        out.append(f"| {why} | {what} | {n} |")
    out.append("")
    return "\n".join(out)


def refresh(args):
    """The page's provenance and refusals from the report, its groups kept: for a report
    graded again without the runtime (tests/peers/regrade.py), whose wrong answers and
    crashes are the page's (as --check-report checks)."""
    check_report(args, provenance_checked=False)
    with open(report_path(args.runtime)) as f:
        report = json.load(f)
    with open(os.path.join(args.suite, "manifest.json")) as f:
        manifest = {c["name"]: c for c in json.load(f)["cases"]}
    with open(page_path(args.runtime)) as f:
        lines = f.read().split("\n")
    at = lines.index(REFUSALS_HEAD)
    first = next(i for i, l in enumerate(lines) if l.startswith("Generated by "))
    lines[first] = provenance(args.runtime, report)
    page = "\n".join(lines[:at]) + "\n" + refusals_section(report, args.runtime, manifest)
    with open(page_path(args.runtime), "w") as f:
        f.write(page)


def check_report(args, provenance_checked=True):
    """Every wrong answer and crash of the report is listed in its group of the page, and
    the page names the report's suite (unless `provenance_checked` is false)."""
    with open(report_path(args.runtime)) as f:
        report = json.load(f)
    with open(page_path(args.runtime)) as f:
        page = f.read()
    problems = []
    sections = re.split(r"^## ", page, flags=re.M)
    listed = {}
    for s in sections[1:]:
        head = s.split("\n", 1)[0]
        listed[head] = set(re.findall(r"^- `(test_[^`]+)`", s, flags=re.M))
    for (verdict, mode, feature), cases in failing_groups(report, args.runtime).items():
        head = f"{verdict}: {mode}, {feature} ({len(cases)} cases)"
        names = {c["name"] for c in cases}
        if listed.get(head) != names:
            problems.append(f"group `{head}` of the report is not the page's")
    groups = [h for h in listed if h.startswith(("wrong:", "crash:", "refused:"))]
    if len(groups) != len(failing_groups(report, args.runtime)):
        problems.append("the page has groups the report does not")
    if provenance_checked and provenance(args.runtime, report) not in page:
        problems.append(f"it names another suite than the report's "
                        f"({report['suite']['digest'][:12]}…)")
    for p in problems:
        print(f"{page_path(args.runtime)}: {p}", file=sys.stderr)
    if problems:
        sys.exit(f"regenerate it: python3 tests/peers/defects.py {args.runtime} --suite SUITE "
                 f"--padkit PADKIT")
    print(f"{args.runtime}: the page lists the report's {sum(len(v) for v in listed.values())} "
          f"failing cases in {len(groups)} groups")


def run_reproducers(args):
    """Each reproducer of the page, as pasted: the runtime's answer still differs from the
    page's expected one (or it still crashes or refuses), and padkit's core gives that
    expected answer on the reproducer's model."""
    import numpy as np
    import onnx

    if not runtimes.installed(args.runtime):
        sys.exit(f"not run: {args.runtime} is not installed (tests/peers/requirements-matrix.txt)")
    with open(page_path(args.runtime)) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, code in enumerate(blocks):
            # the model and feeds saved before the runtime's lines, its answer after them
            at = code.index(RUN_LINES[args.runtime][0])
            script = (code[:at] + "onnx.save(model, 'repro.onnx')\nnp.savez('feeds.npz', **feeds)\n"
                      + code[at:] + "\nnp.save('got.npy', np.asarray(got))\n"
                      "if 'expected' in dir():\n    np.save('expected.npy', expected)\n")
            for f in ("got.npy", "expected.npy"):
                if os.path.exists(os.path.join(tmp, f)):
                    os.remove(os.path.join(tmp, f))
            with open(os.path.join(tmp, "repro.py"), "w") as f:
                f.write(script)
            env = dict(os.environ, RTEN_PEER=runtimes.rten_peer())

            def limited():
                import resource

                memory = args.memory_gib << 30
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

            done = subprocess.run([sys.executable, "repro.py"], cwd=tmp, capture_output=True,
                                  text=True, timeout=TIMEOUT_S * 2, env=env,
                                  preexec_fn=limited)
            model = onnx.load(os.path.join(tmp, "repro.onnx"))
            with np.load(os.path.join(tmp, "feeds.npz"), allow_pickle=True) as z:
                feeds = {name: z[name] for name in z.files}
            has_expected = "expected = " in code
            want = core(args.padkit, model, feeds, tmp, must_error=not has_expected)
            if done.returncode != 0:
                # the runtime crashed or refused: the defect itself, for a crash group
                still = not os.path.exists(os.path.join(tmp, "got.npy"))
                how = f"fails ({done.stderr.strip().splitlines()[-1][:160]})"
            else:
                got = np.load(os.path.join(tmp, "got.npy"), allow_pickle=True)
                if has_expected:
                    still = not same(got, np.load(os.path.join(tmp, "expected.npy"), allow_pickle=True))
                else:
                    still = True  # it answered where the Pad must fail
                how = "answers" + (" wrong" if still else " right")
            if has_expected:
                expected = np.load(os.path.join(tmp, "expected.npy"), allow_pickle=True) if os.path.exists(
                    os.path.join(tmp, "expected.npy")) else None
                if expected is None:
                    line = next(l for l in code.splitlines() if l.startswith("expected = "))
                    expected = eval(line[len("expected = "):], {"np": np})
                core_agrees = want[0] == "ok" and same(want[1], expected)
            else:
                core_agrees = want[0] == "error"
            print(f"reproducer {k}: {args.runtime} {how}; padkit's core "
                  f"{'gives the page' + chr(39) + 's answer' if core_agrees else 'DISAGREES'}")
            failures += (not still) + (not core_agrees)
    print(f"{len(blocks)} reproducers, {failures} not as the page says")
    if failures:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runtime", choices=sorted(runtimes.RUNNERS))
    parser.add_argument("--suite", help="a directory `padkit suite export` wrote")
    parser.add_argument("--padkit", help="the padkit binary")
    parser.add_argument("--check-report", action="store_true")
    parser.add_argument("--run-reproducers", action="store_true")
    parser.add_argument("--refresh", action="store_true",
                        help="only the page's provenance and refusals, from the report")
    parser.add_argument("--memory-gib", type=int, default=12,
                        help="the address space the runtime may take on one case (the "
                        "graders give 12 GiB; less makes a runtime that dies on huge "
                        "allocations die sooner)")
    args = parser.parse_args()
    if args.check_report:
        return check_report(args)
    if args.refresh:
        if not args.suite:
            parser.error("--suite is needed")
        return refresh(args)
    if not args.padkit:
        parser.error("--padkit is needed")
    if args.run_reproducers:
        return run_reproducers(args)
    if not args.suite:
        parser.error("--suite is needed")
    if not runtimes.installed(args.runtime):
        sys.exit(f"not run: {args.runtime} is not installed (tests/peers/requirements-matrix.txt)")
    write_page(args)


if __name__ == "__main__":
    main()
