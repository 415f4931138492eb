//! Every Pad version × mode × representative types through tract, against the core's
//! naive reference (shared with padkit's own tests, not copied).

use padkit::Tensor;
use padkit_onnx_tools::model::{Feed, PadModel};
use padkit_testkit::Case;
use padkit_tract::{from_tract, to_tract};
use tract_onnx::prelude::*;

fn run(m: &PadModel) -> TractResult<padkit::Tensor> {
    let model = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto()).unwrap())?;
    let plan = model.into_optimized()?.into_runnable()?;
    let inputs = m
        .inputs()
        .iter()
        .map(|t| Ok(to_tract(t)?.into_tvalue()))
        .collect::<TractResult<TVec<_>>>()?;
    from_tract(&plan.run(inputs)?[0])
}

fn check<T: Clone + std::fmt::Debug + PartialEq + padkit::Element>(data: Vec<T>, value: T) {
    let shape = [2usize, 3, 4];
    let x = Tensor::from_slice(&shape, &data).unwrap();
    for opset in padkit::onnx::PAD_VERSIONS {
        for mode in padkit::onnx::modes_for(opset) {
            // negative pads (crop) and pads wider than the axis in one spec
            let pads = vec![0, -1, 5, 1, 2, -1];
            let feed = if opset < 11 {
                Feed::Attribute
            } else {
                Feed::Initializer
            };
            let mut m = PadModel::new(opset, mode.name(), x.clone(), pads.clone(), feed);
            if opset >= 11 {
                m = m.with_value(Tensor::scalar(value), Feed::Initializer);
            }
            // below opset 11 the model has no value attribute: the fill is zero
            let fill = if opset < 11 {
                Tensor::zero(T::DTYPE).to_vec::<T>().unwrap()[0]
            } else {
                value
            };
            if padkit::onnx::check_type(T::DTYPE, opset).is_err() {
                // Pad-1 and Pad-2 take floats only: the model is refused, naming the type
                let err = format!("{:#}", run(&m).unwrap_err());
                assert!(
                    err.contains("does not take element type"),
                    "opset {opset}: {err}"
                );
                continue;
            }
            let case = Case::new(shape.to_vec(), pads.clone(), mode);
            let (ws, wd) = case.reference(&data, fill, usize::MAX).unwrap();
            let got = run(&m).unwrap_or_else(|e| panic!("opset {opset} {mode}: {e:#}"));
            assert_eq!(got.shape(), &ws[..], "opset {opset} {mode}");
            assert_eq!(got.to_vec::<T>().unwrap(), wd, "opset {opset} {mode}");
        }
    }
}

#[test]
fn f32_every_opset_and_mode() {
    check((0..24).map(|i| i as f32 * 0.5).collect(), 7.5f32);
}

#[test]
fn i64_every_opset_and_mode() {
    check((0..24).map(|i| i as i64 - 9).collect(), 16_777_217i64);
}

#[test]
fn u8_every_opset_and_mode() {
    check((0..24).map(|i| i as u8).collect(), 200u8);
}

#[test]
fn f16_every_opset_and_mode() {
    check(
        (0..24)
            .map(|i| padkit::half::f16::from_f32(i as f32))
            .collect(),
        padkit::half::f16::from_f32(-2.0),
    );
}

#[test]
fn bool_and_string_run() {
    let x = Tensor::new(
        padkit::DType::Bool,
        vec![3],
        padkit::Data::Bytes(vec![1, 0, 1]),
    )
    .unwrap();
    let m = PadModel::new(13, "wrap", x.clone(), vec![1, 2], Feed::Initializer);
    assert!(format!("{:#}", run(&m).unwrap_err()).contains("needs opset 19"));
    let m = PadModel { opset: 19, ..m };
    assert_eq!(
        run(&m).unwrap().data(),
        &padkit::Data::Bytes(vec![1, 1, 0, 1, 1, 0])
    );
    let s = Tensor::from_strings(&[2], vec!["a".into(), "b".into()]).unwrap();
    let m = PadModel::new(13, "constant", s, vec![1, 0], Feed::Initializer).with_value(
        Tensor::from_strings(&[], vec!["z".into()]).unwrap(),
        Feed::Initializer,
    );
    let want: Vec<String> = vec!["z".into(), "a".into(), "b".into()];
    assert_eq!(run(&m).unwrap().data(), &padkit::Data::Strings(want));
}

#[test]
fn axes_negative_runtime_and_constant_nodes() {
    let x = Tensor::from_slice(&[2, 4], &(0..8).collect::<Vec<i32>>()).unwrap();
    for feed in [Feed::Initializer, Feed::ConstantNode, Feed::Input] {
        let m = PadModel::new(25, "wrap", x.clone(), vec![1, 2], feed).with_axes(vec![-1], feed);
        let got = run(&m).unwrap_or_else(|e| panic!("{feed:?}: {e:#}"));
        let case = Case {
            axes: Some(vec![-1]),
            ..Case::new(vec![2, 4], vec![1, 2], padkit::PadMode::Wrap)
        };
        let want = case
            .reference(&x.to_vec::<i32>().unwrap(), 0, usize::MAX)
            .unwrap();
        assert_eq!(got.shape(), &want.0[..]);
        assert_eq!(got.to_vec::<i32>().unwrap(), want.1, "{feed:?}");
    }
}

#[test]
fn reflect_ignores_constant_value() {
    let x = Tensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    let m = PadModel::new(13, "reflect", x, vec![2, 2], Feed::Initializer)
        .with_value(Tensor::scalar(7.0f32), Feed::Initializer);
    assert_eq!(
        run(&m).unwrap().to_vec::<f32>().unwrap(),
        vec![3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]
    );
}

#[test]
fn types_tract_cannot_hold_are_named() {
    let x = Tensor::from_slice(&[2], &[padkit::half::bf16::from_f32(1.0); 2]).unwrap();
    let err = to_tract(&x).unwrap_err();
    assert_eq!(err.to_string(), "tract cannot hold element type bfloat16");
    let m = PadModel::new(13, "constant", x, vec![1, 1], Feed::Initializer);
    let err = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto()).unwrap())
        .unwrap_err();
    assert!(format!("{err:#}").contains("Bfloat16"), "{err:#}");
}
