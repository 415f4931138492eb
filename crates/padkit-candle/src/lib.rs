//! # padkit-candle: the complete Pad for candle
//!
//! Pad a candle [`Tensor`] of any dtype and rank with padkit's full semantics: constant,
//! reflect, edge, wrap and symmetric, negative pads (crop), axes (negative too), interior
//! padding and fill values kept exact in integer types, with gradients. Bad pads are errors naming the axis and
//! the numbers, never panics.
//!
//! Three shapes of call:
//! - candle's: [`PadExt::padkit_pad`] takes `(before, after)` pairs for the last dims (or
//!   [`on_axes`]) and a [`PaddingMode`];
//! - ONNX's: [`pad`] and [`pad_with`] take a [`PadSpec`] (flat pads, axes, interior);
//! - a layer: [`Pad`] implements `candle_core::Module`.
//!
//! On `Device::Cpu` the pad is a `CustomOp1` that runs padkit's kernel on candle's
//! storage (a contiguous input is read in place, the output written once) and whose
//! backward is padkit's adjoint. On CUDA and Metal devices it is a composition of candle
//! ops ([`route::pad_composed`]: one `index_select` per padded axis), which candle
//! differentiates; no device here runs them. [`route::pad_path`] says which path a call
//! takes.
//!
//! With the `onnx` feature, [`onnx::simple_eval`] runs candle-onnx models whose every Pad
//! runs, by lowering them with padkit-lower first.
//!
//! ```
//! use candle_core::{Device, Tensor};
//! use padkit_candle::{PadExt, PaddingMode};
//! let x = Tensor::new(&[[1f32, 2.0], [3.0, 4.0]], &Device::Cpu).unwrap();
//! let y = x.padkit_pad([(1, 1)], PaddingMode::Wrap).unwrap();
//! assert_eq!(y.to_vec2::<f32>().unwrap(), [[2.0, 1.0, 2.0, 1.0], [4.0, 3.0, 4.0, 3.0]]);
//! ```

mod composed;
pub mod convert;
mod error;
mod fill;
mod kernel;
mod module;
#[cfg(feature = "onnx")]
pub mod onnx;
pub mod route;

pub use error::Error;
pub use module::Pad;
pub use padkit;
// The fill and the mode that carries it, shared with padkit's other adapters.
pub use padkit::fill::{Fill, PaddingMode};
// `(before, after)` pairs, shared with padkit's other adapters.
pub use padkit::pairs::{OnAxes, Padding, on_axes};
pub use padkit::{PadError, PadMode, PadSpec};

use candle_core::Tensor;

use kernel::PadOp;
use route::{PadPath, pad_path};

/// Pads with zero fill (constant mode) — see [`pad_with`].
///
/// # Errors
///
/// As [`pad_with`]: [`Error::Pad`] when `spec` does not fit the tensor or the output is
/// too large; [`Error::Candle`] when candle fails.
///
/// ```
/// use candle_core::{Device, Tensor};
/// let x = Tensor::new(&[1i64, 2, 3], &Device::Cpu).unwrap();
/// let y = padkit_candle::pad(&x, &padkit::PadSpec::new(vec![-1, 1])).unwrap();
/// assert_eq!(y.to_vec1::<i64>().unwrap(), [2, 3, 0]);
/// ```
pub fn pad(tensor: &Tensor, spec: &PadSpec) -> Result<Tensor, Error> {
    pad_with(tensor, spec, Fill::Zero)
}

/// Pads `tensor` by `spec`, filling constant-mode padding with `fill` converted to the
/// tensor's dtype: exactly for integer types (or an error), to the nearest value for float
/// types (f8e4m3 saturates at ±448), as a code for the types candle stores as codes.
///
/// # Errors
///
/// [`Error::Pad`], before any work on the tensor, when `spec` does not fit it (pads, axes
/// or interior of the wrong length or out of range, a crop past the axis, a mode that
/// needs a non-empty axis), when `fill` is not exact in its dtype, or when the output
/// would be too large to allocate or to index; [`Error::Candle`] when candle fails.
///
/// ```
/// use candle_core::{Device, Tensor};
/// let x = Tensor::new(&[1i64, 2], &Device::Cpu).unwrap();
/// let y = padkit_candle::pad_with(&x, &padkit::PadSpec::new(vec![1, 0]), 16_777_217i64).unwrap();
/// assert_eq!(y.to_vec1::<i64>().unwrap(), [16_777_217, 1, 2]);
/// ```
pub fn pad_with(tensor: &Tensor, spec: &PadSpec, fill: impl Into<Fill>) -> Result<Tensor, Error> {
    let op = PadOp::new(tensor, spec, fill.into())?;
    Ok(match pad_path(tensor) {
        // (a strided input is gathered through its layout by the op's `cpu_fwd`, once)
        PadPath::Kernel => tensor.apply_op1(op)?,
        PadPath::Composed(_) => composed::pad(tensor, &op)?,
    })
}

/// Pad as a method, in candle's shape (ONNX's is [`pad`] and [`pad_with`]).
pub trait PadExt {
    /// Pads by `(before, after)` pairs of the last dims (or [`on_axes`]); negative values
    /// crop.
    ///
    /// # Errors
    ///
    /// As [`pad_with`]: the padding does not fit the tensor, the mode's constant is not
    /// exact in its dtype, the output is too large, or candle fails.
    fn padkit_pad(
        &self,
        padding: impl Padding,
        mode: impl Into<PaddingMode>,
    ) -> Result<Tensor, Error>;
}

impl PadExt for Tensor {
    fn padkit_pad(
        &self,
        padding: impl Padding,
        mode: impl Into<PaddingMode>,
    ) -> Result<Tensor, Error> {
        let (mode, fill) = mode.into().parts();
        pad_with(self, &padding.spec(mode), fill)
    }
}

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
