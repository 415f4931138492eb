//! Each target's rule against the graded reports. For every case of padkit's suite, the
//! model is lowered for each target; where a target keeps the case's Pad as it is, that
//! runtime's verdict on the original case in the committed report must be `pass`: a rule
//! that keeps a case its runtime gets wrong, refuses, crashes on or leaves untested fails
//! here. The reports are those CI re-measures and compares verdict by verdict: ONNX
//! Runtime's in `docs/conformance/peers.json` (`tests/peers/run.py`), stock tract's and
//! candle-onnx's in `docs/conformance/padkit.json` (`padkit conformance`). Whether the
//! models a target lowers compute the right outputs is graded on the runtimes themselves
//! (the `onnxruntime-targeted`, `targeted-tract` and `targeted-candle` columns).

use std::collections::HashMap;

use padkit_conformance::{Size, cases};
use padkit_lower::{Options, Target, lower_with};
use padkit_onnx::pb::GraphProto;
use padkit_onnx_tools::model::PadModel;

/// The verdicts of `column` in the committed report `file`, by case name.
fn verdicts(file: &str, column: &str) -> HashMap<String, String> {
    let path = format!(
        "{}/../../docs/conformance/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = HashMap::new();
    for case in report["cases"].as_array().unwrap() {
        let verdict = &case["results"][column]["verdict"];
        let verdict = verdict
            .as_str()
            .unwrap_or_else(|| panic!("{path}: no {column}"));
        out.insert(case["name"].as_str().unwrap().to_string(), verdict.into());
    }
    out
}

/// Whether `g` or a subgraph of it holds a `Pad` node.
fn holds_pad(g: &GraphProto) -> bool {
    g.node.iter().any(|n| {
        n.op_type == "Pad"
            || n.attribute
                .iter()
                .any(|a| a.g.iter().chain(&a.graphs).any(holds_pad))
    })
}

/// How many cases `target` keeps (each one its runtime passes in `file`'s `column`, or the
/// test fails) and how many its runtime passes in all.
fn grade(target: Target, file: &str, column: &str) -> (usize, usize) {
    let verdicts = verdicts(file, column);
    // the outputs padkit's conformance runs allow: larger ones are refused, not kept
    let options = Options::default()
        .with_target(target)
        .with_max_output_bytes(1 << 30);
    let mut kept = vec![];
    for case in cases(Size::Full) {
        let model = PadModel::from_case(&case).proto();
        let Ok(lowered) = lower_with(&model, &options) else {
            continue;
        };
        if holds_pad(lowered.graph.as_ref().unwrap()) {
            let verdict = verdicts
                .get(&case.name)
                .unwrap_or_else(|| panic!("{}: not in {file}", case.name));
            kept.push((case.name, verdict.clone()));
        }
    }
    let wrong: Vec<_> = kept.iter().filter(|(_, v)| v != "pass").collect();
    assert!(
        wrong.is_empty(),
        "{target} keeps {} cases that {column} does not pass: {wrong:?}",
        wrong.len()
    );
    let passes = verdicts.values().filter(|v| *v == "pass").count();
    (kept.len(), passes)
}

#[test]
fn onnxruntime_keeps_only_cases_onnxruntime_passes() {
    let (kept, passes) = grade(Target::OnnxRuntime, "peers.json", "onnxruntime");
    // the figures docs/lower.md quotes
    assert_eq!((kept, passes), (2389, 3044));
}

#[test]
fn tract_keeps_only_cases_stock_tract_passes() {
    let (kept, passes) = grade(Target::Tract, "padkit.json", "stock-tract");
    assert_eq!((kept, passes), (1766, 1959));
}

#[test]
fn candle_onnx_keeps_only_cases_candle_onnx_passes() {
    let (kept, passes) = grade(Target::CandleOnnx, "padkit.json", "stock-candle");
    assert_eq!((kept, passes), (261, 300));
}

#[test]
fn tract_gpu_keeps_only_cases_stock_tract_passes() {
    let (kept, passes) = grade(Target::TractGpu, "padkit.json", "stock-tract");
    assert_eq!((kept, passes), (869, 1959));
}

#[test]
fn portable_keeps_nothing() {
    assert_eq!(grade(Target::Portable, "peers.json", "onnxruntime").0, 0);
}

/// Pads the suite does not hold, where stock tract's own Pad differs from padkit's core: a
/// `constant_value` input in reflect or edge mode (tract pads with it whatever the mode),
/// one of shape [1] (tract takes scalars only) and a stray `value` attribute at opset 11
/// (tract reads it at every opset). The `tract` target lowers them, and the lowered models
/// give padkit's answers on stock tract.
#[test]
fn tract_lowers_the_pads_its_own_pad_reads_otherwise() {
    use padkit::Tensor;
    use padkit_onnx::pb::AttributeProto;
    use padkit_onnx::pb::attribute_proto::AttributeType;
    use padkit_onnx_tools::model::Feed;
    use tract_onnx::prelude::*;
    let x = || Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let seven = |shape: &[usize]| Tensor::from_slice(shape, &[7.0f32]).unwrap();
    let model = |mode: &str, value: Option<Tensor>| {
        let m = PadModel::new(11, mode, x(), vec![0, 1, 0, 1], Feed::Initializer);
        match value {
            Some(v) => m.with_value(v, Feed::Initializer),
            None => m,
        }
        .proto()
    };
    let mut stray = model("constant", None);
    stray.graph.as_mut().unwrap().node[0]
        .attribute
        .push(AttributeProto {
            name: "value".into(),
            r#type: AttributeType::Float as i32,
            f: 5.0,
            ..Default::default()
        });
    let reflect = [2.0, 1.0, 2.0, 3.0, 2.0, 5.0, 4.0, 5.0, 6.0, 5.0];
    let edge = [1.0, 1.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 6.0, 6.0];
    let constant = |fill: f32| [fill, 1.0, 2.0, 3.0, fill, fill, 4.0, 5.0, 6.0, fill];
    let cases = [
        (model("reflect", Some(seven(&[]))), reflect),
        (model("edge", Some(seven(&[]))), edge),
        (model("constant", Some(seven(&[1]))), constant(7.0)),
        (stray, constant(0.0)),
    ];
    let options = Options::default().with_target(Target::Tract);
    for (original, want) in cases {
        let lowered = lower_with(&original, &options).unwrap();
        assert!(!holds_pad(lowered.graph.as_ref().unwrap()), "{original:?}");
        let plan = tract_onnx::onnx()
            .model_for_proto_model(&padkit_tract::tract_proto(&lowered).unwrap())
            .and_then(|m| m.into_runnable())
            .unwrap();
        let x = padkit_tract::to_tract(&x()).unwrap();
        let got = padkit_tract::from_tract(&plan.run(tvec![x.into()]).unwrap()[0]).unwrap();
        assert_eq!(got, Tensor::from_slice(&[2, 5], &want).unwrap());
    }
}
