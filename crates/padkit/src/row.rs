//! The per-row program of the last merged axis: one contiguous copy from the input row,
//! and the short borders around it, each built element by element from a table.
//!
//! Rows are the unit of work of every pad (a conv pad of 256-element rows has 16 384 of
//! them), so the row loop must not re-walk the axis map per row.

use smallvec::SmallVec;

use crate::axis_map::{AxisMap, Run};

/// Rows whose elements outside the contiguous copy number at most this many take the
/// program path; longer borders are copied run by run from the written center instead.
const EDGE_LIMIT: usize = 64;

// Axis maps list borders this short position by position, without echoes.
const _: () = assert!(EDGE_LIMIT <= crate::axis_map::LISTED);

/// Rows of at most this many output elements are one [`RowWrites::Table`].
pub(crate) const TINY_ROW: usize = 8;

/// Input positions of row elements, held inline up to 16 (narrow borders).
pub(crate) type Table = SmallVec<[u32; 16]>;

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
    Table(Table),
    /// Longer rows: a border, a copied body, a border.
    Framed(Framed),
}

/// Rows made of a left border, `body.len` elements copied from the input row at
/// `body.src`, and a right border. Between two consecutive rows, the first one's right
/// border and the next one's left border are written as one gap, so each row costs one
/// copy and one gap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Framed {
    /// The tables of the left border, the right border and the gap, one after the
    /// other: the input position each element reads, or [`FILL`]. The gap is the right
    /// border then the left border shifted by one input row: counted from the start of
    /// the first row's input, it reads the next row's.
    tables: Table,
    /// Elements in the left border.
    left: usize,
    /// Elements in the right border.
    right: usize,
    /// The copied stretch (empty when the row has no center, e.g. interior padding).
    pub(crate) body: Body,
    /// How the gap is written.
    pub(crate) gap_writes: GapWrites,
}

/// How a row gap is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GapWrites {
    /// Every element is the fill value (constant mode).
    Fill,
    /// Element by element from the gap's table (short stretches: narrow borders).
    Table,
    /// Stretch by stretch (wide borders: a reversed or repeated stretch is written with
    /// wide stores, where the table would store element by element).
    Stretches(Vec<Stretch>),
}

/// `len` consecutive table entries of one kind, from entry `at` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stretch {
    pub(crate) at: usize,
    pub(crate) len: usize,
    pub(crate) kind: Step,
}

/// How the entries of a stretch follow each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Every entry is [`FILL`].
    Fill,
    /// `src`, `src + 1`, …
    Forward(usize),
    /// `src`, `src - 1`, …
    Backward(usize),
    /// `src`, `src`, …
    Repeat(usize),
}

/// Stretches at least this long on average are written stretch by stretch.
const LONG_STRETCH: usize = 8;

impl Stretch {
    /// A stretch of the one entry `p` at `at`.
    fn start(at: usize, p: u32) -> Stretch {
        let kind = match p {
            FILL => Step::Fill,
            p => Step::Forward(p as usize),
        };
        Stretch { at, len: 1, kind }
    }

    /// Takes `p` as the next entry if it continues the stretch.
    fn extend(&mut self, p: u32) -> bool {
        let p = (p != FILL).then_some(p as usize);
        let kind = match (self.kind, p) {
            (Step::Fill, None) => Step::Fill,
            (Step::Forward(s), Some(p)) if p == s + self.len => Step::Forward(s),
            (Step::Backward(s), Some(p)) if p + self.len == s => Step::Backward(s),
            (Step::Repeat(s), Some(p)) if p == s => Step::Repeat(s),
            // a single entry may still go either way
            (Step::Forward(s), Some(p)) if self.len == 1 && p + 1 == s => Step::Backward(s),
            (Step::Forward(s), Some(p)) if self.len == 1 && p == s => Step::Repeat(s),
            _ => return false,
        };
        self.kind = kind;
        self.len += 1;
        true
    }
}

/// `table` as maximal stretches of one kind, in order.
fn stretches(table: &[u32]) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    for (at, &p) in table.iter().enumerate() {
        if !out.last_mut().is_some_and(|last| last.extend(p)) {
            out.push(Stretch::start(at, p));
        }
    }
    out
}

impl GapWrites {
    /// The cheapest way to write a gap of `table`.
    fn of(table: &[u32]) -> GapWrites {
        if table.iter().all(|&p| p == FILL) {
            return GapWrites::Fill;
        }
        let stretches = stretches(table);
        if stretches.len() * LONG_STRETCH <= table.len() {
            GapWrites::Stretches(stretches)
        } else {
            GapWrites::Table
        }
    }
}

