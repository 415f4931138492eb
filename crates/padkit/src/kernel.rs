//! The one pad kernel, generic over the element type.
//!
//! The output is written exactly once: each axis writes its center from the input, then
//! produces its other runs by copying blocks it already wrote (fills are slice fills).
//! Rows of the last axis follow their [`RowProgram`]. The kernel writes into
//! uninitialised memory, so a fresh output is never filled first.

use std::convert::Infallible;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use rayon::prelude::*;

use crate::axis_map::Run;
use crate::row::{Framed, GapWrites, RowProgram, RowWrites, Step, TINY_ROW};
use crate::schedule::Schedule;

/// Blocks at least this large are split across rayon's threads.
const PARALLEL_BYTES: usize = 4 << 20;

/// The length parameter of a loop specialised for no particular length.
const ANY_LEN: usize = usize::MAX;

/// Evaluates `$fixed` with the constant `$n` equal to `$len` when that is one of the
/// listed lengths, and `$otherwise` for other lengths. Loops of a constant length are
/// inlined, where a runtime length would call `memcpy` or `memset`, which cost more than
/// so short a run.
macro_rules! by_len {
    ($len:expr, [$($lit:literal)*], $n:ident => $fixed:expr, _ => $otherwise:expr) => {
        match $len {
            $($lit => {
                const $n: usize = $lit;
                $fixed
            })*
            _ => $otherwise,
        }
    };
}

/// [`by_len!`] for the lengths 0 to 16.
macro_rules! by_short_len {
    ($len:expr, $n:ident => $fixed:expr, _ => $otherwise:expr) => {
        by_len!($len, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16], $n => $fixed, _ => $otherwise)
    };
}

/// Writes the pad `schedule` describes of `input` into `out`, which holds exactly its
/// output (not empty); returns it initialised. `fill` writes the fill value over runs of
/// whole blocks and `C` copies long row bodies and may write tiny rows.
pub(crate) fn write<'o, T: Clone + Send + Sync, C: RowMoves<T>>(
    schedule: &Schedule,
    input: &[T],
    value: &T,
    out: &'o mut [MaybeUninit<T>],
    fill: FillRun<T>,
) -> &'o mut [T] {
    let tiny = match schedule.row.as_ref().map(|p| &p.writes) {
        Some(RowWrites::Table(table)) => C::tiny(table, schedule.in_row, value),
        _ => None,
    };
    Writer::<T, C> {
        schedule,
        input,
        value,
        fill,
        tiny,
        copies: PhantomData,
    }
    .axis(0, 0, out);
    // SAFETY: `axis(0, …)` wrote every element of the output: each axis writes its
    // center and every run around it, which tile all of its output positions, and a
    // row program writes every element of its rows. `AxisMap::new` and
    // `RowProgram::new` assert both in debug builds; the reference tests and the
    // fuzzers run them there, on outputs that start as a sentinel pattern.
    unsafe { out.assume_init_mut() }
}

/// Writes the fill value over a run of whole blocks, on this thread: [`fill_each`] for
/// any `T`; the byte-width kernel passes `memset` when it can.
pub(crate) type FillRun<T> = fn(&mut [MaybeUninit<T>], &T);

/// How the kernel moves row data on this thread: row bodies of more than 16 elements,
/// and tiny rows where the element type allows a faster way than the table loop. A type
/// rather than function pointers, so that the copy inlines into the row loop.
pub(crate) trait RowMoves<T> {
    /// How bodies of one length are copied: chosen once for a run of rows, so that the
    /// row loop does not decide it again for every row.
    type Body: Copy;

    /// How bodies of `len` elements are copied (asked for any length; bodies of at most
    /// 16 elements are copied inline and never use the answer).
    fn body(len: usize) -> Self::Body;

    /// Writes a copy of `src` into `dst` (equal lengths, those `how` was chosen for).
    fn copy_body(how: Self::Body, dst: &mut [MaybeUninit<T>], src: &[T]);

