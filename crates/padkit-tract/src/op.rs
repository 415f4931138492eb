//! The typed Pad op: padkit's kernel in tract's graph, with pads, value and axes known at
//! load time (possibly symbolic) or read from inputs at run time, and the typed-op surface
//! tract's optimiser works through: axes mappings, axis changes, symbol substitution.

use padkit::PadMode;
use padkit::onnx::Given;
use tract_core::ops::array::{Pad as CorePad, PadMode as CoreMode};
use tract_core::ops::cnn::{Conv, PaddingSpec};
use tract_hir::internal::*;

use crate::eval::{check_value, pad};
use crate::shape::{full_rank, symbolic_output_shape};

/// ONNX Pad on padkit's kernel.
///
/// Input 0 is the data; runtime operands follow as listed by their [`Given::Fed`].
/// Known pads are held for every axis (`axes` is then `Known(None)`), which is what the
/// optimiser's axis changes work on. When pads or axes are only known at run time the
/// output dims are fresh symbols that the plan binds as the op runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PadkitPad {
    /// The ONNX node's name, for error messages.
    pub node: String,
    /// The padding mode.
    pub mode: PadMode,
    /// ONNX-order pads `[b.., e..]` over `axes`.
    pub pads: Given<Vec<TDim>>,
    /// The padded axes (`None`: all).
    pub axes: Given<Option<Vec<i64>>>,
    /// The constant fill (`None`: zero of the data type).
    pub value: Given<Option<Arc<Tensor>>>,
    /// The output shape when the pads are known at load time; with runtime pads or axes,
    /// fresh symbols the plan binds as the op runs.
    pub output_shape: TVec<TDim>,
    /// The largest output this op writes, in bytes, refused before it is allocated
    /// (`None`: only outputs that cannot be allocated are refused); see
    /// [`limit_output_bytes`](crate::limit_output_bytes).
    pub max_output_bytes: Option<u64>,
    /// ONNX's refusals where padkit answers beyond ONNX (reflect wider than the axis, or of
    /// an axis shorter than 2, after crops): see [`strict_onnx`](crate::strict_onnx).
    pub strict_onnx: bool,
}

impl PadkitPad {
    /// Builds the op for the data at `data` in `model`, checking the pads against its
    /// shape and computing the output shape.
    ///
    /// # Errors
    ///
    /// - `data` is not an outlet of `model`;
    /// - a known `value` does not hold exactly one element;
    /// - with pads and axes both known, they break padkit's rules for the data's rank or
    ///   (where the pads and dims are numbers) its shape: the errors of
    ///   [`padkit::output_shape`], with the node's name.
    ///
    /// ```
    /// use padkit::PadMode;
    /// use padkit_tract::{Given, PadkitPad};
    /// use tract_hir::internal::*;
    /// let mut model = TypedModel::default();
    /// let x = model.add_source("x", f32::fact([2, 3])).unwrap();
    /// let pads = Given::Known(vec![1.into(), 2.into()]);
    /// let op = PadkitPad::new("p", PadMode::Wrap, pads, Given::Known(Some(vec![-1])), Given::Known(None), &model, x).unwrap();
    /// assert_eq!(op.output_shape, tvec![2.to_dim(), 6.to_dim()]);
    /// ```
    pub fn new(
        node: &str,
        mode: PadMode,
        pads: Given<Vec<TDim>>,
        axes: Given<Option<Vec<i64>>>,
        value: Given<Option<Arc<Tensor>>>,
        model: &TypedModel,
        data: OutletId,
    ) -> TractResult<PadkitPad> {
        let fact = model.outlet_fact(data)?;
        if let Given::Known(Some(v)) = &value {
            check_value(node, v)?;
        }
        let (output_shape, pads, axes) = match (pads, axes) {
            (Given::Known(p), Given::Known(a)) => {
                let shape = fact.shape.dims();
                let out = symbolic_output_shape(node, shape, &p, a.as_deref(), mode)?;
                let full = full_rank(shape.len(), &p, a.as_deref())?;
                (out, Given::Known(full), Given::Known(None))
            }
            (pads, axes) => {
                let fresh = (0..fact.rank())
                    .map(|_| TDim::from(model.symbols.new_with_prefix("pad")))
                    .collect();
                (fresh, pads, axes)
            }
        };
        Ok(PadkitPad {
            node: node.to_string(),
            mode,
            pads,
            axes,
            value,
            output_shape,
            max_output_bytes: None,
            strict_onnx: false,
        })
    }

    /// `(begin, end)` of every axis, when the pads are known for every axis.
    pub(crate) fn known_pairs(&self) -> Option<Vec<(TDim, TDim)>> {
        let (Given::Known(p), Given::Known(None)) = (&self.pads, &self.axes) else {
            return None;
        };
        let rank = p.len() / 2;
        Some(
            (0..rank)
                .map(|a| (p[a].clone(), p[rank + a].clone()))
                .collect(),
        )
    }

