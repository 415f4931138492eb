//! # padkit-lower: a model's Pads as standard ONNX ops
//!
//! Rewrites the Pads of an ONNX model (ONNX's, every version from opset 1, padkit's own
//! `ai.padkit` Pad with symmetric mode and interior padding, and ONNX's `CenterCropPad`)
//! into ops that runtimes without a complete Pad already run ([`PORTABLE_OPS`]), computing
//! exactly what padkit's core computes, at the model's own opset. Everything else of the
//! model (other nodes, names, inputs, outputs, functions, training graphs, metadata) is
//! left as it is. What a lowering writes is bounded ([`Options`]).
//!
//! Which Pads are rewritten is the target's call ([`Target`], [`Options::with_target`]):
//! for [`Target::Portable`], the default, every Pad; for a runtime (ONNX Runtime, stock
//! tract, candle-onnx, tract's GPU runtimes), only the Pads its own `Pad` does not compute
//! as padkit's core does, the others kept as they are (each target's rule is read from
//! that runtime's source and checked case by case against its graded report). The output
//! is a function of the model and the options alone.
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
//! use padkit_onnx::pb::ModelProto;
//! use prost::Message;
//! // a Pad-19 in wrap mode over a 2×3 input
//! let model = ModelProto::decode(&*std::fs::read("tests/data/wrap19.onnx").unwrap()).unwrap();
//! let lowered = padkit_lower::lower(&model).unwrap();
//! let ops: Vec<&str> = lowered.graph.as_ref().unwrap().node.iter().map(|n| n.op_type.as_str()).collect();
//! assert!(ops.iter().all(|op| padkit_lower::PORTABLE_OPS.contains(op)));
//! assert!(!ops.contains(&"Pad"));
//! ```

// A lowering's order: `graph` walks the model's graphs, knowing values through `scope`
// (and `fold`); each Pad is `read` once, its strategy picked (`pick`: kept for the
// target, or one of `known_map`, `borders`, `computed_map`), and emitted by that
// strategy's module through `emit`; `widen` casts around the types the ops do not take;
// `session` carries what the lowering writes from Pad to Pad.
mod arith;
mod borders;
mod computed_map;
mod emit;
mod error;
mod fold;
mod graph;
mod known_map;
mod options;
mod pick;
mod read;
mod rewrite;
mod scope;
mod session;
mod target;
mod widen;

pub use computed_map::RUN_TIME_OPS;
pub use emit::MAX_BLOCK_BYTES;
pub use error::LowerError;
pub use options::{DEFAULT_MAX_CONSTANT_BYTES, DEFAULT_MAX_OUTPUT_BYTES, Options};
pub use target::{Target, UnknownTarget};

use padkit_onnx::pb::ModelProto;

/// The longest index map a lowering writes into a model (as int64: 128 MiB).
pub const MAX_MAP_LEN: usize = 1 << 24;

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
/// [`LowerError::Read`] and [`LowerError::Model`] for a malformed model,
/// [`LowerError::PadNode`] for a Pad node whose attributes or inputs are not its
/// version's, [`LowerError::Pad`] for a Pad that cannot
/// run on its data (its output above the limit included), [`LowerError::Budget`] where the
/// constants the lowering writes would pass their budget, [`LowerError::NotLowered`] for
/// a Pad this version does not rewrite (a Pad in a model-local function's body or in a
/// training graph among them).
pub fn lower_with(model: &ModelProto, options: &Options) -> Result<ModelProto, LowerError> {
    padkit_onnx::graph::check_model(model)?;
    graph::refuse_unreached(model)?;
    let mut lowered = model.clone();
    let mut graph = lowered.graph.take().unwrap_or_default();
    let mut walk = graph::Walk::new(model, options);
    walk.graph(&mut graph, &scope::Scope::default())?;
    if let Some(e) = walk.refusal() {
        return Err(e);
    }
    lowered.graph = Some(graph);
    drop_unused_padkit_import(&mut lowered);
    Ok(lowered)
}

/// Drops `model`'s import of padkit's own domain where no node uses it any more (its Pads
/// lowered): a runtime that does not know the domain refuses a model importing it
/// (tinygrad 0.14: "'ai.padkit' is not a valid Domain").
fn drop_unused_padkit_import(model: &mut ModelProto) {
    use padkit::onnx::PADKIT_DOMAIN;
    use padkit_onnx::pb::GraphProto;
    fn uses(g: &GraphProto) -> bool {
        g.node.iter().any(|n| {
            n.domain == PADKIT_DOMAIN
                || (n.attribute.iter()).any(|a| a.g.iter().chain(&a.graphs).any(uses))
        })
    }
    let in_functions = (model.functions.iter()).any(|f| {
        f.node.iter().any(|n| n.domain == PADKIT_DOMAIN)
            || f.opset_import.iter().any(|o| o.domain == PADKIT_DOMAIN)
    });
    if !in_functions && !model.graph.as_ref().is_some_and(uses) {
        model.opset_import.retain(|o| o.domain != PADKIT_DOMAIN);
    }
}

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
