//! Row bodies of plain bytes copied in 64-byte blocks, inline.
//!
//! Most pads of images copy rows of a few hundred bytes to 2 KiB (W1, W2, W5, W6).
//! One `memcpy` call per row measured 5–15% slower here than a loop of vector moves over
//! the same rows, which runs level with one contiguous `memcpy` of all the bytes. The
//! compiler turns a plain loop of copies back into a `memcpy` call, so the loop is written
//! with explicit vector loads and stores: 32-byte AVX2 moves where the CPU has them
//! (detected at run time) for rows up to [`MAX_WIDE_BYTES`], 16-byte SSE2 moves (part of
//! every x86-64) otherwise.

use std::mem::MaybeUninit;

use crate::kernel::RowMoves;

/// Rows longer than this go to `memcpy`, which switches to `rep movsb` above about 2 KiB
/// here. Measured on crops and pads of 2–16 KiB rows: level at 2 KiB, `memcpy` as fast
/// or faster from 4 KiB on.
const MAX_BLOCKED_BYTES: usize = 2048;

/// Rows up to this long take AVX2 moves where the CPU has them. Measured in one process
/// against the SSE2 loop, each with its own input and output buffers (this machine, three
/// runs): 8–15% faster on W6 u8's 256-byte rows, level to 8% slower on W6 f16's 512-byte
/// rows, 15–20% slower on W1's and W5's 1 KiB rows.
const MAX_WIDE_BYTES: usize = 256;

/// Row copies of plain bytes: by 64-byte blocks for rows of 64 to [`MAX_BLOCKED_BYTES`]
/// bytes, by `memcpy` otherwise.
pub(crate) struct BlockCopy;

impl<const N: usize> RowMoves<[u8; N]> for BlockCopy {
    #[inline]
    fn copy_body(dst: &mut [MaybeUninit<[u8; N]>], src: &[[u8; N]]) {
        assert_eq!(dst.len(), src.len(), "row copies have equal lengths");
        let bytes = size_of_val(src);
        if !(BLOCK..=MAX_BLOCKED_BYTES).contains(&bytes) {
            dst.write_copy_of_slice(src);
            return;
        }
        let (d, s) = (dst.as_mut_ptr().cast::<u8>(), src.as_ptr().cast::<u8>());
        #[cfg(target_arch = "x86_64")]
        if bytes <= MAX_WIDE_BYTES && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked just above); `BLOCK <= bytes`, both slices
            // hold `bytes` bytes (equal lengths, asserted above), and a `&mut` slice never
            // overlaps a shared one.
            return unsafe { copy_blocks_avx2(d, s, bytes) };
        }
        // SAFETY: as above, without the AVX2 requirement.
        unsafe { copy_blocks::<Sse2>(d, s, bytes) }
    }

    #[cfg(target_arch = "x86_64")]
    fn tiny_rows(
        table: &[u32],
        in_row: usize,
        input: &[[u8; N]],
        value: &[u8; N],
        out: &mut [MaybeUninit<[u8; N]>],
    ) -> usize {
        crate::shuffle_rows::write_rows(table, in_row, input, value, out)
    }
}

/// Copies `bytes` bytes from `src` to `dst` in blocks of [`BLOCK`] bytes moved by `B`.
///
/// # Safety
/// `BLOCK <= bytes`; `src` must be valid for reading and `dst` for writing `bytes` bytes;
/// the ranges must not overlap; the CPU must have the features `B` uses.
#[inline(always)]
unsafe fn copy_blocks<B: MoveBlock>(dst: *mut u8, src: *const u8, bytes: usize) {
    debug_assert!(bytes >= BLOCK, "rows of {bytes} bytes are copied by memcpy");
    for at in (0..bytes - BLOCK).step_by(BLOCK) {
        // SAFETY: `at + BLOCK < bytes`, so the block lies inside both ranges.
        unsafe { B::move_block(dst.add(at), src.add(at)) };
    }
    // The last block ends at the row's end, overlapping the one before it (bytes need no
    // drop, so writing some twice is harmless).
    // SAFETY: `bytes >= BLOCK`, so the block lies inside both ranges.
    unsafe { B::move_block(dst.add(bytes - BLOCK), src.add(bytes - BLOCK)) };
}

/// [`copy_blocks`] compiled with AVX2, so that its 32-byte moves inline into the loop.
///
/// # Safety
/// As [`copy_blocks`], and the CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn copy_blocks_avx2(dst: *mut u8, src: *const u8, bytes: usize) {
    // SAFETY: the caller vouches for the ranges and for AVX2.
    unsafe { copy_blocks::<Avx2>(dst, src, bytes) }
}

