//! padkit's Pads as the core ops tract's GPU runtimes run on the device: an opt-in.
//!
//! tract-cuda and tract-metal 0.23.9 move to the device the nodes they have translators
//! for and leave every other node on the host, with a copy off the device and back around
//! it. Their translators are looked up in a table private to each crate, so no other crate
//! can add one: [`PadkitPad`] always runs on the host there. [`to_device_ops`] rewrites a
//! typed model's `PadkitPad` nodes into ops those runtimes translate ([`on_device`]):
//! crops as `Slice`s and constant padding as tract-core's `Pad` in constant mode (for
//! numbers; other types join constant blocks by a `TypedConcat`); reflect,
//! edge, wrap and symmetric as the data joined with its borders by a `TypedConcat` per
//! padded axis, each border the `Slice`s of its ascending runs of positions (one position
//! wide where they descend). Not applied by [`crate::onnx`]: on the CPU one `PadkitPad`
//! is one pass over the data, where the core ops make one per padded axis.
//!
//! ```
//! use tract_onnx::prelude::*;
//! # use padkit_onnx_tools::model::{Feed, PadModel};
//! # let x = padkit::Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
//! // `model`: an ONNX model (`padkit_onnx::pb::ModelProto`) whose Pad-19 pads in wrap mode
//! # let model = PadModel::new(19, "wrap", x, vec![0, 1, 0, 1], Feed::Initializer).proto();
//! let proto = padkit_tract::tract_proto(&model).unwrap();
//! let mut typed = padkit_tract::onnx()
//!     .model_for_proto_model(&proto)?
//!     .into_typed()?
//!     .into_decluttered()?;
//! assert_eq!(padkit_tract::gpu::to_device_ops(&mut typed)?, 1);
//! assert!(typed.nodes().iter().all(padkit_tract::gpu::on_device));
//! # Ok::<(), TractError>(())
//! ```

use padkit::axis_map::{SourceRun, axis_sources, source_runs};
use padkit::{PadMode, PadSpec};
use tract_core::ops::array::{
    Gather, MultiBroadcastTo, Pad as CorePad, PadMode as CoreMode, Slice, TypedConcat,
};
use tract_core::ops::cast::Cast;
use tract_core::ops::change_axes::AxisOp;
use tract_core::ops::konst::Const;
use tract_core::ops::source::TypedSource;
use tract_hir::internal::*;

use crate::op::PadkitPad;

/// The most `Slice`s one Pad becomes; a Pad needing more (wrap far wider than its axis)
/// stays a `PadkitPad`, on the host.
pub const MAX_SLICES: usize = 1024;

/// Whether tract's GPU runtimes (tract-cuda and tract-metal 0.23.9) translate `node` to
/// the device: sources and constants, `Slice`, `TypedConcat`, `MultiBroadcastTo`,
/// `AxisOp`, `Cast`, core `Pad` in constant mode, and `Gather` of f32 or f16 data (read
/// from tract-gpu's `gpu/src/ops/copy_based.rs` and tract-cuda's `cuda/src/transform.rs`,
/// 0.23.9; not run on a GPU).
pub fn on_device(node: &TypedNode) -> bool {
    let gathers_floats = || {
        node.op_is::<Gather>()
            && node
                .outputs
                .first()
                .is_some_and(|o| matches!(o.fact.datum_type, DatumType::F32 | DatumType::F16))
    };
    node.op_is::<TypedSource>()
        || node.op_is::<Const>()
        || node.op_is::<Slice>()
        || node.op_is::<TypedConcat>()
        || node.op_is::<MultiBroadcastTo>()
        || node.op_is::<AxisOp>()
        || node.op_is::<Cast>()
        || node
            .op_as::<CorePad>()
            .is_some_and(|p| matches!(p.mode, CoreMode::Constant(_)))
        || gathers_floats()
}

/// Rewrites every [`PadkitPad`] of `model` whose pads, axes and fill are known when the
/// model is typed, and whose data's extents are numbers, into ops [`on_device`] takes;
/// returns how many it rewrote. Pads read at run time, of symbolic extents, of strings, or
/// needing more than [`MAX_SLICES`] slices stay as they are.
///
/// # Errors
///
/// A Pad that padkit's core refuses on its data, and tract's errors on wiring the ops.
pub fn to_device_ops(model: &mut TypedModel) -> TractResult<usize> {
    let pads: Vec<usize> = model
        .nodes()
        .iter()
        .filter(|n| n.op_is::<PadkitPad>())
        .map(|n| n.id)
        .collect();
    let mut rewritten = 0;
    for id in pads {
        if let Some(patch) = device_ops(model, model.node(id))? {
            patch.apply(model)?;
            rewritten += 1;
        }
    }
    model.compact()?;
    Ok(rewritten)
}

