//! The `core` engine: Pad graphs on padkit's core, every ONNX element type.

use anyhow::{Context, Result};
use padkit::Tensor;
use padkit_onnx::pb::ModelProto;

use crate::RunSettings;
use crate::pad_graph::{Outcome, PadCall, PadResult, evaluate};

/// A checked Pad graph evaluated on padkit's core ([`pad`]), every ONNX type, as
/// `settings` say.
pub fn evaluate_core(
    model: &ModelProto,
    inputs: &[Tensor],
    settings: RunSettings,
) -> Result<Outcome> {
    evaluate(model, inputs, "core", &|call| pad(call, settings))
}

/// One Pad node on padkit's core, every ONNX type.
pub fn pad(call: &PadCall, settings: RunSettings) -> Result<PadResult> {
    let spec = call.spec_for(settings);
    let y = padkit::pad_tensor(&call.x, &spec, call.value.as_ref())
        .with_context(|| call.node.clone())?;
    Ok(PadResult::Ran(y))
}
