//! The engines a model runs on: `core` (padkit directly, every ONNX type, Pad graphs),
//! `tract` (the whole model through `padkit_tract::onnx()` with padkit's `If`) and `burn` (Pad graphs
//! through padkit-burn); and the stock engines padkit is measured against: tract-onnx
//! (`stock-tract`) and Burn's own `Tensor::pad` (`stock-burn`).

use anyhow::Result;
use padkit::Tensor;
use tract_onnx::pb::ModelProto;

use padkit_onnx::graph::{Outcome, evaluate, evaluate_core, run_checked, uses_interior};
use padkit_onnx::tract_run;

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

/// Runs `model` on `engine` after checking the model and the inputs; outputs above
/// `max_output_bytes` are refused before they are allocated.
pub fn run(
    engine: Engine,
    model: &ModelProto,
    inputs: &[Tensor],
    max_output_bytes: u64,
) -> Result<Outcome> {
    let name = engine.name();
    run_checked(model, inputs, name, || match engine {
        Engine::Core => evaluate_core(model, inputs, max_output_bytes),
        Engine::Tract if uses_interior(model) => Ok(Outcome::Unsupported(
            "padkit-tract does not run interior padding (padkit's domain)".into(),
        )),
        Engine::Burn => evaluate(model, inputs, name, &|call| {
            crate::burn_engine::pad(call, max_output_bytes)
        }),
        Engine::StockBurn => evaluate(model, inputs, name, &|call| {
            crate::stock_burn_engine::pad(call, max_output_bytes)
        }),
        Engine::Tract => tract_run::run(
            tract_run::padkit_framework(),
            model,
            inputs,
            max_output_bytes,
        ),
        Engine::StockTract => tract_run::run(tract_onnx::onnx(), model, inputs, max_output_bytes),
    })
}
