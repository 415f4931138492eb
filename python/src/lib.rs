//! `padkit._native`: the extension module the Python package `padkit` wraps
//! (`python/padkit/`). It holds what needs Rust: a planned Pad run on the raw bytes of
//! numpy arrays (the input read in place, the output written into an array the caller
//! allocated, the GIL released while the kernel runs), and padkit-lower on serialized
//! ONNX models. Every check of user input is padkit's core's, raised as
//! [`PadError`] or [`LowerError`] (both `ValueError`s) with its message.

mod grade;
mod suite;

use std::mem::MaybeUninit;

use numpy::npyffi::objects::_PyArray_GET_ITEM_DATA;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use prost::Message;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    padkit,
    PadError,
    PyValueError,
    "A Pad padkit refuses: the message names the input, axis and value."
);
create_exception!(
    padkit,
    LowerError,
    PyValueError,
    "A model padkit lower refuses or cannot read: the message names the node and why."
);

fn pad_error(e: padkit::PadError) -> PyErr {
    PadError::new_err(e.to_string())
}

/// A Pad planned for one input shape and element size: the output's shape, and the run
/// from an input array into an output array of that shape.
#[pyclass(frozen, module = "padkit._native")]
struct Plan {
    plan: padkit::Plan,
    itemsize: usize,
}

#[pymethods]
impl Plan {
    /// Plans a Pad of an input of `shape` whose elements are `itemsize` bytes (1, 2, 4,
    /// 8 or 16): `pads` in ONNX's layout (every begin, then every end, for `axes` or for
    /// every axis), `mode` one of constant, reflect, edge, wrap and symmetric, `interior`
    /// the elements put between neighbours per axis (constant mode).
    #[new]
    #[pyo3(signature = (shape, itemsize, pads, mode, axes=None, interior=None, strict_onnx=false, max_output_bytes=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        shape: Vec<usize>,
        itemsize: usize,
        pads: Vec<i64>,
        mode: &str,
        axes: Option<Vec<i64>>,
        interior: Option<Vec<i64>>,
        strict_onnx: bool,
        max_output_bytes: Option<u64>,
    ) -> PyResult<Plan> {
        let mode: padkit::PadMode = mode.parse().map_err(pad_error)?;
        let spec = padkit::PadSpec::new(pads)
            .with_mode(mode)
            .with_axes(axes)
            .with_interior(interior)
            .with_strict_onnx(strict_onnx)
            .with_max_output_bytes(max_output_bytes);
        let plan = padkit::Plan::new(&shape, &spec, itemsize).map_err(pad_error)?;
        Ok(Plan { plan, itemsize })
    }

    /// The output's shape.
    #[getter]
    fn output_shape(&self) -> Vec<usize> {
        self.plan.output_shape().to_vec()
    }

    /// Pads `x` (C-contiguous, of the planned shape and element size) into `out`
    /// (C-contiguous, writeable, of the output's shape and `x`'s element size, sharing no
    /// memory with `x`), `value` the fill's bytes (one element).
    fn run(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyUntypedArray>,
        value: &[u8],
        out: &Bound<'_, PyUntypedArray>,
    ) -> PyResult<()> {
        let (input, output) = self.checked(x, out)?;
        // SAFETY: `checked` asserted that `x` is a C-contiguous array of `input.1` bytes
        // starting at `input.0`, and `out` a writeable C-contiguous one of `output.1`
        // bytes at `output.0`, disjoint from it; both stay alive (borrowed for this call).
        // numpy arrays may be written by another thread while the GIL is released, as
        // numpy's own kernels allow: the bytes read are then whatever is there.
        let (input, output) = unsafe {
            (
                std::slice::from_raw_parts(input.0, input.1),
                std::slice::from_raw_parts_mut(output.0.cast::<MaybeUninit<u8>>(), output.1),
            )
        };
        py.detach(|| self.plan.run_bytes(input, value, output).map(|_| ()))
            .map_err(pad_error)
    }
}