    /// A faster way than the table loop to write tiny rows, prepared once per run.
    type Tiny: Sync;

    /// The faster way for tiny rows of `table` (the input position every element reads,
    /// or [`FILL`](crate::row::FILL)), each reading the next input row of `in_row`
    /// elements, filled with `value`; `None` where the element type or the rows have none.
    fn tiny(table: &[u32], in_row: usize, value: &T) -> Option<Self::Tiny>;

    /// Writes the leading rows of `out` the `tiny` way, each reading the next input row;
    /// returns how many it wrote. The kernel writes the rest by the table loop.
    fn tiny_rows(tiny: &Self::Tiny, input: &[T], out: &mut [MaybeUninit<T>]) -> usize;
}

/// Row copies by `Clone`, for any `T` (`memcpy` for `Copy` types).
pub(crate) struct Cloning;

impl<T: Clone> RowMoves<T> for Cloning {
    type Body = ();

    fn body(_len: usize) {}

    fn copy_body((): (), dst: &mut [MaybeUninit<T>], src: &[T]) {
        dst.write_clone_of_slice(src);
    }

    type Tiny = Infallible;

    fn tiny(_table: &[u32], _in_row: usize, _value: &T) -> Option<Infallible> {
        None
    }

    fn tiny_rows(tiny: &Infallible, _input: &[T], _out: &mut [MaybeUninit<T>]) -> usize {
        match *tiny {}
    }
}

struct Writer<'a, T, C: RowMoves<T>> {
    schedule: &'a Schedule,
    input: &'a [T],
    value: &'a T,
    fill: FillRun<T>,
    /// `C`'s faster way for the tiny rows, when it has one.
    tiny: Option<C::Tiny>,
    /// Copies long row bodies (a type only; `fn() -> C` keeps the writer `Sync`).
    copies: PhantomData<fn() -> C>,
}

