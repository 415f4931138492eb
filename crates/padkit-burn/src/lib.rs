//! # padkit-burn: the complete Pad for Burn
//!
//! Pad a `Tensor<D, K>` of any kind (Float, Int, Bool) on any backend with padkit's full
//! semantics: constant, reflect, edge, wrap and symmetric, negative pads (crop), axes
//! (negative too), interior padding and exact fill values. Bad pads are errors, never
//! panics.
//!
//! Two shapes of call:
//! - Burn's: [`PadExt::padkit_pad`] takes `(before, after)` pairs for the last dims (or
//!   [`on_axes`]) and a [`PaddingMode`], like `Tensor::pad`;
//! - ONNX's: [`pad`] and [`pad_with`] take a [`PadSpec`] (flat pads, axes, interior).
//!
//! On Flex and NdArray devices (features `flex`, default, and `ndarray`; under autodiff
//! with the `autodiff` feature, default) the pad runs padkit's kernel on the backend's
//! buffer, and its gradient is padkit's adjoint. On Burn's CubeCL devices (features
//! `wgpu`, `cuda`, `rocm`, `metal`) it is padkit's CubeCL kernel (two launches: the rows'
//! centers, then their borders), recorded by burn-fusion as one operation, and its
//! gradient the adjoint kernel, launched the same way.
//! Every other device gets a composition of Burn tensor ops
//! ([`route::pad_composed`]), which autodiff differentiates. [`route::pad_path`] says
//! which path a call takes and why; [`counters::kernel_runs`] counts what ran.
//!
//! **Without the feature for a device's backend, that device gets the composed path.**
//! Correct, but on a GPU slower than Burn's own `Tensor::pad`: a Burn user on wgpu needs
//! padkit-burn's `wgpu` feature. [`route::pad_path`] then names the missing feature
//! ([`route::Reason::FeatureOff`]), and the first such pad logs a warning through the `log`
//! facade.
//!
//! Runtimes: the CubeCL kernel is compiled and run on **wgpu** only (in CI, on lavapipe,
//! Mesa's Vulkan on the CPU, with and without burn-fusion). **Metal**: the `metal` feature
//! resolves and compiles in CI on Linux, but cubecl-wgpu compiles its MSL backend only on
//! macOS, so no Metal code is generated or run. **CUDA** and **ROCm**: never compiled
//! anywhere (Burn's `cuda` and `rocm` features pull tracel-llvm-bundler, which downloads
//! LLVM during the build) and never run.
//!
//! ```
//! use burn::tensor::{Device, Tensor};
//! use padkit_burn::{PadExt, PaddingMode};
//! let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &Device::flex());
//! let y = x.padkit_pad([(1, 1)], PaddingMode::Wrap).unwrap();
//! assert_eq!(y.into_data().try_to_vec::<f32>().unwrap(), vec![2.0, 1.0, 2.0, 1.0, 4.0, 3.0, 4.0, 3.0]);
//! ```

mod check;
mod composed;
pub mod counters;
pub mod dtype;
mod fill;
mod host;
pub mod import;
mod module;
mod native;
pub mod route;

pub use module::{Pad, PadConfig};
// The fill and the mode that carries it, shared with padkit's other adapters.
pub use padkit::fill::{Fill, PaddingMode};
// Pairs as Burn's `Tensor::pad` takes them, shared with padkit's other adapters.
pub use padkit;
pub use padkit::pairs::{OnAxes, Padding, on_axes};
pub use padkit::{PadError, PadSpec};

use burn::tensor::{Bool, Float, Int, Tensor, kind::Basic};

use composed::pad_composed;
use route::pad_path;

use native::{Checked, Native};

mod sealed {
    /// Only the kinds padkit-burn implements [`PadKind`](super::PadKind) for.
    pub trait Sealed {}
    impl Sealed for burn::tensor::Float {}
    impl Sealed for burn::tensor::Int {}
    impl Sealed for burn::tensor::Bool {}
}

