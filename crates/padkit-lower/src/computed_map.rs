//! Pads whose `pads` or `axes` are known only at run time (from opset 11, where `Range`
//! is): each padded axis' index map is computed in the graph from the pads and the axis'
//! extent, then one `Gather` reads it. Where the axes are known only at run time, every
//! axis is mapped, its pads picked from the entry whose axis (normalized) is it. The maps
//! follow the core's rules: crop to the window `[s, s + k)` (`s = max(0, -begin)`,
//! `k = d - s - max(0, -end)`), then constant mode reads
//! a plane of fill outside the data, edge clamps to the window, and reflect, symmetric and
//! wrap fold positions into it with the period of their mirror (`2(k-1)`, `2k`, `k`),
//! numpy's answer for pads wider than the axis.
//!
//! The ops are those of [`PORTABLE_OPS`](crate::PORTABLE_OPS) and the arithmetic
//! [`RUN_TIME_OPS`]: `Range`, `Add`, `Sub`, `Mul`, `Div` (of non-negative numbers, where
//! truncation is floor), `Abs`, `Less`, `Equal`, `Where`, `Cast`, `CastLike` (from opset 15),
//! `ReduceSum` and `ReduceMax` on `int64` scalars and index maps, for pads anywhere in
//! int64 (a sum that wraps is caught by its terms' signs). Interior padding (known when
//! the model is read) reads the data every `r + 1` positions. What the original refuses fails in the lowered model too,
//! before anything is allocated: pads other than two per axis, axes out of range or named
//! twice, a negative extent, crops past the axis or padding from an empty window in the
//! index modes, an output above the limit; with strict ONNX semantics, reflect pads above
//! the window's length − 1. An output found empty needs no map where the target's runtime
//! takes a computed shape: each axis is gathered by a map of nothing, then the result is
//! reshaped to the output's extents ([`crate::Target::takes_computed_shapes`]).
//!
//! The maps are written in [`arith`](crate::arith)'s typed int64 arithmetic: each guard
//! reads as the sum or comparison it computes.

use padkit::{DType, PadMode};
use padkit_onnx::pb::NodeProto;

use crate::arith::{Cond, Flag, Int64, Value};
use crate::emit::Emitter;
use crate::pick::Computed;
use crate::read::Pad;
use crate::{LowerError, MAX_MAP_LEN};
use padkit::onnx::Given;

/// The ops a Pad with run-time pads adds to [`PORTABLE_OPS`](crate::PORTABLE_OPS).
pub const RUN_TIME_OPS: [&str; 13] = [
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
    "CastLike",
    "ReduceSum",
    "ReduceMax",
];

/// The nodes that pad `pad`'s data into its output by the maps `c` says, the output
/// refused at run time above `limit` bytes: the pads and axes read ([`padded_axes`]), each
/// padded axis' output extent and the flags of what the original refuses ([`extent_of`]),
/// the output's size checked ([`size_flags`]), then, past the one guard of every flag,
/// each axis gathered by its map ([`gather_axis`]).
pub(crate) fn emit(
    mut e: Emitter<'_>,
    pad: &Pad,
    c: &Computed,
    limit: Option<u64>,
) -> Result<Vec<NodeProto>, LowerError> {
    let interior = checked_interior(pad, c)?;
    let k = Ints {
        zero: e.int64(0),
        one: e.int64(1),
    };
    let (mut flags, padded) = padded_axes(&mut e, pad, c, interior.as_deref(), &k);
    let extent = DataExtent::new(&mut e);
    // First every padded axis' output extent `n = (begin + end) + spread`, and the flags of
    // what the original refuses. The sums are int64 and may wrap where pads come near the
    // int64 limits; the flags catch every wrap by the signs of the terms (`wraps`), and a
    // wrapped extent is one the original refuses, so wherever the flags pass, every value
    // below is exact.
    let mut extents = vec![];
    for axis in padded {
        let d = extent.of(&mut e, pad, axis.axis);
        extents.push(extent_of(&mut e, pad, c, axis, d, &k, &mut flags)?);
    }
    // The output's extents and whether it is empty, where any axis is padded. Where the
    // runtime takes a computed shape, an output found empty is gathered by maps of nothing
    // and reshaped to those extents; elsewhere a map above the cap fails there.
    let mut sized = None;
    if !extents.is_empty() {
        let out: Vec<Int64> = (0..pad.shape.len())
            .map(|axis| match extents.iter().find(|x| x.axis == axis) {
                Some(x) => x.n.clone(),
                None => extent.of(&mut e, pad, axis),
            })
            .collect();
        let empty = size_flags(&mut e, pad, &out, &extents, limit, &mut flags);
        sized = Some((out, empty)).filter(|_| e.takes_computed_shapes());
    }
    // 0, or a run-time error where any flag is raised: it offsets every extent (or, with
    // no axis padded, the positions the output reads), so nothing is allocated before it.
    let checked = e.guard(flags);
    let none_padded = extents.is_empty();
    let (shape, empty) = match sized {
        Some((out, empty)) => (Some(as_shape(&mut e, &out)), Some(empty)),
        None => (None, None),
    };
    let mut value = pad.x.clone();
    for x in extents {
        value = gather_axis(&mut e, pad, &value, x, (&checked, empty.as_ref()), &k);
    }
    if none_padded {
        value = unpadded(&mut e, pad, &value, &extent, &checked, &k);
    }
    if let Some(shape) = shape {
        value = e.op("Reshape", &[&value, &shape]);
    }
    Ok(e.finish(&value, &pad.y))
}

