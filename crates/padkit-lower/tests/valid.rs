//! Lowered models keep to the type constraints of the op versions they are written at:
//! at opsets 6 to 8, whose `Constant` holds float16, float and double only, integer
//! constants (index maps) are doubles cast to their type, and the model still computes
//! padkit's answer on stock tract.

use padkit::{PadMode, PadSpec, Tensor};
use padkit_onnx::model::{Feed, PadModel};
use tract_onnx::pb::AttributeProto;
use tract_onnx::prelude::*;

/// The element type of the tensor a `Constant` node holds.
fn held(attrs: &[AttributeProto]) -> i32 {
    attrs
        .iter()
        .find_map(|a| a.t.as_ref())
        .map_or(0, |t| t.data_type)
}

#[test]
fn constants_before_opset_9_hold_floats() {
    let x = Tensor::from_slice(&[2, 4], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]).unwrap();
    let pads = vec![0, 2, 0, -1];
    for opset in [6, 7, 8] {
        let model = PadModel::new(opset, "reflect", x.clone(), pads.clone(), Feed::Attribute);
        let lowered = padkit_lower::lower(&model.proto()).unwrap();
        let nodes = &lowered.graph.as_ref().unwrap().node;
        let constants: Vec<i32> = nodes
            .iter()
            .filter(|n| n.op_type == "Constant")
            .map(|n| held(&n.attribute))
            .collect();
        // float16, float, double
        assert!(!constants.is_empty());
        assert!(
            constants.iter().all(|t| [1, 10, 11].contains(t)),
            "opset {opset}: {constants:?}"
        );
        assert!(nodes.iter().any(|n| n.op_type == "Cast"));
        let plan = tract_onnx::onnx()
            .model_for_proto_model(&lowered)
            .unwrap()
            .into_optimized()
            .unwrap()
            .into_runnable()
            .unwrap();
        let out = plan
            .run(tvec![padkit_tract::to_tract(&x).unwrap().into_tvalue()])
            .unwrap();
        let spec = PadSpec::new(pads.clone()).with_mode(PadMode::Reflect);
        let want = padkit::pad_tensor(&x, &spec, None).unwrap();
        assert_eq!(
            padkit_tract::from_tract(&out[0]).unwrap(),
            want,
            "opset {opset}"
        );
    }
}
