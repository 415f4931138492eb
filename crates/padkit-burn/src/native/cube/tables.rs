//! The per-axis index maps the CubeCL kernels read, planned on the host from padkit's own
//! index maps ([`padkit::axis_map::axis_borders`]), so the device runs exactly the core's semantics
//! for every mode, crop and interior padding.
//!
//! Each axis has a [`Head`], passed to the kernels as scalars: its *center*, the stretch
//! of output that reads the input in order, and where its entries begin in one shared
//! table. The table lists only border positions, so it is as long as the borders, not
//! the output (a 1-D pad of a long signal plans and uploads a few entries), and the
//! kernels read it only at borders.

use padkit::axis_map::{AxisBorders, axis_borders};
use padkit::{PadError, PadSpec};

/// One axis' scalars: output index `center_out + t` reads input index `center_src + t`
/// for `t < center_len`; its entries begin at `block` in the table. The adjoint's border
/// targets are listed for the input indices of two disjoint windows,
/// `first_window_start..first_window_end` and `second_window_start..second_window_end`
/// (the input indices the borders before and after the center read; the second empty
/// when they merge), whose offsets begin at `block` and `block + first_window_end -
/// first_window_start + 1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Head {
    pub(crate) center_out: usize,
    pub(crate) center_len: usize,
    pub(crate) center_src: usize,
    pub(crate) block: usize,
    pub(crate) first_window_start: usize,
    pub(crate) first_window_end: usize,
    pub(crate) second_window_start: usize,
    pub(crate) second_window_end: usize,
}

impl Head {
    /// The vectors of `width` elements of an output row that lie inside its center
    /// (`first..last`), as the pad's center launch writes them.
    pub(crate) fn center_vectors(&self, width: usize, vectors: usize) -> (usize, usize) {
        let first = self.center_out.div_ceil(width).min(vectors);
        (
            first,
            ((self.center_out + self.center_len) / width).max(first),
        )
    }

    /// The longest run of vectors of `width` elements of an input row whose elements each
    /// have one target, the center's (`first..last`: read by the center and in neither
    /// window), as the adjoint's center launch sums them.
    pub(crate) fn sole_target_vectors(&self, width: usize) -> (usize, usize) {
        let mut pieces = vec![(self.center_src, self.center_src + self.center_len)];
        for (lo, hi) in [
            (self.first_window_start, self.first_window_end),
            (self.second_window_start, self.second_window_end),
        ] {
            pieces = pieces
                .into_iter()
                .flat_map(|(a, b)| [(a, b.min(lo)), (a.max(hi), b)])
                .filter(|(a, b)| a < b)
                .collect();
        }
        pieces
            .into_iter()
            .map(|(a, b)| (a.div_ceil(width), b / width))
            .filter(|(first, last)| first < last)
            .max_by_key(|(first, last)| last - first)
            .unwrap_or((0, 0))
    }

    /// The head of `axis` with its center; `block` where its entries begin.
    fn new(axis: &AxisBorders, block: usize) -> Head {
        Head {
            center_out: axis.center_out(),
            center_len: axis.center_len,
            center_src: axis.center_src,
            block,
            ..Head::default()
        }
    }
}

/// Per-axis heads and the table their entries are in (never empty: one leading unused
/// entry, as a device binds no empty buffer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tables {
    pub(crate) heads: Vec<Head>,
    pub(crate) table: Vec<i32>,
}

/// True when tables for a pad of `input` to `output` fit the kernels' 32-bit indexing:
/// every entry, and every position in a table, is below `i32::MAX`.
pub(crate) fn fit(input: &[usize], output: &[usize]) -> bool {
    let len = input.iter().zip(output).try_fold(1usize, |sum, (&n, &m)| {
        // the larger (adjoint) block: at most n + 2 offsets, at most m targets
        sum.checked_add(n.checked_add(m)?.checked_add(2)?)
    });
    len.is_some_and(|len| len <= i32::MAX as usize)
}

