//! The model handed to burn-onnx: top-level Pad nodes moved to padkit's domain, Pads in
//! subgraphs left to burn-onnx when it can import them.

use onnx_ir::{AttributeProto, AttributeType, GraphProto, Message, ModelProto, NodeProto};

/// The domain the rewrite moves ONNX Pad nodes to; its opset is the model's default-domain
/// opset, so the Pad version is kept. Distinct from padkit's own Pad domain
/// ([`padkit::onnx::PADKIT_DOMAIN`]), whose nodes have another signature.
pub const PAD_DOMAIN: &str = "ai.padkit.onnx";

/// The string attribute that keeps a moved Pad's name as the model gives it: burn-onnx
/// renames the nodes it imports (`custom1`, …), and build errors and the generated code
/// name the model's own node.
pub const NAME_ATTRIBUTE: &str = "padkit_node_name";

/// Rewrites a serialized model for burn-onnx: every Pad node of the main graph moves to
/// [`PAD_DOMAIN`], its name kept in [`NAME_ATTRIBUTE`]. Pads inside subgraphs stay burn-onnx's, unless burn-onnx cannot import
/// them (mode wrap, negative pads given as attributes), which is an error naming the node.
///
/// # Errors
///
/// A message saying why, when `bytes` is not an ONNX model, when the model imports no
/// opset of the default ONNX domain or has no graph, when a Pad inside a subgraph uses
/// mode wrap or negative pads (naming the node and where it is), or when the rewritten
/// model cannot be serialized.
///
/// ```
/// // not a model: a clear error, not a panic
/// assert!(padkit_burn_onnx::rewrite_model(b"not a model").is_err());
/// ```
pub fn rewrite_model(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut model =
        ModelProto::parse_from_bytes(bytes).map_err(|e| format!("not an ONNX model ({e})"))?;
    let Some(default) = model
        .opset_import
        .iter()
        .find(|o| padkit::onnx::is_default_domain(&o.domain))
        .cloned()
    else {
        return Err("the model imports no opset of the default ONNX domain".into());
    };
    let graph = model.graph.as_mut().ok_or("the model has no graph")?;
    for node in graph.node.iter_mut() {
        if is_pad(node) {
            node.domain = PAD_DOMAIN.into();
            let mut name = AttributeProto::new();
            name.name = NAME_ATTRIBUTE.into();
            name.type_ = AttributeType::STRING.into();
            name.s = node.name.clone().into_bytes().into();
            node.attribute.push(name);
        }
        check_subgraphs_of(node, "")?;
    }
    if !model.opset_import.iter().any(|o| o.domain == PAD_DOMAIN) {
        let mut padkit = default;
        padkit.domain = PAD_DOMAIN.into();
        model.opset_import.push(padkit);
    }
    model
        .write_to_bytes()
        .map_err(|e| format!("cannot serialize the rewritten model ({e})"))
}

fn is_pad(node: &NodeProto) -> bool {
    node.op_type == "Pad" && padkit::onnx::is_default_domain(&node.domain)
}

fn describe(node: &NodeProto) -> String {
    format!("{} node {:?}", node.op_type, node.name)
}

/// Refuses the Pads of a subgraph that burn-onnx's own Pad cannot import.
fn check_subgraph(graph: &GraphProto, place: &str) -> Result<(), String> {
    for node in &graph.node {
        if is_pad(node) {
            let refuse = |why: &str| {
                Err(format!(
                    "Pad node {:?} in {place} {why}: burn-onnx's hooks do not reach subgraphs, so \
                     padkit cannot import it there, and burn-onnx's own Pad refuses it",
                    node.name
                ))
            };
            for a in &node.attribute {
                if a.name == "mode" && a.s == "wrap" {
                    return refuse("uses mode wrap");
                }
                if (a.name == "pads" || a.name == "paddings") && a.ints.iter().any(|&p| p < 0) {
                    return refuse("has negative pads");
                }
            }
        }
        check_subgraphs_of(node, &format!(" in {place}"))?;
    }
    Ok(())
}

/// [`check_subgraph`] on each graph `node`'s attributes hold; `within` says where `node`
/// is (empty at the top level).
fn check_subgraphs_of(node: &NodeProto, within: &str) -> Result<(), String> {
    for a in &node.attribute {
        for sub in a.g.as_ref().into_iter().chain(&a.graphs) {
            check_subgraph(
                sub,
                &format!("attribute '{}' of {}{within}", a.name, describe(node)),
            )?;
        }
    }
    Ok(())
}