/// The int64 scalars 0 and 1 every phase uses, emitted once.
struct Ints {
    zero: Int64,
    one: Int64,
}

/// One padded axis as the pads and axes give it: its begin and end pads (int64 scalars),
/// and with interior padding its own (an int64 scalar, and its value where known when the
/// model is read).
struct PaddedAxis {
    axis: usize,
    begin: Int64,
    end: Int64,
    interior: Option<(Int64, Option<i64>)>,
}

/// The interior padding of `c` (`None` where none is above 0), checked: one value per
/// entry of the axes where they are known (where the axes come at run time, the graph
/// checks their count), none negative, none outside constant mode.
fn checked_interior(pad: &Pad, c: &Computed) -> Result<Option<Vec<i64>>, LowerError> {
    if let (Some(r), Given::Known(axes)) = (&c.interior, &c.axes)
        && axes.len() != r.len()
    {
        let e = padkit::PadError::InteriorLength {
            got: r.len(),
            expected: axes.len(),
        };
        return Err(pad.fail(e));
    }
    let interior = c.interior.clone().filter(|r| r.iter().any(|&r| r != 0));
    if let Some(r) = &interior {
        // interior padding per entry of the axes (named by their index where the axes come
        // at run time)
        let named: Vec<usize> = match &c.axes {
            Given::Known(axes) => axes.clone(),
            Given::Fed(_) => (0..r.len()).collect(),
        };
        for (axis, &interior) in named.into_iter().zip(r) {
            let one = padkit::spec::AxisPad {
                begin: 0,
                end: 0,
                interior,
            };
            one.check_interior(axis, pad.mode)
                .map_err(|e| pad.fail(e))?;
        }
    }
    Ok(interior)
}

/// The flags of the rules on the pads and axes as a whole, and each padded axis with its
/// pads: the axes as given, or, where they come at run time, every axis with the pads of
/// the entry that names it.
fn padded_axes(
    e: &mut Emitter<'_>,
    pad: &Pad,
    c: &Computed,
    interior: Option<&[i64]>,
    k: &Ints,
) -> (Vec<Flag>, Vec<PaddedAxis>) {
    let values = match &c.pads {
        Given::Fed(name) => Int64::named(name.clone()),
        Given::Known(pads) => e.int64_list(pads),
    };
    let len = e.value("Shape", &[&values]);
    let pads = Pads { values, len };
    match &c.axes {
        Given::Known(axes) => known_axes(e, &pads, axes, interior),
        Given::Fed(axes) => fed_axes(e, pad, c, &pads, axes, interior, k),
    }
}

/// The pads, an int64 graph value, and its length.
struct Pads {
    values: Int64,
    len: Int64,
}

