"""Hostile input raises padkit.PadError (a ValueError) naming what is wrong; nothing
crashes the interpreter, allocates without bound or hangs."""

import numpy as np
import pytest

import padkit

I64_MIN, I64_MAX = -(2**63), 2**63 - 1


@pytest.mark.parametrize(
    "pads, mode",
    [
        ([I64_MAX, 0], "constant"),
        ([0, I64_MAX], "edge"),
        ([I64_MIN, 0], "constant"),
        ([I64_MAX, 1], "constant"),
        ([I64_MAX, I64_MAX], "wrap"),
        ([I64_MIN, I64_MIN], "reflect"),
        ([2**40, 2**40], "symmetric"),
        ([-5, 0], "reflect"),
        ([-3, -2], "edge"),
    ],
)
def test_extreme_pads_raise(pads, mode):
    with pytest.raises(padkit.PadError):
        padkit.pad(np.zeros(4, dtype=np.float32), pads, mode)


def test_pads_outside_int64_raise_naming_them():
    with pytest.raises(padkit.PadError, match=r"pads\[1\] is 9223372036854775808"):
        padkit.pad(np.zeros(3), [0, 2**63])
    with pytest.raises(padkit.PadError, match=r"pads\[0\]"):
        padkit.pad(np.zeros(3), [1.5, 0])


def test_an_output_above_memory_raises_before_allocating():
    x = np.zeros((2, 2), dtype=np.float64)
    with pytest.raises(padkit.PadError, match="axis|output"):
        padkit.pad(x, [0, 0, 2**31, 2**31])
    with pytest.raises(padkit.PadError):
        padkit.pad(x, [1, 1, 1, 1], max_output_bytes=100)
    with pytest.raises(padkit.PadError):
        padkit.pad(np.zeros((1,) * 8), [2**8] * 16)


def test_wrong_pads_length_and_axes_raise():
    x = np.zeros((2, 3))
    with pytest.raises(padkit.PadError, match="pads"):
        padkit.pad(x, [1, 1])
    with pytest.raises(padkit.PadError, match="axis"):
        padkit.pad(x, [1, 1], axes=[2])
    with pytest.raises(padkit.PadError, match="axis"):
        padkit.pad(x, [1, 1, 1, 1], axes=[0, -2])
    with pytest.raises(padkit.PadError, match="interior"):
        padkit.pad(x, [1, 1, 1, 1], "edge", interior=[1, 0])
    with pytest.raises(padkit.PadError, match="mode"):
        padkit.pad(x, [1, 1, 1, 1], "mirror")


def test_interior_near_the_limits_raises():
    with pytest.raises(padkit.PadError):
        padkit.pad(np.zeros(3), [0, 0], interior=[I64_MAX])
    with pytest.raises(padkit.PadError):
        padkit.pad(np.zeros(3), [0, 0], interior=[-1])


def test_the_native_plan_checks_its_arrays():
    plan = padkit._native.Plan([3], 4, [1, 1], "constant")
    x = np.zeros(3, dtype=np.float32)
    fill = np.float32(0).tobytes()
    with pytest.raises(ValueError, match="out holds"):
        plan.run(x, fill, np.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError, match="x has elements"):
        plan.run(np.zeros(3), fill, np.zeros(5, dtype=np.float32))
    with pytest.raises(ValueError, match="writeable"):
        out = np.zeros(5, dtype=np.float32)
        out.flags.writeable = False
        plan.run(x, fill, out)
    with pytest.raises(ValueError, match="shares memory"):
        both = np.zeros(8, dtype=np.float32)
        padkit._native.Plan([3], 4, [1, 1], "constant").run(both[:3], fill, both[2:7])
    with pytest.raises(padkit.PadError):
        plan.run(x, b"\x00", np.zeros(5, dtype=np.float32))


def test_lower_refuses_what_is_not_a_model():
    with pytest.raises(padkit.LowerError, match="not an ONNX model"):
        padkit.lower(b"\x08\x07\xff\xff")
    with pytest.raises(padkit.LowerError, match="target"):
        padkit.lower(b"", target="nowhere")