impl Plan {
    /// The data pointers and byte lengths of `x` and `out`, once both are checked to be
    /// what [`Plan::run`] writes from and into.
    #[allow(clippy::type_complexity)]
    fn checked(
        &self,
        x: &Bound<'_, PyUntypedArray>,
        out: &Bound<'_, PyUntypedArray>,
    ) -> PyResult<((*const u8, usize), (*mut u8, usize))> {
        let fail = |what: String| Err(PyValueError::new_err(what));
        for (name, a, len) in [
            ("x", x, self.plan.input_len()),
            ("out", out, self.plan.output_len()),
        ] {
            if !a.is_c_contiguous() {
                return fail(format!("{name} is not C-contiguous"));
            }
            let itemsize = a.dtype().itemsize();
            if itemsize != self.itemsize {
                return fail(format!(
                    "{name} has elements of {itemsize} bytes; the plan's are {}",
                    self.itemsize
                ));
            }
            if a.len() != len {
                return fail(format!(
                    "{name} holds {} elements; the plan's {} has {len}",
                    a.len(),
                    if name == "x" { "input" } else { "output" }
                ));
            }
        }
        // SAFETY: the arrays' fields, valid while they are borrowed (the GIL held).
        let (xa, oa) = unsafe {
            (
                &*_PyArray_GET_ITEM_DATA(x.as_array_ptr()),
                &*_PyArray_GET_ITEM_DATA(out.as_array_ptr()),
            )
        };
        if oa.flags & numpy::npyffi::NPY_ARRAY_WRITEABLE == 0 {
            return fail("out is not writeable".into());
        }
        let in_bytes = self.plan.input_len() * self.itemsize;
        let out_bytes = self.plan.output_len() * self.itemsize;
        let (xs, os) = (xa.data as usize, oa.data as usize);
        if in_bytes > 0 && out_bytes > 0 && xs < os + out_bytes && os < xs + in_bytes {
            return fail("out shares memory with x".into());
        }
        Ok((
            (xa.data.cast_const().cast::<u8>(), in_bytes),
            (oa.data.cast::<u8>(), out_bytes),
        ))
    }
}

/// `padkit lower` on a serialized ONNX model: the model with its Pads rewritten for
/// `target`, serialized as onnx serializes.
#[pyfunction]
#[pyo3(signature = (model, target="portable", strict_onnx=false, max_output_bytes=None, max_constant_bytes=None))]
fn lower(
    py: Python<'_>,
    model: &[u8],
    target: &str,
    strict_onnx: bool,
    max_output_bytes: Option<u64>,
    max_constant_bytes: Option<u64>,
) -> PyResult<Vec<u8>> {
    let target: padkit_lower::Target = target
        .parse()
        .map_err(|e: padkit_lower::UnknownTarget| LowerError::new_err(e.to_string()))?;
    let mut options = padkit_lower::Options::default()
        .with_target(target)
        .with_strict_onnx(strict_onnx);
    if let Some(limit) = max_output_bytes {
        options = options.with_max_output_bytes(limit);
    }
    if let Some(limit) = max_constant_bytes {
        options = options.with_max_constant_bytes(limit);
    }
    let model = model.to_vec();
    py.detach(move || {
        let model = padkit_onnx::pb::ModelProto::decode(model.as_slice()).map_err(|e| {
            format!("the model is not an ONNX model (protobuf decoding failed: {e})")
        })?;
        let lowered = padkit_lower::lower_with(&model, &options)
            .map_err(|e| padkit_onnx::error::message(&e))?;
        padkit_onnx_tools::wire::encode_model(&lowered).map_err(|e| format!("{e:#}"))
    })
    .map_err(LowerError::new_err)
}

/// The targets `lower` takes, by name.
#[pyfunction]
fn targets() -> Vec<&'static str> {
    padkit_lower::Target::ALL.iter().map(|t| t.name()).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Plan>()?;
    m.add_class::<grade::Grader>()?;
    m.add_function(wrap_pyfunction!(lower, m)?)?;
    m.add_function(wrap_pyfunction!(targets, m)?)?;
    m.add_function(wrap_pyfunction!(suite::suite_cases, m)?)?;
    m.add_function(wrap_pyfunction!(suite::suite_export, m)?)?;
    m.add("PadError", m.py().get_type::<PadError>())?;
    m.add("LowerError", m.py().get_type::<LowerError>())?;
    Ok(())
}