/// [`padded_axes`] for axes known when the model is read.
fn known_axes(
    e: &mut Emitter<'_>,
    Pads { values: pads, len }: &Pads,
    axes: &[usize],
    interior: Option<&[i64]>,
) -> (Vec<Flag>, Vec<PaddedAxis>) {
    let m = axes.len() as i64;
    let want = e.int64s(2 * m);
    let right = e.equal(len, &want);
    let whole = vec![e.count(&right, false)];
    let mut padded = vec![];
    for (j, &axis) in axes.iter().enumerate() {
        let mut at = |k: i64| {
            let k = e.int64(k);
            e.value("Gather", &[pads, &k])
        };
        let (begin, end) = (at(j as i64), at(j as i64 + m));
        let r = interior.map(|r| r[j]).filter(|&r| r != 0);
        let interior = r.map(|r| (e.int64(r), Some(r)));
        padded.push(PaddedAxis {
            axis,
            begin,
            end,
            interior,
        });
    }
    (whole, padded)
}

/// [`padded_axes`] for axes fed at run time: normalized, checked (in range, named once,
/// two pads each), every axis with its entry's pads (0 where none names it).
fn fed_axes(
    e: &mut Emitter<'_>,
    pad: &Pad,
    c: &Computed,
    Pads { values: pads, len }: &Pads,
    axes: &str,
    interior: Option<&[i64]>,
    Ints { zero, one }: &Ints,
) -> (Vec<Flag>, Vec<PaddedAxis>) {
    let rank = pad.shape.len();
    let mut whole = vec![];
    let r = e.int64(rank as i64);
    // (axes may be int32)
    let axes = Int64::named(e.op_with("Cast", &[axes], &[("to", DType::Int64.onnx_code() as i64)]));
    let negative = e.less(&axes, zero);
    let shifted = e.add(&axes, &r);
    let axes = e.select(&negative, &shifted, &axes);
    let m = e.value("Shape", &[&axes]);
    // axes out of range, and pads other than two per axis
    let below = e.less(&axes, zero);
    whole.push(e.count(&below, true));
    let inside = e.less(&axes, &r);
    whole.push(e.count(&inside, false));
    let twice = e.add(&m, &m);
    let right = e.equal(len, &twice);
    whole.push(e.count(&right, false));
    let start = e.int64s(0);
    let begins: Int64 = e.value("Slice", &[pads, &start, &m]);
    let ends: Int64 = e.value("Slice", &[pads, &m, &twice]);
    // interior padding, one value per entry of the axes (zeros too)
    if let Some(r) = &c.interior {
        let given = e.int64s(r.len() as i64);
        let right = e.equal(&m, &given);
        whole.push(e.count(&right, false));
    }
    let interiors = interior.map(|r| e.int64_list(r));
    // (the lowest int64 heads each list of picked pads, so that none is empty)
    let lowest = e.int64s(i64::MIN);
    let mut padded = vec![];
    for axis in 0..rank {
        let a = e.int64(axis as i64);
        let chosen = e.equal(&axes, &a);
        // (an int64 0 or 1 by Where, not Cast: stock tract reads a Cast to int64 as its
        // symbolic dimension type, see `DataExtent`)
        let mask = e.flag(&chosen);
        // an axis named twice
        let named = e.sum(&mask);
        let twice = e.less(one, &named);
        whole.push(e.flag(&twice));
        let listed = e.less(zero, &named);
        // the one entry of `values` for this axis, or 0: a ReduceMax, since stock tract
        // 0.23.9 sums int64 through i32 (2^40 sums to 0)
        let mut pick = |values: &Int64| {
            let picked: Int64 = e.select(&chosen, values, &lowest);
            let picked = Int64::named(e.concat(vec![lowest.to_string(), picked.to_string()], 0));
            let top = e.max(&picked);
            e.select(&listed, &top, zero)
        };
        let (begin, end) = (pick(&begins), pick(&ends));
        let interior = interiors.as_ref().map(|r| (pick(r), None));
        padded.push(PaddedAxis {
            axis,
            begin,
            end,
            interior,
        });
    }
    (whole, padded)
}

/// The extent of an axis of the data: known, or read from its shape at run time. From
/// opset 15 that is cast like an int64 constant (a no-op elsewhere), without which stock
/// tract 0.23.9 keeps it in its symbolic dimension type and converts the int64 values it
/// meets into that type through i32 (pads of 2^34 become 0); before opset 15 ONNX has no
/// CastLike (and tract reads a Cast to int64 as that type too): there stock tract
/// computes exactly only with pads within ±2^31 (docs/lower.md). Nor is it written for a
/// target whose runtime does not run it (onnx2torch).
struct DataExtent {
    like: Option<Int64>,
}

