#!/usr/bin/env python3
"""Grades a committed report again on today's suite where the suite changed only by a new
group of tags (such as `onnx:`, what ONNX says about each case): the cases, their models
and their other tags are the ones the report was graded on. It checks that (the report's
suite digest must be the digest of today's manifest without the new group's tags), then
writes the report with today's tags and suite identity, and the verdicts as the graders
give them today: an outside runtime's refusal of a case beyond ONNX (tagged
`onnx:beyond`) passes (padkit_conformance::grade::credit_refusal, `refusal_passes` in
run.py); every other verdict stands.

    python3 tests/peers/regrade.py SUITE_DIR --new-tags onnx REPORT.json...

Used for the runtimes that CI does not grade again (tinygrad, TVM, onnx2torch): the answers
they gave are the report's, unchanged; what changes is only how a refusal is counted.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import digest  # noqa: E402
from run import refusal_passes, write_report  # noqa: E402


def without(manifest, group):
    """`manifest` with the tags of `group` dropped from every case."""
    cases = [
        dict(c, tags=[t for t in c["tags"] if not t.startswith(f"{group}:")])
        for c in manifest["cases"]
    ]
    return dict(manifest, cases=cases)


def regrade(report, manifest):
    """`report` with today's tags and the verdicts the graders give today."""
    entries = {c["name"]: c for c in manifest["cases"]}
    for row in report["cases"]:
        row["tags"] = entries[row["name"]]["tags"]
        for engine, verdict in row["results"].items():
            if verdict["verdict"] == "refused" and refusal_passes(engine, row["tags"]):
                row["results"][engine] = {"verdict": "pass"}
    report["suite"] = digest.suite_identity(manifest)
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", help="a directory `padkit suite export` wrote")
    parser.add_argument("--new-tags", required=True, help="the group of tags the suite gained")
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    with open(os.path.join(args.suite, "manifest.json")) as f:
        manifest = json.load(f)
    before = digest.suite_identity(without(manifest, args.new_tags))
    for path in args.reports:
        with open(path) as f:
            report = json.load(f)
        if report.get("suite") != before:
            sys.exit(f"{path} was graded on {report.get('suite')}, not on today's suite without "
                     f"the tags {args.new_tags}: (the suite {before}); grade it again instead")
        names = [c["name"] for c in report["cases"]]
        if names != [c["name"] for c in manifest["cases"]]:
            sys.exit(f"{path}'s cases are not the suite's")
        write_report(path, regrade(report, manifest))
        print(f"{path}: graded again on {report['suite']['digest'][:12]}…")


if __name__ == "__main__":
    main()
