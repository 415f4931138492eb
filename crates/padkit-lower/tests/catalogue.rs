//! padkit-lower on every model of the full catalogue: what it lowers holds no Pad and only
//! [`PORTABLE_OPS`], and [`RUN_TIME_OPS`] where pads or axes are fed at run time (whether the lowered models compute the expected outputs is graded by
//! runtimes that are not padkit: `padkit conformance --engine lowered-tract` and
//! `tests/peers/run.py`'s `onnxruntime-lowered`); what it refuses is a case that must fail
//! (with padkit's error, or for an index map above padkit-lower's limit) or a Pad of
//! strings or complex numbers whose pads are fed at run time, which padkit-lower does not
//! gather by computed maps; never anything else.

use padkit_conformance::{Expected, Feed, Size, cases};
use padkit_lower::{LowerError, PORTABLE_OPS, RUN_TIME_OPS, lower};
use padkit_onnx::pb::GraphProto;
use padkit_onnx_tools::model::PadModel;

/// Every op of `g` and of its subgraphs.
fn ops(g: &GraphProto) -> Vec<String> {
    let mut all = vec![];
    for node in &g.node {
        all.push(node.op_type.clone());
        for a in &node.attribute {
            for sub in a.g.iter().chain(&a.graphs) {
                all.extend(ops(sub));
            }
        }
    }
    all
}

#[test]
fn lowered_models_hold_only_portable_ops_and_refusals_are_explained() {
    let (mut lowered, mut must_fail, mut runtime, mut not_lowered) = (0, 0, 0, 0);
    for case in cases(Size::Full) {
        let model = PadModel::from_case(&case).proto();
        match lower(&model) {
            Ok(m) => {
                let fed = [&case.feeds.pads, &case.feeds.axes]
                    .iter()
                    .any(|f| matches!(f, Feed::Input));
                let ops = ops(m.graph.as_ref().unwrap());
                for op in &ops {
                    let op = op.as_str();
                    let run_time = fed && RUN_TIME_OPS.contains(&op);
                    assert!(
                        PORTABLE_OPS.contains(&op) || run_time,
                        "{}: {op}",
                        case.name
                    );
                }
                lowered += 1;
                runtime += usize::from(fed);
            }
            Err(LowerError::Pad { .. }) => {
                assert!(
                    matches!(case.expected, Expected::Error(_)),
                    "{}: {}",
                    case.name,
                    lower(&model).unwrap_err()
                );
                must_fail += 1;
            }
            Err(e @ LowerError::NotLowered { .. }) => {
                let why = e.to_string();
                if why.contains("gathers no strings or complex numbers by computed maps") {
                    // pads fed at run time on strings or complex numbers
                    use padkit::DType::{Complex64, Complex128, String};
                    assert!(matches!(case.feeds.pads, Feed::Input), "{}", case.name);
                    let dtype = case.input.dtype();
                    assert!(
                        matches!(dtype, String | Complex64 | Complex128),
                        "{}",
                        case.name
                    );
                    not_lowered += 1;
                    continue;
                }
                // an output of terabytes, whose index map is above padkit-lower's limit
                assert!(why.contains("above padkit-lower's limit"), "{why}");
                assert!(matches!(case.expected, Expected::Error(_)), "{}", case.name);
                must_fail += 1;
            }
            Err(e) => panic!("{}: {e}", case.name),
        }
    }
    assert!(lowered > 5000, "{lowered} lowered");
    assert!(must_fail > 0 && runtime > 0, "{must_fail} {runtime}");
    // runtime-crop-to-empty on string, complex64 and complex128 at each version whose
    // pads are an input, in each mode
    assert!(
        not_lowered > 0 && not_lowered < 200,
        "{not_lowered} not lowered"
    );
}
