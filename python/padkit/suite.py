"""``padkit.suite``: padkit's conformance cases, for runtimes and frameworks written in or
driven from Python.

Each case is one ONNX model of a single Pad (its bytes in onnx's encoding), the inputs to
feed it as numpy arrays, and what a conforming runtime answers: the expected output, bit
for bit, or the class of error it must raise. ``export`` writes them in the ONNX
backend-test layout with a ``manifest.json``, exactly as ``padkit suite export`` does.

>>> import padkit.suite
>>> case = padkit.suite.cases(small=True)[0]
>>> case.name.startswith("test_padkit_"), "x" in case.inputs, case.error is None
(True, True, True)
"""

from __future__ import annotations

import os
from typing import Dict, Iterable, List, NamedTuple, Optional

import numpy as np

from . import _native

# padkit's element-type names (ONNX's), as numpy or ml_dtypes holds them.
_NUMPY = {
    "float": np.float32, "double": np.float64, "float16": np.float16, "bool": np.bool_,
    "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "complex64": np.complex64, "complex128": np.complex128,
}
_ML_DTYPES = {
    "bfloat16": "bfloat16", "float8e4m3fn": "float8_e4m3fn", "float8e4m3fnuz": "float8_e4m3fnuz",
    "float8e5m2": "float8_e5m2", "float8e5m2fnuz": "float8_e5m2fnuz", "float8e8m0": "float8_e8m0fnu",
    "float4e2m1": "float4_e2m1fn", "int4": "int4", "uint4": "uint4", "int2": "int2", "uint2": "uint2",
}


def dtype_of(name: str) -> np.dtype:
    """The numpy dtype of padkit's (ONNX's) element type ``name``: numpy's own, ml_dtypes'
    for bfloat16, the float8s, float4 and the 4- and 2-bit integers, object for strings.

    >>> dtype_of("float"), dtype_of("string")
    (dtype('float32'), dtype('O'))
    """
    if name in _NUMPY:
        return np.dtype(_NUMPY[name])
    if name == "string":
        return np.dtype(object)
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(f"element type {name} needs ml_dtypes (pip install ml_dtypes)") from None
    return np.dtype(getattr(ml_dtypes, _ML_DTYPES[name]))


def _array(tensor) -> np.ndarray:
    name, shape, data = tensor
    dtype = dtype_of(name)
    if name == "string":
        return np.array(data, dtype=object).reshape(shape)
    # (sub-byte elements come one byte each, their code, as ml_dtypes holds them)
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


class Case(NamedTuple):
    """One case of padkit's catalogue."""

    name: str
    """``test_padkit_…``, the name of its directory in an export."""
    tags: List[str]
    """``mode:reflect``, ``opset:19``, ``type:float``, ``onnx:required``, … (the manifest's)."""
    twin: Optional[str]
    """For a case that must fail: the valid case it differs from in one respect. A runtime's
    error on this case counts only where it passes the twin."""
    onnx: str
    """What ONNX says of it: required, beyond, open, reference-wrong or padkit-domain."""
    opset: int
    domain: str
    mode: str
    pads: List[int]
    axes: Optional[List[int]]
    interior: Optional[List[int]]
    fill: np.ndarray
    """The value constant mode fills with (a 0-d array)."""
    model: bytes
    """The ONNX model, serialized as onnx serializes it."""
    inputs: Dict[str, np.ndarray]
    """The graph inputs to feed, by name (``x`` first)."""
    expected: Optional[np.ndarray]
    """The output, bit for bit (any NaN matches any NaN); None where the case must fail."""
    error: Optional[str]
    """The class of error a conforming runtime raises (e.g. ``PadsLength``,
    ``Signature``); None where the case has an output."""

    @property
    def data(self) -> np.ndarray:
        """The data padded (graph input ``x``)."""
        return self.inputs["x"]


def cases(small: bool = False, tags: Iterable[str] = ()) -> List[Case]:
    """The catalogue's cases (about 6 600; several hundred where ``small``) that carry
    every tag of ``tags`` (a whole tag such as ``mode:reflect``, or its value), with the
    valid twin of each case that must fail, in catalogue order. Types numpy lacks need
    ml_dtypes."""
    out = []
    for c in _native.suite_cases(small, list(tags)):
        kind, expected = c["expected"]
        out.append(
            Case(
                name=c["name"], tags=list(c["tags"]), twin=c["twin"], onnx=c["onnx"],
                opset=c["opset"], domain=c["domain"], mode=c["mode"], pads=list(c["pads"]),
                axes=c["axes"], interior=c["interior"], fill=_array(c["fill"]).reshape(()),
                model=c["model"], inputs={name: _array(t) for name, t in c["inputs"]},
                expected=_array(expected) if kind == "output" else None,
                error=expected if kind == "error" else None,
            )
        )
    return out


