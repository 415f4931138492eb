"""``padkit.pad`` and ``padkit.numpy_pad``: padkit's Pad on numpy arrays."""

from __future__ import annotations

import functools
import operator
from typing import Any, Optional, Sequence

import numpy as np

from . import _native
from ._native import PadError

MODES = ("constant", "reflect", "edge", "wrap", "symmetric")

# Element sizes the byte kernel copies whole (padkit::Plan::run_bytes).
_BYTE_WIDTHS = (1, 2, 4, 8, 16)


def _int64s(name: str, values: Any) -> Optional[list]:
    """``values`` as a list of Python ints within int64, or a PadError naming them."""
    if values is None:
        return None
    if isinstance(values, np.ndarray):
        values = values.reshape(-1).tolist()
    out = []
    for i, v in enumerate(values):
        try:
            v = operator.index(v)
        except TypeError:
            raise PadError(f"{name}[{i}] is {v!r}, not an integer") from None
        if not -(2**63) <= v < 2**63:
            raise PadError(f"{name}[{i}] is {v}, outside int64")
        out.append(v)
    return out


@functools.lru_cache(maxsize=None)
def _zero(dtype: np.dtype) -> bytes:
    return np.zeros((), dtype=dtype).tobytes()


def _fill_bytes(value: Any, dtype: np.dtype) -> bytes:
    """One element of ``dtype`` holding ``value`` (its zero where ``value`` is None)."""
    if value is None:
        return _zero(dtype)
    try:
        return np.asarray(value).astype(dtype, casting="unsafe").reshape(()).tobytes()
    except (TypeError, ValueError, OverflowError) as e:
        raise PadError(f"value {value!r} does not convert to {dtype}: {e}") from None


def pad(
    x: Any,
    pads: Sequence[int],
    mode: str = "constant",
    value: Any = None,
    axes: Optional[Sequence[int]] = None,
    interior: Optional[Sequence[int]] = None,
    *,
    strict_onnx: bool = False,
    max_output_bytes: Optional[int] = None,
) -> np.ndarray:
    """ONNX's Pad on a numpy array, as padkit's core computes it.

    ``pads`` is in ONNX's layout: every begin, then every end, one pair for each entry of
    ``axes`` (every axis when ``axes`` is None; negative axes count from the end). A
    negative pad crops. ``mode`` is one of constant, reflect, edge, wrap and symmetric;
    pads wider than the axis repeat as numpy.pad does. ``value`` fills constant-mode
    padding (the dtype's zero by default). ``interior`` puts that many fill elements
    between neighbours along each entry of ``axes`` (constant mode, as XLA's Pad).
    ``strict_onnx`` refuses what ONNX's reference refuses (reflect wider than the axis).
    ``max_output_bytes`` refuses larger outputs (default: padkit's limit for the
    machine's memory).

    Every numpy dtype pads: numbers, bool, complex, datetimes, bytes and unicode
    strings, object arrays (the same objects, not copies), ``StringDType`` and
    ``ml_dtypes``' types (bfloat16, the float8s, int4, float4). The input is read in
    place where it is C-contiguous, the output allocated once, and the GIL released
    while the kernel runs.

    Raises ``padkit.PadError`` (a ``ValueError``) naming the axis and value for any Pad
    padkit refuses.

    >>> import numpy as np, padkit
    >>> padkit.pad(np.array([[1, 2], [3, 4]]), [0, 1, 0, 1], mode="reflect")
    array([[2, 1, 2, 1],
           [4, 3, 4, 3]])
    >>> padkit.pad(np.arange(4), [1, -1], mode="wrap")  # crop first, then pad
    array([2, 0, 1, 2])
    >>> padkit.pad(np.array([1, 2, 3]), [0, 0], interior=[1], value=-1)
    array([ 1, -1,  2, -1,  3])
    """
    x = np.asarray(x)
    if mode not in MODES:
        raise PadError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    pads = _int64s("pads", pads)
    axes = _int64s("axes", axes)
    interior = _int64s("interior", interior)
    if max_output_bytes is not None:
        max_output_bytes = operator.index(max_output_bytes)
        if not 0 <= max_output_bytes < 2**64:
            raise PadError(f"max_output_bytes is {max_output_bytes}, outside u64")
    dtype = x.dtype
    if not dtype.hasobject and dtype.itemsize in _BYTE_WIDTHS:
        data, fill, width = x, _fill_bytes(value, dtype), dtype.itemsize
    else:
        # Elements the byte kernel does not copy (objects, strings of other widths): the
        # Pad of their flat indices (-1 for fill), then numpy takes the elements.
        data, fill, width = None, np.int64(-1).tobytes(), 8
    plan = _native.Plan(
        list(x.shape), width, pads, mode, axes, interior, strict_onnx, max_output_bytes
    )
    shape = tuple(plan.output_shape)
    if data is not None:
        data = np.ascontiguousarray(data)
        out = _empty(shape, dtype)
        plan.run(data, fill, out)
        return out
    indices = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    taken = _empty(shape, np.dtype(np.int64))
    plan.run(indices, fill, taken)
    out = np.empty(shape, dtype=dtype)
    inside = taken >= 0
    out[inside] = x.reshape(-1)[taken[inside]]
    if not inside.all():
        if value is None:
            value = np.zeros((), dtype=dtype)[()] if not dtype.hasobject else 0
        out[~inside] = value
    return out


def _empty(shape: tuple, dtype: np.dtype) -> np.ndarray:
    """An uninitialised array of ``shape``, or a PadError where it cannot be allocated."""
    try:
        return np.empty(shape, dtype=dtype)
    except (MemoryError, ValueError) as e:
        raise PadError(f"the output of shape {list(shape)} cannot be allocated: {e}") from None


def numpy_pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> np.ndarray:
    """``numpy.pad``'s signature and results, computed by padkit where it can.

    The modes both have (constant with one ``constant_values``, edge, reflect and
    symmetric with the default ``reflect_type='even'``, wrap) run on padkit; anything
    else (other modes, ``stat_length``, per-side constant values, ``reflect_type='odd'``)
    is handed to ``numpy.pad``, so a call can be swapped for this one as it is.

    >>> import numpy as np, padkit
    >>> a = np.arange(6).reshape(2, 3)
    >>> bool((padkit.numpy_pad(a, ((1, 0), (2, 2)), "symmetric")
    ...       == np.pad(a, ((1, 0), (2, 2)), "symmetric")).all())
    True
    """
    array = np.asarray(array)
    value = None
    ours = mode in ("constant", "edge", "reflect", "symmetric", "wrap")
    if mode == "constant":
        values = np.asarray(kwargs.get("constant_values", 0), dtype=object)
        ours = set(kwargs) <= {"constant_values"} and values.size == 1
        value = values.reshape(-1)[0] if ours else None
    elif mode in ("reflect", "symmetric"):
        ours = set(kwargs) <= {"reflect_type"} and kwargs.get("reflect_type", "even") == "even"
    elif ours:
        ours = not kwargs
    if not ours:
        return np.pad(array, pad_width, mode, **kwargs)
    widths = np.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        # numpy's own messages for widths that are not integers
        return np.pad(array, pad_width, mode, **kwargs)
    widths = np.broadcast_to(widths, (array.ndim, 2))
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    pads = [int(w) for w in widths[:, 0]] + [int(w) for w in widths[:, 1]]
    if mode == "constant" and value is None:
        value = 0
    return pad(array, pads, mode, value)
