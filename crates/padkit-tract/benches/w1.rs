//! W1 (f32 [1,64,256,256], pads 2 on H and W) through a tract plan: padkit's Pad against
//! tract-core's own Pad, in the same run, beside a memcpy of the output.

use criterion::{Criterion, criterion_group, criterion_main};
use padkit::Tensor;
use padkit_onnx::model::{Feed, PadModel};
use tract_core::ops::array::{Pad, PadMode};
use tract_onnx::prelude::*;

fn w1(c: &mut Criterion) {
    // One thread, like tract-core's Pad and the memcpy.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
    let shape = [1usize, 64, 256, 256];
    let data: Vec<f32> = (0..shape.iter().product::<usize>())
        .map(|i| (i % 1000) as f32)
        .collect();
    let x = Tensor::from_slice(&shape, &data).unwrap();
    // shared, not copied, on every run: the plans see the same input tensor
    let input = padkit_onnx::tract::to_tract(&x).unwrap().into_arc_tensor();
    let pads = vec![0, 0, 2, 2, 0, 0, 2, 2];
    let mut group = c.benchmark_group("W1-tract");
    let out_len = 64 * 260 * 260;
    let (src, mut dst) = (vec![1.0f32; out_len], vec![0.0f32; out_len]);
    group.bench_function("memcpy-output", |b| b.iter(|| dst.copy_from_slice(&src)));
    for mode in ["constant", "reflect", "edge", "wrap"] {
        let opset = if mode == "wrap" { 19 } else { 13 };
        let m = PadModel::new(opset, mode, x.clone(), pads.clone(), Feed::Initializer);
        let plan = padkit_tract::onnx()
            .model_for_proto_model(&m.proto())
            .unwrap()
            .into_optimized()
            .unwrap()
            .into_runnable()
            .unwrap();
        group.bench_function(format!("padkit-{mode}"), |b| {
            b.iter(|| plan.run(tvec!(TValue::from_const(input.clone()))).unwrap())
        });
        let core_mode = match mode {
            "constant" => PadMode::Constant(rctensor0(0f32)),
            "reflect" => PadMode::Reflect,
            "edge" => PadMode::Edge,
            _ => continue, // tract-core has no wrap
        };
        let op = Pad::new(vec![(0, 0), (0, 0), (2, 2), (2, 2)], core_mode);
        let mut model = TypedModel::default();
        let src = model.add_source("x", f32::fact(shape)).unwrap();
        let out = model.wire_node("pad", op, &[src]).unwrap();
        model.select_output_outlets(&out).unwrap();
        let plan = model.into_runnable().unwrap();
        group.bench_function(format!("tract-core-{mode}"), |b| {
            b.iter(|| plan.run(tvec!(TValue::from_const(input.clone()))).unwrap())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = w1
}
criterion_main!(benches);
