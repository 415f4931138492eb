//! The native pad on Burn's CubeCL backend (run on wgpu only; the crate docs say which
//! runtimes are built and run where): two launches of
//! [`kernel::pad_kernel`] (the rows' centers, then their borders) write the output once,
//! reading the input in place through its strides; the backward is two launches of
//! [`kernel::adjoint_kernel`]. The only host work is planning the small per-axis
//! [`tables`], which the op knows before launch.

mod kernel;
pub(crate) mod tables;
#[cfg(test)]
mod unfused_tests;

use burn::backend::TensorMetadata;
use burn::backend::cubecl::dtype_to_storage_type;
use burn::tensor::{DType, Shape, TensorData};
use burn_cubecl::CubeBackend;
use burn_cubecl::kernel::untile;
use burn_cubecl::ops::numeric::empty_device_contiguous_dtype;
use burn_cubecl::tensor::CubeTensor;
use cubecl::prelude::*;
use cubecl::std::FastDivmod;
use cubecl::{CubeDim, calculate_cube_count_elemwise};
use padkit::PadSpec;

use super::{CHECKED, Checked, PadBackend};
use crate::Fill;
use crate::counters::{Counter, count};

impl PadBackend for CubeBackend {
    fn padkit_pad_float(x: CubeTensor, checked: Checked) -> CubeTensor {
        cube_pad(x, &checked)
    }

    fn padkit_pad_float_backward(
        grad: CubeTensor,
        in_shape: Vec<usize>,
        spec: PadSpec,
    ) -> CubeTensor {
        cube_adjoint(grad, &in_shape, &spec)
    }

    fn padkit_pad_int(x: CubeTensor, checked: Checked) -> CubeTensor {
        cube_pad(x, &checked)
    }

    fn padkit_pad_bool(x: CubeTensor, checked: Checked) -> CubeTensor {
        cube_pad(x, &checked)
    }
}

/// Vectors of a row's center per thread of the kernels: each thread maps the row's other
/// axes once for all of them. Not so many that a row's center of a few dozen vectors goes
/// to one thread, which would spread a warp's writes over as many rows (a GPU coalesces
/// neighbouring threads' writes to neighbouring addresses).
const CENTER_PER_THREAD: usize = 32;

/// Elements of a row's borders per thread of the kernels: few, as borders are short.
const BORDER_PER_THREAD: usize = 4;

/// The heads as kernel scalars.
fn heads(heads: &[tables::Head]) -> kernel::HeadsLaunch {
    let field = |f: fn(&tables::Head) -> usize| {
        let mut seq = SequenceArg::new();
        for h in heads {
            seq.push(f(h));
        }
        seq
    };
    kernel::HeadsLaunch::new(
        field(|h| h.center_out),
        field(|h| h.center_len),
        field(|h| h.center_src),
        field(|h| h.block),
        field(|h| h.first_window_start),
        field(|h| h.first_window_end),
        field(|h| h.second_window_start),
        field(|h| h.second_window_end),
    )
}

/// A table as an i32 tensor on `like`'s device.
fn upload(table: Vec<i32>, like: &CubeTensor) -> CubeTensor {
    let len = table.len();
    <CubeBackend as burn::backend::ops::IntTensorOps<CubeBackend>>::int_from_data(
        TensorData::new(table, [len]),
        &like.device,
    )
}

/// The tensor with its rows laid out plainly (kernels other than matmul read no tiles).
fn untiled(x: CubeTensor) -> CubeTensor {
    if x.meta.is_tiled() { untile(x) } else { x }
}

/// `fill` as a kernel scalar of `dtype` (exact: [`Checked`] checked it).
fn scalar(fill: Fill, dtype: DType) -> InputScalar {
    let storage = dtype_to_storage_type(dtype);
    if dtype.is_float() {
        InputScalar::new(fill.float(), storage)
    } else {
        InputScalar::new(fill.integer(&format!("{dtype:?}")).expect(CHECKED), storage)
    }
}

/// The launches of a row kernel that reads `src` and writes `dest`, a contiguous tensor
/// of `shape`: vectors of `width` elements along the last axis, and the address type
/// every tensor of the launch (`table` too) needs.
struct Rows {
    address: AddressType,
    shape: Vec<usize>,
    row_len: usize,
    width: usize,
}

