"""padkit.pad and padkit.numpy_pad against independent oracles: numpy.pad on the modes
both have, and numpy slicing and assignment for what numpy.pad lacks (crops, interior
padding, axes), on seeded random cases."""

import numpy as np
import pytest

import padkit

SHARED = ["constant", "edge", "reflect", "symmetric", "wrap"]

DTYPES = [
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
    np.uint64, np.float16, np.float32, np.float64, np.longdouble, np.complex64,
    np.complex128, "datetime64[s]", "timedelta64[ms]", "S3", "U2", object,
]


def sample(rng, dtype, shape):
    """Random values of ``dtype``, distinct enough that a misplaced element shows."""
    n = int(np.prod(shape))
    ints = rng.integers(-100, 100, size=n)
    dtype = np.dtype(dtype)
    if dtype.kind in "SU":
        values = np.array([f"{v % 97}" for v in ints], dtype=dtype)
    elif dtype.kind == "O":
        values = np.array([f"s{v}" for v in ints] or [], dtype=object)
    elif dtype.kind == "c":
        values = (ints + 1j * rng.integers(-9, 9, size=n)).astype(dtype)
    elif dtype.kind == "b":
        values = ints > 0
    else:
        values = ints.astype(dtype) if dtype.kind not in "u" else (ints % 100).astype(dtype)
    return values.reshape(shape)


def cases(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        rank = int(rng.integers(0, 4))
        shape = tuple(int(d) for d in rng.integers(0, 5, size=rank))
        widths = [(int(a), int(b)) for a, b in rng.integers(0, 7, size=(rank, 2))]
        # (numpy.pad takes no empty list of widths for a 0-d array)
        yield rng, shape, widths or 0


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", SHARED)
def test_numpy_pad_is_numpys(mode, dtype):
    for rng, shape, widths in cases(40, hash((mode, str(dtype))) % 2**32):
        x = sample(rng, dtype, shape)
        kwargs = {}
        if mode == "constant" and x.size:
            kwargs["constant_values"] = x.reshape(-1)[0]
        try:
            want = np.pad(x, widths, mode, **kwargs)
        except ValueError:
            with pytest.raises(ValueError):
                padkit.numpy_pad(x, widths, mode, **kwargs)
            continue
        got = padkit.numpy_pad(x, widths, mode, **kwargs)
        assert got.dtype == want.dtype and got.shape == want.shape, (shape, widths)
        np.testing.assert_array_equal(got, want, err_msg=f"{shape} {widths}")


def test_numpy_pad_hands_the_rest_to_numpy():
    x = np.arange(5.0)
    for args, kwargs in [
        (("linear_ramp",), {"end_values": 3}),
        (("maximum",), {"stat_length": 2}),
        (("reflect",), {"reflect_type": "odd"}),
        (("constant",), {"constant_values": (1, 2)}),
    ]:
        np.testing.assert_array_equal(
            padkit.numpy_pad(x, 2, *args, **kwargs), np.pad(x, 2, *args, **kwargs)
        )
    with pytest.raises(ValueError):
        padkit.numpy_pad(x, -1)


def constant_by_positions(x, begins, ends, value):
    """The oracle of a constant Pad with crops: output position i of an axis reads the
    input at i - begin, or the fill outside it (ONNX's definition), axis by axis."""
    for axis, (b, e) in enumerate(zip(begins, ends)):
        d = x.shape[axis]
        if d + b + e < 0:
            raise ValueError("a negative extent")
        at = np.arange(d + b + e) - b
        inside = (at >= 0) & (at < d)
        taken = np.take(x, np.clip(at, 0, max(d - 1, 0)), axis=axis) if d else np.zeros(
            x.shape[:axis] + (len(at),) + x.shape[axis + 1:], x.dtype)
        mask = inside.reshape((-1,) + (1,) * (x.ndim - axis - 1))
        x = np.where(mask, taken, np.asarray(value, x.dtype))
    return x


def cropped_then_padded(x, begins, ends, mode, value):
    """The oracle of a Pad with crops: numpy slicing, then numpy.pad of what is left."""
    window = tuple(slice(max(0, -b), x.shape[i] - max(0, -e)) for i, (b, e) in enumerate(zip(begins, ends)))
    kept = x[window]
    widths = [(max(0, b), max(0, e)) for b, e in zip(begins, ends)]
    kwargs = {"constant_values": value} if mode == "constant" else {}
    return np.pad(kept, widths, mode, **kwargs)


@pytest.mark.parametrize("mode", SHARED)
def test_crops_are_numpy_slicing_first(mode):
    rng = np.random.default_rng(7)
    for _ in range(200):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(d) for d in rng.integers(1, 6, size=rank))
        begins = [int(v) for v in rng.integers(-3, 4, size=rank)]
        ends = [int(v) for v in rng.integers(-3, 4, size=rank)]
        x = rng.integers(-50, 50, size=shape).astype(np.float32)
        crossed = any(d + min(0, b) + min(0, e) < 0 for d, b, e in zip(shape, begins, ends))
        try:
            if mode == "constant":
                want = constant_by_positions(x, begins, ends, 2.5)
            else:
                # (numpy slicing clamps a window the crops cross; padkit refuses it)
                assert not crossed
                want = cropped_then_padded(x, begins, ends, mode, 2.5)
        except (AssertionError, ValueError):
            with pytest.raises(padkit.PadError):
                padkit.pad(x, begins + ends, mode, 2.5)
            continue
        np.testing.assert_array_equal(padkit.pad(x, begins + ends, mode, 2.5), want)


