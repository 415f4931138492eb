//! The opt-in rewrite for tract's GPU runtimes ([`padkit_tract::gpu::to_device_ops`]),
//! checked on the CPU: every case of padkit's suite that padkit-tract loads with pads, axes
//! and fill known, typed and decluttered (the model tract-cuda's and tract-metal's
//! `prepare` hand to their transform), then rewritten, holds only ops those runtimes
//! translate to the device ([`padkit_tract::gpu::on_device`]) and gives the case's
//! expected output exactly.

use padkit_conformance::compare::first_difference;
use padkit_conformance::{Expected, Feed, Size, cases};
use padkit_onnx_tools::model::PadModel;
use padkit_tract::PadkitPad;
use padkit_tract::gpu::{on_device, to_device_ops};
use tract_onnx::prelude::*;

#[test]
fn rewritten_pads_run_on_the_device_and_give_the_expected_outputs() {
    let (mut checked, mut rewritten) = (0, 0);
    for case in cases(Size::Full) {
        let known = [&case.feeds.pads, &case.feeds.axes, &case.feeds.value]
            .iter()
            .all(|f| !matches!(f, Feed::Input));
        let Expected::Output(want) = &case.expected else {
            continue;
        };
        // strings stay on the host; interior padding padkit-tract does not run
        let string = case.input.dtype() == padkit::DType::String;
        let holds = padkit_tract::to_tract(&case.input).is_ok();
        if !known || string || case.interior.is_some() || !holds {
            continue;
        }
        let pad = PadModel::from_case(&case);
        let proto = padkit_tract::tract_proto(&pad.proto()).unwrap();
        let mut model = padkit_tract::onnx()
            .model_for_proto_model(&proto)
            .and_then(|m| m.into_typed())
            .and_then(|m| m.into_decluttered())
            .unwrap_or_else(|e| panic!("{}: {e:#}", case.name));
        let pads = model
            .nodes()
            .iter()
            .filter(|n| n.op_is::<PadkitPad>())
            .count();
        let done = to_device_ops(&mut model).unwrap_or_else(|e| panic!("{}: {e:#}", case.name));
        assert_eq!(done, pads, "{}", case.name);
        rewritten += done;
        let host: Vec<String> = (model.nodes().iter())
            .filter(|n| !on_device(n))
            .map(|n| format!("{} ({})", n.name, n.op.name()))
            .collect();
        assert!(host.is_empty(), "{}: on the host: {host:?}", case.name);
        let inputs: TVec<TValue> = (pad.inputs().iter())
            .map(|t| padkit_tract::to_tract(t).unwrap().into())
            .collect();
        let out = (model.into_runnable().unwrap().run(inputs))
            .unwrap_or_else(|e| panic!("{}: {e:#}", case.name));
        let got = padkit_tract::from_tract(&out[0]).unwrap();
        let wrong = first_difference(&got, want, None);
        assert!(wrong.is_none(), "{}: {wrong:?}", case.name);
        checked += 1;
    }
    // the suite's cases of this kind, and the Pads among them decluttering leaves (a Pad of
    // no pads it removes)
    assert_eq!((checked, rewritten), (3469, 2914));
}
