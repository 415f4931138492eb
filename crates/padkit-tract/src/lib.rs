//! # padkit-tract: the full ONNX Pad in tract
//!
//! Replaces tract-onnx's `Pad` builder with padkit's: every opset (1, 2, 11, 13, 18, 19,
//! 21, 23, 24, 25), every mode (constant, reflect, edge, wrap), negative pads, `axes`
//! (negative too), pads/value/axes as constants, folded symbolic expressions or true
//! runtime inputs, and every element type tract can hold (bool, ints, f16, f32, f64,
//! string). A zero-constant Pad feeding a Conv is lowered to tract-core's `Pad` so that
//! the Conv absorbs it; every other Pad runs padkit's kernel.
//!
//! It adds ONNX's `CenterCropPad` ([`CenterCropPad`]), which tract-onnx lacks, and, for
//! the models that need it, an `If` that analyses only the branch taken when the condition
//! is known while the model is analysed ([`register_if`], an explicit call). With the `pulse`
//! feature, models holding padkit's Pad stream with tract-pulse (`padkit_tract::pulse`);
//! [`nnef`] writes them as NNEF that stock tract reads wherever NNEF's `pad` can.
//!
//! ```no_run
//! use tract_onnx::prelude::*;
//! let model = padkit_tract::onnx() // the one line that changes
//!     .model_for_path("model.onnx")?
//!     .into_optimized()?
//!     .into_runnable()?;
//! # Ok::<(), TractError>(())
//! ```

mod branch;
mod center_crop_pad;
mod dim;
mod eval;
mod expansion;
pub mod gpu;
mod loader;
pub mod nnef;
mod op;
#[cfg(feature = "pulse")]
pub mod pulse;
mod shape;
mod tensor;
mod types;

/// `e` as an error of the Pad node `node`: the [`padkit::PadError`] stays in the error's
/// chain (for callers that grade its class), under a context naming the node.
fn node_error(node: &str, e: padkit::PadError) -> tract_hir::internal::TractError {
    tract_hir::internal::TractError::new(e).context(format!("Pad node {node:?}"))
}

pub use branch::{If, if_builder};
pub use center_crop_pad::{CenterCropPad, center_crop_pad_builder};
pub use dim::SymDim;
pub use eval::{limit_output_bytes, strict_onnx};
pub use loader::pad_builder;
pub use op::PadkitPad;
/// Where an operand of [`PadkitPad`] comes from (padkit's spelling for every loader).
pub use padkit::onnx::Given;
pub use tensor::{from_tract, to_tract};
pub use types::{datum_type, onnx_type};

use tract_onnx::model::OnnxOpRegister;

/// tract-onnx's framework with padkit's Pad (and ONNX's `CenterCropPad`) in its op
/// register, in place of tract-onnx's own (see [`register`]). Every other op is
/// tract-onnx's; [`register_if`] adds padkit's [`If`] where a model needs it.
///
/// ```
/// let onnx = padkit_tract::onnx();
/// assert!(onnx.op_register.0.contains_key("Pad"));
/// ```
pub fn onnx() -> tract_onnx::Onnx {
    let mut onnx = tract_onnx::onnx();
    register(&mut onnx.op_register);
    onnx
}

/// Puts padkit's Pad into an op register (replacing tract's own), for users who assemble
/// their own framework.
///
/// It adds ONNX's `CenterCropPad` (opset 18), which tract-onnx lacks, as a padkit Pad
/// ([`CenterCropPad`]). With the `pulse` feature it also registers padkit's pulsifier with
/// tract-pulse (`padkit_tract::pulse::register`), so that `PulsedModel::new` streams the
/// models it loads. tract-onnx's other ops, `If` among them, stay as they are.
///
/// ```
/// let mut onnx = tract_onnx::onnx();
/// padkit_tract::register(&mut onnx.op_register);
/// assert!(onnx.op_register.0.contains_key("Pad"));
/// assert!(onnx.op_register.0.contains_key("CenterCropPad"));
/// ```
pub fn register(register: &mut OnnxOpRegister) {
    register.insert("Pad", pad_builder);
    register.insert("CenterCropPad", center_crop_pad_builder);
    #[cfg(feature = "pulse")]
    pulse::register().expect("tract-pulse's pulsifier table is not poisoned");
}

/// Replaces tract-onnx's `If` in an op register with padkit's [`If`] (built by
/// [`if_builder`]), for models whose `If` has a branch that only makes sense for other
/// inputs (silero-vad's, say).
///
/// That `If` runs as tract-onnx's does, except that when its condition is known while the
/// model is analysed (a shape test, a frozen setting), only the branch taken is analysed
/// and typed (both arms of the typed `IfThenElse` are that branch, which tract's declutter
/// then inlines). tract-onnx's `If` analyses both branches whatever the condition, and so
/// fails on models whose other branch only makes sense for other input shapes. With the
/// condition unknown until run time, both branches are analysed and typed, as tract-onnx
/// does. The `padkit` CLI's tract engine registers it.
///
/// ```
/// let mut onnx = padkit_tract::onnx();
/// padkit_tract::register_if(&mut onnx.op_register);
/// ```
pub fn register_if(register: &mut OnnxOpRegister) {
    register.insert("If", if_builder);
}

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// `model`, a message of padkit-onnx's schema (the one padkit's tools and padkit-lower
/// write), as tract-onnx's own message, for `model_for_proto_model`:
/// the two share onnx's wire format, so the model is encoded once and decoded into
/// tract's types (fields tract's schema lacks are dropped, as tract drops them when it
/// reads a file).
///
/// ```
/// use padkit_onnx::pb::ModelProto;
/// let model = ModelProto { ir_version: 8, ..Default::default() };
/// assert_eq!(padkit_tract::tract_proto(&model).unwrap().ir_version, 8);
/// ```
///
/// # Errors
///
/// When tract's schema cannot decode what padkit-onnx's encodes (a field of the same
/// number with another type).
pub fn tract_proto(
    model: &padkit_onnx::pb::ModelProto,
) -> tract_hir::internal::TractResult<tract_onnx::pb::ModelProto> {
    use prost::Message;
    Ok(tract_onnx::pb::ModelProto::decode(
        model.encode_to_vec().as_slice(),
    )?)
}
