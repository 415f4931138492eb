//! Gradients: the native backward (padkit's adjoint) equals the autodiff gradient of the
//! composed pad and central finite differences, in f64, for every mode, negative pads,
//! interior padding and outputs cropped to nothing, on every test device (in f32 on wgpu:
//! every value below is exact there too).
mod support;

use burn::tensor::{DType, Device, Tensor, TensorData};
use padkit::{PadMode, PadSpec};
use padkit_burn::route::pad_composed;
use padkit_burn::{Fill, pad_with};
use proptest::prelude::*;

const SHAPE: [usize; 3] = [4, 2, 2];

fn specs() -> Vec<PadSpec> {
    let mut v: Vec<PadSpec> = PadMode::ALL
        .into_iter()
        .flat_map(|m| {
            [
                // crop one side, wider than the axis
                PadSpec::new(vec![2, -1, 3, 5])
                    .with_axes(vec![0, 2])
                    .with_mode(m),
                PadSpec::new(vec![1, 2]).with_axes(vec![-1]).with_mode(m),
                // an axis cropped to nothing: an empty output, zero gradients
                PadSpec::new(vec![-1, -1, 4, 3, -1, 3]).with_mode(m),
            ]
        })
        .collect();
    v.push(
        PadSpec::new(vec![1, -2, 0, 1])
            .with_axes(vec![0, 1])
            .with_interior(vec![2, 1]),
    );
    v
}

fn weights(len: usize) -> Vec<f64> {
    (0..len).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect()
}

fn x0() -> Vec<f64> {
    (0..16).map(|i| i as f64 * 0.5).collect()
}

/// d/dx sum(w · pad(x)) through `path` on an autodiff device, in `dtype`.
fn gradient(
    dev: &Device,
    dtype: DType,
    spec: &PadSpec,
    path: fn(Tensor<3>, &PadSpec) -> Tensor<3>,
) -> Vec<f64> {
    let x = Tensor::<3>::from_data(TensorData::new(x0(), SHAPE), (dev, dtype)).require_grad();
    let y = path(x.clone(), spec);
    let len = y.dims().iter().product();
    let w = Tensor::<3>::from_data(TensorData::new(weights(len), y.dims()), (dev, dtype));
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
    let loss = |x: &[f64]| {
        let t = Tensor::<3>::from_data(TensorData::new(x.to_vec(), SHAPE), (dev, dtype));
        let y = pad_with(t, spec, 0.0).unwrap().into_data();
        let y = y.try_into_vec_as::<f64>().unwrap();
        y.iter()
            .zip(weights(y.len()))
            .map(|(a, b)| a * b)
            .sum::<f64>()
    };
    // The loss is linear in x, so any step gives the exact slope; 0.5 keeps every value
    // (multiples of 0.5 times small integer weights) exact in f32 as well as f64.
    let eps = 0.5;
    let x = x0();
    (0..x.len())
        .map(|i| {
            let (mut hi, mut lo) = (x.clone(), x.clone());
            hi[i] += eps;
            lo[i] -= eps;
            (loss(&hi) - loss(&lo)) / (2.0 * eps)
        })
        .collect()
}

#[test]
fn native_backward_matches_composition_and_finite_differences() {
    for d in support::devices() {
        let (name, dev, dtype) = (d.name, d.device, d.float);
        for spec in specs() {
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
