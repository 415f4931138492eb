//! Streaming with tract-pulse (feature `pulse`): a pulsifier for [`PadkitPad`], so that
//! `PulsedModel::new` streams models holding padkit's Pad as it streams tract-core's.
//!
//! On the streaming axis a Pad becomes, in order:
//! - a crop (negative pads): tract-pulse's `PulsedAxisSlice`, which skips the cropped
//!   frames by delay and shortens the stream;
//! - constant and edge pads: a `Delay` and tract-pulse's `PulsePad`, wired as tract-pulse
//!   wires them for tract-core's Pad, so the stream and its delay are the same as stock;
//! - reflect and symmetric pads: [`PulseMirrorPad`], which keeps the frames a mirrored
//!   border reads and delays the stream by the border's width;
//! - wrap: refused (its first frames are the end of the stream).
//!
//! Pads of the other axes stay a [`PadkitPad`], which pads every pulse alike.

use std::sync::Once;

use padkit::PadMode;
use tract_core::ops::array::PadMode as CoreMode;
use tract_pulse::internal::*;
use tract_pulse::model::PulsedModel;
use tract_pulse::ops::OpPulsifier;
use tract_pulse::{PulsedOp, pulsed_op_to_typed_op};
use tract_pulse_opl::ops::{Delay, PulsePad, PulsedAxisSlice};

use crate::PadkitPad;

/// Registers padkit's pulsifier with tract-pulse (once per process; later calls do
/// nothing). [`crate::onnx`] and [`crate::register`] call it with the `pulse` feature; a
/// model built without them needs this call before `PulsedModel::new`.
///
/// # Errors
///
/// When tract-pulse's pulsifier table cannot be locked (another thread panicked while
/// holding it).
///
/// ```
/// padkit_tract::pulse::register().unwrap();
/// ```
pub fn register() -> TractResult<()> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| result = OpPulsifier::register::<PadkitPad>(pulsify));
    result
}

