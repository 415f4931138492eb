//! The `core` engine: Pad graphs on padkit's core, every ONNX element type.

use anyhow::{Context, Result};
use padkit::Tensor;
use padkit_onnx::pb::ModelProto;

use crate::pad_graph::{Outcome, PadCall, PadResult, evaluate};

/// A checked Pad graph evaluated on padkit's core ([`pad`]), every ONNX type; outputs
/// above `max_output_bytes` are refused before they are allocated.
pub fn evaluate_core(
    model: &ModelProto,
    inputs: &[Tensor],
    max_output_bytes: u64,
) -> Result<Outcome> {
    evaluate(model, inputs, "core", &|call| pad(call, max_output_bytes))
}

/// One Pad node on padkit's core, every ONNX type.
pub fn pad(call: &PadCall, max_output_bytes: u64) -> Result<PadResult> {
    let spec = call.spec.clone().with_max_output_bytes(max_output_bytes);
    let y = padkit::pad_tensor(&call.x, &spec, call.value.as_ref())
        .with_context(|| call.node.clone())?;
    Ok(PadResult::Ran(y))
}
