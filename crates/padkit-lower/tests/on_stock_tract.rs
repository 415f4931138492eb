//! Lowered models run by stock tract-onnx: a Pad inside an `If` branch, reading the outer
//! graph's input and initializer, against the output worked out by hand; Pads of data
//! whose batch extent is known only at run time, against padkit-conformance's naive
//! reference; pads from a sparse initializer, and index maps at opsets 6–8, against
//! padkit's core.

use padkit::{PadMode, PadSpec, Tensor};
use padkit_onnx::pb::attribute_proto::AttributeType;
use padkit_onnx::pb::tensor_shape_proto::dimension::Value as Dim;
use padkit_onnx::pb::type_proto::Value;
use padkit_onnx::pb::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, SparseTensorProto,
    TensorProto, ValueInfoProto,
};
use padkit_onnx::proto::tensor_to_proto;
use padkit_onnx_tools::model::{Feed, PadModel};
use tract_onnx::prelude::*;

/// A tensor value of ONNX type `elem_type`; a negative extent is the symbol `N`.
fn value(name: &str, elem_type: i32, extents: &[i64]) -> ValueInfoProto {
    padkit_onnx::graph::value_info(name, elem_type, Some(padkit_onnx::graph::dims(extents)))
}

/// `model` run by stock tract-onnx on `inputs`: its first output.
fn on_stock_tract(model: &ModelProto, inputs: TVec<TValue>) -> padkit::Tensor {
    let plan = tract_onnx::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(model).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let out = plan.run(inputs).unwrap();
    padkit_tract::from_tract(&out[0]).unwrap()
}

/// The op types of `model`'s main graph.
fn ops_of(model: &ModelProto) -> Vec<&str> {
    let graph = model.graph.as_ref().unwrap();
    graph.node.iter().map(|n| n.op_type.as_str()).collect()
}

fn node(op: &str, inputs: &[&str], output: &str, attribute: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        op_type: op.into(),
        name: output.into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.into()],
        attribute,
        ..Default::default()
    }
}