impl DataExtent {
    fn new(e: &mut Emitter<'_>) -> DataExtent {
        DataExtent {
            like: (e.opset() >= 15 && e.converts("CastLike")).then(|| e.int64(0)),
        }
    }

    /// The extent of `pad`'s data along `axis`.
    fn of(&self, e: &mut Emitter<'_>, pad: &Pad, axis: usize) -> Int64 {
        match pad.shape[axis] {
            Some(d) => e.int64(d as i64),
            None => {
                let shape = e.op("Shape", &[&pad.x]);
                let a = e.int64(axis as i64);
                let d: Int64 = e.value("Gather", &[&shape, &a]);
                match &self.like {
                    Some(like) => e.value("CastLike", &[&d, like]),
                    None => d,
                }
            }
        }
    }
}

/// Axis `p` of extent `d`: its output extent, and onto `flags` those of what the original
/// refuses there: a negative or overflowing extent; in the index modes, crops past the
/// axis, padding from an empty window and, with strict ONNX semantics, reflect pads above
/// the window's length − 1.
fn extent_of(
    e: &mut Emitter<'_>,
    pad: &Pad,
    c: &Computed,
    p: PaddedAxis,
    d: Int64,
    Ints { zero, one }: &Ints,
    flags: &mut Vec<Flag>,
) -> Result<Extent, LowerError> {
    let PaddedAxis {
        axis,
        begin,
        end,
        interior,
    } = p;
    let spread = match interior {
        None => None,
        Some(r) => Some(spread(e, pad, axis, &d, r, zero, flags)?),
    };
    let pads = e.add(&begin, &end);
    flags.push(e.wraps(&begin, &end, &pads));
    let n = e.add(&pads, spread.as_ref().map_or(&d, |s| &s.0));
    // (`pads + spread` wraps only from pads ≥ 0 to a negative sum, caught here)
    let negative = e.less(&n, zero);
    flags.push(e.flag(&negative));
    if pad.mode != PadMode::Constant {
        // the window [s, s + k) left by the crops: k = d - max(0, -begin) - max(0, -end);
        // a crop of i64::MIN (whose negation wraps) or crops summing past i64::MAX are
        // wider than any axis
        let mut cut = |e: &mut Emitter<'_>, v: &Int64| {
            let lowest = e.int64(i64::MIN);
            let widest = e.equal(v, &lowest);
            flags.push(e.flag(&widest));
            let neg = e.sub(zero, v);
            e.relu(&neg, zero)
        };
        let (cut_begin, cut_end) = (cut(e, &begin), cut(e, &end));
        let cut = e.add(&cut_begin, &cut_end);
        let wrapped = e.less(&cut, zero);
        flags.push(e.flag(&wrapped));
        let k = e.sub(&d, &cut);
        // (int64 flags: ONNX Runtime's Where takes no bool values)
        let crossed = e.less(&k, zero);
        let crossed = e.flag(&crossed);
        let empty = e.less(&k, one);
        let empty = e.flag(&empty);
        let pads = e.less(zero, &n);
        flags.push(e.select(&pads, &empty, &crossed));
        if c.strict_onnx && pad.mode == PadMode::Reflect {
            // ONNX's refusals: a pad above k - 1 (which a padded axis shorter than 2
            // always has)
            let last = e.sub(&k, one);
            for v in [&begin, &end] {
                let padding = e.less(zero, v);
                let wide = e.less(&last, v);
                let wide = e.flag(&wide);
                flags.push(e.select(&padding, &wide, &Flag::off(zero)));
            }
        }
    }
    Ok(Extent {
        axis,
        d,
        begin,
        end,
        n,
        spread,
    })
}

