//! The one pad kernel, generic over the element type, and the typed entry points.
//!
//! The output is written exactly once: each axis writes its center from the input, then
//! produces its other runs by copying blocks it already wrote (fills are slice fills).
//! Short rows use a precomputed per-element program.

use rayon::prelude::*;

use crate::axis_map::Run;
use crate::plan::FILL;
use crate::{PadError, PadSpec, Plan, Result};

/// Blocks at least this large are split across rayon's threads.
const PARALLEL_BYTES: usize = 4 << 20;

/// Pads `input` (row-major, of `shape`) into a new buffer; returns the output shape and
/// data. `value` fills constant-mode padding and is ignored by the other modes.
///
/// ```
/// use padkit::{pad, PadSpec, PadMode};
/// // The ONNX reflect example: pads wider than the axis follow numpy.
/// let data = [1.0, 1.2, 2.3, 3.4, 4.5, 5.7];
/// let spec = PadSpec::new(vec![0, 2, 0, 0]).with_mode(PadMode::Reflect);
/// let (shape, out) = pad(&data, &[3, 2], &spec, 0.0).unwrap();
/// assert_eq!(shape, vec![3, 4]);
/// assert_eq!(out, vec![1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7]);
/// ```
pub fn pad<T: Clone + Send + Sync>(
    input: &[T],
    shape: &[usize],
    spec: &PadSpec,
    value: T,
) -> Result<(Vec<usize>, Vec<T>)> {
    let plan = Plan::new(shape, spec, size_of::<T>())?;
    let mut out = alloc(plan.output_len(), value.clone())?;
    plan.run(input, &value, &mut out)?;
    Ok((plan.output_shape, out))
}

/// Pads into the caller's buffer, which must hold exactly the output; returns the output
/// shape. Reusing one buffer avoids the page faults of a fresh allocation.
///
/// ```
/// use padkit::{pad_into, PadSpec, PadMode};
/// let mut out = vec![0u8; 6];
/// let spec = PadSpec::new(vec![1, -1]).with_mode(PadMode::Wrap);
/// // crop first, then pad: [1,2,3,4] → window [1,2,3] → [3,1,2,3]
/// let shape = pad_into(&[1, 2, 3, 4], &[4], &spec, 0, &mut out[..4]).unwrap();
/// assert_eq!((shape, &out[..4]), (vec![4], &[3, 1, 2, 3][..]));
/// ```
pub fn pad_into<T: Clone + Send + Sync>(
    input: &[T],
    shape: &[usize],
    spec: &PadSpec,
    value: T,
    out: &mut [T],
) -> Result<Vec<usize>> {
    let plan = Plan::new(shape, spec, size_of::<T>())?;
    plan.run(input, &value, out)?;
    Ok(plan.output_shape)
}

/// `len` copies of `value`, failing with [`PadError::Alloc`] instead of aborting.
pub(crate) fn alloc<T: Clone>(len: usize, value: T) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| PadError::Alloc {
        bytes: len.saturating_mul(size_of::<T>()),
    })?;
    out.resize(len, value);
    Ok(out)
}

impl Plan {
    /// Runs the plan: pads `input` into `out`.
    ///
    /// ```
    /// use padkit::{Plan, PadSpec, PadMode};
    /// let spec = PadSpec::new(vec![2, 2]).with_mode(PadMode::Symmetric);
    /// let plan = Plan::new(&[3], &spec, 4).unwrap();
    /// let mut out = vec![0; plan.output_len()];
    /// plan.run(&[1, 2, 3], &0, &mut out).unwrap();
    /// assert_eq!(out, vec![2, 1, 1, 2, 3, 3, 2]);
    /// ```
    pub fn run<T: Clone + Send + Sync>(&self, input: &[T], value: &T, out: &mut [T]) -> Result<()> {
        check_len("input data", &self.input_shape, input.len())?;
        check_len("output buffer", &self.output_shape, out.len())?;
        if !out.is_empty() {
            Writer {
                plan: self,
                input,
                value,
            }
            .axis(0, 0, out);
        }
        Ok(())
    }
}

fn check_len(what: &'static str, shape: &[usize], got: usize) -> Result<()> {
    let expected: usize = shape.iter().product();
    if expected != got {
        return Err(PadError::DataLength {
            what,
            shape: shape.to_vec(),
            expected,
            got,
        });
    }
    Ok(())
}

struct Writer<'a, T> {
    plan: &'a Plan,
    input: &'a [T],
    value: &'a T,
}

