#!/usr/bin/env python3
"""Grades ONNX Runtime and onnx's reference evaluator on a suite `padkit suite export`
wrote, and ONNX Runtime on each model lowered by `padkit lower` (its Pads as standard ops:
`onnxruntime-lowered`) and by `padkit lower --target onnxruntime` (the Pads ONNX Runtime
runs right kept: `onnxruntime-targeted`), and writes the verdicts as padkit's JSON report
(padkit_conformance::Report).

    python3 tests/peers/run.py SUITE_DIR OUT.json --padkit PADKIT \
        [--engine onnxruntime|onnx-reference|onnx-reference-1.24|onnxruntime-lowered|onnxruntime-targeted]

A model `padkit lower` refuses is the lowered engine's error on the case.

Each case runs in a worker process (`--jobs` workers at once, the CPUs by default), so
that a peer that crashes or hangs costs one case ("crash"), not the run; a failure of the
script itself stops the run. Verdicts as padkit grades them: an output bit-equal to the
expected one (in float16, bfloat16, float and double any NaN matches any NaN) passes; an
error where the manifest says the case must fail passes; an error otherwise is "refused";
another output, or an output where the case must fail, is "wrong". A case the harness cannot put to the engine (an element type the
engine's Python binding cannot take from numpy or give back: see `harness_limit`) is
"untested", not charged to the engine. As padkit's `credit_error` has it, an error on a case
that must fail passes only where the engine passes the case's valid twin (the manifest's
"twin"); otherwise the case reads unsupported (a twin declared so) or untested. At the
end it prints a tally per engine.
"""

import argparse
import concurrent.futures
import json
import multiprocessing as mp
import os
import sys

import numpy as np

TIMEOUT_S = 60
# As padkit_conformance::report::DETAIL_CHARS.
DETAIL_CHARS = 240


class NotRun(Exception):
    """The harness could not put the case to the engine: why (the verdict is untested)."""


# ONNX element type codes and their names as padkit writes them (padkit::DType::name).
DTYPE_NAMES = {
    1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64",
    8: "string", 9: "bool", 10: "float16", 11: "double", 12: "uint32", 13: "uint64",
    14: "complex64", 15: "complex128", 16: "bfloat16", 17: "float8e4m3fn",
    18: "float8e4m3fnuz", 19: "float8e5m2", 20: "float8e5m2fnuz", 21: "uint4", 22: "int4",
    23: "float4e2m1", 24: "float8e8m0", 25: "uint2", 26: "int2",
}

# What onnxruntime's Python binding says when it meets a numpy array it cannot convert, or
# an output it cannot give back as one (onnxruntime_pybind_mlvalue.cc, not the runtime).
ORT_BINDING_ERRORS = (
    "can't be converted to MLDataType",
    "No corresponding Numpy type for Tensor Type",
    "Creation of OrtValues is currently only supported from non-string numpy arrays",
)


def harness_limit(engine, model):
    """Why the harness cannot feed `model`'s inputs to `engine` or read its outputs back,
    or None. These are the limits of the engine's Python binding (what numpy arrays it
    takes and gives), not of the engine: a case they stop is "untested". A type the
    binding can feed but the engine rejects (no kernel for it, an invalid model) is no such
    limit: the engine's own error stands as a refusal. Found by running (onnxruntime
    1.32.0, onnx 1.23.2, numpy 2.4.6, ml_dtypes 0.6.0) tiny Pad, Identity, Cast and
    DequantizeLinear models on every ONNX type; see the reasons below.
    """
    limits = {
        # onnxruntime's binding converts only numpy's own types (session.run fails with
        # "Numpy_type N can't be converted to MLDataType", OrtValue.ortvalue_from_numpy with
        # "Creation of OrtValues is currently only supported from non-string numpy
        # arrays"), and gives back no output of the types numpy holds only through
        # ml_dtypes ("No corresponding Numpy type for Tensor Type"). Strings it does take
        # (object arrays). Those types (bfloat16, the float8s, the 4- and 2-bit types) are
        # no limit: `run_onnxruntime` feeds them as OrtValues of their ONNX bytes tagged
        # with their type and reads an output's bytes back (`_ort_run_raw`).
        "onnxruntime": {
            # numpy's complex64 / complex128: OrtValue.ortvalue_from_numpy fails with
            # "Numpy_type 14 / 15 can't be converted to MLDataType". onnxruntime itself
            # registers no complex tensor type ("MLDataType for: tensor(complex64) is not
            # currently registered or supported" at session creation), so today its own
            # refusal comes first and stands.
            14: "the Python binding does not convert numpy's complex64 arrays",
            15: "the Python binding does not convert numpy's complex128 arrays",
        },
        # The reference evaluator runs on the numpy arrays onnx.numpy_helper gives (ml_dtypes
        # ones included): every type feeds and comes back.
        "onnx-reference": {},
    }[engine]
    for what, values in (("feed", model.graph.input), ("read", model.graph.output)):
        for v in values:
            code = v.type.tensor_type.elem_type if v.type.HasField("tensor_type") else 0
            if code in limits:
                name = DTYPE_NAMES[code]
                if what == "feed":
                    return f"the harness cannot feed {name} to {engine} ({limits[code]})"
                return f"the harness cannot read {name} back from {engine} ({limits[code]})"
    return None


