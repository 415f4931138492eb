//! "Pad H and W up to a multiple of the window" with symbolic H and W: the pads are
//! computed from Shape(x) as `ceil(H / k)·k − H`, tract folds them to TDim expressions,
//! and the model loads once and runs for several sizes.
//!
//! (The `(k − H mod k) mod k` spelling is folded wrongly by tract 0.23.9's TDim
//! simplifier, to `−(H mod k)`, before the Pad ever sees it.)

use padkit::Tensor;
use padkit_onnx::pb::{AttributeProto, NodeProto};
use padkit_onnx::proto::tensor_to_proto;
use padkit_onnx_tools::model::{Feed, PadModel};
use padkit_testkit::Case;
use padkit_tract::{from_tract, to_tract};
use tract_onnx::prelude::*;

const WINDOW: i64 = 4;

fn node(op: &str, inputs: &[&str], output: &str) -> NodeProto {
    NodeProto {
        name: output.into(),
        op_type: op.into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        ..Default::default()
    }
}

fn pad_to_multiple_model() -> padkit_onnx::pb::ModelProto {
    let x = Tensor::from_slice(&[1, 2, 1, 1], &[0.0f32; 2]).unwrap();
    let mut m = PadModel::new(13, "constant", x, vec![0; 8], Feed::Initializer);
    m.symbolic_dims = vec![None, None, Some("H".into()), Some("W".into())];
    let mut proto = m.proto();
    let g = proto.graph.as_mut().unwrap();
    g.initializer.retain(|t| t.name != "pads");
    let ints =
        |name: &str, v: &[i64]| tensor_to_proto(&Tensor::from_slice(&[v.len()], v).unwrap(), name);
    g.initializer.extend([
        ints("starts", &[2]),
        ints("ends", &[4]),
        ints("k", &[WINDOW]),
        ints("k1", &[WINDOW - 1]),
        ints("zeros", &[0; 6]),
    ]);
    let mut concat = node("Concat", &["zeros", "rest"], "pads");
    concat.attribute.push(AttributeProto {
        name: "axis".into(),
        r#type: 2,
        i: 0,
        ..Default::default()
    });
    let pad = g.node.pop().unwrap();
    g.node.extend([
        node("Shape", &["x"], "shape"),
        node("Slice", &["shape", "starts", "ends"], "hw"),
        node("Add", &["hw", "k1"], "up"),
        node("Div", &["up", "k"], "blocks"),
        node("Mul", &["blocks", "k"], "padded"),
        node("Sub", &["padded", "hw"], "rest"),
        concat,
        pad,
    ]);
    proto
}

#[test]
fn loads_once_and_runs_for_several_sizes() {
    let model = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&pad_to_multiple_model()).unwrap())
        .unwrap();
    let typed = model.into_optimized().unwrap();
    let out_fact = typed
        .outlet_fact(typed.output_outlets().unwrap()[0])
        .unwrap()
        .clone();
    assert!(
        out_fact.shape.iter().any(|d| d.to_i64().is_err()),
        "output shape stays symbolic: {out_fact:?}"
    );
    let plan = typed.into_runnable().unwrap();
    for (h, w) in [(5usize, 7usize), (8, 8), (3, 10), (1, 1)] {
        let data: Vec<f32> = (0..2 * h * w).map(|i| i as f32).collect();
        let x = Tensor::from_slice(&[1, 2, h, w], &data).unwrap();
        let out = plan
            .run(tvec!(to_tract(&x).unwrap().into_tvalue()))
            .unwrap();
        let got = from_tract(&out[0]).unwrap();
        let (ph, pw) = (
            (WINDOW - h as i64 % WINDOW) % WINDOW,
            (WINDOW - w as i64 % WINDOW) % WINDOW,
        );
        let pads = [0, 0, 0, 0, 0, 0, ph, pw];
        let case = Case::new(vec![1, 2, h, w], pads.to_vec(), padkit::PadMode::Constant);
        let want = case.reference(&data, 0.0, usize::MAX).unwrap();
        assert_eq!(got.shape(), &want.0[..], "{h}x{w}");
        assert_eq!(got.to_vec::<f32>().unwrap(), want.1, "{h}x{w}");
    }
}
