//! Tiny rows of plain bytes written by byte shuffles.
//!
//! A pad of a tiny last axis (rows of 4 `f32` padded to 6, say) writes one row of a few
//! elements for every position of the other axes. Element by element from the row's
//! table, each element costs a compare, a select, a load and a store. Where the input row
//! fits in 16 bytes and the output row in 32, one 16-byte load, one or two SSSE3 byte
//! shuffles (`pshufb`, which also zeroes the fill positions) OR-ed with the fill bytes,
//! and one or two 16-byte stores write the whole row. x86-64 only: elsewhere no
//! [`RowShuffles`] are made, and the table loop writes every row.

use std::mem::MaybeUninit;

use crate::row::FILL;

/// Bytes moved by one vector.
const LANE: usize = 16;

/// How rows of one table are written: the two shuffles for the output bytes `[0, 16)` and
/// `[out_bytes - 16, out_bytes)`, which overlap for rows shorter than 32 bytes (rows
/// shorter than 16 bytes write only the first, which runs into the next row). Made once
/// per run, and only where the CPU has SSSE3.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct RowShuffles {
    /// Per output byte: the input byte it reads, or `0x80` (`pshufb` writes zero).
    masks: [[u8; LANE]; 2],
    /// Per output byte: the fill value's byte, or zero where the mask reads the input.
    fills: [[u8; LANE]; 2],
    /// Bytes per input row and per output row.
    ib: usize,
    ob: usize,
}

impl RowShuffles {
    /// The shuffles for rows of `table` (entries: input elements or [`FILL`]) of `W`-byte
    /// elements, each reading the next input row of `in_row` elements, filled with
    /// `value`; `None` where the CPU lacks SSSE3 or the rows do not fit the lanes (input
    /// rows of at most 16 bytes, output rows of at most 32).
    pub(crate) fn new<const W: usize>(
        table: &[u32],
        in_row: usize,
        value: &[u8; W],
    ) -> Option<RowShuffles> {
        // `in_row < 2^31` for any row table (`RowProgram::new`), so these do not overflow.
        let (ib, ob) = (in_row * W, table.len() * W);
        let reads_inside = table.iter().all(|&p| p == FILL || (p as usize) < in_row);
        let fits = in_row > 0 && ib <= LANE && ob > 0 && ob <= 2 * LANE && reads_inside;
        if !fits || !ssse3() {
            return None;
        }
        let byte = |k: usize| -> (u8, u8) {
            let (e, b) = (k / W, k % W);
            match table.get(e) {
                Some(&FILL) => (0x80, value[b]),
                // entries read the input row, of at most `LANE` bytes (checked above)
                Some(&p) => ((p as usize * W + b) as u8, 0),
                // past a row shorter than a lane: the next row's bytes, written again later
                None => (0x80, 0),
            }
        };
        let mut s = RowShuffles {
            masks: [[0; LANE]; 2],
            fills: [[0; LANE]; 2],
            ib,
            ob,
        };
        for (half, at) in [0, ob.saturating_sub(LANE)].into_iter().enumerate() {
            for k in 0..LANE {
                (s.masks[half][k], s.fills[half][k]) = byte(at + k);
            }
        }
        Some(s)
    }

    /// Writes the leading rows of `out` (elements of the `W` bytes the shuffles were made
    /// for), each reading the next input row; returns how many it wrote. The caller writes
    /// the rest (at most the last few rows: each row's 16-byte load and store must stay
    /// inside `input` and `out`).
    pub(crate) fn write_rows<const W: usize>(
        &self,
        input: &[[u8; W]],
        out: &mut [MaybeUninit<[u8; W]>],
    ) -> usize {
        let (ib, ob) = (self.ib, self.ob);
        // Row r loads input bytes [r ib, r ib + 16) and stores output bytes up to
        // r ob + max(ob, 16): rows below `rows` keep both inside their slices.
        let fits = |len: usize, step: usize, reach: usize| {
            (len + step).saturating_sub(reach) / step // rows r with r step + reach <= len
        };
        let rows = (size_of_val(out) / ob)
            .min(fits(size_of_val(input), ib, LANE))
            .min(fits(size_of_val(out), ob, ob.max(LANE)));
        let (src, dst) = (input.as_ptr().cast::<u8>(), out.as_mut_ptr().cast::<u8>());
        // SAFETY: `RowShuffles` exist only where the CPU has SSSE3 (`new`); rows below
        // `rows` load 16 bytes from `src + r ib` inside `input` and store at most
        // `max(ob, 16)` bytes from `dst + r ob` inside `out` (the bounds above); `out` is a
        // `&mut` slice, so it does not overlap `input`.
        unsafe { shuffle_rows(self, src, dst, rows) };
        rows
    }
}

