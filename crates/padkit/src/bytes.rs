//! The byte-width kernel: every fixed-size element type padded as `[u8; N]`, so one
//! instance of the generic kernel per width (1, 2, 4, 8, 16) serves them all.

use std::mem::MaybeUninit;

use crate::block_copy::BlockCopy;
use crate::kernel::{FillRun, fill_each, with_capacity};
use crate::{PadError, PadSpec, Plan, Result};

/// Pads raw little-endian elements of `element_bytes` bytes each (1, 2, 4, 8 or 16) with
/// the fill element `value`: the byte-width kernel that serves every fixed-size type.
///
/// ```
/// // two u16 elements, padded by one 0xBEEF on each side
/// let (shape, out) = padkit::pad_bytes(&[1, 0, 2, 0], 2, &[2], &padkit::PadSpec::new(vec![1, 1]), &[0xEF, 0xBE]).unwrap();
/// assert_eq!((shape, out), (vec![4], vec![0xEF, 0xBE, 1, 0, 2, 0, 0xEF, 0xBE]));
/// assert!(padkit::pad_bytes(&[0; 3], 3, &[1], &padkit::PadSpec::new(vec![0, 0]), &[0; 3]).is_err());
/// ```
pub fn pad_bytes(
    bytes: &[u8],
    element_bytes: usize,
    shape: &[usize],
    spec: &PadSpec,
    value: &[u8],
) -> Result<(Vec<usize>, Vec<u8>)> {
    if value.len() != element_bytes {
        return Err(PadError::ValueNotScalar {
            elements: value
                .len()
                .checked_div(element_bytes)
                .unwrap_or(value.len()),
        });
    }
    let plan = Plan::new(shape, spec, element_bytes)?;
    // Plan::new checked that the output's bytes fit in an isize.
    let len = plan.output_len() * element_bytes;
    let mut out = with_capacity(len)?;
    plan.run_bytes(bytes, value, &mut out.spare_capacity_mut()[..len])?;
    // SAFETY: `run_bytes` returned Ok, so it initialised all `len` bytes.
    unsafe { out.set_len(len) };
    Ok((plan.output_shape.into_vec(), out))
}

impl Plan {
    /// Runs the plan on raw elements of `value.len()` bytes each (1, 2, 4, 8 or 16) into
    /// uninitialised bytes (e.g. the spare capacity of a vector of a wider, aligned word
    /// type), which must hold exactly the output; returns them, now initialised.
    ///
    /// ```
    /// // one 2-byte element, padded by one element in front
    /// let plan = padkit::Plan::new(&[1], &padkit::PadSpec::new(vec![1, 0]), 2).unwrap();
    /// let mut bytes = [std::mem::MaybeUninit::uninit(); 4];
    /// let written = plan.run_bytes(&[1, 2], &[9, 9], &mut bytes).unwrap();
    /// assert_eq!(written, &[9, 9, 1, 2]);
    /// ```
    pub fn run_bytes<'o>(
        &self,
        input: &[u8],
        value: &[u8],
        out: &'o mut [MaybeUninit<u8>],
    ) -> Result<&'o mut [u8]> {
        match value.len() {
            1 => self.run_width::<1>(input, value, out),
            2 => self.run_width::<2>(input, value, out),
            4 => self.run_width::<4>(input, value, out),
            8 => self.run_width::<8>(input, value, out),
            16 => self.run_width::<16>(input, value, out),
            other => Err(PadError::UnsupportedType(format!("{other}-byte elements"))),
        }
    }

    fn run_width<'o, const N: usize>(
        &self,
        input: &[u8],
        value: &[u8],
        out: &'o mut [MaybeUninit<u8>],
    ) -> Result<&'o mut [u8]> {
        let (elements, rest) = input.as_chunks::<N>();
        if !rest.is_empty() {
            return Err(partial_element(
                "input bytes",
                &self.input_shape,
                N,
                input.len(),
            ));
        }
        let (slots, rest) = out.as_chunks_mut::<N>();
        if !rest.is_empty() {
            return Err(partial_element(
                "output bytes",
                &self.output_shape,
                N,
                out.len(),
            ));
        }
        let slots_ptr: *mut [[MaybeUninit<u8>; N]] = slots;
        // SAFETY: `[MaybeUninit<u8>; N]` and `MaybeUninit<[u8; N]>` have the same size (N),
        // alignment (1) and validity (none), so the view reinterprets the same bytes.
        let slots = unsafe { &mut *(slots_ptr as *mut [MaybeUninit<[u8; N]>]) };
        let fill: [u8; N] = value
            .try_into()
            .expect("run_bytes dispatches on value.len()");
        let fill_run: FillRun<[u8; N]> = if fill.iter().all(|&b| b == fill[0]) {
            fill_splat::<N>
        } else {
            fill_each
        };
        Ok(self
            .run_moving::<_, BlockCopy>(elements, &fill, slots, fill_run)?
            .as_flattened_mut())
    }
}

/// The error for `got` bytes of a buffer of `shape` that end in a partial element of
/// `width` bytes.
fn partial_element(what: &'static str, shape: &[usize], width: usize, got: usize) -> PadError {
    PadError::DataLength {
        what,
        shape: shape.to_vec(),
        expected: shape.iter().product::<usize>().saturating_mul(width),
        got,
    }
}

/// Fills with an element whose bytes are all equal (zero, above all) with `memset`,
/// which stores far faster than element-sized stores.
fn fill_splat<const N: usize>(dst: &mut [MaybeUninit<[u8; N]>], value: &[u8; N]) {
    // SAFETY: `dst` spans `size_of_val(dst)` writable bytes, and any bytes are a valid
    // `[u8; N]`, so after the write every element holds `value` (all its bytes are
    // `value[0]`, checked by the caller).
    unsafe { std::ptr::write_bytes(dst.as_mut_ptr().cast::<u8>(), value[0], size_of_val(dst)) };
}
