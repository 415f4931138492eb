//! The native path: a Burn backend extension whose Flex and NdArray implementations run
//! padkit's kernel on the backend's buffer, and whose `Autodiff` implementation registers
//! a backward that calls padkit's adjoint (shape-only: nothing is checkpointed).
//!
//! Both lend their buffers: the kernel reads the input tensor's elements in place (strided
//! views are made contiguous first) and writes one new, element-aligned buffer that the
//! backend adopts without a copy.
//!
//! The backend operations take a [`Checked`]: a spec and fill checked against the tensor
//! (and its output's allocation tried) by padkit-burn, which alone can make one; the trait
//! itself is not reachable from outside the crate. So the kernels cannot meet a spec they
//! would have to refuse.
// The extension's generated dispatch names NdArray, deprecated in Burn 0.22 in favour of
// Flex; padkit-burn serves both.
#![allow(deprecated)]

use burn::backend::autodiff::checkpoint::{base::Checkpointer, strategy::CheckpointStrategy};
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind, unary};
use burn::backend::flex::{FlexTensor, Layout};
use burn::backend::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn::backend::{Autodiff, Backend, Dispatch, Flex, TensorMetadata, backend_extension};
use burn::tensor::{Bool, DispatchTensor, Float, Int};
use burn::tensor::{DType, Shape, TensorData, read_sync};
use padkit::{PadError, PadSpec, Plan};

use crate::Fill;
use crate::fill::width;
use crate::host::{adjoint_data, pad_host};

#[cfg(feature = "ndarray")]
mod ndarray;

const CHECKED: &str = "a Checked pad was checked against this tensor when it was made";

/// A pad checked against one tensor's shape and type (spec, fill, output allocation),
/// with its plan, which the backend runs. Only [`Checked::new`], inside padkit-burn,
/// makes one.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Kept for the backward pass, which plans the adjoint from it.
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
        let plan = crate::check(dims, dtype, spec, fill)?;
        Ok(Checked {
            spec: spec.clone(),
            plan,
            fill,
        })
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
fn host<E: std::fmt::Debug>(data: impl Future<Output = Result<TensorData, E>>) -> TensorData {
    read_sync(data).expect("CPU backends read their tensors synchronously")
}

/// Pad as a backend operation, with its backward.
#[backend_extension(Flex, NdArray: cfg(feature = "ndarray"), Autodiff)]
pub trait PadBackend: Backend {
    /// Pads a float tensor.
    fn padkit_pad_float(x: FloatTensor<Self>, checked: Checked) -> FloatTensor<Self>;

    /// The adjoint of `padkit_pad_float` for an input of `in_shape`; both listed backends
    /// run this body on the gradient's host buffer.
    fn padkit_pad_float_backward(
        grad: FloatTensor<Self>,
        in_shape: Vec<usize>,
        spec: PadSpec,
    ) -> FloatTensor<Self> {
        let device = grad.device();
        let out = adjoint_data(host(Self::float_into_data(grad)), &in_shape, &spec).expect(CHECKED);
        Self::float_from_data(out, &device)
    }

    /// Pads an int tensor.
    fn padkit_pad_int(x: IntTensor<Self>, checked: Checked) -> IntTensor<Self>;

    /// Pads a bool tensor.
    fn padkit_pad_bool(x: BoolTensor<Self>, checked: Checked) -> BoolTensor<Self>;
}

impl PadBackend for Flex {
    fn padkit_pad_float(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.plan, checked.fill)
    }

    fn padkit_pad_int(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.plan, checked.fill)
    }

    fn padkit_pad_bool(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.plan, checked.fill)
    }
}

/// Pads a Flex tensor of any kind, reading its buffer in place (strided views are made
/// contiguous first).
fn flex_pad(x: FlexTensor, plan: &Plan, fill: Fill) -> FlexTensor {
    let x = if x.is_contiguous() {
        x
    } else {
        x.to_contiguous()
    };
    let (start, end) = x
        .layout()
        .contiguous_offsets()
        .expect("made contiguous above");
    let w = width(x.dtype()).expect(CHECKED);
    let input = &x.bytes()[start * w..end * w];
    debug_assert_eq!(plan.input_shape(), &x.layout().shape()[..], "{CHECKED}");
    let (shape, bytes) = pad_host(input, plan, x.dtype(), fill).expect(CHECKED);
    FlexTensor::new(bytes, Layout::contiguous(Shape::from(shape)), x.dtype())
}

#[derive(Debug)]
struct PadBackward;

impl<B: PadBackend> Backward<B, 1> for PadBackward {
    type State = (Vec<usize>, PadSpec);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let (in_shape, spec) = ops.state;
        unary::<B, _>(ops.parents, ops.node, grads, |grad| {
            B::padkit_pad_float_backward(grad, in_shape, spec)
        });
    }
}

impl<B: PadBackend, C: CheckpointStrategy> PadBackend for Autodiff<B, C> {
    fn padkit_pad_float(x: FloatTensor<Self>, checked: Checked) -> FloatTensor<Self> {
        let (primitive, guard) = x.into_parts();
        let in_shape = primitive.shape().to_vec();
        match PadBackward.prepare::<C>([guard]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let spec = checked.spec.clone();
                let out = B::padkit_pad_float(primitive, checked);
                prep.finish((in_shape, spec), out)
            }
            OpsKind::UnTracked(prep) => prep.finish(B::padkit_pad_float(primitive, checked)),
        }
    }

    fn padkit_pad_int(x: IntTensor<Self>, checked: Checked) -> IntTensor<Self> {
        B::padkit_pad_int(x, checked)
    }

    fn padkit_pad_bool(x: BoolTensor<Self>, checked: Checked) -> BoolTensor<Self> {
        B::padkit_pad_bool(x, checked)
    }
}