impl<T: Clone + Send + Sync, C: RowMoves<T>> Writer<'_, T, C> {
    /// Writes the block of merged axis `ax` whose input starts at `in_off` into `out`.
    fn axis(&self, ax: usize, in_off: usize, out: &mut [MaybeUninit<T>]) {
        let last = ax + 1 == self.schedule.maps.len();
        if last && let Some(program) = &self.schedule.row {
            return self.rows(program, in_off, out);
        }
        let (ib, ob) = self.schedule.blocks[ax];
        let map = &self.schedule.maps[ax];
        // Fills ahead of the center are written first, so that a constant pad writes its
        // output front to back.
        let ahead = |at: usize, run: Run| {
            matches!(run, Run::Fill { .. }) && map.center.is_some_and(|c| at < c.out)
        };
        for &(at, run) in map.runs.iter().filter(|&&(at, run)| ahead(at, run)) {
            self.fill(&mut out[at * ob..(at + run.len()) * ob]);
        }
        if let Some(c) = map.center {
            let dst = &mut out[c.out * ob..(c.out + c.len) * ob];
            let src_off = in_off + c.src * ib;
            let rows_follow = ax + 2 == self.schedule.maps.len();
            if last {
                copy(dst, &self.input[src_off..src_off + c.len * ib]);
            } else if let (true, Some(program)) = (rows_follow, &self.schedule.row) {
                self.rows(program, src_off, dst);
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
        for &(at, run) in map.runs.iter().filter(|&&(at, run)| !ahead(at, run)) {
            let dst = at * ob;
            match (run, map.center) {
                (Run::Fill { len }, _) => self.fill(&mut out[dst..dst + len * ob]),
                // Written below, once everything they echo is.
                (Run::Echo { .. }, _) => {}
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
                            blk.write_clone_of_slice(&self.input[src..src + ib]);
                        } else {
                            self.axis(ax + 1, src, blk);
                        }
                    }
                }
            }
        }
        for &(at, run) in &map.runs {
            if let Run::Echo { offset, len } = run {
                echo(out, at * ob, len * ob, offset * ob as isize);
            }
        }
    }

    /// Consecutive output rows of the last merged axis, each reading the next input row
    /// from `in_off` on, written by `program`; split across threads when large.
    fn rows(&self, program: &RowProgram, in_off: usize, out: &mut [MaybeUninit<T>]) {
        let row_bytes = program.len * size_of::<T>();
        if use_threads(size_of_val(out)) && out.len() > program.len {
            let rows = (PARALLEL_BYTES / row_bytes.max(1)).max(1);
            let in_row = self.schedule.in_row;
            out.par_chunks_mut(rows * program.len)
                .enumerate()
                .for_each(|(t, o)| self.rows_serial(program, in_off + t * rows * in_row, o));
        } else {
            self.rows_serial(program, in_off, out);
        }
    }

    fn rows_serial(&self, program: &RowProgram, in_off: usize, out: &mut [MaybeUninit<T>]) {
        let input = &self.input[in_off..];
        match &program.writes {
            RowWrites::Table(table) => self.tiny_rows(table, input, out),
            RowWrites::Framed(f) => by_short_len!(
                f.gap().len(),
                G => self.framed_rows::<G>(program.len, f, input, out),
                _ => self.framed_rows::<ANY_LEN>(program.len, f, input, out)
            ),
        }
    }

    /// Rows of `len` elements framed by `f`: the first row's left border, then for each
    /// row a window of its body, its right border and the next row's left border (the
    /// gap), and the last row's body and right border. `G` is the gap's length when the
    /// loop is specialised for it, [`ANY_LEN`] otherwise.
    fn framed_rows<const G: usize>(
        &self,
        len: usize,
        f: &Framed,
        input: &[T],
        out: &mut [MaybeUninit<T>],
    ) {
        let in_row = self.schedule.in_row;
        debug_assert_eq!(out.len() % len, 0, "the output holds whole rows");
        let Some(last) = (out.len() / len).checked_sub(1) else {
            return;
        };
        let (l, b, src) = (f.left().len(), f.body.len, f.body.src);
        let gap = if G == ANY_LEN { f.gap() } else { &f.gap()[..G] };
        self.gather(&mut out[..l], f.left(), &input[..in_row]);
        let how = C::body(b);
        let windows = out[l..l + last * len].chunks_exact_mut(len).enumerate();
        if f.gap_writes == GapWrites::Fill {
            // Constant pads get a loop of their own, without the match below and with the
            // fill value in a register: on short rows the per-row work is a sizeable part
            // of the pad.
            let value = self.value.clone();
            for (r, window) in windows {
                let (body, between) = window.split_at_mut(b);
                let s = r * in_row + src;
                copy_with::<T, C>(how, body, &input[s..s + b]);
                // `between` holds the gap; slicing it by `gap.len()` makes that length a
                // constant when `G` is one.
                fill_serial(&mut between[..gap.len()], &value);
            }
        } else {
            for (r, window) in windows {
                let (body, between) = window.split_at_mut(b);
                let between = &mut between[..gap.len()];
                // The gap reads this row's input and the next one's.
                let i = &input[r * in_row..(r + 2) * in_row];
                copy_with::<T, C>(how, body, &i[src..src + b]);
                match &f.gap_writes {
                    GapWrites::Fill => unreachable!("constant gaps take the loop above"),
                    GapWrites::Table => self.gather(between, gap, i),
                    GapWrites::Stretches(stretches) => {
                        for s in stretches {
                            self.stretch(&mut between[s.at..s.at + s.len], s.kind, i);
                        }
                    }
                }
            }
        }
        let (body, right) = out[last * len + l..].split_at_mut(b);
        let i = &input[last * in_row..(last + 1) * in_row];
        copy_with::<T, C>(how, body, &i[src..src + b]);
        self.gather(right, f.right(), i);
    }

    /// Writes the stretch of kind `step` reading `input` into `out`.
    fn stretch(&self, out: &mut [MaybeUninit<T>], step: Step, input: &[T]) {
        match step {
            Step::Fill => fill_serial(out, self.value),
            Step::Forward(s) => copy_serial(out, &input[s..s + out.len()]),
            Step::Backward(s) => reverse_serial(out, &input[s + 1 - out.len()..=s]),
            Step::Repeat(s) => fill_serial(out, &input[s]),
        }
    }

    /// Writes `out[k] = input[table[k]]`, or the fill value where the entry is [`FILL`]
    /// (never a valid index of `input`, so it selects the fill value without a branch).
    #[inline(always)]
    fn gather(&self, out: &mut [MaybeUninit<T>], table: &[u32], input: &[T]) {
        debug_assert_eq!(out.len(), table.len(), "a table entry for every element");
        for (x, &p) in out.iter_mut().zip(table) {
            x.write(input.get(p as usize).unwrap_or(self.value).clone());
        }
    }

    /// Rows of at most [`TINY_ROW`] elements, each element from its `table` entry, with the
    /// loop unrolled for the row's exact length (a per-row loop of runtime length costs
    /// more than the row).
    fn tiny_rows(&self, table: &[u32], input: &[T], out: &mut [MaybeUninit<T>]) {
        by_len!(
            table.len(),
            [1 2 3 4 5 6 7 8],
            N => self.tiny_rows_of::<N>(table, input, out),
            _ => unreachable!("row tables hold 1 to {TINY_ROW} elements, not {}", table.len())
        )
    }

    fn tiny_rows_of<const N: usize>(&self, table: &[u32], input: &[T], out: &mut [MaybeUninit<T>]) {
        let table: &[u32; N] = table
            .try_into()
            .expect("tiny_rows dispatches on the length");
        let in_row = self.schedule.in_row;
        let done = self
            .tiny
            .as_ref()
            .map_or(0, |t| C::tiny_rows(t, input, out));
        let (input, out) = (&input[done * in_row..], &mut out[done * N..]);
        let (rows, rest) = out.as_chunks_mut::<N>();
        debug_assert!(rest.is_empty(), "the output holds whole rows");
        if in_row == 0 {
            // Rows of fill only: there is no input to read.
            return rows.iter_mut().for_each(|o| self.gather(o, table, &[]));
        }
        // Zipped chunks instead of indexing by row: no bounds check or multiply per row.
        let inputs = input[..rows.len() * in_row].chunks_exact(in_row);
        for (o, i) in rows.iter_mut().zip(inputs) {
            self.gather(o, table, i);
        }
    }

    /// Writes the fill value into a run of whole blocks, split across threads when large.
    fn fill(&self, dst: &mut [MaybeUninit<T>]) {
        match parallel_chunk::<T>(dst.len()) {
            Some(chunk) => dst
                .par_chunks_mut(chunk)
                .for_each(|d| (self.fill)(d, self.value)),
            None => (self.fill)(dst, self.value),
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

/// Writes a clone of `src` into `dst`: split across threads when large.
fn copy<T: Clone + Send + Sync>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    debug_assert_eq!(dst.len(), src.len(), "copies have equal lengths");
    match parallel_chunk::<T>(dst.len()) {
        Some(chunk) => dst
            .par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .for_each(|(d, s)| copy_serial(d, s)),
        None => copy_serial(dst, src),
    }
}

/// Writes a clone of `src` into `dst` on this thread (short runs inlined: forward
/// stretches of border gaps).
#[inline]
fn copy_serial<T: Clone>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    copy_with::<T, Cloning>((), dst, src)
}

