//! Pads whose pads are a sparse initializer (valid ONNX, which ONNX Runtime reads): read as
//! the dense constant they stand for, not refused as a value nothing produces. Stock tract
//! reads no sparse initializer, so the lowered model is checked with its sparse pads made
//! dense again, against padkit's core.

use padkit::{PadMode, PadSpec, Tensor};
use padkit_onnx::model::{Feed, PadModel};
use padkit_onnx::proto::tensor_to_proto;
use tract_onnx::pb::{ModelProto, SparseTensorProto, TensorProto};
use tract_onnx::prelude::*;

const PADS: [i64; 4] = [0, 2, 0, 1];

/// `model` with its dense initializer `pads` moved to a sparse initializer of its non-zero
/// entries (linear indices).
fn sparse_pads(mut model: ModelProto) -> ModelProto {
    let g = model.graph.as_mut().unwrap();
    let at = g.initializer.iter().position(|t| t.name == "pads").unwrap();
    let dense = g.initializer.remove(at);
    let (indices, values): (Vec<i64>, Vec<i64>) = PADS
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(k, &v)| (k as i64, v))
        .unzip();
    let int64 = |name: &str, data: Vec<i64>| TensorProto {
        name: name.into(),
        data_type: 7,
        dims: vec![data.len() as i64],
        int64_data: data,
        ..Default::default()
    };
    g.sparse_initializer.push(SparseTensorProto {
        values: Some(int64("pads", values)),
        indices: Some(int64("", indices)),
        dims: dense.dims,
    });
    model
}

#[test]
fn sparse_pads_are_read_as_the_constant_they_stand_for() {
    let x = Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let model = PadModel::new(13, "reflect", x.clone(), PADS.to_vec(), Feed::Initializer);
    let lowered = padkit_lower::lower(&sparse_pads(model.proto())).unwrap();
    let g = lowered.graph.clone().unwrap();
    assert!(g.node.iter().all(|n| n.op_type != "Pad"));
    // (the lowered model keeps the sparse initializer; dense again for stock tract)
    let mut dense = lowered.clone();
    let dg = dense.graph.as_mut().unwrap();
    dg.sparse_initializer.clear();
    let pads = Tensor::from_slice(&[4], &PADS).unwrap();
    dg.initializer.push(tensor_to_proto(&pads, "pads"));
    let plan = tract_onnx::onnx()
        .model_for_proto_model(&dense)
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let out = plan
        .run(tvec![padkit_tract::to_tract(&x).unwrap().into_tvalue()])
        .unwrap();
    let got = padkit_tract::from_tract(&out[0]).unwrap();
    let spec = PadSpec::new(PADS.to_vec()).with_mode(PadMode::Reflect);
    assert_eq!(got, padkit::pad_tensor(&x, &spec, None).unwrap());
}