fn pulsify(
    _source: &TypedModel,
    node: &TypedNode,
    target: &mut PulsedModel,
    mapping: &HashMap<OutletId, OutletId>,
    _symbol: &Symbol,
    _pulse: &TDim,
) -> TractResult<Option<TVec<OutletId>>> {
    let op = node
        .op_as::<PadkitPad>()
        .context("padkit's pulsifier on another op")?;
    let mut wire = mapping[&node.inputs[0]];
    let fact = target.outlet_fact(wire)?.clone();
    let Some(stream) = fact.stream.clone() else {
        return Ok(None);
    };
    let refuse = |why: String| format_err!("Pad node {:?}: {why}", op.node);
    let pairs = op
        .known_pairs()
        .ok_or_else(|| refuse("pads or axes read at run time cannot be pulsified".into()))?;
    let pair = |(b, e): &(TDim, TDim)| Some((b.to_i64().ok()?, e.to_i64().ok()?));
    let (begin, end) = pair(&pairs[stream.axis]).ok_or_else(|| {
        refuse(format!(
            "symbolic pads {:?} on the streaming axis {} cannot be pulsified",
            pairs[stream.axis], stream.axis
        ))
    })?;
    if (begin, end) == (0, 0) {
        // tract-pulse wraps an op that leaves the streaming axis alone.
        return Ok(None);
    }
    if op.mode == PadMode::Wrap {
        return Err(refuse(format!(
            "wrap padding of the streaming axis {} cannot be pulsified: its first frames are \
             the last frames of the stream",
            stream.axis
        )));
    }
    let name = &*node.name;
    let (crop_begin, crop_end) = (begin.min(0).unsigned_abs(), end.min(0).unsigned_abs());
    let (before, after) = (begin.max(0).unsigned_abs(), end.max(0).unsigned_abs());
    let (before, after) = (to_usize(before)?, to_usize(after)?);
    if crop_begin + crop_end > 0 {
        let take = stream.dim.clone() - to_usize(crop_begin)? - to_usize(crop_end)?;
        let crop = PulsedAxisSlice {
            axis: stream.axis,
            skip: to_usize(crop_begin)?,
            take,
        };
        wire = target.wire_node(format!("{name}.crop"), crop, &[wire])?[0];
    }
    let others_padded = pairs
        .iter()
        .enumerate()
        .any(|(ax, p)| ax != stream.axis && *p != (TDim::Val(0), TDim::Val(0)));
    let last = |suffix: &str| {
        if others_padded {
            format!("{name}.{suffix}")
        } else {
            name.to_string()
        }
    };
    if before + after > 0 {
        wire = match op.mode {
            PadMode::Constant | PadMode::Edge => {
                let mode = match op.mode {
                    PadMode::Edge => CoreMode::Edge,
                    _ => {
                        let dt = fact.datum_type;
                        let value = op.known_value(dt)?.ok_or_else(|| {
                            refuse("a constant read at run time cannot be pulsified".into())
                        })?;
                        CoreMode::Constant(value)
                    }
                };
                pulse_pad(target, &last("stream"), wire, before, after, mode)
                    .map_err(|e| refuse(format!("{e:#}")))?
            }
            PadMode::Reflect | PadMode::Symmetric => {
                let cropped = target.outlet_fact(wire)?.clone();
                let mirror = PulseMirrorPad::new(op.mode, &cropped, stream.axis, before, after)?;
                target.wire_node(last("stream"), mirror, &[wire])?[0]
            }
            PadMode::Wrap => unreachable!("refused above"),
        };
    }
    if others_padded {
        let mut others = pairs.clone();
        others[stream.axis] = (TDim::Val(0), TDim::Val(0));
        let shape = target.outlet_fact(wire)?.shape.to_tvec();
        let rest = op.with_pairs(&others, shape);
        let mut inputs = tvec![wire];
        inputs.extend(node.inputs[1..].iter().map(|i| mapping[i]));
        wire = target.wire_node(name, rest, &inputs)?[0];
    }
    Ok(Some(tvec![wire]))
}

fn to_usize(n: u64) -> TractResult<usize> {
    usize::try_from(n).context("pad too large for this machine")
}

/// A constant or edge pad of the streaming axis as tract-pulse wires tract-core's Pad: a
/// `Delay` where the input's delay is too short for the left border (and, for edge, to
/// put the first frame in the same pulse as the border), then a `PulsePad`.
fn pulse_pad(
    target: &mut PulsedModel,
    name: &str,
    mut wire: OutletId,
    before: usize,
    after: usize,
    mode: CoreMode,
) -> TractResult<OutletId> {
    let fact = target.outlet_fact(wire)?.clone();
    let stream = fact.stream.clone().context("a streaming input")?;
    let mut extra_delay = before.saturating_sub(stream.delay);
    if let CoreMode::Edge = mode {
        let pulse = fact
            .pulse()
            .context("a streaming input")?
            .to_usize()
            .map_err(|_| {
                format_err!("edge padding of the streaming axis needs a concrete pulse")
            })?;
        ensure!(
            before < pulse,
            "edge padding of the streaming axis needs a pulse longer than the left border \
             (pulse {pulse}, border {before})"
        );
        let start_offset = (stream.delay + extra_delay) % pulse;
        if before > start_offset {
            extra_delay += before - start_offset;
        }
    }
    if extra_delay > 0 {
        let delay = Delay::new_typed(&(&fact).into(), stream.axis, extra_delay, 0);
        wire = target.wire_node(format!("{name}.delay"), delay, &[wire])?[0];
    }
    let pad = PulsePad {
        axis: stream.axis,
        before,
        after: after.into(),
        begin_input: stream.delay + extra_delay,
        end_input: stream.delay.to_dim() + extra_delay + &stream.dim,
        mode,
        overlap: 0,
    };
    Ok(target.wire_node(name, pad, &[wire])?[0])
}

