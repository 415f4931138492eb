//! The native pad on Burn's CubeCL backend (wgpu, CUDA, ROCm, Metal): one launch of
//! [`kernel::pad_kernel`] writes the output once, reading the input in place through its
//! strides; the backward is one launch of [`kernel::adjoint_kernel`]. The only host work
//! is planning the small per-axis [`tables`], which the op knows before launch.

mod kernel;
pub(crate) mod tables;

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
use crate::path::{Counter, count};

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

/// Elements of a row (the last axis) per thread of the kernels: each thread maps the
/// row's other axes once for all of them.
const PER_THREAD: usize = 8;

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
        field(|h| h.lo),
        field(|h| h.hi),
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
        InputScalar::new(fill.integer(dtype).expect(CHECKED), storage)
    }
}

/// The launch of a row kernel writing `dest`, a contiguous tensor of `shape`: one thread
/// per stretch of `PER_THREAD` positions of each row (the last axis), and the address
/// type every tensor of the launch needs.
struct Rows {
    cubes: CubeCount,
    dim: CubeDim,
    address: AddressType,
    shape: SequenceArg<FastDivmod<usize>>,
    row_len: usize,
    stretches: usize,
}

impl Rows {
    /// `shape` is non-empty and has elements (the callers return empty results first).
    fn new(dest: &CubeTensor, shape: &[usize], tensors: [&CubeTensor; 3]) -> Rows {
        let row_len = *shape.last().expect("Burn tensors have a dimension");
        let stretches = row_len.div_ceil(PER_THREAD);
        let threads = shape.iter().product::<usize>() / row_len * stretches;
        let dim = CubeDim::new(&dest.client, threads);
        let mut seq = SequenceArg::new();
        for &d in shape {
            seq.push(d);
        }
        Rows {
            cubes: calculate_cube_count_elemwise(&dest.client, threads, dim),
            dim,
            address: tensors
                .map(CubeTensor::required_address_type)
                .into_iter()
                .max()
                .unwrap_or_default(),
            shape: seq,
            row_len,
            stretches,
        }
    }
}

fn cube_pad(x: CubeTensor, checked: &Checked) -> CubeTensor {
    count(Counter::DeviceForward);
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
    let rows = Rows::new(&output, plan.output_shape(), [&x, &output, &table]);
    let dtype = dtype_to_storage_type(x.dtype);
    // SAFETY: `launch_unchecked` leaves indexing unchecked. Every index the kernel forms
    // is in bounds: a thread writes `row * row_len + o` with `o < row_len` and rows past
    // the output's length terminated (the kernel checks both);
    // per axis, the head's center and the table's border entries come from
    // `axis_sources` for this input shape (each source below the axis' extent, asserted
    // in `tables`; `fit` keeps them in i32), and each axis' block holds one entry per
    // border position, so `at` addresses an element of the input through its own
    // strides; the input is read only where every axis gives a source, which an empty
    // input never does.
    unsafe {
        kernel::pad_kernel::launch_unchecked(
            &output.client,
            rows.cubes,
            rows.dim,
            rows.address,
            x.into_tensor_arg(),
            output.clone().into_tensor_arg(),
            rows.shape,
            rows.row_len,
            rows.stretches,
            heads(&maps.heads),
            table.into_linear_view(),
            fill,
            PER_THREAD,
            dtype,
        );
    }
    output
}

fn cube_adjoint(grad: CubeTensor, in_shape: &[usize], spec: &PadSpec) -> CubeTensor {
    count(Counter::DeviceBackward);
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
    let rows = Rows::new(&result, in_shape, [&grad, &result, &table]);
    let dtype = dtype_to_storage_type(grad.dtype);
    // SAFETY: a thread writes `row * row_len + q` with `q < row_len` and rows past the
    // result's length terminated (the kernel checks both), so below its length; per
    // axis, the window's `hi - lo + 1` offsets point into the table's own lists, which
    // hold output indices that `axis_sources` mapped to an input index of this shape,
    // each below its output axis' extent, as is the center's, so `at` addresses an
    // element of the gradient (of the pad's output shape) through its own strides.
    unsafe {
        kernel::adjoint_kernel::launch_unchecked(
            &result.client,
            rows.cubes,
            rows.dim,
            rows.address,
            grad.into_tensor_arg(),
            result.clone().into_tensor_arg(),
            rows.shape,
            rows.row_len,
            rows.stretches,
            heads(&maps.heads),
            table.into_linear_view(),
            PER_THREAD,
            dtype,
        );
    }
    result
}
