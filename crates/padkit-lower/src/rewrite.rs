//! One Pad or CenterCropPad node lowered: read once ([`crate::read`]), its strategy picked
//! ([`crate::pick`]), then its nodes emitted by that strategy's module.

use padkit_onnx::pb::NodeProto;

use crate::LowerError;
use crate::pick::{self, Strategy};
use crate::read;
use crate::scope::Scope;
use crate::session::Session;
use crate::{borders, computed_map, known_map};

/// What a Pad node becomes.
pub(crate) enum Rewrite {
    /// The node as it is: the target runs it as padkit's core computes it.
    Kept,
    /// The nodes that compute what it computes.
    Lowered(Vec<NodeProto>),
}

/// What Pad or CenterCropPad node `node` (of opset `opset`) becomes, registering its
/// output's type and shape in `scope`.
pub(crate) fn rewrite(
    session: &mut Session<'_>,
    node: &NodeProto,
    opset: i64,
    scope: &mut Scope,
) -> Result<Rewrite, LowerError> {
    let pad = match node.op_type.as_str() {
        "CenterCropPad" => read::center_crop_pad(node, opset, scope)?,
        _ => read::pad(node, opset, scope)?,
    };
    let strategy = pick::strategy(&pad, session.opset, session.options)?;
    let refusal = pick::target_refusal(&pad, &strategy, session.options);
    let out = strategy.out(&pad.shape);
    let limit = session.options.max_output_bytes;
    let emitter = session.emitter(&pad.y);
    let rewrite = match strategy {
        Strategy::Keep(_) => Rewrite::Kept,
        Strategy::KnownMap { shape, axes, out } => {
            Rewrite::Lowered(known_map::emit(emitter, &pad, shape, &axes, &out)?)
        }
        Strategy::Borders { axes, .. } => Rewrite::Lowered(borders::emit(emitter, &pad, &axes)?),
        Strategy::ComputedMap(c) => Rewrite::Lowered(computed_map::emit(emitter, &pad, &c, limit)?),
    };
    if let Some(e) = refusal {
        session.refuse(e);
    }
    scope.types.insert(pad.y.clone(), (pad.dtype, out));
    Ok(rewrite)
}
