"""Type stubs of padkit's extension module (python/src/lib.rs)."""

from typing import List, Optional, Sequence

import numpy as np

class PadError(ValueError): ...
class LowerError(ValueError): ...

class Plan:
    def __init__(
        self,
        shape: Sequence[int],
        itemsize: int,
        pads: Sequence[int],
        mode: str,
        axes: Optional[Sequence[int]] = None,
        interior: Optional[Sequence[int]] = None,
        strict_onnx: bool = False,
        max_output_bytes: Optional[int] = None,
    ) -> None: ...
    @property
    def output_shape(self) -> List[int]: ...
    def run(self, x: np.ndarray, value: bytes, out: np.ndarray) -> None: ...

def lower(
    model: bytes,
    target: str = "portable",
    strict_onnx: bool = False,
    max_output_bytes: Optional[int] = None,
    max_constant_bytes: Optional[int] = None,
) -> bytes: ...
def targets() -> List[str]: ...
