//! A small model — a wrap or reflect `Pad` layer before a Conv2d — trained on
//! `Device::flex().autodiff()`: its loss goes down, and the gradient that reaches the
//! input through the pad equals central finite differences.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Distribution, Tensor, TensorData};
use padkit_burn::{Pad, PadConfig, PaddingMode};

#[derive(Module, Debug)]
struct Model {
    pad: Pad,
    conv: Conv2d,
}

impl Model {
    fn new(mode: PaddingMode, dev: &Device) -> Model {
        let pad = PadConfig::new(vec![0, 0, 1, 1, 0, 0, 1, 1])
            .with_mode(mode)
            .init();
        Model {
            pad,
            conv: Conv2dConfig::new([2, 2], [3, 3]).init(dev),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.conv.forward(self.pad.forward(x))
    }

    fn loss(&self, x: Tensor<4>, target: Tensor<4>) -> Tensor<1> {
        (self.forward(x) - target).powi_scalar(2).mean()
    }
}

fn losses(mode: PaddingMode) -> Vec<f32> {
    let dev = Device::flex().autodiff();
    dev.seed(7);
    let mut model = Model::new(mode, &dev);
    let x = Tensor::<4>::random([4, 2, 6, 6], Distribution::Normal(0.0, 1.0), &dev);
    let target = x.clone().flip([3]); // learn a horizontal mirror, shape-preserving
    let mut optim = AdamConfig::new().init();
    (0..8)
        .map(|_| {
            let loss = model.loss(x.clone(), target.clone());
            let value = loss.clone().into_scalar::<f32>();
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(0.05, model.clone(), grads);
            value
        })
        .collect()
}

#[test]
fn loss_goes_down_with_wrap_and_reflect_pads() {
    for mode in [PaddingMode::Wrap, PaddingMode::Reflect] {
        let l = losses(mode);
        assert!(l[l.len() - 1] < l[0] * 0.9, "{mode:?}: {l:?}");
    }
}

/// d loss / d x through the conv and the pad, against central differences. The loss is
/// quadratic in x (pad and conv are linear), so central differences are exact but for
/// rounding.
#[test]
fn input_gradient_through_the_pad_matches_finite_differences() {
    for mode in [
        PaddingMode::Wrap,
        PaddingMode::Reflect,
        PaddingMode::Symmetric,
    ] {
        let dev = Device::flex().autodiff();
        dev.seed(11);
        let model = Model::new(mode, &dev);
        let x0 = Tensor::<4>::random([1, 2, 5, 5], Distribution::Normal(0.0, 1.0), &dev)
            .into_data()
            .try_to_vec::<f32>()
            .unwrap();
        let target = Tensor::<4>::random([1, 2, 5, 5], Distribution::Normal(0.0, 1.0), &dev);
        let tensor = |v: Vec<f32>| Tensor::<4>::from_data(TensorData::new(v, [1, 2, 5, 5]), &dev);
        let x = tensor(x0.clone()).require_grad();
        let grads = model.loss(x.clone(), target.clone()).backward();
        let grad = x
            .grad(&grads)
            .unwrap()
            .into_data()
            .try_to_vec::<f32>()
            .unwrap();
        let loss_at = |v: Vec<f32>| model.loss(tensor(v), target.clone()).into_scalar::<f32>();
        let eps = 0.05;
        for i in 0..x0.len() {
            let (mut hi, mut lo) = (x0.clone(), x0.clone());
            hi[i] += eps;
            lo[i] -= eps;
            let fd = (loss_at(hi) - loss_at(lo)) / (2.0 * eps);
            assert!(
                (grad[i] - fd).abs() < 1e-5,
                "{mode:?} element {i}: {} vs {fd}",
                grad[i]
            );
        }
    }
}