impl Framed {
    /// The table of the first row's left border.
    pub(crate) fn left(&self) -> &[u32] {
        &self.tables[..self.left]
    }

    /// The table of the last row's right border.
    pub(crate) fn right(&self) -> &[u32] {
        &self.tables[self.left..self.left + self.right]
    }

    /// The table of the gap between two rows, read from the first row's input on.
    pub(crate) fn gap(&self) -> &[u32] {
        &self.tables[self.left + self.right..]
    }
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
        let outside = map
            .runs
            .iter()
            .map(|&(_, run)| run.len())
            .sum::<usize>()
            .checked_mul(unit)?;
        // FILL must not be a valid input index, even shifted by a row
        if outside > EDGE_LIMIT || in_row.checked_mul(2)? > FILL as usize {
            return None;
        }
        let split = map.center.map_or(map.runs.len(), |c| {
            map.runs.partition_point(|&(at, _)| at < c.out)
        });
        let (before, after) = map.runs.split_at(split);
        let body = map.center.map_or(Body { src: 0, len: 0 }, |c| Body {
            src: c.src * unit,
            len: c.len * unit,
        });
        let len = map.out_len * unit;
        let mut tables = Table::with_capacity(2 * outside + TINY_ROW);
        push_table(&mut tables, before, unit);
        let left = tables.len();
        if len <= TINY_ROW {
            // src < in_row <= FILL (checked above)
            tables.extend((body.src..body.src + body.len).map(|s| s as u32));
            push_table(&mut tables, after, unit);
            let program = RowProgram {
                len,
                writes: RowWrites::Table(tables),
            };
            program.debug_check(in_row);
            return Some(program);
        }
        push_table(&mut tables, after, unit);
        let right = tables.len() - left;
        for k in left..left + right {
            tables.push(tables[k]);
        }
        for k in 0..left {
            let shifted = match tables[k] {
                FILL => FILL,
                p => p + in_row as u32, // p + in_row < 2 in_row <= FILL
            };
            tables.push(shifted);
        }
        let gap_writes = GapWrites::of(&tables[left + right..]);
        let framed = Framed {
            tables,
            left,
            right,
            body,
            gap_writes,
        };
        let program = RowProgram {
            len,
            writes: RowWrites::Framed(framed),
        };
        program.debug_check(in_row);
        Some(program)
    }

    /// In debug builds, asserts what the row writers rely on: every row element is
    /// written once (the parts add up to the row; the gap's stretches tile it), and every
    /// table entry is [`FILL`] or reads inside the input rows it is given (one row for
    /// the borders and tiny rows, two for the gap).
    fn debug_check(&self, in_row: usize) {
        if !cfg!(debug_assertions) {
            return;
        }
        let reads_inside = |table: &[u32], rows: usize| {
            table
                .iter()
                .all(|&p| p == FILL || (p as usize) < rows * in_row)
        };
        match &self.writes {
            RowWrites::Table(table) => {
                assert_eq!(table.len(), self.len, "a tiny row's table is the row");
                assert!(reads_inside(table, 1), "{table:?} reads inside one row");
            }
            RowWrites::Framed(f) => {
                assert_eq!(f.left + f.body.len + f.right, self.len, "{f:?} is the row");
                assert!(
                    f.body.src + f.body.len <= in_row,
                    "{f:?} copies inside a row"
                );
                assert_eq!(f.gap().len(), f.left + f.right, "the gap is both borders");
                assert!(reads_inside(&f.tables[..f.left + f.right], 1), "{f:?}");
                assert!(reads_inside(f.gap(), 2), "{f:?}");
                if let GapWrites::Stretches(stretches) = &f.gap_writes {
                    let end = stretches
                        .iter()
                        .try_fold(0, |next, s| (s.at == next).then_some(s.at + s.len));
                    assert_eq!(end, Some(f.gap().len()), "{stretches:?} tile the gap");
                }
            }
        }
    }
}

