//! The `tract` and `stock-tract` engines: a whole model through tract (with padkit's Pad, `padkit_tract::onnx()`, or stock
//! tract-onnx), stage by stage, each failure naming its stage.

use anyhow::Result;
use padkit_onnx::pb::ModelProto;
use padkit_onnx_tools::isolate::isolated;
use padkit_tract::{from_tract, to_tract};
use tract_onnx::prelude::*;

use crate::pad_graph::Outcome;

/// padkit's tract, as the CLI's `tract` engine runs models: [`padkit_tract::onnx`] with
/// padkit's `If` ([`padkit_tract::register_if`]), which analyses only the branch a known
/// condition takes.
pub fn padkit_framework() -> tract_onnx::Onnx {
    let mut onnx = padkit_tract::onnx();
    padkit_tract::register_if(&mut onnx.op_register);
    onnx
}

/// Runs `model` on `inputs` through `framework` (`padkit_tract::onnx()`, or stock
/// tract-onnx to compare with; see [`optimize`]), after checking every output that now
/// has a known shape against `settings`' output limit. Padkit's Pads with runtime pads
/// check their own outputs against the limit, and follow `settings`' semantics.
pub fn run(
    framework: tract_onnx::Onnx,
    model: &ModelProto,
    inputs: &[padkit::Tensor],
    settings: crate::RunSettings,
) -> Result<Outcome> {
    let max_output_bytes = settings.max_output_bytes;
    let Ok(feeds) = inputs.iter().map(to_tract).collect::<Result<TVec<_>>>() else {
        let why = inputs.iter().find_map(|t| to_tract(t).err());
        return Ok(Outcome::Unsupported(
            why.map(|e| e.to_string()).unwrap_or_default(),
        ));
    };
    let outputs = isolated("tract", || {
        // Sizes are checked before tract's optimiser too: its passes allocate from the
        // shapes (a convolution's patch offsets, say) without a fallible path.
        let mut typed = analyse(framework, model, &feeds)?;
        padkit_tract::limit_output_bytes(&mut typed, max_output_bytes);
        if settings.strict_onnx {
            padkit_tract::strict_onnx(&mut typed);
        }
        check_sizes(&typed, max_output_bytes)?;
        let optimized = typed.into_optimized().map_err(stage("optimise"))?;
        check_sizes(&optimized, max_output_bytes)?;
        let plan = optimized.into_runnable().map_err(stage("prepare"))?;
        plan.run(feeds.into_iter().map(|t| t.into_tvalue()).collect())
            .map_err(stage("run"))
    })?;
    let names = model
        .graph
        .as_ref()
        .map(|g| g.output.iter().map(|o| o.name.clone()).collect::<Vec<_>>())
        .unwrap_or_default();
    let outs = outputs
        .iter()
        .zip(names)
        .map(|(t, n)| Ok((n, from_tract(t)?)))
        .collect::<Result<_>>()?;
    Ok(Outcome::Ran(outs))
}

/// An error of tract's at `what` (load, analyse, optimise…), naming the stage.
fn stage(what: &'static str) -> impl Fn(TractError) -> anyhow::Error {
    move |e| e.context(format!("tract could not {what} the model"))
}

/// `model` loaded by `framework` (padkit's or stock tract-onnx), its input facts set from
/// `inputs` (types and shapes; the values of scalars, a sample rate or a flag, which
/// models branch on), so that shape chains and `If` conditions resolve, then analysed and
/// optimised. The model's shape annotations of intermediate values are ignored: the
/// inputs fix every shape, and annotations with other symbols could only conflict.
pub fn optimize(
    framework: tract_onnx::Onnx,
    model: &ModelProto,
    inputs: &[Tensor],
) -> Result<TypedModel> {
    let typed = analyse(framework, model, inputs)?;
    typed.into_optimized().map_err(stage("optimise"))
}

/// `model` loaded by `framework`, its input facts set from `inputs` as [`optimize`] does,
/// and analysed into a typed model (not yet optimised).
pub fn analyse(
    framework: tract_onnx::Onnx,
    model: &ModelProto,
    inputs: &[Tensor],
) -> Result<TypedModel> {
    let model = with_unique_node_names(model);
    let onnx = framework.with_ignore_value_info(true);
    let mut m = onnx
        .model_for_proto_model(&padkit_tract::tract_proto(&model)?)
        .map_err(stage("load"))?;
    for (ix, t) in inputs.iter().enumerate() {
        let fact = if t.rank() == 0 {
            InferenceFact::from(t.clone())
        } else {
            InferenceFact::dt_shape(t.datum_type(), t.shape())
        };
        m.set_input_fact(ix, fact)
            .map_err(stage("set the input facts of"))?;
    }
    m.into_typed().map_err(stage("analyse"))
}

/// `model` with its nodes renamed where names repeat (ONNX allows it, tract does not):
/// the second `n` becomes `n#1`, and so on. Names are labels only; values are wired by
/// their output names.
fn with_unique_node_names(model: &ModelProto) -> std::borrow::Cow<'_, ModelProto> {
    let Some(g) = &model.graph else {
        return std::borrow::Cow::Borrowed(model);
    };
    let mut seen = std::collections::HashSet::new();
    if g.node.iter().all(|n| seen.insert(n.name.as_str())) {
        return std::borrow::Cow::Borrowed(model);
    }
    let mut model = model.clone();
    let mut count: std::collections::HashMap<String, usize> = Default::default();
    for node in model.graph.iter_mut().flat_map(|g| g.node.iter_mut()) {
        let k = count.entry(node.name.clone()).or_default();
        if *k > 0 {
            node.name = format!("{}#{k}", node.name);
        }
        *k += 1;
    }
    std::borrow::Cow::Owned(model)
}

/// Refuses a model any of whose node outputs, once its shape is known, would take more
/// than `limit` bytes: tract allocates outputs without a fallible path.
pub fn check_sizes(model: &TypedModel, limit: u64) -> Result<()> {
    for node in model.nodes() {
        for (ix, out) in node.outputs.iter().enumerate() {
            let fact = &out.fact;
            let Some(shape) = fact.shape.as_concrete() else {
                continue;
            };
            let bits = 8 * fact.datum_type.size_of() as u64;
            padkit::shape::check_output_size(shape, bits, Some(limit)).map_err(|e| {
                anyhow::Error::new(e).context(format!(
                    "node {:?} (output {ix}, {:?}) is above the output limit (see \
                     --max-output-bytes)",
                    node.name, fact.datum_type
                ))
            })?;
        }
    }
    Ok(())
}