def load_model(case_dir):
    import onnx

    return onnx.load(os.path.join(case_dir, "model.onnx"))


def load_feeds(case_dir, model):
    """The case's inputs as numpy arrays; NotRun where onnx cannot read one."""
    import onnx
    from onnx import numpy_helper

    data = os.path.join(case_dir, "test_data_set_0")
    feeds = {}
    for k, graph_input in enumerate(model.graph.input):
        try:
            tensor = onnx.load_tensor(os.path.join(data, f"input_{k}.pb"))
            feeds[graph_input.name] = numpy_helper.to_array(tensor)
        except Exception as e:
            raise NotRun(f"the harness cannot load input_{k}.pb ({type(e).__name__}: {e})")
    return feeds


def _declared_types(model):
    """The element type codes `model`'s graph inputs and outputs declare."""
    return {
        v.type.tensor_type.elem_type
        for v in list(model.graph.input) + list(model.graph.output)
        if v.type.HasField("tensor_type")
    }


def _ort_run_raw(session, model, feeds):
    """session.run for `model`, whose inputs or outputs hold types numpy holds only through
    ml_dtypes, which the binding's numpy conversion does not take or give: each such feed
    goes in as an OrtValue of its ONNX type made from the bytes ONNX holds it in
    (`OrtValue.ortvalue_from_numpy_with_onnx_type` takes the tensor's shape from the array
    it is handed and copies the tensor's bytes from its start: an array of one byte or one
    uint16 an element, the packed bytes first), every other feed as
    OrtValue.ortvalue_from_numpy; such an output comes back as its bytes, copied out of
    the OrtValue, as the ml_dtypes array onnx.numpy_helper gives the expected output."""
    import ctypes

    import onnxruntime as ort
    import runtimes

    values = {}
    for graph_input in model.graph.input:
        x = feeds[graph_input.name]
        code = graph_input.type.tensor_type.elem_type
        if code not in runtimes.ML_DTYPES:
            values[graph_input.name] = ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(x))
            continue
        holder = np.zeros(x.shape, np.uint16 if x.dtype.itemsize == 2 else np.uint8)
        raw = runtimes.onnx_bytes(x, code)
        holder.reshape(-1).view(np.uint8)[: raw.size] = raw
        values[graph_input.name] = ort.OrtValue.ortvalue_from_numpy_with_onnx_type(holder, code)
    out = session.run_with_ort_values(None, values)[0]
    code = model.graph.output[0].type.tensor_type.elem_type
    if code not in runtimes.ML_DTYPES:
        return out.numpy()
    shape = tuple(out.shape())
    count = int(np.prod(shape, dtype=np.int64))
    bits = runtimes.SUB_BYTE_BITS.get(code, 16 if code == BFLOAT16 else 8)
    size = out.tensor_size_in_bytes()
    if size != -(-count * bits // 8):
        raise NotRun(f"the harness cannot read a {DTYPE_NAMES[code]} output of shape "
                     f"{list(shape)} that holds {size} bytes")
    # An empty output may have no buffer at all: read nothing from it.
    raw = ctypes.string_at(out.data_ptr(), size) if size else b""
    return runtimes.from_onnx_bytes(np.frombuffer(raw, np.uint8), shape, code)


def ort_run(session, model, feeds):
    """The first output of onnxruntime `session` of `model` on `feeds`: through OrtValues
    where the model declares a type numpy holds only through ml_dtypes (`_ort_run_raw`),
    else as `session.run` gives it. (python/tests/test_suite.py runs ONNX Runtime so.)"""
    if _declared_types(model) & set(ML_DTYPE_CODES):
        return _ort_run_raw(session, model, feeds)
    return session.run(None, feeds)[0]


# bfloat16's ONNX element type code (DTYPE_NAMES), and those of every type numpy holds
# only through ml_dtypes (tests/peers/runtimes.py's ML_DTYPES).
BFLOAT16 = 16
ML_DTYPE_CODES = range(16, 27)


def run_onnxruntime(case_dir, model_path=None):
    """onnxruntime on the case's model, or on the model at `model_path` (the case's,
    lowered), fed and read as the case's model declares."""
    import onnxruntime as ort

    model = load_model(case_dir)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    # The session first: its errors are onnxruntime's own, whatever the types.
    session = ort.InferenceSession(
        model_path or os.path.join(case_dir, "model.onnx"),
        options,
        providers=["CPUExecutionProvider"],
    )
    limit = harness_limit("onnxruntime", model)
    if limit is not None:
        raise NotRun(limit)
    feeds = load_feeds(case_dir, model)
    try:
        return ort_run(session, model, feeds)
    except Exception as e:
        # A conversion `harness_limit` does not know of: the binding's, not the runtime's.
        if any(m in str(e) for m in ORT_BINDING_ERRORS):
            raise NotRun(f"the harness cannot feed or read this case's types ({e})")
        raise


class LowerError(Exception):
    """`padkit lower` refused the model: the lowered engine's error on the case."""


def lowered(case_dir, target="portable"):
    """The case's model lowered by `padkit lower --target TARGET` (the binary at
    $PADKIT_BIN) into a file of this worker's scratch directory; LowerError with padkit's
    message where it refuses."""
    import subprocess
    import tempfile

    out = os.path.join(tempfile.gettempdir(), f"padkit-peers-lowered-{os.getpid()}.onnx")
    model = os.path.join(case_dir, "model.onnx")
    done = subprocess.run(
        [os.environ["PADKIT_BIN"], "lower", "--target", target, model, out],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise LowerError(done.stderr.strip())
    return out


def run_onnxruntime_lowered(case_dir):
    return run_onnxruntime(case_dir, lowered(case_dir))


def run_onnxruntime_targeted(case_dir):
    return run_onnxruntime(case_dir, lowered(case_dir, "onnxruntime"))


def run_reference(case_dir):
    from onnx.reference import ReferenceEvaluator

    model = load_model(case_dir)
    limit = harness_limit("onnx-reference", model)
    if limit is not None:
        raise NotRun(limit)
    feeds = load_feeds(case_dir, model)
    return ReferenceEvaluator(model).run(None, feeds)[0]


def run_matrix(name, target=None):
    """The engine of runtime `name` of the wider matrix (tests/peers/runtimes.py): the
    runtime's own error where it refuses the model, untested where the harness cannot
    hand it the case's types; on the model lowered by `padkit lower --target TARGET`
    where a target is given (its inputs and output are the original's)."""
    import runtimes

    def run(case_dir):
        model = load_model(case_dir)
        path = os.path.join(case_dir, "model.onnx")
        if target is not None:
            import onnx

            path = lowered(case_dir, target)
            # (its inputs and output are the original's; the runners that take the
            # model itself, not its file, take the lowered one)
            model = onnx.load(path)
        limit = runtimes.binding_limit(name, model)
        if limit is not None:
            raise NotRun(limit)
        feeds = load_feeds(case_dir, model)
        return runtimes.RUNNERS[name](path, model, feeds)

    return run


# The engines CI grades (docs/conformance/peers.json).
DEFAULT_ENGINES = ["onnxruntime", "onnx-reference", "onnxruntime-lowered", "onnxruntime-targeted"]

ENGINES = {
    "onnxruntime": run_onnxruntime,
    "onnx-reference": run_reference,
    # padkit-lower's rewrite of each model (`padkit lower`), run by onnxruntime
    "onnxruntime-lowered": run_onnxruntime_lowered,
    # the same, lowered for ONNX Runtime (`padkit lower --target onnxruntime`)
    "onnxruntime-targeted": run_onnxruntime_targeted,
    # the wider matrix, one report each (docs/conformance/RUNTIME.json)
    "openvino": run_matrix("openvino"),
    "tinygrad": run_matrix("tinygrad"),
    "tvm": run_matrix("tvm"),
    "onnx2torch": run_matrix("onnx2torch"),
    # each on the models lowered for it (`padkit lower --target RUNTIME`)
    "openvino-targeted": run_matrix("openvino", "openvino"),
    "tinygrad-targeted": run_matrix("tinygrad", "tinygrad"),
    "tvm-targeted": run_matrix("tvm", "tvm"),
    "onnx2torch-targeted": run_matrix("onnx2torch", "onnx2torch"),
    "rten-targeted": run_matrix("rten", "rten"),
    # onnx's next reference (docs/conformance/onnx-reference-1.24.json)
    "onnx-reference-1.24": run_matrix("onnx-reference-1.24"),
}

# The address space a worker of the wider matrix may take: a runtime that would allocate
# past it fails its case (a refusal or a crash), not the machine.
MATRIX_MEMORY_BYTES = 12 << 30


# The types in which any NaN matches any NaN, as padkit_conformance::compare has them;
# every other type compares bit for bit.
NAN_AWARE = {"float16", "bfloat16", "float32", "float64"}


def first_difference(got, want):
    """None when `got` equals `want` bit for bit (any NaN matching any NaN in NAN_AWARE
    types), else why."""
    got = np.asarray(got)
    if tuple(got.shape) != tuple(want.shape):
        return f"shape {list(got.shape)}, expected {list(want.shape)}"
    if got.dtype != want.dtype:
        return f"element type {got.dtype}, expected {want.dtype}"
    g, w = got.reshape(-1), want.reshape(-1)
    if want.dtype == object:
        for i in range(w.size):
            if g[i] != w[i]:
                return f"first difference at index {i}: got {g[i]!r}, expected {w[i]!r}"
        return None
    nan = np.zeros(w.shape, dtype=bool)
    if want.dtype.name in NAN_AWARE:
        with np.errstate(invalid="ignore"):
            nan = np.isnan(g.astype(np.float64)) & np.isnan(w.astype(np.float64))
    gb = g.view(np.uint8).reshape(w.size, -1) if w.size else g
    wb = w.view(np.uint8).reshape(w.size, -1) if w.size else w
    for i in range(w.size):
        if not nan[i] and not np.array_equal(gb[i], wb[i]):
            return f"first difference at index {i}: got {g[i]}, expected {w[i]}"
    return None


def grade(engine, case_dir, entry):
    """The verdict of `engine` on one case, as {"verdict": …, "detail": …}."""
    import onnx
    from onnx import numpy_helper

    expected = entry["expected"]
    try:
        got = ENGINES[engine](case_dir)
    except NotRun as e:  # the harness's limit, not the peer's
        return {"verdict": "untested", "detail": f"not run: {e}"}
    except Exception as e:  # the peer refused the case
        if "error" in expected or refusal_passes(engine, entry["tags"]):
            return {"verdict": "pass"}
        return {"verdict": "refused", "detail": f"{type(e).__name__}: {e}"}
    if "error" in expected:
        shape = list(np.asarray(got).shape)
        cls = expected["error"]["class"]
        return {
            "verdict": "wrong",
            "detail": f"gave an output of shape {shape} where the case must fail ({cls})",
        }
    path = os.path.join(case_dir, expected["output"]["file"])
    want = numpy_helper.to_array(onnx.load_tensor(path))
    diff = first_difference(got, want)
    return {"verdict": "pass"} if diff is None else {"verdict": "wrong", "detail": diff}


# The tag of the cases beyond ONNX (padkit_conformance::Standing::Beyond): ONNX's
# reference refuses them by design, padkit gives numpy's answer.
BEYOND_ONNX = "onnx:beyond"


def refusal_passes(engine, tags):
    """Whether `engine`'s refusal of a case with `tags` passes: on a case beyond ONNX, for
    an outside runtime (padkit_conformance::credit_refusal); padkit's lowerings, run by
    ONNX Runtime, are held to numpy's answer."""
    return BEYOND_ONNX in tags and not lowers(engine)


def lowers(engine):
    """Whether `engine` runs the models `padkit lower` wrote (held to numpy's answer)."""
    return engine.endswith(("-lowered", "-targeted"))


def runtime_of(engine):
    """The runtime of the wider matrix (tests/peers/runtimes.py) `engine` runs, or None."""
    import runtimes

    name = engine.removesuffix("-targeted")
    return name if name in runtimes.MODULES or name == "rten" else None


def credit_error(verdict, twin, twin_verdict):
    """As padkit_conformance::grade::credit_error: the verdict of a case that must fail,
    given its valid twin's verdict on the same engine (None where the twin did not run).
    An error passes only where the engine passes the twin; a twin declared unsupported
    makes the case unsupported too; a twin not passed or not run leaves it untested. Other
    verdicts stand as they are."""
    if verdict["verdict"] != "pass":
        return verdict
    if twin_verdict is None:
        return {
            "verdict": "untested",
            "detail": f"its error is not credited: the case's valid twin `{twin}` did not run",
        }
    if twin_verdict["verdict"] == "pass":
        return verdict
    if twin_verdict["verdict"] == "unsupported":
        why = twin_verdict.get("detail", "")
        return {"verdict": "unsupported", "detail": f"as its valid twin `{twin}`: {why}"}
    return {
        "verdict": "untested",
        "detail": "its error is not credited: the engine does not pass the case's valid twin "
        f"`{twin}` ({twin_verdict['verdict']})",
    }


def clip(text, n=DETAIL_CHARS):
    """`text` cut to `n` characters, with `…` when cut (as padkit's report keeps details)."""
    return text if len(text) <= n else text[:n] + "…"


VERDICTS = ("pass", "refused", "unsupported", "wrong", "crash", "untested")


def tally(report, engine):
    """ENGINE: N passed, N refused, N wrong, N crash, N untested (declared refusals among
    the refused, as padkit's table counts them)."""
    n = dict.fromkeys(VERDICTS, 0)
    for row in report["cases"]:
        if engine in row["results"]:
            n[row["results"][engine]["verdict"]] += 1
    return (
        f"{engine}: {n['pass']} passed, {n['refused'] + n['unsupported']} refused, "
        f"{n['wrong']} wrong, "
        f"{n['crash']} crash, {n['untested']} untested"
    )


def worker(engine, jobs, results):
    if runtime_of(engine) is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MATRIX_MEMORY_BYTES, MATRIX_MEMORY_BYTES))
    for case_dir, entry in iter(jobs.get, None):
        try:
            results.put(grade(engine, case_dir, entry))
        except BaseException:  # the script's own failure, not the peer's
            import traceback

            results.put({"harness_error": traceback.format_exc()})


