//! # padkit-lower: a model's Pads as standard ONNX ops
//!
//! Rewrites every Pad of an ONNX model (ONNX's, every version from opset 1, padkit's own
//! `ai.padkit` Pad with symmetric mode and interior padding, and ONNX's `CenterCropPad`)
//! into ops that runtimes without a complete Pad already run ([`PORTABLE_OPS`]), computing
//! exactly what padkit's core computes, at the model's own opset. Everything else of the
//! model (other nodes, names, inputs, outputs, functions, training graphs, metadata) is
//! left as it is. What a lowering writes is bounded ([`Options`]).
//!
//! Pads whose pads and axes are known when the model is read (attributes, initializers,
//! Constant nodes, or small integer tensors computed from them, as PyTorch's `F.pad`
//! export computes its pads), in the main graph and in `If`, `Loop` and `Scan` bodies,
//! where the data's shape is known when the model is read, become, per padded axis:
//! - constant mode: a `Slice` of the data where it is cropped, joined by `Concat` between
//!   fill blocks (`ConstantOfShape`, or a constant of the block where the opset's
//!   `ConstantOfShape` does not take the element type);
//! - reflect, edge, wrap, symmetric: the data joined with its two borders, each a `Slice`
//!   where it is one run of positions, else a `Gather` of its few positions (one pass over
//!   the data); one `Gather` with the axis' index map as a constant where the map has no
//!   long center, and for interior padding (over the data joined to one plane of fill).
//!   An index map holds one entry per output position of its axis, never one per output
//!   element.
//!
//! Where extents are known only at run time (from opset 11), Pads that pad (no crop, no
//! interior padding) become the data joined with borders: `ConstantOfShape` of the data's
//! `Shape` with the border's width, or a `Gather` of positions counted from either end.
//!
//! Where pads or axes are computed at run time (from opset 11), each padded axis' index map
//! is computed in the graph ([`RUN_TIME_OPS`]: `Range` and int64 arithmetic) and read by
//! one `Gather`; what the original refuses fails there too, with the runtime's error.
//!
//! ONNX's `CenterCropPad` is lowered as the constant-mode pad it is, where its target is a
//! constant and the extents it sets are known. Other Pads (interior padding by run-time
//! pads, crops of data whose shape is known only at run time) are refused with an error
//! naming the node and the reason ([`LowerError::NotLowered`]).
//!
//! ```
//! use padkit::{PadMode, Tensor};
//! use padkit_onnx::model::{Feed, PadModel};
//! let x = Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
//! let model = PadModel::new(19, "wrap", x, vec![0, 1, 0, 1], Feed::Initializer).proto();
//! let lowered = padkit_lower::lower(&model).unwrap();
//! let ops: Vec<&str> = lowered.graph.as_ref().unwrap().node.iter().map(|n| n.op_type.as_str()).collect();
//! assert!(ops.iter().all(|op| padkit_lower::PORTABLE_OPS.contains(op)));
//! assert!(!ops.contains(&"Pad"));
//! ```

mod dynamic;
mod emit;
mod fold;
mod graph;
mod pad;
mod target;
mod widen;

pub use dynamic::RUN_TIME_OPS;
pub use emit::MAX_BLOCK_BYTES;
pub use pad::MAX_MAP_LEN;
pub use target::{Target, UnknownTarget};

/// The budget of constant bytes a lowering writes into a model unless
/// [`Options::max_constant_bytes`] says otherwise: 1 GiB, half of the 2 GiB that protobuf
/// allows a model held in one file.
pub const DEFAULT_MAX_CONSTANT_BYTES: u64 = 1 << 30;

use padkit::PadError;
use padkit_onnx::pad_node::PadNodeError;
use padkit_onnx::pb::{ModelProto, NodeProto};

/// The ops a lowered Pad is made of: ops that ONNX Runtime, stock tract-onnx 0.23.9 and
/// candle-onnx 0.11.1 all evaluate in the forms the lowering writes (`Slice` from opset 10
/// only: candle-onnx reads its inputs only; `Expand` and `Reshape` only for a fill fed at
/// run time, `Shape` only for extents known at run time only; `Cast` at opsets 6–8, of
/// integer constants held as doubles (before opset 6 they are initializers), and around
/// Pads of types `Slice`, `Concat` and `Gather` do not take, computed in a wider one).
pub const PORTABLE_OPS: [&str; 10] = [
    "Cast",
    "Concat",
    "Constant",
    "ConstantOfShape",
    "Expand",
    "Gather",
    "Identity",
    "Reshape",
    "Shape",
    "Slice",
];

