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
//! the window's length − 1.

use padkit::{DType, PadMode, Tensor};
use padkit_onnx::pb::NodeProto;

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
    if !extents.is_empty() {
        size_flags(&mut e, pad, &extents, &extent, limit, &mut flags);
    }
    // 0, or a run-time error where any flag is raised: it offsets every extent (or, with
    // no axis padded, the positions the output reads), so nothing is allocated before it.
    let checked = e.guard(flags);
    let none_padded = extents.is_empty();
    let mut value = pad.x.clone();
    for x in extents {
        value = gather_axis(&mut e, pad, &value, x, &checked, &k);
    }
    if none_padded {
        value = unpadded(&mut e, pad, &value, &extent, &checked, &k);
    }
    Ok(e.finish(&value, &pad.y))
}

/// The int64 scalars 0 and 1 every phase uses, emitted once.
struct Ints {
    zero: String,
    one: String,
}

/// One padded axis as the pads and axes give it: its begin and end pads (int64 scalars),
/// and with interior padding its own (an int64 scalar, and its value where known when the
/// model is read).
struct PaddedAxis {
    axis: usize,
    begin: String,
    end: String,
    interior: Option<(String, Option<i64>)>,
}

impl PaddedAxis {
    fn new(
        axis: usize,
        begin: String,
        end: String,
        interior: Option<(String, Option<i64>)>,
    ) -> PaddedAxis {
        PaddedAxis {
            axis,
            begin,
            end,
            interior,
        }
    }
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
) -> (Vec<String>, Vec<PaddedAxis>) {
    let pads = match &c.pads {
        Given::Fed(name) => name.clone(),
        Given::Known(pads) => {
            e.constant(&Tensor::from_slice(&[pads.len()], pads).expect("int64 pads"))
        }
    };
    let len = e.op("Shape", &[&pads]);
    let pads = Pads { values: pads, len };
    match &c.axes {
        Given::Known(axes) => known_axes(e, &pads, axes, interior),
        Given::Fed(axes) => fed_axes(e, pad, c, &pads, axes, interior, k),
    }
}

/// The pads, an int64 graph value, and its length.
struct Pads {
    values: String,
    len: String,
}

