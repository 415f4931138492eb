//! Per-axis index maps: which input index each output index reads, as a few runs.
//!
//! A map is planned once per axis from the mode's index function (numpy's), so the
//! kernels copy and fill whole runs instead of computing a source per element.

use std::ops::Range;

use smallvec::SmallVec;

use crate::{AxisPad, PadMode};

/// A run of output positions along one axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run {
    /// `len` positions of the fill value.
    Fill { len: usize },
    /// Position `t` reads source `src + t`.
    Forward { src: usize, len: usize },
    /// Position `t` reads source `src - t`.
    Backward { src: usize, len: usize },
    /// Every position reads source `src`.
    Repeat { src: usize, len: usize },
    /// Position `t` equals output position `t + offset` of the same axis, a whole number
    /// of periods toward the center: the far part of a long border in a periodic mode.
    /// Written after every other run, by doubling copies of output already written.
    Echo { offset: isize, len: usize },
}

impl Run {
    pub(crate) fn len(self) -> usize {
        match self {
            Run::Fill { len }
            | Run::Forward { len, .. }
            | Run::Backward { len, .. }
            | Run::Repeat { len, .. }
            | Run::Echo { len, .. } => len,
        }
    }

    /// The same run cut to at most `max` positions.
    fn truncated(self, max: usize) -> Run {
        match self {
            Run::Fill { len } => Run::Fill { len: len.min(max) },
            Run::Forward { src, len } => Run::Forward {
                src,
                len: len.min(max),
            },
            Run::Backward { src, len } => Run::Backward {
                src,
                len: len.min(max),
            },
            Run::Repeat { src, len } => Run::Repeat {
                src,
                len: len.min(max),
            },
            Run::Echo { offset, len } => Run::Echo {
                offset,
                len: len.min(max),
            },
        }
    }

    /// The source of each position of the run in order; nothing for fill and echo runs
    /// (whose sources are those of other positions).
    pub(crate) fn sources(self) -> impl Iterator<Item = usize> {
        let (src, len, step): (usize, usize, isize) = match self {
            Run::Fill { .. } | Run::Echo { .. } => (0, 0, 0),
            Run::Forward { src, len } => (src, len, 1),
            Run::Backward { src, len } => (src, len, -1),
            Run::Repeat { src, len } => (src, len, 0),
        };
        (0..len).map(move |t| src.wrapping_add_signed(step * t as isize))
    }
}

/// Next to the center, borders of the periodic modes are listed run by run over at least
/// this many positions (and at least one period); beyond, one [`Run::Echo`] repeats them.
/// Planning then costs at most a few dozen runs per axis whatever the pads, and row
/// programs (borders of at most `row::EDGE_LIMIT` elements) never meet an echo.
pub(crate) const LISTED: usize = 64;

/// The contiguous stretch of output that reads every kept source once, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Center {
    pub(crate) out: usize,
    pub(crate) src: usize,
    pub(crate) len: usize,
}

/// The whole map of one axis: the center, and the runs around it in output order.
///
/// When `center` is set, every non-fill run reads sources inside it, so kernels write the
/// center from the input once and produce the other runs by copying output they already
/// wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AxisMap {
    pub(crate) out_len: usize,
    pub(crate) center: Option<Center>,
    /// `(output start, run)` for every position outside the center.
    /// Held inline up to two runs, all a pad narrower than its axis has.
    pub(crate) runs: SmallVec<[(usize, Run); 2]>,
}

impl AxisMap {
    /// Plans axis of input extent `d`, already checked by `concrete_extent` to give
    /// `out_len`.
    pub(crate) fn new(d: usize, p: &AxisPad, mode: PadMode, out_len: usize) -> AxisMap {
        let mut map = AxisMap {
            out_len,
            center: None,
            runs: SmallVec::new(),
        };
        match mode {
            PadMode::Constant if p.interior > 0 => map.plan_interior(d, p),
            PadMode::Constant => map.plan_constant(d, p),
            _ => map.plan_index_mode(d, p, mode),
        }
        if cfg!(debug_assertions) {
            map.assert_covers(d);
        }
        map
    }

