//! Row bodies of plain bytes copied by explicit vector moves, inline.
//!
//! Most pads of images copy rows of a few hundred bytes to 2 KiB. Such rows are copied
//! by a loop of vector moves, because one `memcpy` call per row costs more than the loop
//! for rows this short (the call and its choice of strategy are paid on every row). The
//! compiler turns a plain loop of copies back into a `memcpy` call, so the loop is written
//! with explicit vector loads and stores: 64-byte blocks of 16-byte SSE2 moves (part of
//! every x86-64), and for rows of at most [`MAX_SHORT_BYTES`] on CPUs with AVX2 (detected
//! at run time), the whole row loaded into 32-byte registers before any of it is stored.

use std::mem::MaybeUninit;

use crate::kernel::RowMoves;
use crate::shuffle_rows::RowShuffles;

/// Rows longer than this go to `memcpy`: on rows this long its one call is paid back, and
/// it switches to `rep movsb`, which copies long rows at least as fast as the block loop.
const MAX_BLOCKED_BYTES: usize = 2048;

/// Rows up to this long are loaded whole (up to eight 32-byte registers) before they are
/// stored, where the CPU has AVX2. Output rows drift against input rows by the pad's
/// width every row, so interleaved loads and stores of one row every so often read an
/// address 4 KiB away from one just written and wait for it; loading first avoids that.
/// Longer rows gain nothing from AVX2 block loops and keep the SSE2 blocks.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const MAX_SHORT_BYTES: usize = 256;

/// Row copies of plain bytes: see the module's documentation.
pub(crate) struct BlockCopy;

/// How [`BlockCopy`] copies bodies of one length.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BodyCopy {
    /// One `memcpy` call.
    Memcpy,
    /// 64-byte blocks of SSE2 moves.
    Blocks,
    /// The whole row in AVX2 registers, then stored; only made where the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    Short(Avx2Present),
}

/// Proof that the CPU has AVX2: made only by [`Avx2Present::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2Present(());

#[cfg(target_arch = "x86_64")]
impl Avx2Present {
    fn detect() -> Option<Avx2Present> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2Present(()))
    }
}

impl<const N: usize> RowMoves<[u8; N]> for BlockCopy {
    type Body = BodyCopy;

    fn body(len: usize) -> BodyCopy {
        let bytes = len.saturating_mul(N);
        if !(BLOCK..=MAX_BLOCKED_BYTES).contains(&bytes) {
            return BodyCopy::Memcpy;
        }
        #[cfg(target_arch = "x86_64")]
        if bytes <= MAX_SHORT_BYTES
            && let Some(avx2) = Avx2Present::detect()
        {
            return BodyCopy::Short(avx2);
        }
        BodyCopy::Blocks
    }

    #[inline]
    fn copy_body(how: BodyCopy, dst: &mut [MaybeUninit<[u8; N]>], src: &[[u8; N]]) {
        assert_eq!(dst.len(), src.len(), "row copies have equal lengths");
        let bytes = size_of_val(src);
        let (d, s) = (dst.as_mut_ptr().cast::<u8>(), src.as_ptr().cast::<u8>());
        // `how` was chosen for this length; the guards keep each way's contract whatever
        // it says. Both slices hold `bytes` bytes (asserted above), and a `&mut` slice
        // never overlaps a shared one.
        match how {
            BodyCopy::Blocks if bytes >= BLOCK => {
                // SAFETY: `BLOCK <= bytes`, and the slices as above.
                unsafe { copy_blocks(d, s, bytes) }
            }
            #[cfg(target_arch = "x86_64")]
            BodyCopy::Short(Avx2Present(())) if (LANE..=MAX_SHORT_BYTES).contains(&bytes) => {
                // SAFETY: `LANE <= bytes <= MAX_SHORT_BYTES`, the slices as above, and
                // `Avx2Present` exists only where the CPU has AVX2.
                unsafe { copy_short_avx2(d, s, bytes) }
            }
            _ => _ = dst.write_copy_of_slice(src),
        }
    }

    type Tiny = RowShuffles;

    fn tiny(table: &[u32], in_row: usize, value: &[u8; N]) -> Option<RowShuffles> {
        RowShuffles::new(table, in_row, value)
    }

    fn tiny_rows(tiny: &RowShuffles, input: &[[u8; N]], out: &mut [MaybeUninit<[u8; N]>]) -> usize {
        tiny.write_rows(input, out)
    }
}

