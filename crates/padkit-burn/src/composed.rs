//! The generic path: a pad composed from Burn tensor ops, for every backend and kind, and
//! differentiable for float tensors. One `select` per padded axis, with the index map
//! planned by padkit; fill positions select from a one-slice constant block appended with
//! `cat`.

use burn::tensor::{Bool, Device, Float, Int, Tensor, TensorData, kind::Basic};
use padkit::axis_map::axis_sources;
use padkit::{PadError, PadSpec};

use crate::Fill;

/// Pads `x` through Burn tensor ops only (works on any backend).
///
/// # Errors
///
/// As [`pad_with`](crate::pad_with): the spec does not fit `x`, `fill` is not exact in
/// its element type, or the output is too large.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit::{PadMode, PadSpec};
/// let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &Device::flex());
/// let spec = PadSpec::new(vec![2, -1]).with_mode(PadMode::Wrap);
/// let y = padkit_burn::route::pad_composed(x, &spec, padkit_burn::Fill::Zero).unwrap();
/// assert_eq!(y.into_data().try_to_vec::<f32>().unwrap(), vec![1.0, 2.0, 1.0, 2.0]);
/// ```
pub fn pad_composed<const D: usize, K: crate::PadKind>(
    x: Tensor<D, K>,
    spec: &PadSpec,
    fill: Fill,
) -> Result<Tensor<D, K>, PadError> {
    let shape = x.dims();
    let (dtype, device) = (x.dtype(), x.device());
    let plan = crate::check::check(&shape, dtype, spec, fill)?;
    let out_shape: [usize; D] = plan.output_shape().try_into().expect("rank D");
    // An empty output, or an empty input (all fill): made directly, then tied to the input
    // in the autodiff graph. Burn's `cat` drops empty tensors (and with them the graph),
    // and CubeCL's overflows on them.
    if plan.output_len() == 0 || shape.contains(&0) {
        let out = fill_block(out_shape, fill, &x)?;
        return Ok(K::keep_in_graph(out, x));
    }
    let pads = spec.resolve(D)?;
    let mut x = x;
    for axis in 0..D {
        if pads[axis].is_identity() {
            continue;
        }
        let sources = axis_sources(axis, shape[axis], &pads[axis], spec.mode)?;
        if sources.iter().any(Option::is_none) {
            let mut block = x.dims();
            block[axis] = 1;
            let block = fill_block(block, fill, &x)?;
            x = Tensor::cat(vec![x, block], axis);
        }
        let fill_at = shape[axis] as i64; // the appended block
        let idx: Vec<i64> = sources
            .iter()
            .map(|s| s.map_or(fill_at, |s| s as i64))
            .collect();
        x = x.select(axis, index(idx, &device));
        if x.dtype() != dtype {
            // Burn 0.22.1's Flex `select` returns a Bool tensor as U8: restore the type.
            x = Tensor::from_data(x.into_data().convert_dtype(dtype), &device);
        }
    }
    Ok(x)
}

/// A tensor of `shape` full of `fill`, of `like`'s type and on its device.
fn fill_block<const D: usize, K: Basic>(
    shape: [usize; D],
    fill: Fill,
    like: &Tensor<D, K>,
) -> Result<Tensor<D, K>, PadError> {
    let dtype = like.dtype();
    let device = like.device();
    let options = (&device, dtype);
    Ok(if dtype.is_float() {
        Tensor::full(shape, fill.float(), options)
    } else if dtype.is_bool() {
        Tensor::full(shape, fill.integer(&format!("{dtype:?}"))? != 0, options)
    } else {
        Tensor::full(shape, fill.integer(&format!("{dtype:?}"))?, options)
    })
}

/// An index tensor for `select`.
fn index(idx: Vec<i64>, device: &Device) -> Tensor<1, Int> {
    let len = idx.len();
    Tensor::<1, Int>::from_data(TensorData::new(idx, [len]), device)
}

/// How a composed pad that is empty, or all fill because its input is empty, stays in the
/// autodiff graph: made without the input, it would not depend on it, and `backward` from
/// it would find no tracked tensor (the gradient must be zeros).
pub trait KeepInGraph: Basic {
    /// `out` (the pad of `input`, empty or all fill), tied to `input` in the graph.
    fn keep_in_graph<const D: usize>(
        out: Tensor<D, Self>,
        input: Tensor<D, Self>,
    ) -> Tensor<D, Self>;
}

impl KeepInGraph for Float {
    /// Done whether or not `input` is tracked: Burn tells only with its `autodiff`
    /// feature, which a user may turn on without padkit-burn's, and the product costs a
    /// sum over `input` only when the output is empty.
    fn keep_in_graph<const D: usize>(out: Tensor<D>, input: Tensor<D>) -> Tensor<D> {
        // Either `out` has no element, or `input` has none and its sum is 0: either way
        // `out · (sum + 1)` keeps every value of `out` exactly (−0, ∞ and NaN too), and the
        // gradient it sends to `input` is zeros.
        let one = (input.sum() + 1.0).reshape([1; D]);
        out * one
    }
}

impl KeepInGraph for Int {
    fn keep_in_graph<const D: usize>(out: Tensor<D, Int>, _: Tensor<D, Int>) -> Tensor<D, Int> {
        out
    }
}

impl KeepInGraph for Bool {
    fn keep_in_graph<const D: usize>(out: Tensor<D, Bool>, _: Tensor<D, Bool>) -> Tensor<D, Bool> {
        out
    }
}
