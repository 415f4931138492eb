//! Helpers of the byte-width kernel, which pads every fixed-size element type as
//! `[u8; N]`, one instance of the generic kernel per width (1, 2, 4, 8, 16).

use std::mem::MaybeUninit;

use crate::PadError;

/// The error for `got` bytes of a buffer of `shape` (`elements` elements of `width`
/// bytes) that end in a partial element.
pub(crate) fn partial_element(
    what: &'static str,
    shape: &[usize],
    elements: usize,
    width: usize,
    got: usize,
) -> PadError {
    PadError::ByteLength {
        what,
        shape: shape.to_vec(),
        expected: elements.saturating_mul(width),
        got,
    }
}

/// Fills with an element whose bytes are all equal (zero, above all) with `memset`,
/// which stores far faster than element-sized stores.
pub(crate) fn fill_splat<const N: usize>(dst: &mut [MaybeUninit<[u8; N]>], value: &[u8; N]) {
    // SAFETY: `dst` spans `size_of_val(dst)` writable bytes, and any bytes are a valid
    // `[u8; N]`, so after the write every element holds `value` (all its bytes are
    // `value[0]`, checked by the caller).
    unsafe { std::ptr::write_bytes(dst.as_mut_ptr().cast::<u8>(), value[0], size_of_val(dst)) };
}
