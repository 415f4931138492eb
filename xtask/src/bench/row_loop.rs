//! A hand-written row loop as a bench job: a yardstick for what copying row by row costs,
//! against the floor's single copy.

use super::workloads::Workload;
use padkit::{PadMode, Tensor};

use super::Job;
use super::buffers::{LineAligned, bytes};

/// Pushes `row-loop` when `w` is a constant pad of its last two axes only.
pub(super) fn push(w: &Workload, x: &Tensor, jobs: &mut Vec<(String, Job)>) {
    let width = bytes(x).len() / w.input_len().max(1);
    if let Some(g) = Rows::of(w, width) {
        jobs.push(("row-loop".into(), row_loop_job(g, x)));
    }
}

/// The geometry of a constant pad of the last two axes only: what [`row_loop`] needs.
#[derive(Debug, Clone, Copy)]
struct Rows {
    planes: usize,
    /// Input rows per plane and elements per input row.
    h: usize,
    w: usize,
    /// Output rows per plane and elements per output row.
    oh: usize,
    ow: usize,
    /// Begin pads (negative: crops) of the rows and of the columns.
    top: i64,
    left: i64,
    /// Bytes per element.
    width: usize,
}

impl Rows {
    /// The geometry of `w`, when it is a constant pad of its last two axes only.
    fn of(w: &Workload, width: usize) -> Option<Rows> {
        let r = w.shape.len();
        let pads = w.spec.resolve(r).ok()?;
        let outer_untouched = pads[..r.checked_sub(2)?].iter().all(|p| p.is_identity());
        let no_interior = pads.iter().all(|p| p.interior == 0);
        if w.spec.mode != PadMode::Constant || !outer_untouched || !no_interior {
            return None;
        }
        let out = w.output_shape();
        Some(Rows {
            planes: w.shape[..r - 2].iter().product(),
            h: w.shape[r - 2],
            w: w.shape[r - 1],
            oh: out[r - 2],
            ow: out[r - 1],
            top: pads[r - 2].begin,
            left: pads[r - 1].begin,
            width,
        })
    }
}

/// A hand-written row loop for constant pads of the last two axes (zero fill): each
/// output row is a fill, one `memcpy` of the input row and a fill, or one fill. It is
/// not a peer but a yardstick: what copying row by row costs here, against the floor's
/// single `memcpy` of the same bytes.
fn row_loop(g: Rows, src: &[u8], out: &mut [u8]) {
    let (row_in, row_out) = (g.w * g.width, g.ow * g.width);
    // Output column c reads input column c - left: copy `n` columns from `s0` to `c0`.
    let (c0, s0) = (g.left.max(0) as usize, (-g.left).max(0) as usize);
    let n = g.w.saturating_sub(s0).min(g.ow.saturating_sub(c0));
    let (c0, s0, n) = (c0 * g.width, s0 * g.width, n * g.width);
    for (p, plane) in out.chunks_exact_mut(g.oh * row_out).enumerate() {
        for (ro, row) in plane.chunks_exact_mut(row_out).enumerate() {
            let ri = ro as i64 - g.top;
            if !(0..g.h as i64).contains(&ri) {
                row.fill(0);
                continue;
            }
            let from = (p * g.h + ri as usize) * row_in + s0;
            row[..c0].fill(0);
            row[c0..c0 + n].copy_from_slice(&src[from..from + n]);
            row[c0 + n..].fill(0);
        }
    }
}

fn row_loop_job(g: Rows, x: &Tensor) -> Job {
    let src = LineAligned::copy_of(bytes(x));
    let mut out = LineAligned::zeroed(g.planes * g.oh * g.ow * g.width);
    Box::new(move || {
        row_loop(g, src.bytes(), out.bytes_mut());
        std::hint::black_box(out.bytes_mut());
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::buffers::input;
    use padkit::DType;

    #[test]
    fn the_row_loop_pads_like_padkit() {
        let shapes_pads: [(&[usize], Vec<i64>); 4] = [
            (&[2, 3, 4, 5], vec![0, 0, 2, 1, 0, 0, 1, 3]),
            (&[2, 3, 4, 5], vec![0, 0, -1, -2, 0, 0, -1, -1]),
            (&[3, 4, 5], vec![0, -3, 2, 0, 1, -2]),
            (&[1, 2, 3], vec![0, 0, 4, 0, 0, -3]),
        ];
        for (shape, pads) in shapes_pads {
            for (width, dtype) in [(1, DType::UInt8), (4, DType::Float32)] {
                let w = Workload {
                    name: "small".into(),
                    shape: shape.to_vec(),
                    dtype,
                    spec: padkit::PadSpec::new(pads.clone()),
                };
                let x = input(&w);
                let g = Rows::of(&w, width).expect("a constant pad of the last two axes");
                let mut out = vec![7; w.output_len() * width];
                row_loop(g, bytes(&x), &mut out);
                let (_, expected) =
                    padkit::run::pad_bytes(bytes(&x), width, shape, &w.spec, &vec![0; width])
                        .unwrap();
                assert_eq!(out, expected, "{shape:?} {pads:?} width {width}");
            }
        }
    }
}