/// One of a kernel's two launches over the rows: with `center`, vectors `first..last` of
/// `width` elements, else the row's other elements in vectors of `width` 1 (`first..last`
/// counted in elements then); `per_thread` vectors to a thread.
struct Part {
    center: bool,
    width: usize,
    first: usize,
    last: usize,
    per_thread: usize,
}

/// The launch of a [`Part`]: as many threads per row as there are vectors in the first of
/// its `per_thread` spans.
struct Grid {
    cubes: CubeCount,
    dim: CubeDim,
    row_threads: usize,
}

impl Rows {
    /// `shape` is non-empty and has elements (the callers return empty results first);
    /// `center` is the last axis' head.
    fn new(
        src: &CubeTensor,
        dest: &CubeTensor,
        table: &CubeTensor,
        shape: &[usize],
        center: &tables::Head,
    ) -> Rows {
        let row_len = *shape.last().expect("Burn tensors have a dimension");
        let sizes = src.client.io_optimized_vector_sizes(src.dtype.size());
        let (from, strides) = (src.meta.shape(), src.meta.strides());
        Rows {
            address: [src, dest, table]
                .map(CubeTensor::required_address_type)
                .into_iter()
                .max()
                .unwrap_or_default(),
            shape: shape.to_vec(),
            row_len,
            width: width(sizes, from, strides, row_len, center),
        }
    }

    /// The vectors of a row.
    fn vectors(&self) -> usize {
        self.row_len / self.width
    }

    /// The two launches over a row whose vectors `first..last` the fast path takes (the
    /// pad's center, the adjoint's sole targets): those, and the row's other elements in
    /// vectors of 1, since they are gathered one by one anyway (wider vectors would only
    /// add extracts and inserts). Launches of no vectors are left out.
    fn parts(&self, (first, last): (usize, usize)) -> impl Iterator<Item = Part> {
        let w = self.width;
        let center = Part {
            center: true,
            width: w,
            first,
            last,
            per_thread: CENTER_PER_THREAD,
        };
        let others = Part {
            center: false,
            width: 1,
            first: first * w,
            last: last * w,
            per_thread: BORDER_PER_THREAD,
        };
        [center, others].into_iter().filter(|p| self.count(p) > 0)
    }

    /// The vectors of each row that `part` covers (as the kernels' `part_len`).
    fn count(&self, part: &Part) -> usize {
        let within = part.last - part.first;
        if part.center {
            within
        } else {
            self.row_len / part.width - within
        }
    }

    /// The launch of `part` on `dest`'s device.
    fn grid(&self, dest: &CubeTensor, part: &Part) -> Grid {
        let row_threads = self.count(part).div_ceil(part.per_thread);
        let threads = self.shape.iter().product::<usize>() / self.row_len * row_threads;
        let dim = CubeDim::new(&dest.client, threads);
        Grid {
            cubes: calculate_cube_count_elemwise(&dest.client, threads, dim),
            dim,
            row_threads,
        }
    }

    /// The shape as kernel scalars.
    fn shape(&self) -> SequenceArg<FastDivmod<usize>> {
        let mut seq = SequenceArg::new();
        for &d in &self.shape {
            seq.push(d);
        }
        seq
    }
}

/// Asserts (in debug builds) what a launch of `part` over `rows`, reading a source of
/// `shape` and `strides`, relies on to leave its indexing unchecked (the `SAFETY` comments
/// at the launches say why each index is in bounds; the tables' entries are asserted where
/// `tables` plans them): the part's vectors divide the row and its span lies in the row,
/// and, for vectors wider than one element, the source keeps them whole (`width`'s rule,
/// checked again on the tensor the launch reads).
fn check_launch(rows: &Rows, part: &Part, shape: &[usize], strides: &[usize]) {
    debug_assert!(
        part.width >= 1 && rows.row_len.is_multiple_of(part.width),
        "vectors of {} elements do not divide rows of {}",
        part.width,
        rows.row_len
    );
    debug_assert!(
        part.first <= part.last && part.last <= rows.row_len / part.width,
        "the span {}..{} leaves the row of {} vectors",
        part.first,
        part.last,
        rows.row_len / part.width
    );
    debug_assert_eq!(
        shape.len(),
        rows.shape.len(),
        "the source's rank is the rows'"
    );
    if part.width > 1 {
        let last = shape.len() - 1;
        debug_assert!(
            part.width == rows.width
                && strides[last] == 1
                && shape[last].is_multiple_of(part.width)
                && (0..last).all(|d| shape[d] <= 1 || strides[d].is_multiple_of(part.width)),
            "a source of shape {shape:?} and strides {strides:?} splits vectors of {}",
            part.width
        );
    }
}

