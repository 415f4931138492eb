//! One Pad node as standard ops, when its operands are constants and its data's shape is
//! declared: per padded axis, a `Slice` and a `Concat` with fill blocks (constant mode),
//! or a `Gather` with the axis' index map as a constant (the other modes, and interior
//! padding over the data joined to one plane of fill).

use padkit::axis_map::axis_sources;
use padkit::onnx::Operand;
use padkit::spec::AxisPad;
use padkit::{DType, Data, PadMode, PadSpec, Tensor};
use padkit_onnx::pb::NodeProto;

use crate::dynamic;
use crate::emit::{Emitter, Fill, Run};
use crate::graph::{Scope, Walk, operand};
use crate::target::{Borders, KnownPad, MAX_BORDER_SLICES};
use crate::{LowerError, Target};
use padkit_onnx::graph::describe;

/// The longest index map a lowering writes into a model (as int64: 128 MiB).
pub const MAX_MAP_LEN: usize = 1 << 24;

/// What a Pad node becomes.
pub(crate) enum Rewrite {
    /// The node as it is: the walk's target runs it as padkit's core computes it.
    Kept,
    /// The nodes that compute what it computes.
    Lowered(Vec<NodeProto>),
}

/// What Pad node `node` becomes, registering its output's type and shape in `scope`.
pub(crate) fn lower_pad(
    walk: &mut Walk<'_>,
    node: &NodeProto,
    scope: &mut Scope,
) -> Result<Rewrite, LowerError> {
    let opset = padkit_onnx::pad_node::node_opset(walk.model, node, walk.opset);
    let pad = padkit_onnx::pad_node::read(node, opset).map_err(|e| LowerError::read(node, e))?;
    let given: Vec<&str> = node
        .input
        .iter()
        .filter(|i| !i.is_empty())
        .map(String::as_str)
        .collect();
    let (Some(&x), Some(y)) = (given.first(), node.output.first()) else {
        return Err(LowerError::Model(format!(
            "{} has no data input or no output",
            describe(node)
        )));
    };
    let (dtype, shape) = scope
        .type_of(x)
        .cloned()
        .ok_or_else(|| LowerError::NotLowered {
            node: describe(node),
            why: format!(
                "the shape of its data {x:?} is not known when the model is read (a graph \
             input, value_info or initializer with static dims); padkit-lower lowers such \
             Pads only"
            ),
        })?;
    padkit::onnx::check_type(dtype, pad.opset).map_err(|e| LowerError::pad(node, e))?;
    let input = |ix: usize| {
        given
            .get(ix)
            .copied()
            .ok_or_else(|| LowerError::Model(format!("{} lacks input {ix}", describe(node))))
    };
    let axes_name = pad.axes_input.map(input).transpose()?;
    // axes fed at run time: their declared type checked here, their values by the graph
    let run_time_axes = axes_name.filter(|name| scope.constant(name).is_none());
    if let Some(name) = run_time_axes
        && let Some((vt, _)) = scope.type_of(name)
    {
        Operand::Axes
            .check_type(*vt, dtype)
            .map_err(|e| LowerError::pad(node, e))?;
    }
    let axes = match (axes_name, run_time_axes) {
        (Some(name), None) => Some(ints(operand(scope, node, Operand::Axes, name, dtype)?)),
        _ => None,
    };
    let known = |t: padkit::Result<Tensor>| t.map(Fill::Known);
    let fill = match (pad.attr_value, pad.value_input) {
        (Some(bits), _) => known(
            padkit::onnx::attribute_value(f32::from_bits(bits), dtype)
                .and_then(|v| Tensor::new(dtype, vec![1], v.data().clone())),
        ),
        (None, Some(ix)) if scope.constant(input(ix)?).is_none() => {
            // fed at run time: its type and one element checked where declared, else by
            // the runtime (Reshape to one element, Concat of one type)
            let name = input(ix)?;
            if let Some((vt, shape)) = scope.type_of(name) {
                let operand = Operand::ConstantValue;
                operand
                    .check_type(*vt, dtype)
                    .map_err(|e| LowerError::pad(node, e))?;
                if let Some(shape) = shape.iter().copied().collect::<Option<Vec<usize>>>() {
                    operand
                        .check_shape(&shape)
                        .map_err(|e| LowerError::pad(node, e))?;
                }
            }
            Ok(Fill::Value {
                name: name.to_string(),
                dtype,
            })
        }
        (None, Some(ix)) => {
            let v = operand(scope, node, Operand::ConstantValue, input(ix)?, dtype)?;
            known(Tensor::new(dtype, vec![1], v.data().clone()))
        }
        (None, None) => known(zero(dtype)),
    }
    .map_err(|e| LowerError::pad(node, e))?;
    let pads = match &pad.attr_pads {
        Some(p) => p.clone(),
        None if scope.constant(input(1)?).is_none() || run_time_axes.is_some() => {
            // pads or axes known only at run time: index maps computed in the graph
            let name = input(1)?;
            if let Some((vt, shape)) = scope.type_of(name) {
                let operand = Operand::Pads;
                operand
                    .check_type(*vt, DType::Int64)
                    .map_err(|e| LowerError::pad(node, e))?;
                if let Some(shape) = shape.iter().copied().collect::<Option<Vec<usize>>>() {
                    operand
                        .check_shape(&shape)
                        .map_err(|e| LowerError::pad(node, e))?;
                }
            }
            let axes = match (run_time_axes, axes) {
                (Some(name), _) => dynamic::Axes::RunTime(name),
                (None, Some(axes)) => dynamic::Axes::Known(
                    padkit::spec::normalize_axes(&axes, shape.len())
                        .map_err(|e| LowerError::pad(node, e))?,
                ),
                (None, None) => dynamic::Axes::Known((0..shape.len()).collect()),
            };
            let run_time = dynamic::RunTimePad {
                x,
                dtype,
                shape: &shape,
                pads: dynamic::Pads::RunTime(name),
                interior: pad.interior.clone(),
                axes,
                mode: pad.mode,
                fill: &fill,
            };
            return dynamic::lower(walk, node, scope, y, run_time).map(Rewrite::Lowered);
        }
        None => ints(operand(scope, node, Operand::Pads, input(1)?, dtype)?),
    };
    let spec = PadSpec::new(pads)
        .with_axes(axes)
        .with_interior(pad.interior)
        .with_mode(pad.mode);
    if let Some(out) = kept(walk, node, scope, pad.opset, (dtype, &shape), &spec, &fill) {
        scope.types.insert(y.to_string(), (dtype, out));
        return Ok(Rewrite::Kept);
    }
    emit_pad(walk, node, scope, x, y, (dtype, shape), &spec, &fill).map(Rewrite::Lowered)
}

