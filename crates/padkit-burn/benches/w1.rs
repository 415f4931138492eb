//! W1 (f32 [1,64,256,256], pads 2 on H and W) on Flex, one run: padkit-burn's native path,
//! Burn's own `pad`, the composed path, and a memcpy floor; forward, and forward+backward
//! on the autodiff device.

use burn::tensor::ops::PadMode as BurnMode;
use burn::tensor::{Device, Tensor};
use criterion::{Criterion, criterion_group, criterion_main};
use padkit::{PadMode, PadSpec};
use padkit_burn::{Fill, pad_composed, pad_with};

fn w1(c: &mut Criterion) {
    let spec = |m| PadSpec::new(vec![0, 0, 2, 2, 0, 0, 2, 2]).with_mode(m);
    let mut g = c.benchmark_group("W1-burn-flex");
    let out_len = 64 * 260 * 260;
    let (src, mut dst) = (vec![1.0f32; 64 * 256 * 256], vec![0.0f32; out_len]);
    g.bench_function("floor", |b| {
        b.iter(|| {
            dst[..src.len()].copy_from_slice(&src);
            dst[src.len()..].fill(0.0);
        })
    });
    for (mode, burn_mode) in [
        (PadMode::Constant, BurnMode::Constant(0.0)),
        (PadMode::Reflect, BurnMode::Reflect),
        (PadMode::Edge, BurnMode::Edge),
    ] {
        for (dev, tag) in [
            (Device::flex(), "fwd"),
            (Device::flex().autodiff(), "fwd+bwd"),
        ] {
            let x = Tensor::<4>::ones([1, 64, 256, 256], &dev);
            let run = |y: Tensor<4>| {
                if tag == "fwd" {
                    // materialise: read one element back
                    let _ = y.slice([0..1, 0..1, 0..1, 0..1]).into_data();
                } else {
                    let _ = y.sum().backward();
                }
            };
            let s = spec(mode);
            let x1 = if tag == "fwd" {
                x.clone()
            } else {
                x.clone().require_grad()
            };
            g.bench_function(format!("padkit-native-{mode}-{tag}"), |b| {
                b.iter(|| run(pad_with(x1.clone(), &s, 0.0).unwrap()))
            });
            g.bench_function(format!("burn-pad-{mode}-{tag}"), |b| {
                b.iter(|| run(x1.clone().pad([(2, 2), (2, 2)], burn_mode)))
            });
            g.bench_function(format!("padkit-composed-{mode}-{tag}"), |b| {
                b.iter(|| run(pad_composed(x1.clone(), &s, Fill::Zero).unwrap()))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = w1
}
criterion_main!(benches);