/// Each axis' map, split at its center, from padkit.
fn axes(in_shape: &[usize], spec: &PadSpec) -> Result<Vec<AxisBorders>, PadError> {
    let pads = spec.resolve(in_shape.len())?;
    in_shape
        .iter()
        .zip(&pads)
        .enumerate()
        .map(|(axis, (&n, p))| {
            let a = axis_borders(axis, n, p, spec.mode)?;
            // What the kernels' unchecked indexing rests on, checked in release builds too
            // (a pass over the borders, small beside the upload).
            assert!(
                a.center_src
                    .checked_add(a.center_len)
                    .is_some_and(|end| end <= n)
                    && a.before.iter().chain(&a.after).flatten().all(|&s| s < n),
                "axis {axis}: the center reads inside 0..{n}, and so does every border source"
            );
            Ok(a)
        })
        .collect()
}

/// `t` as a table entry; [`fit`] said it fits.
fn entry(t: usize) -> i32 {
    i32::try_from(t).expect("tables are planned only where `fit` holds")
}

/// The forward maps: per axis, the source of each border position in output order (-1:
/// fill).
///
/// # Errors
///
/// Those of [`axis_borders`]: a spec that does not fit `in_shape` (checked before).
pub(crate) fn sources(in_shape: &[usize], spec: &PadSpec) -> Result<Tables, PadError> {
    let mut table = vec![0];
    let mut heads = Vec::with_capacity(in_shape.len());
    for a in axes(in_shape, spec)? {
        heads.push(Head::new(&a, table.len()));
        let border = a.before.iter().chain(&a.after);
        table.extend(border.map(|s| s.map_or(-1, entry)));
    }
    Ok(Tables { heads, table })
}

/// The smallest window `lo..hi` holding every source of `border` (`0..0`: none).
fn window(border: &[Option<usize>]) -> (usize, usize) {
    let sources = border.iter().flatten();
    match (sources.clone().min(), sources.max()) {
        (Some(&lo), Some(&hi)) => (lo, hi + 1),
        _ => (0, 0),
    }
}

/// The adjoint maps: per axis, for each of its two windows (see [`Head`]), `hi - lo + 1`
/// positions in the table where the list of border output indices reading each input
/// index of the window begins (and the last ends); then those lists, each in output
/// order. The windows are those of the borders before and after the center, merged when
/// they overlap, so that each stays as small as its border.
///
/// # Errors
///
/// Those of [`axis_borders`]: a spec that does not fit `in_shape` (checked before).
pub(crate) fn targets(in_shape: &[usize], spec: &PadSpec) -> Result<Tables, PadError> {
    let mut table = vec![0];
    let mut heads = Vec::with_capacity(in_shape.len());
    for a in axes(in_shape, spec)? {
        let mut head = Head::new(&a, table.len());
        let (before, after) = (window(&a.before), window(&a.after));
        let ((lo, hi), (lo2, hi2)) = match (before, after) {
            (b, (0, 0)) | ((0, 0), b) => (b, (0, 0)),
            (b, e) if b.0 < e.1 && e.0 < b.1 => ((b.0.min(e.0), b.1.max(e.1)), (0, 0)),
            windows => windows,
        };
        (
            head.first_window_start,
            head.first_window_end,
            head.second_window_start,
            head.second_window_end,
        ) = (lo, hi, lo2, hi2);
        heads.push(head);
        // Where input index s's offset is: in the first window, else in the second.
        let slot = |s: usize| {
            if (lo..hi).contains(&s) {
                s - lo
            } else {
                hi - lo + 1 + s - lo2
            }
        };
        let after_start = a.center_out() + a.center_len;
        let border: Vec<(usize, usize)> = (a.before.iter().enumerate())
            .chain(
                a.after
                    .iter()
                    .enumerate()
                    .map(|(t, s)| (after_start + t, s)),
            )
            .filter_map(|(o, s)| s.map(|s| (slot(s), o)))
            .collect();
        let slots = hi - lo + 1 + hi2 - lo2 + 1;
        let mut counts = vec![0usize; slots];
        for &(k, _) in &border {
            counts[k] += 1;
        }
        // Offsets: slot k's list is table[offset(k)..offset(k + 1)]; each window's last
        // offset closes its lists, so the second window's first slot repeats it.
        let starts = table.len();
        let mut at = starts + slots;
        for c in counts {
            table.push(entry(at));
            at += c;
        }
        // Each input index's list, its output indices in increasing order.
        table.resize(at, 0);
        let mut next: Vec<usize> = (0..slots)
            .map(|k| table[starts + k].unsigned_abs() as usize)
            .collect();
        for (k, o) in border {
            table[next[k]] = entry(o);
            next[k] += 1;
        }
    }
    Ok(Tables { heads, table })
}

