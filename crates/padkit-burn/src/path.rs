//! Which implementation a pad runs, and why: [`pad_path`] answers before a call, and
//! [`kernel_runs`] counts what ran.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use burn::backend::DispatchDevice;
use burn::tensor::{DType, Device};

/// The implementation a pad takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PadPath {
    /// padkit's kernel on the host buffer of a CPU backend (Flex, NdArray).
    Host,
    /// padkit's CubeCL kernel on the device (wgpu, CUDA, ROCm, Metal), recorded as one
    /// operation by burn-fusion where the backend fuses.
    Device,
    /// A composition of Burn tensor ops ([`pad_composed`](crate::pad_composed)), for the
    /// reason given.
    Composed(Reason),
}

/// Why a pad takes the composed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// padkit-burn has no kernel for this backend, or was built without its feature.
    Backend(String),
    /// An autodiff device, and padkit-burn was built without its `autodiff` feature
    /// (which brings the native backward).
    NoAutodiffFeature,
    /// The device does not hold this element type.
    ElementType(DType),
    /// The pad's input or output has more elements than the CubeCL kernel's 32-bit
    /// indexing covers.
    TooLarge {
        /// Elements of the input.
        input: usize,
        /// Elements of the output.
        output: usize,
    },
}

impl fmt::Display for PadPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PadPath::Host => f.write_str("native: padkit's kernel on the host buffer"),
            PadPath::Device => f.write_str("native: padkit's CubeCL kernel on the device"),
            PadPath::Composed(reason) => write!(f, "composed from Burn tensor ops: {reason}"),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Backend(device) => write!(f, "no padkit kernel for {device}"),
            Reason::NoAutodiffFeature => {
                f.write_str("an autodiff device, and padkit-burn lacks its `autodiff` feature")
            }
            Reason::ElementType(dtype) => write!(f, "the device does not hold {dtype:?}"),
            Reason::TooLarge { input, output } => write!(
                f,
                "{input} input and {output} output elements exceed the kernel's 32-bit indexing"
            ),
        }
    }
}

impl PadPath {
    /// True for the two native paths.
    ///
    /// ```
    /// assert!(padkit_burn::PadPath::Host.is_native());
    /// ```
    pub fn is_native(&self) -> bool {
        !matches!(self, PadPath::Composed(_))
    }
}

/// The path a pad of a `dtype` tensor of `input` elements to `output` elements takes on
/// `device`: a pure function of them (the spec decides only the output's size).
///
/// ```
/// use burn::tensor::{DType, Device};
/// use padkit_burn::{PadPath, pad_path};
/// assert_eq!(pad_path(&Device::flex(), DType::F32, &[2, 3], &[4, 5]), PadPath::Host);
/// ```
// (the element type and sizes matter only to the CubeCL kernel)
#[cfg_attr(not(feature = "cube"), allow(unused_variables))]
pub fn pad_path(device: &Device, dtype: DType, input: &[usize], output: &[usize]) -> PadPath {
    if device.is_autodiff() && !cfg!(feature = "autodiff") {
        return PadPath::Composed(Reason::NoAutodiffFeature);
    }
    #[allow(unreachable_patterns)] // every variant is native when no other backend is built
    match device.clone().inner().as_dispatch() {
        #[cfg(feature = "flex")]
        DispatchDevice::Flex(_) => PadPath::Host,
        #[cfg(feature = "ndarray")]
        #[allow(deprecated)]
        DispatchDevice::NdArray(_) => PadPath::Host,
        #[cfg(feature = "cube")]
        DispatchDevice::Cube(_) => {
            if !device.supports_dtype(dtype) {
                return PadPath::Composed(Reason::ElementType(dtype));
            }
            let elements = |s: &[usize]| s.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
            let (i, o) = (elements(input), elements(output));
            let small = |n: Option<usize>| n.is_some_and(|n| n <= u32::MAX as usize);
            if small(i) && small(o) && crate::native::cube_tables_fit(input, output) {
                PadPath::Device
            } else {
                PadPath::Composed(Reason::TooLarge {
                    input: i.unwrap_or(usize::MAX),
                    output: o.unwrap_or(usize::MAX),
                })
            }
        }
        other => PadPath::Composed(Reason::Backend(format!("{other:?}"))),
    }
}

/// How many times each native kernel has run in this process, for tests and profiling
/// that must know a call took the native path, not only that its answer is right. Under
/// burn-fusion a kernel runs when its output is first needed, not when the pad is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KernelRuns {
    /// padkit's host kernel on a CPU backend's buffer, and its host adjoint.
    pub host: u64,
    /// The CubeCL pad kernel.
    pub device_forward: u64,
    /// The CubeCL adjoint kernel.
    pub device_backward: u64,
}

/// The kernel runs counted so far (process-wide, relaxed counters: read them around work
/// that no other thread does at the same time).
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit_burn::{PadExt, PaddingMode, kernel_runs};
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

/// A kernel [`kernel_runs`] counts.
#[cfg_attr(not(feature = "cube"), allow(dead_code))]
pub(crate) enum Counter {
    Host,
    DeviceForward,
    DeviceBackward,
}

/// Counts one run of `kernel`.
pub(crate) fn count(kernel: Counter) {
    let counter = match kernel {
        Counter::Host => &HOST,
        Counter::DeviceForward => &DEVICE_FORWARD,
        Counter::DeviceBackward => &DEVICE_BACKWARD,
    };
    counter.fetch_add(1, Ordering::Relaxed);
}
