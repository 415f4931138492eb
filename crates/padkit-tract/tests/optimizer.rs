//! tract's optimiser keeps its Conv folding, and every remaining Pad runs padkit.

use padkit::Tensor;
use padkit_onnx::pb::{AttributeProto, NodeProto};
use padkit_onnx_tools::model::{Feed, PadModel};
use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::Approximation;

/// Pad(mode) → Conv 3×3 (no padding) on a 1×2×6×6 input.
fn pad_conv(mode: &str) -> padkit_onnx::pb::ModelProto {
    let x = Tensor::from_slice(&[1, 2, 6, 6], &[0.5f32; 72]).unwrap();
    let mut proto =
        PadModel::new(13, mode, x, vec![0, 0, 1, 1, 0, 0, 1, 1], Feed::Initializer).proto();
    let g = proto.graph.as_mut().unwrap();
    let w = Tensor::from_slice(
        &[4, 2, 3, 3],
        &(0..72).map(|i| i as f32 * 0.01).collect::<Vec<_>>(),
    )
    .unwrap();
    g.initializer
        .push(padkit_onnx::proto::tensor_to_proto(&w, "w"));
    g.node.push(NodeProto {
        name: "conv".into(),
        op_type: "Conv".into(),
        input: vec!["y".into(), "w".into()],
        output: vec!["z".into()],
        attribute: vec![AttributeProto {
            name: "kernel_shape".into(),
            r#type: 7,
            ints: vec![3, 3],
            ..Default::default()
        }],
        ..Default::default()
    });
    g.output[0].name = "z".into();
    proto
}

fn optimized(mode: &str) -> TypedModel {
    padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&pad_conv(mode)).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap()
}

fn names(m: &TypedModel) -> Vec<String> {
    m.nodes().iter().map(|n| n.op.name().to_string()).collect()
}

#[test]
fn zero_constant_pad_folds_into_conv() {
    let load = |onnx: tract_onnx::Onnx| {
        onnx.model_for_proto_model(&padkit_tract::tract_proto(&pad_conv("constant")).unwrap())
            .unwrap()
    };
    // Declutter folds the Pad into the Conv's padding: no Pad node is left.
    let decluttered = load(padkit_tract::onnx())
        .into_typed()
        .unwrap()
        .into_decluttered()
        .unwrap();
    let ops = names(&decluttered);
    assert!(!ops.iter().any(|n| n.contains("Pad")), "{ops:?}");
    assert_eq!(ops.len(), 4, "{ops:?}"); // Source, two Consts, Conv
    // The optimised graph is exactly stock tract's (whose lazy-im2col codegen re-emits
    // its own internal pad for this shape).
    let stock = load(tract_onnx::onnx()).into_optimized().unwrap();
    assert_eq!(
        names(&load(padkit_tract::onnx()).into_optimized().unwrap()),
        names(&stock)
    );
}

#[test]
fn reflect_pad_before_conv_runs_padkit() {
    let ours = optimized("reflect");
    let ops = names(&ours);
    assert_eq!(
        ops.iter().filter(|n| *n == "PadkitPad").count(),
        1,
        "{ops:?}"
    );
    assert!(!ops.iter().any(|n| n == "Pad"), "{ops:?}");
    // and it computes what stock tract computes for this legal reflect
    let stock = tract_onnx::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&pad_conv("reflect")).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap();
    let x = tract_ndarray::ArrayD::from_shape_fn(vec![1, 2, 6, 6], |i| {
        (i[2] * 6 + i[3] + i[1] * 36) as f32
    })
    .into_tensor();
    let a = ours
        .into_runnable()
        .unwrap()
        .run(tvec!(x.clone().into_tvalue()))
        .unwrap();
    let b = stock
        .into_runnable()
        .unwrap()
        .run(tvec!(x.into_tvalue()))
        .unwrap();
    a[0].close_enough(&b[0], Approximation::Approximate)
        .unwrap();
}

/// `m`'s Pad, then a node `op_type` reading its output `y` (and writing `z`).
fn then(mut proto: padkit_onnx::pb::ModelProto, op_type: &str) -> padkit_onnx::pb::ModelProto {
    let g = proto.graph.as_mut().unwrap();
    let input = g.output[0].name.clone();
    let output = format!("{input}_{}", op_type.to_lowercase());
    g.node.push(NodeProto {
        name: output.clone(),
        op_type: op_type.into(),
        input: vec![input],
        output: vec![output.clone()],
        ..Default::default()
    });
    g.output[0].name = output;
    proto
}

/// A second Pad after `proto`'s last node.
fn then_pad(mut proto: padkit_onnx::pb::ModelProto, pads: &[i64]) -> padkit_onnx::pb::ModelProto {
    let g = proto.graph.as_mut().unwrap();
    let input = g.output[0].name.clone();
    let p = Tensor::from_slice(&[pads.len()], pads).unwrap();
    g.initializer
        .push(padkit_onnx::proto::tensor_to_proto(&p, "pads2"));
    g.node.push(NodeProto {
        name: "pad2".into(),
        op_type: "Pad".into(),
        input: vec![input, "pads2".into()],
        output: vec!["y2".into()],
        ..Default::default()
    });
    g.output[0].name = "y2".into();
    proto
}

/// The rewrites tract applies around its own Pad apply around padkit's: on every model of
/// a corpus that exercises them (folding into a Conv, constant folding of a Pad of a
/// constant, consecutive Pads, Pads before element-wise ops and pools, layout changes),
/// the optimised graph has as many nodes as stock tract's.
#[test]
fn optimised_graphs_are_as_small_as_stock() {
    let x = Tensor::from_slice(&[1, 2, 6, 6], &[0.5f32; 72]).unwrap();
    let pads = vec![0, 0, 1, 2, 0, 0, 2, 1];
    let pad = |mode: &str| PadModel::new(13, mode, x.clone(), pads.clone(), Feed::Initializer);
    // the data an initializer instead of a graph input
    let mut of_constant = pad("constant").proto();
    let g = of_constant.graph.as_mut().unwrap();
    g.input.retain(|i| i.name != "x");
    g.initializer
        .push(padkit_onnx::proto::tensor_to_proto(&x, "x"));
    let corpus = [
        ("zero pad, conv", pad_conv("constant")),
        ("edge pad, conv", pad_conv("edge")),
        ("constant pad of a constant", of_constant),
        (
            "two pads",
            then_pad(pad("constant").proto(), &[0, 0, 1, 0, 0, 0, 0, 1]),
        ),
        ("reflect pad, relu", then(pad("reflect").proto(), "Relu")),
        (
            "edge pad, global max pool",
            then(pad("edge").proto(), "GlobalMaxPool"),
        ),
        (
            "zero pad, transpose",
            then(pad("constant").proto(), "Transpose"),
        ),
    ];
    for (what, proto) in corpus {
        let count = |onnx: tract_onnx::Onnx| {
            let m = onnx
                .model_for_proto_model(&padkit_tract::tract_proto(&proto).unwrap())
                .unwrap()
                .into_optimized()
                .unwrap();
            (m.nodes().len(), names(&m))
        };
        let (ours, our_ops) = count(padkit_tract::onnx());
        let (stock, stock_ops) = count(tract_onnx::onnx());
        assert!(
            ours <= stock,
            "{what}: padkit {our_ops:?}, stock {stock_ops:?}"
        );
        assert_eq!(
            ours, stock,
            "{what}: padkit {our_ops:?}, stock {stock_ops:?}"
        );
    }
}
