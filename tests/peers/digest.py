#!/usr/bin/env python3
"""Checks that each report was graded on the suite padkit exports today: the report's
"suite" (its generator, the catalogue's version, and a digest of the case list, names and
tags in order, as tests/peers/run.py writes it) must be the exported suite's. A report
graded on an older catalogue fails, naming the command that grades it again.

    python3 tests/peers/digest.py SUITE_DIR REPORT.json...
"""

import hashlib
import json
import os
import sys


def suite_identity(manifest):
    """What a report is graded on: the suite's generator and the digest of its cases."""
    h = hashlib.sha256()
    for case in manifest["cases"]:
        h.update(json.dumps([case["name"], case["tags"]]).encode())
        h.update(b"\n")
    return {"generator": manifest["generator"], "digest": h.hexdigest()}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    with open(os.path.join(sys.argv[1], "manifest.json")) as f:
        today = suite_identity(json.load(f))
    stale = []
    for path in sys.argv[2:]:
        with open(path) as f:
            report = json.load(f)
        graded = report.get("suite")
        if graded != today:
            engines = " ".join(f"--engine {e}" for e in report["engines"])
            stale.append(
                f"{path} was graded on {graded} and the suite is {today}: grade it again "
                f"with `python3 tests/peers/run.py SUITE {path} {engines}` "
                f"(docs/conformance.md, \"The wider matrix\")"
            )
    for s in stale:
        print(s, file=sys.stderr)
    if stale:
        sys.exit(1)
    print(f"{len(sys.argv) - 2} reports graded on the suite of today ({today['digest'][:12]}…)")


if __name__ == "__main__":
    main()
