"""Random Pad cases with numpy.pad's answers, for crates/padkit/tests/against_numpy.rs.

Run: python make_cases.py > pad_cases.jsonl   (numpy >= 2; seeded, so the file is reproducible)

Every line is one case: the element type, input shape and values, padkit's PadSpec (mode,
pads in ONNX order [begins..., ends...], optional axes), the fill value, and what numpy
gives: the output's shape and values, or the error numpy (or the crop rule below) raises.

numpy has no negative pads. padkit follows ONNX Runtime there: the negative part of a
pad crops the input first, then the positive part pads the window; in constant mode
an output extent d + begin + end >= 0 is valid even when one side crops past the axis
(pad first, then crop: the same answer wherever both are defined). Those rules are
transcribed here by slicing around np.pad; everything else is numpy's own.
"""
import json
import random
import sys

import numpy as np

SEED = 20261124
CASES = 1500
MAX_ELEMENTS = 768  # per output, to keep the file small

TYPES = {
    "i8": np.int8, "u8": np.uint8, "i16": np.int16, "i32": np.int32,
    "i64": np.int64, "f32": np.float32, "f64": np.float64,
}
MODES = ["constant", "reflect", "edge", "wrap", "symmetric"]
PADS = [0, 0, 0, 1, 1, 2, 3, 5, 9, 17, 40]
CROPS = [-1, -2, -3, -9]


def expected(x, mode, full, value):
    """numpy's answer for pads `full` ([(begin, end)] per axis), with ONNX's crops."""
    shape = x.shape
    if mode == "constant":
        if any(d + b + e < 0 for (b, e), d in zip(full, shape)):
            raise ValueError("an output extent would be negative")
        y = np.pad(x, [(max(0, b), max(0, e)) for b, e in full], mode="constant",
                   constant_values=value)
        return y[tuple(slice(max(0, -b), y.shape[k] - max(0, -e))
                       for k, (b, e) in enumerate(full))]
    if any(max(0, -b) + max(0, -e) > d for (b, e), d in zip(full, shape)):
        raise ValueError("the crops remove more than the axis")
    window = x[tuple(slice(max(0, -b), d - max(0, -e)) for (b, e), d in zip(full, shape))]
    return np.pad(window, [(max(0, b), max(0, e)) for b, e in full], mode=mode)


def case(rng, nrng):
    rank = rng.randint(1, 4)
    last = rng.random() < 0.3  # a long last axis reaches the kernel's row paths
    shape = [rng.choice([1, 2, 3, 5, 8, 17, 33, 70] if last and k == rank - 1
                        else [0, 1, 1, 2, 3, 4, 5, 7]) for k in range(rank)]
    mode = rng.choice(MODES)
    dtype = rng.choice(list(TYPES))
    if rng.random() < 0.3:
        axes = rng.sample(range(rank), rng.randint(1, rank))
        axes = [a - rank if rng.random() < 0.5 else a for a in axes]
    else:
        axes = None
    padded = axes if axes is not None else list(range(rank))
    pads = [rng.choice(CROPS if rng.random() < 0.12 else PADS)
            for _ in range(2 * len(padded))]
    full = [(0, 0)] * rank
    for i, a in enumerate(padded):
        full[a % rank] = (pads[i], pads[len(padded) + i])
    if dtype.startswith("f"):
        x = (nrng.integers(-400, 400, size=shape) / 4).astype(TYPES[dtype])
        value = float(nrng.integers(-20, 20)) / 4
    else:
        info = np.iinfo(TYPES[dtype])
        low, high = max(int(info.min), -999), min(int(info.max), 999)
        x = nrng.integers(low, high + 1, size=shape, dtype=TYPES[dtype])
        value = int(rng.choice([info.min, info.max, nrng.integers(low, high + 1)]))
    try:
        y = expected(x, mode, full, value)
        if y.size > MAX_ELEMENTS:
            return None
        numpy = {"shape": list(y.shape), "values": y.ravel().tolist()}
    except ValueError as e:
        numpy = {"error": str(e)}
    spec = {"mode": mode, "pads": pads, "axes": axes}
    return {"type": dtype, "shape": shape, "values": x.ravel().tolist(), "spec": spec,
            "value": value, "numpy": numpy}


def main():
    rng = random.Random(SEED)
    nrng = np.random.default_rng(SEED)
    written = 0
    while written < CASES:
        c = case(rng, nrng)
        if c is not None:
            sys.stdout.write(json.dumps(c, separators=(",", ":")) + "\n")
            written += 1
    sys.stderr.write(f"{written} cases, numpy {np.__version__}\n")


main()