fn branch(name: &str, nodes: Vec<NodeProto>, output: &str) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Graph as i32,
        g: Some(GraphProto {
            name: name.into(),
            node: nodes,
            output: vec![value(output, 1, &[1, 6])],
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// `If(cond, then: reflect Pad of x by (1, 2) on its last axis, else: the same Pad in
/// edge mode)`, x = [[1, 2, 3]].
fn model() -> ModelProto {
    let mode = |m: &str| AttributeProto {
        name: "mode".into(),
        r#type: AttributeType::String as i32,
        s: m.as_bytes().to_vec(),
        ..Default::default()
    };
    let then = branch(
        "then_branch",
        vec![node("Pad", &["x", "pads"], "t", vec![mode("reflect")])],
        "t",
    );
    let otherwise = branch(
        "else_branch",
        vec![node("Pad", &["x", "pads"], "e", vec![mode("edge")])],
        "e",
    );
    let pads = padkit::Tensor::from_slice(&[4], &[0i64, 1, 0, 2]).unwrap();
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: 18,
        }],
        graph: Some(GraphProto {
            name: "g".into(),
            node: vec![node("If", &["cond"], "y", vec![then, otherwise])],
            initializer: vec![tensor_to_proto(&pads, "pads")],
            input: vec![value("cond", 9, &[]), value("x", 1, &[1, 3])],
            output: vec![value("y", 1, &[1, 6])],
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn pads_in_branches_are_lowered_and_run_by_stock_tract() {
    let lowered = padkit_lower::lower(&model()).unwrap();
    let branches = &lowered.graph.as_ref().unwrap().node[0].attribute;
    for b in branches {
        for n in &b.g.as_ref().unwrap().node {
            assert!(
                padkit_lower::PORTABLE_OPS.contains(&n.op_type.as_str()),
                "{}",
                n.op_type
            );
        }
    }
    let x = tensor2(&[[1.0f32, 2.0, 3.0]]);
    for (cond, want) in [
        (true, [2.0f32, 1.0, 2.0, 3.0, 2.0, 1.0]),
        (false, [1.0, 1.0, 2.0, 3.0, 3.0, 3.0]),
    ] {
        let inputs = tvec![tensor0(cond).into_tvalue(), x.clone().into_tvalue()];
        let y = on_stock_tract(&lowered, inputs);
        assert_eq!(y.to_vec::<f32>().unwrap(), want, "cond {cond}");
    }
}

/// `x` of shape [N, 5] (N known only at run time) padded by (2, 1) on its last axis in
/// every mode (constant with the value 7), lowered, on N = 3.
#[test]
fn run_time_extents_match_the_reference() {
    use padkit::PadMode;
    use padkit_conformance::reference::Case;
    for mode in ["constant", "reflect", "edge", "wrap", "symmetric"] {
        let pads = padkit::Tensor::from_slice(&[4], &[0i64, 2, 0, 1]).unwrap();
        let fill = padkit::Tensor::scalar(7.0f32);
        let attribute = vec![AttributeProto {
            name: "mode".into(),
            r#type: AttributeType::String as i32,
            s: mode.as_bytes().to_vec(),
            ..Default::default()
        }];
        let (domain, opset) = match mode {
            "symmetric" => (padkit::onnx::PADKIT_DOMAIN, 1),
            _ => ("", 19),
        };
        let mut pad = node("Pad", &["x", "pads", "value"], "y", attribute);
        pad.domain = domain.into();
        let mut imports = vec![OperatorSetIdProto {
            domain: String::new(),
            version: 19,
        }];
        if !domain.is_empty() {
            imports.push(OperatorSetIdProto {
                domain: domain.into(),
                version: opset,
            });
        }
        let model = ModelProto {
            ir_version: 9,
            opset_import: imports,
            graph: Some(GraphProto {
                name: "g".into(),
                node: vec![pad],
                initializer: vec![
                    tensor_to_proto(&pads, "pads"),
                    tensor_to_proto(&fill, "value"),
                ],
                input: vec![value("x", 1, &[-1, 5])],
                output: vec![value("y", 1, &[-1, 8])],
                ..Default::default()
            }),
            ..Default::default()
        };
        let lowered = padkit_lower::lower(&model).unwrap();
        let data: Vec<f32> = (0..15).map(|v| v as f32).collect();
        let x = tract_ndarray::Array2::from_shape_vec((3, 5), data.clone()).unwrap();
        let y = on_stock_tract(&lowered, tvec![x.into_tensor().into_tvalue()]);
        let m: PadMode = mode.parse().unwrap();
        let (shape, want) = Case::new(vec![3, 5], vec![0, 2, 0, 1], m)
            .reference(&data, 7.0, usize::MAX)
            .unwrap();
        assert_eq!(y.shape(), &shape[..], "{mode}");
        assert_eq!(y.to_vec::<f32>().unwrap(), want, "{mode}");
    }
}

/// ONNX's `CenterCropPad` (opset 18) of a [3, 5] tensor to [5, 2] (axis 0 padded by 1 and
/// 1, axis 1 cropped by 1 and 2: the smaller half before), lowered, on stock tract-onnx
/// (which has no CenterCropPad of its own), against the output worked out by hand.
#[test]
fn center_crop_pad_is_lowered() {
    use padkit_onnx_tools::model::{Feed, PadModel};
    let data: Vec<f32> = (0..15).map(|v| v as f32).collect();
    let x = padkit::Tensor::from_slice(&[3, 5], &data).unwrap();
    let mut model = PadModel::new(18, "constant", x, vec![5, 2], Feed::Initializer).proto();
    let node = &mut model.graph.as_mut().unwrap().node[0];
    node.op_type = "CenterCropPad".into();
    node.attribute.clear();
    let lowered = padkit_lower::lower(&model).unwrap();
    let ops = ops_of(&lowered);
    assert!(
        ops.iter().all(|op| padkit_lower::PORTABLE_OPS.contains(op)),
        "{ops:?}"
    );
    let x = tract_ndarray::Array2::from_shape_vec((3, 5), data).unwrap();
    let y = on_stock_tract(&lowered, tvec![x.into_tensor().into_tvalue()]);
    assert_eq!(y.shape(), &[5, 2]);
    #[rustfmt::skip]
    let want = [
        0.0, 0.0,
        1.0, 2.0,
        6.0, 7.0,
        11.0, 12.0,
        0.0, 0.0,
    ];
    assert_eq!(y.to_vec::<f32>().unwrap(), want);
}

/// A constant pad of strings (which `ConstantOfShape` never takes) on an axis whose extent
/// is known only at run time: the fill block is the value `Expand`ed to the data's shape.
#[test]
fn string_fill_blocks_of_run_time_extents_are_expanded() {
    use padkit_onnx_tools::model::{Feed, PadModel};
    let words: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let x = padkit::Tensor::from_strings(&[3, 1], words.clone()).unwrap();
    let value = padkit::Tensor::from_strings(&[], vec!["-".into()]).unwrap();
    let mut model = PadModel::new(
        13,
        "constant",
        x.clone(),
        vec![1, 0, 0, 0],
        Feed::Initializer,
    )
    .with_value(value, Feed::Initializer);
    model.symbolic_dims[0] = Some("N".into());
    let lowered = padkit_lower::lower(&model.proto()).unwrap();
    let ops = ops_of(&lowered);
    assert!(ops.contains(&"Expand") && !ops.contains(&"Pad"), "{ops:?}");
    let y = on_stock_tract(
        &lowered,
        tvec![padkit_tract::to_tract(&x).unwrap().into_tvalue()],
    );
    assert_eq!(y.shape(), &[4, 1]);
    assert_eq!(
        y.data(),
        &padkit::Data::Strings(vec!["-".into(), "a".into(), "b".into(), "c".into()])
    );
}

/// With no axis padded — axes known and empty, or data of rank 0 — the checks on the pads
/// and axes as a whole still hold at run time: pads fed with 2 values for 0 axes, or axes
/// fed naming axis 0 of a rank-0 tensor, fail in the lowered model as in the core; pads
/// that fit give the data back.
#[test]
fn whole_pads_checks_hold_with_no_axis_padded() {
    use padkit_onnx_tools::model::{Feed, PadModel};
    let run = |model: &ModelProto, inputs: TVec<TValue>| {
        let model = model.clone();
        // stock tract 0.23.9 panics on the guard's out-of-range Gather (its own error)
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            on_stock_tract(&model, inputs)
        }))
    };
    let x = padkit::Tensor::from_slice(&[2, 3], &[1f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let m = PadModel::new(18, "edge", x.clone(), vec![], Feed::Input)
        .with_axes(vec![], Feed::Initializer)
        .proto();
    let lowered = padkit_lower::lower(&m).unwrap();
    let tx = || padkit_tract::to_tract(&x).unwrap().into_tvalue();
    let pads = |p: &[i64]| {
        tract_ndarray::Array1::from(p.to_vec())
            .into_tensor()
            .into_tvalue()
    };
    let y = run(&lowered, tvec![tx(), pads(&[])]).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert!(
        padkit::pad_tensor(
            &x,
            &padkit::PadSpec::new(vec![1, 1]).with_axes(vec![]),
            None
        )
        .is_err()
    );
    assert!(run(&lowered, tvec![tx(), pads(&[1, 1])]).is_err());

    let s = padkit::Tensor::scalar(7.0f32);
    let m = PadModel::new(18, "edge", s.clone(), vec![0, 0], Feed::Initializer)
        .with_axes(vec![0], Feed::Input)
        .proto();
    let lowered = padkit_lower::lower(&m).unwrap();
    let ts = || padkit_tract::to_tract(&s).unwrap().into_tvalue();
    let axes = tract_ndarray::Array1::from(vec![0i64])
        .into_tensor()
        .into_tvalue();
    assert!(run(&lowered, tvec![ts(), axes]).is_err());
}

/// The pads the sparse initializer holds.
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

/// Pads whose pads are a sparse initializer (valid ONNX, which ONNX Runtime reads) are read
/// as the dense constant they stand for, not refused as a value nothing produces. Stock
/// tract reads no sparse initializer: the lowered model runs with its pads dense again.
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
    let x_in = tvec![padkit_tract::to_tract(&x).unwrap().into_tvalue()];
    let got = on_stock_tract(&dense, x_in);
    let spec = PadSpec::new(PADS.to_vec()).with_mode(PadMode::Reflect);
    assert_eq!(got, padkit::pad_tensor(&x, &spec, None).unwrap());
}

/// The element type of the tensor a `Constant` node holds.
fn held(attrs: &[AttributeProto]) -> i32 {
    attrs
        .iter()
        .find_map(|a| a.t.as_ref())
        .map_or(0, |t| t.data_type)
}

/// Before opset 9, whose `Constant` holds float16, float and double only, integer
/// constants (index maps, slice bounds) are doubles cast to their type at opsets 6 to 8,
/// and initializers before 6 (whose `Cast` names its type by a string): within the op
/// versions' type constraints, and the model still computes padkit's answer.
#[test]
fn constants_before_opset_9_hold_floats_or_are_initializers() {
    let x = Tensor::from_slice(&[2, 4], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]).unwrap();
    let pads = vec![0, 2, 0, -1];
    for opset in [1, 2, 6, 7, 8] {
        let model = PadModel::new(opset, "reflect", x.clone(), pads.clone(), Feed::Attribute);
        let original = model.proto();
        let lowered = padkit_lower::lower(&original).unwrap();
        let nodes = &lowered.graph.as_ref().unwrap().node;
        // before opset 6 (whose Cast names its type by a string) the integers are
        // initializers; from 6 to 8, doubles cast to int64
        let initializers = |m: &ModelProto| m.graph.as_ref().unwrap().initializer.len();
        assert_eq!(
            initializers(&lowered) > initializers(&original),
            opset < 6,
            "opset {opset}"
        );
        if opset < 6 {
            // below IR version 4 each initializer is a graph input too, of its type and
            // extents
            let mut old_ir = original.clone();
            old_ir.ir_version = 3;
            let lowered_old = padkit_lower::lower(&old_ir).unwrap();
            let g = lowered_old.graph.unwrap();
            assert!(!g.initializer.is_empty());
            for t in &g.initializer {
                let input = g.input.iter().find(|i| i.name == t.name).expect("declared");
                let Some(Value::TensorType(tt)) = input.r#type.as_ref().unwrap().value.as_ref()
                else {
                    panic!("{} is not declared a tensor", t.name);
                };
                let extents: Vec<i64> = tt
                    .shape
                    .as_ref()
                    .unwrap()
                    .dim
                    .iter()
                    .map(|d| match d.value {
                        Some(Dim::DimValue(v)) => v,
                        _ => panic!("{}: an extent that is not a number", t.name),
                    })
                    .collect();
                assert_eq!((tt.elem_type, extents), (t.data_type, t.dims.clone()));
            }
        }
        let constants: Vec<i32> = nodes
            .iter()
            .filter(|n| n.op_type == "Constant")
            .map(|n| held(&n.attribute))
            .collect();
        // float16, float, double
        assert!(
            constants.iter().all(|t| [1, 10, 11].contains(t)),
            "opset {opset}: {constants:?}"
        );
        assert_eq!(nodes.iter().any(|n| n.op_type == "Cast"), opset >= 6);
        let x_in = tvec![padkit_tract::to_tract(&x).unwrap().into_tvalue()];
        let got = on_stock_tract(&lowered, x_in);
        let spec = PadSpec::new(pads.clone()).with_mode(PadMode::Reflect);
        let want = padkit::pad_tensor(&x, &spec, None).unwrap();
        assert_eq!(got, want, "opset {opset}");
    }
}

