//! The CubeCL kernels: the pad, each thread writing a few vectors of one output row (in
//! two launches, the rows' centers and their borders), and its adjoint, each thread
//! summing a few vectors of one input row. Both take each axis'
//! [`Head`](super::tables::Head) as scalars and read the shared table of border maps
//! ([`super::tables`]) only at borders, so every mode, crop and interior padding is the
//! same few lines here.
//!
//! Both run in two launches along the last axis: the first moves vectors of `N` elements
//! (the host picks `N`, 1 where the tensors do not allow more) that each are one read of
//! the source, the pad's centers and the adjoint's vectors whose elements have only the
//! center's target; the second (with `N` = 1) the rest, element by element.

use cubecl::prelude::*;
use cubecl::std::FastDivmod;
use cubecl::std::tensor::layout::linear::LinearView;

/// Each axis' head, as kernel scalars (indexed by axis).
#[derive(CubeLaunch, CubeType)]
pub(super) struct Heads {
    center_out: Sequence<usize>,
    center_len: Sequence<usize>,
    center_src: Sequence<usize>,
    block: Sequence<usize>,
    first_window_start: Sequence<usize>,
    first_window_end: Sequence<usize>,
    second_window_start: Sequence<usize>,
    second_window_end: Sequence<usize>,
}

/// `output[p] = input[source(p)]`, or `fill` where an axis maps `p` to no source, for one
/// part of each output row (the last axis): with `center`, its vectors `first..last`,
/// which lie inside the last axis' center; else the others, its borders.
///
/// Each thread writes `per_thread` vectors of the part of one row, one in each of the
/// part's `per_thread` spans, so that neighbouring threads write neighbouring vectors: it
/// maps the row's other axes once, then each of its vectors. Per axis, the center reads
/// the input in order; a border position reads the input index its entry in `table` gives
/// (-1: fill). A center vector is one read, or the fill where the row's other axes have
/// none; a border vector is assembled element by element. Two launches write the two
/// parts, so that threads of the center, nearly all, take no branch of the borders. The
/// input is read through its strides (in elements), so a strided view is read in place.
///
/// With `N` > 1 the host guarantees that the input's last stride is 1, its other strides
/// and both rows' lengths are multiples of `N`, and the last axis' center reads from a
/// multiple of `N` where it writes to one: a vector inside the center reads one whole
/// vector of the input.
#[cube(launch_unchecked, address_type = "dynamic")]
pub(super) fn pad_kernel<E: Numeric, N: Size>(
    input: &Tensor<Vector<E, N>>,
    output: &mut Tensor<Vector<E, N>>,
    out_shape: Sequence<FastDivmod<usize>>,
    row_len: usize,
    first: usize,
    last: usize,
    row_threads: FastDivmod<usize>,
    heads: &Heads,
    table: LinearView<'_, i32>,
    fill: InputScalar,
    #[comptime] per_thread: usize,
    #[comptime] center: bool,
    #[define(E)] _dtype: ElemType,
) {
    let axis = out_shape.len().comptime() - 1;
    let width = output.vector_size();
    let vectors = row_len / width;
    let (row, lane) = row_threads.div_mod(ABSOLUTE_POS);
    if row * vectors >= output.len() {
        terminate!();
    }
    // The row's other axes, last first.
    let mut rest = row;
    let mut base = 0;
    let mut inside = true;
    #[unroll]
    for i in 0..axis {
        let dim = axis - i - 1;
        let (r, o) = out_shape[dim].div_mod(rest);
        rest = r;
        let s = source(o, dim, heads, &table);
        if s < 0 {
            inside = false;
        } else {
            base += usize::cast_from(s) * input.stride(dim);
        }
    }
    let stride = input.stride(axis);
    let center_out = heads.center_out[axis];
    let center_src = heads.center_src[axis];
    let filled = Vector::<E, N>::new(fill.get::<E>());
    let count = part_len(vectors, first, last, center);
    let span = count.div_ceil(per_thread);
    #[unroll]
    for k in 0..per_thread {
        let j = lane + k * span;
        if j < count {
            let mut value = filled;
            let at = part_vector(j, first, last, center);
            if comptime!(center) {
                if inside {
                    let o = at * width;
                    value = input[(base + (center_src + o - center_out) * stride) / width];
                }
            } else if inside {
                #[unroll]
                for e in 0..width {
                    let s = source(at * width + e, axis, heads, &table);
                    if s >= 0 {
                        let from = base + usize::cast_from(s) * stride;
                        let element = input[from / width].extract_dynamic(from % width);
                        value.insert(e, element);
                    }
                }
            }
            output[row * vectors + at] = value;
        }
    }
}