/// A tensor kind padkit-burn pads (Float, Int, Bool), natively where the backend allows
/// it. Sealed: the native path is padkit-burn's own.
pub trait PadKind: Basic + sealed::Sealed + Native + composed::KeepInGraph {}

impl PadKind for Float {}
impl PadKind for Int {}
impl PadKind for Bool {}

/// Pads with zero fill (constant mode) — see [`pad_with`].
///
/// # Errors
///
/// Fails, before any backend work, when `spec` does not fit the tensor (pads, axes or
/// interior of the wrong length or out of range, a crop past the axis, a mode that needs
/// a non-empty axis), when `fill` is not exactly representable in the tensor's element
/// type, when the element type cannot be padded, or when the output would be too large
/// to allocate or to index.
///
/// ```
/// use burn::tensor::{Device, Int, Tensor};
/// let x = Tensor::<1, Int>::from_ints([1, 2, 3], &Device::flex());
/// let y = padkit_burn::pad(x, &padkit::PadSpec::new(vec![-1, 1])).unwrap();
/// assert_eq!(y.into_data().try_into_vec_as::<i64>().unwrap(), vec![2, 3, 0]);
/// ```
pub fn pad<const D: usize, K: PadKind>(
    tensor: Tensor<D, K>,
    spec: &PadSpec,
) -> Result<Tensor<D, K>, PadError> {
    pad_with(tensor, spec, Fill::Zero)
}

/// Pads `tensor` by `spec`, filling constant-mode padding with `fill` converted exactly to
/// the tensor's element type.
///
/// # Errors
///
/// Fails, before any backend work, when `spec` does not fit the tensor (pads, axes or
/// interior of the wrong length or out of range, a crop past the axis, a mode that needs
/// a non-empty axis), when `fill` is not exactly representable in the tensor's element
/// type, when the element type cannot be padded, or when the output would be too large
/// to allocate or to index.
///
/// ```
/// use burn::tensor::{DType, Device, Int, Tensor};
/// let x = Tensor::<1, Int>::from_data([1i64, 2], (&Device::flex(), DType::I64));
/// let y = padkit_burn::pad_with(x, &padkit::PadSpec::new(vec![1, 0]), 16_777_217i64).unwrap();
/// assert_eq!(y.into_data().try_to_vec::<i64>().unwrap(), vec![16_777_217, 1, 2]);
/// ```
pub fn pad_with<const D: usize, K: PadKind>(
    tensor: Tensor<D, K>,
    spec: &PadSpec,
    fill: impl Into<Fill>,
) -> Result<Tensor<D, K>, PadError> {
    let fill = fill.into();
    let (dims, dtype) = (tensor.dims(), tensor.dtype());
    // A spec that does not fit has no output shape: the composed path reports its error.
    let native = padkit::output_shape(&dims, spec)
        .is_ok_and(|out| pad_path(&tensor.device(), dtype, &dims, &out).is_native());
    if native {
        let checked = Checked::new(&dims, dtype, spec, fill)?;
        Ok(Tensor::from_dispatch(K::native(
            tensor.into_dispatch(),
            checked,
        )))
    } else {
        pad_composed(tensor, spec, fill)
    }
}

/// Pad as a method, in Burn's shape (ONNX's is [`pad`] and [`pad_with`]).
pub trait PadExt: Sized {
    /// Pads by `(before, after)` pairs of the last dims (or [`on_axes`]); negative values
    /// crop. Like Burn's `Tensor::pad`, for every kind, with padkit's modes.
    ///
    /// # Errors
    ///
    /// As [`pad_with`]: the padding does not fit the tensor, the mode's constant is not
    /// exact in its element type, or the output is too large.
    fn padkit_pad(
        self,
        padding: impl Padding,
        mode: impl Into<PaddingMode>,
    ) -> Result<Self, PadError>;
}

impl<const D: usize, K: PadKind> PadExt for Tensor<D, K> {
    fn padkit_pad(
        self,
        padding: impl Padding,
        mode: impl Into<PaddingMode>,
    ) -> Result<Self, PadError> {
        let (mode, fill) = mode.into().parts();
        pad_with(self, &padding.spec(mode), fill)
    }
}

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