/// Why a model was not lowered.
#[derive(Debug, thiserror::Error)]
pub enum LowerError {
    /// The model is malformed: it fails the checks ONNX Runtime makes when it loads a
    /// model, or a Pad node's attributes are not those of its version.
    #[error("{0}")]
    Model(String),
    /// A Pad that cannot run on its data (pads that do not fit, a crop past the axis, an
    /// operand of the wrong type…): the original model fails there too.
    #[error("{node}: {source}")]
    Pad {
        /// The node, as errors name it.
        node: String,
        /// Why it cannot run.
        #[source]
        source: PadError,
    },
    /// Lowering this Pad would bring the constants the lowering writes into the model
    /// (index maps, fill blocks, border positions, over all its Pads) above the budget
    /// ([`Options::max_constant_bytes`]): the original may run, the lowered model would be
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
    fn pad(node: &NodeProto, e: PadError) -> LowerError {
        LowerError::Pad {
            node: padkit_onnx::graph::describe(node),
            source: e,
        }
    }

    /// The error of a malformed model, its causes joined (as anyhow's `{:#}` shows them).
    fn model(e: anyhow::Error) -> LowerError {
        LowerError::Model(format!("{e:#}"))
    }

    /// An error of padkit-onnx's reader of Pad nodes: a [`LowerError::Pad`] where the node
    /// breaks a rule of its Pad version, else the model is malformed.
    fn read(node: &NodeProto, e: PadNodeError) -> LowerError {
        match e {
            PadNodeError::Pad { source, .. } => LowerError::pad(node, source),
            e => LowerError::Model(format!("{:#}", anyhow::Error::from(e))),
        }
    }
}

/// How [`lower_with`] lowers.
///
/// ```
/// use padkit_lower::Target;
/// let options = padkit_lower::Options::default()
///     .with_max_output_bytes(1 << 30)
///     .with_max_constant_bytes(1 << 20)
///     .with_target(Target::OnnxRuntime);
/// assert_eq!(options.max_output_bytes, Some(1 << 30));
/// assert_eq!(options.max_constant_bytes, Some(1 << 20));
/// assert_eq!(options.target, Target::OnnxRuntime);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// Refuse Pads whose output would take more bytes than this (as padkit's engines
    /// refuse to run them), with [`PadError::TooLarge`]. Outputs above `isize::MAX`
    /// bytes, which no runtime can hold, are refused whatever the limit.
    pub max_output_bytes: Option<u64>,
    /// The most bytes of constants (index maps, fill blocks, border positions, slice
    /// bounds) a lowering writes into the model, over all its Pads:
    /// [`DEFAULT_MAX_CONSTANT_BYTES`] where `None`. Past it, [`LowerError::Budget`].
    /// Each constant is also bounded alone ([`MAX_MAP_LEN`], [`MAX_BLOCK_BYTES`]), so what
    /// a lowering holds in memory is the model, the constants it writes and one constant
    /// more.
    pub max_constant_bytes: Option<u64>,
    /// The runtime the lowered model is for: the Pads its own `Pad` computes as padkit's
    /// core does are left as they are ([`Target`]; every Pad is lowered for the default,
    /// [`Target::Portable`]).
    pub target: Target,
}

impl Options {
    /// These options with the budget of constant bytes `bytes`.
    pub fn with_max_constant_bytes(mut self, bytes: u64) -> Options {
        self.max_constant_bytes = Some(bytes);
        self
    }

    /// These options for runtime `target`.
    pub fn with_target(mut self, target: Target) -> Options {
        self.target = target;
        self
    }

    /// These options with the output limit `bytes`.
    pub fn with_max_output_bytes(mut self, bytes: u64) -> Options {
        self.max_output_bytes = Some(bytes);
        self
    }
}

/// `model` with every Pad rewritten into [`PORTABLE_OPS`], after the checks ONNX Runtime
/// makes when it loads a model ([`lower_with`] and default [`Options`]).
///
/// # Errors
///
/// As [`lower_with`].
pub fn lower(model: &ModelProto) -> Result<ModelProto, LowerError> {
    lower_with(model, &Options::default())
}

/// [`lower`], as `options` say.
///
/// # Errors
///
/// [`LowerError::Model`] for a malformed model, [`LowerError::Pad`] for a Pad that cannot
/// run on its data (its output above the limit included), [`LowerError::Budget`] where the
/// constants the lowering writes would pass their budget, [`LowerError::NotLowered`] for
/// a Pad this version does not rewrite (a Pad in a model-local function's body or in a
/// training graph among them).
pub fn lower_with(model: &ModelProto, options: &Options) -> Result<ModelProto, LowerError> {
    padkit_onnx::graph::check_model(model).map_err(LowerError::model)?;
    graph::refuse_unreached(model)?;
    let mut lowered = model.clone();
    let mut graph = lowered.graph.take().unwrap_or_default();
    let mut walk = graph::Walk::new(model, options);
    walk.graph(&mut graph, &graph::Scope::default())?;
    lowered.graph = Some(graph);
    Ok(lowered)
}

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
