#!/usr/bin/env python3
"""What `padkit lower` keeps: every field of a model that the lowering does not replace,
read back by onnx's own protobuf classes (an independent reader of the whole schema).
For hand-built models that carry each kind of field ONNX defines (model-local functions
with attribute defaults, overloads, value_info and metadata; `metadata_props` on the model,
graph, nodes, inputs, outputs, value_infos and initializers; sequence, optional and map
types; sparse initializers; training graphs; quantization annotations) and for the real
models of tests/data/models, the lowered model must equal the original once the Pad nodes
are taken out: the other nodes in their order and every other field equal, the original's
value_infos all kept. Fails on any difference, naming the field.

    python3 tests/peers/lowered_fields.py --padkit target/debug/padkit
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def meta(**kv):
    return [onnx.StringStringEntryProto(key=k, value=v) for k, v in kv.items()]


def value(name, elem, shape, **kv):
    v = helper.make_tensor_value_info(name, elem, shape)
    v.metadata_props.extend(meta(**kv))
    return v


def hand_built():
    """(name, model) pairs, each with a constant Pad that `padkit lower` rewrites."""
    pads = numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), "pads")
    pads.metadata_props.extend(meta(role="pads"))
    pad = helper.make_node("Pad", ["x", "pads"], ["p"], name="pad", mode="reflect")
    local = helper.make_node("Twice", ["p"], ["y"], name="call", domain="local")
    local.metadata_props.extend(meta(on="node"))
    graph = helper.make_graph(
        [pad, local],
        "g",
        [value("x", TensorProto.FLOAT, [2, 3], on="input")],
        [value("y", TensorProto.FLOAT, [2, 5], on="output")],
        [pads],
        doc_string="a graph",
        value_info=[value("p", TensorProto.FLOAT, [2, 5], on="value_info")],
    )
    graph.metadata_props.extend(meta(on="graph"))
    # values of every non-tensor type, declared where nothing reads them
    seq = helper.make_tensor_sequence_value_info("a_sequence", TensorProto.FLOAT, [2])
    opt = helper.make_value_info(
        "an_optional",
        helper.make_optional_type_proto(
            helper.make_tensor_type_proto(TensorProto.INT64, [1])
        ),
    )
    mapping = helper.make_value_info(
        "a_map",
        onnx.TypeProto(
            map_type=onnx.TypeProto.Map(
                key_type=TensorProto.INT64,
                value_type=helper.make_tensor_type_proto(TensorProto.FLOAT, []),
            )
        ),
    )
    graph.value_info.extend([seq, opt, mapping])
    graph.sparse_initializer.append(
        helper.make_sparse_tensor(
            numpy_helper.from_array(np.array([5.0], np.float32), "unused_sparse"),
            numpy_helper.from_array(np.array([1], np.int64), "unused_sparse_indices"),
            [4],
        )
    )
    graph.quantization_annotation.append(
        onnx.TensorAnnotation(
            tensor_name="y",
            quant_parameter_tensor_names=meta(SCALE_TENSOR="pads"),
        )
    )
    # a model-local function with an attribute default, an overload and metadata
    body = helper.make_node("Add", ["a", "a"], ["b"], name="twice_add")
    twice = helper.make_function(
        "local",
        "Twice",
        ["a"],
        ["b"],
        [body],
        [helper.make_opsetid("", 19)],
        doc_string="a + a",
    )
    twice.attribute_proto.append(helper.make_attribute("unused_scale", 2.0))
    twice.overload = "v1"
    twice.value_info.append(value("b", TensorProto.FLOAT, [2, 5], on="function"))
    twice.metadata_props.extend(meta(on="function"))
    call = onnx.NodeProto()
    call.CopyFrom(local)
    call.overload = "v1"
    graph.node[1].CopyFrom(call)
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 19), helper.make_opsetid("local", 1)],
        functions=[twice],
        producer_name="lowered_fields.py",
        producer_version="1",
        domain="ai.padkit.test",
        model_version=7,
        doc_string="a model",
    )
    model.ir_version = 10
    model.metadata_props.extend(meta(on="model"))
    # a training graph without a Pad, which the lowering leaves as it is
    step = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["x_out"], name="step")],
        "step",
        [value("x", TensorProto.FLOAT, [2, 3])],
        [value("x_out", TensorProto.FLOAT, [2, 3])],
    )
    model.training_info.append(onnx.TrainingInfoProto(algorithm=step))
    return [("hand-built, every kind of field", model)]


def real_models(root):
    for case in sorted(r for r, _, files in os.walk(root) if "model.onnx" in files):
        yield os.path.relpath(case, root), onnx.load(os.path.join(case, "model.onnx"))


def is_pad(node):
    return node.op_type in ("Pad", "CenterCropPad")


def subgraphs(node):
    return [
        g
        for a in node.attribute
        for g in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs))
    ]


def has_pad(graph):
    return any(is_pad(n) or any(map(has_pad, subgraphs(n))) for n in graph.node)


def repeated(field):
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == field.LABEL_REPEATED


def drop_defaults(message):
    """`message` without the scalar fields set to their default value: padkit's schema is
    onnx's in proto3 syntax, where a scalar has no presence apart from its value (an
    empty `domain` is ONNX's default domain whether it is written or not)."""
    for field, value in message.ListFields():
        if field.message_type is not None:
            if repeated(field):
                for m in value:
                    drop_defaults(m)
            else:
                drop_defaults(value)
        elif (
            not repeated(field)
            and field.containing_oneof is None
            and value == field.default_value
        ):
            message.ClearField(field.name)
    return message


