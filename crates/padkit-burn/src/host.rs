//! padkit's kernels on host bytes of a Burn tensor: the body of the native path.

use std::mem::MaybeUninit;

use burn::tensor::{Bytes, DType, TensorData};
use padkit::adjoint::pad_adjoint_in_place;
use padkit::half::{bf16, f16};
use padkit::{PadError, PadSpec, Plan};

use crate::Fill;
use crate::fill::width;

/// Runs `plan` on `input`, the row-major bytes of a `dtype` tensor of the plan's input
/// shape, with the byte-width kernel; returns the output shape and bytes.
///
/// The output is allocated as words of the element's width, so it is aligned for the
/// element type and backends that reclaim typed vectors keep it without a copy, and the
/// kernel writes straight into its uninitialised capacity: every output byte is written
/// once.
pub(crate) fn pad_host(
    input: &[u8],
    plan: &Plan,
    dtype: DType,
    fill: Fill,
) -> Result<(Vec<usize>, Bytes), PadError> {
    let value = crate::fill::bytes(fill, dtype)?;
    let bytes = match width(dtype)? {
        1 => Bytes::from_elems(padded_words::<u8>(plan, input, &value)?),
        2 => Bytes::from_elems(padded_words::<u16>(plan, input, &value)?),
        4 => Bytes::from_elems(padded_words::<u32>(plan, input, &value)?),
        8 => Bytes::from_elems(padded_words::<u64>(plan, input, &value)?),
        other => return Err(PadError::UnsupportedType(format!("{other}-byte elements"))),
    };
    Ok((plan.output_shape().to_vec(), bytes))
}

/// Runs `plan` on elements of `W`'s width into a new vector of `W` words.
fn padded_words<W: Copy>(plan: &Plan, input: &[u8], value: &[u8]) -> Result<Vec<W>, PadError> {
    let len = plan.output_len();
    let mut words: Vec<W> = Vec::new();
    words.try_reserve_exact(len).map_err(|_| PadError::Alloc {
        bytes: len.saturating_mul(size_of::<W>()),
    })?;
    let spare = &mut words.spare_capacity_mut()[..len];
    padkit::memory::prefer_huge_pages(spare);
    let byte_len = size_of_val(spare);
    // SAFETY: the view covers exactly the storage of `len` words of spare capacity, and
    // `MaybeUninit<u8>` has alignment 1 and no validity requirement, so any bytes of it
    // (initialised or not) may be viewed and written this way.
    let bytes = unsafe {
        std::slice::from_raw_parts_mut(spare.as_mut_ptr().cast::<MaybeUninit<u8>>(), byte_len)
    };
    plan.run_bytes(input, value, bytes)?;
    // SAFETY: `run_bytes` returned Ok, so every byte of the first `len` words is written,
    // and any bytes are a valid `W` (an unsigned integer).
    unsafe { words.set_len(len) };
    Ok(words)
}

/// The adjoint of the pad of an input of `in_shape`, applied to the gradient `grad`
/// (whose buffer is reused as scratch).
#[cfg_attr(not(feature = "autodiff"), allow(dead_code))]
pub(crate) fn adjoint_data(
    mut grad: TensorData,
    in_shape: &[usize],
    spec: &PadSpec,
) -> Result<TensorData, PadError> {
    fn typed<T>(
        grad: &mut TensorData,
        in_shape: &[usize],
        spec: &PadSpec,
    ) -> Result<TensorData, PadError>
    where
        T: burn::tensor::Element
            + padkit::bytemuck::Pod
            + Default
            + std::ops::AddAssign
            + Send
            + Sync,
    {
        let g = grad
            .as_mut_slice::<T>()
            .map_err(|e| PadError::UnsupportedType(format!("{e:?}")))?;
        Ok(TensorData::new(
            pad_adjoint_in_place(g, in_shape, spec)?,
            in_shape.to_vec(),
        ))
    }
    match grad.dtype() {
        DType::F64 => typed::<f64>(&mut grad, in_shape, spec),
        DType::F32 => typed::<f32>(&mut grad, in_shape, spec),
        DType::F16 => typed::<f16>(&mut grad, in_shape, spec),
        DType::BF16 => typed::<bf16>(&mut grad, in_shape, spec),
        other => Err(PadError::UnsupportedType(format!(
            "gradient of type {other:?}"
        ))),
    }
}