/// The extent interior padding `r` makes of axis `axis` of extent `d`: `d + max(d - 1, 0) r`,
/// known when the model is read where `d` and `r` are, else checked in the graph (onto
/// `flags`) before it wraps; and `r`.
fn spread(
    e: &mut Emitter<'_>,
    pad: &Pad,
    axis: usize,
    d: &Int64,
    (r, known): (Int64, Option<i64>),
    zero: &Int64,
    flags: &mut Vec<Flag>,
) -> Result<(Int64, Int64), LowerError> {
    if let (Some(known), Some(extent)) = (known, pad.shape[axis]) {
        let extent = extent as i128;
        let spread = extent + (extent - 1).max(0) * i128::from(known);
        let Ok(spread) = i64::try_from(spread) else {
            return Err(pad.refuse(format!(
                "its pads or axes are computed at run time, and its interior padding of \
                 {known} makes axis {axis}'s extent {spread}, above i64::MAX"
            )));
        };
        return Ok((e.int64(spread), r));
    }
    let (fresh, max) = (e.int64(1), e.int64(i64::MAX));
    let gaps = e.sub(d, &fresh);
    let gaps = e.relu(&gaps, zero);
    // (r at least 1 to divide by: a product by 0 cannot wrap)
    let short = e.less(&r, &fresh);
    let divisor = e.select(&short, &fresh, &r);
    let most = e.div(&max, &divisor);
    let over = e.less(&most, &gaps);
    flags.push(e.flag(&over));
    let gaps = e.mul(&gaps, &r);
    let room = e.sub(&max, d);
    let over = e.less(&room, &gaps);
    flags.push(e.flag(&over));
    Ok((e.add(d, &gaps), r))
}

/// Onto `flags`, those of the output of extents `out` as a whole: its element count (in
/// double precision: no overflow) above `limit`, and, where the target's runtime takes no
/// computed shape, an index map of a padded axis (`extents`) longer than padkit-lower's
/// cap where the output is empty (its extents may be anything; nothing is read). Returns
/// whether the output is empty.
fn size_flags(
    e: &mut Emitter<'_>,
    pad: &Pad,
    out: &[Int64],
    extents: &[Extent],
    limit: Option<u64>,
    flags: &mut Vec<Flag>,
) -> Cond {
    let mut count = e.double(1.0);
    for n in out {
        let n = e.as_double(n);
        count = e.mul(&count, &n);
    }
    if let Some(limit) = limit {
        let width = pad.dtype.storage_bytes(1).unwrap_or(1) as f64;
        let limit = e.double(limit as f64 / width);
        let above = e.less(&limit, &count);
        flags.push(e.flag(&above));
    }
    let nothing = e.double(0.0);
    let empty = e.equal(&count, &nothing);
    if !e.takes_computed_shapes() {
        let cap = e.int64(MAX_MAP_LEN as i64);
        for x in extents {
            let long = e.less(&cap, &x.n);
            let long = e.flag(&long);
            let zero = e.int64(0);
            flags.push(e.select(&empty, &long, &Flag::off(&zero)));
        }
    }
    empty
}

/// The int64 scalars `out` as one 1-D int64 value, a shape.
fn as_shape(e: &mut Emitter<'_>, out: &[Int64]) -> Int64 {
    let one = e.int64s(1);
    let parts = out.iter().map(|n| e.op("Reshape", &[n, &one])).collect();
    Int64::named(e.concat(parts, 0))
}

/// `value` gathered along padded axis `x` by its map, past the guard `checked`; by a map
/// of nothing where `empty` (given) holds, the output being empty.
fn gather_axis(
    e: &mut Emitter<'_>,
    pad: &Pad,
    value: &str,
    x: Extent,
    (checked, empty): (&Int64, Option<&Cond>),
    Ints { zero, one }: &Ints,
) -> String {
    let Extent {
        axis,
        d,
        begin,
        end,
        n,
        spread,
    } = x;
    let mut n = e.add(&n, checked);
    if let Some(empty) = empty {
        n = e.select(empty, zero, &n);
    }
    let o = e.range(zero, &n, one);
    // Past the guard, what follows cannot wrap: in the index modes the checks bound both
    // pads by the extents; in constant mode a pad before the data may be near i64::MIN
    // (made up for by the one after), and every position it puts past the data's spread
    // reads fill, so it is raised to minus the spread.
    let i = match pad.mode {
        PadMode::Constant => {
            let spread = spread.as_ref().map_or(&d, |s| &s.0);
            let least = e.sub(zero, spread);
            let under = e.less(&begin, &least);
            let begin = e.select(&under, &least, &begin);
            e.sub(&o, &begin)
        }
        _ => e.sub(&o, &begin),
    };
    let (data, index) = if pad.mode != PadMode::Constant {
        let neg_begin = e.sub(zero, &begin);
        let s = e.relu(&neg_begin, zero);
        let neg_end = e.sub(zero, &end);
        let cut_end = e.relu(&neg_end, zero);
        let k = e.sub(&d, &s);
        let k = e.sub(&k, &cut_end);
        let j = e.sub(&i, &s);
        let r = window_position(e, pad.mode, &j, &k, &begin, (zero, one));
        (value.to_string(), e.add(&s, &r))
    } else {
        // positions outside [0, d) read the plane of fill joined at d
        let plane = e.fill_like(value, pad.shape.len(), axis, 1, &pad.fill);
        let data = e.concat(vec![value.to_string(), plane], axis);
        let below = e.less(&i, zero);
        let index = match &spread {
            None => {
                let index = e.select(&below, &d, &i);
                let inside = e.less(&index, &d);
                e.select(&inside, &index, &d)
            }
            Some((spread, r)) => {
                // interior padding: the data sit every r + 1 positions of the spread
                let step = e.add(r, one);
                let at = e.relu(&i, zero);
                let source = e.div(&at, &step);
                let on_grid = e.mul(&source, &step);
                let on_grid = e.equal(&on_grid, &at);
                let source = e.select(&on_grid, &source, &d);
                let within = e.less(&at, spread);
                let source = e.select(&within, &source, &d);
                e.select(&below, &d, &source)
            }
        };
        (data, index)
    };
    e.gather_by(&data, axis, &index)
}

