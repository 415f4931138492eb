//! A model's graph inputs against the tensors a caller feeds: as many as the graph's inputs
//! to feed, each of the element type, rank and known dims the graph declares.

use anyhow::{Context, Result, ensure};
use padkit::{DType, Tensor};
use padkit_onnx::graph::graph_inputs;
use padkit_onnx::pb::tensor_shape_proto::dimension::Value;
use padkit_onnx::pb::{ModelProto, type_proto};

/// [`graph_inputs`], checked to be as many as the `given` inputs: an error where the model
/// has no graph, or another number of inputs to feed than `given`.
pub fn graph_inputs_for(model: &ModelProto, given: usize) -> Result<Vec<String>> {
    let names = graph_inputs(model)?;
    ensure!(
        names.len() == given,
        "the model has {} graph inputs ({}) but {} were given",
        names.len(),
        names.join(", "),
        given
    );
    Ok(names)
}

/// Refuses inputs whose number, type or known dims differ from the graph's declaration: an
/// error where the model has no graph, or where the inputs differ from the graph's
/// declaration in number, element type, rank or a known dim (the error names the input).
pub fn check_inputs(model: &ModelProto, inputs: &[Tensor]) -> Result<()> {
    let g = model.graph.as_ref().context("the model has no graph")?;
    let names = graph_inputs_for(model, inputs.len())?;
    for (name, t) in names.iter().zip(inputs) {
        let declared = g
            .input
            .iter()
            .find(|i| &i.name == name)
            .and_then(|i| i.r#type.as_ref());
        let Some(type_proto::Value::TensorType(tt)) = declared.and_then(|t| t.value.as_ref())
        else {
            continue;
        };
        if let Ok(dtype) = DType::from_onnx(tt.elem_type) {
            ensure!(
                dtype == t.dtype(),
                "graph input {name:?} is declared {dtype}, the data is {}",
                t.dtype()
            );
        }
        let Some(shape) = &tt.shape else { continue };
        let dims: Vec<Option<i64>> = shape
            .dim
            .iter()
            .map(|d| match d.value {
                Some(Value::DimValue(v)) => Some(v),
                _ => None,
            })
            .collect();
        let fits = dims.len() == t.shape().len()
            && dims
                .iter()
                .zip(t.shape())
                .all(|(d, &n)| d.is_none_or(|d| d == n as i64));
        let show = |d: &Option<i64>| d.map_or("?".to_string(), |v| v.to_string());
        ensure!(
            fits,
            "graph input {name:?} is declared with shape [{}], the data has shape {:?}",
            dims.iter().map(show).collect::<Vec<_>>().join(", "),
            t.shape()
        );
    }
    Ok(())
}