/// A Pad whose output is empty (another axis is 0), known when the model is read, needs
/// no index map, however long its padded axis: it lowers into a block of that shape
/// holding nothing (not a map of 2^24 entries, which the cap refused), and runs.
#[test]
fn an_empty_output_needs_no_index_map() {
    use prost::Message;
    let long = padkit_lower::MAX_MAP_LEN as i64;
    for mode in ["reflect", "edge", "wrap", "constant"] {
        let x = padkit::Tensor::from_slice::<f32>(&[0, 3], &[]).unwrap();
        let mut m = PadModel::new(19, mode, x, vec![0, 5, 0, 7], Feed::Initializer).proto();
        // (declared only: the lowering reads the data's extents)
        m.graph.as_mut().unwrap().input[0] = value("x", 1, &[0, long]);
        let lowered = padkit_lower::lower(&m).unwrap();
        assert!(
            !ops_of(&lowered).contains(&"Gather"),
            "{mode}: {:?}",
            ops_of(&lowered)
        );
        assert!(
            lowered.encoded_len() < 1000,
            "{mode}: {} bytes",
            lowered.encoded_len()
        );
        let x = tract_onnx::prelude::Tensor::zero::<f32>(&[0, long as usize]).unwrap();
        let y = on_stock_tract(&lowered, tvec![x.into()]);
        assert_eq!(y.shape(), &[0, long as usize + 12], "{mode}");
    }
}
