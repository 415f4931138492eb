//! The generic path: a pad composed from Burn tensor ops, for every backend and kind, and
//! differentiable for float tensors. One `select` per padded axis, with the index map
//! planned by padkit; fill positions select from a one-slice constant block appended with
//! `cat`.

use burn::tensor::{Int, Tensor, TensorData, kind::Basic};
use padkit::{PadError, PadSpec, Plan, axis_sources};

use crate::Fill;
use crate::fill::width;

/// Pads `x` through Burn tensor ops only (works on any backend).
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit::{PadMode, PadSpec};
/// let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &Device::flex());
/// let spec = PadSpec::new(vec![2, -1]).with_mode(PadMode::Wrap);
/// let y = padkit_burn::pad_composed(x, &spec, padkit_burn::Fill::Zero).unwrap();
/// assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 1.0, 2.0]);
/// ```
pub fn pad_composed<const D: usize, K: Basic>(
    x: Tensor<D, K>,
    spec: &PadSpec,
    fill: Fill,
) -> Result<Tensor<D, K>, PadError> {
    let shape = x.dims();
    let (dtype, device) = (x.dtype(), x.device());
    let plan = Plan::new(&shape, spec, width(dtype)?)?;
    fill.bytes(dtype)?;
    // Burn allocates infallibly: make sure the output can be.
    padkit::check_allocatable(plan.output_len() * width(dtype)?)?;
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
            let options = (&device, dtype);
            let block = if dtype.is_float() {
                Tensor::full(block, fill.float(), options)
            } else if dtype.is_bool() {
                Tensor::full(block, fill.integer(dtype)? != 0, options)
            } else {
                Tensor::full(block, fill.integer(dtype)?, options)
            };
            x = Tensor::cat(vec![x, block], axis);
        }
        let fill_at = shape[axis] as i64; // the appended block
        let idx: Vec<i64> = sources
            .iter()
            .map(|s| s.map_or(fill_at, |s| s as i64))
            .collect();
        let len = idx.len();
        x = x.select(
            axis,
            Tensor::<1, Int>::from_data(TensorData::new(idx, [len]), &device),
        );
        if x.dtype() != dtype {
            // Burn 0.22.1's Flex `select` returns a Bool tensor as U8: restore the type.
            x = Tensor::from_data(x.into_data().convert_dtype(dtype), &device);
        }
    }
    Ok(x)
}