def test_axes_pick_and_count_from_the_end():
    x = np.arange(24).reshape(2, 3, 4)
    got = padkit.pad(x, [1, 2], "edge", axes=[-1])
    np.testing.assert_array_equal(got, np.pad(x, ((0, 0), (0, 0), (1, 2)), "edge"))
    got = padkit.pad(x, [1, 0, 0, 3], "wrap", axes=[2, 0])
    np.testing.assert_array_equal(got, np.pad(x, ((0, 3), (0, 0), (1, 0)), "wrap"))


def test_interior_padding_puts_fill_between_neighbours():
    rng = np.random.default_rng(3)
    for _ in range(100):
        shape = tuple(int(d) for d in rng.integers(0, 5, size=2))
        r = [int(v) for v in rng.integers(0, 3, size=2)]
        pads = [int(v) for v in rng.integers(0, 3, size=4)]
        x = rng.integers(1, 9, size=shape).astype(np.int16)
        # oracle: the data spread every r + 1 positions, then numpy.pad
        spread = [d + max(d - 1, 0) * k for d, k in zip(shape, r)]
        want = np.full(spread, -1, dtype=np.int16)
        want[:: r[0] + 1, :: r[1] + 1] = x
        want = np.pad(want, ((pads[0], pads[2]), (pads[1], pads[3])), constant_values=-1)
        np.testing.assert_array_equal(padkit.pad(x, pads, value=-1, interior=r), want)


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2", "int4", "uint4", "float4_e2m1fn"])
@pytest.mark.parametrize("mode", SHARED)
def test_ml_dtypes_pad_their_bits(name, mode):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    dtype = np.dtype(getattr(ml_dtypes, name))
    rng = np.random.default_rng(11)
    x = rng.integers(0, 6, size=(3, 4)).astype(np.float32).astype(dtype)
    got = padkit.pad(x, [1, 2, 3, 1], mode)
    assert got.dtype == dtype
    bits = np.uint8 if dtype.itemsize == 1 else np.uint16
    want = np.pad(x.view(bits), ((1, 3), (2, 1)), mode)
    np.testing.assert_array_equal(got.view(bits), want)


def test_string_dtype_pads():
    x = np.array(["a", "bb", "ccc"], dtype=np.dtypes.StringDType())
    got = padkit.pad(x, [2, 1], "reflect")
    assert got.dtype == x.dtype
    assert got.tolist() == ["ccc", "bb", "a", "bb", "ccc", "bb"]
    assert padkit.pad(x, [1, 0], value="z").tolist() == ["z", "a", "bb", "ccc"]


def test_object_arrays_keep_their_objects():
    marker = object()
    x = np.array([marker, None], dtype=object)
    got = padkit.pad(x, [1, 1], "wrap")
    assert got[0] is None and got[1] is marker and got[3] is marker


def test_non_contiguous_input_pads_its_values():
    x = np.arange(20.0).reshape(4, 5)[:, ::2].T
    np.testing.assert_array_equal(padkit.pad(x, [1, 1, 1, 1], "reflect"), np.pad(x, 1, "reflect"))
