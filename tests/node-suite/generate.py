"""Writes the ONNX backend node tests of the installed `onnx` package (pinned in
requirements.txt) in the backend-test layout: one directory per case holding
`model.onnx` and `test_data_set_N/{input,output}_M.pb`, as `onnx.backend.test` and
ONNX Runtime's test runner read them.

The onnx wheel ships the generators (`onnx.backend.test.case.node`), not the data:
each case's expected outputs are computed by the generator (numpy or onnx's reference
evaluator), independently of tract and padkit.

    python3 tests/node-suite/generate.py OUT_DIR [SUBSTRING ...]

With substrings, only the cases whose name holds one of them are written.
"""

import os
import sys

import onnx
from onnx import numpy_helper
from onnx.backend.test.case import node


def proto(value, info):
    """A value fed to or read from graph input/output `info`, as a protobuf."""
    kind = info.type.WhichOneof("value")
    if kind == "sequence_type":
        return numpy_helper.from_list(value, info.name)
    if kind == "optional_type":
        return numpy_helper.from_optional(value, info.name)
    if kind == "map_type":
        return numpy_helper.from_dict(value, info.name)
    if isinstance(value, onnx.TensorProto):
        return value
    return numpy_helper.from_array(value, info.name)


def main():
    out = sys.argv[1]
    wanted = sys.argv[2:]
    written = 0
    for case in node.collect_testcases():
        if wanted and not any(w in case.name for w in wanted):
            continue
        case_dir = os.path.join(out, case.name)
        os.makedirs(case_dir, exist_ok=True)
        with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        graph = case.model.graph
        for i, (inputs, outputs) in enumerate(case.data_sets):
            data_dir = os.path.join(case_dir, f"test_data_set_{i}")
            os.makedirs(data_dir, exist_ok=True)
            for kind, values, infos in (
                ("input", inputs, graph.input),
                ("output", outputs, graph.output),
            ):
                for j, value in enumerate(values):
                    path = os.path.join(data_dir, f"{kind}_{j}.pb")
                    with open(path, "wb") as f:
                        f.write(proto(value, infos[j]).SerializeToString())
        written += 1
    print(f"{written} cases written to {out} (onnx {onnx.__version__})")


if __name__ == "__main__":
    main()
