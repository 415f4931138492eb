//! The CubeCL kernels: the pad, one thread per output element, and its adjoint, one
//! thread per input element. Both take each axis' [`Head`](super::tables::Head) as
//! scalars and read the shared table of border maps ([`super::tables`]) only at borders,
//! so every mode, crop and interior padding is the same few lines here.

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
    lo: Sequence<usize>,
    hi: Sequence<usize>,
}

/// `output[p] = input[source(p)]`, or `fill` where an axis maps `p` to no source.
///
/// Each thread writes `per_thread` consecutive positions of one output row (the last
/// axis): it maps the row's other axes once, then each position of its stretch. Per
/// axis, the center reads the input in order; a border position reads the input index
/// its entry in `table` gives (-1: fill). The input is read through its strides, so a
/// strided view is read in place.
#[cube(launch_unchecked, address_type = "dynamic")]
pub(super) fn pad_kernel<E: Numeric>(
    input: &Tensor<E>,
    output: &mut Tensor<E>,
    out_shape: Sequence<FastDivmod<usize>>,
    row_len: usize,
    stretches: FastDivmod<usize>,
    heads: &Heads,
    table: LinearView<'_, i32>,
    fill: InputScalar,
    #[comptime] per_thread: usize,
    #[define(E)] _dtype: ElemType,
) {
    let rank = out_shape.len().comptime();
    let last = rank - 1;
    let (row, stretch) = stretches.div_mod(ABSOLUTE_POS);
    if row * row_len >= output.len() {
        terminate!();
    }
    // The row's other axes, last first.
    let mut rest = row;
    let mut base = 0;
    let mut inside = true;
    #[unroll]
    for i in 0..last {
        let dim = last - i - 1;
        let (r, o) = out_shape[dim].div_mod(rest);
        rest = r;
        let s = source(o, dim, heads, &table);
        if s < 0 {
            inside = false;
        } else {
            base += usize::cast_from(s) * input.stride(dim);
        }
    }
    let stride = input.stride(last);
    #[unroll]
    for k in 0..per_thread {
        let o = stretch * per_thread + k;
        if o < row_len {
            let s = source(o, last, heads, &table);
            let mut value = fill.get::<E>();
            if inside && s >= 0 {
                value = input[base + usize::cast_from(s) * stride];
            }
            output[row * row_len + o] = value;
        }
    }
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
/// in a fixed order (no atomics: each thread owns its sums).
///
/// Each thread sums `per_thread` consecutive positions of one input row (the last axis):
/// it lists the targets of the row's other axes once, then those of each position of its
/// stretch. Per axis, an input index has the border targets `table` lists for the window
/// `lo..hi`, then its center target when the center reads it. The gradient is read
/// through its strides.
#[cube(launch_unchecked, address_type = "dynamic")]
pub(super) fn adjoint_kernel<E: Numeric>(
    grad: &Tensor<E>,
    result: &mut Tensor<E>,
    in_shape: Sequence<FastDivmod<usize>>,
    row_len: usize,
    stretches: FastDivmod<usize>,
    heads: &Heads,
    table: LinearView<'_, i32>,
    #[comptime] per_thread: usize,
    #[define(E)] _dtype: ElemType,
) {
    let rank = in_shape.len().comptime();
    let last = rank - 1;
    let (row, stretch) = stretches.div_mod(ABSOLUTE_POS);
    if row * row_len >= result.len() {
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
    for i in 0..last {
        let dim = last - i - 1;
        let (r, q) = in_shape[dim].div_mod(rest);
        rest = r;
        let (begin, border, center, count) = targets(q, dim, heads, &table);
        begins.push(begin);
        borders.push(border);
        centers.push(center);
        counts.push(count);
        combinations *= count;
    }
    let stride = grad.stride(last);
    #[unroll]
    for k in 0..per_thread {
        let q = stretch * per_thread + k;
        if q < row_len {
            let (begin, border, center, count) = targets(q, last, heads, &table);
            let mut sum = E::from_int(0);
            for c in 0..combinations {
                let mut digits = c;
                let mut at = 0;
                #[unroll]
                for i in 0..last {
                    let dim = last - i - 1;
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
                    at += o * grad.stride(dim);
                }
                for j in 0..count {
                    let mut o = center;
                    if j < border {
                        o = usize::cast_from(table.read(begin + j));
                    }
                    sum += grad[at + o * stride];
                }
            }
            result[row * row_len + q] = sum;
        }
    }
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
    let lo = heads.lo[dim];
    let mut begin = 0;
    let mut border = 0;
    if q >= lo && q < heads.hi[dim] {
        let at = heads.block[dim] + q - lo;
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