/// The patch replacing Pad `node` by device ops, where it is one [`to_device_ops`] takes.
fn device_ops(model: &TypedModel, node: &TypedNode) -> TractResult<Option<TypedModelPatch>> {
    let op = node.op_as::<PadkitPad>().context("a PadkitPad")?;
    rule_if!(node.inputs.len() == 1);
    rule_if_some!(pairs = op.known_pairs());
    let fact = model.outlet_fact(node.inputs[0])?;
    rule_if_some!(shape = fact.shape.as_concrete());
    // strings live on the host
    rule_if!(fact.datum_type != DatumType::String);
    rule_if_some!(value = op.known_value(fact.datum_type)?);
    let ints: Option<Vec<(i64, i64)>> = pairs
        .iter()
        .map(|(b, e)| Some((b.to_i64().ok()?, e.to_i64().ok()?)))
        .collect();
    rule_if_some!(ints = ints);
    let (begins, ends): (Vec<i64>, Vec<i64>) = ints.into_iter().unzip();
    let spec = PadSpec::new([begins, ends].concat())
        .with_mode(op.mode)
        .with_strict_onnx(op.strict_onnx);
    // (a Pad the op refuses, strict ONNX semantics' among them, stays the op that says so)
    rule_if!(padkit::output_shape(shape, &spec).is_ok());
    let axis_pads = spec.resolve(shape.len())?;
    let mut patch = TypedModelPatch::new(format!("{} as device ops", node.name));
    let mut wire = patch.tap_model(model, node.inputs[0])?;
    let name = |what: &str| format!("{}.{what}", node.name);
    let mut now = shape.to_vec();
    let mut slices = 0;
    if op.mode == PadMode::Constant {
        for (axis, p) in axis_pads.iter().enumerate() {
            if p.begin < 0 || p.end < 0 {
                let start = usize::try_from(-p.begin.min(0))?;
                let end = now[axis]
                    .checked_sub(usize::try_from(-p.end.min(0))?)
                    .context("a crop past the axis")?;
                if start > end {
                    bail!("a crop past axis {axis}");
                }
                let crop = Slice::new(axis, start, end);
                wire = patch.wire_node(name(&format!("crop{axis}")), crop, &[wire])?[0];
                now[axis] = end - start;
            }
        }
        let pads: Vec<(usize, usize)> = axis_pads
            .iter()
            .map(|p| {
                Ok((
                    usize::try_from(p.begin.max(0))?,
                    usize::try_from(p.end.max(0))?,
                ))
            })
            .collect::<TractResult<_>>()?;
        if fact.datum_type.is_number() {
            if pads.iter().any(|&(b, e)| b + e > 0) {
                let pad = CorePad::new(pads, CoreMode::Constant(value));
                wire = patch.wire_node(name("pad"), pad, &[wire])?[0];
            }
        } else {
            // tract-core's Pad fills numbers only: other types join constant blocks
            let value = (*value).clone().into_shape(&[])?;
            for (axis, (b, e)) in pads.into_iter().enumerate() {
                if b + e == 0 {
                    continue;
                }
                let mut parts = tvec![];
                for (side, width) in [("before", b), ("after", e)] {
                    let mut block = now.clone();
                    block[axis] = width;
                    let fill = value.broadcast_scalar_to_shape(&block)?;
                    parts.push(patch.add_const(name(&format!("axis{axis}.{side}")), fill)?);
                }
                parts.insert(1, wire);
                let concat = TypedConcat::new(axis);
                wire = patch.wire_node(name(&format!("axis{axis}")), concat, &parts)?[0];
                now[axis] += b + e;
            }
        }
    } else {
        for (axis, p) in axis_pads.iter().enumerate() {
            if p.is_identity() {
                continue;
            }
            let sources = axis_sources(axis, now[axis], p, op.mode)?;
            // (every output position reads one: modes other than constant)
            let runs = source_runs(sources.iter().flatten().copied(), false);
            slices += runs.len();
            rule_if!(slices <= MAX_SLICES);
            let mut parts = tvec![];
            for (k, SourceRun { start, len, .. }) in runs.iter().copied().enumerate() {
                parts.push(if start == 0 && len == now[axis] {
                    wire
                } else {
                    let slice = Slice::new(axis, start, start + len);
                    patch.wire_node(name(&format!("axis{axis}.run{k}")), slice, &[wire])?[0]
                });
            }
            wire = match parts.len() {
                0 => patch.wire_node(
                    name(&format!("axis{axis}")),
                    Slice::new(axis, 0, 0),
                    &[wire],
                )?[0],
                1 => parts[0],
                _ => {
                    patch.wire_node(name(&format!("axis{axis}")), TypedConcat::new(axis), &parts)?
                        [0]
                }
            };
            now[axis] = sources.len();
        }
    }
    patch.shunt_outside(model, node.id.into(), wire)?;
    Ok(Some(patch))
}
