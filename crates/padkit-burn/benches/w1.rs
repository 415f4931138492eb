//! W1 (f32 [1,64,256,256], pads 2 on H and W) on Flex, one thread, one run: padkit-burn's
//! native path, Burn's own `pad`, the composed path (also on NdArray, with the `ndarray` feature), and a memcpy floor.
//!
//! `fwd` times the pad. `bwd` times `y.sum().backward()` on an already padded `y` (the
//! pad runs untimed in the setup); `bwd/leaf` times the same on a leaf tensor of the
//! output's shape, so `bwd − bwd/leaf` is what the pad's backward adds to a step.
//! `adjoint` times padkit's adjoint on a host buffer: what the native backward runs.

#![allow(deprecated)] // Device::ndarray: measured beside Flex
#![allow(missing_docs)] // criterion_group! defines an undocumented public function

use burn::tensor::ops::PadMode as BurnMode;
use burn::tensor::{Device, Tensor};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use padkit::{PadMode, PadSpec};
use padkit_burn::route::pad_composed;
use padkit_burn::{Fill, pad_with};

type PadFn = Box<dyn Fn(Tensor<4>) -> Tensor<4>>;

fn w1(c: &mut Criterion) {
    // The targets are for one thread, like the floor: Flex and padkit both use rayon.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
    let mut g = c.benchmark_group("W1-burn-flex");
    let out_len = 64 * 260 * 260;
    let (src, mut dst) = (vec![1.0f32; 64 * 256 * 256], vec![0.0f32; out_len]);
    g.bench_function("floor", |b| {
        b.iter(|| {
            dst[..src.len()].copy_from_slice(&src);
            dst[src.len()..].fill(0.0);
        })
    });
    let ad = Device::flex().autodiff();
    g.bench_function("bwd/leaf", |b| {
        b.iter_batched(
            || Tensor::<4>::ones([1, 64, 260, 260], &ad).require_grad(),
            |y| y.sum().backward(),
            BatchSize::PerIteration,
        )
    });
    for (mode, burn_mode) in [
        (PadMode::Constant, BurnMode::Constant(0.0)),
        (PadMode::Reflect, BurnMode::Reflect),
        (PadMode::Edge, BurnMode::Edge),
    ] {
        let s = PadSpec::new(vec![0, 0, 2, 2, 0, 0, 2, 2]).with_mode(mode);
        g.bench_function(format!("adjoint/padkit-{mode}"), |b| {
            b.iter_batched(
                || vec![1.0f32; out_len],
                |mut grad| {
                    padkit::adjoint::pad_adjoint_in_place(&mut grad, &[1, 64, 256, 256], &s)
                        .unwrap()
                },
                BatchSize::PerIteration,
            )
        });
        let s2 = s.clone();
        let s_native = s.clone();
        let paths: [(&str, PadFn); 3] = [
            (
                "padkit-native",
                Box::new(move |x| pad_with(x, &s_native, 0.0).unwrap()),
            ),
            (
                "burn-pad",
                Box::new(move |x| x.pad([(2, 2), (2, 2)], burn_mode)),
            ),
            (
                "padkit-composed",
                Box::new(move |x| pad_composed(x, &s2, Fill::Zero).unwrap()),
            ),
        ];
        let x = Tensor::<4>::ones([1, 64, 256, 256], &Device::flex());
        let xg = Tensor::<4>::ones([1, 64, 256, 256], &ad).require_grad();
        #[cfg(feature = "ndarray")]
        {
            let xn = Tensor::<4>::ones([1, 64, 256, 256], &Device::ndarray());
            let s3 = s.clone();
            g.bench_function(format!("fwd/padkit-composed-ndarray-{mode}"), |b| {
                b.iter(|| {
                    let y = pad_composed(xn.clone(), &s3, Fill::Zero).unwrap();
                    y.slice([0..1, 0..1, 0..1, 0..1]).into_data()
                })
            });
        }
        for (name, pad) in &paths {
            g.bench_function(format!("fwd/{name}-{mode}"), |b| {
                // materialise: read one element back
                b.iter(|| pad(x.clone()).slice([0..1, 0..1, 0..1, 0..1]).into_data())
            });
            g.bench_function(format!("bwd/{name}-{mode}"), |b| {
                b.iter_batched(
                    || pad(xg.clone()),
                    |y| y.sum().backward(),
                    BatchSize::PerIteration,
                )
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
