//! The native pad on Burn's NdArray backend (the `ndarray` feature). NdArray is deprecated
//! in Burn 0.22 in favour of Flex; padkit-burn still serves it.
#![allow(deprecated)]

use burn::backend::ndarray::NdArrayTensor;
use burn::backend::{NdArray, TensorMetadata};
use burn::tensor::{Bytes, TensorData};
use padkit::Plan;

use super::{CHECKED, Checked, PadBackend};
use crate::Fill;
use crate::counters::{Counter, count};
use crate::host::pad_host;

impl PadBackend for NdArray {
    fn padkit_pad_float(x: NdArrayTensor, checked: Checked) -> NdArrayTensor {
        ndarray_pad(&x, &checked.plan, checked.fill)
    }

    fn padkit_pad_int(x: NdArrayTensor, checked: Checked) -> NdArrayTensor {
        ndarray_pad(&x, &checked.plan, checked.fill)
    }

    fn padkit_pad_bool(x: NdArrayTensor, checked: Checked) -> NdArrayTensor {
        ndarray_pad(&x, &checked.plan, checked.fill)
    }
}

/// Pads an NdArray tensor of any kind, reading its array in place when it is in standard
/// layout (copying it to that layout first otherwise).
fn ndarray_pad(x: &NdArrayTensor, plan: &Plan, fill: Fill) -> NdArrayTensor {
    count(Counter::Host);
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
                    pad_elements(elements, view.shape(), x.dtype(), plan, fill)
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
    plan: &Plan,
    fill: Fill,
) -> (Vec<usize>, Bytes) {
    debug_assert_eq!(plan.input_shape(), shape, "{CHECKED}");
    // SAFETY: the elements are numbers or bools, which have no padding bytes, so all
    // `size_of_val(elements)` bytes behind the slice are initialised and may be read.
    let bytes = unsafe {
        std::slice::from_raw_parts(elements.as_ptr().cast::<u8>(), size_of_val(elements))
    };
    pad_host(bytes, plan, dtype, fill).expect(CHECKED)
}