def copy(message):
    c = type(message)()
    c.CopyFrom(message)
    return c


def graph_differences(original, lowered, where):
    """Where graph `lowered` differs from `original` in anything but the rewritten Pads
    (their nodes, the subgraphs that hold them, the value_infos the lowering adds)."""
    found = []
    nodes = iter(lowered.node)
    for n in (n for n in original.node if not is_pad(n)):
        name = n.name or n.output[0]
        if not any(map(has_pad, subgraphs(n))):
            if not any(m == n for m in nodes):
                found.append(f"{where}: node {name!r} lost or changed")
                return found
            continue
        # a node holding a Pad in a subgraph: its other attributes kept, its graphs
        # compared as graphs
        m = next((m for m in nodes if m.name == n.name and m.op_type == n.op_type), None)
        if m is None:
            found.append(f"{where}: node {name!r} lost")
            return found
        plain = lambda node: [a for a in node.attribute if not subgraphs_of(a)]
        if plain(m) != plain(n) or list(m.input) != list(n.input) or list(m.output) != list(n.output):
            found.append(f"{where}: node {name!r} changed")
        for i, (a, b) in enumerate(zip(subgraphs(n), subgraphs(m))):
            found.extend(graph_differences(a, b, f"{where}/{name}[{i}]"))
    infos = {v.name: v for v in lowered.value_info}
    for v in original.value_info:
        if infos.get(v.name) != v:
            found.append(f"{where}: value_info {v.name!r} lost or changed")
    # before opset 6 the lowering adds its integer constants as initializers (and, below
    # IR version 4, as inputs): the original's come first, unchanged
    for field in ("initializer", "input"):
        kept = list(getattr(original, field))
        if list(getattr(lowered, field))[: len(kept)] != kept:
            found.append(f"{where}: graph field {field!r} lost or changed")
    a, b = copy(original), copy(lowered)
    for g in (a, b):
        for field in ("node", "value_info", "initializer", "input"):
            g.ClearField(field)
    for field, _ in a.ListFields():
        if getattr(a, field.name) != getattr(b, field.name):
            found.append(f"{where}: graph field {field.name!r} differs")
    if a != b and not found:
        found.append(f"{where}: the graph differs")
    return found


def subgraphs_of(attribute):
    return attribute.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)


def differences(original, lowered, where):
    """Where model `lowered` differs from `original` in anything but the rewritten Pads,
    default-valued scalars aside ([`drop_defaults`])."""
    original, lowered = drop_defaults(copy(original)), drop_defaults(copy(lowered))
    found = graph_differences(original.graph, lowered.graph, where)
    a, b = copy(original), copy(lowered)
    a.ClearField("graph")
    b.ClearField("graph")
    for field, _ in a.ListFields():
        if getattr(a, field.name) != getattr(b, field.name):
            found.append(f"{where}: field {field.name!r} differs")
    if a != b and not any("field" in f for f in found):
        found.append(f"{where}: the model differs")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--padkit", required=True, help="the padkit binary")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument(
        "dir", nargs="?", default=os.path.join(here, "..", "data", "models")
    )
    args = parser.parse_args()
    failures = []
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        models = hand_built() + [
            (name, m) for name, m in real_models(args.dir) if has_pad(m.graph)
        ]
        for name, model in models:
            count += 1
            source = os.path.join(tmp, "model.onnx")
            lowered_path = os.path.join(tmp, "lowered.onnx")
            onnx.save(model, source)
            done = subprocess.run(
                [args.padkit, "lower", source, lowered_path], capture_output=True, text=True
            )
            if done.returncode != 0:
                failures.append(f"{name}: padkit lower failed: {done.stderr.strip()}")
                continue
            lowered = onnx.load(lowered_path)
            failures.extend(differences(model, lowered, name))
            try:
                onnx.checker.check_model(model, full_check=True)
            except onnx.checker.ValidationError:
                continue
            try:
                onnx.checker.check_model(lowered, full_check=True)
            except onnx.checker.ValidationError as e:
                failures.append(f"{name}: the lowered model fails onnx's checker: {e}")
    for f in failures:
        print(f)
    print(f"lowered_fields: {count - len({f.split(':')[0] for f in failures})}/{count} kept every field")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
