//! How a Pad is lowered, picked from what is known of it when the model is read: kept as
//! it is where the target runs it right, an index map known now where every extent is,
//! borders counted from either end of axes known only at run time, or maps computed in
//! the graph where the pads or axes are.

use padkit::spec::AxisPad;
use padkit::{DType, PadMode, PadSpec};

use crate::read::Pad;
use crate::target::KnownPad;
use crate::{LowerError, MAX_MAP_LEN, Options, Target};
use padkit::onnx::Given;

/// What a Pad becomes.
pub(crate) enum Strategy {
    /// Left as it is: the target runs it as padkit's core computes it. Its output's
    /// extents.
    Keep(Vec<Option<usize>>),
    /// Every extent known ([`crate::known_map`]): each padded axis of `shape` becomes
    /// `out`'s, as `axes` say.
    KnownMap {
        shape: Vec<usize>,
        axes: Vec<AxisPad>,
        out: Vec<usize>,
    },
    /// Some extents known only at run time, each such axis only padded
    /// ([`crate::borders`]); the output's extents, where known.
    Borders {
        axes: Vec<AxisPad>,
        out: Vec<Option<usize>>,
    },
    /// Index maps computed in the graph ([`crate::computed_map`]).
    ComputedMap(Computed),
}

/// A Pad whose index maps are computed in the graph: its pads, axes and interior padding.
pub(crate) struct Computed {
    /// `2 m` values over the padded axes.
    pub(crate) pads: Given<Vec<i64>, String>,
    /// The padded axes, normalized where known.
    pub(crate) axes: Given<Vec<usize>, String>,
    /// Interior padding per padded axis (known when the model is read).
    pub(crate) interior: Option<Vec<i64>>,
    /// ONNX's refusals in reflect mode checked too ([`Options::strict_onnx`]).
    pub(crate) strict_onnx: bool,
}

impl Strategy {
    /// The extents of the Pad's output, where known when the model is read.
    pub(crate) fn out(&self, shape: &[Option<usize>]) -> Vec<Option<usize>> {
        match self {
            Strategy::Keep(out) | Strategy::Borders { out, .. } => out.clone(),
            Strategy::KnownMap { out, .. } => out.iter().copied().map(Some).collect(),
            Strategy::ComputedMap(c) => match &c.axes {
                // each padded axis is computed at run time
                Given::Known(axes) => (shape.iter().enumerate())
                    .map(|(axis, &d)| d.filter(|_| !axes.contains(&axis)))
                    .collect(),
                Given::Fed(_) => vec![None; shape.len()],
            },
        }
    }
}

/// Why the options' target refuses `pad`, lowered by `strategy`, where it does: a constant
/// fill its runtime holds in no op, or index maps computed at run time, which it does not
/// run. Raised once every Pad is lowered ([`crate::session::Session::refuse`]), so that a
/// bad Pad is refused with its own error, as the portable lowering refuses it.
pub(crate) fn target_refusal(
    pad: &Pad,
    strategy: &Strategy,
    options: &Options,
) -> Option<LowerError> {
    if let (PadMode::Constant, Given::Known(fill)) = (pad.mode, &pad.fill)
        && let Some(why) = options.target.unheld_fill(pad.dtype, fill.data())
    {
        return Some(pad.refuse(why));
    }
    let why = options.target.refuses_computed_maps()?;
    matches!(strategy, Strategy::ComputedMap(_)).then(|| {
        pad.refuse(format!(
            "its index maps would be computed at run time, and {why}"
        ))
    })
}

