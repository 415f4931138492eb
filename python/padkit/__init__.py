"""padkit: ONNX's Pad, complete, for Python.

- ``padkit.pad``: every mode (constant, reflect, edge, wrap, symmetric), negative pads,
  interior padding and every numpy dtype, as padkit's Rust core computes them;
- ``padkit.numpy_pad``: a drop-in for ``numpy.pad``;
- ``padkit.lower``: ``padkit lower`` on an ONNX model, its Pads rewritten into standard
  ops for any runtime, or for one runtime's target;
- ``padkit.suite``: the conformance cases (models, inputs, expected results) and their
  export in the ONNX backend-test layout.

Errors are ``padkit.PadError`` and ``padkit.LowerError``, both ``ValueError``.
"""

from . import suite
from ._lower import lower
from ._native import LowerError, PadError
from ._native import targets as _targets
from ._pad import MODES, numpy_pad, pad

__all__ = ["MODES", "LowerError", "PadError", "lower", "numpy_pad", "pad", "suite", "targets"]
__version__ = "0.1.0"


def targets() -> list:
    """The targets ``padkit.lower`` takes, by name.

    >>> import padkit
    >>> "portable" in padkit.targets()
    True
    """
    return list(_targets())
