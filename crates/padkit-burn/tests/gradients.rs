//! Gradients: the native backward (padkit's adjoint) equals the autodiff gradient of the
//! composed pad and central finite differences, in f64, for every mode, negative pads,
//! interior padding and outputs cropped to nothing, on every test device (in f32 on wgpu:
//! every value below is exact there too).
mod support;

use burn::tensor::{DType, Device, Tensor, TensorData};
use padkit::PadSpec;
use padkit_burn::route::pad_composed;
use padkit_burn::{Fill, pad_with};
use padkit_testkit::cases::{
    GRADIENT_SHAPE, central_differences, gradient_input, gradient_specs, gradient_weights,
};
use proptest::prelude::*;

/// d/dx sum(w · pad(x)) through `path` on an autodiff device, in `dtype`.
fn gradient(
    dev: &Device,
    dtype: DType,
    spec: &PadSpec,
    path: fn(Tensor<3>, &PadSpec) -> Tensor<3>,
) -> Vec<f64> {
    let x = Tensor::<3>::from_data(
        TensorData::new(gradient_input(), GRADIENT_SHAPE),
        (dev, dtype),
    )
    .require_grad();
    let y = path(x.clone(), spec);
    let len = y.dims().iter().product();
    let w = Tensor::<3>::from_data(
        TensorData::new(gradient_weights(len), y.dims()),
        (dev, dtype),
    );
    // an empty output too stays in the graph: its gradient is zero
    let grads = (y * w).sum().backward();
    let grad = x.grad(&grads).unwrap().into_data();
    grad.try_into_vec_as::<f64>().unwrap()
}

fn native(x: Tensor<3>, s: &PadSpec) -> Tensor<3> {
    pad_with(x, s, 0.0).unwrap()
}

fn composed(x: Tensor<3>, s: &PadSpec) -> Tensor<3> {
    pad_composed(x, s, Fill::Zero).unwrap()
}

/// Central differences of sum(w · pad(x)) on a plain device, in `dtype`.
fn finite_differences(dev: &Device, dtype: DType, spec: &PadSpec) -> Vec<f64> {
    central_differences(|x| {
        let t = Tensor::<3>::from_data(TensorData::new(x.to_vec(), GRADIENT_SHAPE), (dev, dtype));
        let y = pad_with(t, spec, 0.0).unwrap().into_data();
        y.try_into_vec_as::<f64>().unwrap()
    })
}

#[test]
fn native_backward_matches_composition_and_finite_differences() {
    for d in support::devices() {
        let (name, dev, dtype) = (d.name, d.device, d.float);
        for spec in gradient_specs() {
            let ours = gradient(&dev.clone().autodiff(), dtype, &spec, native);
            let theirs = gradient(&dev.clone().autodiff(), dtype, &spec, composed);
            let fd = finite_differences(&dev, dtype, &spec);
            assert_eq!(ours, theirs, "{name} {spec:?}");
            for (a, b) in ours.iter().zip(&fd) {
                assert!((a - b).abs() < 1e-7, "{name} {spec:?}: {ours:?} vs {fd:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random specs: the gradient of sum(w · pad(x)) on both paths, under autodiff on every
    /// device, is the reference adjoint of w (the reference pad's transpose).
    #[test]
    fn random_gradients_match_the_reference_adjoint(c in support::case()) {
        let reference = c.reference();
        // specs the core refuses are the forward suite's business
        let Ok((out_shape, _)) = reference.sources(usize::MAX) else {
            return Ok(());
        };
        let w: Vec<i64> = (0..out_shape.iter().product::<usize>()).map(|i| (i as i64 * 7919) % 13 - 6).collect();
        let want: Vec<f64> = reference.reference_adjoint(&w).unwrap().into_iter().map(|g| g as f64).collect();
        let w: Vec<f64> = w.into_iter().map(|v| v as f64).collect();
        for d in support::devices() {
            for (path, f) in [("native", native as fn(Tensor<3>, &PadSpec) -> Tensor<3>), ("composed", composed)] {
                let dev = d.device.clone().autodiff();
                let n = c.shape.iter().product::<usize>();
                let x = Tensor::<3>::from_data(TensorData::new(vec![0.5; n], c.shape), (&dev, d.float)).require_grad();
                let y = f(x.clone(), &c.spec);
                prop_assert_eq!(y.dims().to_vec(), out_shape.clone());
                let w = Tensor::<3>::from_data(TensorData::new(w.clone(), y.dims()), (&dev, d.float));
                let grads = (y * w).sum().backward();
                let got = x.grad(&grads).unwrap().into_data().try_into_vec_as::<f64>().unwrap();
                prop_assert_eq!(&got, &want, "{} {} {:?}", d.name, path, c.spec);
            }
        }
    }
}