/// The widest of the vector `sizes` (the device's, for the element's size) that a row
/// kernel reading a source of `shape` and `strides` and writing rows of `dest_row`
/// elements can use (1 at least): the rows of both hold whole vectors, the source's
/// strides keep them whole (its last axis is contiguous), and the last axis' `center`
/// reads whole vectors of the source, so that a vector inside it is one read.
fn width(
    sizes: impl Iterator<Item = usize>,
    shape: &[usize],
    strides: &[usize],
    dest_row: usize,
    center: &tables::Head,
) -> usize {
    let last = shape.len() - 1;
    sizes
        .filter(|&v| {
            v == 1
                || (dest_row.is_multiple_of(v)
                    && shape[last].is_multiple_of(v)
                    && strides[last] == 1
                    && (0..last).all(|d| shape[d] <= 1 || strides[d].is_multiple_of(v))
                    && (center.center_len == 0 || center.center_out % v == center.center_src % v))
        })
        .max()
        .unwrap_or(1)
}

/// The pad of `x` on its device: two launches (fewer where a part of the rows is empty,
/// none for an empty output), each counted as it is launched.
fn cube_pad(x: CubeTensor, checked: &Checked) -> CubeTensor {
    let plan = &checked.plan;
    debug_assert_eq!(plan.input_shape(), &x.shape()[..], "{CHECKED}");
    let out_shape = Shape::from(plan.output_shape().to_vec());
    let output =
        empty_device_contiguous_dtype(x.client.clone(), x.device.clone(), out_shape, x.dtype);
    if plan.output_len() == 0 {
        return output;
    }
    debug_assert!(
        tables::fit(plan.input_shape(), plan.output_shape()),
        "pad_path sends only pads whose tables fit 32 bits here"
    );
    let x = untiled(x);
    let maps = tables::sources(plan.input_shape(), &checked.spec).expect(CHECKED);
    let table = upload(maps.table, &x);
    let fill = scalar(checked.fill, x.dtype);
    let head = maps.heads.last().expect("Burn tensors have a dimension");
    let rows = Rows::new(&x, &output, &table, plan.output_shape(), head);
    let center = head.center_vectors(rows.width, rows.vectors());
    let dtype = dtype_to_storage_type(x.dtype);
    for part in rows.parts(center) {
        let grid = rows.grid(&output, &part);
        check_launch(&rows, &part, x.meta.shape(), x.meta.strides());
        // SAFETY: `launch_unchecked` leaves indexing unchecked. Every index the kernel
        // forms is in bounds: a thread writes vector `row * vectors + at` with `at <
        // vectors` (the row's length over `width`, 1 or `rows.width`, which divides it:
        // `at` is `first + j` with `j < last - first`, or `j` or `j + last - first` with `j
        // < vectors - (last - first)`, `first..last` being the center's vectors in either
        // width) and rows past the output's length terminated (the kernel checks both); per
        // axis, the head's center and the table's border entries come from `axis_borders`
        // for this input shape (each source below the axis' extent, asserted in `tables`;
        // `fit` keeps them in i32), and each axis' block holds one entry per border
        // position, so `from` addresses an element of the input through its own strides;
        // the vector holding it is whole inside the input's row, because `width` divides
        // the input's row length and its other strides with its last stride 1 (`width`); a
        // center vector (`first..last` lie inside the center) starts at such an element as
        // `width` aligns the center. The input is read only where every axis gives a
        // source, which an empty input never does.
        unsafe {
            kernel::pad_kernel::launch_unchecked(
                &output.client,
                grid.cubes,
                grid.dim,
                rows.address,
                part.width,
                x.clone().into_tensor_arg(),
                output.clone().into_tensor_arg(),
                rows.shape(),
                rows.row_len,
                part.first,
                part.last,
                grid.row_threads,
                heads(&maps.heads),
                table.clone().into_linear_view(),
                fill,
                part.per_thread,
                part.center,
                dtype,
            );
        }
        count(Counter::DeviceForward);
    }
    output
}

