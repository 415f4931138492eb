//! Row bodies of plain bytes copied in 64-byte blocks, inline.
//!
//! Most pads of images copy rows of a few hundred bytes to 2 KiB (W1, W2, W5, W6).
//! One `memcpy` call per row measured 5–15% slower here than a loop of 16-byte
//! vector moves over the same rows, which runs level with one contiguous `memcpy` of all
//! the bytes. The compiler turns a plain loop of copies back into a `memcpy` call, so the
//! loop is written with explicit vector loads and stores (SSE2, part of every x86-64).

use std::mem::MaybeUninit;

use crate::kernel::CopyRow;

/// Rows longer than this go to `memcpy`, which switches to `rep movsb` above about 2 KiB
/// here. Measured on crops and pads of 2–16 KiB rows: level at 2 KiB, `memcpy` as fast
/// or faster from 4 KiB on.
const MAX_BLOCKED_BYTES: usize = 2048;

/// Row copies of plain bytes: by 64-byte blocks for rows of 64 to [`MAX_BLOCKED_BYTES`]
/// bytes, by `memcpy` otherwise.
pub(crate) struct BlockCopy;

impl<const N: usize> CopyRow<[u8; N]> for BlockCopy {
    #[inline]
    fn copy_row(dst: &mut [MaybeUninit<[u8; N]>], src: &[[u8; N]]) {
        assert_eq!(dst.len(), src.len(), "row copies have equal lengths");
        let bytes = size_of_val(src);
        if !(BLOCK..=MAX_BLOCKED_BYTES).contains(&bytes) {
            dst.write_copy_of_slice(src);
            return;
        }
        let (d, s) = (dst.as_mut_ptr().cast::<u8>(), src.as_ptr().cast::<u8>());
        for at in (0..bytes - BLOCK).step_by(BLOCK) {
            // SAFETY: `at + BLOCK < bytes`, so the block lies inside both slices.
            unsafe { copy_block(d.add(at), s.add(at)) };
        }
        // The last block ends at the row's end, overlapping the one before it (bytes
        // need no drop, so writing some twice is harmless).
        // SAFETY: `bytes >= BLOCK`, so the block lies inside both slices.
        unsafe { copy_block(d.add(bytes - BLOCK), s.add(bytes - BLOCK)) };
    }
}

/// Bytes moved by one [`copy_block`].
const BLOCK: usize = 64;

/// Copies the `BLOCK` bytes at `src` to `dst`, loading all before storing any.
///
/// # Safety
/// `src` must be valid for reading and `dst` for writing `BLOCK` bytes, and the two
/// ranges must not overlap. Neither needs any alignment.
#[inline(always)]
unsafe fn copy_block(dst: *mut u8, src: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
        let (d, s) = (dst.cast::<__m128i>(), src.cast::<__m128i>());
        // SAFETY: SSE2 is part of the x86-64 baseline. The four 16-byte loads and stores
        // cover exactly the `BLOCK` bytes the caller vouches for, and the `loadu`/`storeu`
        // forms accept any alignment.
        unsafe {
            let v = [
                _mm_loadu_si128(s),
                _mm_loadu_si128(s.add(1)),
                _mm_loadu_si128(s.add(2)),
                _mm_loadu_si128(s.add(3)),
            ];
            for (k, v) in v.into_iter().enumerate() {
                _mm_storeu_si128(d.add(k), v);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: the caller vouches for both ranges and that they do not overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(src, dst, BLOCK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the block size and the `memcpy` threshold, from every offset
    /// of a 64-byte line, for 1- and 4-byte elements.
    #[test]
    fn rows_copy_exactly_their_bytes() {
        let src: Vec<u8> = (0..MAX_BLOCKED_BYTES as u32 + 200)
            .map(|i| (i * 7 + 3) as u8)
            .collect();
        for len in (0..200).chain(MAX_BLOCKED_BYTES - 70..MAX_BLOCKED_BYTES + 70) {
            for off in [0, 1, 5, 17, 63] {
                check::<1>(&src[off..], len);
                check::<4>(&src[off..], len / 4);
            }
        }
    }

    fn check<const N: usize>(bytes: &[u8], len: usize) {
        let src = &bytes.as_chunks::<N>().0[..len];
        // Guard elements on both sides must stay untouched.
        let mut out = vec![MaybeUninit::new([0xAA; N]); len + 2];
        BlockCopy::copy_row(&mut out[1..=len], src);
        // SAFETY: every element was initialised at creation.
        let out: Vec<[u8; N]> = out.iter().map(|x| unsafe { x.assume_init() }).collect();
        assert_eq!(&out[1..=len], src, "length {len} elements of {N} bytes");
        assert_eq!((out[0], out[len + 1]), ([0xAA; N], [0xAA; N]));
    }
}