    /// Asserts the invariant the kernel's `assume_init` relies on: the center and the
    /// runs, in output order, tile `0..out_len` exactly, and every run reads inside the
    /// input (inside the center, when there is one, since the kernel copies from it).
    fn assert_covers(&self, d: usize) {
        let mut parts: SmallVec<[(usize, usize); 4]> =
            self.runs.iter().map(|&(at, run)| (at, run.len())).collect();
        let window = match self.center {
            Some(c) => {
                assert!(c.src + c.len <= d, "the center {c:?} reads inside 0..{d}");
                let before = parts.partition_point(|&(at, _)| at < c.out);
                parts.insert(before, (c.out, c.len));
                c.src..c.src + c.len
            }
            None => 0..d,
        };
        let end = parts
            .iter()
            .try_fold(0, |next, &(at, len)| (at == next).then_some(at + len));
        assert_eq!(
            end,
            Some(self.out_len),
            "the parts {parts:?} tile 0..{} in order",
            self.out_len
        );
        for &(_, run) in &self.runs {
            // Sources change by at most one per position, so the ends bound them all.
            let (first, last) = match run {
                Run::Fill { .. } => continue,
                Run::Forward { src, len } => (Some(src), src.checked_add(len - 1)),
                Run::Backward { src, len } => (Some(src), src.checked_sub(len - 1)),
                Run::Repeat { src, .. } => (Some(src), Some(src)),
                Run::Echo { .. } => continue,
            };
            assert!(
                [first, last]
                    .iter()
                    .all(|s| s.is_some_and(|s| window.contains(&s))),
                "run {run:?} reads inside {window:?}"
            );
        }
    }

    fn push(&mut self, at: usize, run: Run) {
        if run.len() > 0 {
            self.runs.push((at, run));
        }
    }

    /// `out[i] = in[i - b]` where that is inside the input, else fill.
    fn plan_constant(&mut self, d: usize, p: &AxisPad) {
        let o = self.out_len as i128;
        let b = i128::from(p.begin);
        let lo = b.max(0).min(o);
        let hi = (d as i128 + b).min(o).max(lo);
        self.push(0, Run::Fill { len: lo as usize });
        if hi > lo {
            self.center = Some(Center {
                out: lo as usize,
                src: (lo - b) as usize,
                len: (hi - lo) as usize,
            });
        }
        self.push(
            hi as usize,
            Run::Fill {
                len: (o - hi) as usize,
            },
        );
    }

    /// Interior padding: source `j` sits at `b + j·(r+1)`; everything else is fill.
    fn plan_interior(&mut self, d: usize, p: &AxisPad) {
        let o = self.out_len as i128;
        let (b, step) = (i128::from(p.begin), i128::from(p.interior) + 1);
        let first = if b >= 0 { 0 } else { (-b + step - 1) / step };
        let mut filled_to = 0i128;
        for j in first..d as i128 {
            let i = b + j * step;
            if i >= o {
                break;
            }
            self.push(
                filled_to as usize,
                Run::Fill {
                    len: (i - filled_to) as usize,
                },
            );
            self.push(
                i as usize,
                Run::Forward {
                    src: j as usize,
                    len: 1,
                },
            );
            filled_to = i + 1;
        }
        self.push(
            filled_to as usize,
            Run::Fill {
                len: (o - filled_to) as usize,
            },
        );
    }

    /// Crop first, then pad with numpy's index maps on the kept window. The borders of
    /// the periodic modes are listed next to the center over [`LISTED`] positions and a
    /// period; their far parts echo the listed ones.
    fn plan_index_mode(&mut self, d: usize, p: &AxisPad, mode: PadMode) {
        let (b, e) = (p.begin, p.end);
        // `concrete_extent` checked that the crops fit the axis, so neither is i64::MIN.
        let lo = (-b).max(0) as usize;
        let k = d - lo - (-e).max(0) as usize;
        let (pb, pe) = (b.max(0) as usize, e.max(0) as usize);
        if k == 0 {
            return; // nothing kept and nothing padded: an empty axis
        }
        let period = match mode {
            PadMode::Wrap => Some(k),
            PadMode::Reflect if k > 1 => Some(2 * (k - 1)),
            PadMode::Symmetric => Some(2 * k),
            _ => None,
        };
        // Window positions `-listed_before..0` and `k..k + listed_after` are listed.
        let (listed_before, listed_after) = match period {
            Some(period) => (
                pb.min(period.max(LISTED)),
                pe.min(period.max(k + LISTED) - k),
            ),
            None => (pb, pe),
        };
        // Only used when a border echoes, which makes the period shorter than the border
        // and so below `isize::MAX`.
        let offset = period.map_or(0, |p| isize::try_from(p).unwrap_or(isize::MAX));
        self.push(
            0,
            Run::Echo {
                offset,
                len: pb - listed_before,
            },
        );
        self.walk(-(listed_before as i64), 0, lo, k, pb, mode);
        self.center = Some(Center {
            out: pb,
            src: lo,
            len: k,
        });
        self.walk(k as i64, (k + listed_after) as i64, lo, k, pb, mode);
        self.push(
            pb + k + listed_after,
            Run::Echo {
                offset: -offset,
                len: pe - listed_after,
            },
        );
    }