def wait(proc, results):
    """The worker's answer, or None when it died or ran past TIMEOUT_S."""
    import queue
    import time

    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            return results.get(timeout=0.2)
        except queue.Empty:
            if not proc.is_alive():
                try:  # an answer put just before it exited
                    return results.get(timeout=0.5)
                except queue.Empty:
                    return None
    return None


class HarnessError(Exception):
    """The script's own failure on a case (not the peer's): it stops the run."""


def grade_shard(engine, suite, shard):
    """Grades ENGINE on the (manifest entry, report row) pairs of SHARD, writing its own key
    of each row's results, one worker process at a time, a new one after a crash or a
    hang."""
    ctx = mp.get_context("spawn")
    proc = None
    for entry, row in shard:
        if proc is None or not proc.is_alive():
            jobs, results = ctx.Queue(), ctx.Queue()
            proc = ctx.Process(target=worker, args=(engine, jobs, results), daemon=True)
            proc.start()
        jobs.put((os.path.join(suite, entry["name"]), entry))
        verdict = wait(proc, results)
        if verdict is None:
            code = proc.exitcode
            proc.kill()
            proc.join()
            proc = None
            how = f"hung for {TIMEOUT_S} s" if code is None else f"died with exit code {code}"
            verdict = {"verdict": "crash", "detail": f"the {engine} worker {how}"}
        elif "harness_error" in verdict:
            proc.kill()
            raise HarnessError(
                f"tests/peers/run.py failed on {entry['name']}:\n{verdict['harness_error']}"
            )
        row["results"][engine] = verdict
    if proc is not None:
        jobs.put(None)
        proc.join()