    /// The op with these per-axis pairs and output shape.
    pub(crate) fn with_pairs(&self, pairs: &[(TDim, TDim)], output_shape: TVec<TDim>) -> PadkitPad {
        let (begins, ends): (Vec<TDim>, Vec<TDim>) = pairs.iter().cloned().unzip();
        PadkitPad {
            pads: Given::Known([begins, ends].concat()),
            output_shape,
            ..self.clone()
        }
    }

    /// The pads as `(begin, end)` numbers of every axis, when they are known, concrete and
    /// not negative: the pads tract-core's `Pad` holds.
    fn usize_pairs(&self) -> Option<Vec<(usize, usize)>> {
        self.known_pairs()?
            .iter()
            .map(|(b, e)| {
                Some((
                    usize::try_from(b.to_i64().ok()?).ok()?,
                    usize::try_from(e.to_i64().ok()?).ok()?,
                ))
            })
            .collect()
    }

    /// The constant fill known at load time (zero of `dt` when the node has none).
    pub(crate) fn known_value(&self, dt: DatumType) -> TractResult<Option<Arc<Tensor>>> {
        Ok(match &self.value {
            Given::Known(Some(v)) => Some(v.clone()),
            Given::Known(None) => Some(Tensor::zero_scalar_dt(dt)?.into_arc_tensor()),
            Given::Fed(_) => None,
        })
    }

    /// tract-core's own Pad for this node, when it is one a following Conv absorbs.
    fn foldable_into_conv(
        &self,
        model: &TypedModel,
        node: &TypedNode,
    ) -> TractResult<Option<CorePad>> {
        rule_if!(node.inputs.len() == 1 && self.mode == PadMode::Constant);
        let fact = model.outlet_fact(node.inputs[0])?;
        rule_if!(fact.datum_type.is_number());
        rule_if_some!(value = self.known_value(fact.datum_type)?);
        rule_if!(value.is_zero().unwrap_or(false));
        rule_if_some!(pads = self.usize_pairs());
        let succs = &node.outputs[0].successors;
        rule_if!(succs.len() == 1);
        rule_if_some!(conv = model.node(succs[0].node).op_as::<Conv>());
        rule_if!(!matches!(
            conv.pool_spec.padding,
            PaddingSpec::ExplicitOnnxPool(..) | PaddingSpec::SameLower | PaddingSpec::SameUpper
        ));
        let shape = conv.pool_spec.data_format.shape(fact.shape.to_tvec())?;
        rule_if!(pads[shape.c_axis()] == (0, 0));
        rule_if!(!conv.pool_spec.data_format.has_n() || pads[0] == (0, 0));
        Ok(Some(CorePad::new(pads, CoreMode::Constant(value))))
    }

    /// tract-core's own Pad computing exactly what this node computes on `input`, where
    /// there is one: pads known, concrete and not negative; constant, reflect or edge mode;
    /// a plain number type; a constant known at load time and exact in `f32` (NNEF's `pad`
    /// carries it as one); reflect pads narrower than their axis and edge pads of non-empty
    /// axes (where padkit follows numpy or refuses, tract-core's Pad panics).
    pub(crate) fn stock_equivalent(
        &self,
        node: &TypedNode,
        input: &TypedFact,
    ) -> TractResult<Option<CorePad>> {
        rule_if!(node.inputs.len() == 1);
        let dt = input.datum_type;
        rule_if!(dt.is_number() && !dt.is_quantized());
        rule_if_some!(pads = self.usize_pairs());
        let mode = match self.mode {
            PadMode::Constant => {
                rule_if_some!(value = self.known_value(dt)?);
                rule_if!(exact_in_f32(&value)?);
                CoreMode::Constant(value)
            }
            PadMode::Reflect | PadMode::Edge => {
                for (&(b, e), d) in pads.iter().zip(input.shape.iter()) {
                    if b + e > 0 {
                        rule_if_some!(d = d.to_usize().ok());
                        rule_if!(d > b.max(e) || (self.mode == PadMode::Edge && d > 0));
                    }
                }
                if self.mode == PadMode::Reflect {
                    CoreMode::Reflect
                } else {
                    CoreMode::Edge
                }
            }
            PadMode::Wrap | PadMode::Symmetric => return Ok(None),
        };
        Ok(Some(CorePad::new(pads, mode)))
    }
}

/// True when the one-element `value` is a finite number that `f32` holds exactly.
fn exact_in_f32(value: &Tensor) -> TractResult<bool> {
    let dt = value.datum_type();
    Ok(if dt.is_float() {
        let x = value.cast_to_scalar::<f64>()?;
        x.is_finite() && f64::from(x as f32) == x
    } else if dt.is_signed() {
        value.cast_to_scalar::<i64>()?.unsigned_abs() <= 1 << f32::MANTISSA_DIGITS
    } else {
        value.cast_to_scalar::<u64>()? <= 1 << f32::MANTISSA_DIGITS
    })
}

