"""``padkit.lower``: padkit-lower on ONNX models."""

from __future__ import annotations

import os
from typing import Any, Optional

from . import _native


def lower(
    model: Any,
    target: str = "portable",
    *,
    strict_onnx: bool = False,
    max_output_bytes: Optional[int] = None,
    max_constant_bytes: Optional[int] = None,
) -> Any:
    """``padkit lower``: the model with every Pad its target cannot run as ONNX means it
    rewritten into standard ops.

    ``model`` is an ``onnx.ModelProto`` (returns one), serialized bytes (returns bytes),
    or a path (returns an ``onnx.ModelProto``, as ``onnx.load`` would; tensors stored as
    external data must be loaded first, ``onnx.load(path)``). ``target`` is one of
    ``padkit.targets()``: ``portable`` lowers every Pad; the others keep the Pads that
    runtime computes as padkit does. The options are those of ``padkit lower``:
    ``strict_onnx`` refuses what ONNX's reference refuses, ``max_output_bytes`` bounds
    each lowered Pad's output at run time, ``max_constant_bytes`` the constants the
    lowering adds. The output is the same bytes for the same input and options on any
    machine.

    Raises ``padkit.LowerError`` (a ``ValueError``) naming the node and why where a Pad
    cannot be lowered or the model is not one.

    >>> import padkit
    >>> padkit.lower(b"not a model")
    Traceback (most recent call last):
    ...
    padkit.LowerError: the model is not an ONNX model (protobuf decoding failed: ...)
    """
    if isinstance(model, (bytes, bytearray, memoryview)):
        return _native.lower(bytes(model), target, strict_onnx, max_output_bytes, max_constant_bytes)
    import onnx  # the optional dependency, for models as onnx holds them

    if isinstance(model, (str, os.PathLike)):
        with open(model, "rb") as f:
            data = f.read()
    elif isinstance(model, onnx.ModelProto):
        data = model.SerializeToString()
    else:
        raise TypeError(
            f"model is a {type(model).__name__}; padkit.lower takes an onnx.ModelProto, "
            "bytes or a path"
        )
    lowered = _native.lower(data, target, strict_onnx, max_output_bytes, max_constant_bytes)
    return onnx.load_from_string(lowered)
