//! A Pad inside an `If` branch, reading the outer graph's input and initializer, is
//! lowered in place, and the lowered model run by stock tract-onnx gives the output worked
//! out by hand.

use padkit_onnx::proto::tensor_to_proto;
use tract_onnx::pb::attribute_proto::AttributeType;
use tract_onnx::pb::tensor_shape_proto::{Dimension, dimension};
use tract_onnx::pb::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorShapeProto,
    TypeProto, ValueInfoProto, type_proto,
};
use tract_onnx::prelude::*;

fn value(name: &str, elem_type: i32, dims: &[i64]) -> ValueInfoProto {
    let dim = dims
        .iter()
        .map(|&d| Dimension {
            value: Some(dimension::Value::DimValue(d)),
            ..Default::default()
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type,
                shape: Some(TensorShapeProto { dim }),
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn node(op: &str, inputs: &[&str], output: &str, attribute: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        op_type: op.into(),
        name: output.into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        attribute,
        ..Default::default()
    }
}

fn branch(name: &str, nodes: Vec<NodeProto>, output: &str) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Graph as i32,
        g: Some(GraphProto {
            name: name.into(),
            node: nodes,
            output: vec![value(output, 1, &[1, 6])],
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// `If(cond, then: reflect Pad of x by (1, 2) on its last axis, else: the same Pad in
/// edge mode)`, x = [[1, 2, 3]].
fn model() -> ModelProto {
    let mode = |m: &str| AttributeProto {
        name: "mode".into(),
        r#type: AttributeType::String as i32,
        s: m.as_bytes().to_vec(),
        ..Default::default()
    };
    let then = branch(
        "then_branch",
        vec![node("Pad", &["x", "pads"], "t", vec![mode("reflect")])],
        "t",
    );
    let otherwise = branch(
        "else_branch",
        vec![node("Pad", &["x", "pads"], "e", vec![mode("edge")])],
        "e",
    );
    let pads = padkit::Tensor::from_slice(&[4], &[0i64, 1, 0, 2]).unwrap();
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: 18,
        }],
        graph: Some(GraphProto {
            name: "g".into(),
            node: vec![node("If", &["cond"], "y", vec![then, otherwise])],
            initializer: vec![tensor_to_proto(&pads, "pads")],
            input: vec![value("cond", 9, &[]), value("x", 1, &[1, 3])],
            output: vec![value("y", 1, &[1, 6])],
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn pads_in_branches_are_lowered_and_run_by_stock_tract() {
    let lowered = padkit_lower::lower(&model()).unwrap();
    let branches = &lowered.graph.as_ref().unwrap().node[0].attribute;
    for b in branches {
        for n in &b.g.as_ref().unwrap().node {
            assert!(
                padkit_lower::PORTABLE_OPS.contains(&n.op_type.as_str()),
                "{}",
                n.op_type
            );
        }
    }
    let plan = tract_onnx::onnx()
        .model_for_proto_model(&lowered)
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let x = tensor2(&[[1.0f32, 2.0, 3.0]]);
    for (cond, want) in [
        (true, [2.0f32, 1.0, 2.0, 3.0, 2.0, 1.0]),
        (false, [1.0, 1.0, 2.0, 3.0, 3.0, 3.0]),
    ] {
        let out = plan
            .run(tvec![tensor0(cond).into_tvalue(), x.clone().into_tvalue()])
            .unwrap();
        let y = padkit_tract::from_tract(&out[0]).unwrap();
        assert_eq!(y.to_vec::<f32>().unwrap(), want, "cond {cond}");
    }
}
