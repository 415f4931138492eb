//! Malformed Pad nodes give errors naming the node, the input and the numbers.

use padkit::Tensor;
use padkit_onnx_tools::model::{Feed, PadModel};
use tract_onnx::prelude::*;

fn error(m: PadModel) -> String {
    let res = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto()).unwrap())
        .and_then(|m| m.into_optimized())
        .and_then(|m| m.into_runnable())
        .and_then(|p| {
            let inputs = m
                .inputs()
                .iter()
                .map(|t| Ok(padkit_tract::to_tract(t)?.into_tvalue()))
                .collect::<TractResult<TVec<_>>>()?;
            p.run(inputs)
        });
    format!("{:#}", res.unwrap_err())
}

fn x() -> Tensor {
    Tensor::from_slice(&[2, 3], &[1.0f32; 6]).unwrap()
}

#[test]
fn wrong_pads_length() {
    let e = error(PadModel::new(
        13,
        "constant",
        x(),
        vec![1, 1, 1],
        Feed::Initializer,
    ));
    assert!(
        e.contains("Pad node \"the_pad\": pads has 3 values but 2 axes are padded"),
        "{e}"
    );
}

#[test]
fn bad_axes() {
    let e = error(
        PadModel::new(18, "constant", x(), vec![1, 1], Feed::Initializer)
            .with_axes(vec![2], Feed::Initializer),
    );
    assert!(
        e.contains("Pad node \"the_pad\": axes: axis 2 is out of range for a tensor of rank 2"),
        "{e}"
    );
}

#[test]
fn negative_output_size() {
    let e = error(PadModel::new(
        13,
        "constant",
        x(),
        vec![0, -2, 0, -2],
        Feed::Initializer,
    ));
    assert!(
        e.contains(
            "Pad node \"the_pad\": axis 1: output extent would be -1 (extent 3, begin -2, end -2"
        ),
        "{e}"
    );
}

#[test]
fn runtime_negative_output_size() {
    let e = error(PadModel::new(
        13,
        "constant",
        x(),
        vec![0, -2, 0, -2],
        Feed::Input,
    ));
    assert!(
        e.contains("Pad node \"the_pad\": axis 1: output extent would be -1"),
        "{e}"
    );
}

#[test]
fn unknown_mode() {
    let e = error(PadModel::new(
        13,
        "circular",
        x(),
        vec![1, 1, 1, 1],
        Feed::Initializer,
    ));
    assert!(
        e.contains("Pad node \"the_pad\": attribute 'mode' is \"circular\""),
        "{e}"
    );
}

#[test]
fn wrap_before_opset_19() {
    let e = error(PadModel::new(
        18,
        "wrap",
        x(),
        vec![1, 1, 1, 1],
        Feed::Initializer,
    ));
    assert!(
        e.contains("mode \"wrap\" needs opset 19 or later, the model uses opset 18"),
        "{e}"
    );
}

#[test]
fn overflowing_pads() {
    let e = error(PadModel::new(
        13,
        "constant",
        x(),
        vec![0, i64::MAX, 0, i64::MAX],
        Feed::Initializer,
    ));
    assert!(
        e.contains("Pad node \"the_pad\": axis 1: output extent overflows"),
        "{e}"
    );
}

#[test]
fn reflect_crop_past_the_axis() {
    let e = error(PadModel::new(
        13,
        "reflect",
        x(),
        vec![0, -4, 0, 1],
        Feed::Initializer,
    ));
    assert!(
        e.contains("axis 1: mode reflect crops 4 of 3 elements"),
        "{e}"
    );
}

/// Runtime pads asking for 10^12 bytes: tract's own allocation would panic, so the op
/// tries the allocation first and returns an error naming the size.
#[test]
fn outputs_that_cannot_be_allocated_are_errors() {
    let x = Tensor::from_slice(&[1], &[1.0f32]).unwrap();
    let e = error(PadModel::new(
        13,
        "edge",
        x,
        vec![0, 250_000_000_000],
        Feed::Input,
    ));
    assert!(
        e.contains("Pad node \"the_pad\": could not allocate 1000000000004 bytes for the output"),
        "{e}"
    );
}

/// Pads must be a 1-D int64 tensor, as ONNX defines them.
#[test]
fn pads_of_the_wrong_type_or_rank() {
    for (pads, want) in [
        (
            Tensor::from_slice(&[4], &[1.0f32; 4]).unwrap(),
            "input 'pads' has type float; Pad takes int64",
        ),
        (
            Tensor::from_slice(&[2, 2], &[1i64; 4]).unwrap(),
            "input 'pads' must be 1-D, it has rank 2",
        ),
    ] {
        let mut proto =
            PadModel::new(13, "constant", x(), vec![1, 1, 1, 1], Feed::Initializer).proto();
        proto.graph.as_mut().unwrap().initializer[0] =
            padkit_onnx::proto::tensor_to_proto(&pads, "pads");
        let e = padkit_tract::onnx()
            .model_for_proto_model(&padkit_tract::tract_proto(&proto).unwrap())
            .and_then(|m| m.into_optimized())
            .unwrap_err();
        assert!(format!("{e:#}").contains(want), "{e:#}");
    }
}

/// padkit's own Pad (`ai.padkit`): symmetric loads; interior padding, which the tract op
/// does not run, is refused at load with a message saying so; and symmetric is not an
/// ONNX mode.
#[test]
fn padkit_domain_interior_is_refused_and_symmetric_needs_the_domain() {
    let mut m = PadModel::new(25, "constant", x(), vec![1, 0, 0, 1], Feed::Initializer);
    m.domain = padkit::onnx::PADKIT_DOMAIN.into();
    m.interior = Some(vec![1, 0]);
    let e = error(m);
    assert!(
        e.contains("Pad node \"the_pad\" (ai.padkit): padkit-tract does not run interior padding"),
        "{e}"
    );
    let e = error(PadModel::new(
        25,
        "symmetric",
        x(),
        vec![1, 0, 0, 1],
        Feed::Initializer,
    ));
    assert!(e.contains("attribute 'mode' is \"symmetric\""), "{e}");
    let mut m = PadModel::new(25, "symmetric", x(), vec![1, 0, 0, 1], Feed::Initializer);
    m.domain = padkit::onnx::PADKIT_DOMAIN.into();
    let model = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto()).unwrap())
        .unwrap();
    let out = model
        .into_runnable()
        .unwrap()
        .run(tvec![padkit_tract::to_tract(&x()).unwrap().into_tvalue()])
        .unwrap();
    assert_eq!(out[0].shape(), &[3, 4]);
}