/// Copies `bytes` bytes from `src` to `dst` in blocks of [`BLOCK`] bytes.
///
/// # Safety
/// `BLOCK <= bytes`; `src` must be valid for reading and `dst` for writing `bytes` bytes;
/// the ranges must not overlap. Neither pointer needs any alignment.
#[inline(always)]
unsafe fn copy_blocks(dst: *mut u8, src: *const u8, bytes: usize) {
    debug_assert!(bytes >= BLOCK, "rows of {bytes} bytes are copied by memcpy");
    for at in (0..bytes - BLOCK).step_by(BLOCK) {
        // SAFETY: `at + BLOCK < bytes`, so the block lies inside both ranges.
        unsafe { copy_block(dst.add(at), src.add(at)) };
    }
    // The last block ends at the row's end, overlapping the one before it (bytes need no
    // drop, so writing some twice is harmless).
    // SAFETY: `bytes >= BLOCK`, so the block lies inside both ranges.
    unsafe { copy_block(dst.add(bytes - BLOCK), src.add(bytes - BLOCK)) };
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

/// Bytes in one AVX2 register.
#[cfg(target_arch = "x86_64")]
const LANE: usize = 32;

/// Copies `bytes` bytes from `src` to `dst`: loads all of them into as many 32-byte
/// registers as they fill (the last one ending at the row's end, overlapping the one
/// before), then stores them.
///
/// # Safety
/// `LANE <= bytes <= MAX_SHORT_BYTES`; `src` must be valid for reading and `dst` for
/// writing `bytes` bytes; the ranges must not overlap; the CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn copy_short_avx2(dst: *mut u8, src: *const u8, bytes: usize) {
    debug_assert!((LANE..=MAX_SHORT_BYTES).contains(&bytes), "{bytes} bytes");
    // SAFETY: every arm passes on the caller's contract, with `K = ceil(bytes / LANE)`.
    unsafe {
        match bytes.div_ceil(LANE) {
            1 => copy_lanes::<1>(dst, src, bytes),
            2 => copy_lanes::<2>(dst, src, bytes),
            3 => copy_lanes::<3>(dst, src, bytes),
            4 => copy_lanes::<4>(dst, src, bytes),
            5 => copy_lanes::<5>(dst, src, bytes),
            6 => copy_lanes::<6>(dst, src, bytes),
            7 => copy_lanes::<7>(dst, src, bytes),
            _ => copy_lanes::<8>(dst, src, bytes),
        }
    }
}

/// [`copy_short_avx2`] with `K` registers, unrolled.
///
/// # Safety
/// As [`copy_short_avx2`], and `K = ceil(bytes / LANE)`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn copy_lanes<const K: usize>(dst: *mut u8, src: *const u8, bytes: usize) {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
    debug_assert_eq!(bytes.div_ceil(LANE), K, "{bytes} bytes fill {K} registers");
    // Lane `k` moves the 32 bytes at `at(k)`: inside the row, since `bytes >= LANE`.
    let at = |k: usize| (LANE * k).min(bytes - LANE);
    // SAFETY: each lane lies inside both ranges (above); the caller vouches for AVX2,
    // and the `loadu`/`storeu` forms accept any alignment.
    unsafe {
        let v: [__m256i; K] = std::array::from_fn(|k| _mm256_loadu_si256(src.add(at(k)).cast()));
        for (k, v) in v.into_iter().enumerate() {
            _mm256_storeu_si256(dst.add(at(k)).cast(), v);
        }
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
        let lens = (0..200)
            .chain(MAX_SHORT_BYTES - 70..MAX_SHORT_BYTES + 70)
            .chain(MAX_BLOCKED_BYTES - 70..MAX_BLOCKED_BYTES + 70);
        for len in lens {
            for off in [0, 1, 5, 17, 63] {
                check::<1>(&src[off..], len);
                check::<4>(&src[off..], len / 4);
            }
        }
    }

    /// The SSE2 blocks on rows the AVX2 copy takes where the CPU has AVX2.
    #[test]
    fn blocks_copy_exactly_their_bytes() {
        let src: Vec<u8> = (0..MAX_SHORT_BYTES as u32 + 64)
            .map(|i| (i * 5 + 1) as u8)
            .collect();
        for len in BLOCK..=MAX_SHORT_BYTES {
            let off = len % 64;
            let mut out = vec![0xAA; len + 2];
            // SAFETY: `BLOCK <= len`; `src[off..]` holds at least `len` bytes and
            // `out[1..]` at least `len`; the two vectors are distinct.
            unsafe { copy_blocks(out[1..].as_mut_ptr(), src[off..].as_ptr(), len) };
            assert_eq!(&out[1..=len], &src[off..off + len], "length {len}");
            assert_eq!((out[0], out[len + 1]), (0xAA, 0xAA));
        }
    }

    fn check<const N: usize>(bytes: &[u8], len: usize) {
        let src = &bytes.as_chunks::<N>().0[..len];
        // Guard elements on both sides must stay untouched.
        let mut out = vec![MaybeUninit::new([0xAA; N]); len + 2];
        let how = <BlockCopy as RowMoves<[u8; N]>>::body(len);
        BlockCopy::copy_body(how, &mut out[1..=len], src);
        // SAFETY: every element was initialised at creation.
        let out: Vec<[u8; N]> = out.iter().map(|x| unsafe { x.assume_init() }).collect();
        assert_eq!(&out[1..=len], src, "length {len} elements of {N} bytes");
        assert_eq!((out[0], out[len + 1]), ([0xAA; N], [0xAA; N]));
    }
}
