//! Grading a Python runtime on the suite (`padkit.suite.grade`): the Python side runs each
//! case (in a worker process, with a timeout) and hands its answer here, where
//! padkit-conformance's one grading rule judges it (`grade`: the exact comparison, a
//! refusal beyond ONNX credited), the twin rule credits errors once every case has its
//! verdict, and the report is the CLI's (JSON, Markdown, JUnit).

use std::collections::HashMap;

use padkit::{DType, Data, Tensor};
use padkit_conformance::{Answer, Case, Report, Size, Verdict, credit_error, grade};
use padkit_onnx_tools::suite::select;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

/// One engine's grading of the selected cases.
#[pyclass(module = "padkit._native")]
pub struct Grader {
    engine: String,
    cases: Vec<Case>,
    verdicts: Vec<Option<Verdict>>,
}

/// A tensor from Python's `(dtype name, shape, data)`: element bytes (one byte per
/// element, its code, for the sub-byte types) or a list of strings.
fn tensor(name: &str, shape: Vec<usize>, data: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let dtype = DType::ALL
        .iter()
        .copied()
        .find(|d| d.name() == name)
        .ok_or_else(|| PyValueError::new_err(format!("no element type is named {name:?}")))?;
    let made = if let Ok(list) = data.cast::<PyList>() {
        let strings: Vec<String> = list.extract()?;
        Tensor::from_strings(&shape, strings)
    } else {
        let bytes = data.cast::<PyBytes>()?.as_bytes();
        if matches!(dtype.layout(), padkit::dtype::Layout::Packed(_)) {
            Tensor::from_codes(dtype, &shape, bytes)
        } else {
            Tensor::new(dtype, shape, Data::Bytes(bytes.to_vec()))
        }
    };
    made.map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl Grader {
    /// The cases of the catalogue (the small one where `small`) with every tag of `tags`,
    /// and their twins, to grade `engine` on.
    #[new]
    #[pyo3(signature = (engine, small=false, tags=vec![]))]
    fn new(engine: String, small: bool, tags: Vec<String>) -> Grader {
        let cases = select(if small { Size::Small } else { Size::Full }, &tags);
        let verdicts = vec![None; cases.len()];
        Grader {
            engine,
            cases,
            verdicts,
        }
    }

    fn __len__(&self) -> usize {
        self.cases.len()
    }

    /// The answer to case `index`: `kind` is `output` (`payload` a `(dtype name, shape,
    /// data)` tuple), `error`, `unsupported` or `crash` (`payload` the message), or
    /// `untested` and `wrong` (the harness's own verdicts, `payload` why). Returns the
    /// verdict's name and detail, before the twin rule.
    fn answer(
        &mut self,
        index: usize,
        kind: &str,
        payload: &Bound<'_, PyAny>,
    ) -> PyResult<(&'static str, String)> {
        let case = self
            .cases
            .get(index)
            .ok_or_else(|| PyValueError::new_err(format!("no case {index}")))?;
        let text = || payload.extract::<String>();
        let verdict = match kind {
            "output" => {
                let (name, shape, data): (String, Vec<usize>, Bound<'_, PyAny>) =
                    payload.extract()?;
                match tensor(&name, shape, &data) {
                    Ok(y) => grade(case, Answer::Output(y)),
                    Err(e) => Verdict::Wrong(format!("an output padkit cannot read: {e}")),
                }
            }
            "error" => grade(case, Answer::Error(text()?)),
            "unsupported" => grade(case, Answer::Unsupported(text()?)),
            "crash" => grade(case, Answer::Crash(text()?)),
            "untested" => Verdict::Untested(text()?),
            "wrong" => Verdict::Wrong(text()?),
            other => {
                return Err(PyValueError::new_err(format!(
                    "no answer is of kind {other:?}"
                )));
            }
        };
        let seen = (verdict.name(), verdict.detail().to_string());
        self.verdicts[index] = Some(verdict);
        Ok(seen)
    }

    /// The report, every case graded: errors credited by the twin rule (an error passes
    /// only where the engine passes the case's valid twin), a case without an answer
    /// untested. `fmt` is `json`, `markdown` or `junit`, as `padkit conformance
    /// --report` writes them.
    fn report(&self, fmt: &str) -> PyResult<String> {
        let by_name: HashMap<&str, &Verdict> = self
            .cases
            .iter()
            .zip(&self.verdicts)
            .filter_map(|(c, v)| Some((c.name.as_str(), v.as_ref()?)))
            .collect();
        let mut report = Report::new(&[self.engine.as_str()]);
        for (case, verdict) in self.cases.iter().zip(&self.verdicts) {
            let verdict = match (verdict, &case.twin) {
                (None, _) => Verdict::Untested("not run".into()),
                (Some(v), None) => v.clone(),
                (Some(v), Some(twin)) => {
                    credit_error(v.clone(), twin, by_name.get(twin.as_str()).copied())
                }
            };
            report.record(&case.name, &case.tags, &self.engine, verdict);
        }
        match fmt {
            "json" => Ok(report.to_json()),
            "markdown" => Ok(report.markdown(&[], 5)),
            "junit" => Ok(report.junit()),
            other => Err(PyValueError::new_err(format!(
                "no report format is named {other:?} (json, markdown, junit)"
            ))),
        }
    }
}
