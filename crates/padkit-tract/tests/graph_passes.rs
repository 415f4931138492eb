//! padkit's Pad as a citizen of tract's optimiser: layout changes move through it,
//! symbols fixed later fix its output shape, quantized types keep their parameters.

use padkit::{PadMode, Tensor};
use padkit_onnx::pb::{AttributeProto, NodeProto};
use padkit_onnx_tools::model::{Feed, PadModel};
use padkit_testkit::Case;
use padkit_tract::to_tract;
use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::change_axes::AxisOp;

fn transpose(name: &str, input: &str, output: &str, perm: &[i64]) -> NodeProto {
    NodeProto {
        name: name.into(),
        op_type: "Transpose".into(),
        input: vec![input.into()],
        output: vec![output.into()],
        attribute: vec![AttributeProto {
            name: "perm".into(),
            r#type: 7,
            ints: perm.to_vec(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// NCHW → NHWC, a reflect Pad of H and W, NHWC → NCHW: the optimiser moves the
/// transposes through padkit's Pad until they cancel. (tract-core's own Pad does not take
/// moved axes, so stock tract keeps both transposes around it.)
#[test]
fn transposes_around_the_pad_cancel() {
    let data: Vec<f32> = (0..60).map(|i| i as f32).collect();
    let x = Tensor::from_slice(&[1, 3, 4, 5], &data).unwrap();
    let nhwc = Tensor::from_slice(&[1, 4, 5, 3], &[0.0f32; 60]).unwrap();
    let pads = vec![0, 1, 2, 0, 0, 1, 2, 0];
    let mut proto = PadModel::new(13, "reflect", nhwc, pads, Feed::Initializer).proto();
    let g = proto.graph.as_mut().unwrap();
    g.input[0] = PadModel::new(13, "reflect", x.clone(), vec![], Feed::Initializer)
        .proto()
        .graph
        .unwrap()
        .input[0]
        .clone();
    g.node[0].input[0] = "x_nhwc".into();
    g.node[0].output[0] = "y_nhwc".into();
    g.node
        .insert(0, transpose("to_nhwc", "x", "x_nhwc", &[0, 2, 3, 1]));
    g.node
        .push(transpose("to_nchw", "y_nhwc", "y", &[0, 3, 1, 2]));
    g.output[0].r#type = None;
    let optimized = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&proto).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap();
    let moves = optimized
        .nodes()
        .iter()
        .filter(|n| n.op_as::<AxisOp>().is_some())
        .count();
    let ops: Vec<String> = optimized
        .nodes()
        .iter()
        .map(|n| n.op.name().to_string())
        .collect();
    assert_eq!(moves, 0, "{ops:?}");
    assert!(ops.iter().any(|o| o == "PadkitPad"), "{ops:?}");
    let out = optimized
        .into_runnable()
        .unwrap()
        .run(tvec!(to_tract(&x).unwrap().into_tvalue()))
        .unwrap();
    let got: Vec<f32> = out[0]
        .to_plain_array_view::<f32>()
        .unwrap()
        .iter()
        .copied()
        .collect();
    let want = Case::new(
        vec![1, 3, 4, 5],
        vec![0, 0, 1, 2, 0, 0, 1, 2],
        PadMode::Reflect,
    );
    assert_eq!(out[0].shape(), &[1, 3, 6, 9]);
    assert_eq!(got, want.reference(&data, 0.0, usize::MAX).unwrap().1);
}

/// A symbolic batch fixed after optimisation: the Pad's output shape follows.
#[test]
fn fixing_a_symbol_fixes_the_output_shape() {
    let x = Tensor::from_slice(&[2, 3], &[0.0f32; 6]).unwrap();
    let mut m = PadModel::new(19, "wrap", x, vec![0, 1, 0, 2], Feed::Initializer);
    m.symbolic_dims = vec![Some("N".into()), None];
    let optimized = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto()).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap();
    let n = optimized.symbols.sym("N");
    let fixed = optimized
        .set_symbols(&[(n, 4.to_dim())].into_iter().collect())
        .unwrap();
    let fact = fixed.output_fact(0).unwrap();
    assert_eq!(fact.shape.as_concrete(), Some(&[4usize, 6][..]), "{fact:?}");
    let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let out = fixed
        .into_runnable()
        .unwrap()
        .run(tvec!(
            tract_ndarray::Array2::from_shape_vec((4, 3), data.clone())
                .unwrap()
                .into_tvalue()
        ))
        .unwrap();
    let got: Vec<f32> = out[0]
        .to_plain_array_view::<f32>()
        .unwrap()
        .iter()
        .copied()
        .collect();
    let want = Case::new(vec![4, 3], vec![0, 1, 0, 2], PadMode::Wrap);
    assert_eq!(got, want.reference(&data, 0.0, usize::MAX).unwrap().1);
}

/// A quantized u8 tensor keeps its scale and zero point through the pad.
#[test]
fn quantized_types_keep_their_parameters() {
    let qu8 = u8::datum_type().quantize(QParams::ZpScale {
        zero_point: 3,
        scale: 0.5,
    });
    let mut model = TypedModel::default();
    let x = model.add_source("x", qu8.fact([4])).unwrap();
    let op = padkit_tract::PadkitPad::new(
        "p",
        PadMode::Edge,
        padkit_tract::Given::Known(vec![1.to_dim(), 2.to_dim()]),
        padkit_tract::Given::Known(None),
        padkit_tract::Given::Known(None),
        &model,
        x,
    )
    .unwrap();
    let y = model.wire_node("p", op, &[x]).unwrap();
    model.select_output_outlets(&y).unwrap();
    assert_eq!(model.output_fact(0).unwrap().datum_type, qu8);
    let mut input = tensor1(&[10u8, 20, 30, 40]);
    // SAFETY: QU8 stores u8.
    unsafe { input.set_datum_type(qu8) };
    let out = model
        .into_runnable()
        .unwrap()
        .run(tvec!(input.into_tvalue()))
        .unwrap();
    assert_eq!(out[0].datum_type(), qu8);
    assert_eq!(out[0].as_bytes(), &[10, 10, 20, 30, 40, 40, 40]);
}