impl Op for PadkitPad {
    fn name(&self) -> StaticName {
        "PadkitPad".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!(
            "mode: {}, pads: {:?}, axes: {:?}",
            self.mode, self.pads, self.axes
        )])
    }

    fn mints_runtime_symbols(&self) -> bool {
        matches!(self.pads, Given::Fed(_)) || matches!(self.axes, Given::Fed(_))
    }

    op_as_typed_op!();
}

impl EvalOp for PadkitPad {
    op_out_of_plan!();

    fn eval(&self, ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        Ok(tvec!(pad(self, ctx.symbols, &inputs)?.into_tvalue()))
    }
}

impl TypedOp for PadkitPad {
    /// With known pads the output shape follows the input's (tract rewires ops onto other
    /// shapes, e.g. when it pulls them out of a Scan body); with runtime pads it is the
    /// symbols minted for it. The datum type carries a quantized type's scale and zero
    /// point through the pad.
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        let shape = match &self.pads {
            Given::Known(p) if self.axes == Given::Known(None) => {
                symbolic_output_shape(&self.node, inputs[0].shape.dims(), p, None, self.mode)?
            }
            _ => self.output_shape.clone(),
        };
        if let Some(dims) = shape
            .iter()
            .map(|d| d.to_usize().ok())
            .collect::<Option<Vec<_>>>()
        {
            padkit::memory::check_strides(&dims).map_err(|e| crate::node_error(&self.node, e))?;
        }
        Ok(tvec!(inputs[0].datum_type.fact(shape)))
    }

    /// Unpadded axes map the input to the output; padded ones are not the same axis.
    fn axes_mapping(
        &self,
        inputs: &[&TypedFact],
        outputs: &[&TypedFact],
    ) -> TractResult<AxesMapping> {
        let mut mapping = AxesMapping::disconnected(inputs, outputs)?;
        for (ix, (b, e)) in self.known_pairs().unwrap_or_default().iter().enumerate() {
            if *b == TDim::Val(0) && *e == TDim::Val(0) {
                mapping = mapping.linking((InOut::In(0), ix), (InOut::Out(0), ix))?;
            }
        }
        Ok(mapping)
    }

    /// Axes added, removed (when unpadded) or moved around the pad (layout changes such as
    /// NCHW ↔ NHWC) move its pads with them.
    fn change_axes(
        &self,
        model: &TypedModel,
        node: &TypedNode,
        io: InOut,
        change: &AxisOp,
    ) -> TractResult<Option<AxisChangeConsequence>> {
        rule_if!(node.inputs.len() == 1 && matches!(io, InOut::In(0) | InOut::Out(0)));
        rule_if_some!(mut pairs = self.known_pairs());
        let unpadded = (TDim::Val(0), TDim::Val(0));
        match change {
            AxisOp::Add(ix) => pairs.insert(*ix, unpadded),
            AxisOp::Rm(ix) => {
                rule_if!(pairs.get(*ix) == Some(&unpadded));
                pairs.remove(*ix);
            }
            AxisOp::Move(from, to) => {
                rule_if!(*from < pairs.len() && *to < pairs.len());
                let moved = pairs.remove(*from);
                pairs.insert(*to, moved);
            }
            _ => return Ok(None),
        }
        let mut output_shape = self.output_shape.clone();
        change.change_shape_array(&mut output_shape, false)?;
        let op = self.with_pairs(&pairs, output_shape);
        Ok(Some(AxisChangeConsequence::new(
            model,
            node,
            Some(Box::new(op)),
            change,
        )))
    }

    /// Fixing a symbol (or replacing it by an expression) fixes it in the pads and the
    /// output shape too.
    fn set_symbols(
        &self,
        _source: &TypedModel,
        node: &TypedNode,
        target: &mut TypedModel,
        mapping: &HashMap<OutletId, OutletId>,
        subs: &HashMap<Symbol, TDim>,
    ) -> TractResult<TVec<OutletId>> {
        let sub = |d: &TDim| d.substitute_all(subs).map(TDim::simplify);
        let mut op = self.clone();
        op.output_shape = self
            .output_shape
            .iter()
            .map(sub)
            .collect::<TractResult<_>>()?;
        if let Given::Known(p) = &self.pads {
            op.pads = Given::Known(p.iter().map(sub).collect::<TractResult<_>>()?);
        }
        let inputs = node.inputs.iter().map(|i| mapping[i]).collect::<TVec<_>>();
        target.wire_node(&node.name, op, &inputs)
    }

    fn declutter(
        &self,
        model: &TypedModel,
        node: &TypedNode,
    ) -> TractResult<Option<TypedModelPatch>> {
        let nothing_to_do = node.inputs.len() == 1
            && self.known_pairs().is_some_and(|pairs| {
                pairs
                    .iter()
                    .all(|(b, e)| *b == TDim::Val(0) && *e == TDim::Val(0))
            });
        if nothing_to_do {
            return TypedModelPatch::shunt_one_op(model, node);
        }
        rule_if_some!(core = self.foldable_into_conv(model, node)?);
        Ok(Some(TypedModelPatch::replace_single_op(
            model,
            node,
            &node.inputs[..1],
            core,
        )?))
    }

    as_op!();
}
