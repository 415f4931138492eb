//! Strict ONNX semantics (`RunSettings::strict_onnx`, `padkit run --strict-onnx`) on
//! padkit's engines: every reflect case of the small catalogue beyond ONNX
//! (`onnx:beyond`) is refused, by the core, tract and Burn with `PadError::BeyondOnnx` in
//! the error's chain; every other reflect case gets the answer it gets without the
//! setting.

use padkit::PadError;
use padkit_conformance::{Expected, Size, Standing, cases};
use padkit_engines::pad_graph::Outcome;
use padkit_engines::{Engine, RunSettings, run};
use padkit_onnx_tools::model::PadModel;

const LIMIT: u64 = 1 << 30;

/// padkit's engines built into this test, and whether their errors carry padkit's.
fn engines() -> Vec<(Engine, bool)> {
    let engines = [
        (Engine::Core, true),
        (Engine::Tract, true),
        (Engine::Burn, true),
        (Engine::LoweredTract, false),
        (Engine::TargetedTract, false),
        (Engine::TargetedTractGpu, false),
    ];
    engines
        .into_iter()
        .filter(|(e, _)| e.check_built().is_ok())
        .collect()
}

/// The outputs of a run, or how it did not run.
fn outputs(outcome: anyhow::Result<Outcome>) -> Result<Vec<padkit::Tensor>, String> {
    match outcome {
        Ok(Outcome::Ran(outs)) => Ok(outs.into_iter().map(|(_, t)| t).collect()),
        Ok(Outcome::Unsupported(why)) => Err(format!("unsupported: {why}")),
        Err(e) => Err(format!("{e:#}")),
    }
}

#[test]
fn strict_onnx_refuses_what_is_beyond_onnx_and_nothing_else() {
    let strict = RunSettings {
        max_output_bytes: LIMIT,
        strict_onnx: true,
    };
    let (mut refused, mut same) = (0, 0);
    let reflect = cases(Size::Small).into_iter().filter(|c| {
        c.has_tag("mode:reflect")
            && c.domain.is_empty()
            && matches!(c.expected, Expected::Output(_))
    });
    for case in reflect {
        let model = PadModel::from_case(&case);
        let (proto, inputs) = (model.proto(), model.inputs());
        for (engine, padkits_error) in engines() {
            let at = format!("{} on {}", case.name, engine.name());
            let got = run(engine, &proto, &inputs, strict);
            if matches!(case.onnx, Standing::Beyond(_)) {
                let Err(e) = got else {
                    panic!("{at}: not refused under strict ONNX semantics");
                };
                if padkits_error {
                    let beyond = e
                        .chain()
                        .any(|c| matches!(c.downcast_ref(), Some(PadError::BeyondOnnx { .. })));
                    assert!(beyond, "{at}: refused with another error: {e:#}");
                }
                refused += 1;
            } else {
                let numpy = run(engine, &proto, &inputs, RunSettings::new(LIMIT));
                assert_eq!(outputs(got), outputs(numpy), "{at}");
                same += 1;
            }
        }
    }
    assert!(
        refused > 0 && same > 0,
        "{refused} refused, {same} as before"
    );
}
