//! Models whose Pads padkit-lower must not lower with values that are not the ones they
//! run with, or that must not make it allocate without bound: pads a caller may override,
//! pads a loop body carries under an outer constant's name, a `Reshape` with `allowzero`,
//! tensors of zero elements with astronomical extents. Each is lowered with index maps
//! computed at run time from the pads the model runs with (a `Range`), never with
//! constant maps of other pads.

use padkit::Tensor;
use padkit_lower::lower;
use padkit_onnx::graph::{dims, value_info};
use padkit_onnx::pb::attribute_proto::AttributeType;
use padkit_onnx::pb::{AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto};
use padkit_onnx::proto::tensor_to_proto;
use padkit_onnx_tools::model::{Feed, PadModel};

fn x() -> Tensor {
    Tensor::from_slice(&[1, 3], &[1.0f32, 2.0, 3.0]).unwrap()
}

fn node(op: &str, inputs: &[&str], outputs: &[&str]) -> NodeProto {
    NodeProto {
        op_type: op.into(),
        name: outputs[0].into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

/// Every op of `g` and of its subgraphs.
fn ops(g: &GraphProto) -> Vec<String> {
    let mut all = vec![];
    for node in &g.node {
        all.push(node.op_type.clone());
        for a in &node.attribute {
            all.extend(a.g.iter().chain(&a.graphs).flat_map(ops));
        }
    }
    all
}

/// Asserts that `model` is lowered with index maps computed at run time.
fn maps_computed_at_run_time(model: &ModelProto) {
    let lowered = lower(model).unwrap_or_else(|e| panic!("{e}"));
    let ops = ops(lowered.graph.as_ref().unwrap());
    assert!(ops.iter().any(|op| op == "Range"), "{ops:?}");
    assert!(!ops.iter().any(|op| op == "Pad"), "{ops:?}");
}

/// An initializer that is also a graph input (IR 4 on) is a default the caller may
/// replace: the Pad it feeds is not lowered with it as a constant.
#[test]
fn overridable_pads_are_not_constants() {
    let mut model = PadModel::new(13, "edge", x(), vec![0, 1, 0, 1], Feed::Initializer).proto();
    let g = model.graph.as_mut().unwrap();
    g.input.push(value_info("pads", 7, Some(dims(&[4]))));
    maps_computed_at_run_time(&model);
}

/// A Loop body's carried `pads` shadows the outer initializer of that name.
#[test]
fn names_a_subgraph_defines_shadow_the_outer_graph() {
    let mut model = PadModel::new(13, "edge", x(), vec![0, 1, 0, 1], Feed::Initializer).proto();
    let g = model.graph.as_mut().unwrap();
    let pad = g.node.remove(0);
    let mut body_pad = pad.clone();
    body_pad.output = vec!["padded".into()];
    let body = GraphProto {
        name: "body".into(),
        node: vec![
            node("Identity", &["cond_in"], &["cond_out"]),
            node("Identity", &["pads"], &["pads_out"]),
            body_pad,
        ],
        input: vec![
            value_info("iter", 7, Some(dims(&[]))),
            value_info("cond_in", 9, Some(dims(&[]))),
            value_info("pads", 7, Some(dims(&[4]))),
        ],
        output: vec![
            value_info("cond_out", 9, Some(dims(&[]))),
            value_info("pads_out", 7, Some(dims(&[4]))),
            value_info("padded", 1, None),
        ],
        ..Default::default()
    };
    let mut lp = node("Loop", &["", "cond", "pads"], &["pads_final", "y"]);
    lp.attribute.push(AttributeProto {
        name: "body".into(),
        r#type: AttributeType::Graph as i32,
        g: Some(body),
        ..Default::default()
    });
    g.node.push(lp);
    g.input.push(value_info("cond", 9, Some(dims(&[]))));
    maps_computed_at_run_time(&model);
}

/// Pads folded through a `Reshape` whose `allowzero` is 1 are not folded (a 0 there is an
/// extent, not a copy of the input's).
#[test]
fn reshape_with_allowzero_is_not_folded() {
    let mut model = PadModel::new(13, "edge", x(), vec![0, 1, 0, 1], Feed::Initializer).proto();
    let g = model.graph.as_mut().unwrap();
    g.initializer[0].name = "raw".into();
    let shape = Tensor::from_slice(&[1], &[4i64]).unwrap();
    g.initializer.push(tensor_to_proto(&shape, "shape"));
    let mut reshape = node("Reshape", &["raw", "shape"], &["pads"]);
    reshape.attribute.push(AttributeProto {
        name: "allowzero".into(),
        r#type: AttributeType::Int as i32,
        i: 1,
        ..Default::default()
    });
    g.node.insert(0, reshape);
    maps_computed_at_run_time(&model);
    // the same Reshape without allowzero folds, and the Pad's maps are constants
    model.graph.as_mut().unwrap().node[0].attribute.clear();
    let lowered = lower(&model).unwrap();
    assert!(
        !ops(lowered.graph.as_ref().unwrap())
            .iter()
            .any(|op| op == "Range")
    );
}

/// A Slice of an int64 initializer of zero elements whose other extent is 2^40, feeding
/// the pads: not folded (no list of 2^40 positions is made), so the Pad's maps are
/// computed at run time.
#[test]
fn empty_tensors_of_huge_extents_are_not_folded() {
    let mut model = PadModel::new(13, "edge", x(), vec![0, 1, 0, 1], Feed::Initializer).proto();
    let g = model.graph.as_mut().unwrap();
    g.initializer.push(TensorProto {
        name: "huge".into(),
        data_type: 7,
        dims: vec![0, 1 << 40],
        ..Default::default()
    });
    let one = |v: i64, name: &str| tensor_to_proto(&Tensor::from_slice(&[1], &[v]).unwrap(), name);
    g.initializer.push(one(0, "zero"));
    g.initializer.push(one(1, "one"));
    g.node
        .insert(0, node("Slice", &["huge", "zero", "one", "zero"], &["cut"]));
    g.node[1].input[1] = "cut".into();
    maps_computed_at_run_time(&model);
}