/// How `pad` is lowered for `options`, in a model whose default opset is `opset`.
///
/// # Errors
///
/// The Pad's own errors where padkit's core refuses it on what is known, and
/// [`LowerError::NotLowered`] where no strategy writes it at `opset`.
pub(crate) fn strategy(pad: &Pad, opset: i64, options: &Options) -> Result<Strategy, LowerError> {
    let rank = pad.shape.len();
    let Some(spec) = pad.spec() else {
        // pads or axes known only at run time: index maps computed in the graph
        let axes = match &pad.axes {
            Some(Given::Fed(name)) => Given::Fed(name.clone()),
            Some(Given::Known(axes)) => {
                Given::Known(padkit::spec::normalize_axes(axes, rank).map_err(|e| pad.fail(e))?)
            }
            None => Given::Known((0..rank).collect()),
        };
        let strict = options.strict_onnx;
        return computed(
            pad,
            opset,
            pad.pads.clone(),
            axes,
            pad.interior.clone(),
            strict,
        );
    };
    let spec = spec.with_strict_onnx(options.strict_onnx);
    if let Some(out) = kept(pad, &spec, options) {
        return Ok(Strategy::Keep(out));
    }
    if opset < 1 {
        return Err(pad.refuse(
            "the model imports no opset of the default ONNX domain, whose ops the lowering \
             writes"
                .into(),
        ));
    }
    let axes = spec.resolve(rank).map_err(|e| pad.fail(e))?;
    // ONNX Runtime 1.32 gathers strings wrong along any axis but the last (one string per
    // block): before opset 10 every slice written is a `Gather`, so Pads of strings
    // that slice or map such an axis are refused there rather than lowered wrong.
    if pad.dtype == DType::String && opset < 10 {
        let sliced = axes.iter().enumerate().find(|(axis, p)| {
            axis + 1 < rank
                && !p.is_identity()
                && (spec.mode != PadMode::Constant || p.begin < 0 || p.end < 0 || p.interior != 0)
        });
        if let Some((axis, _)) = sliced {
            return Err(pad.refuse(format!(
                "axis {axis}: before opset 10 its strings would be read by a Gather, which \
                 ONNX Runtime gets wrong along any axis but the last"
            )));
        }
    }
    let Some(shape) = pad.shape.iter().copied().collect::<Option<Vec<usize>>>() else {
        return run_time_extents(pad, opset, axes, spec.strict_onnx);
    };
    let out = padkit::output_shape(&shape, &spec).map_err(|e| pad.fail(e))?;
    check_size(&out, pad.dtype, options.max_output_bytes).map_err(|e| pad.fail(e))?;
    Ok(Strategy::KnownMap { shape, axes, out })
}

/// The output extents of `pad` (padded by `spec`) where the options' target keeps the node
/// as it is ([`crate::Target`]): only a Pad that padkit's core accepts on the extents known
/// when the model is read, within the output limit, so that every target refuses a bad Pad
/// as the portable lowering does (a Pad the portable lowering cannot write, an index map
/// above [`MAX_MAP_LEN`] say, a target may keep).
fn kept(pad: &Pad, spec: &PadSpec, options: &Options) -> Option<Vec<Option<usize>>> {
    if options.target == Target::Portable {
        return None;
    }
    let axes = spec.resolve(pad.shape.len()).ok()?;
    // (strict ONNX semantics in reflect mode: kept only where checked on every extent)
    if spec.strict_onnx && spec.mode == PadMode::Reflect {
        let shape = pad.shape.iter().copied().collect::<Option<Vec<usize>>>()?;
        padkit::output_shape(&shape, spec).ok()?;
    }
    // each known extent as the core computes it; an unknown one stays unknown
    let out = (pad.shape.iter().zip(&axes).enumerate())
        .map(|(axis, (d, a))| match d {
            Some(d) => padkit::shape::axis_output(axis, d, a, spec.mode)
                .ok()
                .map(Some),
            None => Some(None),
        })
        .collect::<Option<Vec<Option<usize>>>>()?;
    if let Some(known) = out.iter().copied().collect::<Option<Vec<usize>>>() {
        check_size(&known, pad.dtype, options.max_output_bytes).ok()?;
    }
    let node = pad.node;
    let facts = KnownPad {
        onnx_pad: pad.onnx_pad,
        node_opset: pad.node_opset,
        mode: spec.mode,
        dtype: pad.dtype,
        shape: pad.shape.clone(),
        axes,
        inputs: node.input.len(),
        fill: match &pad.fill {
            Given::Known(t) => Some(t.data().clone()),
            Given::Fed(_) => None,
        },
        value_input: pad.value_input,
        value_attribute: node.attribute.iter().any(|a| a.name == "value"),
    };
    options.target.keeps(&facts).then_some(out)
}