/// The output extents of Pad `node` (of opset `opset`, of data of element type and extents
/// `typed`, padded by `spec` with `fill`) where the walk's target keeps the node as it is
/// ([`crate::Target`]): only a Pad that padkit's core accepts on the extents known when
/// the model is read, within the output limit, so that every target refuses a bad Pad as
/// the portable lowering does (a Pad the portable lowering cannot write, an index map
/// above [`MAX_MAP_LEN`] say, a target may keep).
fn kept(
    walk: &Walk<'_>,
    node: &NodeProto,
    scope: &Scope,
    opset: i64,
    typed: (DType, &[Option<usize>]),
    spec: &PadSpec,
    fill: &Fill,
) -> Option<Vec<Option<usize>>> {
    let (dtype, shape) = typed;
    if walk.options.target == Target::Portable {
        return None;
    }
    let axes = spec.resolve(shape.len()).ok()?;
    // each known extent as the core computes it; an unknown one stays unknown
    let out = (shape.iter().zip(&axes).enumerate())
        .map(|(axis, (d, a))| match d {
            Some(d) => padkit::shape::axis_output(axis, d, a, spec.mode)
                .ok()
                .map(Some),
            None => Some(None),
        })
        .collect::<Option<Vec<Option<usize>>>>()?;
    if let Some(known) = out.iter().copied().collect::<Option<Vec<usize>>>() {
        check_size(&known, dtype, walk.options.max_output_bytes).ok()?;
    }
    let pad = KnownPad {
        onnx_pad: node.op_type == "Pad" && padkit::onnx::is_default_domain(&node.domain),
        opset,
        mode: spec.mode,
        dtype,
        shape: shape.to_vec(),
        axes,
        inputs: node.input.len(),
        fill_fed: matches!(fill, Fill::Value { .. }),
        value_input: (node.input.get(2))
            .filter(|name| !name.is_empty())
            .map(|name| scope.type_of(name).is_some_and(|(_, s)| s.is_empty())),
        value_attribute: node.attribute.iter().any(|a| a.name == "value"),
    };
    walk.options.target.keeps(&pad).then_some(out)
}

