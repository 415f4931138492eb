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
#![allow(deprecated)] // NdArray is deprecated in Burn 0.22 in favour of Flex; both are served.

use burn::backend::autodiff::checkpoint::{base::Checkpointer, strategy::CheckpointStrategy};
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind, unary};
use burn::backend::flex::{FlexTensor, Layout};
use burn::backend::ndarray::NdArrayTensor;
use burn::backend::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn::backend::{
    Autodiff, Backend, Dispatch, Flex, NdArray, TensorMetadata, backend_extension,
};
use burn::tensor::{Bool, DispatchTensor, Float, Int};
use burn::tensor::{Bytes, DType, Shape, TensorData, read_sync};
use padkit::{PadError, PadSpec};

use crate::Fill;
use crate::fill::width;
use crate::host::{adjoint_data, pad_host};

const CHECKED: &str = "a Checked pad was checked against this tensor when it was made";

/// A pad checked against one tensor's shape and type (spec, fill, output allocation).
/// Only [`Checked::new`], inside padkit-burn, makes one.
#[derive(Debug, Clone)]
pub struct Checked {
    spec: PadSpec,
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
        crate::check(dims, dtype, spec, fill)?;
        Ok(Checked {
            spec: spec.clone(),
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
#[backend_extension(Flex, NdArray, Autodiff)]
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
        flex_pad(x, &checked.spec, checked.fill)
    }

    fn padkit_pad_int(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.spec, checked.fill)
    }

    fn padkit_pad_bool(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.spec, checked.fill)
    }
}

/// Pads a Flex tensor of any kind, reading its buffer in place (strided views are made
/// contiguous first).
fn flex_pad(x: FlexTensor, spec: &PadSpec, fill: Fill) -> FlexTensor {
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
    let (shape, bytes) = pad_host(input, x.layout().shape(), x.dtype(), spec, fill).expect(CHECKED);
    FlexTensor::new(bytes, Layout::contiguous(Shape::from(shape)), x.dtype())
}

impl PadBackend for NdArray {
    fn padkit_pad_float(x: NdArrayTensor, checked: Checked) -> NdArrayTensor {
        ndarray_pad(&x, &checked.spec, checked.fill)
    }

    fn padkit_pad_int(x: NdArrayTensor, checked: Checked) -> NdArrayTensor {
        ndarray_pad(&x, &checked.spec, checked.fill)
    }

    fn padkit_pad_bool(x: NdArrayTensor, checked: Checked) -> NdArrayTensor {
        ndarray_pad(&x, &checked.spec, checked.fill)
    }
}

/// Pads an NdArray tensor of any kind, reading its array in place when it is in standard
/// layout (copying it to that layout first otherwise).
fn ndarray_pad(x: &NdArrayTensor, spec: &PadSpec, fill: Fill) -> NdArrayTensor {
    macro_rules! each_variant {
        ($($variant:ident)*) => {
            match x {
                $(NdArrayTensor::$variant(storage) => {
                    let view = storage.view();
                    let copied: Vec<_>;
                    let elements = match view.as_slice() {
                        Some(elements) => elements,
                        None => {
                            copied = view.iter().copied().collect();
                            &copied
                        }
                    };
                    pad_elements(elements, view.shape(), x.dtype(), spec, fill)
                })*
            }
        };
    }
    let (shape, bytes) = each_variant!(F64 F32 I64 I32 I16 I8 U64 U32 U16 U8 Bool);
    NdArrayTensor::from_data(TensorData::from_bytes(bytes, shape, x.dtype()))
}

/// `pad_host` on a slice of a backend's plain elements (numbers or bool).
fn pad_elements<E: Copy>(
    elements: &[E],
    shape: &[usize],
    dtype: burn::tensor::DType,
    spec: &PadSpec,
    fill: Fill,
) -> (Vec<usize>, Bytes) {
    // SAFETY: the elements are numbers or bools, which have no padding bytes, so all
    // `size_of_val(elements)` bytes behind the slice are initialised and may be read.
    let bytes = unsafe {
        std::slice::from_raw_parts(elements.as_ptr().cast::<u8>(), size_of_val(elements))
    };
    pad_host(bytes, shape, dtype, spec, fill).expect(CHECKED)
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