/// The adjoint of a pad of an input of `in_shape` by `spec`, applied to `grad`: two
/// launches (fewer where a part of the rows is empty, none for an empty input), each
/// counted as it is launched.
fn cube_adjoint(grad: CubeTensor, in_shape: &[usize], spec: &PadSpec) -> CubeTensor {
    let result = empty_device_contiguous_dtype(
        grad.client.clone(),
        grad.device.clone(),
        Shape::from(in_shape.to_vec()),
        grad.dtype,
    );
    let len: usize = in_shape.iter().product();
    if len == 0 {
        return result;
    }
    let grad = untiled(grad);
    let maps = tables::targets(in_shape, spec).expect(CHECKED);
    let table = upload(maps.table, &grad);
    let head = maps.heads.last().expect("Burn tensors have a dimension");
    let rows = Rows::new(&grad, &result, &table, in_shape, head);
    let sole = head.sole_target_vectors(rows.width);
    let dtype = dtype_to_storage_type(grad.dtype);
    for part in rows.parts(sole) {
        let grid = rows.grid(&result, &part);
        check_launch(&rows, &part, grad.meta.shape(), grad.meta.strides());
        // SAFETY: a thread writes vector `row * vectors + at` with `at < vectors` (as in
        // the pad's launches) and rows past the result's length terminated (the kernel
        // checks both), so below its length; per axis, the two windows' offsets (`hi - lo
        // + 1` and `hi2 - lo2 + 1` of them, read only for an index inside its window)
        // point into the table's own lists, which hold output indices that `axis_borders`
        // mapped to an input index of this shape, each below its output axis' extent, as
        // is the center's, so `from + o * stride` addresses an element of the gradient (of
        // the pad's output shape) through its own strides; the vector holding it is whole
        // inside the gradient's row, as `width` keeps it (see the pad's launch), and a
        // vector of `first..last` (read by the last axis' center) starts at such an
        // element as `width` aligns the center.
        unsafe {
            kernel::adjoint_kernel::launch_unchecked(
                &result.client,
                grid.cubes,
                grid.dim,
                rows.address,
                part.width,
                grad.clone().into_tensor_arg(),
                result.clone().into_tensor_arg(),
                rows.shape(),
                rows.row_len,
                part.first,
                part.last,
                grid.row_threads,
                heads(&maps.heads),
                table.clone().into_linear_view(),
                part.per_thread,
                part.center,
                dtype,
            );
        }
        count(Counter::DeviceBackward);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::tables::Head;
    use super::width;

    /// The last axis' head of a pad by `begin` of an axis: its center starts at `begin`
    /// in the output, at 0 in the input (a crop: the other way round).
    fn center(begin: i64, len: usize) -> Head {
        Head {
            center_out: begin.max(0) as usize,
            center_src: (-begin).max(0) as usize,
            center_len: len,
            ..Head::default()
        }
    }

    const SIZES: [usize; 3] = [4, 2, 1];

    #[test]
    fn width_is_the_widest_vector_the_rows_and_center_allow() {
        let w = |shape: &[usize], strides: &[usize], dest_row, c| {
            width(SIZES.into_iter(), shape, strides, dest_row, &c)
        };
        // a 1-D signal of 4 096 padded by 512: vectors of 4
        assert_eq!(w(&[4096], &[1], 5120, center(512, 4096)), 4);
        // an image row of 128 padded by 2: the center is 2 off a multiple of 4
        assert_eq!(w(&[8, 128], &[128, 1], 132, center(2, 128)), 2);
        // cropped by 2: the same
        assert_eq!(w(&[8, 128], &[128, 1], 124, center(-2, 124)), 2);
        // an output row of odd length, an input row of odd length
        assert_eq!(w(&[8, 128], &[128, 1], 131, center(2, 128)), 1);
        assert_eq!(w(&[8, 127], &[127, 1], 128, center(0, 127)), 1);
        // a strided source: the last axis not contiguous, or another stride odd
        assert_eq!(w(&[128, 8], &[1, 128], 12, center(2, 8)), 1);
        assert_eq!(w(&[3, 4, 8], &[33, 8, 1], 8, center(0, 8)), 1);
        // a size-1 axis' stride does not matter; an empty center aligns nothing
        assert_eq!(w(&[1, 8], &[3, 1], 12, center(2, 8)), 2);
        assert_eq!(w(&[1, 8], &[3, 1], 12, center(3, 0)), 4);
        // only what the device offers
        assert_eq!(width([1].into_iter(), &[8], &[1], 8, &center(0, 8)), 1);
    }
}
