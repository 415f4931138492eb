"""padkit.suite: the cases as Python values agree with their export; padkit.pad gives
every case's expected result, computed by padkit-conformance's naive reference (the
independent oracle for what numpy.pad lacks: crops, interior padding, axes, every ONNX
element type)."""

import json
import subprocess
import sys

import numpy as np
import pytest

import padkit
import padkit.suite

pytest.importorskip("ml_dtypes")


@pytest.fixture(scope="module")
def full():
    return padkit.suite.cases()


def test_the_cases_are_the_exported_ones(full, tmp_path):
    count = padkit.suite.export(tmp_path / "suite")
    manifest = json.loads((tmp_path / "suite" / "manifest.json").read_text())
    assert count == len(full) == len(manifest["cases"]) > 6000
    assert [c.name for c in full] == [e["name"] for e in manifest["cases"]]
    for case in full[::97]:
        assert (tmp_path / "suite" / case.name / "model.onnx").read_bytes() == case.model
        assert (case.error is None) == (tmp_path / "suite" / case.name / "test_data_set_0" / "output_0.pb").exists()


def test_python_m_padkit_suite_export_writes_the_same(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "padkit", "suite", "export", str(tmp_path / "a"), "--small", "--tag", "wrap"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    assert padkit.suite.export(tmp_path / "b", small=True, tags=["wrap"]) == int(done.stdout.split()[0])
    for case in padkit.suite.cases(small=True, tags=["wrap"]):
        a = (tmp_path / "a" / case.name / "model.onnx").read_bytes()
        assert a == (tmp_path / "b" / case.name / "model.onnx").read_bytes()
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "mine.txt").write_text("keep me")
    with pytest.raises(OSError, match="not part of a padkit suite"):
        padkit.suite.export(tmp_path / "c")


def same(got, want):
    """Bit for bit, any NaN matching any NaN (the suite's rule)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype == object:
        return got.tolist() == want.tolist()
    if want.size == 0:
        return True
    bits = lambda a: np.ascontiguousarray(a).reshape(-1).view(np.uint8).reshape(a.size, -1)
    equal = (bits(got) == bits(want)).all(axis=1)
    if want.dtype.kind in "fcV":
        wide = np.complex128 if want.dtype.kind == "c" else np.float64
        equal |= (np.isnan(got.astype(wide)) & np.isnan(want.astype(wide))).reshape(-1)
    return bool(equal.all())


def test_padkit_pad_gives_every_pad_rule_case_its_expected_result(full):
    checked = 0
    for case in full:
        if case.error == "Signature":
            continue  # the model's signature, not the Pad: padkit.pad has no opset
        kwargs = dict(mode=case.mode, value=case.fill, axes=case.axes, interior=case.interior)
        if case.error is not None:
            with pytest.raises(padkit.PadError):
                padkit.pad(case.data, case.pads, **kwargs)
        else:
            got = padkit.pad(case.data, case.pads, **kwargs)
            assert same(got, case.expected), case.name
        checked += 1
    assert checked > 5000


# Runtimes graded in worker processes: module-level functions, as spawn pickles them.
def padkit_as_a_runtime(model, inputs):
    """padkit.pad behind the grading interface: the case's own operands from its model."""
    import onnx
    from onnx import numpy_helper

    m = onnx.load_from_string(model)
    node = m.graph.node[0]
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    consts = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    operand = lambda i: (inputs.get(node.input[i], consts.get(node.input[i])) if len(node.input) > i and node.input[i] else None)
    pads = attrs.get("pads", attrs.get("paddings"))
    if pads is None:
        pads = operand(1)
    value = operand(2) if len(node.input) > 2 else attrs.get("value")
    axes = operand(3)
    mode = attrs.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    x = inputs["x"]
    if value is not None:
        value = np.asarray(value).astype(x.dtype).reshape(-1)[0] if np.size(value) else None
    return padkit.pad(x, list(np.asarray(pads).reshape(-1)), mode, value,
                      axes=None if axes is None else list(np.asarray(axes).reshape(-1)),
                      interior=attrs.get("interior"))