#[cfg(test)]
mod tests {
    //! The tables read back on the host, as the kernels read them, against padkit's index
    //! maps and its adjoint.
    use super::*;
    use padkit::axis_map::axis_sources;
    use padkit::{PadMode, pad_adjoint};

    /// The forward maps read as `pad_kernel` reads them: axis `axis`, output index `o`.
    fn source(t: &Tables, axis: usize, o: usize) -> Option<usize> {
        let h = t.heads[axis];
        if (h.center_out..h.center_out + h.center_len).contains(&o) {
            return Some(h.center_src + o - h.center_out);
        }
        let i = if o < h.center_out {
            o
        } else {
            o - h.center_len
        };
        usize::try_from(t.table[h.block + i]).ok()
    }

    /// The output indices the adjoint maps list for input index `q` of `axis`.
    fn targets_of(t: &Tables, axis: usize, q: usize) -> Vec<usize> {
        let h = t.heads[axis];
        let mut v = Vec::new();
        let at = if (h.first_window_start..h.first_window_end).contains(&q) {
            Some(h.block + q - h.first_window_start)
        } else {
            (h.second_window_start..h.second_window_end)
                .contains(&q)
                .then(|| {
                    h.block + h.first_window_end - h.first_window_start + 1 + q
                        - h.second_window_start
                })
        };
        if let Some(at) = at {
            let (s, e) = (t.table[at], t.table[at + 1]);
            v.extend((s..e).map(|k| t.table[k as usize] as usize));
        }
        if (h.center_src..h.center_src + h.center_len).contains(&q) {
            v.push(q - h.center_src + h.center_out);
        }
        v
    }

    fn specs() -> Vec<PadSpec> {
        let mut v: Vec<PadSpec> = PadMode::ALL
            .into_iter()
            .flat_map(|m| {
                [
                    PadSpec::new(vec![2, -1, 7, 5]).with_mode(m),
                    PadSpec::new(vec![-2, 1, 0, -2]).with_mode(m),
                    PadSpec::new(vec![0, 0, 9, 0]).with_mode(m),
                    // padded before, then cropped past that padding after
                    PadSpec::new(vec![5, 0, -3, 0]).with_mode(m),
                ]
            })
            .collect();
        v.push(PadSpec::new(vec![1, -2, 0, 3]).with_interior(vec![2, 1]));
        v.push(PadSpec::new(vec![-4, 0, 0, 0]));
        // cropped past the axis on one side, padded back on the other: all fill
        v.push(PadSpec::new(vec![0, -3_000_000_000, 0, 3_000_000_000]));
        v.push(PadSpec::new(vec![0, i64::MIN, 0, i64::MAX]));
        v
    }

    /// Every spec on input shapes whose second axis' border windows overlap, or do not.
    fn cases() -> impl Iterator<Item = ([usize; 2], PadSpec)> {
        [[4, 3], [5, 12]]
            .into_iter()
            .flat_map(|shape| specs().into_iter().map(move |spec| (shape, spec)))
    }