/// The nodes that pad `x` into `y` by `spec` with `fill` (one element of `x`'s type),
/// for node `node`, `x` being of element type and shape `typed`; registers `y`'s type.
#[allow(clippy::too_many_arguments)]
fn emit_pad(
    walk: &mut Walk<'_>,
    node: &NodeProto,
    scope: &mut Scope,
    x: &str,
    y: &str,
    typed: (DType, Vec<Option<usize>>),
    spec: &PadSpec,
    fill: &Fill,
) -> Result<Vec<NodeProto>, LowerError> {
    let (dtype, shape) = typed;
    if walk.opset < 1 {
        return Err(LowerError::NotLowered {
            node: describe(node),
            why: "the model imports no opset of the default ONNX domain, whose ops the \
                  lowering writes"
                .into(),
        });
    }
    let failed = |e| LowerError::pad(node, e);
    let axis_pads = spec.resolve(shape.len()).map_err(failed)?;
    // ONNX Runtime 1.32 gathers strings wrong along any axis but the last (one string per
    // block): before opset 10 every slice written here is a `Gather`, so Pads of strings
    // that slice or map such an axis are refused there rather than lowered wrong.
    if dtype == DType::String && walk.opset < 10 {
        let sliced = axis_pads.iter().enumerate().find(|(axis, p)| {
            axis + 1 < shape.len()
                && !p.is_identity()
                && (spec.mode != PadMode::Constant || p.begin < 0 || p.end < 0 || p.interior != 0)
        });
        if let Some((axis, _)) = sliced {
            return Err(LowerError::NotLowered {
                node: describe(node),
                why: format!(
                    "axis {axis}: before opset 10 its strings would be read by a Gather, which \
                     ONNX Runtime gets wrong along any axis but the last"
                ),
            });
        }
    }
    let Some(known) = shape.iter().copied().collect::<Option<Vec<usize>>>() else {
        return run_time_extents(
            walk,
            node,
            scope,
            x,
            y,
            (dtype, &shape),
            &axis_pads,
            spec.mode,
            fill,
        );
    };
    let out_shape = padkit::output_shape(&known, spec).map_err(failed)?;
    check_size(&out_shape, dtype, walk.options.max_output_bytes).map_err(failed)?;
    let mut emit = walk.emitter(y);
    let mut value = x.to_string();
    let mut now = known;
    for (axis, p) in axis_pads.iter().enumerate() {
        if p.is_identity() {
            continue;
        }
        let out_len = out_shape[axis];
        value = if spec.mode == PadMode::Constant && p.interior == 0 {
            constant_axis(&mut emit, &value, &now, axis, p, out_len, fill).map_err(failed)?
        } else {
            if out_len > MAX_MAP_LEN {
                return Err(LowerError::NotLowered {
                    node: describe(node),
                    why: format!(
                        "axis {axis}: its index map would hold {out_len} entries, above \
                         padkit-lower's limit of {MAX_MAP_LEN}"
                    ),
                });
            }
            let sources = axis_sources(axis, now[axis], p, spec.mode).map_err(failed)?;
            let mut plane = now.clone();
            plane[axis] = 1;
            let d = now[axis];
            mapped_axis(&mut emit, &value, d, axis, &sources, fill, Some(plane)).map_err(failed)?
        };
        now[axis] = out_len;
    }
    let now = now.into_iter().map(Some).collect();
    scope.types.insert(y.to_string(), (dtype, now));
    Ok(emit.finish(&value, y))
}

