//! The conformance suite for Python (`padkit.suite`): padkit-conformance's cases as Python
//! values (each case's model in onnx's encoding, its inputs and expected result), and
//! their export in the backend-test layout, as `padkit suite export` writes it.

use std::path::PathBuf;

use padkit::{Data, Tensor};
use padkit_conformance::{Expected, Size};
use padkit_onnx_tools::model::PadModel;
use padkit_onnx_tools::suite::{export, select};
use padkit_onnx_tools::wire::encode_model;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

fn size(small: bool) -> Size {
    if small { Size::Small } else { Size::Full }
}

/// A tensor for Python: `(dtype name, shape, data)`, the data its element bytes
/// (little-endian; one byte per element, its code, for the sub-byte types) or its
/// strings.
fn tensor<'py>(py: Python<'py>, t: &Tensor) -> PyResult<Bound<'py, PyAny>> {
    let data: Bound<'py, PyAny> = match (t.unpacked_codes(), t.data()) {
        (Some(codes), _) => PyBytes::new(py, &codes).into_any(),
        (None, Data::Bytes(bytes)) => PyBytes::new(py, bytes).into_any(),
        (None, Data::Strings(strings)) => PyList::new(py, strings)?.into_any(),
    };
    (t.dtype().name(), t.shape().to_vec(), data)
        .into_pyobject(py)
        .map(Bound::into_any)
}

/// The catalogue's cases (the small one where `small`) that carry every tag of `tags`,
/// with their twins, as `padkit suite export` selects them: one dict each.
#[pyfunction]
#[pyo3(signature = (small=false, tags=vec![]))]
pub fn suite_cases(
    py: Python<'_>,
    small: bool,
    tags: Vec<String>,
) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let mut out = vec![];
    for case in select(size(small), &tags) {
        let model = PadModel::from_case(&case);
        let proto = model.proto();
        let bytes = encode_model(&proto).map_err(|e| PyOSError::new_err(format!("{e:#}")))?;
        let d = PyDict::new(py);
        d.set_item("name", &case.name)?;
        d.set_item("tags", &case.tags)?;
        d.set_item("twin", &case.twin)?;
        d.set_item("onnx", case.onnx.name())?;
        d.set_item("opset", case.opset)?;
        d.set_item("domain", &case.domain)?;
        d.set_item("mode", case.mode.name())?;
        d.set_item("pads", &case.pads)?;
        d.set_item("axes", &case.axes)?;
        d.set_item("interior", &case.interior)?;
        d.set_item("fill", tensor(py, &case.fill)?)?;
        d.set_item("model", PyBytes::new(py, &bytes))?;
        let names = proto
            .graph
            .iter()
            .flat_map(|g| &g.input)
            .map(|i| i.name.clone());
        let inputs = names
            .zip(model.inputs())
            .map(|(name, t)| Ok((name, tensor(py, &t)?)))
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("inputs", inputs)?;
        match &case.expected {
            Expected::Output(y) => d.set_item("expected", ("output", tensor(py, y)?))?,
            Expected::Error(refusal) => d.set_item("expected", ("error", refusal.class()))?,
        }
        out.push(d);
    }
    Ok(out)
}

/// `padkit suite export DIR`: the selected cases written below `dir`; how many.
#[pyfunction]
#[pyo3(signature = (dir, small=false, tags=vec![]))]
pub fn suite_export(
    py: Python<'_>,
    dir: PathBuf,
    small: bool,
    tags: Vec<String>,
) -> PyResult<usize> {
    py.detach(|| export(&dir, &select(size(small), &tags)))
        .map_err(|e| PyOSError::new_err(format!("{e:#}")))
}