/// How many vectors of a row of `vectors` one launch covers: with `center`, the row's
/// vectors `first..last`, else the others.
#[cube]
fn part_len(vectors: usize, first: usize, last: usize, #[comptime] center: bool) -> usize {
    let mut len = vectors - (last - first);
    if comptime!(center) {
        len = last - first;
    }
    len
}

/// The row's vector that the launch's `j`-th is: `first + j` with `center`, else the `j`-th
/// of those outside `first..last`.
#[cube]
fn part_vector(j: usize, first: usize, last: usize, #[comptime] center: bool) -> usize {
    let mut at = j;
    if comptime!(center) {
        at = first + j;
    } else if j >= first {
        at = j + last - first;
    }
    at
}

/// The input index output index `o` of axis `dim` reads, or -1 (fill).
#[cube]
fn source(o: usize, dim: usize, heads: &Heads, table: &LinearView<'_, i32>) -> i32 {
    let center_out = heads.center_out[dim];
    let center_len = heads.center_len[dim];
    if o >= center_out && o < center_out + center_len {
        i32::cast_from(heads.center_src[dim] + o - center_out)
    } else {
        let mut border = o;
        if o >= center_out {
            border = o - center_len;
        }
        table.read(heads.block[dim] + border)
    }
}

/// `result[q] = Σ grad[p]` over the output positions `p` that read input position `q`,
/// in a fixed order (no atomics: each thread owns its sums), for one part of each input
/// row (the last axis): with `center`, its vectors `first..last`, whose elements each have
/// one target in the last axis, the center's; else the others.
///
/// Each thread sums `per_thread` vectors of the part of one row, one in each of the
/// part's spans as the pad's threads do: it lists the targets of the row's other axes
/// once. Per axis, an input index has the border targets `table` lists for its axis' two
/// windows (`lo..hi`, `lo2..hi2`), then its center target when the center reads it. A
/// vector of the center part sums one whole vector of the gradient per combination of
/// the other axes' targets (one, but at borders); the others sum element by element. The
/// gradient is read through its strides (in elements). With `N` > 1, the host guarantees
/// what [`pad_kernel`] needs, for the gradient.
#[cube(launch_unchecked, address_type = "dynamic")]
pub(super) fn adjoint_kernel<E: Numeric, N: Size>(
    grad: &Tensor<Vector<E, N>>,
    result: &mut Tensor<Vector<E, N>>,
    in_shape: Sequence<FastDivmod<usize>>,
    row_len: usize,
    first: usize,
    last: usize,
    row_threads: FastDivmod<usize>,
    heads: &Heads,
    table: LinearView<'_, i32>,
    #[comptime] per_thread: usize,
    #[comptime] center: bool,
    #[define(E)] _dtype: ElemType,
) {
    let axis = in_shape.len().comptime() - 1;
    let width = result.vector_size();
    let vectors = row_len / width;
    let (row, lane) = row_threads.div_mod(ABSOLUTE_POS);
    if row * vectors >= result.len() {
        terminate!();
    }
    // The targets of the row's other axes, last first.
    let mut begins = Sequence::<usize>::new();
    let mut borders = Sequence::<usize>::new();
    let mut centers = Sequence::<usize>::new();
    let mut counts = Sequence::<usize>::new();
    let mut combinations = 1;
    let mut rest = row;
    #[unroll]
    for i in 0..axis {
        let dim = axis - i - 1;
        let (r, q) = in_shape[dim].div_mod(rest);
        rest = r;
        let (begin, border, center, count) = targets(q, dim, heads, &table);
        begins.push(begin);
        borders.push(border);
        centers.push(center);
        counts.push(count);
        combinations *= count;
    }
    // Where the gradient's row is for the first combination (the only one but at borders).
    let single = combination(0, &begins, &borders, &centers, &counts, grad, &table);
    let stride = grad.stride(axis);
    let count = part_len(vectors, first, last, center);
    let span = count.div_ceil(per_thread);
    #[unroll]
    for k in 0..per_thread {
        let j = lane + k * span;
        if j < count {
            let mut sum = Vector::<E, N>::new(E::from_int(0));
            let at = part_vector(j, first, last, center);
            if comptime!(center) {
                let o = at * width - heads.center_src[axis] + heads.center_out[axis];
                for c in 0..combinations {
                    let mut from = single;
                    if c > 0 {
                        from = combination(c, &begins, &borders, &centers, &counts, grad, &table);
                    }
                    sum += grad[(from + o * stride) / width];
                }
            } else {
                #[unroll]
                for e in 0..width {
                    let (begin, border, center, count) =
                        targets(at * width + e, axis, heads, &table);
                    let mut total = E::from_int(0);
                    for c in 0..combinations {
                        let mut from = single;
                        if c > 0 {
                            from =
                                combination(c, &begins, &borders, &centers, &counts, grad, &table);
                        }
                        for t in 0..count {
                            let mut o = center;
                            if t < border {
                                o = usize::cast_from(table.read(begin + t));
                            }
                            let g = from + o * stride;
                            total += grad[g / width].extract_dynamic(g % width);
                        }
                    }
                    sum.insert(e, total);
                }
            }
            result[row * vectors + at] = sum;
        }
    }
}