/// The nodes that compute what ONNX's `CenterCropPad` node `node` computes (opset 18:
/// inputs data and target `shape`, attribute `axes`), as a constant-mode pad with zero
/// fill: on each axis, the difference to the target is split with its smaller half before
/// ([`padkit::onnx::center_pads`]). The target must be a constant and the extents of the
/// axes it sets known when the model is read.
pub(crate) fn lower_center_crop_pad(
    walk: &mut Walk<'_>,
    node: &NodeProto,
    scope: &mut Scope,
) -> Result<Vec<NodeProto>, LowerError> {
    let refuse = |why: String| LowerError::NotLowered {
        node: describe(node),
        why,
    };
    let (Some(x), Some(target), Some(y)) =
        (node.input.first(), node.input.get(1), node.output.first())
    else {
        return Err(LowerError::Model(format!(
            "{} takes inputs data and shape and has one output",
            describe(node)
        )));
    };
    let (dtype, shape) = scope.type_of(x).cloned().ok_or_else(|| {
        refuse(format!(
            "the shape of its data {x:?} is not known when the model is read"
        ))
    })?;
    let targets = match scope.constant(target) {
        Some(t) if matches!(t.dtype(), DType::Int64 | DType::Int32) && t.shape().len() == 1 => {
            ints(t)
        }
        Some(t) => {
            return Err(LowerError::Model(format!(
                "{}: input 'shape' must be a 1-D int32 or int64 tensor, it is {} of shape {:?}",
                describe(node),
                t.dtype(),
                t.shape()
            )));
        }
        None => {
            return Err(refuse(format!(
                "its target shape {target:?} is computed at run time"
            )));
        }
    };
    let axes = node
        .attribute
        .iter()
        .find(|a| a.name == "axes")
        .map(|a| a.ints.clone())
        .unwrap_or_else(|| (0..shape.len() as i64).collect());
    if axes.len() != targets.len() {
        return Err(LowerError::Model(format!(
            "{}: shape has {} extents for {} axes",
            describe(node),
            targets.len(),
            axes.len()
        )));
    }
    let normalized =
        padkit::spec::normalize_axes(&axes, shape.len()).map_err(|e| LowerError::pad(node, e))?;
    let (mut begins, mut ends) = (vec![], vec![]);
    for (&axis, &t) in normalized.iter().zip(&targets) {
        let Some(d) = shape[axis] else {
            return Err(refuse(format!(
                "axis {axis}: its extent is known only at run time"
            )));
        };
        let diff = t.checked_sub(d as i64).filter(|_| t >= 0).ok_or_else(|| {
            LowerError::Model(format!(
                "{}: axis {axis}: target extent {t} is negative",
                describe(node)
            ))
        })?;
        let (b, e) = padkit::onnx::center_pads(diff);
        begins.push(b);
        ends.push(e);
    }
    begins.extend(ends);
    let spec = PadSpec::new(begins).with_axes(axes);
    let fill = Fill::Known(zero(dtype).map_err(|e| LowerError::pad(node, e))?);
    emit_pad(walk, node, scope, x, y, (dtype, shape), &spec, &fill)
}

