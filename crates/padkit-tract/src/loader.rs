//! Reads an ONNX Pad node for the model's opset.

use padkit::PadMode;
use padkit::onnx::{PADKIT_DOMAIN, Signature, Source};
use tract_hir::internal::*;
use tract_onnx::model::{ParsingContext, optional_inputs};
use tract_onnx::pb::attribute_proto::AttributeType;
use tract_onnx::pb::{AttributeProto, ModelProto, NodeProto};

use crate::OnnxPad;

/// The `OpBuilder` for ONNX `Pad`, every opset, as [`padkit::onnx::signature`] states
/// each version:
///
/// - opset 1: `paddings` and `value` attributes;
/// - opsets 2–10: `pads` and `value` attributes;
/// - opset 11+: `pads`, optional `constant_value`, and (18+) optional `axes` inputs;
///   `mode="wrap"` from 19;
/// - padkit's own Pad ([`PADKIT_DOMAIN`]): symmetric mode too (interior padding is
///   refused: the tract op does not run it).
///
/// `padkit_tract::onnx()` registers it; to build a framework by hand:
///
/// ```
/// let mut onnx = tract_onnx::onnx();
/// onnx.op_register.insert("Pad", padkit_tract::pad_builder);
/// ```
///
/// # Errors
///
/// The errors of [`parse_pad_node`] at the model's opset of the node's domain, and an
/// error for interior padding.
pub fn pad_builder(
    ctx: &ParsingContext,
    node: &NodeProto,
) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    let pad = parse_pad_node(
        node,
        node_opset(ctx.model, node, ctx.onnx_operator_set_version),
    )?;
    if pad.interior.is_some() {
        bail!(
            "Pad node {:?} ({PADKIT_DOMAIN}): padkit-tract does not run interior padding \
             (padkit's core and padkit-burn do)",
            pad.node
        );
    }
    Ok((expand(pad), vec![]))
}

/// The model's opset of `node`'s domain: `onnx_opset` for ONNX's, the imported version of
/// any other (0 when the model does not import it).
///
/// ```
/// use tract_onnx::pb::{ModelProto, NodeProto, OperatorSetIdProto};
/// let model = ModelProto { opset_import: vec![OperatorSetIdProto { domain: "ai.padkit".into(), version: 1 }], ..Default::default() };
/// let node = NodeProto { domain: "ai.padkit".into(), ..Default::default() };
/// assert_eq!(padkit_tract::node_opset(&model, &node, 25), 1);
/// assert_eq!(padkit_tract::node_opset(&model, &NodeProto::default(), 25), 25);
/// ```
pub fn node_opset(model: &ModelProto, node: &NodeProto, onnx_opset: i64) -> i64 {
    if padkit::onnx::is_default_domain(&node.domain) {
        return onnx_opset;
    }
    model
        .opset_import
        .iter()
        .find(|o| o.domain == node.domain)
        .map_or(0, |o| o.version)
}

/// Reads a Pad node's attributes and optional inputs for `opset`, the model's opset of the
/// node's domain (see [`node_opset`]): ONNX's, or [`PADKIT_DOMAIN`] for padkit's own Pad
/// (symmetric mode and interior padding).
///
/// `value_input` and `axes_input` index the node's non-empty inputs, as tract wires them.
///
/// # Errors
///
/// Each error names the node:
/// - the `mode` attribute is not a string, not UTF-8, not a mode of the node's Pad
///   (ONNX's: no symmetric, `wrap` from opset 19), or the `interior` attribute is not a
///   list of ints;
/// - the model imports padkit's domain at a version other than 1;
/// - below opset 11, the `paddings` (opset 1) or `pads` attribute is missing or not a
///   list of ints, or the `value` attribute is not a float;
/// - the node has more inputs than its Pad version takes (an `axes` input before opset
///   18, any input but the data before opset 11).
///
/// ```
/// use tract_onnx::pb::NodeProto;
/// let node = NodeProto { name: "p".into(), op_type: "Pad".into(), input: vec!["x".into(), "pads".into(), "".into(), "axes".into()], ..Default::default() };
/// let pad = padkit_tract::parse_pad_node(&node, 18).unwrap();
/// assert_eq!((pad.value_input, pad.axes_input), (None, Some(2)));
/// assert!(padkit_tract::parse_pad_node(&node, 13).is_err()); // axes need opset 18
/// ```
pub fn parse_pad_node(node: &NodeProto, opset: i64) -> TractResult<OnnxPad> {
    let signature = padkit::onnx::node_signature(&node.domain, opset);
    let name = node.name.clone();
    let fail = |e: padkit::PadError| crate::node_error(&name, e);
    signature.check_inputs(node.input.len()).map_err(fail)?;
    let mode = parse_mode(node, &signature)?;
    // Operands read from inputs are wired by position among the non-empty inputs (the
    // input count, checked above, leaves none where the version has attributes).
    let mut optional = optional_inputs(node).skip(2);
    let value_input = optional.next().flatten();
    let axes_input = optional.next().flatten();
    let attr_pads = match signature.pads {
        Source::Attribute(attr) => Some(
            attribute(node, attr, AttributeType::Ints)?
                .map(|a| a.ints.clone())
                .with_context(|| {
                    format!("Pad node {name:?} (opset {opset}): attribute '{attr}' is missing")
                })?,
        ),
        Source::Input(_) => None,
    };
    let attr_value = match signature.value {
        Source::Attribute(attr) => {
            let value = attribute(node, attr, AttributeType::Float)?.map_or(0.0, |a| a.f);
            Some(value.to_bits())
        }
        Source::Input(_) => None,
    };
    let interior = match signature.interior {
        Some(Source::Attribute(attr)) => {
            attribute(node, attr, AttributeType::Ints)?.map(|a| a.ints.clone())
        }
        _ => None,
    };
    Ok(OnnxPad {
        node: name,
        opset: signature.types_of,
        mode,
        interior,
        value_input,
        axes_input,
        attr_pads,
        attr_value,
    })
}

/// The `mode` attribute, checked against the Pad version.
fn parse_mode(node: &NodeProto, signature: &Signature) -> TractResult<PadMode> {
    let text = match attribute(node, "mode", AttributeType::String)? {
        Some(a) => std::str::from_utf8(&a.s)
            .map_err(|_| format_err!("Pad node {:?}: attribute 'mode' is not UTF-8", node.name))?,
        None => "constant",
    };
    signature
        .parse_mode(text)
        .map_err(|e| crate::node_error(&node.name, e))
}

/// The attribute `name` of `node`, which must have type `ty` when present.
fn attribute<'n>(
    node: &'n NodeProto,
    name: &str,
    ty: AttributeType,
) -> TractResult<Option<&'n AttributeProto>> {
    let Some(a) = node.attribute.iter().find(|a| a.name == name) else {
        return Ok(None);
    };
    if a.r#type != ty as i32 {
        let found = AttributeType::try_from(a.r#type).map_or_else(
            |_| format!("of unknown type {}", a.r#type),
            |t| t.as_str_name().to_string(),
        );
        bail!(
            "Pad node {:?}: attribute '{name}' must be {}, it is {found}",
            node.name,
            ty.as_str_name()
        );
    }
    Ok(Some(a))
}
