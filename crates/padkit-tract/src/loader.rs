//! Reads an ONNX Pad node for the model's opset.

use padkit::onnx::PADKIT_DOMAIN;
use prost::Message;
use tract_hir::internal::*;
use tract_onnx::model::ParsingContext;
use tract_onnx::pb::{ModelProto, NodeProto};

use crate::expansion::OnnxPad;

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
/// Those of [`padkit_onnx::pad_node::read`] at the model's opset of the node's domain,
/// each naming the node, and an error for interior padding.
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
/// any other (0 when the model does not import it), as
/// [`padkit_onnx::pad_node::domain_opset`] reads it (tract's `ModelProto` is not
/// padkit-onnx's, whose `node_opset` this is).
fn node_opset(model: &ModelProto, node: &NodeProto, onnx_opset: i64) -> i64 {
    let imports = model
        .opset_import
        .iter()
        .map(|o| (o.domain.as_str(), o.version));
    padkit_onnx::pad_node::domain_opset(imports, &node.domain, onnx_opset)
}

/// Reads a Pad node's attributes and optional inputs for `opset`, the model's opset of the
/// node's domain (see [`node_opset`]), as [`padkit_onnx::pad_node::read`] reads every Pad
/// node: ONNX's, or [`PADKIT_DOMAIN`] for padkit's own Pad (symmetric mode and interior
/// padding).
///
/// The inputs that feed an operand index the node's non-empty inputs, as tract wires them.
/// The errors are those of [`padkit_onnx::pad_node::read`], each naming the node.
fn parse_pad_node(node: &NodeProto, opset: i64) -> TractResult<OnnxPad> {
    // tract's generated messages and padkit-onnx's share onnx's wire format.
    let node = padkit_onnx::pb::NodeProto::decode(node.encode_to_vec().as_slice())
        .with_context(|| format!("Pad node {:?} does not encode", node.name))?;
    // (a broken rule keeps its padkit::PadError in the error's chain, under the node)
    Ok(padkit_onnx::pad_node::read(&node, opset)?.into())
}

#[cfg(test)]
mod tests {
    use tract_onnx::pb::{ModelProto, NodeProto, OperatorSetIdProto};

    use super::{node_opset, parse_pad_node};

    #[test]
    fn a_node_takes_its_domains_opset() {
        let model = ModelProto {
            opset_import: vec![OperatorSetIdProto {
                domain: "ai.padkit".into(),
                version: 1,
            }],
            ..Default::default()
        };
        let node = NodeProto {
            domain: "ai.padkit".into(),
            ..Default::default()
        };
        assert_eq!(node_opset(&model, &node, 25), 1);
        assert_eq!(node_opset(&model, &NodeProto::default(), 25), 25);
    }

    #[test]
    fn operands_index_the_non_empty_inputs_and_axes_need_opset_18() {
        let node = NodeProto {
            name: "p".into(),
            op_type: "Pad".into(),
            input: vec!["x".into(), "pads".into(), "".into(), "axes".into()],
            ..Default::default()
        };
        let pad = parse_pad_node(&node, 18).unwrap();
        assert_eq!((&pad.value, pad.axes_input), (&None, Some(2)));
        assert!(parse_pad_node(&node, 13).is_err());
    }
}
