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

/// Every version of ONNX Pad.
pub const PAD_VERSIONS: [i64; 10] = [1, 2, 11, 13, 18, 19, 21, 23, 24, 25];

/// The modes ONNX Pad allows at `opset` (wrap from 19; symmetric never).
///
/// ```
/// use padkit::PadMode;
/// assert!(!padkit_tract::modes_for(18).contains(&PadMode::Wrap));
/// assert!(padkit_tract::modes_for(19).contains(&PadMode::Wrap));
/// ```
pub fn modes_for(opset: i64) -> Vec<PadMode> {
    let mut modes = vec![PadMode::Constant, PadMode::Reflect, PadMode::Edge];
    if opset >= 19 {
        modes.push(PadMode::Wrap);
    }
    modes
}

/// The `mode` attribute, checked against the opset.
fn parse_mode(node: &NodeProto, opset: i64) -> TractResult<PadMode> {
    let name = &node.name;
    let text = node.get_attr_opt::<&str>("mode")?.unwrap_or("constant");
    // modes_for(i64::MAX): the modes of the newest version, i.e. every ONNX Pad mode.
    let mode = text.parse::<PadMode>().ok().filter(|m| modes_for(i64::MAX).contains(m)).with_context(|| {
        format!("Pad node {name:?}: attribute 'mode' is {text:?}; ONNX Pad knows constant, reflect, edge and (opset 19+) wrap")
    })?;
    if !modes_for(opset).contains(&mode) {
        bail!(
            "Pad node {name:?}: mode \"{mode}\" needs opset 19 or later, the model uses opset {opset}"
        );
    }
    Ok(mode)
}
