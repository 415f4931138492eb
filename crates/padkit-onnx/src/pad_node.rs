//! One ONNX Pad node read for the model's opset: where its pads, constant and axes come
//! from, its mode and its interior padding, in padkit's own types. The adapters that read
//! models (padkit-tract, padkit-lower, the CLI) read Pad nodes here, so that every one of
//! them reads a node alike.

use padkit::onnx::{Given, Signature, Source};
use padkit::{PadError, PadMode};

use crate::pb::attribute_proto::AttributeType;
use crate::pb::{AttributeProto, ModelProto, NodeProto};

/// A Pad node as its version defines it, before the values of its inputs are known.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PadNode {
    /// The node's name, for error messages.
    pub node: String,
    /// The opset whose element types the node takes: the model's opset of the default
    /// domain, or the newest Pad's for padkit's own domain.
    pub opset: i64,
    /// The padding mode.
    pub mode: PadMode,
    /// Interior padding (the `interior` attribute of padkit's own domain).
    pub interior: Option<Vec<i64>>,
    /// The pads: the `pads`/`paddings` attribute's (opsets 1–10), or fed by the node's
    /// input 1 (opset 11 on).
    pub pads: Given<Vec<i64>>,
    /// The constant: the bits of the f32 `value` attribute (opsets 1–10; 0.0 where
    /// absent), or fed by the `constant_value` input; `None`: no such input (zero).
    pub value: Option<Given<u32>>,
    /// The index of the `axes` input, which feeds the padded axes; `None`: all axes.
    pub axes_input: Option<usize>,
}

/// Why a Pad node cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PadNodeError {
    /// The node breaks a rule of its Pad version (inputs, mode, domain version): the rule
    /// is the error's source (`{:#}` prints both, as anyhow does).
    #[error("Pad node {node:?}")]
    Pad {
        /// The node's name.
        node: String,
        /// The rule it breaks.
        source: PadError,
    },
    /// An attribute has another type than its Pad version gives it.
    #[error("Pad node {node:?}: attribute '{name}' must be {expected}, it is {found}")]
    AttributeType {
        /// The node's name.
        node: String,
        /// The attribute's name.
        name: String,
        /// The type the version gives it.
        expected: &'static str,
        /// The type it has.
        found: String,
    },
    /// A required attribute is missing.
    #[error("Pad node {node:?} (opset {opset}): attribute '{name}' is missing")]
    MissingAttribute {
        /// The node's name.
        node: String,
        /// The model's opset of the node's domain.
        opset: i64,
        /// The attribute's name.
        name: &'static str,
    },
    /// The `mode` attribute is not UTF-8.
    #[error("Pad node {node:?}: attribute 'mode' is not UTF-8")]
    ModeNotUtf8 {
        /// The node's name.
        node: String,
    },
}

/// The model's opset of `node`'s domain: `onnx_opset` for ONNX's, the imported version of
/// any other (0 when the model does not import it).
///
/// ```
/// use padkit_onnx::pb::{ModelProto, NodeProto, OperatorSetIdProto};
/// let model = ModelProto {
///     opset_import: vec![OperatorSetIdProto { domain: "ai.padkit".into(), version: 1 }],
///     ..Default::default()
/// };
/// let node = NodeProto { domain: "ai.padkit".into(), ..Default::default() };
/// assert_eq!(padkit_onnx::pad_node::node_opset(&model, &node, 25), 1);
/// assert_eq!(padkit_onnx::pad_node::node_opset(&model, &NodeProto::default(), 25), 25);
/// ```
#[must_use]
pub fn node_opset(model: &ModelProto, node: &NodeProto, onnx_opset: i64) -> i64 {
    let imports = model
        .opset_import
        .iter()
        .map(|o| (o.domain.as_str(), o.version));
    domain_opset(imports, &node.domain, onnx_opset)
}

/// The opset of `domain` among a model's `imports` (domain, version): `onnx_opset` for
/// ONNX's, the imported version of any other (0 when not imported). [`node_opset`] over
/// any schema's opset imports.
///
/// ```
/// let imports = [("", 21), ("ai.padkit", 1)];
/// assert_eq!(padkit_onnx::pad_node::domain_opset(imports, "ai.padkit", 21), 1);
/// assert_eq!(padkit_onnx::pad_node::domain_opset(imports, "com.other", 21), 0);
/// ```
pub fn domain_opset<'a>(
    imports: impl IntoIterator<Item = (&'a str, i64)>,
    domain: &str,
    onnx_opset: i64,
) -> i64 {
    if padkit::onnx::is_default_domain(domain) {
        return onnx_opset;
    }
    imports
        .into_iter()
        .find(|(d, _)| *d == domain)
        .map_or(0, |(_, version)| version)
}

