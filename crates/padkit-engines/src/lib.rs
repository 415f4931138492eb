//! The engines a model runs on: `core` (padkit directly, every ONNX type, Pad graphs),
//! `tract` (the whole model through `padkit_tract::onnx()` with padkit's `If`) and `burn` (Pad graphs
//! through padkit-burn); and the stock engines padkit is measured against: tract-onnx
//! (`stock-tract`) and Burn's own `Tensor::pad` (`stock-burn`); and stock tract-onnx on the
//! model lowered by padkit-lower (`lowered-tract`), lowered for tract, keeping the Pads
//! stock tract runs right (`targeted-tract`), or lowered for tract's GPU runtimes
//! (`targeted-tract-gpu`, run on the CPU); and whole models through candle-onnx, with
//! padkit-candle's Pads (`candle`), with those lowered for candle-onnx (`targeted-candle`)
//! or with its own (`stock-candle`), which only a build with the `candle` feature holds
//! (candle-onnx's build needs `protoc`).
//!
//! Each engine's facts are [`Engine`]'s methods (its name, the feature it needs, how its
//! errors are classed) and its run an arm of [`run`]: adding an engine is its module and
//! one arm of each. A run is graded by [`verdict`]; the fuzz targets' bodies are [`fuzz`]'s.
//! The `padkit` binary, the repository's tests and the fuzz targets use this crate; the
//! fuzz targets build it without the `burn` and `candle` features, so without Burn and
//! candle.
//!
//! Not published: its callers report the error text itself, so its functions carry no
//! `# Errors` sections.
#![allow(clippy::missing_errors_doc)]

#[cfg(feature = "burn")]
pub mod burn;
#[cfg(feature = "candle")]
pub mod candle;
pub mod core_engine;
pub mod fuzz;
pub mod inputs;
pub mod pad_graph;
#[cfg(feature = "burn")]
pub mod stock_burn;
pub mod tract;
pub mod verdict;

use anyhow::Result;
use padkit::Tensor;
use padkit::onnx::PADKIT_DOMAIN;
use padkit_lower::Target;
use padkit_onnx::graph::check_model;
use padkit_onnx::pb::ModelProto;
use padkit_onnx_tools::isolate::isolated;

use self::core_engine::evaluate_core;
use self::inputs::check_inputs;
use self::pad_graph::Outcome;
#[cfg(feature = "burn")]
use self::pad_graph::evaluate;
use self::verdict::ClassCheck;

/// The features of padkit-engines this build has, of those engines need.
const BUILT: &[&str] = &[
    #[cfg(feature = "burn")]
    "burn",
    #[cfg(feature = "candle")]
    "candle",
];

/// Which engine runs a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
    /// The model lowered by padkit-lower (its Pads as standard ops), then run whole
    /// through stock tract-onnx.
    LoweredTract,
    /// The model lowered by padkit-lower for stock tract (`--target tract`: the Pads stock
    /// tract runs right kept), then run whole through stock tract-onnx.
    TargetedTract,
    /// The model lowered by padkit-lower for tract's GPU runtimes (`--target tract-gpu`:
    /// only ops they run on the device), then run whole through stock tract-onnx on the
    /// CPU.
    TargetedTractGpu,
    /// The whole model through padkit-candle's `onnx::simple_eval` (candle-onnx with
    /// every Pad lowered first).
    Candle,
    /// The whole model through padkit-candle's lowering for candle-onnx (`--target
    /// candle-onnx`: the Pads candle-onnx runs right kept), then candle-onnx's own
    /// `simple_eval`.
    TargetedCandle,
    /// The whole model through candle-onnx's own `simple_eval`, without padkit.
    StockCandle,
}

impl Engine {
    /// padkit's engines (`--engine all`).
    pub const ALL: [Engine; 3] = [Engine::Core, Engine::Tract, Engine::Burn];

    /// The cargo feature of padkit-engines (and padkit-cli, which forwards it) this engine needs, if any: `candle` for the candle
    /// engines (off by default: candle-onnx's build needs `protoc`), `burn` for the Burn
    /// engines (on by default; off in builds that run no Burn, such as the fuzz targets).
    fn feature(self) -> Option<&'static str> {
        match self {
            Engine::Candle | Engine::TargetedCandle | Engine::StockCandle => Some("candle"),
            Engine::Burn | Engine::StockBurn => Some("burn"),
            _ => None,
        }
    }

    /// Fails, naming the feature to build with, where this build lacks the engine.
    pub fn check_built(self) -> Result<()> {
        if self.feature().is_none_or(|f| BUILT.contains(&f)) {
            Ok(())
        } else {
            Err(self.not_built())
        }
    }

    /// The error for an engine this build lacks.
    fn not_built(self) -> anyhow::Error {
        let feature = self.feature().unwrap_or_default();
        let why = if feature == "candle" {
            " (candle-onnx's build needs `protoc`)"
        } else {
            ""
        };
        anyhow::anyhow!(
            "the {} engine is not in this build of padkit: build padkit-engines with its \
             `{feature}` feature (the padkit binary: `--features padkit-cli/{feature}`){why}",
            self.name()
        )
    }

    /// True for the engines that run a Pad of their own, not padkit's (stock tract, Burn's
    /// `Tensor::pad`, candle-onnx's): the outside runtimes, whose refusal of a case beyond
    /// ONNX passes ([`padkit_conformance::credit_refusal`]). padkit's engines, lowerings
    /// included, are held to numpy's answer there.
    pub fn is_stock(self) -> bool {
        matches!(
            self,
            Engine::StockTract | Engine::StockBurn | Engine::StockCandle
        )
    }

    /// How the class of this engine's errors is checked: strictly for padkit's engines
    /// (core, tract, burn), whose errors keep the [`padkit::PadError`] in their chain; not
    /// at all for the stock engines, lowered models included (a stock runtime raises their
    /// errors), nor for padkit-candle's (its errors reach padkit through candle-onnx, as
    /// text: candle's error keeps no source).
    pub fn class_check(self) -> ClassCheck {
        match self {
            Engine::Core | Engine::Burn | Engine::Tract => ClassCheck::Strict,
            Engine::StockTract
            | Engine::StockBurn
            | Engine::LoweredTract
            | Engine::TargetedTract
            | Engine::TargetedTractGpu
            | Engine::Candle
            | Engine::TargetedCandle
            | Engine::StockCandle => ClassCheck::Any,
        }
    }

    /// The engine as `--engine` and the reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Core => "core",
            Engine::Tract => "tract",
            Engine::Burn => "burn",
            Engine::StockTract => "stock-tract",
            Engine::StockBurn => "stock-burn",
            Engine::LoweredTract => "lowered-tract",
            Engine::TargetedTract => "targeted-tract",
            Engine::TargetedTractGpu => "targeted-tract-gpu",
            Engine::Candle => "candle",
            Engine::TargetedCandle => "targeted-candle",
            Engine::StockCandle => "stock-candle",
        }
    }
}