/// `copy_serial` with runs of more than 16 elements written by `C` as `how` says.
#[inline(always)]
fn copy_with<T: Clone, C: RowMoves<T>>(how: C::Body, dst: &mut [MaybeUninit<T>], src: &[T]) {
    by_short_len!(
        dst.len(),
        N => copy_fixed::<T, N>(dst, src),
        _ => C::copy_body(how, dst, src)
    )
}

/// `copy_serial` for a length known at compile time.
#[inline(always)]
fn copy_fixed<T: Clone, const N: usize>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    let (dst, src) = as_arrays::<T, N>(dst, src);
    for (d, s) in dst.iter_mut().zip(src) {
        d.write(s.clone());
    }
}

/// `dst` and `src` as arrays of the length `N` the caller dispatched on.
#[inline(always)]
fn as_arrays<'d, 's, T, const N: usize>(
    dst: &'d mut [MaybeUninit<T>],
    src: &'s [T],
) -> (&'d mut [MaybeUninit<T>; N], &'s [T; N]) {
    (
        dst.try_into().expect("callers dispatch on the length"),
        src.try_into()
            .expect("sources and destinations have equal lengths"),
    )
}

/// Writes a clone of `src` reversed into `dst` on this thread (short runs inlined and
/// vectorised: the wide borders of reflect pads).
#[inline]
fn reverse_serial<T: Clone>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    by_short_len!(
        dst.len(),
        N => {
            let (dst, src) = as_arrays::<T, N>(dst, src);
            write_reversed(dst, src)
        },
        _ => write_reversed(dst, src)
    )
}