    /// Runs for window positions `j0..j1` (relative to the window start `lo`).
    fn walk(&mut self, j0: i64, j1: i64, lo: usize, k: usize, pb: usize, mode: PadMode) {
        let ki = k as i64;
        let mut j = j0;
        while j < j1 {
            let run = match mode {
                PadMode::Edge if j < 0 => Run::Repeat {
                    src: lo,
                    len: (-j) as usize,
                },
                PadMode::Edge => Run::Repeat {
                    src: lo + k - 1,
                    len: usize::MAX,
                },
                PadMode::Reflect if k == 1 => Run::Repeat {
                    src: lo,
                    len: usize::MAX,
                },
                PadMode::Wrap => {
                    let m = j.rem_euclid(ki) as usize;
                    Run::Forward {
                        src: lo + m,
                        len: k - m,
                    }
                }
                PadMode::Reflect => {
                    let period = 2 * (ki - 1);
                    let m = j.rem_euclid(period);
                    if m < ki - 1 {
                        let m = m as usize;
                        Run::Forward {
                            src: lo + m,
                            len: k - 1 - m,
                        }
                    } else {
                        let back = (period - m) as usize;
                        Run::Backward {
                            src: lo + back,
                            len: back,
                        }
                    }
                }
                PadMode::Symmetric => {
                    let m = j.rem_euclid(2 * ki);
                    if m < ki {
                        let m = m as usize;
                        Run::Forward {
                            src: lo + m,
                            len: k - m,
                        }
                    } else {
                        let back = (2 * ki - 1 - m) as usize;
                        Run::Backward {
                            src: lo + back,
                            len: back + 1,
                        }
                    }
                }
                PadMode::Constant => unreachable!("constant mode is planned by plan_constant"),
            };
            let run = run.truncated((j1 - j) as usize);
            self.push((j + pb as i64) as usize, run);
            j += run.len() as i64;
        }
    }

    /// The input position every output position reads (`None`: the fill value), in a
    /// vector allocated fallibly.
    pub(crate) fn sources(&self) -> crate::Result<Vec<Option<usize>>> {
        self.segment(0..self.out_len)
    }

    /// The sources of output positions `range`, which holds whole runs, in a vector
    /// allocated fallibly.
    fn segment(&self, range: Range<usize>) -> crate::Result<Vec<Option<usize>>> {
        let start = range.start;
        let mut sources = crate::memory::filled(range.len(), None)?;
        let runs = self.runs.iter().filter(|(at, _)| range.contains(at));
        for &(at, run) in runs.clone() {
            for (t, s) in run.sources().enumerate() {
                sources[at - start + t] = Some(s);
            }
        }
        if let Some(c) = self.center {
            for t in (0..c.len).filter(|t| range.contains(&(c.out + t))) {
                sources[c.out + t - start] = Some(c.src + t);
            }
        }
        // Echoes last, as the kernel writes them: each reads a position set above, on its
        // own side of the center, or in the center itself (a border after the center longer
        // than its listed part repeats the center), which `range` may not hold.
        let center = |o: usize| {
            let c = self.center?;
            (c.out..c.out + c.len)
                .contains(&o)
                .then(|| c.src + (o - c.out))
        };
        for &(at, run) in runs {
            if let Run::Echo { offset, len } = run {
                for t in 0..len {
                    // An echo before the center reads to its right: fill it right to left.
                    let o = if offset > 0 { at + len - 1 - t } else { at + t };
                    let from = o.wrapping_add_signed(offset);
                    sources[o - start] = match range.contains(&from) {
                        true => sources[from - start],
                        false => center(from),
                    };
                }
            }
        }
        Ok(sources)
    }

    /// The map split at its center: the borders' sources listed, the center as three
    /// numbers.
    fn borders(&self) -> crate::Result<AxisBorders> {
        let c = self.center.unwrap_or(Center {
            out: 0,
            src: 0,
            len: 0,
        });
        Ok(AxisBorders {
            center_src: c.src,
            center_len: c.len,
            before: self.segment(0..c.out)?,
            after: self.segment(c.out + c.len..self.out_len)?,
        })
    }
}