def crashes_or_hangs(model, inputs):
    """A runtime that dies on wrap with pads fed at run time, hangs on edge with them, and
    refuses every other model."""
    import os
    import time

    if "pads" in inputs and b"wrap" in model:
        os._exit(3)
    if "pads" in inputs and b"edge" in model:
        time.sleep(60)
    raise RuntimeError("refused")


def test_grade_isolates_crashes_and_hangs_and_credits_twins():
    selected = padkit.suite.cases(small=True, tags=["opset:19"])
    report = json.loads(padkit.suite.grade(crashes_or_hangs, engine="crashy", small=True, tags=["opset:19"], timeout=2))
    verdicts = {r["name"]: r["results"]["crashy"] for r in report["cases"]}
    fed = lambda c, mode: "pads" in c.inputs and mode in c.model
    died = [c.name for c in selected if fed(c, b"wrap")]
    hung = [c.name for c in selected if fed(c, b"edge")]
    assert died and hung
    assert all(verdicts[n] == {"verdict": "crash", "detail": "the crashy worker died with exit code 3"} for n in died)
    assert all(verdicts[n] == {"verdict": "crash", "detail": "the crashy worker hung for 2 s"} for n in hung)
    for case in selected:
        v = verdicts[case.name]
        if case.error is not None and v["verdict"] == "pass":
            # an error passes only where the twin passes (none here), or beyond ONNX
            assert case.twin is None or verdicts[case.twin]["verdict"] == "pass", case.name
        if case.error is None and case.name not in died + hung:
            want = "pass" if "onnx:beyond" in case.tags else "refused"
            assert v["verdict"] == want, case.name


def test_grade_padkit_behind_the_interface_passes_what_the_core_passes():
    report = json.loads(padkit.suite.grade(padkit_as_a_runtime, engine="padkit-py", small=True))
    counts = {}
    for row in report["cases"]:
        v = row["results"]["padkit-py"]["verdict"]
        counts[v] = counts.get(v, 0) + 1
    # (the runtime ignores opsets and signatures: those cases' errors are not its to give)
    assert counts.get("wrong", 0) + counts.get("crash", 0) <= 40, counts
    assert counts["pass"] > 0.9 * len(report["cases"]), counts
    junit = padkit.suite.grade(padkit_as_a_runtime, engine="padkit-py", small=True, tags=["mode:edge"], report="junit")
    assert junit.startswith("<?xml") and "testsuite" in junit


# ONNX Runtime as tests/peers/run.py runs it for the committed `onnxruntime` column: the
# session first (its errors are refusals), then the harness's own limits (untested), with
# run.py's helpers for what the binding cannot convert.
PEERS = __import__("pathlib").Path(__file__).resolve().parents[2] / "tests" / "peers"


def onnxruntime_as_run_py_runs_it(model, inputs):
    import sys

    if str(PEERS) not in sys.path:
        sys.path.insert(0, str(PEERS))
    import onnx
    import onnxruntime as ort
    import run as peers

    options = ort.SessionOptions()
    options.log_severity_level = 4
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    proto = onnx.load_from_string(model)
    limit = peers.harness_limit("onnxruntime", proto)
    if limit is not None:
        raise padkit.suite.Untested(limit)
    try:
        return peers.ort_run(session, proto, inputs)
    except peers.NotRun as e:
        raise padkit.suite.Untested(str(e)) from None
    except Exception as e:
        if any(m in str(e) for m in peers.ORT_BINDING_ERRORS):
            raise padkit.suite.Untested(f"the binding cannot convert this case's types ({e})") from None
        raise


def test_grade_reproduces_the_committed_onnxruntime_column():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    committed = json.loads((PEERS.parents[1] / "docs" / "conformance" / "peers.json").read_text())
    want = {c["name"]: c["results"]["onnxruntime"]["verdict"] for c in committed["cases"]}
    report = json.loads(padkit.suite.grade(onnxruntime_as_run_py_runs_it, engine="onnxruntime"))
    got = {c["name"]: c["results"]["onnxruntime"]["verdict"] for c in report["cases"]}
    assert got.keys() == want.keys()
    differ = {n: (want[n], got[n]) for n in want if want[n] != got[n]}
    assert not differ, f"{len(differ)} verdicts differ, e.g. {sorted(differ.items())[:5]}"
