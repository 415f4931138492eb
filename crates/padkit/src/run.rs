//! The free functions: plan and run in one call.
//!
//! Plain-data elements ([`bytemuck::Pod`]: numbers, `half` floats, complex numbers and
//! arrays of them) go through [`pad`] and [`pad_into`], which run the byte-width kernel
//! for elements of 1, 2, 4, 8 or 16 bytes. Other `Clone` types (strings, for instance)
//! go through [`pad_cloned`], which clones every element, or [`Plan::run_cloned`] into
//! a buffer of the caller's.

use bytemuck::Pod;

use crate::memory::fresh_vec;
use crate::{PadError, PadSpec, Plan, Result};

/// Pads `input` (row-major, of `shape`) into a new buffer; returns the output shape and
/// data. `value` fills constant-mode padding and is ignored by the other modes.
///
/// # Errors
///
/// Fails with the errors of [`Plan::new`] when `spec` does not fit `shape` or the output
/// is too large; with [`PadError::DataLength`] when `input` does not hold exactly the
/// elements of `shape`; with [`PadError::Alloc`] when the output cannot be allocated.
///
/// ```
/// use padkit::{pad, PadSpec, PadMode};
/// // The ONNX reflect example: pads wider than the axis follow numpy.
/// let data = [1.0, 1.2, 2.3, 3.4, 4.5, 5.7];
/// let spec = PadSpec::new(vec![0, 2, 0, 0]).with_mode(PadMode::Reflect);
/// let (shape, out) = pad(&data, &[3, 2], &spec, 0.0).unwrap();
/// assert_eq!(shape, vec![3, 4]);
/// assert_eq!(out, vec![1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7]);
/// ```
pub fn pad<T: Pod + Send + Sync>(
    input: &[T],
    shape: &[usize],
    spec: &PadSpec,
    value: T,
) -> Result<(Vec<usize>, Vec<T>)> {
    let plan = Plan::new(shape, spec, size_of::<T>())?;
    let out = plan.run_to_vec(input, &value)?;
    Ok((plan.output_shape().to_vec(), out))
}

/// Pads into the caller's buffer, which must hold exactly the output; returns the output
/// shape. Reusing one buffer avoids the page faults of a fresh allocation.
///
/// # Errors
///
/// Fails with the errors of [`Plan::new`] when `spec` does not fit `shape` or the output
/// is too large, and with [`PadError::DataLength`] when `input` does not hold exactly the
/// elements of `shape` or `out` exactly those of the output. `out` is left untouched on
/// any error.
///
/// ```
/// use padkit::{pad_into, PadSpec, PadMode};
/// let mut out = vec![0u8; 6];
/// let spec = PadSpec::new(vec![1, -1]).with_mode(PadMode::Wrap);
/// // crop first, then pad: [1,2,3,4] → window [1,2,3] → [3,1,2,3]
/// let shape = pad_into(&[1, 2, 3, 4], &[4], &spec, 0, &mut out[..4]).unwrap();
/// assert_eq!((shape, &out[..4]), (vec![4], &[3, 1, 2, 3][..]));
/// ```
pub fn pad_into<T: Pod + Send + Sync>(
    input: &[T],
    shape: &[usize],
    spec: &PadSpec,
    value: T,
    out: &mut [T],
) -> Result<Vec<usize>> {
    let plan = Plan::new(shape, spec, size_of::<T>())?;
    plan.run(input, &value, out)?;
    Ok(plan.output_shape().to_vec())
}

/// [`pad`] for any `Clone` element, cloning every element it writes: strings, or
/// elements that own memory.
///
/// # Errors
///
/// As [`pad`]: the errors of [`Plan::new`] when `spec` does not fit `shape` or the output
/// is too large; [`PadError::DataLength`] when `input` does not hold exactly the elements
/// of `shape`; [`PadError::Alloc`] when the output cannot be allocated.
///
/// ```
/// use padkit::run::pad_cloned;
/// use padkit::{PadSpec, PadMode};
/// let words = ["a".to_string(), "b".to_string()];
/// let (_, out) = pad_cloned(&words, &[2], &PadSpec::new(vec![1, 1]).with_mode(PadMode::Wrap), String::new()).unwrap();
/// assert_eq!(out, ["b", "a", "b", "a"]);
/// ```
pub fn pad_cloned<T: Clone + Send + Sync>(
    input: &[T],
    shape: &[usize],
    spec: &PadSpec,
    value: T,
) -> Result<(Vec<usize>, Vec<T>)> {
    let plan = Plan::new(shape, spec, size_of::<T>())?;
    let out = plan.run_cloned_to_vec(input, &value)?;
    Ok((plan.output_shape().to_vec(), out))
}

/// Pads raw little-endian elements of `element_bytes` bytes each (1, 2, 4, 8 or 16) with
/// the fill element `value`: the byte-width kernel that serves every fixed-size type.
///
/// # Errors
///
/// - [`PadError::ValueBytes`] when `value` is not `element_bytes` long;
/// - the errors of [`Plan::new`] when `spec` does not fit `shape` or the output is too
///   large;
/// - [`PadError::Alloc`] when the output cannot be allocated;
/// - [`PadError::UnsupportedType`] when `element_bytes` is not 1, 2, 4, 8 or 16;
/// - [`PadError::ByteLength`] when `bytes` does not end on a whole element, and
///   [`PadError::DataLength`] when it holds whole elements, but not the number `shape`
///   needs.
///
/// ```
/// // two u16 elements, padded by one 0xBEEF on each side
/// let (shape, out) = padkit::run::pad_bytes(&[1, 0, 2, 0], 2, &[2], &padkit::PadSpec::new(vec![1, 1]), &[0xEF, 0xBE]).unwrap();
/// assert_eq!((shape, out), (vec![4], vec![0xEF, 0xBE, 1, 0, 2, 0, 0xEF, 0xBE]));
/// assert!(padkit::run::pad_bytes(&[0; 3], 3, &[1], &padkit::PadSpec::new(vec![0, 0]), &[0; 3]).is_err());
/// ```
pub fn pad_bytes(
    bytes: &[u8],
    element_bytes: usize,
    shape: &[usize],
    spec: &PadSpec,
    value: &[u8],
) -> Result<(Vec<usize>, Vec<u8>)> {
    if value.len() != element_bytes {
        return Err(PadError::ValueBytes {
            got: value.len(),
            element_bytes,
        });
    }
    let plan = Plan::new(shape, spec, element_bytes)?;
    // `Plan::new` checked that the output's bytes fit in an isize.
    let len = plan.output_len() * element_bytes;
    let out = fresh_vec(len, |out| plan.run_bytes(bytes, value, out))?;
    Ok((plan.output_shape().to_vec(), out))
}
