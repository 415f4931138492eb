//! The per-row program of the last merged axis: one contiguous copy from the input row,
//! and the short borders around it, each built element by element from a table.
//!
//! Rows are the unit of work of every pad (a conv pad of 256-element rows has 16 384 of
//! them), so the row loop must not re-walk the axis map per row.

use crate::axis_map::{AxisMap, Run};

/// Rows whose elements outside the contiguous copy number at most this many take the
/// program path; longer borders are copied run by run from the written center instead.
const EDGE_LIMIT: usize = 64;

/// Rows of at most this many output elements are one [`RowWrites::Table`].
pub(crate) const TINY_ROW: usize = 8;

/// Marks a fill position in a table: never a valid input index.
pub(crate) const FILL: u32 = u32::MAX;

/// What to write in every output row of the last merged axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RowProgram {
    /// Output elements per row.
    pub(crate) len: usize,
    /// How the row's elements are written.
    pub(crate) writes: RowWrites,
}

/// The two ways a row is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RowWrites {
    /// Rows of at most [`TINY_ROW`] elements: the input position every output element
    /// reads, [`FILL`] for the fill value. Kernels unroll it for the row's exact length.
    Table(Vec<u32>),
    /// Longer rows: a border, a copied body, a border.
    Framed(Framed),
}

/// Rows made of `left`, `body.len` elements copied from the input row at `body.src`,
/// and `right`. Between two consecutive rows, the first one's right border and the next
/// one's left border are written as one `gap`, so each row costs one copy and one gap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Framed {
    /// The input position each element of the left border reads, or [`FILL`].
    pub(crate) left: Vec<u32>,
    /// The copied stretch (empty when the row has no center, e.g. interior padding).
    pub(crate) body: Body,
    /// The input position each element of the right border reads, or [`FILL`].
    pub(crate) right: Vec<u32>,
    /// `right` then `left`, the latter shifted by one input row: counted from the start
    /// of the first row's input, it reads the next row's.
    pub(crate) gap: Vec<u32>,
    /// Whether every element of `gap` is [`FILL`] (constant mode).
    pub(crate) gap_fills: bool,
}

/// A contiguous copy from the input row, in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Body {
    pub(crate) src: usize,
    pub(crate) len: usize,
}

impl RowProgram {
    /// The program for rows of `map` whose elements are `unit` consecutive elements
    /// (input rows of `in_row` elements), or `None` when the border is too long to be
    /// worth listing element by element (or two input rows too long for a table).
    pub(crate) fn new(map: &AxisMap, unit: usize, in_row: usize) -> Option<RowProgram> {
        let outside: usize = map.runs.iter().map(|&(_, run)| run.len()).sum();
        // FILL must not be a valid input index, even shifted by a row
        if outside.checked_mul(unit)? > EDGE_LIMIT || in_row.checked_mul(2)? > FILL as usize {
            return None;
        }
        let split = map.center.map_or(map.runs.len(), |c| {
            map.runs.partition_point(|&(at, _)| at < c.out)
        });
        let (before, after) = map.runs.split_at(split);
        let (left, right) = (table(before, unit), table(after, unit));
        let body = map.center.map_or(Body { src: 0, len: 0 }, |c| Body {
            src: c.src * unit,
            len: c.len * unit,
        });
        let len = map.out_len * unit;
        if len <= TINY_ROW {
            // src < in_row <= FILL (checked above)
            let body = (body.src..body.src + body.len).map(|s| s as u32);
            let table = left.iter().copied().chain(body).chain(right).collect();
            return Some(RowProgram {
                len,
                writes: RowWrites::Table(table),
            });
        }
        let shifted = left.iter().map(|&p| match p {
            FILL => FILL,
            p => p + in_row as u32, // p + in_row < 2 in_row <= FILL
        });
        let gap: Vec<u32> = right.iter().copied().chain(shifted).collect();
        let gap_fills = gap.iter().all(|&p| p == FILL);
        let framed = Framed {
            left,
            body,
            right,
            gap,
            gap_fills,
        };
        Some(RowProgram {
            len,
            writes: RowWrites::Framed(framed),
        })
    }
}

/// The input position of each element of consecutive `runs`, [`FILL`] for the fill
/// value, in elements of `unit` axis elements each.
fn table(runs: &[(usize, Run)], unit: usize) -> Vec<u32> {
    runs.iter()
        .flat_map(|&(_, run)| match run {
            Run::Fill { len } => vec![FILL; len * unit],
            // sources < in_row <= FILL (checked by `RowProgram::new`)
            run => run
                .sources()
                .flat_map(|s| s * unit..(s + 1) * unit)
                .map(|s| s as u32)
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AxisPad, PadMode};

    #[test]
    fn reflect_rows_copy_the_center_and_gather_the_borders() {
        let p = AxisPad {
            begin: 2,
            end: 1,
            interior: 0,
        };
        let map = AxisMap::new(4, &p, PadMode::Reflect, 7);
        let program = RowProgram::new(&map, 2, 8).unwrap();
        assert_eq!(program.len, 14);
        // 14 elements: the center copy is cheaper than a table
        // out[0] = in[2], out[1] = in[1], out[6] = in[2]; two inner elements each
        let expected = Framed {
            left: vec![4, 5, 2, 3],
            body: Body { src: 0, len: 8 },
            right: vec![4, 5],
            gap: vec![4, 5, 12, 13, 10, 11],
            gap_fills: false,
        };
        assert_eq!(program.writes, RowWrites::Framed(expected));
    }

    #[test]
    fn tiny_rows_get_a_table() {
        let p = AxisPad {
            begin: 1,
            end: 1,
            interior: 0,
        };
        let map = AxisMap::new(4, &p, PadMode::Edge, 6);
        let program = RowProgram::new(&map, 1, 4).unwrap();
        assert_eq!(program.writes, RowWrites::Table(vec![0, 0, 1, 2, 3, 3]));
        let map = AxisMap::new(4, &p, PadMode::Constant, 6);
        let program = RowProgram::new(&map, 1, 4).unwrap();
        assert_eq!(
            program.writes,
            RowWrites::Table(vec![FILL, 0, 1, 2, 3, FILL])
        );
    }

    #[test]
    fn border_tables_hold_only_the_border() {
        let p = AxisPad {
            begin: 1,
            end: 2,
            interior: 0,
        };
        let map = AxisMap::new(1 << 30, &p, PadMode::Constant, (1 << 30) + 3);
        let program = RowProgram::new(&map, 1, 1 << 30).unwrap();
        let expected = Framed {
            left: vec![FILL],
            body: Body {
                src: 0,
                len: 1 << 30,
            },
            right: vec![FILL; 2],
            gap: vec![FILL; 3],
            gap_fills: true,
        };
        assert_eq!(program.writes, RowWrites::Framed(expected));
    }

    #[test]
    fn rows_too_long_for_shifted_tables_take_the_run_path() {
        let p = AxisPad {
            begin: 1,
            end: 1,
            interior: 0,
        };
        let d = 1 << 31;
        let map = AxisMap::new(d, &p, PadMode::Edge, d + 2);
        assert!(RowProgram::new(&map, 1, d).is_none());
    }

    #[test]
    fn long_borders_take_the_run_path() {
        let p = AxisPad {
            begin: 40,
            end: 40,
            interior: 0,
        };
        let map = AxisMap::new(4, &p, PadMode::Constant, 84);
        assert!(RowProgram::new(&map, 1, 4).is_none());
    }
}
