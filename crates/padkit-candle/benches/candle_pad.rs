//! A large f32 image pad (W1: [1,64,256,256], pads 2 on H and W) on candle's CPU device,
//! one run: padkit-candle's `padkit_pad`, padkit's own `pad_into` on a host buffer, a copy
//! of the output's size into a reused buffer (the floor), candle's `Tensor::copy` of an
//! output-sized tensor (a copy that allocates its output, as every candle op and
//! `padkit_pad` do), and candle's own composition (`pad_with_zeros`, `pad_with_same`) on
//! the modes it has.
//!
//! candle's CPU ops and padkit's kernel both use rayon; run with `RAYON_NUM_THREADS=1`
//! for one-thread figures.

#![allow(missing_docs)] // criterion_group! defines an undocumented public function

use candle_core::{Device, Tensor};
use criterion::{Criterion, criterion_group, criterion_main};
use padkit::{PadMode, PadSpec};
use padkit_candle::{PadExt, PaddingMode};

const SHAPE: [usize; 4] = [1, 64, 256, 256];

fn w1(c: &mut Criterion) {
    let mut g = c.benchmark_group("W1-candle-cpu");
    let in_len: usize = SHAPE.iter().product();
    let out_len = 64 * 260 * 260;
    let src = vec![1.0f32; in_len];
    let mut dst = vec![0.0f32; out_len];
    g.bench_function("floor", |b| {
        b.iter(|| {
            dst[..src.len()].copy_from_slice(&src);
            dst[src.len()..].fill(0.0);
        })
    });
    let x = Tensor::ones(&SHAPE, candle_core::DType::F32, &Device::Cpu).unwrap();
    let output_sized =
        Tensor::ones((1, 64, 260, 260), candle_core::DType::F32, &Device::Cpu).unwrap();
    g.bench_function("candle/copy (output-sized, allocating)", |b| {
        b.iter(|| output_sized.copy().unwrap())
    });
    let modes = [
        (PadMode::Constant, PaddingMode::default()),
        (PadMode::Reflect, PaddingMode::Reflect),
        (PadMode::Edge, PaddingMode::Edge),
        (PadMode::Wrap, PaddingMode::Wrap),
        (PadMode::Symmetric, PaddingMode::Symmetric),
    ];
    for (mode, candle_mode) in modes {
        let spec = PadSpec::new(vec![0, 0, 2, 2, 0, 0, 2, 2]).with_mode(mode);
        g.bench_function(format!("pad_into/{mode}"), |b| {
            b.iter(|| padkit::pad_into(&src, &SHAPE, &spec, 0.0, &mut dst).unwrap())
        });
        g.bench_function(format!("padkit_pad/{mode}"), |b| {
            b.iter(|| x.padkit_pad([(2, 2), (2, 2)], candle_mode).unwrap())
        });
    }
    g.bench_function("candle/constant (pad_with_zeros)", |b| {
        b.iter(|| {
            x.pad_with_zeros(2, 2, 2)
                .and_then(|y| y.pad_with_zeros(3, 2, 2))
                .unwrap()
        })
    });
    g.bench_function("candle/edge (pad_with_same)", |b| {
        b.iter(|| {
            x.pad_with_same(2, 2, 2)
                .and_then(|y| y.pad_with_same(3, 2, 2))
                .unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, w1);
criterion_main!(benches);
