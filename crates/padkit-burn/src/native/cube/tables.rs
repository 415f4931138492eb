//! The per-axis index tables the CubeCL kernels read, planned on the host from padkit's
//! own index maps ([`padkit::axis_sources`]), so the device runs exactly the core's
//! semantics for every mode, crop and interior padding.
//!
//! Both tables start with one entry per axis: where that axis' block begins. A block
//! starts with the axis' *center*, the stretch of output that reads the input in order
//! (`center_out`, `center_len`, `center_src`: output index `center_out + t` reads input
//! index `center_src + t`), and lists only the border positions, so a table is as long as
//! the borders, not the output (a 1-D pad of a long signal uploads a few entries).

use padkit::{PadError, PadSpec, axis_sources};

/// Entries at the head of a pad-table block: `center_out`, `center_len`, `center_src`.
const CENTER: usize = 3;

/// True when tables for a pad of `input` to `output` fit the kernels' 32-bit indexing:
/// every entry, and every position in a table, is below `i32::MAX`.
pub(crate) fn fit(input: &[usize], output: &[usize]) -> bool {
    let per_axis = input
        .iter()
        .zip(output)
        .try_fold(input.len(), |sum, (&n, &m)| {
            // the larger (adjoint) block: center, window, n + 1 offsets, m targets
            sum.checked_add(CENTER + 2 + n.checked_add(1)?.checked_add(m)?)
        });
    per_axis.is_some_and(|len| len <= i32::MAX as usize)
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
                let src = (-p.begin).max(0).unsigned_abs() as usize;
                let len = n
                    .saturating_sub(src)
                    .min(sources.len().saturating_sub(first));
                (first, len, src)
            };
            debug_assert!(
                (0..center.1).all(|t| sources[center.0 + t] == Some(center.2 + t)),
                "axis {axis}: the center {center:?} reads the input in order"
            );
            Ok(Axis { sources, center })
        })
        .collect()
}

/// `t` as a table entry; [`fit`] said it fits.
fn entry(t: usize) -> i32 {
    i32::try_from(t).expect("tables are planned only where `fit` holds")
}

/// Appends the head (one slot per axis) and returns the table.
fn with_head(rank: usize) -> Vec<i32> {
    vec![0; rank]
}

/// The forward table: per axis, the center, then the source of each border position in
/// output order (-1: fill).
///
/// # Errors
///
/// Those of [`axis_sources`]: a spec that does not fit `in_shape` (checked before).
pub(crate) fn sources(in_shape: &[usize], spec: &PadSpec) -> Result<Vec<i32>, PadError> {
    let axes = axes(in_shape, spec)?;
    let mut table = with_head(axes.len());
    for (axis, a) in axes.iter().enumerate() {
        table[axis] = entry(table.len());
        let (out, len, src) = a.center;
        table.extend([entry(out), entry(len), entry(src)]);
        let border = a.sources[..out].iter().chain(&a.sources[out + len..]);
        table.extend(border.map(|s| s.map_or(-1, entry)));
    }
    Ok(table)
}

/// The adjoint table: per axis, the center, the window `lo..hi` of input indices that
/// border positions read, `hi - lo + 1` positions in the table where each one's list of
/// border output indices begins (and the last ends), then those lists, in output order.
///
/// # Errors
///
/// Those of [`axis_sources`]: a spec that does not fit `in_shape` (checked before).
pub(crate) fn targets(in_shape: &[usize], spec: &PadSpec) -> Result<Vec<i32>, PadError> {
    let axes = axes(in_shape, spec)?;
    let mut table = with_head(axes.len());
    for (axis, a) in axes.iter().enumerate() {
        table[axis] = entry(table.len());
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
        let mut counts = vec![0usize; hi - lo];
        for &(s, _) in &border {
            counts[s - lo] += 1;
        }
        table.extend([entry(out), entry(len), entry(src), entry(lo), entry(hi)]);
        let mut at = table.len() + counts.len() + 1;
        let starts = table.len();
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
    Ok(table)
}

#[cfg(test)]
mod tests {
    //! The tables read back on the host, as the kernels read them, against padkit's index
    //! maps and its adjoint.
    use super::*;
    use padkit::{PadMode, pad_adjoint};

    /// The forward table read as `pad_kernel` reads it: axis `axis`, output index `o`.
    fn source(table: &[i32], axis: usize, o: usize) -> Option<usize> {
        let b = table[axis] as usize;
        let (out, len, src) = (
            table[b] as usize,
            table[b + 1] as usize,
            table[b + 2] as usize,
        );
        if (out..out + len).contains(&o) {
            return Some(src + o - out);
        }
        let i = if o < out { o } else { o - len };
        usize::try_from(table[b + CENTER + i]).ok()
    }

    /// The output indices the adjoint table lists for input index `q` of `axis`.
    fn targets_of(table: &[i32], axis: usize, q: usize) -> Vec<usize> {
        let b = table[axis] as usize;
        let [out, len, src, lo, hi] = std::array::from_fn(|k| table[b + k] as usize);
        let mut v = Vec::new();
        if (lo..hi).contains(&q) {
            let (s, e) = (table[b + 5 + q - lo], table[b + 5 + q - lo + 1]);
            v.extend((s..e).map(|k| table[k as usize] as usize));
        }
        if (src..src + len).contains(&q) {
            v.push(q - src + out);
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
    }
}
