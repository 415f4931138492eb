//! padkit's strict ONNX semantics (`PadSpec::with_strict_onnx`) refuse exactly the cases
//! the catalogue classes beyond ONNX (`Standing::Beyond`, whose rule the root test
//! `conformance_table` checks against ONNX's reference evaluator), and answer every other
//! case as the catalogue expects (a case that must fail, with the error it expects or, in
//! reflect mode, strict semantics' own).

use padkit::PadError;
use padkit_conformance::{Expected, Refusal, Size, Standing, cases, class_of};

#[test]
fn strict_onnx_refuses_exactly_the_cases_beyond_onnx() {
    let mut refused = 0;
    for case in cases(Size::Full) {
        let spec = case
            .spec()
            .with_strict_onnx(true)
            .with_max_output_bytes(1 << 30);
        let got = padkit::pad_tensor(&case.input, &spec, Some(&case.fill));
        let name = &case.name;
        match (&case.expected, case.onnx) {
            (Expected::Output(_), Standing::Beyond(_)) => {
                assert!(
                    matches!(got, Err(PadError::BeyondOnnx { .. })),
                    "{name}: {got:?}"
                );
                refused += 1;
            }
            (Expected::Output(y), _) => assert_eq!(got.as_ref(), Ok(y), "{name}"),
            // (a reflect pad that must fail, for its size say, may be beyond ONNX too:
            // strict semantics refuse it for that first)
            (Expected::Error(Refusal::Pad(class)), _) => {
                let e = got.expect_err(name);
                let beyond = matches!(e, PadError::BeyondOnnx { .. });
                assert!(class_of(&e) == Some(*class) || beyond, "{name}: {e}");
            }
            // (a model's signature, which a spec does not hold)
            (Expected::Error(Refusal::Signature(_)), _) => {}
        }
    }
    assert!(refused > 0);
}