/// A Pad of data whose shape is known only in part: every padded axis must be padded, not
/// cropped nor interior-padded, so that its output is the data joined with two borders
/// whatever its extent. Constant mode's fill blocks take their shape from the data's
/// (`Shape`, sliced and joined with the border's width); the other modes' borders are
/// `Gather`s of positions counted from either end (negative indices, from opset 11):
/// edge `[0, …]` and `[-1, …]`, wrap `[-b, …, -1]` and `[0, …, e-1]`, reflect
/// `[b, …, 1]` and `[-2, …, -e-1]`, symmetric `[b-1, …, 0]` and `[-1, …, -e]`. Those read
/// inside the axis while the pads are at most its extent (less one for reflect); wider,
/// the runtime's `Gather` fails on the position out of range, where padkit would give
/// numpy's answer.
#[allow(clippy::too_many_arguments)]
fn run_time_extents(
    walk: &mut Walk<'_>,
    node: &NodeProto,
    scope: &mut Scope,
    x: &str,
    y: &str,
    (dtype, shape): (DType, &[Option<usize>]),
    axis_pads: &[AxisPad],
    mode: PadMode,
    fill: &Fill,
) -> Result<Vec<NodeProto>, LowerError> {
    // Crops and interior padding of an axis whose extent is known only at run time (where
    // its exact index map is not made here): the maps computed at run time instead.
    let computed = axis_pads.iter().enumerate().any(|(axis, p)| {
        let mapped = shape[axis].is_some() && mode != PadMode::Constant;
        !p.is_identity() && !mapped && (p.begin < 0 || p.end < 0 || p.interior != 0)
    });
    if computed && walk.opset >= 11 {
        let begins = axis_pads.iter().map(|p| p.begin);
        let ends = axis_pads.iter().map(|p| p.end);
        let run_time = dynamic::RunTimePad {
            x,
            dtype,
            shape,
            pads: dynamic::Pads::Known(begins.chain(ends).collect()),
            interior: Some(axis_pads.iter().map(|p| p.interior).collect()),
            axes: dynamic::Axes::Known((0..shape.len()).collect()),
            mode,
            fill,
        };
        return dynamic::lower(walk, node, scope, y, run_time);
    }
    let refuse = |why: String| {
        Err(LowerError::NotLowered {
            node: describe(node),
            why,
        })
    };
    if walk.opset < 11 {
        return refuse(format!(
            "the shape of its data {x:?} is known only at run time, and before opset 11 \
             Gather counts no positions from the end"
        ));
    }
    // (the borders below are `Gather`s, which ONNX Runtime 1.32 gets wrong for strings
    // along any axis but the last)
    let gathered = axis_pads.iter().enumerate().find(|(axis, p)| {
        dtype == DType::String
            && mode != PadMode::Constant
            && axis + 1 < shape.len()
            && shape[*axis].is_none()
            && !p.is_identity()
    });
    if let Some((axis, _)) = gathered {
        return refuse(format!(
            "axis {axis}: its extent is known only at run time, and its borders of strings \
             would be read by a Gather, which ONNX Runtime gets wrong along any axis but the last"
        ));
    }
    let mut now = shape.to_vec();
    for (axis, p) in axis_pads.iter().enumerate() {
        if p.is_identity() {
            continue;
        }
        // An axis whose extent is known takes its exact index map (index modes; constant
        // mode pads alike whatever the extent); the others only pad.
        let mapped = now[axis].is_some() && mode != PadMode::Constant;
        if !mapped && (p.begin < 0 || p.end < 0 || p.interior != 0) {
            // (taken by the computed maps above, from opset 11, the first this path takes)
            return refuse(format!(
                "axis {axis}: crops and interior padding of data whose shape is known only \
                 at run time need opset 11"
            ));
        }
        let widest = p.begin.max(p.end);
        if mode != PadMode::Constant && widest > MAX_MAP_LEN as i64 {
            return refuse(format!(
                "axis {axis}: its border of {widest} positions is above padkit-lower's \
                 limit of {MAX_MAP_LEN}"
            ));
        }
        if let Some(d) = now[axis] {
            let out = padkit::shape::axis_output(axis, &d, p, mode)
                .map_err(|e| LowerError::pad(node, e))?;
            if mapped && out > MAX_MAP_LEN {
                return refuse(format!(
                    "axis {axis}: its index map would hold {out} entries, above \
                     padkit-lower's limit of {MAX_MAP_LEN}"
                ));
            }
            now[axis] = Some(out);
        }
    }
    let mut emit = walk.emitter(y);
    let mut value = x.to_string();
    let rank = shape.len();
    for (axis, p) in axis_pads.iter().enumerate() {
        if p.is_identity() {
            continue;
        }
        if let (Some(d), true) = (shape[axis], mode != PadMode::Constant) {
            let sources = axis_sources(axis, d, p, mode).map_err(|e| LowerError::pad(node, e))?;
            value = mapped_axis(&mut emit, &value, d, axis, &sources, fill, None)
                .map_err(|e| LowerError::pad(node, e))?;
            continue;
        }
        let (b, e) = (p.begin as usize, p.end as usize);
        let borders = match mode {
            PadMode::Constant => {
                let mut block =
                    |len: usize| (len > 0).then(|| emit.fill_like(&value, rank, axis, len, fill));
                (block(b), block(e))
            }
            _ => {
                let (before, after): (Vec<i64>, Vec<i64>) = match mode {
                    PadMode::Edge => (vec![0; b], vec![-1; e]),
                    PadMode::Wrap => ((-(b as i64)..0).collect(), (0..e as i64).collect()),
                    PadMode::Reflect => (
                        (1..=b as i64).rev().collect(),
                        (2..e as i64 + 2).map(|k| -k).collect(),
                    ),
                    _ => (
                        (0..b as i64).rev().collect(),
                        (1..=e as i64).map(|k| -k).collect(),
                    ),
                };
                let mut border = |positions: Vec<i64>| {
                    (!positions.is_empty()).then(|| emit.gather(&value, axis, &positions))
                };
                (border(before), border(after))
            }
        };
        let mut parts: Vec<String> = borders.0.into_iter().collect();
        parts.push(value.clone());
        parts.extend(borders.1);
        value = emit.concat(parts, axis);
    }
    scope.types.insert(y.to_string(), (fill.dtype(), now));
    Ok(emit.finish(&value, y))
}