def credit_twins(engine, manifest, report):
    """ENGINE's verdicts once every case has one: errors credited by the twin rule, details
    clipped."""
    # The twins, once every case has its verdict (the manifest puts a twin first, but
    # nothing here relies on it): an error is credited only where the twin passes.
    graded = {row["name"]: row["results"][engine] for row in report["cases"]}
    for entry, row in zip(manifest["cases"], report["cases"]):
        twin = entry.get("twin")
        if twin is not None:
            verdict = credit_error(graded[entry["name"]], twin, graded.get(twin))
            row["results"][engine] = verdict
    for row in report["cases"]:
        v = row["results"][engine]
        if "detail" in v:
            v["detail"] = clip(v["detail"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", help="a directory `padkit suite export` wrote")
    parser.add_argument("out", help="the JSON report to write")
    parser.add_argument("--engine", choices=sorted(ENGINES), action="append")
    parser.add_argument("--padkit", help="the padkit binary, for the lowered engines")
    parser.add_argument(
        "--beside", metavar="REPORT",
        help="a report of other engines on the same suite (rten's, which tools/rten-peer "
        "writes), whose columns the report written keeps before these",
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1,
        help="cases graded at once, each in its own worker process (default: the CPUs)",
    )
    args = parser.parse_args()
    engines = args.engine or DEFAULT_ENGINES
    import runtimes

    for engine in engines:
        runtime = runtime_of(engine)
        if runtime is not None and not runtimes.installed(runtime):
            sys.exit(f"not run: {runtime} is not installed (tests/peers/requirements-*.txt)")
    if any(lowers(e) for e in engines):
        if not args.padkit:
            parser.error("the lowered engines need --padkit PATH (the binary that lowers)")
        os.environ["PADKIT_BIN"] = os.path.abspath(args.padkit)
    with open(os.path.join(args.suite, "manifest.json")) as f:
        manifest = json.load(f)
    import digest

    report = {"engines": engines, "cases": []}
    versions = {e: runtimes.version(runtime_of(e)) for e in engines if runtime_of(e) is not None}
    for entry in manifest["cases"]:
        report["cases"].append({"name": entry["name"], "tags": entry["tags"], "results": {}})
    # Each engine's cases dealt into --jobs shards, graded side by side, each by a thread of
    # this process that feeds its own worker process: a worker runs one engine, and each
    # shard writes only its engine's key of its own rows, so the report is the same
    # whatever the order in which they finish.
    pairs = list(zip(manifest["cases"], report["cases"]))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        graded = [
            pool.submit(grade_shard, e, args.suite, pairs[k :: args.jobs])
            for e in engines
            for k in range(args.jobs)
        ]
        for done in graded:
            try:
                done.result()
            except HarnessError as e:
                pool.shutdown(cancel_futures=True)
                sys.exit(str(e))
    for engine in engines:
        credit_twins(engine, manifest, report)
    # (the results in the engines' order in every row, as one engine after another wrote them)
    for row in report["cases"]:
        row["results"] = {e: row["results"][e] for e in engines}
    for engine in engines:
        print(tally(report, engine), file=sys.stderr)
    report["suite"] = digest.suite_identity(manifest)
    if versions:
        report["versions"] = versions
    if args.beside:
        report = beside(args.beside, report)
    write_report(args.out, report)


def beside(path, report):
    """`report` with the engines of the report at `path` (graded on the same suite, the
    same cases) first."""
    with open(path) as f:
        other = json.load(f)
    if other["suite"] != report["suite"] or [c["name"] for c in other["cases"]] != [
            c["name"] for c in report["cases"]]:
        sys.exit(f"{path} was not graded on this suite")
    for row, theirs in zip(report["cases"], other["cases"]):
        row["results"] = {**theirs["results"], **row["results"]}
    report["engines"] = other["engines"] + report["engines"]
    report["versions"] = {**other.get("versions", {}), **report.get("versions", {})}
    return report


def write_report(path, report):
    """Writes `report` as padkit_conformance::Report::to_json does: a case per line (its
    engines, the suite it was graded on, the runtimes' versions where known, the cases)."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    with open(path, "w") as f:
        f.write("{")
        for key in ("engines", "suite", "versions"):
            if key in report:
                f.write(f'"{key}": {json.dumps(report[key], **compact)},\n')
        f.write('"cases": [\n')
        f.write(",\n".join(json.dumps(c, **compact) for c in report["cases"]))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