/// `dst[k] = src[len - 1 - k]`: inlined, so that a length known at the call site (an
/// array's) unrolls and vectorises.
#[inline(always)]
fn write_reversed<T: Clone>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    debug_assert_eq!(dst.len(), src.len(), "copies have equal lengths");
    for (d, s) in dst.iter_mut().zip(src.iter().rev()) {
        d.write(s.clone());
    }
}

/// Writes `value` into every element of `dst` on this thread (short runs inlined: the
/// constant borders of rows).
#[inline]
fn fill_serial<T: Clone>(dst: &mut [MaybeUninit<T>], value: &T) {
    by_short_len!(
        dst.len(),
        N => fill_fixed::<T, N>(dst, value),
        _ => fill_each(dst, value)
    )
}

/// `fill_serial` for a length known at compile time.
#[inline(always)]
fn fill_fixed<T: Clone, const N: usize>(dst: &mut [MaybeUninit<T>], value: &T) {
    let dst: &mut [MaybeUninit<T>; N] = dst
        .try_into()
        .expect("fill_serial dispatches on the length");
    for d in dst {
        d.write(value.clone());
    }
}

/// The default [`FillRun`]: a clone of `value` into every element.
pub(crate) fn fill_each<T: Clone>(dst: &mut [MaybeUninit<T>], value: &T) {
    dst.iter_mut().for_each(|x| _ = x.write(value.clone()));
}

/// Writes `out[at..at + len]` as a copy of the output `offset` positions away, which is
/// written as far as the copy reaches (`AxisMap` lists a period's worth next to each
/// echo): in doubling steps, each copying output written before or by the previous step,
/// toward the far end (right to left for an echo that reads to its right).
fn echo<T: Clone + Send + Sync>(out: &mut [MaybeUninit<T>], at: usize, len: usize, offset: isize) {
    let mut dist = offset.unsigned_abs();
    let mut done = 0;
    while done < len {
        let n = (len - done).min(dist);
        if offset < 0 {
            duplicate(out, at + done - dist, at + done, n);
        } else {
            let to = at + len - done - n;
            duplicate(out, to + dist, to, n);
        }
        done += n;
        dist *= 2;
    }
}

/// Copies `out[from..from+len]` to `out[to..to+len]`. The source is output already
/// written: inside the center of the axis being written, which `Writer::axis` writes
/// before any run, or (for echoes) a stretch written before. The ranges never overlap.
fn duplicate<T: Clone + Send + Sync>(
    out: &mut [MaybeUninit<T>],
    from: usize,
    to: usize,
    len: usize,
) {
    let (src, dst) = if from < to {
        let (head, tail) = out.split_at_mut(to);
        (&head[from..from + len], &mut tail[..len])
    } else {
        let (head, tail) = out.split_at_mut(from);
        (&tail[..len], &mut head[to..to + len])
    };
    // SAFETY: the source range is output already written (see above).
    copy(dst, unsafe { src.assume_init_ref() });
}
