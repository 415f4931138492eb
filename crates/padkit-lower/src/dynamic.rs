//! Pads whose `pads` or `axes` are known only at run time (from opset 11, where `Range`
//! is): each padded axis' index map is computed in the graph from the pads and the axis'
//! extent, then one `Gather` reads it. Where the axes are known only at run time, every
//! axis is mapped, its pads summed from the entries whose axis (normalized) is it. The maps follow the core's rules: crop to the window
//! `[s, s + k)` (`s = max(0, -begin)`, `k = d - s - max(0, -end)`), then constant mode reads
//! a plane of fill outside the data, edge clamps to the window, and reflect, symmetric and
//! wrap fold positions into it with the period of their mirror (`2(k-1)`, `2k`, `k`),
//! numpy's answer for pads wider than the axis.
//!
//! The ops are those of [`PORTABLE_OPS`](crate::PORTABLE_OPS) and the arithmetic
//! [`RUN_TIME_OPS`]: `Range`, `Add`, `Sub`, `Mul`, `Div` (of non-negative numbers, where
//! truncation is floor), `Abs`, `Less`, `Equal`, `Where`, `Cast` and `ReduceSum` on `int64`
//! scalars and index maps. Interior padding (known when the model is read) reads the data
//! every `r + 1` positions. What the original refuses fails in the lowered model too,
//! before anything is allocated: pads other than two per axis, axes out of range or named
//! twice, a negative extent, crops past the axis or padding from an empty window in the
//! index modes, an output above the limit.

use padkit::{DType, PadMode, Tensor};
use tract_onnx::pb::NodeProto;

use crate::LowerError;
use crate::emit::{Emitter, Fill};
use crate::graph::{Scope, Walk};
use padkit_onnx::graph::describe;

/// The ops a Pad with run-time pads adds to [`PORTABLE_OPS`](crate::PORTABLE_OPS).
pub const RUN_TIME_OPS: [&str; 11] = [
    "Range",
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Abs",
    "Less",
    "Where",
    "Equal",
    "Cast",
    "ReduceSum",
];

/// The pads of a Pad lowered here.
pub(crate) enum Pads<'a> {
    /// The graph value that holds them at run time.
    RunTime(&'a str),
    /// Known when the model is read (the data's extents are not).
    Known(Vec<i64>),
}

/// The padded axes of a Pad with run-time pads.
pub(crate) enum Axes<'a> {
    /// Known when the model is read: normalized, in the order of `pads`.
    Known(Vec<usize>),
    /// The graph value that holds them at run time.
    RunTime(&'a str),
}

/// What a Pad with run-time pads needs besides them.
pub(crate) struct RunTimePad<'a> {
    /// The data, its element type and (partly known) shape.
    pub(crate) x: &'a str,
    pub(crate) dtype: DType,
    pub(crate) shape: &'a [Option<usize>],
    /// The pads: `2 m` values over the padded axes.
    pub(crate) pads: Pads<'a>,
    /// Interior padding per padded axis (known when the model is read; constant mode).
    pub(crate) interior: Option<Vec<i64>>,
    /// The padded axes.
    pub(crate) axes: Axes<'a>,
    pub(crate) mode: PadMode,
    pub(crate) fill: &'a Fill,
}