/// [`padded_axes`] for axes known when the model is read.
fn known_axes(
    e: &mut Emitter<'_>,
    Pads { values: pads, len }: &Pads,
    axes: &[usize],
    interior: Option<&[i64]>,
) -> (Vec<String>, Vec<PaddedAxis>) {
    let m = axes.len() as i64;
    let want = e.int64s(2 * m);
    let right = e.op("Equal", &[len, &want]);
    let whole = vec![e.count(&right, false)];
    let mut padded = vec![];
    for (j, &axis) in axes.iter().enumerate() {
        let mut at = |k: i64| {
            let k = e.int64(k);
            e.op("Gather", &[pads, &k])
        };
        let (begin, end) = (at(j as i64), at(j as i64 + m));
        let r = interior.map(|r| r[j]).filter(|&r| r != 0);
        let interior = r.map(|r| (e.int64(r), Some(r)));
        padded.push(PaddedAxis::new(axis, begin, end, interior));
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
) -> (Vec<String>, Vec<PaddedAxis>) {
    let rank = pad.shape.len();
    let mut whole = vec![];
    let r = e.int64(rank as i64);
    // (axes may be int32)
    let axes = e.op_with("Cast", &[axes], &[("to", DType::Int64.onnx_code() as i64)]);
    let negative = e.op("Less", &[&axes, zero]);
    let shifted = e.op("Add", &[&axes, &r]);
    let axes = e.op("Where", &[&negative, &shifted, &axes]);
    let m = e.op("Shape", &[&axes]);
    // axes out of range, and pads other than two per axis
    let below = e.op("Less", &[&axes, zero]);
    whole.push(e.count(&below, true));
    let inside = e.op("Less", &[&axes, &r]);
    whole.push(e.count(&inside, false));
    let twice = e.op("Add", &[&m, &m]);
    let right = e.op("Equal", &[len, &twice]);
    whole.push(e.count(&right, false));
    let start = e.int64s(0);
    let begins = e.op("Slice", &[pads, &start, &m]);
    let ends = e.op("Slice", &[pads, &m, &twice]);
    // interior padding, one value per entry of the axes (zeros too)
    if let Some(r) = &c.interior {
        let given = e.int64s(r.len() as i64);
        let right = e.op("Equal", &[&m, &given]);
        whole.push(e.count(&right, false));
    }
    let interiors =
        interior.map(|r| e.constant(&Tensor::from_slice(&[r.len()], r).expect("int64 interior")));
    // (the lowest int64 heads each list of picked pads, so that none is empty)
    let lowest = e.int64s(i64::MIN);
    let mut padded = vec![];
    for axis in 0..rank {
        let a = e.int64(axis as i64);
        let chosen = e.op("Equal", &[&axes, &a]);
        // (an int64 0 or 1 by Where, not Cast: stock tract reads a Cast to int64 as its
        // symbolic dimension type, see `DataExtent`)
        let mask = e.flag(&chosen);
        // an axis named twice
        let named = e.op_with("ReduceSum", &[&mask], &[("keepdims", 0)]);
        let twice = e.op("Less", &[one, &named]);
        whole.push(e.flag(&twice));
        let listed = e.op("Less", &[zero, &named]);
        // the one entry of `values` for this axis, or 0: a ReduceMax, since stock tract
        // 0.23.9 sums int64 through i32 (2^40 sums to 0)
        let mut pick = |values: &str| {
            let picked = e.op("Where", &[&chosen, values, &lowest]);
            let picked = e.concat(vec![lowest.clone(), picked], 0);
            let top = e.op_with("ReduceMax", &[&picked], &[("keepdims", 0)]);
            e.op("Where", &[&listed, &top, zero])
        };
        let (begin, end) = (pick(&begins), pick(&ends));
        let interior = interiors.as_deref().map(|r| (pick(r), None));
        padded.push(PaddedAxis::new(axis, begin, end, interior));
    }
    (whole, padded)
}

/// The extent of an axis of the data: known, or read from its shape at run time. From
/// opset 15 that is cast like an int64 constant (a no-op elsewhere), without which stock
/// tract 0.23.9 keeps it in its symbolic dimension type and converts the int64 values it
/// meets into that type through i32 (pads of 2^34 become 0); before opset 15 ONNX has no
/// CastLike (and tract reads a Cast to int64 as that type too): there stock tract
/// computes exactly only with pads within ±2^31 (docs/lower.md).
struct DataExtent {
    like: Option<String>,
}

impl DataExtent {
    fn new(e: &mut Emitter<'_>) -> DataExtent {
        DataExtent {
            like: (e.opset() >= 15).then(|| e.int64(0)),
        }
    }

    /// The extent of `pad`'s data along `axis`.
    fn of(&self, e: &mut Emitter<'_>, pad: &Pad, axis: usize) -> String {
        match pad.shape[axis] {
            Some(d) => e.int64(d as i64),
            None => {
                let shape = e.op("Shape", &[&pad.x]);
                let a = e.int64(axis as i64);
                let d = e.op("Gather", &[&shape, &a]);
                match &self.like {
                    Some(like) => e.op("CastLike", &[&d, like]),
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
    d: String,
    Ints { zero, one }: &Ints,
    flags: &mut Vec<String>,
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
    let pads = e.op("Add", &[&begin, &end]);
    flags.push(e.wraps(&begin, &end, &pads));
    let n = e.op("Add", &[&pads, spread.as_ref().map_or(&d, |s| &s.0)]);
    // (`pads + spread` wraps only from pads ≥ 0 to a negative sum, caught here)
    let negative = e.op("Less", &[&n, zero]);
    flags.push(e.flag(&negative));
    if pad.mode != PadMode::Constant {
        // the window [s, s + k) left by the crops: k = d - max(0, -begin) - max(0, -end);
        // a crop of i64::MIN (whose negation wraps) or crops summing past i64::MAX are
        // wider than any axis
        let mut cut = |e: &mut Emitter<'_>, v: &str| {
            let lowest = e.int64(i64::MIN);
            let widest = e.op("Equal", &[v, &lowest]);
            flags.push(e.flag(&widest));
            let neg = e.op("Sub", &[zero, v]);
            e.relu(&neg, zero)
        };
        let (cut_begin, cut_end) = (cut(e, &begin), cut(e, &end));
        let cut = e.op("Add", &[&cut_begin, &cut_end]);
        let wrapped = e.op("Less", &[&cut, zero]);
        flags.push(e.flag(&wrapped));
        let k = e.op("Sub", &[&d, &cut]);
        // (int64 flags: ONNX Runtime's Where takes no bool values)
        let crossed = e.op("Less", &[&k, zero]);
        let crossed = e.flag(&crossed);
        let empty = e.op("Less", &[&k, one]);
        let empty = e.flag(&empty);
        let pads = e.op("Less", &[zero, &n]);
        flags.push(e.op("Where", &[&pads, &empty, &crossed]));
        if c.strict_onnx && pad.mode == PadMode::Reflect {
            // ONNX's refusals: a pad above k - 1 (which a padded axis shorter than 2
            // always has)
            let last = e.op("Sub", &[&k, one]);
            for v in [&begin, &end] {
                let padding = e.op("Less", &[zero, v]);
                let wide = e.op("Less", &[&last, v]);
                let wide = e.flag(&wide);
                flags.push(e.op("Where", &[&padding, &wide, zero]));
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
    d: &str,
    (r, known): (String, Option<i64>),
    zero: &str,
    flags: &mut Vec<String>,
) -> Result<(String, String), LowerError> {
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
    let gaps = e.op("Sub", &[d, &fresh]);
    let gaps = e.relu(&gaps, zero);
    // (r at least 1 to divide by: a product by 0 cannot wrap)
    let short = e.op("Less", &[&r, &fresh]);
    let divisor = e.op("Where", &[&short, &fresh, &r]);
    let most = e.op("Div", &[&max, &divisor]);
    let over = e.op("Less", &[&most, &gaps]);
    flags.push(e.flag(&over));
    let gaps = e.op("Mul", &[&gaps, &r]);
    let room = e.op("Sub", &[&max, d]);
    let over = e.op("Less", &[&room, &gaps]);
    flags.push(e.flag(&over));
    Ok((e.op("Add", &[d, &gaps]), r))
}

/// Onto `flags`, those of the output as a whole: its element count (in double precision:
/// no overflow) above `limit`, and an index map longer than padkit-lower's cap where the
/// output is empty (its extents may be anything; nothing is read).
fn size_flags(
    e: &mut Emitter<'_>,
    pad: &Pad,
    extents: &[Extent],
    extent: &DataExtent,
    limit: Option<u64>,
    flags: &mut Vec<String>,
) {
    let double = [("to", DType::Float64.onnx_code() as i64)];
    let mut count = e.constant(&Tensor::from_slice(&[], &[1.0f64]).expect("a double"));
    for axis in 0..pad.shape.len() {
        let n = match extents.iter().find(|x| x.axis == axis) {
            Some(x) => x.n.clone(),
            None => extent.of(e, pad, axis),
        };
        let n = e.op_with("Cast", &[&n], &double);
        count = e.op("Mul", &[&count, &n]);
    }
    if let Some(limit) = limit {
        let width = pad.dtype.storage_bytes(1).unwrap_or(1) as f64;
        let limit =
            e.constant(&Tensor::from_slice(&[], &[limit as f64 / width]).expect("a double"));
        let above = e.op("Less", &[&limit, &count]);
        flags.push(e.flag(&above));
    }
    let nothing = e.constant(&Tensor::from_slice(&[], &[0.0f64]).expect("a double"));
    let empty = e.op("Equal", &[&count, &nothing]);
    let cap = e.int64(MAX_MAP_LEN as i64);
    for x in extents {
        let long = e.op("Less", &[&cap, &x.n]);
        let long = e.flag(&long);
        let zero = e.int64(0);
        flags.push(e.op("Where", &[&empty, &long, &zero]));
    }
}

/// `value` gathered along padded axis `x` by its map, past the guard `checked`.
fn gather_axis(
    e: &mut Emitter<'_>,
    pad: &Pad,
    value: &str,
    x: Extent,
    checked: &str,
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
    let n = e.op("Add", &[&n, checked]);
    let o = e.op("Range", &[zero, &n, one]);
    // Past the guard, what follows cannot wrap: in the index modes the checks bound both
    // pads by the extents; in constant mode a pad before the data may be near i64::MIN
    // (made up for by the one after), and every position it puts past the data's spread
    // reads fill, so it is raised to minus the spread.
    let i = match pad.mode {
        PadMode::Constant => {
            let spread = spread.as_ref().map_or(&d, |s| &s.0);
            let least = e.op("Sub", &[zero, spread]);
            let under = e.op("Less", &[&begin, &least]);
            let begin = e.op("Where", &[&under, &least, &begin]);
            e.op("Sub", &[&o, &begin])
        }
        _ => e.op("Sub", &[&o, &begin]),
    };
    let (data, index) = if pad.mode != PadMode::Constant {
        let neg_begin = e.op("Sub", &[zero, &begin]);
        let s = e.relu(&neg_begin, zero);
        let neg_end = e.op("Sub", &[zero, &end]);
        let cut_end = e.relu(&neg_end, zero);
        let k = e.op("Sub", &[&d, &s]);
        let k = e.op("Sub", &[&k, &cut_end]);
        let j = e.op("Sub", &[&i, &s]);
        let r = e.window_position(pad.mode, &j, &k, &begin, (zero, one));
        (value.to_string(), e.op("Add", &[&s, &r]))
    } else {
        // positions outside [0, d) read the plane of fill joined at d
        let plane = e.fill_like(value, pad.shape.len(), axis, 1, &pad.fill);
        let data = e.concat(vec![value.to_string(), plane], axis);
        let below = e.op("Less", &[&i, zero]);
        let index = match &spread {
            None => {
                let index = e.op("Where", &[&below, &d, &i]);
                let inside = e.op("Less", &[&index, &d]);
                e.op("Where", &[&inside, &index, &d])
            }
            Some((spread, r)) => {
                // interior padding: the data sit every r + 1 positions of the spread
                let step = e.op("Add", &[r, one]);
                let at = e.relu(&i, zero);
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
    e.gather_by(&data, axis, &index)
}

/// No axis is padded (axes known and empty, or a rank-0 tensor): the rules on the pads and
/// axes as a whole still guard the output, which reads the data through positions offset
/// by the guard `checked` (0, or a run-time error).
fn unpadded(
    e: &mut Emitter<'_>,
    pad: &Pad,
    value: &str,
    extent: &DataExtent,
    checked: &str,
    Ints { zero, one }: &Ints,
) -> String {
    if pad.shape.is_empty() {
        let single = e.int64s(1);
        let single = e.op("Reshape", &[value, &single]);
        e.op("Gather", &[&single, checked])
    } else {
        let d = extent.of(e, pad, 0);
        let o = e.op("Range", &[zero, &d, one]);
        let index = e.op("Add", &[&o, checked]);
        e.gather_by(value, 0, &index)
    }
}

/// One padded axis of a Pad lowered here, as graph values: its extent `d`, its pads, its
/// output extent `n` (exact wherever the checks pass), and with interior padding the
/// extent it spreads the data over and the interior padding.
struct Extent {
    axis: usize,
    d: String,
    begin: String,
    end: String,
    n: String,
    spread: Option<(String, String)>,
}

/// The int64 arithmetic the maps are written in: graph values of int64 scalars and 0/1
/// flags, named as the module doc names them.
impl Emitter<'_> {
    /// An int64 scalar constant.
    fn int64(&mut self, v: i64) -> String {
        self.constant(&Tensor::from_slice(&[], &[v]).expect("an int64 scalar"))
    }

    /// A one-element 1-D int64 constant.
    fn int64s(&mut self, v: i64) -> String {
        self.constant(&Tensor::from_slice(&[1], &[v]).expect("one int64"))
    }

    /// `max(0, v)` of the int64 value `v` (`zero` an int64 0).
    fn relu(&mut self, v: &str, zero: &str) -> String {
        let negative = self.op("Less", &[v, zero]);
        self.op("Where", &[&negative, zero, v])
    }

    /// The int64 flag (1 or 0) of the bool graph value `cond`: ONNX Runtime's `Where`
    /// takes no bool values, so conditions are combined as int64.
    fn flag(&mut self, cond: &str) -> String {
        let (one, zero) = (self.int64(1), self.int64(0));
        self.op("Where", &[cond, &one, &zero])
    }

    /// How many entries of the bool tensor `cond` are `bad` (0 when none is).
    fn count(&mut self, cond: &str, bad: bool) -> String {
        let flags = self.flag(cond);
        let flags = match bad {
            true => flags,
            false => {
                let one = self.int64(1);
                self.op("Sub", &[&one, &flags])
            }
        };
        self.op_with("ReduceSum", &[&flags], &[("keepdims", 0)])
    }

    /// The flag of `a + b` having wrapped into `sum`: terms of one sign, a sum of the other.
    fn wraps(&mut self, a: &str, b: &str, sum: &str) -> String {
        let zero = self.int64(0);
        let sign = |e: &mut Self, v: &str| {
            let negative = e.op("Less", &[v, &zero]);
            e.flag(&negative)
        };
        let (a, b, sum) = (sign(self, a), sign(self, b), sign(self, sum));
        let alike = self.op("Equal", &[&a, &b]);
        let kept = self.op("Equal", &[&a, &sum]);
        let (one, none) = (self.int64(1), self.int64(0));
        let flipped = self.op("Where", &[&kept, &none, &one]);
        self.op("Where", &[&alike, &flipped, &none])
    }

    /// 0, or a run-time error where any of `flags` (int64 0 or 1) is 1: a `Gather` from a
    /// one-element tensor at the flags' sum, which is out of range unless it is 0. ONNX
    /// Runtime and candle-onnx refuse it with an error; stock tract 0.23.9 panics on it (its
    /// Gather indexes without a check), which padkit's CLI reports as tract's error. (A
    /// `Reshape` to a computed shape would be refused everywhere, but tract takes no shape
    /// computed at run time.)
    fn guard(&mut self, flags: Vec<String>) -> String {
        let (zero, one) = (self.int64(0), self.int64(1));
        let Some((first, rest)) = flags.split_first() else {
            return zero;
        };
        let mut sum = first.clone();
        for f in rest {
            sum = self.op("Add", &[&sum, f]);
        }
        let raised = self.op("Less", &[&zero, &sum]);
        let at = self.op("Where", &[&raised, &one, &zero]);
        let nothing = self.constant(&Tensor::from_slice(&[1], &[0i64]).expect("one int64"));
        self.op("Gather", &[&nothing, &at])
    }

    /// The position in the window `[0, k)` each position `j` (relative to the window's start;
    /// `begin` the pad before it) reads in index `mode`: edge clamps; reflect, symmetric and
    /// wrap fold `j` with their mirror's period (`2(k-1)`, `2k`, `k`), made non-negative
    /// first by a multiple of the period, as `Div` of non-negative numbers floors.
    fn window_position(
        &mut self,
        mode: PadMode,
        j: &str,
        k: &str,
        begin: &str,
        (zero, one): (&str, &str),
    ) -> String {
        let e = self;
        let last = e.op("Sub", &[k, one]);
        if mode == PadMode::Edge {
            let t = e.relu(j, zero);
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
        let ahead = e.relu(begin, zero);
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
}
