//! Each target's rule against the graded reports. For every case of padkit's suite, the
//! model is lowered for each target; where a target keeps the case's Pad as it is, that
//! runtime's verdict on the original case in the committed report must be `pass`: a rule
//! that keeps a case its runtime gets wrong, refuses, crashes on or leaves untested fails
//! here. The reports are those CI re-measures and compares verdict by verdict: ONNX
//! Runtime's in `docs/conformance/peers.json` and OpenVINO's in
//! `docs/conformance/openvino.json` (`tests/peers/run.py`), rten's in
//! `docs/conformance/rten.json` (`tools/rten-peer`), stock tract's and
//! candle-onnx's in `docs/conformance/padkit.json` (`padkit conformance`). Whether the
//! models a target lowers compute the right outputs is graded on the runtimes themselves
//! (the `onnxruntime-targeted`, `targeted-tract`, `targeted-candle`, `openvino-targeted`
//! and `rten-targeted` columns).

use std::collections::HashMap;

use padkit_conformance::{Size, cases};
use padkit_lower::{Options, Target, lower_with};
use padkit_onnx::pb::GraphProto;
use padkit_onnx_tools::model::PadModel;

/// A runtime's verdict on a case of a committed report.
struct Graded {
    /// The runtime's own column.
    verdict: String,
    /// The targeted column: padkit's engine on the model lowered for the runtime, held to
    /// numpy's answer, which is the runtime's own answer on the original wherever the
    /// target keeps the Pad.
    targeted: String,
    /// The case is beyond ONNX (`onnx:beyond`), where an outside runtime's refusal passes:
    /// its pass does not say that it computes the case, the targeted column's does.
    beyond: bool,
}

impl Graded {
    /// Whether the runtime computes the case as padkit's core does.
    fn computes(&self) -> bool {
        let verdict = if self.beyond {
            &self.targeted
        } else {
            &self.verdict
        };
        verdict == "pass"
    }
}

/// The verdicts of `column` and of `targeted` in the committed report `file`, by case name.
fn verdicts(file: &str, column: &str, targeted: &str) -> HashMap<String, Graded> {
    let path = format!(
        "{}/../../docs/conformance/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = HashMap::new();
    for case in report["cases"].as_array().unwrap() {
        let verdict = |column: &str| {
            let v = case["results"][column]["verdict"].as_str();
            v.unwrap_or_else(|| panic!("{path}: no {column}"))
                .to_string()
        };
        let graded = Graded {
            verdict: verdict(column),
            targeted: verdict(targeted),
            beyond: case["tags"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t == "onnx:beyond"),
        };
        out.insert(case["name"].as_str().unwrap().to_string(), graded);
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

/// How many cases `target` keeps (each one its runtime computes by `file`'s `column`, or
/// by `targeted` beyond ONNX, see [`Graded`], or the test fails), how many of them are
/// beyond ONNX, and how many cases the runtime passes in all, beyond ONNX aside.
fn grade(target: Target, file: &str, column: &str, targeted: &str) -> (usize, usize, usize) {
    let graded = verdicts(file, column, targeted);
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
            let g = graded
                .get(&case.name)
                .unwrap_or_else(|| panic!("{}: not in {file}", case.name));
            kept.push((case.name, g));
        }
    }
    let wrong: Vec<_> = kept
        .iter()
        .filter(|(_, g)| !g.computes())
        .map(|(name, g)| (name, &g.verdict, &g.targeted))
        .collect();
    assert!(
        wrong.is_empty(),
        "{target} keeps {} cases that {column} does not compute: {wrong:?}",
        wrong.len()
    );
    let beyond = kept.iter().filter(|(_, g)| g.beyond).count();
    let passes = graded.values().filter(|g| !g.beyond && g.verdict == "pass");
    (kept.len(), beyond, passes.count())
}

/// Cases kept, of them beyond ONNX, the runtime's passes beyond ONNX aside.
type Figures = (usize, usize, usize);

/// Each target, the report and columns that grade its runtime, and the figures
/// docs/lower.md quotes: cases kept, of them beyond ONNX, the runtime's passes beyond ONNX
/// aside (tract's GPU runtimes keep what stock tract, run on the CPU, computes).
#[rustfmt::skip]
const TARGETS: [(Target, &str, &str, &str, Figures); 9] = [
    (Target::OnnxRuntime, "peers.json", "onnxruntime", "onnxruntime-targeted", (2389, 0, 3044)),
    (Target::Tract, "padkit.json", "stock-tract", "targeted-tract", (1766, 0, 1947)),
    (Target::CandleOnnx, "padkit.json", "stock-candle", "targeted-candle", (261, 55, 245)),
    (Target::TractGpu, "padkit.json", "stock-tract", "targeted-tract-gpu", (869, 0, 1947)),
    (Target::OpenVino, "openvino.json", "openvino", "openvino-targeted", (1973, 0, 3556)),
    (Target::Rten, "rten.json", "rten", "rten-targeted", (807, 0, 1614)),
    (Target::Tinygrad, "tinygrad.json", "tinygrad", "tinygrad-targeted", (1838, 0, 3466)),
    (Target::Tvm, "tvm.json", "tvm", "tvm-targeted", (2259, 0, 3941)),
    (Target::Onnx2Torch, "onnx2torch.json", "onnx2torch", "onnx2torch-targeted", (254, 0, 314)),
];

#[test]
fn each_target_keeps_only_cases_its_runtime_computes() {
    for (target, file, column, targeted, figures) in TARGETS {
        assert_eq!(grade(target, file, column, targeted), figures, "{target}");
    }
}

#[test]
fn portable_keeps_nothing() {
    assert_eq!(
        grade(
            Target::Portable,
            "peers.json",
            "onnxruntime",
            "onnxruntime-lowered"
        )
        .0,
        0
    );
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

/// onnx2torch 1.5.15 converts no `Constant`, `Identity` or `Shape` from opset 19: lowered
/// for it, a Pad's constants are initializers, a Pad that pads nothing is a `Where`, the
/// `Constant` node its pads came from is gone, and the lowering names what it cannot write.
#[test]
fn onnx2torch_gets_only_ops_it_converts() {
    use padkit::Tensor;
    use padkit_onnx_tools::model::Feed;
    let x = Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let options = Options::default().with_target(Target::Onnx2Torch);
    for pads in [vec![0, 1, 0, 1], vec![0; 4]] {
        let model = PadModel::new(19, "reflect", x.clone(), pads.clone(), Feed::ConstantNode);
        let lowered = lower_with(&model.proto(), &options).unwrap();
        let graph = lowered.graph.unwrap();
        let ops: Vec<&str> = graph.node.iter().map(|n| n.op_type.as_str()).collect();
        let want: &[&str] = match pads[1] {
            0 => &["Where"],
            _ => &["Slice", "Slice", "Concat"],
        };
        assert_eq!(ops, want, "{pads:?}");
        // the slices' bounds, or Where's condition
        assert!(!graph.initializer.is_empty());
    }
    let model = PadModel::new(19, "reflect", x, vec![0, 1, 0, 1], Feed::Input);
    let e = lower_with(&model.proto(), &options).unwrap_err();
    assert!(e.to_string().contains("does not run at opset 19"), "{e}");
}