/// The nodes that pad `p.x` into `y` with pads read at run time; registers `y`'s type.
pub(crate) fn lower(
    walk: &mut Walk<'_>,
    node: &NodeProto,
    scope: &mut Scope,
    y: &str,
    p: RunTimePad<'_>,
) -> Result<Vec<NodeProto>, LowerError> {
    let refuse = |why: &str| {
        Err(LowerError::NotLowered {
            node: describe(node),
            why: format!("its pads or axes are computed at run time, and {why}"),
        })
    };
    if walk.opset < 11 {
        return refuse("before opset 11 ONNX has no Range to compute index maps with");
    }
    if matches!(
        p.dtype,
        DType::String | DType::Complex64 | DType::Complex128
    ) {
        return refuse("padkit-lower gathers no strings or complex numbers by computed maps");
    }
    let rank = p.shape.len();
    let walk_limit = walk.options.max_output_bytes;
    let interior = p.interior.clone().filter(|r| r.iter().any(|&r| r != 0));
    if let Some(r) = &interior {
        // interior padding per entry of the axes (named by their index where the axes come
        // at run time, whose count the graph checks)
        let named: Vec<usize> = match &p.axes {
            Axes::Known(axes) if axes.len() != r.len() => {
                let e = padkit::PadError::InteriorLength {
                    got: r.len(),
                    expected: axes.len(),
                };
                return Err(LowerError::pad(node, e));
            }
            Axes::Known(axes) => axes.clone(),
            Axes::RunTime(_) => (0..r.len()).collect(),
        };
        for (axis, &interior) in named.into_iter().zip(r) {
            let pad = padkit::spec::AxisPad {
                begin: 0,
                end: 0,
                interior,
            };
            pad.check_interior(axis, p.mode)
                .map_err(|e| LowerError::pad(node, e))?;
        }
    }
    let mut e = Emitter::new(walk.opset, y, &mut walk.names);
    let int = |e: &mut Emitter<'_>, v: i64| {
        e.constant(&Tensor::from_slice(&[], &[v]).expect("an int64 scalar"))
    };
    let (zero, one) = (int(&mut e, 0), int(&mut e, 1));
    let ints = |e: &mut Emitter<'_>, v: i64| {
        e.constant(&Tensor::from_slice(&[1], &[v]).expect("one int64"))
    };
    // max(0, v) of an int64 value
    let relu = |e: &mut Emitter<'_>, v: &str| {
        let negative = e.op("Less", &[v, &zero]);
        e.op("Where", &[&negative, &zero, v])
    };
    let mut value = p.x.to_string();
    let mut now = p.shape.to_vec();
    let pads = match &p.pads {
        Pads::RunTime(name) => name.to_string(),
        Pads::Known(pads) => {
            e.constant(&Tensor::from_slice(&[pads.len()], pads).expect("int64 pads"))
        }
    };
    let pads = pads.as_str();
    let flag = |e: &mut Emitter<'_>, cond: &str| e.op("Where", &[cond, &one, &zero]);
    // how many entries of the bool tensor `cond` are `bad` (0 when none is)
    let count = |e: &mut Emitter<'_>, cond: &str, bad: bool| {
        let (yes, no) = if bad { (&one, &zero) } else { (&zero, &one) };
        let flags = e.op("Where", &[cond, yes, no]);
        e.op_with("ReduceSum", &[&flags], &[("keepdims", 0)])
    };
    // rules on the pads and axes as a whole, checked with the first axis' guard (or, with
    // no axis padded, the output's own)
    let mut whole = vec![];
    let pads_len = e.op("Shape", &[pads]);
    // each padded axis with its begin and end pads (int64 scalars, or its index among the axes)
    let mut padded = vec![];
    match &p.axes {
        Axes::Known(axes) => {
            let m = axes.len() as i64;
            let want = ints(&mut e, 2 * m);
            let right = e.op("Equal", &[&pads_len, &want]);
            whole.push(count(&mut e, &right, false));
            for (j, &axis) in axes.iter().enumerate() {
                let mut at = |k: i64| {
                    let k = int(&mut e, k);
                    e.op("Gather", &[pads, &k])
                };
                let (begin, end) = (at(j as i64), at(j as i64 + m));
                let r = interior.as_ref().map(|r| r[j]).filter(|&r| r != 0);
                let r = r.map(|r| int(&mut e, r));
                padded.push((axis, begin, end, r));
            }
        }
        Axes::RunTime(axes) => {
            let r = int(&mut e, rank as i64);
            // (axes may be int32)
            let axes = e.op_with("Cast", &[axes], &[("to", DType::Int64.onnx_code() as i64)]);
            let negative = e.op("Less", &[&axes, &zero]);
            let shifted = e.op("Add", &[&axes, &r]);
            let axes = e.op("Where", &[&negative, &shifted, &axes]);
            let m = e.op("Shape", &[&axes]);
            // axes out of range, and pads other than two per axis
            let below = e.op("Less", &[&axes, &zero]);
            whole.push(count(&mut e, &below, true));
            let inside = e.op("Less", &[&axes, &r]);
            whole.push(count(&mut e, &inside, false));
            let twice = e.op("Add", &[&m, &m]);
            let right = e.op("Equal", &[&pads_len, &twice]);
            whole.push(count(&mut e, &right, false));
            let start = ints(&mut e, 0);
            let begins = e.op("Slice", &[pads, &start, &m]);
            let ends = e.op("Slice", &[pads, &m, &twice]);
            // interior padding, one value per entry of the axes
            let interiors = interior.as_ref().map(|r| {
                let values =
                    e.constant(&Tensor::from_slice(&[r.len()], r).expect("int64 interior"));
                let given = ints(&mut e, r.len() as i64);
                let right = e.op("Equal", &[&m, &given]);
                whole.push(count(&mut e, &right, false));
                values
            });
            for axis in 0..rank {
                let a = int(&mut e, axis as i64);
                let mask = e.op("Equal", &[&axes, &a]);
                let mask = e.op_with("Cast", &[&mask], &[("to", DType::Int64.onnx_code() as i64)]);
                // an axis named twice
                let named = e.op_with("ReduceSum", &[&mask], &[("keepdims", 0)]);
                let twice = e.op("Less", &[&one, &named]);
                whole.push(flag(&mut e, &twice));
                let mut sum = |pads: &str| {
                    let picked = e.op("Mul", &[&mask, pads]);
                    e.op_with("ReduceSum", &[&picked], &[("keepdims", 0)])
                };
                let (begin, end) = (sum(&begins), sum(&ends));
                let r = interiors.as_deref().map(&mut sum);
                padded.push((axis, begin, end, r));
            }
        }
    }
    // the extent of `axis` of `value`: known, or read from its shape at run time
    let extent = |e: &mut Emitter<'_>, value: &str, axis: usize| match p.shape[axis] {
        Some(d) => int(e, d as i64),
        None => {
            let shape = e.op("Shape", &[value]);
            let a = int(e, axis as i64);
            e.op("Gather", &[&shape, &a])
        }
    };
    for (axis, begin, end, interior) in padded {
        let d = extent(&mut e, &value, axis);
        // the extent interior padding makes: d + (d - 1) r, 0 for an empty axis
        let spread = match interior {
            Some(r) => {
                let gaps = e.op("Sub", &[&d, &one]);
                let gaps = e.op("Mul", &[&gaps, &r]);
                let spread = e.op("Add", &[&d, &gaps]);
                let empty = e.op("Less", &[&d, &one]);
                Some((e.op("Where", &[&empty, &zero, &spread]), r))
            }
            None => None,
        };
        let n = e.op("Add", &[spread.as_ref().map_or(&d, |(s, _)| s), &begin]);
        let n = e.op("Add", &[&n, &end]);
        // the window the index modes read: [s, s + k)
        let window = (p.mode != PadMode::Constant).then(|| {
            let neg_begin = e.op("Sub", &[&zero, &begin]);
            let s = relu(&mut e, &neg_begin);
            let neg_end = e.op("Sub", &[&zero, &end]);
            let cut_end = relu(&mut e, &neg_end);
            let k = e.op("Sub", &[&d, &s]);
            (s, e.op("Sub", &[&k, &cut_end]))
        });
        // what the original refuses fails here too, before anything is allocated: a
        // negative extent; in the index modes, crops past the axis or padding from an
        // empty window; an output above the limit
        let negative = e.op("Less", &[&n, &zero]);
        let mut flags = std::mem::take(&mut whole);
        flags.push(flag(&mut e, &negative));
        if let Some((_, k)) = &window {
            // (int64 flags: ONNX Runtime's Where takes no bool values)
            let crossed = e.op("Less", &[k, &zero]);
            let crossed = flag(&mut e, &crossed);
            let empty = e.op("Less", &[k, &one]);
            let empty = flag(&mut e, &empty);
            let pads = e.op("Less", &[&zero, &n]);
            flags.push(e.op("Where", &[&pads, &empty, &crossed]));
        }
        if let Some(limit) = walk_limit {
            let above = over_limit(&mut e, &value, rank, axis, &n, p.dtype, limit);
            flags.push(flag(&mut e, &above));
        }
        let n = guarded(&mut e, &n, flags, &zero, &one);
        let o = e.op("Range", &[&zero, &n, &one]);
        let i = e.op("Sub", &[&o, &begin]);
        let (data, index) = if let Some((s, k)) = window {
            let j = e.op("Sub", &[&i, &s]);
            let r = fold(&mut e, p.mode, &j, &k, &begin, (&zero, &one));
            (value.clone(), e.op("Add", &[&s, &r]))
        } else {
            // positions outside [0, d) read the plane of fill joined at d
            let plane = e.fill_like(&value, rank, axis, 1, p.fill);
            let data = e.concat(vec![value.clone(), plane], axis);
            let below = e.op("Less", &[&i, &zero]);
            let index = match &spread {
                None => {
                    let index = e.op("Where", &[&below, &d, &i]);
                    let inside = e.op("Less", &[&index, &d]);
                    e.op("Where", &[&inside, &index, &d])
                }
                Some((spread, r)) => {
                    // interior padding: the data sit every r + 1 positions of the spread
                    let step = e.op("Add", &[r, &one]);
                    let at = relu(&mut e, &i);
                    let source = e.op("Div", &[&at, &step]);
                    let on_grid = e.op("Mul", &[&source, &step]);
                    let on_grid = e.op("Equal", &[&on_grid, &at]);
                    let source = e.op("Where", &[&on_grid, &source, &d]);
                    let within = e.op("Less", &[&at, spread]);
                    let source = e.op("Where", &[&within, &source, &d]);
                    e.op("Where", &[&below, &d, &source])
                }
            };
            (data, index)
        };
        value = e.gather_by(&data, axis, &index);
        now[axis] = None;
    }
    if !whole.is_empty() {
        // No axis is padded (axes known and empty, or a rank-0 tensor): the rules on the
        // pads and axes as a whole still guard the output, which reads the data through
        // positions offset by the guard (0, or a run-time error).
        let at = guarded(&mut e, &zero, whole, &zero, &one);
        value = if rank == 0 {
            let single = ints(&mut e, 1);
            let single = e.op("Reshape", &[&value, &single]);
            e.op("Gather", &[&single, &at])
        } else {
            let d = extent(&mut e, &value, 0);
            let o = e.op("Range", &[&zero, &d, &one]);
            let index = e.op("Add", &[&o, &at]);
            e.gather_by(&value, 0, &index)
        };
    }
    scope.types.insert(y.to_string(), (p.dtype, now));
    Ok(e.finish(&value, y))
}