def export(directory: "os.PathLike[str] | str", small: bool = False, tags: Iterable[str] = ()) -> int:
    """Writes the selected cases below ``directory`` in the ONNX backend-test layout
    (``CASE/model.onnx``, ``CASE/test_data_set_0/input_K.pb``, ``output_0.pb``) with a
    ``manifest.json`` of every case's tags and expected result, the bytes ``padkit suite
    export`` writes; returns how many. ``directory`` must be absent, empty or a suite
    exported before (whose cases are replaced). Raises ``OSError`` otherwise."""
    return _native.suite_export(os.fspath(directory), small, list(tags))


class Unsupported(Exception):
    """Raised by a graded ``run`` to declare a case it does not support by design (an
    element type it has no representation for, say): graded unsupported, not refused."""


class Untested(Exception):
    """Raised by a graded ``run`` where the harness, not the runtime, cannot run the case
    (a type its Python binding cannot feed or read back): graded untested."""


# numpy's dtypes by padkit's element-type name, the other way round.
def _name_of(dtype: np.dtype) -> Optional[str]:
    if dtype.kind in "OUT":
        return "string"
    for name, t in _NUMPY.items():
        if dtype == np.dtype(t):
            return name
    try:
        import ml_dtypes
    except ImportError:
        return None
    for name, attr in _ML_DTYPES.items():
        t = getattr(ml_dtypes, attr, None)
        if t is not None and dtype == np.dtype(t):
            return name
    return None


def _answer(run, case: Case):
    """``run``'s answer to ``case`` as the grader takes it: ``(kind, payload)``."""
    try:
        got = run(case.model, dict(case.inputs))
    except Unsupported as e:
        return "unsupported", str(e) or "declared unsupported"
    except Untested as e:
        return "untested", str(e) or "not run"
    except Exception as e:  # the runtime refused the case
        return "error", f"{type(e).__name__}: {e}"
    if isinstance(got, (list, tuple)):
        if len(got) != 1:
            return "wrong", f"{len(got)} outputs, expected 1"
        got = got[0]
    got = np.asarray(got)
    name = _name_of(got.dtype)
    if name is None:
        return "wrong", f"an output of dtype {got.dtype}, which no ONNX element type is"
    if name == "string":
        return "output", (name, list(got.shape), [str(s) for s in got.reshape(-1).tolist()])
    data = np.ascontiguousarray(got, dtype=got.dtype.newbyteorder("<")).tobytes()
    return "output", (name, list(got.shape), data)


def _worker(run, cases, connection):
    for index in iter(connection.recv, None):
        connection.send(_answer(run, cases[index]))


def grade(
    run,
    engine: str = "python",
    small: bool = False,
    tags: Iterable[str] = (),
    timeout: float = 60.0,
    isolate: bool = True,
    report: str = "json",
) -> str:
    """Grades a Python runtime on padkit's suite and returns the report ``padkit
    conformance --report`` writes (``json``, ``markdown`` or ``junit``).

    ``run(model_bytes, inputs)`` runs one case: the model serialized, the inputs a dict of
    numpy arrays by graph-input name; it returns the output (an array, or a list of one)
    and raises where the runtime refuses the model (raise ``padkit.suite.Unsupported`` to
    declare a case unsupported by design, ``padkit.suite.Untested`` where the harness
    cannot run it). Verdicts follow padkit's one rule: an output
    must equal the case's bit for bit (any NaN matches any NaN); any error passes where the
    case must fail and its valid twin passes; a refusal of a case beyond ONNX passes.

    With ``isolate`` (the default) each case runs in a worker process (``run`` must then be
    picklable, a module-level function), so that a runtime that crashes or hangs past
    ``timeout`` seconds costs that case (graded crash) and the next starts a fresh worker.

    >>> import numpy as np, padkit, padkit.suite, json
    >>> def run(model, inputs):  # padkit's own Pad, as a stand-in for a runtime
    ...     raise NotImplementedError("no runtime here")
    >>> report = json.loads(padkit.suite.grade(run, small=True, tags=["mode:wrap"], isolate=False))
    >>> {r["results"]["python"]["verdict"] for r in report["cases"]} <= {"refused", "pass", "untested"}
    True
    """
    grader = _native.Grader(engine, small, list(tags))
    selected = cases(small, tags)
    if not isolate:
        for index, case in enumerate(selected):
            grader.answer(index, *_answer(run, case))
        return grader.report(report)
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    worker = connection = None
    try:
        for index in range(len(selected)):
            if worker is None:
                connection, theirs = context.Pipe()
                worker = context.Process(target=_worker, args=(run, selected, theirs), daemon=True)
                worker.start()
                theirs.close()
            connection.send(index)
            answered = connection.poll(timeout)  # (also where the worker died: end of file)
            try:
                answer = connection.recv() if answered else None
            except (EOFError, OSError):
                answer = None
            if answer is None:
                worker.kill()
                worker.join()
                how = f"died with exit code {worker.exitcode}" if answered else f"hung for {timeout} s"
                answer = ("crash", f"the {engine} worker {how}")
                worker = None
            grader.answer(index, *answer)
    finally:
        if worker is not None:
            connection.send(None)
            worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()
    return grader.report(report)
