//! The hir-level Pad: inference rules, and wiring into the typed [`PadkitPad`].

use padkit::onnx::{Given, Operand};
use padkit_onnx::pad_node::PadNode;
use tract_hir::internal::*;

use crate::op::PadkitPad;
use crate::shape::symbolic_output_shape;
use crate::types::{check_operand_type, onnx_type};

/// ONNX Pad as tract's inference model sees it: the node as padkit-onnx reads it
/// ([`PadNode`]: where each operand comes from), its fields read through this one.
///
/// `attr_*` are set for opsets below 11; `*_input` are tract input indices (empty ONNX
/// inputs dropped) of the optional inputs for 11+. Interior padding is refused by the
/// loader: the tract op does not run it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct OnnxPad(PadNode);

impl From<PadNode> for OnnxPad {
    fn from(pad: PadNode) -> Self {
        OnnxPad(pad)
    }
}

impl std::ops::Deref for OnnxPad {
    type Target = PadNode;

    fn deref(&self) -> &PadNode {
        &self.0
    }
}

impl OnnxPad {
    fn arity(&self) -> usize {
        1 + usize::from(self.pads.fed().is_some())
            + usize::from(matches!(self.value, Some(Given::Fed(_))))
            + usize::from(self.axes_input.is_some())
    }

    /// Pads known while analysing: the attribute, or input 1's value.
    fn known_pads(&self, value: Option<&Tensor>) -> TractResult<Option<Vec<TDim>>> {
        if let Given::Known(p) = &self.pads {
            return Ok(Some(p.iter().map(|&x| x.to_dim()).collect()));
        }
        let Some(t) = value else { return Ok(None) };
        if t.datum_type() == TDim::datum_type() {
            return Ok(Some(t.try_as_plain_ram()?.as_slice::<TDim>()?.to_vec()));
        }
        // Not through `cast_to::<TDim>`, which truncates large i64 values.
        let t = t.cast_to::<i64>()?;
        Ok(Some(
            t.try_as_plain_ram()?
                .as_slice::<i64>()?
                .iter()
                .map(|&x| x.to_dim())
                .collect(),
        ))
    }
}

impl Expansion for OnnxPad {
    fn name(&self) -> StaticName {
        "Pad".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!("mode: {}", self.mode)])
    }

    fn rules<'r, 'p: 'r, 's: 'r>(
        &'s self,
        s: &mut Solver<'r>,
        inputs: &'p [TensorProxy],
        outputs: &'p [TensorProxy],
    ) -> InferenceResult {
        check_input_arity(inputs, self.arity())?;
        check_output_arity(outputs, 1)?;
        s.equals(&inputs[0].datum_type, &outputs[0].datum_type)?;
        s.equals(&inputs[0].rank, &outputs[0].rank)?;
        if let Some(Given::Fed(v)) = self.value {
            s.given_2(
                &inputs[0].datum_type,
                &inputs[v].datum_type,
                move |_, data, value| {
                    check_operand_type(&self.node, Operand::ConstantValue, value, data)
                },
            )?;
        }
        s.given(&inputs[0].datum_type, move |_, dt| {
            match onnx_type(dt) {
                Some(dtype) => padkit::onnx::check_type(dtype, self.opset)
                    .map_err(|e| crate::node_error(&self.node, e)),
                None => Ok(()), // tract's own types (TDim, quantized): not ONNX's to check
            }
        })?;
        let operands = [
            (self.pads.fed().copied(), Operand::Pads),
            (self.axes_input, Operand::Axes),
        ];
        for (ix, operand) in operands {
            let Some(ix) = ix else { continue };
            s.given(&inputs[ix].rank, move |_, rank| {
                let rank = usize::try_from(rank).unwrap_or(usize::MAX);
                operand
                    .check_rank(rank)
                    .map_err(|e| crate::node_error(&self.node, e))
            })?;
            s.given_2(
                &inputs[0].datum_type,
                &inputs[ix].datum_type,
                move |_, data, dt| check_operand_type(&self.node, operand, dt, data),
            )?;
        }
        let shape_rule = move |s: &mut Solver<'r>,
                               shape: TVec<TDim>,
                               pads: Vec<TDim>,
                               axes: Option<Vec<i64>>| {
            let out = symbolic_output_shape(&self.node, &shape, &pads, axes.as_deref(), self.mode)?;
            for (ix, d) in out.into_iter().enumerate() {
                s.equals(&outputs[0].shape[ix], d)?;
            }
            Ok(())
        };
        let axes_value = |t: Arc<Tensor>| -> TractResult<Vec<i64>> {
            Ok(t.cast_to::<i64>()?
                .try_as_plain_ram()?
                .as_slice::<i64>()?
                .to_vec())
        };
        match (self.pads.fed().copied(), self.axes_input) {
            (None, _) => s.given(&inputs[0].shape, move |s, shape| {
                let pads = self.known_pads(None)?.unwrap_or_default();
                shape_rule(s, shape, pads, None)
            }),
            (Some(p), None) => {
                s.given_2(&inputs[0].shape, &inputs[p].value, move |s, shape, pads| {
                    let pads = self.known_pads(Some(&pads))?.unwrap_or_default();
                    shape_rule(s, shape, pads, None)
                })
            }
            (Some(p), Some(a)) => s.given_3(
                &inputs[0].shape,
                &inputs[p].value,
                &inputs[a].value,
                move |s, shape, pads, axes| {
                    let pads = self.known_pads(Some(&pads))?.unwrap_or_default();
                    shape_rule(s, shape, pads, Some(axes_value(axes)?))
                },
            ),
        }
    }

    fn wire(
        &self,
        prefix: &str,
        model: &mut TypedModel,
        inputs: &[OutletId],
    ) -> TractResult<TVec<OutletId>> {
        let mut wires: TVec<OutletId> = tvec![inputs[0]];
        let mut operand = |ix: usize, model: &TypedModel| -> TractResult<Given<Arc<Tensor>>> {
            Ok(match model.outlet_fact(inputs[ix])?.konst.clone() {
                Some(k) => Given::Known(k),
                None => {
                    wires.push(inputs[ix]);
                    Given::Fed(wires.len() - 1)
                }
            })
        };
        let pads = match &self.pads {
            Given::Known(p) => Given::Known(p.iter().map(|&x| x.to_dim()).collect()),
            Given::Fed(ix) => match operand(*ix, model)? {
                Given::Known(t) => Given::Known(self.known_pads(Some(&t))?.unwrap_or_default()),
                Given::Fed(i) => Given::Fed(i),
            },
        };
        let value = match self.value {
            Some(Given::Known(bits)) => Given::Known(Some(rctensor0(f32::from_bits(bits)))),
            Some(Given::Fed(v)) => match operand(v, model)? {
                Given::Known(t) => Given::Known(Some(t)),
                Given::Fed(i) => Given::Fed(i),
            },
            None => Given::Known(None),
        };
        let axes = match self.axes_input {
            None => Given::Known(None),
            Some(a) => match operand(a, model)? {
                Given::Known(t) => {
                    let t = t.cast_to::<i64>()?;
                    Given::Known(Some(t.try_as_plain_ram()?.as_slice::<i64>()?.to_vec()))
                }
                Given::Fed(i) => Given::Fed(i),
            },
        };
        let op = PadkitPad::new(&self.node, self.mode, pads, axes, value, model, inputs[0])?;
        model.wire_node(prefix, op, &wires)
    }
}
