//! `padkit_candle::onnx::simple_eval` on Pads candle-onnx 0.11.1 cannot run alone, against
//! the outputs worked out by hand: the opset-1 attribute form, pads, value and axes all fed
//! at run time, padkit's own symmetric Pad with interior padding, and CenterCropPad. (The
//! CLI's `candle` engine runs the whole exported suite and the real models, silero-vad's
//! Pads inside `If` branches among them.)

use std::collections::HashMap;

use candle_core::{Device, Tensor};
use padkit_onnx_tools::model::{Feed, PadModel};
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
    graph.node.push(padkit_onnx::pb::NodeProto {
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
        padkit_onnx::pb::NodeProto {
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

/// A model built in code as candle-onnx's own `test_pad` builds it: IR version 0, no
/// opset import, graph inputs without types, f64 data and pads fed at run time. candle-onnx
/// reads its Pad in the inputs form; so does padkit, and the swap answers as candle-onnx
/// does (here: its one Pad test), and pads the modes candle-onnx refuses.
#[test]
fn models_that_name_no_version_are_read_as_candle_onnx_reads_them() {
    use candle_onnx::onnx::{AttributeProto, GraphProto, ModelProto, NodeProto, ValueInfoProto};
    let untyped = |name: &str| ValueInfoProto {
        name: name.into(),
        ..Default::default()
    };
    let model = |mode: &str| ModelProto {
        graph: Some(GraphProto {
            input: vec![untyped("data"), untyped("pads")],
            output: vec![untyped("output")],
            node: vec![NodeProto {
                op_type: "Pad".into(),
                input: vec!["data".into(), "pads".into()],
                output: vec!["output".into()],
                attribute: vec![AttributeProto {
                    name: "mode".into(),
                    r#type: 3, // STRING
                    s: mode.as_bytes().to_vec(),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        }),
        ..Default::default()
    };
    let cpu = Device::Cpu;
    let inputs = || {
        let data = Tensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3), &cpu).unwrap();
        HashMap::from([
            ("data".to_string(), data),
            (
                "pads".to_string(),
                Tensor::new(&[0i64, 1, 0, 0], &cpu).unwrap(),
            ),
        ])
    };
    let eval = |mode: &str| {
        let out = padkit_candle::onnx::simple_eval(&model(mode), inputs()).unwrap();
        out["output"].to_vec2::<f64>().unwrap()
    };
    let stock = candle_onnx::simple_eval(&model("reflect"), inputs()).unwrap();
    let want = [[2.0, 1.0, 2.0, 3.0], [5.0, 4.0, 5.0, 6.0]];
    assert_eq!(stock["output"].to_vec2::<f64>().unwrap(), want);
    assert_eq!(eval("reflect"), want);
    assert_eq!(eval("edge"), [[1.0, 1.0, 2.0, 3.0], [4.0, 4.0, 5.0, 6.0]]);
    // what the lowering hands candle-onnx says no more of its versions than the model did
    let edge = model("edge");
    let lowered =
        padkit_candle::onnx::lower_for(&edge, &inputs(), &padkit_candle::onnx::Options::default())
            .unwrap();
    assert!(matches!(lowered, std::borrow::Cow::Owned(_)));
    assert_eq!((lowered.ir_version, lowered.opset_import.len()), (0, 0));
}

/// A Pad whose output the machine cannot hold (2^40 rows of 3 floats, pads fed at run
/// time) is padkit's `TooLarge` error before candle allocates, under the default limit
/// and under one set in `Options`.
#[test]
fn outputs_too_large_are_errors_before_candle_allocates() {
    let m = PadModel::new(19, "constant", data(), vec![1 << 40, 0, 0, 0], Feed::Input);
    let model = candle_model(&m);
    let inputs = || {
        HashMap::from([
            ("x".to_string(), x()),
            (
                "pads".to_string(),
                Tensor::new(&[1i64 << 40, 0, 0, 0], &Device::Cpu).unwrap(),
            ),
        ])
    };
    let err = padkit_candle::onnx::simple_eval(&model, inputs())
        .unwrap_err()
        .to_string();
    let huge = format!("output of shape [{}, 3]", (1u64 << 40) + 2);
    assert!(
        err.contains(&huge) && err.contains("above the limit"),
        "{err}"
    );
    let small = padkit_candle::onnx::Options::default().with_max_output_bytes(16);
    let feeds = HashMap::from([("x".to_string(), x())]);
    let m = PadModel::new(19, "constant", data(), vec![1, 0, 0, 0], Feed::Initializer);
    let err = padkit_candle::onnx::simple_eval_with(&candle_model(&m), feeds, &small)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("output of shape [3, 3]") && err.contains("above the limit"),
        "{err}"
    );
}

/// Crops to an empty axis with the pads fed at run time (x [1, 4] padded by 3 rows and
/// cropped by 4 columns), in every mode, and with the constant value fed too: the output
/// keeps its empty axis, or is refused, as padkit's core answers. (candle-onnx 0.11.1
/// expands a 1 to a 0 as 1: an empty fill block of a fed value came back [4, 1].)
#[test]
fn crops_to_empty_answer_as_the_core() {
    let cpu = Device::Cpu;
    let cases = [
        ("constant", false),
        ("constant", true),
        ("reflect", false),
        ("edge", false),
        ("wrap", false),
    ];
    for (mode, fed_value) in cases {
        let data = padkit::Tensor::from_slice(&[1, 4], &[1f32, 2.0, 3.0, 4.0]).unwrap();
        let spec = padkit::PadSpec::new(vec![3, 0, 0, -4]).with_mode(mode.parse().unwrap());
        let want = padkit::pad_tensor(&data, &spec, None).map(|y| y.shape().to_vec());
        let mut m = PadModel::new(19, mode, data, vec![3, 0, 0, -4], Feed::Input);
        let x = Tensor::new(&[[1f32, 2.0, 3.0, 4.0]], &cpu).unwrap();
        let mut inputs = HashMap::from([
            ("x".to_string(), x),
            (
                "pads".to_string(),
                Tensor::new(&[3i64, 0, 0, -4], &cpu).unwrap(),
            ),
        ]);
        if fed_value {
            let value = padkit::Tensor::from_slice(&[], &[0f32]).unwrap();
            m = m.with_value(value, Feed::Input);
            inputs.insert("value".into(), Tensor::new(0f32, &cpu).unwrap());
        }
        let got = padkit_candle::onnx::simple_eval(&candle_model(&m), inputs);
        match (want, got) {
            (Ok(want), Ok(got)) => assert_eq!(got["y"].dims(), want, "{mode} {fed_value}"),
            (Err(_), Err(_)) => {}
            (want, got) => panic!("{mode} {fed_value}: the core gives {want:?}, candle {got:?}"),
        }
    }
}
