//! Why a model was not lowered.

use padkit::PadError;
use padkit_onnx::pad_node::PadNodeError;
use padkit_onnx::pb::NodeProto;

/// Why a model was not lowered. Each variant's message is its own layer, its cause (where
/// it has one) the next of its [`source`](std::error::Error::source) chain: `{:#}` of an
/// `anyhow::Error` holding it prints them all, joined by `: `.
///
/// ```
/// use padkit_onnx::pb::ModelProto;
/// let err = padkit_lower::lower(&ModelProto::default()).unwrap_err();
/// assert!(matches!(err, padkit_lower::LowerError::Read(_)));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LowerError {
    /// The model is malformed: it fails a check padkit-lower makes of what it rewrites.
    #[error("{0}")]
    Model(String),
    /// padkit-onnx refused the model: it fails the checks ONNX Runtime makes when it loads
    /// a model, or holds a tensor padkit cannot read.
    #[error(transparent)]
    Read(#[from] padkit_onnx::Error),
    /// A Pad node's attributes or inputs are not those of its version.
    #[error(transparent)]
    PadNode(PadNodeError),
    /// A Pad that cannot run on its data (pads that do not fit, a crop past the axis, an
    /// operand of the wrong type…): the original model fails there too.
    #[error("{node}")]
    Pad {
        /// The node, as errors name it.
        node: String,
        /// Why it cannot run.
        #[source]
        source: PadError,
    },
    /// Lowering this Pad would bring the constants the lowering writes into the model
    /// (index maps, fill blocks, border positions, over all its Pads) above the budget
    /// ([`crate::Options::max_constant_bytes`]): the original may run, the lowered model would be
    /// too large.
    #[error(
        "{node}: lowering it would write more than {limit} bytes of constants into the \
         model (the budget of Options::max_constant_bytes, `padkit lower \
         --max-constant-bytes`)"
    )]
    Budget {
        /// The node, as errors name it.
        node: String,
        /// The budget, in bytes.
        limit: u64,
    },
    /// A Pad this version of padkit-lower does not rewrite, and why.
    #[error("{node}: {why}")]
    NotLowered {
        /// The node, as errors name it.
        node: String,
        /// Why it is not lowered.
        why: String,
    },
}

impl LowerError {
    /// `e`, raised on Pad node `node`.
    pub(crate) fn pad(node: &NodeProto, e: PadError) -> LowerError {
        LowerError::Pad {
            node: padkit_onnx::graph::describe(node),
            source: e,
        }
    }

    /// An error of padkit-onnx's reader of Pad nodes: a [`LowerError::Pad`] where the node
    /// breaks a rule of its Pad version, else [`LowerError::PadNode`].
    pub(crate) fn read(node: &NodeProto, e: PadNodeError) -> LowerError {
        match e {
            PadNodeError::Pad { source, .. } => LowerError::pad(node, source),
            e => LowerError::PadNode(e),
        }
    }
}