impl<T: Clone + Send + Sync> Writer<'_, T> {
    /// Writes the block of merged axis `ax` whose input starts at `in_off` into `out`.
    fn axis(&self, ax: usize, in_off: usize, out: &mut [T]) {
        let last = ax + 1 == self.plan.maps.len();
        let (ib, ob) = (self.plan.in_block[ax], self.plan.out_block[ax]);
        if last && let Some(program) = &self.plan.tiny_row {
            return self.tiny_rows(program, in_off, out);
        }
        let map = &self.plan.maps[ax];
        if let Some(c) = map.center {
            let dst = &mut out[c.out * ob..(c.out + c.len) * ob];
            let src_off = in_off + c.src * ib;
            let rows_are_tiny = ax + 2 == self.plan.maps.len() && self.plan.tiny_row.is_some();
            if last {
                copy(dst, &self.input[src_off..src_off + c.len * ib]);
            } else if let (true, Some(program)) = (rows_are_tiny, &self.plan.tiny_row) {
                self.tiny_rows(program, src_off, dst);
            } else if use_threads(size_of_val(dst)) && c.len > 1 {
                dst.par_chunks_mut(ob)
                    .enumerate()
                    .for_each(|(t, blk)| self.axis(ax + 1, src_off + t * ib, blk));
            } else {
                for (t, blk) in dst.chunks_mut(ob).enumerate() {
                    self.axis(ax + 1, src_off + t * ib, blk);
                }
            }
        }
        for &(at, run) in &map.runs {
            let dst = at * ob;
            match (run, map.center) {
                (Run::Fill { len }, _) => fill(&mut out[dst..dst + len * ob], self.value),
                // Contiguous sources inside the center: one copy of the whole run.
                (Run::Forward { src, len }, Some(c)) => {
                    duplicate(out, (c.out + src - c.src) * ob, dst, len * ob)
                }
                (run, Some(c)) => {
                    for (t, s) in run.sources().enumerate() {
                        duplicate(out, (c.out + s - c.src) * ob, dst + t * ob, ob);
                    }
                }
                // No center (interior padding): every run reads the input.
                (run, None) => {
                    for (t, s) in run.sources().enumerate() {
                        let src = in_off + s * ib;
                        let blk = &mut out[dst + t * ob..dst + (t + 1) * ob];
                        if last {
                            blk.clone_from_slice(&self.input[src..src + ib]);
                        } else {
                            self.axis(ax + 1, src, blk);
                        }
                    }
                }
            }
        }
    }

    /// Consecutive short output rows (each `program.len()` long, each reading one input
    /// row), element by element from the row program, in one loop.
    fn tiny_rows(&self, program: &[u32], in_off: usize, out: &mut [T]) {
        let in_row = self.plan.in_row;
        if in_row == 0 {
            return out.fill(self.value.clone()); // rows of an empty input are all fill
        }
        let rows = out.len() / program.len();
        let input = &self.input[in_off..in_off + rows * in_row];
        for (o, i) in out
            .chunks_exact_mut(program.len())
            .zip(input.chunks_exact(in_row))
        {
            for (x, &p) in o.iter_mut().zip(program) {
                *x = if p == FILL {
                    self.value.clone()
                } else {
                    i[p as usize].clone()
                };
            }
        }
    }
}

/// Whether work on `bytes` bytes is worth splitting across threads. Never on one thread:
/// handing work to rayon's lone worker moves it off the caller's core and caches, and one
/// call lets `memcpy`/`memset` pick their large-size (non-temporal) strategy.
fn use_threads(bytes: usize) -> bool {
    bytes >= PARALLEL_BYTES && rayon::current_num_threads() > 1
}

/// Elements per parallel chunk of a large copy or fill, when splitting is worth it.
fn parallel_chunk<T>(len: usize) -> Option<usize> {
    use_threads(len.saturating_mul(size_of::<T>()))
        .then(|| (PARALLEL_BYTES / size_of::<T>().max(1)).max(1))
}

/// Runs up to this many elements are copied in an inline loop: a `memcpy` call costs more
/// than the copy (reflect and edge borders are runs of one or two elements).
const SHORT_RUN: usize = 16;

/// `dst.clone_from_slice(src)`: inline when short, split across threads when large.
fn copy<T: Clone + Send + Sync>(dst: &mut [T], src: &[T]) {
    if dst.len() <= SHORT_RUN {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = s.clone();
        }
    } else if let Some(chunk) = parallel_chunk::<T>(dst.len()) {
        dst.par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .for_each(|(d, s)| d.clone_from_slice(s));
    } else {
        dst.clone_from_slice(src);
    }
}

/// `dst.fill(value)`, split across threads when large.
fn fill<T: Clone + Send + Sync>(dst: &mut [T], value: &T) {
    if let Some(chunk) = parallel_chunk::<T>(dst.len()) {
        dst.par_chunks_mut(chunk)
            .for_each(|d| d.fill(value.clone()));
    } else {
        dst.fill(value.clone());
    }
}

/// Copies `out[from..from+len]` to `out[to..to+len]`; the two ranges never overlap
/// (one is inside an axis' center, the other outside it).
fn duplicate<T: Clone + Send + Sync>(out: &mut [T], from: usize, to: usize, len: usize) {
    if from < to {
        let (head, tail) = out.split_at_mut(to);
        copy(&mut tail[..len], &head[from..from + len]);
    } else {
        let (head, tail) = out.split_at_mut(from);
        copy(&mut head[to..to + len], &tail[..len]);
    }
}
