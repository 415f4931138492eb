//! The native path: a Burn backend extension whose Flex and NdArray implementations run
//! padkit's kernel on the backend's buffer, whose CubeCL implementation launches padkit's
//! CubeCL kernel (recorded by burn-fusion as one operation where the backend fuses), and
//! whose `Autodiff` implementation registers a backward that runs padkit's adjoint
//! (shape-only: nothing is checkpointed).
//!
//! The CPU backends lend their buffers: the kernel reads the input tensor's elements in
//! place (strided views are made contiguous first) and writes one new, element-aligned
//! buffer that the backend adopts without a copy.
//!
//! The backend operations take a [`Checked`]: a spec and fill checked against the tensor
//! (and its output's allocation tried) by padkit-burn, which alone can make one; the trait
//! itself is not reachable from outside the crate. So the kernels cannot meet a spec they
//! would have to refuse.
// The extension's generated dispatch names NdArray, deprecated in Burn 0.22 in favour of
// Flex; padkit-burn serves both.
#![allow(deprecated)]

use burn::backend::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn::backend::{Backend, Dispatch, TensorMetadata, backend_extension};
use burn::tensor::{Bool, DType, DispatchTensor, Float, Int, Shape, TensorData, read_sync};
use padkit::{PadError, PadSpec, Plan};

use crate::Fill;
use crate::counters::{Counter, count};
use crate::host::adjoint_data;

#[cfg(feature = "autodiff")]
mod autodiff;
#[cfg(feature = "cube")]
mod cube;
#[cfg(feature = "flex")]
mod flex;

#[cfg(feature = "ndarray")]
mod ndarray;

const CHECKED: &str = "a Checked pad was checked against this tensor when it was made";

/// A pad checked against one tensor's shape and type (spec, fill, output allocation),
/// with its plan, which the backend runs. Only [`Checked::new`], inside padkit-burn,
/// makes one.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Kept for the backward pass, which plans the adjoint from it, and for the CubeCL
    /// kernel's tables.
    #[cfg_attr(not(any(feature = "autodiff", feature = "cube")), allow(dead_code))]
    spec: PadSpec,
    plan: Plan,
    fill: Fill,
}

impl Checked {
    /// Checks `spec` and `fill` for a tensor of `dims` and `dtype`.
    pub(crate) fn new(
        dims: &[usize],
        dtype: DType,
        spec: &PadSpec,
        fill: Fill,
    ) -> Result<Checked, PadError> {
        let plan = crate::check::check(dims, dtype, spec, fill)?;
        Ok(Checked {
            spec: spec.clone(),
            plan,
            fill,
        })
    }

    /// The output's shape.
    #[cfg_attr(not(feature = "fusion"), allow(dead_code))]
    pub(crate) fn output(&self) -> &[usize] {
        self.plan.output_shape()
    }
}

/// The native pad of a tensor kind, through [`PadBackend`].
pub trait Native {
    /// Pads `x` on its backend.
    fn native(x: DispatchTensor, checked: Checked) -> DispatchTensor;
}

impl Native for Float {
    fn native(x: DispatchTensor, checked: Checked) -> DispatchTensor {
        <Dispatch as PadBackend>::padkit_pad_float(x, checked)
    }
}

impl Native for Int {
    fn native(x: DispatchTensor, checked: Checked) -> DispatchTensor {
        <Dispatch as PadBackend>::padkit_pad_int(x, checked)
    }
}

impl Native for Bool {
    fn native(x: DispatchTensor, checked: Checked) -> DispatchTensor {
        <Dispatch as PadBackend>::padkit_pad_bool(x, checked)
    }
}

/// A host buffer of a backend tensor (the gradient is usually unique, so Flex hands its
/// own buffer over).
#[cfg_attr(not(feature = "autodiff"), allow(dead_code))]
fn host<E: std::fmt::Debug>(data: impl Future<Output = Result<TensorData, E>>) -> TensorData {
    read_sync(data).expect("CPU backends read their tensors synchronously")
}

/// True when the CubeCL kernel's index tables for a pad of `input` to `output` fit its
/// 32-bit indexing.
#[cfg(feature = "cube")]
pub(crate) fn cube_tables_fit(input: &[usize], output: &[usize]) -> bool {
    cube::tables::fit(input, output)
}

/// The output shape of a checked pad, for burn-fusion, which records the operation before
/// it runs.
#[cfg_attr(not(feature = "fusion"), allow(dead_code))]
fn output_shape(checked: &Checked) -> Shape {
    Shape::from(checked.output().to_vec())
}

/// Pad as a backend operation, with its backward.
#[backend_extension(
    Flex: cfg(feature = "flex"),
    NdArray: cfg(feature = "ndarray"),
    Cube: cfg(feature = "cube"),
    Fusion: cfg(feature = "fusion"),
    Autodiff: cfg(feature = "autodiff")
)]
pub trait PadBackend: Backend {
    /// Pads a float tensor.
    #[fusion(dtype = x, shape = output_shape(checked))]
    fn padkit_pad_float(x: FloatTensor<Self>, checked: Checked) -> FloatTensor<Self>;

    /// The adjoint of `padkit_pad_float` for an input of `in_shape`. The CPU backends run
    /// this body on the gradient's host buffer; CubeCL runs its adjoint kernel on the
    /// device. Only the `autodiff` feature's backward calls it.
    #[cfg_attr(not(feature = "autodiff"), allow(dead_code))]
    #[fusion(dtype = grad, shape = Shape::from(in_shape.clone()))]
    fn padkit_pad_float_backward(
        grad: FloatTensor<Self>,
        in_shape: Vec<usize>,
        spec: PadSpec,
    ) -> FloatTensor<Self> {
        count(Counter::Host);
        let device = grad.device();
        let out = adjoint_data(host(Self::float_into_data(grad)), &in_shape, &spec).expect(CHECKED);
        Self::float_from_data(out, &device)
    }

    /// Pads an int tensor.
    #[fusion(dtype = x, shape = output_shape(checked))]
    fn padkit_pad_int(x: IntTensor<Self>, checked: Checked) -> IntTensor<Self>;

    /// Pads a bool tensor.
    #[fusion(dtype = x, shape = output_shape(checked))]
    fn padkit_pad_bool(x: BoolTensor<Self>, checked: Checked) -> BoolTensor<Self>;
}