/// The position in the window `[0, k)` each position `j` (relative to the window's start;
/// `begin` the pad before it) reads in index `mode`: edge clamps; reflect, symmetric and
/// wrap fold `j` with their mirror's period (`2(k-1)`, `2k`, `k`), made non-negative
/// first by a multiple of the period, as `Div` of non-negative numbers floors.
fn window_position(
    e: &mut Emitter<'_>,
    mode: PadMode,
    j: &Int64,
    k: &Int64,
    begin: &Int64,
    (zero, one): (&Int64, &Int64),
) -> Int64 {
    let last = e.sub(k, one);
    if mode == PadMode::Edge {
        let t = e.relu(j, zero);
        let over = e.less(&last, &t);
        return e.select(&over, &last, &t);
    }
    let two = e.int64(2);
    let period = match mode {
        PadMode::Reflect => e.mul(&two, &last),
        PadMode::Symmetric => e.mul(&two, k),
        _ => k.clone(),
    };
    // a period of at least 1 (a window of one element folds everything onto it)
    let short = e.less(&period, one);
    let period = e.select(&short, one, &period);
    let ahead = e.relu(begin, zero);
    let ahead = e.add(&ahead, &period);
    let turns = e.div(&ahead, &period);
    let shift = e.mul(&turns, &period);
    let j = e.add(j, &shift);
    let whole = e.div(&j, &period);
    let whole = e.mul(&whole, &period);
    let t = e.sub(&j, &whole);
    match mode {
        PadMode::Reflect => {
            let from_last = e.sub(&t, &last);
            let from_last = e.abs(&from_last);
            e.sub(&last, &from_last)
        }
        PadMode::Symmetric => {
            let first_half = e.less(&t, k);
            let back = e.sub(&period, one);
            let back = e.sub(&back, &t);
            e.select(&first_half, &t, &back)
        }
        _ => t,
    }
}

/// No axis is padded (axes known and empty, or a rank-0 tensor): the rules on the pads and
/// axes as a whole still guard the output, which reads the data through positions offset
/// by the guard `checked` (0, or a run-time error).
fn unpadded(
    e: &mut Emitter<'_>,
    pad: &Pad,
    value: &str,
    extent: &DataExtent,
    checked: &Int64,
    Ints { zero, one }: &Ints,
) -> String {
    if pad.shape.is_empty() {
        let single = e.int64s(1);
        let single = e.op("Reshape", &[value, &single]);
        e.op("Gather", &[&single, checked])
    } else {
        let d = extent.of(e, pad, 0);
        let o = e.range(zero, &d, one);
        let index = e.add(&o, checked);
        e.gather_by(value, 0, &index)
    }
}

/// One padded axis of a Pad lowered here, as graph values: its extent `d`, its pads, its
/// output extent `n` (exact wherever the checks pass), and with interior padding the
/// extent it spreads the data over and the interior padding.
struct Extent {
    axis: usize,
    d: Int64,
    begin: Int64,
    end: Int64,
    n: Int64,
    spread: Option<(Int64, Int64)>,
}