/// How an engine runs a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSettings {
    /// Outputs above this many bytes are refused before they are allocated.
    pub max_output_bytes: u64,
    /// ONNX's refusals where padkit answers beyond ONNX
    /// ([`padkit::PadSpec::with_strict_onnx`]), on padkit's engines (core, tract, burn, and
    /// the lowerings); the stock engines run their own Pad.
    pub strict_onnx: bool,
}

impl RunSettings {
    /// Outputs up to `max_output_bytes`, numpy's results beyond ONNX.
    pub fn new(max_output_bytes: u64) -> RunSettings {
        RunSettings {
            max_output_bytes,
            strict_onnx: false,
        }
    }
}

/// Runs `model` on `engine` after checking the model and the inputs, as `settings` say.
pub fn run(
    engine: Engine,
    model: &ModelProto,
    inputs: &[Tensor],
    settings: RunSettings,
) -> Result<Outcome> {
    let name = engine.name();
    let max_output_bytes = settings.max_output_bytes;
    run_checked(model, inputs, name, || match engine {
        Engine::Core => evaluate_core(model, inputs, settings),
        Engine::Tract if uses_interior(model) => Ok(Outcome::Unsupported(
            "padkit-tract does not run interior padding (padkit's domain)".into(),
        )),
        #[cfg(feature = "burn")]
        Engine::Burn => evaluate(model, inputs, name, &|call| self::burn::pad(call, settings)),
        #[cfg(feature = "burn")]
        Engine::StockBurn => evaluate(model, inputs, name, &|call| {
            self::stock_burn::pad(call, max_output_bytes)
        }),
        #[cfg(not(feature = "burn"))]
        Engine::Burn | Engine::StockBurn => Err(engine.not_built()),
        Engine::Tract => tract::run(tract::padkit_framework(), model, inputs, settings),
        Engine::StockTract => tract::run(tract_onnx::onnx(), model, inputs, stock(settings)),
        Engine::LoweredTract | Engine::TargetedTract | Engine::TargetedTractGpu => {
            let target = match engine {
                Engine::TargetedTract => Target::Tract,
                Engine::TargetedTractGpu => Target::TractGpu,
                _ => Target::Portable,
            };
            let options = padkit_lower::Options::default()
                .with_max_output_bytes(max_output_bytes)
                .with_target(target)
                .with_strict_onnx(settings.strict_onnx);
            let lowered = padkit_lower::lower_with(model, &options)?;
            tract::run(tract_onnx::onnx(), &lowered, inputs, stock(settings))
        }
        #[cfg(feature = "candle")]
        Engine::Candle => candle::run(Some(Target::Portable), model, inputs, settings),
        #[cfg(feature = "candle")]
        Engine::TargetedCandle => candle::run(Some(Target::CandleOnnx), model, inputs, settings),
        #[cfg(feature = "candle")]
        Engine::StockCandle => candle::run(None, model, inputs, stock(settings)),
        #[cfg(not(feature = "candle"))]
        Engine::Candle | Engine::TargetedCandle | Engine::StockCandle => Err(engine.not_built()),
    })
}

/// `settings` for an engine that runs no Pad of padkit's: its own semantics.
fn stock(settings: RunSettings) -> RunSettings {
    RunSettings::new(settings.max_output_bytes)
}

/// True when a node of the model's graph is padkit's own Pad with interior padding.
fn uses_interior(model: &ModelProto) -> bool {
    model.graph.iter().flat_map(|g| &g.node).any(|n| {
        n.domain == PADKIT_DOMAIN
            && n.op_type == "Pad"
            && n.attribute.iter().any(|a| a.name == "interior")
    })
}

/// Checks the model ([`check_model`]) and the inputs ([`check_inputs`]), then runs `body`
/// isolated (a panic becomes an error; see [`isolated`]) as `name`.
pub fn run_checked(
    model: &ModelProto,
    inputs: &[Tensor],
    name: &str,
    body: impl FnOnce() -> Result<Outcome>,
) -> Result<Outcome> {
    check_model(model)?;
    check_inputs(model, inputs)?;
    isolated(name, body)
}
