//! Reads an ONNX Pad node for the model's opset.

use padkit::PadMode;
use tract_hir::internal::*;
use tract_onnx::model::{ParsingContext, optional_inputs};
use tract_onnx::pb::NodeProto;

use crate::OnnxPad;

/// The `OpBuilder` for ONNX `Pad`, every opset.
///
/// - opset 1: `paddings` and `value` attributes;
/// - opsets 2–10: `pads` and `value` attributes;
/// - opset 11+: `pads`, optional `constant_value`, and (18+) optional `axes` inputs;
///   `mode="wrap"` from 19.
pub fn pad_builder(
    ctx: &ParsingContext,
    node: &NodeProto,
) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    Ok((
        expand(parse_pad_node(node, ctx.onnx_operator_set_version)?),
        vec![],
    ))
}

/// Reads a Pad node's attributes and optional inputs for `opset`.
///
/// `value_input` and `axes_input` index the node's non-empty inputs, as tract wires them.
///
/// ```
/// use tract_onnx::pb::NodeProto;
/// let node = NodeProto { name: "p".into(), op_type: "Pad".into(), input: vec!["x".into(), "pads".into(), "".into(), "axes".into()], ..Default::default() };
/// let pad = padkit_tract::parse_pad_node(&node, 18).unwrap();
/// assert_eq!((pad.value_input, pad.axes_input), (None, Some(2)));
/// assert!(padkit_tract::parse_pad_node(&node, 13).is_err()); // axes need opset 18
/// ```
pub fn parse_pad_node(node: &NodeProto, opset: i64) -> TractResult<OnnxPad> {
    let mode = parse_mode(node, opset)?;
    let name = node.name.clone();
    Ok(if opset < 11 {
        let attr = if opset < 2 { "paddings" } else { "pads" };
        let pads: Vec<i64> = node.get_attr_opt_vec(attr)?.with_context(|| {
            format!("Pad node {name:?} (opset {opset}): attribute '{attr}' is missing")
        })?;
        let value: f32 = node.get_attr_opt("value")?.unwrap_or(0.0);
        OnnxPad {
            node: name,
            mode,
            attr_pads: Some(pads),
            attr_value: Some(value.to_bits()),
            value_input: None,
            axes_input: None,
        }
    } else {
        let mut optional = optional_inputs(node).skip(2);
        let value_input = optional.next().flatten();
        let axes_input = optional.next().flatten();
        if axes_input.is_some() && opset < 18 {
            bail!(
                "Pad node {name:?}: input 'axes' needs opset 18 or later, the model uses opset {opset}"
            );
        }
        OnnxPad {
            node: name,
            mode,
            attr_pads: None,
            attr_value: None,
            value_input,
            axes_input,
        }
    })
}

/// The `mode` attribute, checked against the opset.
fn parse_mode(node: &NodeProto, opset: i64) -> TractResult<PadMode> {
    let text = node.get_attr_opt::<&str>("mode")?.unwrap_or("constant");
    padkit::onnx::parse_mode(text, opset).map_err(|e| format_err!("Pad node {:?}: {e}", node.name))
}
