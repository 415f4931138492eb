//! padkit's own APIs as bench jobs: the byte-width kernel, the typed API into a reused
//! buffer, and the allocating API.

use super::workloads::{self as workload, Workload};
use padkit::half::f16;
use padkit::{DType, Tensor};

use super::Job;
use super::buffers::{LineAligned, Shared, bytes, shared};

/// Pushes `padkit-core`, `padkit-typed` and `padkit-fresh` for `w` on input `x`.
pub(super) fn push(w: &Workload, x: &Tensor, jobs: &mut Vec<(String, Job)>) {
    let width = bytes(x).len() / w.input_len().max(1);
    let buffers = shared(x, w.output_len() * width);
    let (bytes_job, typed, fresh) = match w.dtype {
        DType::UInt8 => (
            core_pad_bytes::<1>(w, buffers.clone()),
            core_typed::<u8>(w, buffers),
            core_fresh::<u8>(w, x),
        ),
        DType::Float16 => (
            core_pad_bytes::<2>(w, buffers.clone()),
            core_typed::<f16>(w, buffers),
            core_fresh::<f16>(w, x),
        ),
        _ => (
            core_pad_bytes::<4>(w, buffers.clone()),
            core_typed::<f32>(w, buffers),
            core_fresh::<f32>(w, x),
        ),
    };
    jobs.push(("padkit-core".into(), bytes_job));
    jobs.push(("padkit-typed".into(), typed));
    jobs.push(("padkit-fresh".into(), fresh));
}

/// padkit's byte-width kernel (what `pad_tensor` and padkit-burn run), planned per call,
/// into a reused buffer.
fn core_pad_bytes<const N: usize>(w: &Workload, buffers: Shared) -> Job {
    let (shape, spec) = (w.shape.clone(), w.spec.clone());
    Box::new(move || {
        let (src, out) = &mut *buffers.borrow_mut();
        let plan = padkit::Plan::new(&shape, &spec, N).expect("workloads are valid");
        // SAFETY: `run_bytes` writes every byte of `room`, each a copy of an input or fill
        // byte, never an uninitialised one, so `out` stays initialised for the job that
        // shares it.
        let room = unsafe { workload::as_uninit_bytes(out.bytes_mut()) };
        std::hint::black_box(
            plan.run_bytes(src.bytes(), &[0; N], room)
                .expect("workloads are valid"),
        );
    })
}

/// padkit's typed API (`pad_into`) on the workload's element type, into a reused buffer.
fn core_typed<T: padkit::bytemuck::Pod + Send + Sync>(w: &Workload, buffers: Shared) -> Job {
    let (shape, spec) = (w.shape.clone(), w.spec.clone());
    Box::new(move || {
        let (src, out) = &mut *buffers.borrow_mut();
        let input: &[T] = padkit::bytemuck::cast_slice(src.bytes());
        let out: &mut [T] = padkit::bytemuck::cast_slice_mut(out.bytes_mut());
        padkit::pad_into(input, &shape, &spec, T::zeroed(), out).expect("workloads are valid");
        std::hint::black_box(out);
    })
}

/// padkit's allocating API (`pad`) on the workload's element type: a fresh output each
/// call, whose pages the kernel faults in (on huge pages where the system allows).
fn core_fresh<T: padkit::bytemuck::Pod + Send + Sync>(w: &Workload, x: &Tensor) -> Job {
    let src = LineAligned::copy_of(bytes(x));
    let (shape, spec) = (w.shape.clone(), w.spec.clone());
    Box::new(move || {
        let input: &[T] = padkit::bytemuck::cast_slice(src.bytes());
        drop(std::hint::black_box(
            padkit::pad(input, &shape, &spec, T::zeroed()).expect("workloads are valid"),
        ));
    })
}