/// Constant padding (and cropping) of `axis` of `x` (shape `shape`) to `out_len`: the
/// data's part of the axis sliced out where cropped, joined between blocks of fill.
fn constant_axis(
    emit: &mut Emitter<'_>,
    x: &str,
    shape: &[usize],
    axis: usize,
    p: &AxisPad,
    out_len: usize,
    fill: &Fill,
) -> padkit::Result<String> {
    // Output i reads x[i - begin] where that is inside the axis: the data lands on
    // [first, last) of the output, checked by `output_shape` to fit in i64.
    let d = shape[axis] as i64;
    let first = p.begin.clamp(0, out_len as i64);
    let last = p.begin.saturating_add(d).clamp(first, out_len as i64);
    let block = |len: usize| {
        let mut s = shape.to_vec();
        s[axis] = len;
        s
    };
    if first == last {
        return emit.fill_block(fill, &block(out_len));
    }
    let (src_start, src_end) = ((first - p.begin) as usize, (last - p.begin) as usize);
    let mut data = x.to_string();
    if (src_start, src_end) != (0, shape[axis]) {
        // below opset 10 a slice is a Gather of its positions: bounded as index maps are
        if emit.opset() < 10 && src_end - src_start > MAX_MAP_LEN {
            return Err(padkit::PadError::TooLarge {
                shape: block(src_end - src_start),
                bytes: 8 * (src_end - src_start) as u128,
                limit: 8 * MAX_MAP_LEN as u128,
            });
        }
        data = emit.slice(x, axis, src_start, src_end);
    }
    let (before, after) = (first as usize, out_len - last as usize);
    let mut parts = vec![];
    if before > 0 {
        parts.push(emit.fill_block(fill, &block(before))?);
    }
    parts.push(data);
    if after > 0 {
        parts.push(emit.fill_block(fill, &block(after))?);
    }
    Ok(match parts.len() {
        1 => parts.remove(0),
        _ => emit.concat(parts, axis),
    })
}

