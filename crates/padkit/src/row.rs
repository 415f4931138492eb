//! The per-row program of the last merged axis: one contiguous copy from the input row,
//! then a short list of single-element gathers and fills for everything around it.
//!
//! Rows are the unit of work of every pad (a conv pad of 256-element rows has 16 384 of
//! them), so the row loop must not re-walk the axis map per row.

use crate::axis_map::{AxisMap, Run};

/// Rows whose elements outside the contiguous copy number at most this many take the
/// program path; longer borders are copied run by run from the written center instead.
const EDGE_LIMIT: usize = 64;

/// Rows of at most this many output elements also get a per-element [`RowProgram::table`].
pub(crate) const TINY_ROW: usize = 8;

/// Marks a fill position in [`RowProgram::table`]: never a valid input index.
pub(crate) const FILL: u32 = u32::MAX;

/// A contiguous copy from the input row into the output row, in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Body {
    pub(crate) out: usize,
    pub(crate) src: usize,
    pub(crate) len: usize,
}

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
    /// Longer rows: the center in one copy, every other element listed.
    Listed(Listed),
}

/// A row's center copy and its other elements, one by one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Listed {
    /// The row's center, copied from the input row in one go.
    pub(crate) body: Option<Body>,
    /// `(output position, input position)` of every other element that reads the input.
    pub(crate) gathers: Vec<(usize, usize)>,
    /// Output positions of the fill value.
    pub(crate) fills: Vec<usize>,
}

impl RowProgram {
    /// The program for rows of `map` whose elements are `unit` consecutive elements
    /// (input rows of `in_row` elements), or `None` when the border is too long to be
    /// worth listing element by element.
    pub(crate) fn new(map: &AxisMap, unit: usize, in_row: usize) -> Option<RowProgram> {
        let border: usize = map.runs.iter().map(|&(_, run)| run.len()).sum();
        if border.checked_mul(unit)? > EDGE_LIMIT {
            return None;
        }
        let mut listed = Listed {
            body: map.center.map(|c| Body {
                out: c.out * unit,
                src: c.src * unit,
                len: c.len * unit,
            }),
            ..Listed::default()
        };
        for &(at, run) in &map.runs {
            let positions = (at * unit..).take(run.len() * unit);
            match run {
                Run::Fill { .. } => listed.fills.extend(positions),
                _ => {
                    let sources = run.sources().flat_map(|s| s * unit..(s + 1) * unit);
                    listed.gathers.extend(positions.zip(sources));
                }
            }
        }
        let len = map.out_len * unit;
        // FILL must not be a valid input index
        let writes = if len <= TINY_ROW && in_row <= FILL as usize {
            RowWrites::Table(listed.table(len))
        } else {
            RowWrites::Listed(listed)
        };
        Some(RowProgram { len, writes })
    }
}

impl Listed {
    /// The same writes as a per-element table of a row of `len` elements.
    fn table(&self, len: usize) -> Vec<u32> {
        let mut table = vec![FILL; len];
        let body = self
            .body
            .iter()
            .flat_map(|b| (b.out..).zip(b.src..b.src + b.len));
        for (d, s) in body.chain(self.gathers.iter().copied()) {
            table[d] = s as u32; // s < in_row <= FILL
        }
        table
    }
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
        // 14 elements: the body copy is cheaper than a table
        let RowWrites::Listed(listed) = program.writes else {
            panic!("a 14-element row gets listed writes, not a table");
        };
        assert_eq!(
            listed.body,
            Some(Body {
                out: 4,
                src: 0,
                len: 8
            })
        );
        // out[0] = in[2], out[1] = in[1], out[6] = in[2]; two inner elements each
        let expected = [(0, 4), (1, 5), (2, 2), (3, 3), (12, 4), (13, 5)];
        assert_eq!(listed.gathers, expected);
        assert!(listed.fills.is_empty());
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