/// One way to move a [`BLOCK`] of bytes.
trait MoveBlock {
    /// Copies the `BLOCK` bytes at `src` to `dst`, loading all before storing any.
    ///
    /// # Safety
    /// `src` must be valid for reading and `dst` for writing `BLOCK` bytes, the two ranges
    /// must not overlap, and the CPU must have the features the mover uses. Neither pointer
    /// needs any alignment.
    unsafe fn move_block(dst: *mut u8, src: *const u8);
}

/// 16-byte SSE2 moves (part of every x86-64), or `copy_nonoverlapping` elsewhere.
struct Sse2;

impl MoveBlock for Sse2 {
    #[inline(always)]
    unsafe fn move_block(dst: *mut u8, src: *const u8) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
            let (d, s) = (dst.cast::<__m128i>(), src.cast::<__m128i>());
            // SAFETY: SSE2 is part of the x86-64 baseline. The four 16-byte loads and
            // stores cover exactly the `BLOCK` bytes the caller vouches for, and the
            // `loadu`/`storeu` forms accept any alignment.
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
}

/// 32-byte AVX2 moves.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl MoveBlock for Avx2 {
    #[inline(always)]
    unsafe fn move_block(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller vouches for both ranges and for AVX2.
        unsafe { copy_block_avx2(dst, src) }
    }
}

/// Copies the [`BLOCK`] bytes at `src` to `dst` with two 32-byte AVX2 moves.
///
/// # Safety
/// As [`MoveBlock::move_block`], and the CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn copy_block_avx2(dst: *mut u8, src: *const u8) {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
    let (d, s) = (dst.cast::<__m256i>(), src.cast::<__m256i>());
    // SAFETY: the two 32-byte loads and stores cover exactly the `BLOCK` bytes the caller
    // vouches for, and the `loadu`/`storeu` forms accept any alignment.
    unsafe {
        let v = [_mm256_loadu_si256(s), _mm256_loadu_si256(s.add(1))];
        _mm256_storeu_si256(d, v[0]);
        _mm256_storeu_si256(d.add(1), v[1]);
    }
}

/// Bytes moved by one [`MoveBlock::move_block`].
const BLOCK: usize = 64;

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
        let lens = (0..200)
            .chain(MAX_WIDE_BYTES - 70..MAX_WIDE_BYTES + 70)
            .chain(MAX_BLOCKED_BYTES - 70..MAX_BLOCKED_BYTES + 70);
        for len in lens {
            for off in [0, 1, 5, 17, 63] {
                check::<1>(&src[off..], len);
                check::<4>(&src[off..], len / 4);
            }
        }
    }

    /// The SSE2 blocks on rows the AVX2 blocks take where the CPU has AVX2.
    #[test]
    fn sse2_blocks_copy_exactly_their_bytes() {
        let src: Vec<u8> = (0..MAX_WIDE_BYTES as u32 + 64)
            .map(|i| (i * 5 + 1) as u8)
            .collect();
        for len in BLOCK..=MAX_WIDE_BYTES {
            let off = len % 64;
            let mut out = vec![0xAA; len + 2];
            // SAFETY: `BLOCK <= len`; `src[off..]` holds at least `len` bytes and
            // `out[1..]` at least `len`; the two vectors are distinct.
            unsafe { copy_blocks::<Sse2>(out[1..].as_mut_ptr(), src[off..].as_ptr(), len) };
            assert_eq!(&out[1..=len], &src[off..off + len], "length {len}");
            assert_eq!((out[0], out[len + 1]), (0xAA, 0xAA));
        }
    }

    fn check<const N: usize>(bytes: &[u8], len: usize) {
        let src = &bytes.as_chunks::<N>().0[..len];
        // Guard elements on both sides must stay untouched.
        let mut out = vec![MaybeUninit::new([0xAA; N]); len + 2];
        BlockCopy::copy_body(&mut out[1..=len], src);
        // SAFETY: every element was initialised at creation.
        let out: Vec<[u8; N]> = out.iter().map(|x| unsafe { x.assume_init() }).collect();
        assert_eq!(&out[1..=len], src, "length {len} elements of {N} bytes");
        assert_eq!((out[0], out[len + 1]), ([0xAA; N], [0xAA; N]));
    }
}
