//! The per-axis index maps the CubeCL kernels read, planned on the host from padkit's own
//! index maps ([`padkit::axis_sources`]), so the device runs exactly the core's semantics
//! for every mode, crop and interior padding.
//!
//! Each axis has a [`Head`], passed to the kernels as scalars: its *center*, the stretch
//! of output that reads the input in order, and where its entries begin in one shared
//! table. The table lists only border positions, so it is as long as the borders, not
//! the output (a 1-D pad of a long signal uploads a few entries), and the kernels read it
//! only at borders.

use padkit::{PadError, PadSpec, axis_sources};

/// One axis' scalars: output index `center_out + t` reads input index `center_src + t`
/// for `t < center_len`; its entries begin at `block` in the table; the adjoint's window
/// `lo..hi` holds the input indices that border positions read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Head {
    pub(crate) center_out: usize,
    pub(crate) center_len: usize,
    pub(crate) center_src: usize,
    pub(crate) block: usize,
    pub(crate) lo: usize,
    pub(crate) hi: usize,
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
        // the larger (adjoint) block: n + 1 offsets, at most m targets
        sum.checked_add(n.checked_add(m)?.checked_add(1)?)
    });
    len.is_some_and(|len| len <= i32::MAX as usize)
}

/// One axis: the input index each output index reads (`None`: fill), and its center.
struct Axis {
    sources: Vec<Option<usize>>,
    center: (usize, usize, usize),
}

fn axes(in_shape: &[usize], spec: &PadSpec) -> Result<Vec<Axis>, PadError> {
    let pads = spec.resolve(in_shape.len())?;
    in_shape
        .iter()
        .zip(&pads)
        .enumerate()
        .map(|(axis, (&n, p))| {
            let sources = axis_sources(axis, n, p, spec.mode)?;
            let center = if p.interior > 0 && n > 1 {
                (0, 0, 0)
            } else {
                // Output index o reads input index o - begin wherever that is an index.
                // (clamped: a pad that crops past its own padding starts beyond the output)
                let first = (p.begin.max(0).unsigned_abs() as usize).min(sources.len());
                let src = usize::try_from(-i128::from(p.begin)).unwrap_or(0);
                match n.saturating_sub(src).min(sources.len() - first) {
                    0 => (first, 0, 0),
                    len => (first, len, src),
                }
            };
            // What the kernels' unchecked indexing rests on, checked in release builds too
            // (a pass over the axis map, small beside the upload).
            assert!(
                (0..center.1).all(|t| sources[center.0 + t] == Some(center.2 + t))
                    && sources.iter().flatten().all(|&s| s < n),
                "axis {axis}: the center {center:?} reads the input in order, every source \
                 is below {n}"
            );
            Ok(Axis { sources, center })
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
/// Those of [`axis_sources`]: a spec that does not fit `in_shape` (checked before).
pub(crate) fn sources(in_shape: &[usize], spec: &PadSpec) -> Result<Tables, PadError> {
    let axes = axes(in_shape, spec)?;
    let mut table = vec![0];
    let mut heads = Vec::with_capacity(axes.len());
    for a in &axes {
        let (out, len, src) = a.center;
        heads.push(Head {
            center_out: out,
            center_len: len,
            center_src: src,
            block: table.len(),
            ..Head::default()
        });
        let border = a.sources[..out].iter().chain(&a.sources[out + len..]);
        table.extend(border.map(|s| s.map_or(-1, entry)));
    }
    Ok(Tables { heads, table })
}

/// The adjoint maps: per axis, `hi - lo + 1` positions in the table where the list of
/// border output indices reading each input index of the window begins (and the last
/// ends), then those lists, in output order.
///
/// # Errors
///
/// Those of [`axis_sources`]: a spec that does not fit `in_shape` (checked before).
pub(crate) fn targets(in_shape: &[usize], spec: &PadSpec) -> Result<Tables, PadError> {
    let axes = axes(in_shape, spec)?;
    let mut table = vec![0];
    let mut heads = Vec::with_capacity(axes.len());
    for a in &axes {
        let (out, len, src) = a.center;
        let border: Vec<(usize, usize)> = a
            .sources
            .iter()
            .enumerate()
            .filter(|&(o, _)| !(out..out + len).contains(&o))
            .filter_map(|(o, s)| s.map(|s| (s, o)))
            .collect();
        let lo = border.iter().map(|&(s, _)| s).min().unwrap_or(0);
        let hi = border.iter().map(|&(s, _)| s + 1).max().unwrap_or(0);
        heads.push(Head {
            center_out: out,
            center_len: len,
            center_src: src,
            block: table.len(),
            lo,
            hi,
        });
        let mut counts = vec![0usize; hi - lo];
        for &(s, _) in &border {
            counts[s - lo] += 1;
        }
        let starts = table.len();
        let mut at = starts + counts.len() + 1;
        for c in counts {
            table.push(entry(at));
            at += c;
        }
        table.push(entry(at));
        // Each input index's list, its output indices in increasing order.
        table.resize(at, 0);
        let mut next: Vec<usize> = (0..hi - lo)
            .map(|q| table[starts + q].unsigned_abs() as usize)
            .collect();
        for (s, o) in border {
            table[next[s - lo]] = entry(o);
            next[s - lo] += 1;
        }
    }
    Ok(Tables { heads, table })
}

#[cfg(test)]
mod tests {
    //! The tables read back on the host, as the kernels read them, against padkit's index
    //! maps and its adjoint.
    use super::*;
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
        if (h.lo..h.hi).contains(&q) {
            let (s, e) = (t.table[h.block + q - h.lo], t.table[h.block + q - h.lo + 1]);
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

    #[test]
    fn forward_tables_read_back_padkit_index_maps() {
        let shape = [4, 3];
        for spec in specs() {
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
        let shape = [4usize, 3];
        for spec in specs() {
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
    fn tables_that_would_not_index_in_32_bits_are_refused() {
        assert!(fit(&[4, 3], &[9, 3]));
        assert!(!fit(&[1 << 31], &[1 << 31]));
        assert!(!fit(&[usize::MAX], &[1]));
        assert!(!fit(&[0, usize::MAX / 2], &[0, usize::MAX / 2]));
    }
}
