//! tract as bench jobs: padkit-tract's optimised plan of the workload's ONNX model, and
//! tract-core's own `Pad` op where it can do the workload.

use super::workloads::Workload;
use anyhow::Result;
use padkit::{PadMode, Tensor};
use tract_core::ops::array::{Pad as CorePad, PadMode as CoreMode};
use tract_onnx::prelude::Tensor as TractTensor;
use tract_onnx::prelude::*;

use super::Job;
use padkit_onnx_tools::model::{Feed, PadModel};

/// Pushes `padkit-tract`, and `tract-core` where its `Pad` can do `w`.
pub(super) fn push(w: &Workload, x: &Tensor, jobs: &mut Vec<(String, Job)>) -> Result<()> {
    let tx = padkit_tract::to_tract(x)?.into_arc_tensor();
    let opset = opset_for(&w.spec);
    let mut m = PadModel::new(
        opset,
        w.spec.mode.name(),
        x.clone(),
        w.spec.pads.clone(),
        Feed::Initializer,
    );
    if let Some(axes) = &w.spec.axes {
        m = m.with_axes(axes.clone(), Feed::Initializer);
    }
    let typed = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto())?)?
        .into_optimized()?;
    jobs.push(("padkit-tract".into(), tract_plan(typed, tx.clone())));
    let pads = w.spec.resolve(w.shape.len())?;
    let core_mode = match w.spec.mode {
        PadMode::Constant => Some(CoreMode::Constant(Arc::new(TractTensor::zero_scalar_dt(
            tx.datum_type(),
        )?))),
        PadMode::Reflect => Some(CoreMode::Reflect),
        PadMode::Edge => Some(CoreMode::Edge),
        _ => None,
    };
    if let (Some(mode), true) = (core_mode, pads.iter().all(|p| p.begin >= 0 && p.end >= 0)) {
        let mut model = TypedModel::default();
        let src = model.add_source("x", tx.datum_type().fact(tx.shape()))?;
        let op = CorePad::new(
            pads.iter()
                .map(|p| (p.begin as usize, p.end as usize))
                .collect(),
            mode,
        );
        let out = model.wire_node("pad", op, &[src])?;
        model.select_output_outlets(&out)?;
        jobs.push(("tract-core".into(), tract_plan(model, tx)));
    }
    Ok(())
}

pub(super) fn tract_plan(model: TypedModel, x: Arc<TractTensor>) -> Job {
    let plan = model.into_runnable().expect("the workload model runs");
    Box::new(move || {
        std::hint::black_box(
            plan.run(tvec!(TValue::from_const(x.clone())))
                .expect("the plan runs"),
        );
    })
}

/// The oldest opset whose Pad takes `spec` with its pads as an input: 19 for wrap, 18 for
/// an `axes` input, else 13.
fn opset_for(spec: &padkit::PadSpec) -> i64 {
    match (spec.mode, &spec.axes) {
        (PadMode::Wrap, _) => 19,
        (_, Some(_)) => 18,
        _ => 13,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::workloads as workload;

    #[test]
    fn every_workload_gets_an_opset_that_accepts_it() {
        for w in workload::all() {
            let opset = opset_for(&w.spec);
            assert!(
                padkit::onnx::modes_for(opset).contains(&w.spec.mode),
                "{}",
                w.name
            );
            assert!(w.spec.axes.is_none() || opset >= 18, "{}", w.name);
        }
    }
}
