#!/usr/bin/env python3
"""Grades ONNX Runtime and onnx's reference evaluator on a suite `padkit suite export`
wrote, and writes the verdicts as padkit's JSON report (padkit_conformance::Report).

    python3 tests/peers/run.py SUITE_DIR OUT.json [--engine onnxruntime|onnx-reference]

Each case runs in a worker process, so that a peer that crashes or hangs costs one case
("crash"), not the run; a failure of the script itself stops the run. Verdicts as padkit
grades them: an output bit-equal to the expected one (in float16, bfloat16, float and
double any NaN matches any NaN) passes; an error where the manifest says the case
must fail passes; an error otherwise is "refused"; another output, or an output where the
case must fail, is "wrong".
"""

import argparse
import json
import multiprocessing as mp
import os
import sys

import numpy as np

TIMEOUT_S = 60
# As padkit_conformance::report::DETAIL_CHARS.
DETAIL_CHARS = 240


def load_case(case_dir):
    import onnx
    from onnx import numpy_helper

    model = onnx.load(os.path.join(case_dir, "model.onnx"))
    data = os.path.join(case_dir, "test_data_set_0")
    feeds = {}
    for k, graph_input in enumerate(model.graph.input):
        tensor = onnx.load_tensor(os.path.join(data, f"input_{k}.pb"))
        feeds[graph_input.name] = numpy_helper.to_array(tensor)
    return model, feeds


def run_onnxruntime(case_dir):
    import onnxruntime as ort

    _, feeds = load_case(case_dir)
    options = ort.SessionOptions()
    options.log_severity_level = 4
    session = ort.InferenceSession(
        os.path.join(case_dir, "model.onnx"), options, providers=["CPUExecutionProvider"]
    )
    return session.run(None, feeds)[0]


def run_reference(case_dir):
    from onnx.reference import ReferenceEvaluator

    model, feeds = load_case(case_dir)
    return ReferenceEvaluator(model).run(None, feeds)[0]


ENGINES = {"onnxruntime": run_onnxruntime, "onnx-reference": run_reference}


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
    except Exception as e:  # the peer refused the case
        if "error" in expected:
            return {"verdict": "pass"}
        return {"verdict": "refused", "detail": f"{type(e).__name__}: {e}"[:DETAIL_CHARS]}
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


def worker(engine, jobs, results):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", help="a directory `padkit suite export` wrote")
    parser.add_argument("out", help="the JSON report to write")
    parser.add_argument("--engine", choices=sorted(ENGINES), action="append")
    args = parser.parse_args()
    with open(os.path.join(args.suite, "manifest.json")) as f:
        manifest = json.load(f)
    engines = args.engine or sorted(ENGINES, reverse=True)
    report = {"engines": engines, "cases": []}
    for entry in manifest["cases"]:
        report["cases"].append({"name": entry["name"], "tags": entry["tags"], "results": {}})
    ctx = mp.get_context("spawn")
    for engine in engines:
        proc = None
        for entry, row in zip(manifest["cases"], report["cases"]):
            if proc is None or not proc.is_alive():
                jobs, results = ctx.Queue(), ctx.Queue()
                proc = ctx.Process(target=worker, args=(engine, jobs, results), daemon=True)
                proc.start()
            jobs.put((os.path.join(args.suite, entry["name"]), entry))
            verdict = wait(proc, results)
            if verdict is None:
                code = proc.exitcode
                proc.kill()
                proc.join()
                proc = None
                how = f"hung for {TIMEOUT_S} s" if code is None else f"died with exit code {code}"
                verdict = {"verdict": "crash", "detail": f"the {engine} worker {how}"}
            elif "harness_error" in verdict:
                sys.exit(f"tests/peers/run.py failed on {entry['name']}:\n{verdict['harness_error']}")
            row["results"][engine] = verdict
        print(f"{engine}: {len(manifest['cases'])} cases", file=sys.stderr)
        if proc is not None:
            jobs.put(None)
            proc.join()
    # As padkit_conformance::Report::to_json writes it: a case per line.
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    lines = [json.dumps(c, **compact) for c in report["cases"]]
    with open(args.out, "w") as f:
        f.write(f'{{"engines": {json.dumps(engines, **compact)},\n"cases": [\n')
        f.write(",\n".join(lines))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