/// Where, through the gradient's strides, the `c`-th combination of the targets of a
/// row's other axes (listed last axis first, as the adjoint lists them) is.
#[cube]
fn combination<E: Numeric, N: Size>(
    c: usize,
    begins: &Sequence<usize>,
    borders: &Sequence<usize>,
    centers: &Sequence<usize>,
    counts: &Sequence<usize>,
    grad: &Tensor<Vector<E, N>>,
    table: &LinearView<'_, i32>,
) -> usize {
    let others = counts.len().comptime();
    let mut digits = c;
    let mut from = 0;
    #[unroll]
    for i in 0..others {
        let dim = others - i - 1;
        let n = *counts.index(i);
        let mut j = 0;
        if n > 1 {
            j = digits % n;
            digits /= n;
        }
        let mut o = *centers.index(i);
        if j < *borders.index(i) {
            o = usize::cast_from(table.read(*begins.index(i) + j));
        }
        from += o * grad.stride(dim);
    }
    from
}

/// The output indices that read input index `q` of axis `dim`: where its border targets
/// begin in `table`, how many there are, its center target, and how many targets in all
/// (the center's counted last, when the center reads `q`).
#[cube]
fn targets(
    q: usize,
    dim: usize,
    heads: &Heads,
    table: &LinearView<'_, i32>,
) -> (usize, usize, usize, usize) {
    let mut begin = 0;
    let mut border = 0;
    let at = offset(q, dim, heads);
    if at > 0 {
        begin = usize::cast_from(table.read(at));
        border = usize::cast_from(table.read(at + 1)) - begin;
    }
    let mut count = border;
    let mut center = 0;
    let center_src = heads.center_src[dim];
    if q >= center_src && q < center_src + heads.center_len[dim] {
        count += 1;
        center = q - center_src + heads.center_out[dim];
    }
    (begin, border, center, count)
}

/// Where the offset of input index `q`'s border targets is in the table: in the first
/// window of axis `dim`, else in its second; 0 (the table's unused entry) when neither
/// holds `q`.
#[cube]
fn offset(q: usize, dim: usize, heads: &Heads) -> usize {
    let lo = heads.first_window_start[dim];
    let hi = heads.first_window_end[dim];
    let lo2 = heads.second_window_start[dim];
    let mut at = 0;
    if q >= lo && q < hi {
        at = heads.block[dim] + q - lo;
    } else if q >= lo2 && q < heads.second_window_end[dim] {
        at = heads.block[dim] + hi - lo + 1 + q - lo2;
    }
    at
}
