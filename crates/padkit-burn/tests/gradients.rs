//! Gradients: the native backward (padkit's adjoint) equals the autodiff gradient of the
//! composed pad and central finite differences, in f64, for every mode, negative pads,
//! interior padding and outputs cropped to nothing.
#![allow(deprecated)] // Device::ndarray

use burn::tensor::{DType, Device, Tensor, TensorData};
use padkit::{PadMode, PadSpec};
use padkit_burn::{Fill, pad_composed, pad_with};

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

/// d/dx sum(w · pad(x)) through `path` on an autodiff device.
fn gradient(dev: &Device, spec: &PadSpec, path: fn(Tensor<3>, &PadSpec) -> Tensor<3>) -> Vec<f64> {
    let x = Tensor::<3>::from_data(TensorData::new(x0(), SHAPE), (dev, DType::F64)).require_grad();
    let y = path(x.clone(), spec);
    let len = y.dims().iter().product();
    let w = Tensor::<3>::from_data(TensorData::new(weights(len), y.dims()), (dev, DType::F64));
    // an empty output too stays in the graph: its gradient is zero
    let grads = (y * w).sum().backward();
    x.grad(&grads).unwrap().into_data().to_vec::<f64>().unwrap()
}

fn native(x: Tensor<3>, s: &PadSpec) -> Tensor<3> {
    pad_with(x, s, 0.0).unwrap()
}

fn composed(x: Tensor<3>, s: &PadSpec) -> Tensor<3> {
    pad_composed(x, s, Fill::Zero).unwrap()
}

/// Central differences of sum(w · pad(x)) on a plain device.
fn finite_differences(dev: &Device, spec: &PadSpec) -> Vec<f64> {
    let loss = |x: &[f64]| {
        let t = Tensor::<3>::from_data(TensorData::new(x.to_vec(), SHAPE), (dev, DType::F64));
        let y = pad_with(t, spec, 0.0)
            .unwrap()
            .into_data()
            .to_vec::<f64>()
            .unwrap();
        y.iter()
            .zip(weights(y.len()))
            .map(|(a, b)| a * b)
            .sum::<f64>()
    };
    let eps = 1e-3;
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
    for (name, dev) in [("flex", Device::flex()), ("ndarray", Device::ndarray())] {
        for spec in specs() {
            let ours = gradient(&dev.clone().autodiff(), &spec, native);
            let theirs = gradient(&dev.clone().autodiff(), &spec, composed);
            let fd = finite_differences(&dev, &spec);
            assert_eq!(ours, theirs, "{name} {spec:?}");
            for (a, b) in ours.iter().zip(&fd) {
                assert!((a - b).abs() < 1e-7, "{name} {spec:?}: {ours:?} vs {fd:?}");
            }
        }
    }
}
