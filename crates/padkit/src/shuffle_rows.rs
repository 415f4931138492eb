//! Tiny rows of plain bytes written by byte shuffles.
//!
//! A pad of a tiny last axis (W3: rows of 4 `f32` padded to 6) writes a million rows of
//! a few elements each. Element by element from the row's table, each element costs a
//! compare, a select, a load and a store. Where the input row fits in 16 bytes and the
//! output row in 32, one 16-byte load, one or two SSSE3 byte shuffles (`pshufb`, which
//! also zeroes the fill positions) OR-ed with the fill bytes, and one or two 16-byte
//! stores write the whole row. x86-64 only; elsewhere the table loop writes every row.

use std::mem::MaybeUninit;

use crate::row::FILL;

/// Bytes moved by one vector.
const LANE: usize = 16;

/// The two shuffles that write rows of one table: for the output bytes
/// `[0, 16)` and `[out_bytes - 16, out_bytes)`, which overlap for rows shorter than 32
/// bytes (rows shorter than 16 bytes write only the first, which runs into the next row).
struct Shuffles {
    /// Per output byte: the input byte it reads, or `0x80` (`pshufb` writes zero).
    masks: [[u8; LANE]; 2],
    /// Per output byte: the fill value's byte, or zero where the mask reads the input.
    fills: [[u8; LANE]; 2],
}

impl Shuffles {
    /// The shuffles of rows of `table` (entries: input elements or [`FILL`]) whose
    /// elements are `W` bytes, filled with `value`, for rows of `out_bytes` bytes.
    fn new<const W: usize>(table: &[u32], value: &[u8; W], out_bytes: usize) -> Shuffles {
        let byte = |k: usize| -> (u8, u8) {
            let (e, b) = (k / W, k % W);
            match table.get(e) {
                Some(&FILL) => (0x80, value[b]),
                // entries read the input row, of at most `LANE` bytes (checked by the caller)
                Some(&p) => ((p as usize * W + b) as u8, 0),
                // past a row shorter than a lane: the next row's bytes, written again later
                None => (0x80, 0),
            }
        };
        let start = [0, out_bytes.saturating_sub(LANE)];
        let mut s = Shuffles {
            masks: [[0; LANE]; 2],
            fills: [[0; LANE]; 2],
        };
        for (half, &at) in start.iter().enumerate() {
            for k in 0..LANE {
                (s.masks[half][k], s.fills[half][k]) = byte(at + k);
            }
        }
        s
    }
}

/// Writes the leading rows of `out` (rows of `table.len()` elements of `W` bytes, each
/// reading the next input row of `in_row` elements) by shuffles where the CPU has SSSE3
/// and the rows are small enough; returns how many rows it wrote, which may be none. The
/// caller writes the rest (at most the last few rows: each row's 16-byte load and store
/// must stay inside `input` and `out`).
pub(crate) fn write_rows<const W: usize>(
    table: &[u32],
    in_row: usize,
    input: &[[u8; W]],
    value: &[u8; W],
    out: &mut [MaybeUninit<[u8; W]>],
) -> usize {
    let (ib, ob) = (in_row * W, table.len() * W);
    let reads_inside = table.iter().all(|&p| p == FILL || (p as usize) < in_row);
    if in_row == 0 || ib > LANE || ob == 0 || ob > 2 * LANE || !reads_inside {
        return 0;
    }
    // Row r loads input bytes [r ib, r ib + 16) and stores output bytes up to
    // r ob + max(ob, 16): rows up to `rows` keep both inside their slices.
    let rows = out.len() / table.len();
    let fits = |len: usize, step: usize, reach: usize| {
        (len + step).saturating_sub(reach) / step // rows r with r step + reach <= len
    };
    let rows =
        rows.min(fits(size_of_val(input), ib, LANE))
            .min(fits(size_of_val(out), ob, ob.max(LANE)));
    if rows > 0 && std::arch::is_x86_feature_detected!("ssse3") {
        let s = Shuffles::new(table, value, ob);
        let (src, dst) = (input.as_ptr().cast::<u8>(), out.as_mut_ptr().cast::<u8>());
        // SAFETY: SSSE3 is present (checked above); rows below `rows` load 16 bytes from
        // `src + r ib` inside `input` and store at most `max(ob, 16)` bytes from
        // `dst + r ob` inside `out` (the `fits` bounds above); `out` is a `&mut` slice,
        // so it does not overlap `input`.
        unsafe { shuffle_rows(&s, src, ib, dst, ob, rows) };
        return rows;
    }
    0
}

/// Writes `rows` rows: row `r` loads the 16 bytes at `src + r ib` and stores the
/// shuffled bytes at `dst + r ob` (16 bytes, and 16 more ending at the row's end when
/// `ob > 16`).
///
/// # Safety
/// The CPU must have SSSE3; for every `r < rows`, `src + r ib` must be readable for 16
/// bytes and `dst + r ob` writable for `max(ob, 16)` bytes; the two ranges must not
/// overlap.
#[target_feature(enable = "ssse3")]
unsafe fn shuffle_rows(
    s: &Shuffles,
    src: *const u8,
    ib: usize,
    dst: *mut u8,
    ob: usize,
    rows: usize,
) {
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
        let done = write_rows::<W>(table, in_row, &input, &value, &mut out);
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
        if std::arch::is_x86_feature_detected!("ssse3") {
            assert!(
                done + LANE >= rows,
                "only the last rows are left: {done} of {rows}"
            );
        }
    }
}