/// A padkit Pad that leaves the streaming axis alone pads every pulse as it pads the
/// whole stream.
impl PulsedOp for PadkitPad {
    fn pulsed_output_facts(&self, inputs: &[&PulsedFact]) -> TractResult<TVec<PulsedFact>> {
        let typed: TVec<TypedFact> = inputs.iter().map(|f| f.to_pulse_fact()).collect();
        let refs: TVec<&TypedFact> = typed.iter().collect();
        let out = self.output_facts(&refs)?.remove(0);
        Ok(tvec![PulsedFact {
            datum_type: out.datum_type,
            shape: out.shape,
            stream: inputs[0].stream.clone(),
        }])
    }

    as_op!();
    pulsed_op_to_typed_op!();
}

/// A reflect or symmetric pad of the streaming axis, pulse by pulse.
///
/// Output frame `j` of the padded stream reads input frame `source(j)`; the left border
/// reads ahead of it (reflect: output frame 0 is input frame `before`), so the output
/// lags the input by the border's width (reflect `2 × before`, symmetric
/// `2 × before − 1`, counted against a constant pad's `before` frames ahead), and the op
/// keeps the input frames a later output frame still reads: the last `lag + 2 × after`.
/// The stream's length is read from the run's symbols when bound; unbound, the stream is
/// taken as endless (no right border).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PulseMirrorPad {
    /// Reflect or symmetric.
    pub mode: PadMode,
    /// The streaming axis.
    pub axis: usize,
    /// Frames padded before the stream.
    pub before: usize,
    /// Frames padded after the stream.
    pub after: usize,
    /// The input's delay: input frame `i` comes at stream position `i + input_delay`.
    pub input_delay: usize,
    /// The input stream's length.
    pub input_len: TDim,
    /// How far the output runs behind a constant pad's output.
    pub lag: usize,
}

impl PulseMirrorPad {
    fn new(
        mode: PadMode,
        fact: &PulsedFact,
        axis: usize,
        before: usize,
        after: usize,
    ) -> TractResult<PulseMirrorPad> {
        let stream = fact.stream.as_ref().context("a streaming input")?;
        let lag = match mode {
            PadMode::Reflect => 2 * before,
            _ => (2 * before).saturating_sub(1),
        };
        Ok(PulseMirrorPad {
            mode,
            axis,
            before,
            after,
            input_delay: stream.delay,
            input_len: stream.dim.clone(),
            lag,
        })
    }

    /// The output's delay: output frame `j` comes at stream position `j + output_delay`.
    fn output_delay(&self) -> usize {
        self.input_delay + self.lag - self.before
    }

    /// How many input frames the op keeps from one pulse to the next.
    fn history(&self) -> usize {
        self.lag + 2 * self.after
    }

    /// The input frame that output frame `j` (of `before + len + after`) reads, numpy's
    /// way: borders wider than the stream mirror it again. `len` is not 0.
    fn source(&self, j: usize, len: Option<usize>) -> usize {
        let i = j as i128 - self.before as i128;
        let reflect = self.mode == PadMode::Reflect;
        match len {
            Some(1) if reflect => 0,
            Some(len) => {
                let len = len as i128;
                let period = if reflect { 2 * (len - 1) } else { 2 * len };
                let m = i.rem_euclid(period);
                let folded = if m < len {
                    m
                } else if reflect {
                    period - m
                } else {
                    period - 1 - m
                };
                folded as usize
            }
            None if i >= 0 => i as usize,
            None if reflect => (-i) as usize,
            None => (-i - 1) as usize,
        }
    }
}

impl Op for PulseMirrorPad {
    fn name(&self) -> StaticName {
        "PulseMirrorPad".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!(
            "{} axis {}, before {}, after {}, input delay {}, lag {}",
            self.mode, self.axis, self.before, self.after, self.input_delay, self.lag
        )])
    }

    op_as_typed_op!();
}