/// Reads a Pad node's attributes and optional inputs for `opset`, the model's opset of the
/// node's domain (see [`node_opset`]): ONNX's, or padkit's own Pad
/// ([`padkit::onnx::PADKIT_DOMAIN`]: symmetric mode and interior padding).
///
/// The inputs that feed an operand ([`Given::Fed`], `axes_input`) are indexed among the
/// node's non-empty inputs.
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
/// use padkit_onnx::pb::NodeProto;
/// use padkit_onnx::pad_node::read;
/// let node = NodeProto {
///     name: "p".into(),
///     op_type: "Pad".into(),
///     input: vec!["x".into(), "pads".into(), "".into(), "axes".into()],
///     ..Default::default()
/// };
/// let pad = read(&node, 18).unwrap();
/// assert_eq!((pad.value, pad.axes_input), (None, Some(2)));
/// assert!(read(&node, 13).is_err()); // axes need opset 18
/// ```
pub fn read(node: &NodeProto, opset: i64) -> Result<PadNode, PadNodeError> {
    let signature = padkit::onnx::node_signature(&node.domain, opset);
    let name = &node.name;
    let fail = |source| PadNodeError::Pad {
        node: name.clone(),
        source,
    };
    signature.check_inputs(node.input.len()).map_err(fail)?;
    let mode = read_mode(node, &signature)?;
    // Operands read from inputs are wired by position among the non-empty inputs (the
    // input count, checked above, leaves none where the version has attributes).
    let mut optional = optional_inputs(node).skip(2);
    let value_input = optional.next().flatten();
    let axes_input = optional.next().flatten();
    let pads = match signature.pads {
        Source::Attribute(attr) => Given::Known(
            attribute(node, attr, AttributeType::Ints)?
                .map(|a| a.ints.clone())
                .ok_or_else(|| PadNodeError::MissingAttribute {
                    node: name.clone(),
                    opset,
                    name: attr,
                })?,
        ),
        Source::Input(ix) => Given::Fed(ix),
    };
    let value = match signature.value {
        Source::Attribute(attr) => {
            let value = attribute(node, attr, AttributeType::Float)?.map_or(0.0, |a| a.f);
            Some(Given::Known(value.to_bits()))
        }
        Source::Input(_) => value_input.map(Given::Fed),
    };
    let interior = match signature.interior {
        Some(Source::Attribute(attr)) => {
            attribute(node, attr, AttributeType::Ints)?.map(|a| a.ints.clone())
        }
        _ => None,
    };
    Ok(PadNode {
        node: name.clone(),
        opset: signature.types_of,
        mode,
        interior,
        pads,
        value,
        axes_input,
    })
}

/// Each input's index among the node's non-empty inputs (`None` for an empty one), and
/// `None` past the last.
fn optional_inputs(node: &NodeProto) -> impl Iterator<Item = Option<usize>> + '_ {
    let mut given = 0;
    (0..).map(move |i| {
        node.input.get(i).filter(|s| !s.is_empty()).map(|_| {
            given += 1;
            given - 1
        })
    })
}

/// The `mode` attribute, checked against the Pad version.
fn read_mode(node: &NodeProto, signature: &Signature) -> Result<PadMode, PadNodeError> {
    let text = match attribute(node, "mode", AttributeType::String)? {
        Some(a) => std::str::from_utf8(&a.s).map_err(|_| PadNodeError::ModeNotUtf8 {
            node: node.name.clone(),
        })?,
        None => "constant",
    };
    signature
        .parse_mode(text)
        .map_err(|source| PadNodeError::Pad {
            node: node.name.clone(),
            source,
        })
}

/// The attribute `name` of `node`, which must have type `ty` when present.
fn attribute<'n>(
    node: &'n NodeProto,
    name: &str,
    ty: AttributeType,
) -> Result<Option<&'n AttributeProto>, PadNodeError> {
    let Some(a) = node.attribute.iter().find(|a| a.name == name) else {
        return Ok(None);
    };
    if a.r#type != ty as i32 {
        let found = AttributeType::try_from(a.r#type).map_or_else(
            |_| format!("of unknown type {}", a.r#type),
            |t| t.as_str_name().to_string(),
        );
        return Err(PadNodeError::AttributeType {
            node: node.name.clone(),
            name: name.to_string(),
            expected: ty.as_str_name(),
            found,
        });
    }
    Ok(Some(a))
}
