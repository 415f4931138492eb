//! Pads where the walk of the main graph does not reach — a model-local function's body,
//! a training graph — are refused by name, never left in a model the command calls
//! lowered.

use padkit::Tensor;
use padkit_lower::{LowerError, lower};
use padkit_onnx::pb::{FunctionProto, GraphProto, ModelProto, NodeProto, TrainingInfoProto};
use padkit_onnx_tools::model::{Feed, PadModel};

fn model() -> ModelProto {
    let x = Tensor::from_slice(&[1, 3], &[1.0f32, 2.0, 3.0]).unwrap();
    PadModel::new(19, "edge", x, vec![0, 1, 0, 1], Feed::Initializer).proto()
}

fn pad_node(name: &str) -> NodeProto {
    NodeProto {
        op_type: "Pad".into(),
        name: name.into(),
        input: vec!["a".into(), "p".into()],
        output: vec!["b".into()],
        ..Default::default()
    }
}

fn refusal(model: &ModelProto) -> String {
    match lower(model) {
        Err(e @ LowerError::NotLowered { .. }) => e.to_string(),
        other => panic!("not refused as not lowered: {other:?}"),
    }
}

#[test]
fn pads_in_model_local_functions_are_refused() {
    let mut m = model();
    assert!(lower(&m).is_ok());
    m.functions.push(FunctionProto {
        name: "MyPad".into(),
        domain: "local".into(),
        input: vec!["a".into(), "p".into()],
        output: vec!["b".into()],
        node: vec![pad_node("inner_pad")],
        ..Default::default()
    });
    let err = refusal(&m);
    assert!(
        err.contains("inner_pad") && err.contains("\"MyPad\""),
        "{err}"
    );
}

#[test]
fn pads_in_training_graphs_are_refused() {
    let mut m = model();
    m.training_info.push(TrainingInfoProto {
        algorithm: Some(GraphProto {
            name: "step".into(),
            node: vec![pad_node("training_pad")],
            ..Default::default()
        }),
        ..Default::default()
    });
    let err = refusal(&m);
    assert!(
        err.contains("training_pad") && err.contains("training graph 0"),
        "{err}"
    );
}