/// Whether the CPU has SSSE3 (never off x86-64).
fn ssse3() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("ssse3");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Never called: no [`RowShuffles`] are made off x86-64.
///
/// # Safety
/// None needed; it only panics.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn shuffle_rows(_: &RowShuffles, _: *const u8, _: *mut u8, _: usize) {
    unreachable!("RowShuffles are made only on x86-64")
}

/// Writes `rows` rows of `s`: row `r` loads the 16 bytes at `src + r ib` and stores the
/// shuffled bytes at `dst + r ob` (16 bytes, and 16 more ending at the row's end when
/// `ob > 16`).
///
/// # Safety
/// The CPU must have SSSE3; for every `r < rows`, `src + r ib` must be readable for 16
/// bytes and `dst + r ob` writable for `max(ob, 16)` bytes; the two ranges must not
/// overlap.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn shuffle_rows(s: &RowShuffles, src: *const u8, dst: *mut u8, rows: usize) {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_or_si128, _mm_shuffle_epi8, _mm_storeu_si128,
    };
    // SAFETY: the arrays hold 16 bytes each, and `loadu` accepts any alignment.
    let lane = |a: &[u8; LANE]| unsafe { _mm_loadu_si128(a.as_ptr().cast::<__m128i>()) };
    let (m0, m1, f0, f1) = (
        lane(&s.masks[0]),
        lane(&s.masks[1]),
        lane(&s.fills[0]),
        lane(&s.fills[1]),
    );
    let (ib, ob) = (s.ib, s.ob);
    let tail = ob.saturating_sub(LANE);
    for r in 0..rows {
        // SAFETY: the caller vouches for these 16-byte loads and stores of row `r`.
        unsafe {
            let x = _mm_loadu_si128(src.add(r * ib).cast::<__m128i>());
            let o = dst.add(r * ob);
            _mm_storeu_si128(o.cast(), _mm_or_si128(_mm_shuffle_epi8(x, m0), f0));
            if tail > 0 {
                let hi = _mm_or_si128(_mm_shuffle_epi8(x, m1), f1);
                _mm_storeu_si128(o.add(tail).cast(), hi);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive row writer the shuffles must match.
    fn by_table<const W: usize>(
        table: &[u32],
        in_row: usize,
        input: &[[u8; W]],
        value: [u8; W],
    ) -> Vec<[u8; W]> {
        input
            .chunks(in_row)
            .flat_map(|row| {
                table
                    .iter()
                    .map(move |&p| if p == FILL { value } else { row[p as usize] })
            })
            .collect()
    }

    /// Every table shape the shuffles take (input rows of 1 to 16 bytes, output rows of
    /// 1 to 32), for elements of every byte width, against the naive writer.
    #[test]
    fn shuffled_rows_match_their_tables() {
        check_all::<1>();
        check_all::<2>();
        check_all::<4>();
        check_all::<8>();
        check_all::<16>();
    }

    fn check_all<const W: usize>() {
        for in_row in 1..=LANE / W {
            for len in 1..=8.min(2 * LANE / W) {
                for seed in 0..4u32 {
                    // entries cycle through fills and input positions
                    let table: Vec<u32> = (0..len as u32)
                        .map(|k| match (k * 7 + seed * 3) % (in_row as u32 + 1) {
                            0 => FILL,
                            p => p - 1,
                        })
                        .collect();
                    check::<W>(&table, in_row, 37);
                }
            }
        }
    }

    fn check<const W: usize>(table: &[u32], in_row: usize, rows: usize) {
        let input: Vec<[u8; W]> = (0..rows * in_row)
            .map(|i| std::array::from_fn(|b| (i * W + b) as u8 ^ 0x5a))
            .collect();
        let value = std::array::from_fn(|b| 0xf0 | b as u8);
        let expected = by_table(table, in_row, &input, value);
        let mut out = vec![MaybeUninit::new([0xAA; W]); rows * table.len()];
        let done =
            RowShuffles::new(table, in_row, &value).map_or(0, |s| s.write_rows(&input, &mut out));
        let written = done * table.len();
        // SAFETY: every element was initialised at creation.
        let got: Vec<[u8; W]> = out[..written]
            .iter()
            .map(|x| unsafe { x.assume_init() })
            .collect();
        assert_eq!(
            got,
            expected[..written],
            "table {table:?}, rows of {in_row}"
        );
        if ssse3() {
            assert!(
                done + LANE >= rows,
                "only the last rows are left: {done} of {rows}"
            );
        }
    }
}