/// A Pad of data whose shape is known only in part: every axis whose extent is known only
/// at run time must be padded, not cropped nor interior-padded, so that its output is the
/// data joined with two borders whatever its extent ([`crate::borders`], from opset 11);
/// else its index maps are computed in the graph.
fn run_time_extents(
    pad: &Pad,
    opset: i64,
    axes: Vec<AxisPad>,
    strict: bool,
) -> Result<Strategy, LowerError> {
    let (shape, mode) = (&pad.shape, pad.mode);
    // Crops and interior padding of an axis whose extent is known only at run time (where
    // its exact index map is not made here), and, with strict ONNX semantics, reflect pads
    // of such an axis (checked at run time): the maps computed at run time instead.
    let strict = strict && mode == PadMode::Reflect;
    let computed_here = axes.iter().enumerate().any(|(axis, p)| {
        let mapped = shape[axis].is_some() && mode != PadMode::Constant;
        let pads = p.begin > 0 || p.end > 0;
        !p.is_identity()
            && !mapped
            && (p.begin < 0 || p.end < 0 || p.interior != 0 || (strict && pads))
    });
    if computed_here && opset >= 11 {
        let begins = axes.iter().map(|p| p.begin);
        let ends = axes.iter().map(|p| p.end);
        let pads = Given::Known(begins.chain(ends).collect());
        let interior = Some(axes.iter().map(|p| p.interior).collect());
        return computed(
            pad,
            opset,
            pads,
            Given::Known((0..shape.len()).collect()),
            interior,
            strict,
        );
    }
    if opset < 11 {
        return Err(pad.refuse(format!(
            "the shape of its data {:?} is known only at run time, and before opset 11 \
             Gather counts no positions from the end",
            pad.x
        )));
    }
    // (the borders are `Gather`s, which ONNX Runtime 1.32 gets wrong for strings along
    // any axis but the last)
    let gathered = axes.iter().enumerate().find(|(axis, p)| {
        pad.dtype == DType::String
            && mode != PadMode::Constant
            && axis + 1 < shape.len()
            && shape[*axis].is_none()
            && !p.is_identity()
    });
    if let Some((axis, _)) = gathered {
        return Err(pad.refuse(format!(
            "axis {axis}: its extent is known only at run time, and its borders of strings \
             would be read by a Gather, which ONNX Runtime gets wrong along any axis but the last"
        )));
    }
    let mut out = shape.clone();
    for (axis, p) in axes.iter().enumerate() {
        if p.is_identity() {
            continue;
        }
        // An axis whose extent is known takes its exact index map (index modes; constant
        // mode pads alike whatever the extent); the others only pad.
        let mapped = out[axis].is_some() && mode != PadMode::Constant;
        let widest = p.begin.max(p.end);
        if mode != PadMode::Constant && widest > MAX_MAP_LEN as i64 {
            return Err(pad.refuse(format!(
                "axis {axis}: its border of {widest} positions is above padkit-lower's \
                 limit of {MAX_MAP_LEN}"
            )));
        }
        if let Some(d) = out[axis] {
            let n = padkit::shape::axis_output(axis, &d, p, mode).map_err(|e| pad.fail(e))?;
            if let (true, Ok(d)) = (strict, i64::try_from(d)) {
                padkit::shape::check_strict_onnx(axis, d, p, mode).map_err(|e| pad.fail(e))?;
            }
            if mapped {
                pad.check_map_len(axis, n)?;
            }
            out[axis] = Some(n);
        }
    }
    Ok(Strategy::Borders { axes, out })
}

/// Index maps computed in the graph, from opset 11 (where `Range` is), for numbers only.
fn computed(
    pad: &Pad,
    opset: i64,
    pads: Given<Vec<i64>, String>,
    axes: Given<Vec<usize>, String>,
    interior: Option<Vec<i64>>,
    strict_onnx: bool,
) -> Result<Strategy, LowerError> {
    let refuse = |why: &str| {
        Err(pad.refuse(format!(
            "its pads or axes are computed at run time, and {why}"
        )))
    };
    if opset < 11 {
        return refuse("before opset 11 ONNX has no Range to compute index maps with");
    }
    if matches!(
        pad.dtype,
        DType::String | DType::Complex64 | DType::Complex128
    ) {
        return refuse("padkit-lower gathers no strings or complex numbers by computed maps");
    }
    Ok(Strategy::ComputedMap(Computed {
        pads,
        axes,
        interior,
        strict_onnx,
    }))
}

/// Refuses an output of `shape` and `dtype` above `limit` bytes, or `isize::MAX`.
fn check_size(shape: &[usize], dtype: DType, limit: Option<u64>) -> padkit::Result<()> {
    padkit::shape::check_output_size(shape, dtype.element_bits(), limit).map(|_| ())
}