/// `n`, or a run-time error where any of `flags` (int64 0 or 1) is 1: `n` plus a `Gather`
/// from a one-element tensor at the flags' sum, which is out of range unless it is 0.
/// ONNX Runtime and candle-onnx refuse it with an error; stock tract 0.23.9 panics on it
/// (its Gather indexes without a check), which padkit's CLI reports as tract's error. (A
/// `Reshape` to a computed shape would be refused everywhere, but tract takes no shape
/// computed at run time.)
fn guarded(e: &mut Emitter<'_>, n: &str, flags: Vec<String>, zero: &str, one: &str) -> String {
    let mut sum = flags[0].clone();
    for f in &flags[1..] {
        sum = e.op("Add", &[&sum, f]);
    }
    let raised = e.op("Less", &[zero, &sum]);
    let at = e.op("Where", &[&raised, one, zero]);
    let nothing = e.constant(&Tensor::from_slice(&[1], &[0i64]).expect("one int64"));
    let checked = e.op("Gather", &[&nothing, &at]);
    e.op("Add", &[n, &checked])
}

/// Whether `x` (of `rank`) with extent `n` on `axis` would take more than `limit` bytes of
/// `dtype`: its element count in double precision (no overflow), times the element's size.
fn over_limit(
    e: &mut Emitter<'_>,
    x: &str,
    rank: usize,
    axis: usize,
    n: &str,
    dtype: DType,
    limit: u64,
) -> String {
    let double = DType::Float64.onnx_code() as i64;
    let shape = e.op("Shape", &[x]);
    let mut count = e.op_with("Cast", &[n], &[("to", double)]);
    for other in (0..rank).filter(|&i| i != axis) {
        let at = e.constant(&Tensor::from_slice(&[], &[other as i64]).expect("an int64 scalar"));
        let extent = e.op("Gather", &[&shape, &at]);
        let extent = e.op_with("Cast", &[&extent], &[("to", double)]);
        count = e.op("Mul", &[&count, &extent]);
    }
    let width = dtype.storage_bytes(1).unwrap_or(1) as f64;
    let limit = e.constant(&Tensor::from_slice(&[], &[limit as f64 / width]).expect("a double"));
    e.op("Less", &[&limit, &count])
}

