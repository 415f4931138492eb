//! A small model — a wrap or reflect `Pad` layer before a Conv2d — takes optimiser steps on
//! `Device::flex().autodiff()`, and its loss goes down.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{Device, Distribution, Tensor};
use padkit_burn::{Pad, PadConfig};

#[derive(Module, Debug)]
struct Model {
    pad: Pad,
    conv: Conv2d,
}

impl Model {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.conv.forward(self.pad.forward(x).expect("a valid pad"))
    }
}

fn losses(mode: &str) -> Vec<f32> {
    let dev = Device::flex().autodiff();
    dev.seed(7);
    let pad = PadConfig::new(vec![0, 0, 1, 1, 0, 0, 1, 1])
        .with_mode(mode.into())
        .init()
        .unwrap();
    let mut model = Model {
        pad,
        conv: Conv2dConfig::new([2, 2], [3, 3]).init(&dev),
    };
    let x = Tensor::<4>::random([4, 2, 6, 6], Distribution::Normal(0.0, 1.0), &dev);
    let target = x.clone().flip([3]); // learn a horizontal mirror, shape-preserving
    let mut optim = AdamConfig::new().init();
    (0..8)
        .map(|_| {
            let loss = (model.forward(x.clone()) - target.clone())
                .powi_scalar(2)
                .mean();
            let value = loss.clone().into_scalar::<f32>();
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(0.05, model.clone(), grads);
            value
        })
        .collect()
}

#[test]
fn loss_goes_down_with_wrap_and_reflect_pads() {
    for mode in ["wrap", "reflect"] {
        let l = losses(mode);
        eprintln!("{mode}: {l:?}");
        assert!(l[l.len() - 1] < l[0] * 0.9, "{mode}: {l:?}");
    }
}
