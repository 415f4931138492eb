//! The `tract-gpu` target, checked on the CPU: every case of padkit's suite whose pads and
//! axes are known when the model is read, lowered for tract's GPU runtimes and decluttered
//! by stock tract-onnx (the typed model tract-cuda's and tract-metal's `prepare` hand to
//! their transform, which then optimizes it: tract-cuda 0.23.9 `cuda/src/lib.rs`,
//! `CudaRuntime::prepare`), holds only ops those runtimes translate to the device for the
//! case's element type ([`padkit_tract::gpu::on_device`], which cites their translators),
//! and gives the case's expected output exactly.

use padkit::DType;
use padkit_conformance::compare::first_difference;
use padkit_conformance::{Expected, Feed, Size, cases};
use padkit_lower::{Options, Target, lower_with};
use padkit_onnx_tools::model::PadModel;
use padkit_tract::gpu::on_device;
use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::array::Pad;

#[test]
fn lowered_for_tract_gpu_every_op_has_a_gpu_translator_and_the_outputs_are_exact() {
    let options = Options::default()
        .with_target(Target::TractGpu)
        .with_max_output_bytes(1 << 30);
    let (mut checked, mut kept) = (0, 0);
    for case in cases(Size::Full) {
        let known = [&case.feeds.pads, &case.feeds.axes]
            .iter()
            .all(|f| !matches!(f, Feed::Input));
        let Expected::Output(want) = &case.expected else {
            continue;
        };
        let pad = PadModel::from_case(&case);
        let tract_holds = padkit_tract::to_tract(&case.input).is_ok();
        if !known || !tract_holds || case.input.dtype() == DType::String {
            continue;
        }
        let Ok(lowered) = lower_with(&pad.proto(), &options) else {
            continue;
        };
        let proto = padkit_tract::tract_proto(&lowered).unwrap();
        let model = tract_onnx::onnx()
            .model_for_proto_model(&proto)
            .and_then(|m| m.into_typed())
            .and_then(|m| m.into_decluttered())
            .unwrap_or_else(|e| panic!("{}: {e:#}", case.name));
        let host: Vec<String> = (model.nodes().iter())
            .filter(|n| !on_device(n))
            .map(|n| format!("{} ({})", n.name, n.op.name()))
            .collect();
        assert!(host.is_empty(), "{}: on the host: {host:?}", case.name);
        kept += usize::from(model.nodes().iter().any(|n| n.op_is::<Pad>()));
        let inputs: TVec<TValue> = pad
            .inputs()
            .iter()
            .map(|t| padkit_tract::to_tract(t).unwrap().into())
            .collect();
        let out = model.into_runnable().unwrap().run(inputs).unwrap();
        let got = padkit_tract::from_tract(&out[0]).unwrap();
        let wrong = first_difference(&got, want, None);
        assert!(wrong.is_none(), "{}: {wrong:?}", case.name);
        checked += 1;
    }
    // the suite's cases of this kind, and those whose kept Pad decluttering leaves (a Pad
    // of no pads it removes)
    assert_eq!((checked, kept), (3581, 732));
}
