//! The CubeCL kernels: the pad, one thread per output element, and its adjoint, one
//! thread per input element. Both read per-axis index tables that the host plans from
//! padkit's index maps ([`super::tables`]), so every mode, crop and interior padding is
//! the same few lines here.

use cubecl::prelude::*;
use cubecl::std::FastDivmod;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

/// `output[p] = input[source(p)]`, or `fill` where an axis maps `p` to no source.
///
/// `sources` is [`super::tables::sources`]: per axis, a center read in order and the
/// source of each border position (-1: fill). The input is read through its strides, so
/// a strided view is read in place.
#[cube(launch_unchecked, address_type = "dynamic")]
pub(super) fn pad_kernel<E: Numeric>(
    input: &Tensor<E>,
    mut output: LinearViewMut<'_, E>,
    out_shape: Sequence<FastDivmod<usize>>,
    sources: LinearView<'_, i32>,
    fill: InputScalar,
    #[define(E)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let rank = out_shape.len().comptime();
    let mut rest = ABSOLUTE_POS;
    let mut at = 0;
    let mut inside = true;
    #[unroll]
    for i in 0..rank {
        let dim = rank - i - 1;
        let (r, o) = out_shape[dim].div_mod(rest);
        rest = r;
        let block = usize::cast_from(sources.read(dim));
        let center_out = usize::cast_from(sources.read(block));
        let center_len = usize::cast_from(sources.read(block + 1));
        if o >= center_out && o < center_out + center_len {
            let s = usize::cast_from(sources.read(block + 2)) + o - center_out;
            at += s * input.stride(dim);
        } else {
            let mut border = o;
            if o >= center_out {
                border = o - center_len;
            }
            let s = sources.read(block + 3 + border);
            if s < 0 {
                inside = false;
            } else {
                at += usize::cast_from(s) * input.stride(dim);
            }
        }
    }
    if inside {
        output.write(ABSOLUTE_POS, input[at]);
    } else {
        output.write(ABSOLUTE_POS, fill.get::<E>());
    }
}

/// `result[q] = Σ grad[p]` over the output positions `p` that read input position `q`,
/// in a fixed order (no atomics: each thread owns its sum).
///
/// `targets` is [`super::tables::targets`]: per axis, the center, and the border output
/// indices that read each input index of a window. The gradient is read through its
/// strides.
#[cube(launch_unchecked, address_type = "dynamic")]
pub(super) fn adjoint_kernel<E: Numeric>(
    grad: &Tensor<E>,
    mut result: LinearViewMut<'_, E>,
    in_shape: Sequence<FastDivmod<usize>>,
    targets: LinearView<'_, i32>,
    #[define(E)] _dtype: ElemType,
) {
    if !result.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let rank = in_shape.len().comptime();
    let mut rest = ABSOLUTE_POS;
    // Per axis, last first: where its border targets begin, how many there are, and the
    // center target (read after them, when there is one).
    let mut begins = Sequence::<usize>::new();
    let mut borders = Sequence::<usize>::new();
    let mut centers = Sequence::<usize>::new();
    let mut counts = Sequence::<usize>::new();
    let mut total = 1;
    #[unroll]
    for i in 0..rank {
        let dim = rank - i - 1;
        let (r, q) = in_shape[dim].div_mod(rest);
        rest = r;
        let block = usize::cast_from(targets.read(dim));
        let center_out = usize::cast_from(targets.read(block));
        let center_len = usize::cast_from(targets.read(block + 1));
        let center_src = usize::cast_from(targets.read(block + 2));
        let lo = usize::cast_from(targets.read(block + 3));
        let hi = usize::cast_from(targets.read(block + 4));
        let mut begin = 0;
        let mut border = 0;
        if q >= lo && q < hi {
            begin = usize::cast_from(targets.read(block + 5 + q - lo));
            border = usize::cast_from(targets.read(block + 6 + q - lo)) - begin;
        }
        let mut count = border;
        let mut center = 0;
        if q >= center_src && q < center_src + center_len {
            count += 1;
            center = q - center_src + center_out;
        }
        begins.push(begin);
        borders.push(border);
        centers.push(center);
        counts.push(count);
        total *= count;
    }
    let mut sum = E::from_int(0);
    for k in 0..total {
        let mut digits = k;
        let mut at = 0;
        #[unroll]
        for i in 0..rank {
            let dim = rank - i - 1;
            let count = *counts.index(i);
            let j = digits % count;
            digits /= count;
            let mut o = *centers.index(i);
            if j < *borders.index(i) {
                o = usize::cast_from(targets.read(*begins.index(i) + j));
            }
            at += o * grad.stride(dim);
        }
        sum += grad[at];
    }
    result.write(ABSOLUTE_POS, sum);
}