/// The position in the window `[0, k)` each position `j` (relative to the window's start;
/// `begin` the pad before it) reads in index `mode`: edge clamps; reflect, symmetric and
/// wrap fold `j` with their mirror's period (`2(k-1)`, `2k`, `k`), made non-negative
/// first by a multiple of the period, as `Div` of non-negative numbers floors.
fn fold(
    e: &mut Emitter<'_>,
    mode: PadMode,
    j: &str,
    k: &str,
    begin: &str,
    (zero, one): (&str, &str),
) -> String {
    let relu = |e: &mut Emitter<'_>, v: &str| {
        let negative = e.op("Less", &[v, zero]);
        e.op("Where", &[&negative, zero, v])
    };
    let last = e.op("Sub", &[k, one]);
    if mode == PadMode::Edge {
        let t = relu(e, j);
        let over = e.op("Less", &[&last, &t]);
        return e.op("Where", &[&over, &last, &t]);
    }
    let two = e.constant(&Tensor::from_slice(&[], &[2i64]).expect("an int64 scalar"));
    let period = match mode {
        PadMode::Reflect => e.op("Mul", &[&two, &last]),
        PadMode::Symmetric => e.op("Mul", &[&two, k]),
        _ => k.to_string(),
    };
    // a period of at least 1 (a window of one element folds everything onto it)
    let short = e.op("Less", &[&period, one]);
    let period = e.op("Where", &[&short, one, &period]);
    let ahead = relu(e, begin);
    let ahead = e.op("Add", &[&ahead, &period]);
    let turns = e.op("Div", &[&ahead, &period]);
    let shift = e.op("Mul", &[&turns, &period]);
    let j = e.op("Add", &[j, &shift]);
    let whole = e.op("Div", &[&j, &period]);
    let whole = e.op("Mul", &[&whole, &period]);
    let t = e.op("Sub", &[&j, &whole]);
    match mode {
        PadMode::Reflect => {
            let from_last = e.op("Sub", &[&t, &last]);
            let from_last = e.op("Abs", &[&from_last]);
            e.op("Sub", &[&last, &from_last])
        }
        PadMode::Symmetric => {
            let first_half = e.op("Less", &[&t, k]);
            let back = e.op("Sub", &[&period, one]);
            let back = e.op("Sub", &[&back, &t]);
            e.op("Where", &[&first_half, &t, &back])
        }
        _ => t,
    }
}
