//! NNEF round trips: a model holding padkit's Pad is written with tract-nnef and read back
//! with padkit's registry, then runs to the same output: every mode, negative pads,
//! symbolic shapes, runtime pads and axes, fill values of several types.

use padkit::{PadMode, Tensor};
use padkit_cli::model::{Feed, PadModel};
use padkit_cli::tract_engine::{from_tract, to_tract};
use padkit_tract::nnef::WithPadkit;
use padkit_tract::{Operand, PadkitPad};
use tract_onnx::prelude::*;

/// Writes `model` to an NNEF archive and reads it back with padkit's extension.
fn round_trip(model: &TypedModel) -> TypedModel {
    let nnef = tract_nnef::nnef().with_padkit();
    let buffer = nnef.write_to_tar(model, vec![]).unwrap();
    nnef.model_for_read(&mut &buffer[..]).unwrap()
}

fn run(model: TypedModel, inputs: &[padkit::Tensor]) -> Vec<padkit::Tensor> {
    let inputs = inputs
        .iter()
        .map(|t| to_tract(t).unwrap().into_tvalue())
        .collect();
    let out = model.into_runnable().unwrap().run(inputs).unwrap();
    out.iter().map(|t| from_tract(t).unwrap()).collect()
}

fn check(m: &PadModel) {
    let model = padkit_tract::onnx()
        .model_for_proto_model(&m.proto())
        .unwrap()
        .into_optimized()
        .unwrap();
    assert!(
        model.nodes().iter().any(|n| n.op_is::<PadkitPad>()),
        "{model}"
    );
    let back = round_trip(&model);
    assert!(
        back.nodes().iter().any(|n| n.op_is::<PadkitPad>()),
        "{back}"
    );
    let (before, after) = (model.output_fact(0).unwrap(), back.output_fact(0).unwrap());
    if m.pads.1 == Feed::Input {
        // runtime pads: the output's dims are symbols minted anew when the model loads
        assert_eq!(before.rank(), after.rank());
    } else {
        assert_eq!(format!("{:?}", before.shape), format!("{:?}", after.shape));
    }
    let inputs = m.inputs();
    assert_eq!(run(model, &inputs), run(back, &inputs));
}

fn x() -> Tensor {
    Tensor::from_slice(
        &[2, 3, 4],
        &(0..24).map(|i| i as f32 * 0.5).collect::<Vec<_>>(),
    )
    .unwrap()
}

#[test]
fn every_mode_with_negative_pads_round_trips() {
    for mode in ["constant", "reflect", "edge", "wrap"] {
        let m = PadModel::new(19, mode, x(), vec![1, -1, 2, 0, 3, -2], Feed::Initializer);
        check(&m);
    }
    let m = PadModel::new(
        19,
        "constant",
        x(),
        vec![1, 0, 0, 0, 0, 2],
        Feed::Initializer,
    )
    .with_value(Tensor::scalar(-7.25f32), Feed::Initializer);
    check(&m);
    let ints = Tensor::from_slice(&[2, 3], &[1i64, 2, 3, 4, 5, 6]).unwrap();
    let m = PadModel::new(13, "constant", ints, vec![0, 1, 0, 1], Feed::Initializer)
        .with_value(Tensor::scalar(16_777_217i64), Feed::Initializer);
    check(&m);
}

#[test]
fn symbolic_shapes_round_trip() {
    let mut m = PadModel::new(19, "wrap", x(), vec![0, 1, 2, 0, 1, 2], Feed::Initializer);
    m.symbolic_dims = vec![Some("N".into()), None, Some("W".into())];
    check(&m);
}

#[test]
fn runtime_pads_and_axes_round_trip() {
    let m =
        PadModel::new(19, "reflect", x(), vec![1, 2], Feed::Input).with_axes(vec![-1], Feed::Input);
    check(&m);
    let m = PadModel::new(19, "edge", x(), vec![1, 2], Feed::Input)
        .with_axes(vec![0], Feed::Initializer);
    check(&m);
}

/// Symmetric mode (nGraph's, not ONNX's): built directly as a typed op.
#[test]
fn symmetric_round_trips() {
    let mut model = TypedModel::default();
    let input = model.add_source("x", f32::fact([5])).unwrap();
    let pads = Operand::Known(vec![3.to_dim(), 7.to_dim()]);
    let op = PadkitPad::new(
        "p",
        PadMode::Symmetric,
        pads,
        Operand::Known(None),
        Operand::Known(None),
        &model,
        input,
    )
    .unwrap();
    let y = model.wire_node("p", op, &[input]).unwrap();
    model.select_output_outlets(&y).unwrap();
    let back = round_trip(&model);
    let x = Tensor::from_slice(&[5], &[1.0f32, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let got = run(back, std::slice::from_ref(&x));
    let want = padkit_testkit::Case::new(vec![5], vec![3, 7], PadMode::Symmetric)
        .reference(&x.to_vec::<f32>().unwrap(), 0.0, usize::MAX)
        .unwrap()
        .1;
    assert_eq!(got[0].to_vec::<f32>().unwrap(), want);
}