/// `axis` of `x` read through the index map `sources` (`None`: the fill value). The map's
/// longest ascending run is its center, read as the data itself where it is the whole
/// axis (else a `Slice`), joined with its borders: a `Slice` each where a border is one
/// ascending run, else a `Gather` of the border's few positions or `Slice`s of its runs,
/// as the target reads borders ([`Borders`]). So a
/// pad moves the data once, as a `Concat`. Interior padding first joins the data to one plane of fill, which the map
/// reads for its fill positions.
fn mapped_axis(
    emit: &mut Emitter<'_>,
    x: &str,
    d: usize,
    axis: usize,
    sources: &[Option<usize>],
    fill: &Fill,
    plane: Option<Vec<usize>>,
) -> padkit::Result<String> {
    let mut data = x.to_string();
    if sources.iter().any(Option::is_none) {
        // the shape of one plane of fill across `axis`, known for interior padding
        let plane = plane.expect("interior padding, lowered where the shape is known");
        let plane = emit.fill_block(fill, &plane)?;
        data = emit.concat(vec![data, plane], axis);
    }
    let extent = if data == x { d } else { d + 1 };
    let indices: Vec<usize> = sources.iter().map(|s| s.unwrap_or(d)).collect();
    // ONNX Runtime implements Concat from opset 4 only: before, the map is one Gather.
    // It gathers strings along any axis but the last wrong (1.32: one string per block),
    // so strings take slices of every run instead.
    let strings = fill.dtype() == DType::String;
    let borders = emit.borders();
    if emit.opset() < 4 && !strings && borders != Borders::AscendingSlices {
        let indices: Vec<i64> = indices.iter().map(|&i| i as i64).collect();
        return Ok(emit.gather(&data, axis, &indices));
    }
    let down = emit.opset() >= 10 && borders != Borders::AscendingSlices;
    // the center among the ascending runs only: a border reading down into the center's
    // first element must not take it away from the center
    let all = runs(&indices, false);
    let Some(center) = (0..all.len()).max_by_key(|&k| all[k].len) else {
        return Ok(emit.slice(&data, axis, 0, 0));
    };
    let at = all[..center].iter().map(|r| r.len).sum::<usize>();
    let (before, rest) = indices.split_at(at);
    let after = &rest[all[center].len..];
    let mut parts = vec![];
    let border = |emit: &mut Emitter<'_>, positions: &[usize], parts: &mut Vec<String>| {
        let runs = runs(positions, down);
        let sliced = match borders {
            Borders::Gathered => strings,
            Borders::SlicedRuns => strings || runs.len() <= 2,
            Borders::AscendingSlices => runs.len() <= MAX_BORDER_SLICES,
        };
        if sliced {
            parts.extend(runs.into_iter().map(|r| emit.run(&data, axis, extent, r)));
        } else if let [
            run @ Run {
                descending: false, ..
            },
        ] = runs[..]
        {
            parts.push(emit.run(&data, axis, extent, run));
        } else if !runs.is_empty() {
            let positions: Vec<i64> = positions.iter().map(|&i| i as i64).collect();
            parts.push(emit.gather(&data, axis, &positions));
        }
    };
    border(emit, before, &mut parts);
    parts.push(match all[center] {
        Run {
            start: 0,
            len,
            descending: false,
        } if len == extent => data.clone(),
        run => emit.run(&data, axis, extent, run),
    });
    border(emit, after, &mut parts);
    Ok(match parts.len() {
        1 => parts.remove(0),
        _ => emit.concat(parts, axis),
    })
}

/// The maximal runs of `indices`: ascending, and descending where `down` (steps of -1 in
/// `Slice`, from opset 10); a lone index is an ascending run of one.
fn runs(indices: &[usize], down: bool) -> Vec<Run> {
    let mut runs: Vec<Run> = vec![];
    for &i in indices {
        if let Some(last) = runs.last_mut() {
            let next_up = !last.descending && last.start + last.len == i;
            let next_down = down
                && (last.descending || last.len == 1)
                && last.start.checked_sub(last.len) == Some(i);
            if next_up || next_down {
                last.descending = next_down;
                last.len += 1;
                continue;
            }
        }
        runs.push(Run::up(i, 1));
    }
    runs
}

/// Refuses an output of `shape` and `dtype` above `limit` bytes, or `isize::MAX`.
fn check_size(shape: &[usize], dtype: DType, limit: Option<u64>) -> padkit::Result<()> {
    if shape.contains(&0) {
        return Ok(());
    }
    let elements = shape
        .iter()
        .try_fold(1u128, |n, &d| n.checked_mul(d as u128));
    let bytes = elements
        .and_then(|n| usize::try_from(n).ok())
        .and_then(|n| dtype.storage_bytes(n))
        .map_or(u128::MAX, |b| b as u128);
    let cap = (isize::MAX as u128).min(limit.map_or(u128::MAX, u128::from));
    if bytes > cap {
        return Err(padkit::PadError::TooLarge {
            shape: shape.to_vec(),
            bytes,
            limit: cap,
        });
    }
    Ok(())
}

/// A constant `pads` or `axes` as i64.
fn ints(t: &Tensor) -> Vec<i64> {
    match t.dtype() {
        DType::Int32 => t
            .to_vec::<i32>()
            .map(|v| v.into_iter().map(i64::from).collect())
            .unwrap_or_default(),
        _ => t.to_vec::<i64>().unwrap_or_default(),
    }
}

/// One zero (false, the empty string) of `dtype`: an empty tensor padded by one element.
fn zero(dtype: DType) -> padkit::Result<Tensor> {
    let empty = match dtype {
        DType::String => Data::Strings(vec![]),
        _ => Data::Bytes(vec![]),
    };
    let x = Tensor::new(dtype, vec![0], empty)?;
    padkit::pad_tensor(&x, &PadSpec::new(vec![0, 1]), None)
}
