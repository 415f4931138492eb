//! ONNX `If` as tract-onnx runs it, except that once the condition is known while the
//! model is analysed (a shape test, a frozen sample rate…), only the branch taken is
//! analysed and typed. tract-onnx's own `If` analyses both branches for every input
//! shape, and fails on models whose other branch only makes sense for other shapes
//! (silero-vad's decoder squeezes an axis only its batch path has of size 1).

use tract_core::ops::logic::IfThenElse;
use tract_hir::internal::*;
use tract_onnx::model::{ParseResult, ParsingContext};
use tract_onnx::pb::NodeProto;

/// The `OpBuilder` of ONNX `If` for [`crate::onnx`].
///
/// # Errors
///
/// When the node lacks its `then_branch` or `else_branch` attribute, when one is not a
/// graph, or when tract-onnx cannot parse a branch's graph.
pub fn if_builder(
    ctx: &ParsingContext,
    node: &NodeProto,
) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    let branch = |attr: &str| -> TractResult<ParseResult> { ctx.parse_graph(node.get_attr(attr)?) };
    let (then_branch, else_branch) = (branch("then_branch")?, branch("else_branch")?);
    // The outer values the branches read, once each, in a fixed order: inputs 1.. of the op.
    let mut closures: Vec<String> = then_branch
        .unresolved_inputs
        .iter()
        .chain(&else_branch.unresolved_inputs)
        .cloned()
        .collect();
    closures.sort();
    closures.dedup();
    let mapping = |b: &ParseResult| -> Vec<usize> {
        b.unresolved_inputs
            .iter()
            .map(|i| {
                1 + closures
                    .iter()
                    .position(|c| c == i)
                    .expect("closures lists every one")
            })
            .collect()
    };
    let op = If {
        then_mapping: mapping(&then_branch),
        else_mapping: mapping(&else_branch),
        then_body: then_branch.model,
        else_body: else_branch.model,
    };
    Ok((Box::new(op), closures))
}

/// ONNX `If`: input 0 is the condition, the others the outer values the branches read.
#[derive(Debug, Clone)]
pub struct If {
    then_body: InferenceModel,
    then_mapping: Vec<usize>,
    else_body: InferenceModel,
    else_mapping: Vec<usize>,
}

impl PartialEq for If {
    fn eq(&self, _: &Self) -> bool {
        false // bodies are not compared: no two Ifs are merged
    }
}

impl Eq for If {}

impl If {
    /// The condition's value, when the analysis knows it.
    fn known(condition: &InferenceFact) -> TractResult<Option<bool>> {
        condition
            .value
            .concretize()
            .map(|c| c.cast_to_scalar::<bool>())
            .transpose()
    }

    /// The branches to analyse: the one taken when the condition is known, else both.
    fn branches(&mut self, condition: Option<bool>) -> Vec<(&mut InferenceModel, &Vec<usize>)> {
        let (then, els) = (
            (&mut self.then_body, &self.then_mapping),
            (&mut self.else_body, &self.else_mapping),
        );
        match condition {
            Some(true) => vec![then],
            Some(false) => vec![els],
            None => vec![then, els],
        }
    }
}

impl Op for If {
    fn name(&self) -> StaticName {
        "If".into()
    }

    not_a_typed_op!();
}

impl EvalOp for If {
    op_out_of_plan!();

    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let (mapping, body) = if inputs[0].cast_to_scalar::<bool>()? {
            (&self.then_mapping, &self.then_body)
        } else {
            (&self.else_mapping, &self.else_body)
        };
        let inputs: TVec<TValue> = mapping.iter().map(|&ix| inputs[ix].clone()).collect();
        body.clone().into_runnable()?.run(inputs)
    }
}

impl InferenceOp for If {
    fn infer_facts(
        &mut self,
        inputs: TVec<&InferenceFact>,
        outputs: TVec<&InferenceFact>,
        observed: TVec<&InferenceFact>,
    ) -> TractResult<(
        TVec<InferenceFact>,
        TVec<InferenceFact>,
        TVec<InferenceFact>,
    )> {
        let mut inputs: TVec<InferenceFact> = inputs.into_iter().cloned().collect();
        let mut outputs: TVec<InferenceFact> = outputs.into_iter().cloned().collect();
        loop {
            let mut changed = inputs[0]
                .datum_type
                .unify_with(&bool::datum_type().into())?;
            let condition = Self::known(&inputs[0])?;
            for (body, mapping) in self.branches(condition) {
                for (body_ix, &outer_ix) in mapping.iter().enumerate() {
                    changed |= body
                        .input_fact_mut(body_ix)?
                        .unify_with_mut(&mut inputs[outer_ix])?;
                }
                for (ix, output) in outputs.iter_mut().enumerate() {
                    let fact = body.output_fact_mut(ix)?;
                    changed |= if condition.is_some() {
                        fact.unify_with_mut(output)?
                    } else {
                        fact.shape.unify_with_mut(&mut output.shape)?
                            | fact.datum_type.unify_with_mut(&mut output.datum_type)?
                    };
                }
                changed |= body.analyse(false)?;
            }
            if !changed {
                return Ok((inputs, outputs, observed.into_iter().cloned().collect()));
            }
        }
    }

    fn nboutputs(&self) -> TractResult<usize> {
        let (then, els) = (self.then_body.outputs.len(), self.else_body.outputs.len());
        ensure!(
            then == els,
            "If: then_branch has {then} outputs, else_branch {els}"
        );
        Ok(then)
    }

    /// With a known condition, an `IfThenElse` whose two branches are the one taken (which
    /// tract's declutter then inlines); otherwise both branches, as tract-onnx does.
    fn to_typed(
        &self,
        source: &InferenceModel,
        node: &InferenceNode,
        target: &mut TypedModel,
        mapping: &HashMap<OutletId, OutletId>,
    ) -> TractResult<TVec<OutletId>> {
        let inputs: TVec<_> = node.inputs.iter().map(|o| mapping[o]).collect();
        let condition = Self::known(source.outlet_fact(node.inputs[0])?)?;
        let (then_body, then_mapping, else_body, else_mapping) = match condition {
            Some(taken) => {
                let (body, m) = if taken {
                    (&self.then_body, &self.then_mapping)
                } else {
                    (&self.else_body, &self.else_mapping)
                };
                let typed = body.clone().into_typed()?;
                (typed.clone(), m.clone(), typed, m.clone())
            }
            None => (
                self.then_body.clone().into_typed()?,
                self.then_mapping.clone(),
                self.else_body.clone().into_typed()?,
                self.else_mapping.clone(),
            ),
        };
        let op = IfThenElse {
            then_body,
            then_input_mapping: then_mapping,
            else_body,
            else_input_mapping: else_mapping,
        };
        target.wire_node(&node.name, op, &inputs)
    }

    as_op!();
}
