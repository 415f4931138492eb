//! # padkit-burn: the complete Pad for Burn
//!
//! [`pad`] and [`pad_with`] pad a `Tensor<D, K>` of any kind (Float, Int, Bool) on any
//! backend with padkit's full semantics: constant, reflect, edge, wrap and symmetric,
//! negative pads, axes (negative too), interior padding and exact fill values. Bad specs
//! are errors, never panics.
//!
//! On Flex and NdArray devices (with or without autodiff) the pad runs padkit's kernel on
//! the backend's buffer, and its gradient is padkit's adjoint; every other backend gets a
//! composition of Burn tensor ops ([`pad_composed`]), which autodiff differentiates.
//!
//! ```
//! use burn::tensor::{Device, Tensor};
//! use padkit::{PadMode, PadSpec};
//! use padkit_burn::PadExt;
//! let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &Device::flex());
//! let y = x.padkit_pad(&PadSpec::new(vec![1, 1]).with_axes(vec![-1]).with_mode(PadMode::Wrap)).unwrap();
//! assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![2.0, 1.0, 2.0, 1.0, 4.0, 3.0, 4.0, 3.0]);
//! ```

mod composed;
mod fill;
mod host;
mod module;
mod native;

pub use composed::pad_composed;
pub use fill::Fill;
pub use module::{Pad, PadConfig};
pub use native::PadBackend;
pub use padkit::{PadError, PadMode, PadSpec};

use burn::backend::{Dispatch, DispatchDevice};
use burn::tensor::DispatchTensor;
use burn::tensor::{Bool, Device, Float, Int, Tensor, kind::Basic};
use padkit::Plan;

/// A tensor kind padkit-burn pads natively where the backend allows it.
pub trait PadKind: Basic {
    /// The native pad of a tensor of this kind (through [`PadBackend`]).
    #[doc(hidden)]
    fn native(x: DispatchTensor, spec: PadSpec, fill: Fill) -> DispatchTensor;
}

impl PadKind for Float {
    fn native(x: DispatchTensor, spec: PadSpec, fill: Fill) -> DispatchTensor {
        <Dispatch as PadBackend>::padkit_pad_float(x, spec, fill)
    }
}

impl PadKind for Int {
    fn native(x: DispatchTensor, spec: PadSpec, fill: Fill) -> DispatchTensor {
        <Dispatch as PadBackend>::padkit_pad_int(x, spec, fill)
    }
}

impl PadKind for Bool {
    fn native(x: DispatchTensor, spec: PadSpec, fill: Fill) -> DispatchTensor {
        <Dispatch as PadBackend>::padkit_pad_bool(x, spec, fill)
    }
}

/// True for devices whose backend has padkit's native kernel (Flex, NdArray, and autodiff
/// over them); the others never reach the extension, which would panic for them.
///
/// ```
/// use burn::tensor::Device;
/// assert!(padkit_burn::has_native_kernel(&Device::flex().autodiff()));
/// ```
pub fn has_native_kernel(device: &Device) -> bool {
    #[allow(deprecated)]
    let native = matches!(
        device.clone().inner().as_dispatch(),
        DispatchDevice::Flex(_) | DispatchDevice::NdArray(_)
    );
    native
}

/// Pads with zero fill (constant mode) — see [`pad_with`].
///
/// ```
/// use burn::tensor::{Device, Int, Tensor};
/// let x = Tensor::<1, Int>::from_ints([1, 2, 3], &Device::flex());
/// let y = padkit_burn::pad(x, &padkit::PadSpec::new(vec![-1, 1])).unwrap();
/// assert_eq!(y.into_data().convert::<i64>().to_vec::<i64>().unwrap(), vec![2, 3, 0]);
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
/// ```
/// use burn::tensor::{DType, Device, Int, Tensor};
/// let x = Tensor::<1, Int>::from_data([1i64, 2], (&Device::flex(), DType::I64));
/// let y = padkit_burn::pad_with(x, &padkit::PadSpec::new(vec![1, 0]), 16_777_217i64).unwrap();
/// assert_eq!(y.into_data().to_vec::<i64>().unwrap(), vec![16_777_217, 1, 2]);
/// ```
pub fn pad_with<const D: usize, K: PadKind>(
    tensor: Tensor<D, K>,
    spec: &PadSpec,
    fill: impl Into<Fill>,
) -> Result<Tensor<D, K>, PadError> {
    let fill = fill.into();
    let dtype = tensor.dtype();
    let width = fill::width(dtype)?;
    let plan = Plan::new(&tensor.dims(), spec, width)?;
    fill.bytes(dtype)?;
    // The backends allocate the output infallibly: make sure it can be.
    padkit::check_allocatable(plan.output_len() * width)?;
    if has_native_kernel(&tensor.device()) {
        let out = K::native(tensor.into_dispatch(), spec.clone(), fill);
        Ok(Tensor::from_dispatch(out))
    } else {
        pad_composed(tensor, spec, fill)
    }
}

/// `tensor.padkit_pad(&spec)`-style calls.
pub trait PadExt: Sized {
    /// [`pad`] as a method.
    fn padkit_pad(self, spec: &PadSpec) -> Result<Self, PadError>;
    /// [`pad_with`] as a method.
    fn padkit_pad_with(self, spec: &PadSpec, fill: impl Into<Fill>) -> Result<Self, PadError>;
}

impl<const D: usize, K: PadKind> PadExt for Tensor<D, K> {
    fn padkit_pad(self, spec: &PadSpec) -> Result<Self, PadError> {
        pad(self, spec)
    }
    fn padkit_pad_with(self, spec: &PadSpec, fill: impl Into<Fill>) -> Result<Self, PadError> {
        pad_with(self, spec, fill)
    }
}
