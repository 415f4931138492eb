//! Pads inside subgraphs (the branches of `If`, the body of `Scan`) go through padkit
//! too: their wrap pads (which stock tract refuses) load and run. tract-onnx 0.23.9 has
//! no `Loop` at all, so a Loop body never reaches an op builder.

use padkit::PadMode;
use padkit_onnx::pb::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, ValueInfoProto,
};
use padkit_onnx::proto::tensor_to_proto;
use padkit_testkit::Case;
use tract_onnx::prelude::*;

fn value_info(name: &str, elem_type: i32, dims: &[i64]) -> ValueInfoProto {
    padkit_onnx::graph::value_info(name, elem_type, Some(padkit_onnx::graph::dims(dims)))
}

/// A graph of one Pad node reading `x` (from the graph or the scope around it).
fn pad_graph(
    name: &str,
    x: &str,
    mode: &str,
    pads: &[i64],
    out: &str,
    out_dims: &[i64],
) -> GraphProto {
    let pads_name = format!("{name}_pads");
    GraphProto {
        name: name.into(),
        node: vec![NodeProto {
            name: format!("{name}_pad"),
            op_type: "Pad".into(),
            input: vec![x.into(), pads_name.clone()],
            output: vec![out.into()],
            attribute: vec![AttributeProto {
                name: "mode".into(),
                r#type: 3,
                s: mode.as_bytes().to_vec(),
                ..Default::default()
            }],
            ..Default::default()
        }],
        initializer: vec![tensor_to_proto(
            &padkit::Tensor::from_slice(&[pads.len()], pads).unwrap(),
            &pads_name,
        )],
        output: vec![value_info(out, 1, out_dims)],
        ..Default::default()
    }
}

fn model(graph: GraphProto) -> ModelProto {
    ModelProto {
        ir_version: 9,
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: 19,
        }],
        graph: Some(graph),
        ..Default::default()
    }
}

fn graph_attr(name: &str, g: GraphProto) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: 5,
        g: Some(g),
        ..Default::default()
    }
}

fn reference(shape: &[usize], pads: &[i64], mode: PadMode, data: &[f32]) -> Vec<f32> {
    let case = Case::new(shape.to_vec(), pads.to_vec(), mode);
    case.reference(data, 0.0, usize::MAX).unwrap().1
}

#[test]
fn pads_in_both_branches_of_if() {
    let then_branch = pad_graph("then", "x", "wrap", &[1, 1, 1, 1], "y_then", &[4, 5]);
    let else_branch = pad_graph("else", "x", "reflect", &[1, 1, 1, 1], "y_else", &[4, 5]);
    let graph = GraphProto {
        name: "if".into(),
        node: vec![NodeProto {
            name: "branch".into(),
            op_type: "If".into(),
            input: vec!["cond".into()],
            output: vec!["y".into()],
            attribute: vec![
                graph_attr("then_branch", then_branch),
                graph_attr("else_branch", else_branch),
            ],
            ..Default::default()
        }],
        input: vec![value_info("x", 1, &[2, 3]), value_info("cond", 9, &[])],
        output: vec![value_info("y", 1, &[4, 5])],
        ..Default::default()
    };
    let plan = branch_if()
        .model_for_proto_model(&padkit_tract::tract_proto(&model(graph)).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let data: Vec<f32> = (0..6).map(|i| i as f32).collect();
    for (cond, mode) in [(true, PadMode::Wrap), (false, PadMode::Reflect)] {
        let x = Tensor::from_shape(&[2, 3], &data).unwrap();
        let out = plan
            .run(tvec!(x.into_tvalue(), tensor0(cond).into_tvalue()))
            .unwrap();
        let got = out[0]
            .to_plain_array_view::<f32>()
            .unwrap()
            .iter()
            .copied()
            .collect::<Vec<_>>();
        assert_eq!(
            got,
            reference(&[2, 3], &[1, 1, 1, 1], mode, &data),
            "{mode}"
        );
    }
}

#[test]
fn pads_in_a_scan_body() {
    // Scan over the rows of x [3, 4]: each row wrapped by one element on each side.
    let mut body = pad_graph("body", "row", "wrap", &[1, 1], "padded", &[6]);
    body.input = vec![value_info("row", 1, &[4])];
    let graph = GraphProto {
        name: "scan".into(),
        node: vec![NodeProto {
            name: "scan".into(),
            op_type: "Scan".into(),
            input: vec!["x".into()],
            output: vec!["y".into()],
            attribute: vec![
                graph_attr("body", body),
                AttributeProto {
                    name: "num_scan_inputs".into(),
                    r#type: 2,
                    i: 1,
                    ..Default::default()
                },
            ],
            ..Default::default()
        }],
        input: vec![value_info("x", 1, &[3, 4])],
        output: vec![value_info("y", 1, &[3, 6])],
        ..Default::default()
    };
    let plan = branch_if()
        .model_for_proto_model(&padkit_tract::tract_proto(&model(graph)).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let x = Tensor::from_shape(&[3, 4], &data).unwrap();
    let out = plan.run(tvec!(x.into_tvalue())).unwrap();
    let got = out[0]
        .to_plain_array_view::<f32>()
        .unwrap()
        .iter()
        .copied()
        .collect::<Vec<_>>();
    let want = Case {
        axes: Some(vec![1]),
        ..Case::new(vec![3, 4], vec![1, 1], PadMode::Wrap)
    };
    assert_eq!(got, want.reference(&data, 0.0, usize::MAX).unwrap().1);
}

/// padkit's tract with padkit's `If`, which these tests exercise.
fn branch_if() -> tract_onnx::Onnx {
    let mut onnx = padkit_tract::onnx();
    padkit_tract::register_if(&mut onnx.op_register);
    onnx
}
