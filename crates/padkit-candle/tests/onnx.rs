//! `padkit_candle::onnx::simple_eval` on Pads candle-onnx 0.11.1 cannot run alone, against
//! the outputs worked out by hand: the opset-1 attribute form, pads, value and axes all fed
//! at run time, padkit's own symmetric Pad with interior padding, and CenterCropPad. (The
//! CLI's `candle` engine runs the whole exported suite and the real models, silero-vad's
//! Pads inside `If` branches among them.)

use std::collections::HashMap;

use candle_core::{Device, Tensor};
use padkit_onnx::model::{Feed, PadModel};
use prost::Message;

fn candle_model(m: &PadModel) -> candle_onnx::onnx::ModelProto {
    candle_onnx::onnx::ModelProto::decode(m.proto().encode_to_vec().as_slice()).unwrap()
}

fn x() -> Tensor {
    Tensor::new(&[[1f32, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::Cpu).unwrap()
}

fn data() -> padkit::Tensor {
    padkit::Tensor::from_slice(&[2, 3], &[1f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap()
}

fn run(
    model: &candle_onnx::onnx::ModelProto,
    inputs: Vec<(&str, Tensor)>,
) -> candle_core::Result<Vec<Vec<f32>>> {
    let inputs = inputs
        .into_iter()
        .map(|(n, t)| (n.to_string(), t))
        .collect::<HashMap<_, _>>();
    padkit_candle::onnx::simple_eval(model, inputs)?["y"].to_vec2::<f32>()
}

#[test]
fn opset_1_attributes_in_edge_mode() {
    let model = candle_model(&PadModel::new(
        1,
        "edge",
        data(),
        vec![0, 1, 0, 1],
        Feed::Attribute,
    ));
    // candle-onnx alone reads a second input the node does not have
    assert!(
        std::panic::catch_unwind(|| candle_onnx::simple_eval(
            &model,
            HashMap::from([("x".to_string(), x())])
        ))
        .is_err()
    );
    assert_eq!(
        run(&model, vec![("x", x())]).unwrap(),
        [[1.0, 1.0, 2.0, 3.0, 3.0], [4.0, 4.0, 5.0, 6.0, 6.0]]
    );
}

/// A panic of candle-onnx's on a model padkit passes on to it is an error, not a panic.
#[test]
fn candle_onnx_panics_are_errors() {
    let mut m = PadModel::new(19, "reflect", data(), vec![0, 1, 0, 1], Feed::Initializer).proto();
    // a Gather with no indices input: candle-onnx indexes node.input[1]
    let graph = m.graph.as_mut().unwrap();
    graph.node.push(tract_onnx::pb::NodeProto {
        op_type: "Gather".into(),
        input: vec!["y".into()],
        output: vec!["z".into()],
        ..Default::default()
    });
    graph.output[0].name = "z".into();
    let model = candle_onnx::onnx::ModelProto::decode(m.encode_to_vec().as_slice()).unwrap();
    let err = padkit_candle::onnx::simple_eval(&model, HashMap::from([("x".to_string(), x())]))
        .unwrap_err();
    assert!(err.to_string().contains("candle-onnx panicked"), "{err}");
}

#[test]
fn every_operand_fed_at_run_time() {
    let value = padkit::Tensor::from_slice(&[], &[9.5f32]).unwrap();
    let m = PadModel::new(18, "constant", data(), vec![1, -1], Feed::Input)
        .with_value(value, Feed::Input)
        .with_axes(vec![-1], Feed::Input);
    let model = candle_model(&m);
    let cpu = Device::Cpu;
    let feeds = |pads: &[i64]| {
        vec![
            ("x", x()),
            ("pads", Tensor::new(pads, &cpu).unwrap()),
            ("value", Tensor::new(9.5f32, &cpu).unwrap()),
            ("axes", Tensor::new(&[-1i64], &cpu).unwrap()),
        ]
    };
    assert_eq!(
        run(&model, feeds(&[1, -1])).unwrap(),
        [[9.5, 1.0, 2.0], [9.5, 4.0, 5.0]]
    );
    // the same model, other pads: lowered for each call's inputs
    assert_eq!(
        run(&model, feeds(&[0, 2])).unwrap(),
        [[1.0, 2.0, 3.0, 9.5, 9.5], [4.0, 5.0, 6.0, 9.5, 9.5]]
    );
    // pads that do not fit fail as the original must, naming the node and the numbers
    let err = run(&model, feeds(&[-4, 0])).unwrap_err().to_string();
    assert!(err.contains("the_pad") && err.contains("axis 1"), "{err}");
}

#[test]
fn padkits_symmetric_and_interior_pads() {
    let mut m = PadModel::new(19, "symmetric", data(), vec![0, 2, 0, 1], Feed::Initializer);
    m.domain = padkit::onnx::PADKIT_DOMAIN.into();
    assert_eq!(
        run(&candle_model(&m), vec![("x", x())]).unwrap(),
        [
            [2.0, 1.0, 1.0, 2.0, 3.0, 3.0],
            [5.0, 4.0, 4.0, 5.0, 6.0, 6.0]
        ]
    );
    let mut m = PadModel::new(19, "constant", data(), vec![0, 0, 0, 0], Feed::Initializer);
    m.domain = padkit::onnx::PADKIT_DOMAIN.into();
    m.interior = Some(vec![0, 1]);
    assert_eq!(
        run(&candle_model(&m), vec![("x", x())]).unwrap(),
        [[1.0, 0.0, 2.0, 0.0, 3.0], [4.0, 0.0, 5.0, 0.0, 6.0]]
    );
}

/// CenterCropPad (opset 18) of [2, 3] to [4, 1]: axis 0 padded by 1 and 1, axis 1 cropped
/// by 1 and 1.
#[test]
fn center_crop_pad() {
    let mut m = PadModel::new(18, "constant", data(), vec![4, 1], Feed::Initializer).proto();
    let node = &mut m.graph.as_mut().unwrap().node[0];
    node.op_type = "CenterCropPad".into();
    node.attribute.clear();
    let model = candle_onnx::onnx::ModelProto::decode(m.encode_to_vec().as_slice()).unwrap();
    assert_eq!(
        run(&model, vec![("x", x())]).unwrap(),
        [[0.0], [2.0], [5.0], [0.0]]
    );
}

/// A Pad of another op's output without `value_info`: padkit-lower does not know its
/// data's shape, so the model goes to candle-onnx as it is, whose own reflect Pad runs it.
#[test]
fn pads_padkit_lower_cannot_rewrite_go_to_candle_onnx_as_they_are() {
    let mut m = PadModel::new(19, "reflect", data(), vec![0, 1, 0, 1], Feed::Initializer).proto();
    let graph = m.graph.as_mut().unwrap();
    graph.node[0].input[0] = "r".into();
    graph.node.insert(
        0,
        tract_onnx::pb::NodeProto {
            op_type: "Relu".into(),
            input: vec!["x".into()],
            output: vec!["r".into()],
            ..Default::default()
        },
    );
    let model = candle_onnx::onnx::ModelProto::decode(m.encode_to_vec().as_slice()).unwrap();
    assert!(padkit_candle::onnx::lower(&model).is_err());
    assert_eq!(
        run(&model, vec![("x", x())]).unwrap(),
        [[2.0, 1.0, 2.0, 3.0, 2.0], [5.0, 4.0, 5.0, 6.0, 5.0]]
    );
}

/// A model lowered once with run-time pads and axes (index maps computed in the graph:
/// padkit-lower's run-time ops) runs on candle-onnx itself, for any pads fed.
#[test]
fn run_time_index_maps_run_on_candle_onnx() {
    let cpu = Device::Cpu;
    #[rustfmt::skip]
    let cases = [
        // the window [1, 2, 3] (the end cropped by 1), reflected 3 wide
        ("reflect", [3i64, -1], [[2.0f32, 3.0, 2.0, 1.0, 2.0, 3.0], [5.0, 6.0, 5.0, 4.0, 5.0, 6.0]]),
        ("constant", [2, 0], [[0.0, 0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 4.0, 5.0, 6.0, 7.0]]),
        ("wrap", [1, 1], [[4.0, 1.0, 2.0, 3.0, 4.0, 1.0], [7.0, 4.0, 5.0, 6.0, 7.0, 4.0]]),
    ];
    for (mode, pads, want) in cases {
        let values = [1f32, 2.0, 3.0, 4.0, 4.0, 5.0, 6.0, 7.0];
        let data = padkit::Tensor::from_slice(&[2, 4], &values).unwrap();
        let m = PadModel::new(19, mode, data, pads.to_vec(), Feed::Input)
            .with_axes(vec![-1], Feed::Input);
        let model = padkit_candle::onnx::lower(&candle_model(&m)).unwrap();
        let x = Tensor::from_slice(&values, (2, 4), &cpu).unwrap();
        let inputs = HashMap::from([
            ("x".to_string(), x),
            ("pads".to_string(), Tensor::new(&pads, &cpu).unwrap()),
            ("axes".to_string(), Tensor::new(&[-1i64], &cpu).unwrap()),
        ]);
        let y = candle_onnx::simple_eval(&model, inputs)
            .unwrap()
            .remove("y")
            .unwrap();
        assert_eq!(y.to_vec2::<f32>().unwrap(), want, "{mode}");
    }
}