/// One axis' index map as [`axis_sources`] gives it, split at its center, the stretch of
/// output that reads the input in order: only the borders are listed, so the map of a
/// long axis padded by a little is small. With the center beginning at output position
/// `b = before.len()` ([`center_out`](AxisBorders::center_out)), output position `o` reads
///
/// - `before[o]` when `o < b`;
/// - input position `center_src + o - b` when `o` is in the center;
/// - `after[o - b - center_len]` beyond it
///
/// (`None`: the fill value). Without a center (interior padding, or an axis the pad
/// crops away or fills entirely) `center_len` is 0, `before` is empty and `after` lists
/// the whole map.
///
/// ```
/// use padkit::axis_map::{AxisBorders, axis_borders};
/// use padkit::spec::AxisPad;
/// use padkit::PadMode;
/// let p = AxisPad { begin: 2, end: 1, interior: 0 };
/// let reflect = axis_borders(0, 1000, &p, PadMode::Reflect).unwrap();
/// assert_eq!(
///     reflect,
///     AxisBorders {
///         center_src: 0,
///         center_len: 1000,
///         before: vec![Some(2), Some(1)],
///         after: vec![Some(998)],
///     }
/// );
/// assert_eq!(reflect.center_out(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxisBorders {
    /// The input position the center's first position reads.
    pub center_src: usize,
    /// How many positions the center has.
    pub center_len: usize,
    /// The sources of the output positions before the center.
    pub before: Vec<Option<usize>>,
    /// The sources of the output positions after the center.
    pub after: Vec<Option<usize>>,
}

impl AxisBorders {
    /// The output position where the center begins: the length of `before`.
    ///
    /// ```
    /// use padkit::axis_map::axis_borders;
    /// use padkit::spec::AxisPad;
    /// use padkit::PadMode;
    /// let p = AxisPad { begin: 3, end: 0, interior: 0 };
    /// assert_eq!(axis_borders(0, 5, &p, PadMode::Wrap).unwrap().center_out(), 3);
    /// ```
    pub fn center_out(&self) -> usize {
        self.before.len()
    }
}

/// Where the output positions of axis `axis` (extent `d`) read from, as
/// [`axis_sources`] gives them, with the center as three numbers and only the borders
/// listed: for kernels that plan an axis on the host and read the input in order across
/// its center. The axis' rules are checked; the borders are allocated fallibly.
///
/// # Errors
///
/// Those of [`axis_sources`].
///
/// ```
/// use padkit::axis_map::axis_borders;
/// use padkit::spec::AxisPad;
/// use padkit::PadMode;
/// let crop = AxisPad { begin: -1, end: 2, interior: 0 };
/// let edge = axis_borders(0, 4, &crop, PadMode::Edge).unwrap();
/// assert_eq!((edge.center_out(), edge.center_src, edge.center_len), (0, 1, 3));
/// assert_eq!((edge.before, edge.after), (vec![], vec![Some(3), Some(3)]));
/// let too_much = AxisPad { begin: i64::MIN, end: 0, interior: 0 };
/// assert!(axis_borders(0, 4, &too_much, PadMode::Edge).is_err());
/// ```
pub fn axis_borders(
    axis: usize,
    d: usize,
    p: &AxisPad,
    mode: PadMode,
) -> crate::Result<AxisBorders> {
    let out_len = crate::axis_output(axis, &d, p, mode)?;
    AxisMap::new(d, p, mode, out_len).borders()
}

/// Where every output position of axis `axis` (extent `d`) reads from (`None`: the fill
/// value), for frameworks that compose a pad from their own gather ops. The axis' rules
/// are checked; the map is allocated fallibly.
///
/// # Errors
///
/// The errors of [`axis_output`](crate::axis_output) when `p` does not fit an axis of
/// extent `d` in `mode` (interior padding negative or outside constant mode, a negative
/// output extent, crops past the axis, padding an axis with nothing left, an overflow),
/// and [`PadError::Alloc`](crate::PadError::Alloc) when the map cannot be allocated.
///
/// ```
/// use padkit::axis_map::axis_sources;
/// use padkit::spec::AxisPad;
/// use padkit::PadMode;
/// let p = AxisPad { begin: 2, end: 1, interior: 0 };
/// let reflect = axis_sources(0, 3, &p, PadMode::Reflect).unwrap();
/// assert_eq!(reflect, vec![Some(2), Some(1), Some(0), Some(1), Some(2), Some(1)]);
/// let crop = AxisPad { begin: 1, end: -1, interior: 0 };
/// assert_eq!(axis_sources(0, 2, &crop, PadMode::Constant).unwrap(), vec![None, Some(0)]);
/// assert!(axis_sources(0, 2, &AxisPad { begin: 0, end: -3, interior: 0 }, PadMode::Edge).is_err());
/// ```
pub fn axis_sources(
    axis: usize,
    d: usize,
    p: &AxisPad,
    mode: PadMode,
) -> crate::Result<Vec<Option<usize>>> {
    let out_len = crate::axis_output(axis, &d, p, mode)?;
    AxisMap::new(d, p, mode, out_len).sources()
}

