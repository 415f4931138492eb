//! Which path a pad takes: padkit's kernel on the CPU, a composition of candle ops on
//! other devices.

use candle_core::{DeviceLocation, Tensor};

pub use crate::composed::pad_composed;

/// The path a pad of a tensor takes ([`pad_path`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PadPath {
    /// padkit's kernel on candle's CPU storage (a `CustomOp1`), its backward padkit's
    /// adjoint.
    Kernel,
    /// A composition of candle ops ([`pad_composed`]), which candle differentiates.
    Composed(Reason),
}

/// Why a pad takes the composed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The tensor lives on a device padkit has no kernel for (CUDA, Metal).
    Device(DeviceLocation),
}

impl PadPath {
    /// Whether padkit's kernel runs the pad.
    pub fn is_kernel(self) -> bool {
        self == PadPath::Kernel
    }
}

/// The path a pad of `tensor` takes.
///
/// ```
/// use candle_core::{Device, Tensor};
/// use padkit_candle::route::{pad_path, PadPath};
/// let x = Tensor::zeros(4, candle_core::DType::F32, &Device::Cpu).unwrap();
/// assert_eq!(pad_path(&x), PadPath::Kernel);
/// ```
pub fn pad_path(tensor: &Tensor) -> PadPath {
    match tensor.device().location() {
        DeviceLocation::Cpu => PadPath::Kernel,
        other => PadPath::Composed(Reason::Device(other)),
    }
}
