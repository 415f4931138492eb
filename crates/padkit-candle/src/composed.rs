//! The path for devices without padkit's kernel: a pad composed from candle ops, which
//! candle differentiates. One `index_select` per padded axis, with the index map planned
//! by padkit; fill positions select from a one-slice block of the fill appended with
//! `cat`.

use candle_core::{Device, Tensor};
use padkit::PadSpec;
use padkit::axis_map::axis_sources;

use crate::kernel::{PadOp, differentiable};
use crate::{Error, Fill};

/// Pads `x` through candle ops only (any device), filling with `fill`.
///
/// # Errors
///
/// As [`pad_with`](crate::pad_with): [`Error::Pad`] when the spec does not fit `x`, `fill`
/// is not exact in its dtype, or the output is too large; [`Error::Candle`] when an op
/// fails.
///
/// ```
/// use candle_core::{Device, Tensor};
/// use padkit::{PadMode, PadSpec};
/// let x = Tensor::new(&[1f32, 2.0, 3.0], &Device::Cpu).unwrap();
/// let spec = PadSpec::new(vec![2, -1]).with_mode(PadMode::Wrap);
/// let y = padkit_candle::route::pad_composed(&x, &spec, padkit_candle::Fill::Zero).unwrap();
/// assert_eq!(y.to_vec1::<f32>().unwrap(), [1.0, 2.0, 1.0, 2.0]);
/// ```
pub fn pad_composed(x: &Tensor, spec: &PadSpec, fill: Fill) -> Result<Tensor, Error> {
    pad(x, &PadOp::new(x, spec, fill)?)
}

/// The composed pad of a checked op.
pub(crate) fn pad(x: &Tensor, op: &PadOp) -> Result<Tensor, Error> {
    let shape = x.dims().to_vec();
    let out_shape = op.plan.output_shape();
    // An empty output is an empty view of the input; an empty input pads to all fill.
    // Either is tied to the input in candle's graph, so that its gradient is zeros, not
    // absent.
    if op.plan.output_len() == 0 {
        return Ok(x.flatten_all()?.narrow(0, 0, 0)?.reshape(out_shape)?);
    }
    if shape.contains(&0) {
        let out = fill_block(out_shape, op, x.device())?;
        return Ok(keep_in_graph(out, x)?);
    }
    let pads = op.spec.resolve(shape.len())?;
    // (candle's index_select reads contiguous tensors only)
    let mut x = x.contiguous()?;
    for (axis, (pad, &extent)) in pads.iter().zip(&shape).enumerate() {
        if pad.is_identity() {
            continue;
        }
        let sources = axis_sources(axis, extent, pad, op.spec.mode)?;
        if sources.iter().any(Option::is_none) {
            let mut block = x.dims().to_vec();
            block[axis] = 1;
            let block = fill_block(&block, op, x.device())?;
            x = Tensor::cat(&[&x, &block], axis)?;
        }
        // the appended block sits at `extent`
        let index: Vec<i64> = sources.iter().map(|s| s.unwrap_or(extent) as i64).collect();
        let len = index.len();
        let index = Tensor::from_vec(index, len, x.device())?;
        x = x.index_select(&index, axis)?;
    }
    Ok(x)
}

/// A tensor of `shape` full of `op`'s fill, of its dtype, on `device`: one element made
/// from the fill's bytes, broadcast.
fn fill_block(shape: &[usize], op: &PadOp, device: &Device) -> candle_core::Result<Tensor> {
    let one = Tensor::from_raw_buffer(&op.fill, op.dtype, &[1], device)?;
    one.reshape(vec![1; shape.len()])?
        .broadcast_as(shape)?
        .contiguous()
}

/// `out` (the pad of the empty `input`: all fill), tied to `input` in candle's graph for a
/// float `input`: `out · (sum(input) + 1)`, where the sum of no element is 0, so every
/// value of `out` is kept exactly (−0, ∞ and NaN too), and the gradient sent to `input`
/// is zeros.
fn keep_in_graph(out: Tensor, input: &Tensor) -> candle_core::Result<Tensor> {
    if !differentiable(input.dtype()) {
        return Ok(out);
    }
    let one = input.sum_all()?.affine(1.0, 1.0)?;
    out.broadcast_mul(&one)
}