    #[test]
    fn forward_tables_read_back_padkit_index_maps() {
        for (shape, spec) in cases() {
            let table = sources(&shape, &spec).unwrap();
            let pads = spec.resolve(2).unwrap();
            for (axis, p) in pads.iter().enumerate() {
                let want = axis_sources(axis, shape[axis], p, spec.mode).unwrap();
                let got: Vec<_> = (0..want.len()).map(|o| source(&table, axis, o)).collect();
                assert_eq!(got, want, "{spec:?} axis {axis}");
            }
        }
    }

    #[test]
    fn adjoint_tables_sum_to_padkit_adjoint() {
        for (shape, spec) in cases() {
            let table = targets(&shape, &spec).unwrap();
            let out_shape = padkit::output_shape(&shape, &spec).unwrap();
            let grad: Vec<f64> = (0..out_shape.iter().product::<usize>())
                .map(|i| (i * 37 % 11) as f64)
                .collect();
            let want = pad_adjoint(&grad, &shape, &spec).unwrap();
            let mut got = Vec::new();
            for q0 in 0..shape[0] {
                for q1 in 0..shape[1] {
                    let mut sum = 0.0;
                    for o0 in targets_of(&table, 0, q0) {
                        for o1 in targets_of(&table, 1, q1) {
                            sum += grad[o0 * out_shape[1] + o1];
                        }
                    }
                    got.push(sum);
                }
            }
            assert_eq!(got, want, "{spec:?}");
        }
    }

    #[test]
    fn the_fast_vectors_lie_where_the_kernels_read_one_vector() {
        for (shape, spec) in cases() {
            let (fwd, adj) = (sources(&shape, &spec), targets(&shape, &spec));
            let (fwd, adj) = (fwd.unwrap(), adj.unwrap());
            let out = padkit::output_shape(&shape, &spec).unwrap();
            for width in [1, 2, 4] {
                let (first, last) = fwd.heads[1].center_vectors(width, out[1] / width);
                let h = fwd.heads[1];
                for o in first * width..last * width {
                    assert_eq!(source(&fwd, 1, o), Some(h.center_src + o - h.center_out));
                    assert!((h.center_out..h.center_out + h.center_len).contains(&o));
                }
                let (first, last) = adj.heads[1].sole_target_vectors(width);
                let h = adj.heads[1];
                assert!(last * width <= shape[1], "{spec:?}");
                for q in first * width..last * width {
                    let center = q.wrapping_sub(h.center_src).wrapping_add(h.center_out);
                    assert_eq!(targets_of(&adj, 1, q), vec![center], "{spec:?} {q}");
                }
            }
        }
        // a long row: the sole targets are all but the vectors the borders read
        let spec = PadSpec::new(vec![3, 2]).with_mode(PadMode::Reflect);
        let h = targets(&[64], &spec).unwrap().heads[0];
        assert_eq!(h.sole_target_vectors(4), (1, 15));
    }

    #[test]
    fn a_long_axis_padded_by_a_little_has_small_tables() {
        for mode in PadMode::ALL {
            let spec = PadSpec::new(vec![3, 2]).with_mode(mode);
            let (fwd, adj) = (sources(&[1 << 22], &spec), targets(&[1 << 22], &spec));
            let (fwd, adj) = (fwd.unwrap(), adj.unwrap());
            assert_eq!(fwd.table.len(), 1 + 5, "{mode:?}");
            assert!(adj.table.len() <= 1 + 5 + 2 + 5 + 1, "{mode:?}: {adj:?}");
        }
    }

    #[test]
    fn tables_that_would_not_index_in_32_bits_are_refused() {
        assert!(fit(&[4, 3], &[9, 3]));
        assert!(!fit(&[1 << 31], &[1 << 31]));
        assert!(!fit(&[usize::MAX], &[1]));
        assert!(!fit(&[0, usize::MAX / 2], &[0, usize::MAX / 2]));
    }
}
