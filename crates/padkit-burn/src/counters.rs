//! How many times padkit's native kernels have run ([`kernel_runs`]): counters below both
//! the routing ([`route`](crate::route)) and the kernels, which count their runs here.

use std::sync::atomic::{AtomicU64, Ordering};

/// How many times the native kernels have run in this process, for tests and profiling
/// that must know a call took the native path, not only that its answer is right. The
/// host kernel counts once per pad (or gradient) it computes; the CubeCL kernels count
/// their launches, which is what a device runs: two per pad (the rows' centers, then the
/// rest), one where the rows have no center or nothing but their center, none where there
/// is nothing to write (an empty output; for the adjoint, an empty input). Under
/// burn-fusion a kernel runs when its output is first needed, not when the pad is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KernelRuns {
    /// Runs of padkit's host kernel on a CPU backend's buffer, and of its host adjoint.
    pub host: u64,
    /// Launches of the CubeCL pad kernel.
    pub device_forward: u64,
    /// Launches of the CubeCL adjoint kernel.
    pub device_backward: u64,
}

/// The kernel runs counted so far (process-wide, relaxed counters: read them around work
/// that no other thread does at the same time).
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit_burn::counters::kernel_runs;
/// use padkit_burn::{PadExt, PaddingMode};
/// let before = kernel_runs().host;
/// let x = Tensor::<1>::from_floats([1.0, 2.0], &Device::flex());
/// let _ = x.padkit_pad([(1, 1)], PaddingMode::Edge).unwrap().into_data();
/// assert!(kernel_runs().host > before);
/// ```
pub fn kernel_runs() -> KernelRuns {
    KernelRuns {
        host: HOST.load(Ordering::Relaxed),
        device_forward: DEVICE_FORWARD.load(Ordering::Relaxed),
        device_backward: DEVICE_BACKWARD.load(Ordering::Relaxed),
    }
}

static HOST: AtomicU64 = AtomicU64::new(0);
static DEVICE_FORWARD: AtomicU64 = AtomicU64::new(0);
static DEVICE_BACKWARD: AtomicU64 = AtomicU64::new(0);

/// A kernel [`kernel_runs`] counts (the host kernel per run, the CubeCL kernels per
/// launch).
#[cfg_attr(not(feature = "cube"), allow(dead_code))]
pub(crate) enum Counter {
    Host,
    DeviceForward,
    DeviceBackward,
}

/// Counts one run of `kernel` (for a CubeCL kernel: one launch, counted where it is
/// launched).
pub(crate) fn count(kernel: Counter) {
    let counter = match kernel {
        Counter::Host => &HOST,
        Counter::DeviceForward => &DEVICE_FORWARD,
        Counter::DeviceBackward => &DEVICE_BACKWARD,
    };
    counter.fetch_add(1, Ordering::Relaxed);
}
