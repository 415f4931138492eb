//! The adjoint of pad: what reverse-mode autodiff needs.

use std::ops::AddAssign;

use bytemuck::Pod;

use crate::axis_map::AxisMap;
use crate::{AxisPad, PadError, PadMode, PadSpec, Plan, Result};

/// Accumulates each output-gradient element onto the input element it was read from.
///
/// Fill positions contribute nothing and cropped input positions get zero. It needs only
/// shapes, never the input values.
///
/// # Errors
///
/// - the errors of [`Plan::new`] when `spec` does not fit `input_shape` or the padded
///   output is too large;
/// - [`PadError::DataLength`] when `grad_output` does not hold exactly the elements of
///   the padded output;
/// - [`PadError::Alloc`] when the gradient or a scratch buffer cannot be allocated.
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
    T: Pod + Default + AddAssign + Send + Sync,
{
    pad_adjoint_in_place(&mut grad_output.to_vec(), input_shape, spec)
}

/// [`pad_adjoint`] using `grad_output` as scratch space (its contents are unspecified
/// afterwards), which saves a copy when the caller owns the gradient.
///
/// Without interior padding it runs in two passes: each padded axis folds its border
/// positions onto the center positions they were copied from, in place; then the
/// centers are cut out by the pad kernel itself, as a constant pad with the pads negated.
///
/// # Errors
///
/// As [`pad_adjoint`]: the errors of [`Plan::new`] when `spec` does not fit
/// `input_shape` or the padded output is too large; [`PadError::DataLength`] when
/// `grad_output` does not hold exactly the elements of the padded output;
/// [`PadError::Alloc`] when the gradient or a scratch buffer cannot be allocated.
///
/// ```
/// use padkit::adjoint::pad_adjoint_in_place;
/// use padkit::{PadSpec, PadMode};
/// let spec = PadSpec::new(vec![1, 1]).with_mode(PadMode::Edge);
/// let mut grad = vec![1, 2, 3, 4];
/// assert_eq!(pad_adjoint_in_place(&mut grad, &[2], &spec).unwrap(), vec![3, 7]);
/// ```
pub fn pad_adjoint_in_place<T>(
    grad_output: &mut [T],
    input_shape: &[usize],
    spec: &PadSpec,
) -> Result<Vec<T>>
where
    T: Pod + Default + AddAssign + Send + Sync,
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
    if plan.output_len() == 0 || plan.input_len() == 0 {
        // Nothing flows back: the gradient is all zeros (or empty).
        return crate::memory::filled(plan.input_len(), T::default());
    }
    let pads = spec.resolve(input_shape.len())?;
    if pads.iter().any(|p| p.interior > 0) {
        return strided_adjoint(grad_output, input_shape, out_shape, &pads, spec.mode);
    }
    let mut maps = Vec::with_capacity(pads.len());
    for (axis, p) in pads.iter().enumerate() {
        let map = AxisMap::new(input_shape[axis], p, spec.mode, out_shape[axis]);
        match map.center {
            Some(c) => maps.push((map, c)),
            // This axis reads no input: nothing flows back at all.
            None => return crate::memory::filled(plan.input_len(), T::default()),
        }
    }
    // The cut from the folded gradient to the input: each axis' center, where the
    // output read the input, moved back over the input positions it read.
    let (mut begins, mut ends) = (Vec::new(), Vec::new());
    for (axis, (map, c)) in maps.iter().enumerate() {
        if !pads[axis].is_identity() {
            fold_borders(grad_output, out_shape, axis, map)?;
        }
        let (d, o) = (input_shape[axis], out_shape[axis]);
        // All four counts are at most an extent of a plannable shape, so below i64::MAX.
        begins.push(c.src as i64 - c.out as i64);
        ends.push((d - c.src - c.len) as i64 - (o - c.out - c.len) as i64);
    }
    let cut = PadSpec::new([begins, ends].concat());
    Plan::new(out_shape, &cut, size_of::<T>())?.run_to_vec(grad_output, &T::default())
}

/// Adds every border position of `axis` onto the center position it was copied from,
/// in place (the border keeps its values; the final cut drops it). Axes commute, so the
/// order the axes are folded in does not matter.
fn fold_borders<T: Copy + AddAssign>(
    grad: &mut [T],
    shape: &[usize],
    axis: usize,
    map: &AxisMap,
) -> Result<()> {
    let Some(c) = map.center else {
        return Ok(()); // nothing read: the whole axis is fill
    };
    // The output is not empty (checked by the caller), so these products fit.
    let inner: usize = shape[axis + 1..].iter().product();
    let block = shape[axis] * inner;
    // (border position, center position it was copied from), planned once for all blocks
    let center = c.out..c.out + c.len;
    let pairs: Vec<(usize, usize)> = map
        .sources()?
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !center.contains(i))
        .filter_map(|(i, s)| s.map(|s| (i * inner, (c.out + s - c.src) * inner)))
        .collect();
    if pairs.is_empty() {
        return Ok(()); // constant mode: the border is all fill
    }
    for blk in grad.chunks_exact_mut(block) {
        for &(from, to) in &pairs {
            for k in 0..inner {
                let g = blk[from + k];
                blk[to + k] += g;
            }
        }
    }
    Ok(())
}

/// The adjoint with interior padding: axis by axis, each gathering the strided
/// positions back into a new, smaller gradient.
fn strided_adjoint<T: Copy + Default + AddAssign>(
    grad_output: &[T],
    input_shape: &[usize],
    out_shape: &[usize],
    pads: &[AxisPad],
    mode: PadMode,
) -> Result<Vec<T>> {
    let mut shape = out_shape.to_vec();
    // The first fold reads the caller's gradient; each later one the previous fold's.
    let mut grad: Option<Vec<T>> = None;
    for axis in (0..shape.len()).rev() {
        if pads[axis].is_identity() {
            continue;
        }
        let d = input_shape[axis];
        let map = AxisMap::new(d, &pads[axis], mode, shape[axis]);
        let folded = fold_axis(
            grad.as_deref().unwrap_or(grad_output),
            &shape,
            axis,
            d,
            &map,
        )?;
        grad = Some(folded);
        shape[axis] = d;
    }
    Ok(grad.unwrap_or_else(|| grad_output.to_vec()))
}

/// One axis of the strided adjoint: `new[.., s, ..] += grad[.., i, ..]` for each `i → s`.
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
    let len = [outer, d, inner]
        .into_iter()
        .try_fold(1usize, usize::checked_mul)
        .ok_or(PadError::Alloc { bytes: usize::MAX })?;
    let mut new = crate::memory::filled(len, T::default())?;
    if inner == 0 || o == 0 || d == 0 {
        return Ok(new); // nothing flows: the gradient is all zeros (or empty)
    }
    let sources = map.sources()?;
    for (src_blk, dst_blk) in grad.chunks(o * inner).zip(new.chunks_mut(d * inner)) {
        for (i, s) in sources.iter().enumerate() {
            let Some(s) = *s else { continue };
            let from = &src_blk[i * inner..(i + 1) * inner];
            for (acc, g) in dst_blk[s * inner..(s + 1) * inner].iter_mut().zip(from) {
                *acc += *g;
            }
        }
    }
    Ok(new)
}