/// Consecutive source positions of an axis map, read up or down: the slices that copy it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceRun {
    /// The first position read.
    pub start: usize,
    /// How many positions.
    pub len: usize,
    /// Read `start`, `start - 1`, … instead of `start`, `start + 1`, ….
    pub descending: bool,
}

impl SourceRun {
    /// `start`, `start + 1`, … (`len` positions).
    ///
    /// ```
    /// let run = padkit::axis_map::SourceRun::up(2, 3);
    /// assert!(!run.descending && run.start == 2 && run.len == 3);
    /// ```
    pub fn up(start: usize, len: usize) -> SourceRun {
        SourceRun {
            start,
            len,
            descending: false,
        }
    }
}

/// The maximal runs of the source positions `sources` (those of [`axis_sources`] that read
/// the data, say): ascending, and descending too where `down`; a lone position is an
/// ascending run of one. The lowerings slice a map's runs; each caps how many it takes.
///
/// ```
/// use padkit::axis_map::{SourceRun, source_runs};
/// // reflect's map of an axis of 4 padded by 2 and 2
/// let map = [2, 1, 0, 1, 2, 3, 2, 1];
/// let down = |start, len| SourceRun { start, len, descending: true };
/// assert_eq!(source_runs(map, true), [down(2, 3), SourceRun::up(1, 3), down(2, 2)]);
/// assert_eq!(source_runs(map, false).len(), 5);
/// ```
pub fn source_runs(sources: impl IntoIterator<Item = usize>, down: bool) -> Vec<SourceRun> {
    let mut runs: Vec<SourceRun> = vec![];
    for i in sources {
        if let Some(last) = runs.last_mut() {
            let next_up = !last.descending && last.start + last.len == i;
            let next_down = down
                && (last.descending || last.len == 1)
                && last.start.checked_sub(last.len) == Some(i);
            if next_up || next_down {
                last.descending = next_down;
                last.len += 1;
                continue;
            }
        }
        runs.push(SourceRun::up(i, 1));
    }
    runs
}

#[cfg(test)]
mod source_runs_tests {
    use super::{SourceRun as Run, source_runs};

    fn runs(map: &[usize], down: bool) -> Vec<Run> {
        source_runs(map.iter().copied(), down)
    }

    fn down(start: usize, len: usize) -> Run {
        Run {
            start,
            len,
            descending: true,
        }
    }

    /// Reflect's map of an axis of 4 padded by 2 and 2, `[2, 1, 0, 1, 2, 3, 2, 1]`: read
    /// down where `Slice` takes a step of -1, three runs; else only ascending runs, the
    /// lone indices each a run of one.
    #[test]
    fn a_reflect_map_splits_into_its_mirrored_runs() {
        let map = [2, 1, 0, 1, 2, 3, 2, 1];
        assert_eq!(runs(&map, true), [down(2, 3), Run::up(1, 3), down(2, 2)]);
        let up = [(2, 1), (1, 1), (0, 4), (2, 1), (1, 1)].map(|(s, n)| Run::up(s, n));
        assert_eq!(runs(&map, false), up);
    }

    /// Edge's map `[0, 0, 0, 1, 2, 3, 3]`: a repeated index is no run, up or down.
    #[test]
    fn repeated_indices_are_runs_of_one() {
        let map = [0, 0, 0, 1, 2, 3, 3];
        let want = [(0, 1), (0, 1), (0, 4), (3, 1)].map(|(s, n)| Run::up(s, n));
        assert_eq!(runs(&map, true), want);
    }

    /// A descending run stops at index 0 (no position below it), and an empty map has none.
    #[test]
    fn a_run_down_ends_at_the_first_position() {
        assert_eq!(runs(&[1, 0, 0], true), [down(1, 2), Run::up(0, 1)]);
        assert_eq!(runs(&[], true), []);
    }
}
