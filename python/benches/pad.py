"""padkit.pad against numpy.pad, and against numpy.copy of an array of the output's size
(the floor: one read and one write of the output's bytes, into a fresh allocation as
padkit.pad's is), on one thread, in one run: W1 (float32 [1, 64, 256, 256], 2 on each
side of H and W, every mode) and a small array, where call overhead shows.

Usage: python python/benches/pad.py [--rounds N]. Prints one row per (workload, mode): the
median time of each and the ratios. Run it on an idle machine; docs/python.md keeps the
figures with the machine and date.
"""

import argparse
import os
import platform
import statistics
import time

os.environ["RAYON_NUM_THREADS"] = "1"  # one thread, before padkit's kernels start

import numpy as np  # noqa: E402

import padkit  # noqa: E402

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def medians(fs, rounds):
    """The median time of each of ``fs``, run in turn in every round (so that the
    machine's drift during the run weighs on each alike)."""
    for f in fs:
        f()
    times = [[] for _ in fs]
    for _ in range(rounds):
        for f, t in zip(fs, times):
            start = time.perf_counter()
            f()
            t.append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    workloads = [
        ("W1 float32 [1,64,256,256] +2 H,W", np.random.default_rng(0).random((1, 64, 256, 256), dtype=np.float32),
         ((0, 0), (0, 0), (2, 2), (2, 2)), args.rounds),
        ("small float32 [8,8] +1", np.arange(64, dtype=np.float32).reshape(8, 8), ((1, 1), (1, 1)),
         args.rounds * 100),
    ]
    print(f"# {platform.processor() or platform.machine()}, numpy {np.__version__}, padkit {padkit.__version__}, one thread")
    print("| workload | mode | numpy.pad | padkit.pad | numpy.copy of the output | numpy.pad / padkit | padkit / copy |")
    print("|---|---|---|---|---|---|---|")
    for name, x, widths, rounds in workloads:
        pads = [b for b, _ in widths] + [e for _, e in widths]
        like = np.empty(np.pad(x, widths).shape, x.dtype)
        for mode in MODES:
            ours = padkit.pad(x, pads, mode)
            assert (ours == np.pad(x, widths, mode)).all()
            theirs, mine, copy = medians(
                [lambda: np.pad(x, widths, mode), lambda: padkit.pad(x, pads, mode), lambda: np.copy(like)],
                rounds,
            )
            print(f"| {name} | {mode} | {theirs * 1e6:.1f} µs | {mine * 1e6:.1f} µs | {copy * 1e6:.1f} µs "
                  f"| {theirs / mine:.1f}× | {mine / copy:.2f}× |")

if __name__ == "__main__":
    main()
