//! A small Burn model — a wrap `Pad` layer, then a 3×3 Conv2d — trained for a few steps
//! on `Device::flex().autodiff()`; prints the loss.
//!
//! Run with `cargo run -p padkit-burn --example burn_pad_module`.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Distribution, Tensor};
use padkit_burn::{Pad, PadConfig, PaddingMode};

#[derive(Module, Debug)]
struct Model {
    pad: Pad,
    conv: Conv2d,
}

impl Model {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.conv.forward(self.pad.forward(x))
    }
}

fn main() {
    let dev = Device::flex().autodiff();
    dev.seed(1);
    // periodic (wrap) padding of H and W by 1: a 3×3 conv then sees a torus
    let pad = PadConfig::new(vec![1, 1, 1, 1])
        .with_axes(Some(vec![-2, -1]))
        .with_mode(PaddingMode::Wrap)
        .init();
    let mut model = Model {
        pad,
        conv: Conv2dConfig::new([1, 1], [3, 3]).init(&dev),
    };
    let x = Tensor::<4>::random([8, 1, 16, 16], Distribution::Normal(0.0, 1.0), &dev);
    // target: a periodic blur, which only a wrap-padded conv can represent at the borders
    let target = (x.clone() + x.clone().roll_dim(1, 3) + x.clone().roll_dim(-1, 3)) / 3.0;
    let mut optim = AdamConfig::new().init();
    for step in 0..20 {
        let loss = (model.forward(x.clone()) - target.clone())
            .powi_scalar(2)
            .mean();
        println!(
            "step {step:2}: loss {:.5}",
            loss.clone().into_scalar::<f32>()
        );
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(0.05, model.clone(), grads);
    }
}
