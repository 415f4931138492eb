//! The engines a model runs on: `core` (padkit directly, every ONNX type, Pad graphs),
//! `tract` (the whole model through `padkit_tract::onnx()`) and `burn` (Pad graphs
//! through padkit-burn); and the stock engines padkit is measured against: tract-onnx
//! (`stock-tract`) and Burn's own `Tensor::pad` (`stock-burn`).

use anyhow::{Context, Result, ensure};
use padkit::{DType, Tensor};
use tract_onnx::pb::ModelProto;

use crate::graph::{
    Outcome, PadCall, PadResult, check_model, evaluate, graph_inputs_for, uses_interior,
};
use crate::isolate::isolated;

/// Which engine runs a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The padkit core on the Pad node.
    Core,
    /// The whole model through tract with padkit's Pad.
    Tract,
    /// The Pad node through padkit-burn on Burn's Flex backend.
    Burn,
    /// The whole model through stock tract-onnx (`tract_onnx::onnx()`), without padkit.
    StockTract,
    /// The Pad nodes through Burn's own `Tensor::pad` on Flex, without padkit-burn.
    StockBurn,
}

impl Engine {
    /// padkit's engines (`--engine all`).
    pub const ALL: [Engine; 3] = [Engine::Core, Engine::Tract, Engine::Burn];

    pub fn name(self) -> &'static str {
        match self {
            Engine::Core => "core",
            Engine::Tract => "tract",
            Engine::Burn => "burn",
            Engine::StockTract => "stock-tract",
            Engine::StockBurn => "stock-burn",
        }
    }
}

/// Refuses inputs whose number, type or known dims differ from the graph's declaration.
pub fn check_inputs(model: &ModelProto, inputs: &[Tensor]) -> Result<()> {
    use tract_onnx::pb::{tensor_shape_proto::dimension::Value, type_proto};
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

/// Runs `model` on `engine` after checking the model and the inputs; outputs above
/// `max_output_bytes` are refused before they are allocated.
pub fn run(
    engine: Engine,
    model: &ModelProto,
    inputs: &[Tensor],
    max_output_bytes: u64,
) -> Result<Outcome> {
    check_model(model)?;
    check_inputs(model, inputs)?;
    let name = engine.name();
    if engine == Engine::Tract && uses_interior(model) {
        return Ok(Outcome::Unsupported(
            "padkit-tract does not run interior padding (padkit's domain)".into(),
        ));
    }
    isolated(name, || match engine {
        Engine::Core => evaluate(model, inputs, name, &|call| {
            core_pad(call, max_output_bytes)
        }),
        Engine::Burn => evaluate(model, inputs, name, &|call| {
            crate::burn_engine::pad(call, max_output_bytes)
        }),
        Engine::StockBurn => evaluate(model, inputs, name, &|call| {
            crate::stock_burn_engine::pad(call, max_output_bytes)
        }),
        Engine::Tract => {
            crate::tract_engine::run(padkit_tract::onnx(), model, inputs, max_output_bytes)
        }
        Engine::StockTract => {
            crate::tract_engine::run(tract_onnx::onnx(), model, inputs, max_output_bytes)
        }
    })
}

/// One Pad node on padkit's core, every ONNX type.
fn core_pad(call: &PadCall, max_output_bytes: u64) -> Result<PadResult> {
    let spec = call.spec.clone().with_max_output_bytes(max_output_bytes);
    let y = padkit::pad_tensor(&call.x, &spec, call.value.as_ref())
        .with_context(|| call.node.clone())?;
    Ok(PadResult::Ran(y))
}