/// Appends the input position of each element of consecutive `runs` to `table`,
/// [`FILL`] for the fill value, in elements of `unit` axis elements each.
fn push_table(table: &mut Table, runs: &[(usize, Run)], unit: usize) {
    for &(_, run) in runs {
        match run {
            Run::Fill { len } => table.resize(table.len() + len * unit, FILL),
            Run::Echo { .. } => unreachable!("borders of row programs list every position"),
            // sources < in_row <= FILL (checked by `RowProgram::new`)
            run => table.extend(
                run.sources()
                    .flat_map(|s| s * unit..(s + 1) * unit)
                    .map(|s| s as u32),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AxisPad, PadMode};

    /// `begin` and `end` pads, no interior padding.
    fn edges(begin: i64, end: i64) -> AxisPad {
        AxisPad {
            begin,
            end,
            interior: 0,
        }
    }

    #[test]
    fn reflect_rows_copy_the_center_and_gather_the_borders() {
        let p = edges(2, 1);
        let map = AxisMap::new(4, &p, PadMode::Reflect, 7);
        let program = RowProgram::new(&map, 2, 8).unwrap();
        assert_eq!(program.len, 14);
        // 14 elements: the center copy is cheaper than a table
        // out[0] = in[2], out[1] = in[1], out[6] = in[2]; two inner elements each
        let RowWrites::Framed(f) = program.writes else {
            panic!("a 14-element row is framed, not a table");
        };
        assert_eq!(f.left(), [4, 5, 2, 3]);
        assert_eq!(f.body, Body { src: 0, len: 8 });
        assert_eq!(f.right(), [4, 5]);
        // the next row's left border reads 8 elements further on
        assert_eq!(f.gap(), [4, 5, 12, 13, 10, 11]);
        assert_eq!(f.gap_writes, GapWrites::Table);
    }

    #[test]
    fn wide_reflect_gaps_are_two_reversed_stretches() {
        let p = edges(16, 16);
        let map = AxisMap::new(512, &p, PadMode::Reflect, 544);
        let RowWrites::Framed(f) = RowProgram::new(&map, 1, 512).unwrap().writes else {
            panic!("a 544-element row is framed");
        };
        // out[528 + c] = in[510 - c]; the next row's out[c] = in[16 - c], 512 further on
        let expected = vec![
            Stretch {
                at: 0,
                len: 16,
                kind: Step::Backward(510),
            },
            Stretch {
                at: 16,
                len: 16,
                kind: Step::Backward(512 + 16),
            },
        ];
        assert_eq!(f.gap_writes, GapWrites::Stretches(expected));
    }

    #[test]
    fn stretches_split_where_the_step_changes() {
        let table = [3, 4, 5, FILL, FILL, 9, 8, 7, 7, 7, 2];
        let kinds: Vec<_> = stretches(&table)
            .iter()
            .map(|s| (s.at, s.len, s.kind))
            .collect();
        let expected = [
            (0, 3, Step::Forward(3)),
            (3, 2, Step::Fill),
            (5, 3, Step::Backward(9)),
            (8, 2, Step::Repeat(7)),
            (10, 1, Step::Forward(2)),
        ];
        assert_eq!(kinds, expected);
    }

    #[test]
    fn tiny_rows_get_a_table() {
        let p = edges(1, 1);
        let map = AxisMap::new(4, &p, PadMode::Edge, 6);
        let program = RowProgram::new(&map, 1, 4).unwrap();
        assert_eq!(
            program.writes,
            RowWrites::Table([0, 0, 1, 2, 3, 3].into_iter().collect())
        );
        let map = AxisMap::new(4, &p, PadMode::Constant, 6);
        let program = RowProgram::new(&map, 1, 4).unwrap();
        assert_eq!(
            program.writes,
            RowWrites::Table([FILL, 0, 1, 2, 3, FILL].into_iter().collect())
        );
    }

    #[test]
    fn border_tables_hold_only_the_border() {
        let p = edges(1, 2);
        let map = AxisMap::new(1 << 30, &p, PadMode::Constant, (1 << 30) + 3);
        let program = RowProgram::new(&map, 1, 1 << 30).unwrap();
        let RowWrites::Framed(f) = program.writes else {
            panic!("a long row is framed, not a table");
        };
        assert_eq!(f.left(), [FILL]);
        assert_eq!(
            f.body,
            Body {
                src: 0,
                len: 1 << 30
            }
        );
        assert_eq!((f.right(), f.gap()), (&[FILL; 2][..], &[FILL; 3][..]));
        assert_eq!(f.gap_writes, GapWrites::Fill);
    }

    #[test]
    fn rows_too_long_for_shifted_tables_take_the_run_path() {
        let p = edges(1, 1);
        let d = 1 << 31;
        let map = AxisMap::new(d, &p, PadMode::Edge, d + 2);
        assert!(RowProgram::new(&map, 1, d).is_none());
    }

    #[test]
    fn long_borders_take_the_run_path() {
        let p = edges(40, 40);
        let map = AxisMap::new(4, &p, PadMode::Constant, 84);
        assert!(RowProgram::new(&map, 1, 4).is_none());
    }
}
