//! The adjoint of pad: what reverse-mode autodiff needs.

use std::ops::AddAssign;

use crate::axis_map::AxisMap;
use crate::{PadError, PadSpec, Plan, Result};

/// Accumulates each output-gradient element onto the input element it was read from.
///
/// Fill positions contribute nothing and cropped input positions get zero. It needs only
/// shapes, never the input values. Pad is separable, so the adjoint is applied one axis at
/// a time, shrinking the gradient from the output shape to `input_shape`.
///
/// ```
/// use padkit::{pad_adjoint, PadSpec, PadMode};
/// // reflect [a,b,c,d,e] by (2, 3): a b c reach the output 1, 3, 3 times...
/// let spec = PadSpec::new(vec![2, 3]).with_mode(PadMode::Reflect);
/// let grad = pad_adjoint(&[1.0f64; 10], &[5], &spec).unwrap();
/// assert_eq!(grad, vec![1.0, 3.0, 3.0, 2.0, 1.0]);
/// ```
pub fn pad_adjoint<T>(grad_output: &[T], input_shape: &[usize], spec: &PadSpec) -> Result<Vec<T>>
where
    T: Copy + Default + AddAssign,
{
    let plan = Plan::new(input_shape, spec, size_of::<T>())?;
    let out_shape = plan.output_shape();
    if grad_output.len() != plan.output_len() {
        return Err(PadError::DataLength {
            what: "output gradient",
            shape: out_shape.to_vec(),
            expected: plan.output_len(),
            got: grad_output.len(),
        });
    }
    let pads = spec.resolve(input_shape.len())?;
    let mut shape = out_shape.to_vec();
    let mut grad = grad_output.to_vec();
    for axis in (0..shape.len()).rev() {
        if pads[axis].is_identity() {
            continue;
        }
        let d = input_shape[axis];
        let map = AxisMap::new(d, &pads[axis], spec.mode, shape[axis]);
        grad = fold_axis(&grad, &shape, axis, d, &map)?;
        shape[axis] = d;
    }
    Ok(grad)
}

/// One axis of the adjoint: `new[.., s, ..] += grad[.., i, ..]` for each `i → s`.
fn fold_axis<T: Copy + Default + AddAssign>(
    grad: &[T],
    shape: &[usize],
    axis: usize,
    d: usize,
    map: &AxisMap,
) -> Result<Vec<T>> {
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let o = shape[axis];
    let mut new = crate::kernel::alloc(outer * d * inner, T::default())?;
    if inner == 0 || o == 0 || d == 0 {
        return Ok(new); // nothing flows: the gradient is all zeros (or empty)
    }
    for (src_blk, dst_blk) in grad.chunks(o * inner).zip(new.chunks_mut(d * inner)) {
        map.for_each_source(|i, s| {
            let from = &src_blk[i * inner..(i + 1) * inner];
            for (acc, g) in dst_blk[s * inner..(s + 1) * inner].iter_mut().zip(from) {
                *acc += *g;
            }
        });
    }
    Ok(new)
}
