//! A Pad whose data's extents are all known when the model is read: per padded axis, a
//! `Slice` and a `Concat` with fill blocks (constant mode), or the axis' index map read as
//! the data's runs joined by a `Concat` (`Slice`s, or a `Gather` of a border's few
//! positions; the other modes, and interior padding over the data joined to one plane of
//! fill).

use padkit::axis_map::axis_sources;
use padkit::onnx::Given;
use padkit::spec::AxisPad;
use padkit::{DType, Data, PadMode, Tensor};
use padkit_onnx::pb::NodeProto;

use crate::emit::Emitter;
use crate::read::{Fill, Pad, zero};
use crate::target::{BorderReads, EmptyOutputs, MAX_BORDER_SLICES, plain_number};
use crate::{LowerError, MAX_MAP_LEN};
use padkit::axis_map::{SourceRun as Run, source_runs};

/// The nodes that pad `pad`'s data, of extents `shape`, into its output of extents `out`,
/// each axis as `axes` says.
pub(crate) fn emit(
    mut emit: Emitter<'_>,
    pad: &Pad,
    shape: Vec<usize>,
    axes: &[AxisPad],
    out: &[usize],
) -> Result<Vec<NodeProto>, LowerError> {
    let failed = |e| pad.fail(e);
    if out.contains(&0) {
        // An empty output: a block of that shape, which holds nothing, so no index map
        // (however long the other axes). In constant mode a fill fed at run time must
        // still be one element, as the Pad requires: the fill block checks it. Otherwise,
        // for a target that reads no empty constant, the data sliced to nothing
        // ([`EmptyOutputs::SlicedData`]); for the others numbers and bool take a
        // `ConstantOfShape` of zero (stock tract 0.23.9 reads an empty uint32 constant as
        // int32), the other types an empty constant (ONNX Runtime 1.32's `ConstantOfShape` takes no
        // bfloat16, float8, int4, float4 or int2).
        let plain = plain_number(pad.dtype) || pad.dtype == DType::Bool;
        let value = match (&pad.fill, pad.mode) {
            (Given::Fed(_), PadMode::Constant) => emit.fill_block(&pad.fill, out),
            _ if emit.empty_outputs() == EmptyOutputs::SlicedData => {
                Ok(emit.nothing_of(&pad.x, out))
            }
            _ if plain => emit.fill_block(&Given::Known(zero(pad.dtype).map_err(failed)?), out),
            _ => nothing(pad.dtype, out).map(|t| emit.constant(&t)),
        }
        .map_err(failed)?;
        return Ok(emit.finish(&value, &pad.y));
    }
    let mut value = pad.x.clone();
    let mut now = shape;
    for (axis, p) in axes.iter().enumerate() {
        if p.is_identity() {
            continue;
        }
        let out_len = out[axis];
        value = if pad.mode == PadMode::Constant && p.interior == 0 {
            constant_axis(&mut emit, &value, &now, axis, p, out_len, &pad.fill).map_err(failed)?
        } else {
            pad.check_map_len(axis, out_len)?;
            let sources = axis_sources(axis, now[axis], p, pad.mode).map_err(failed)?;
            let mut plane = now.clone();
            plane[axis] = 1;
            mapped_axis(
                &mut emit,
                pad,
                &value,
                now[axis],
                axis,
                &sources,
                Some(plane),
            )
            .map_err(failed)?
        };
        now[axis] = out_len;
    }
    Ok(emit.finish(&value, &pad.y))
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
/// as the target reads borders ([`BorderReads`]); strings take slices of every run. So a
/// pad moves the data once, as a `Concat`. Interior padding first joins the data to one
/// plane of fill, which the map reads for its fill positions.
pub(crate) fn mapped_axis(
    emit: &mut Emitter<'_>,
    pad: &Pad,
    x: &str,
    d: usize,
    axis: usize,
    sources: &[Option<usize>],
    plane: Option<Vec<usize>>,
) -> padkit::Result<String> {
    let (fill, strings) = (&pad.fill, pad.dtype == DType::String);
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
    let border_reads = emit.border_reads();
    if emit.opset() < 4 && !strings && border_reads != BorderReads::AscendingSlices {
        let indices: Vec<i64> = indices.iter().map(|&i| i as i64).collect();
        return Ok(emit.gather(&data, axis, &indices));
    }
    let down = emit.opset() >= 10 && border_reads != BorderReads::AscendingSlices;
    // the center among the ascending runs only: a border reading down into the center's
    // first element must not take it away from the center
    let all = source_runs(indices.iter().copied(), false);
    let Some(center) = (0..all.len()).max_by_key(|&k| all[k].len) else {
        return Ok(emit.slice(&data, axis, 0, 0));
    };
    let at = all[..center].iter().map(|r| r.len).sum::<usize>();
    let (before, rest) = indices.split_at(at);
    let after = &rest[all[center].len..];
    let mut parts = vec![];
    let border = |emit: &mut Emitter<'_>, positions: &[usize], parts: &mut Vec<String>| {
        let runs = source_runs(positions.iter().copied(), down);
        let sliced = match border_reads {
            BorderReads::Gathered => strings,
            BorderReads::SlicedRuns => strings || runs.len() <= 2,
            BorderReads::AscendingSlices => runs.len() <= MAX_BORDER_SLICES,
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

/// The tensor of `dtype` and `shape` (one extent 0) that holds nothing.
fn nothing(dtype: DType, shape: &[usize]) -> padkit::Result<Tensor> {
    let data = match dtype {
        DType::String => Data::Strings(vec![]),
        _ => Data::Bytes(vec![]),
    };
    Tensor::new(dtype, shape.to_vec(), data)
}
