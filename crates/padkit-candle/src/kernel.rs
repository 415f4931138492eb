//! The CPU path: padkit's kernel on candle's storage, as a `CustomOp1` whose backward is
//! padkit's adjoint (itself a `CustomOp1`, whose backward is the pad again: gradients of
//! any order).

use std::borrow::Cow;

use candle_core::{CpuStorage, CustomOp1, DType, Layout, Shape, Tensor};
use padkit::{PadError, PadSpec, Plan, pad_adjoint};

use crate::{Error, Fill};

/// A checked pad of one input shape and dtype: its plan and its fill element's bytes.
#[derive(Debug, Clone)]
pub(crate) struct PadOp {
    pub(crate) spec: PadSpec,
    pub(crate) plan: Plan,
    pub(crate) dtype: DType,
    pub(crate) fill: Vec<u8>,
}

impl PadOp {
    /// The pad of `x` by `spec` with `fill`, checked: the spec fits, the output can be
    /// indexed and allocated, the fill is exact in `x`'s dtype.
    pub(crate) fn new(x: &Tensor, spec: &PadSpec, fill: Fill) -> Result<PadOp, Error> {
        let dtype = x.dtype();
        // Elements as candle stores them: its 6- and 4-bit floats take a byte each.
        let width = dtype.size_in_bytes().max(1);
        Ok(PadOp {
            spec: spec.clone(),
            plan: Plan::new(x.dims(), spec, width)?,
            dtype,
            fill: crate::fill::bytes(fill, dtype)?,
        })
    }
}

/// An error of this crate's own making inside a custom op, as candle reports it.
fn op_error(e: impl Into<Error>) -> candle_core::Error {
    candle_core::Error::from(e.into())
}

/// The input's elements in row-major order: in place where `layout` holds them in a row
/// (a contiguous tensor, at any offset), else gathered through its strides (a transposed,
/// narrowed or broadcast view) into one copy.
fn window<'s, T: Copy>(data: &'s [T], layout: &Layout) -> candle_core::Result<Cow<'s, [T]>> {
    let past_the_end = || candle_core::Error::msg("a layout past the end of its storage");
    if let Some((start, end)) = layout.contiguous_offsets() {
        return data
            .get(start..end)
            .map(Cow::Borrowed)
            .ok_or_else(past_the_end);
    }
    let (dims, strides) = (layout.dims(), layout.stride());
    let len = layout.shape().elem_count();
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| {
        op_error(PadError::Alloc {
            bytes: len.saturating_mul(size_of::<T>()),
        })
    })?;
    // an odometer over the output's indices, the offset kept in step
    let mut index = vec![0usize; dims.len()];
    let mut offset = layout.start_offset();
    for _ in 0..len {
        out.push(*data.get(offset).ok_or_else(past_the_end)?);
        for axis in (0..dims.len()).rev() {
            index[axis] += 1;
            offset += strides[axis];
            if index[axis] < dims[axis] {
                break;
            }
            offset -= strides[axis] * dims[axis];
            index[axis] = 0;
        }
    }
    Ok(Cow::Owned(out))
}

impl CustomOp1 for PadOp {
    fn name(&self) -> &'static str {
        "padkit-pad"
    }

    fn cpu_fwd(
        &self,
        storage: &CpuStorage,
        layout: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        debug_assert_eq!(layout.dims(), self.plan.input_shape());
        macro_rules! run {
            ($($variant:ident),*) => {
                match storage {
                    $(CpuStorage::$variant(data) => {
                        let input = window(data, layout)?;
                        let input = &input[..];
                        let fill = bytemuck::pod_read_unaligned(&self.fill);
                        CpuStorage::$variant(self.plan.run_to_vec(input, &fill).map_err(op_error)?)
                    })*
                }
            };
        }
        let out = run!(
            U8, U32, I16, I32, I64, BF16, F16, F32, F64, F8E4M3, F6E2M3, F6E3M2, F4, F8E8M0
        );
        Ok((out, Shape::from(self.plan.output_shape())))
    }

    fn bwd(
        &self,
        arg: &Tensor,
        _res: &Tensor,
        grad_res: &Tensor,
    ) -> candle_core::Result<Option<Tensor>> {
        let adjoint = Adjoint {
            pad: self.clone(),
            input_shape: arg.dims().to_vec(),
        };
        grad_res.apply_op1(adjoint).map(Some)
    }
}

/// The adjoint of a [`PadOp`]: each output-gradient element summed onto the input element
/// it was read from (padkit's [`pad_adjoint`]).
#[derive(Debug, Clone)]
struct Adjoint {
    pad: PadOp,
    input_shape: Vec<usize>,
}

impl CustomOp1 for Adjoint {
    fn name(&self) -> &'static str {
        "padkit-pad-adjoint"
    }

    fn cpu_fwd(
        &self,
        storage: &CpuStorage,
        layout: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        let (spec, shape) = (&self.pad.spec, &self.input_shape[..]);
        macro_rules! run {
            ($($variant:ident),*) => {
                match storage {
                    $(CpuStorage::$variant(data) => CpuStorage::$variant(
                        pad_adjoint(&window(data, layout)?, shape, spec).map_err(op_error)?,
                    ),)*
                    _ => return Err(op_error(Error::NoGradient(self.pad.dtype))),
                }
            };
        }
        let grad = run!(BF16, F16, F32, F64);
        Ok((grad, Shape::from(shape)))
    }

    /// The adjoint is linear: its own adjoint is the pad with zero fill.
    fn bwd(
        &self,
        _arg: &Tensor,
        _res: &Tensor,
        grad_res: &Tensor,
    ) -> candle_core::Result<Option<Tensor>> {
        let zero = PadOp {
            fill: vec![0; self.pad.fill.len()],
            ..self.pad.clone()
        };
        grad_res.apply_op1(zero).map(Some)
    }
}

/// Whether padkit differentiates pads of `dtype` (the float types its adjoint sums in).
pub(crate) fn differentiable(dtype: DType) -> bool {
    matches!(dtype, DType::BF16 | DType::F16 | DType::F32 | DType::F64)
}
