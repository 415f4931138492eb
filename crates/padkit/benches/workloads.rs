//! W1–W8 through `pad_into` on one thread, each beside its memcpy floor (copy the
//! input's bytes, fill the rest of the output) and beside `Plan::run_bytes` on the same
//! buffers (so that the typed API's cost over the byte-width kernel is the only
//! difference), in the same run.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use padkit::bytemuck::{Pod, cast_slice, cast_slice_mut};
use padkit::{DType, Plan, half::f16, pad_into};
use padkit_workloads::{self as workload, Workload, as_uninit_bytes};

fn floor<T: Copy>(input: &[T], out: &mut [T], fill: T) {
    let n = input.len().min(out.len());
    out[..n].copy_from_slice(&input[..n]);
    out[n..].fill(fill);
}

fn bench_typed<T: Pod + Send + Sync + Default>(
    c: &mut Criterion,
    w: &Workload,
    make: fn(usize) -> T,
) {
    let input: Vec<T> = (0..w.input_len()).map(make).collect();
    let mut out = vec![T::default(); w.output_len()];
    let mut group = c.benchmark_group(&w.name);
    group.throughput(Throughput::Bytes(
        ((input.len() + out.len()) * size_of::<T>()) as u64,
    ));
    group.bench_function(BenchmarkId::from_parameter("floor"), |b| {
        b.iter(|| floor(&input, &mut out, T::default()))
    });
    group.bench_function(BenchmarkId::from_parameter("padkit"), |b| {
        b.iter(|| pad_into(&input, &w.shape, &w.spec, T::default(), &mut out).unwrap())
    });
    group.bench_function(BenchmarkId::from_parameter("run_bytes"), |b| {
        let (bytes, zero) = (cast_slice(&input), vec![0; size_of::<T>()]);
        b.iter(|| {
            let plan = Plan::new(&w.shape, &w.spec, size_of::<T>()).unwrap();
            // SAFETY: `run_bytes` writes every byte of `room`, each a copy of an input or
            // fill byte, never an uninitialised one, so `out` stays initialised for the
            // other benchmarks of the group.
            let room = unsafe { as_uninit_bytes(cast_slice_mut(&mut out)) };
            plan.run_bytes(bytes, &zero, room).unwrap();
        })
    });
    group.finish();
}

fn workloads(c: &mut Criterion) {
    // The targets are for one thread: padkit's parallel paths stay off.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
    for w in workload::all() {
        match w.dtype {
            DType::Float16 => bench_typed(c, &w, |i| f16::from_f32((i % 1000) as f32)),
            DType::UInt8 => bench_typed(c, &w, |i| i as u8),
            _ => bench_typed(c, &w, |i| (i % 1000) as f32 * 0.5),
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = workloads
}
criterion_main!(benches);