impl EvalOp for PulseMirrorPad {
    not_out_of_plan!();

    fn state(&self, _ctx: &EvalContext) -> TractResult<Option<Box<dyn OpState>>> {
        Ok(Some(Box::<MirrorState>::default()))
    }
}

impl TypedOp for PulseMirrorPad {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        Ok(tvec![inputs[0].clone()])
    }

    as_op!();
}

impl PulsedOp for PulseMirrorPad {
    fn pulsed_output_facts(&self, inputs: &[&PulsedFact]) -> TractResult<TVec<PulsedFact>> {
        let mut fact = inputs[0].clone();
        let stream = fact.stream.as_mut().context("a streaming input")?;
        stream.dim = stream.dim.clone() + self.before + self.after;
        stream.delay = self.output_delay();
        Ok(tvec![fact])
    }

    as_op!();
    pulsed_op_to_typed_op!();
}

/// The input frames kept from earlier pulses, and where the next pulse starts.
#[derive(Debug, Clone, Default)]
struct MirrorState {
    /// The last [`PulseMirrorPad::history`] input frames (zeros before the stream starts).
    kept: Option<Tensor>,
    /// The stream position of the next pulse's first frame.
    position: usize,
}

impl OpState for MirrorState {
    fn eval(
        &mut self,
        ctx: &EvalContext,
        op: &dyn Op,
        inputs: TVec<TValue>,
    ) -> TractResult<TVec<TValue>> {
        let op = op
            .downcast_ref::<PulseMirrorPad>()
            .context("PulseMirrorPad's state on another op")?;
        ensure!(
            ctx.seating.max_lanes() <= 1,
            "PulseMirrorPad streams one stream at a time, not {} lanes",
            ctx.seating.max_lanes()
        );
        let input = args_1!(inputs).into_tensor();
        let len = op.input_len.eval(ctx.symbols).to_usize().ok();
        let history = op.history();
        let kept = match self.kept.take() {
            Some(kept) => kept,
            None => {
                let mut shape: TVec<usize> = input.shape().into();
                shape[op.axis] = history;
                Tensor::zero_dt(input.datum_type(), &shape)?
            }
        };
        // `window` frame `w` is the frame at stream position `self.position - history + w`.
        let window = Tensor::stack_tensors(op.axis, &[kept, input])?;
        let pulse = window.shape()[op.axis] - history;
        let mut output = Tensor::zero_dt(window.datum_type(), &{
            let mut shape: TVec<usize> = window.shape().into();
            shape[op.axis] = pulse;
            shape
        })?;
        ensure!(
            len != Some(0) || op.before + op.after == 0,
            "PulseMirrorPad: a {} pad of an empty stream has nothing to mirror",
            op.mode
        );
        let padded_len = len.map(|len| op.before + len + op.after);
        for t in 0..pulse {
            let position = self.position + t;
            let Some(j) = position.checked_sub(op.output_delay()) else {
                continue;
            };
            if padded_len.is_some_and(|n| j >= n) {
                continue;
            }
            let at = op.source(j, len) + op.input_delay + history;
            let w = at.checked_sub(self.position).with_context(|| {
                format!("PulseMirrorPad: output frame {j} reads a frame it no longer keeps")
            })?;
            ensure!(
                w < history + pulse,
                "PulseMirrorPad: output frame {j} reads a frame that has not come yet"
            );
            output.assign_slice(t..t + 1, &window, w..w + 1, op.axis)?;
        }
        self.kept = Some(window.slice(op.axis, pulse, pulse + history)?);
        self.position += pulse;
        Ok(tvec![output.into_tvalue()])
    }

    fn reset_lanes(&mut self, _lanes: &[LaneId]) -> TractResult<()> {
        *self = MirrorState::default();
        Ok(())
    }
}
