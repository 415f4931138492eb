//! `padkit_onnx_tools::wire` against prost's own encoder of unpacked repeated numbers: the ONNX
//! messages below mirror tract-onnx's generated ones (the same fields in the same order)
//! with `packed = "false"` on every repeated number, as `onnx.proto` (proto2) declares
//! them. Decoding prost's packed bytes into the mirror and encoding it again gives the
//! bytes onnx's encoding prescribes, independently of the wire rewrite under test.

use padkit_conformance::{Expected, Size, cases};
use padkit_onnx::proto::tensor_to_proto;
use padkit_onnx_tools::model::PadModel;
use padkit_onnx_tools::wire::{Root, encode_model, encode_tensor, unpack};
use prost::Message;

#[derive(Clone, PartialEq, Message)]
struct ModelProto {
    #[prost(int64, tag = "1")]
    ir_version: i64,
    #[prost(message, repeated, tag = "8")]
    opset_import: Vec<OperatorSetIdProto>,
    #[prost(string, tag = "2")]
    producer_name: String,
    #[prost(string, tag = "3")]
    producer_version: String,
    #[prost(string, tag = "4")]
    domain: String,
    #[prost(int64, tag = "5")]
    model_version: i64,
    #[prost(string, tag = "6")]
    doc_string: String,
    #[prost(message, optional, tag = "7")]
    graph: Option<GraphProto>,
    #[prost(message, repeated, tag = "14")]
    metadata_props: Vec<StringStringEntryProto>,
}

#[derive(Clone, PartialEq, Message)]
struct OperatorSetIdProto {
    #[prost(string, tag = "1")]
    domain: String,
    #[prost(int64, tag = "2")]
    version: i64,
}

#[derive(Clone, PartialEq, Message)]
struct StringStringEntryProto {
    #[prost(string, tag = "1")]
    key: String,
    #[prost(string, tag = "2")]
    value: String,
}

#[derive(Clone, PartialEq, Message)]
struct GraphProto {
    #[prost(message, repeated, tag = "1")]
    node: Vec<NodeProto>,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(message, repeated, tag = "5")]
    initializer: Vec<TensorProto>,
    #[prost(string, tag = "10")]
    doc_string: String,
    #[prost(message, repeated, tag = "11")]
    input: Vec<ValueInfoProto>,
    #[prost(message, repeated, tag = "12")]
    output: Vec<ValueInfoProto>,
    #[prost(message, repeated, tag = "13")]
    value_info: Vec<ValueInfoProto>,
}

#[derive(Clone, PartialEq, Message)]
struct NodeProto {
    #[prost(string, repeated, tag = "1")]
    input: Vec<String>,
    #[prost(string, repeated, tag = "2")]
    output: Vec<String>,
    #[prost(string, tag = "3")]
    name: String,
    #[prost(string, tag = "4")]
    op_type: String,
    #[prost(string, tag = "7")]
    domain: String,
    #[prost(message, repeated, tag = "5")]
    attribute: Vec<AttributeProto>,
    #[prost(string, tag = "6")]
    doc_string: String,
}

#[derive(Clone, PartialEq, Message)]
struct AttributeProto {
    #[prost(string, tag = "1")]
    name: String,
    #[prost(string, tag = "21")]
    ref_attr_name: String,
    #[prost(string, tag = "13")]
    doc_string: String,
    #[prost(int32, tag = "20")]
    r#type: i32,
    #[prost(float, tag = "2")]
    f: f32,
    #[prost(int64, tag = "3")]
    i: i64,
    #[prost(bytes = "vec", tag = "4")]
    s: Vec<u8>,
    #[prost(message, optional, tag = "5")]
    t: Option<TensorProto>,
    #[prost(message, optional, tag = "6")]
    g: Option<GraphProto>,
    #[prost(float, repeated, packed = "false", tag = "7")]
    floats: Vec<f32>,
    #[prost(int64, repeated, packed = "false", tag = "8")]
    ints: Vec<i64>,
    #[prost(bytes = "vec", repeated, tag = "9")]
    strings: Vec<Vec<u8>>,
    #[prost(message, repeated, tag = "10")]
    tensors: Vec<TensorProto>,
    #[prost(message, repeated, tag = "11")]
    graphs: Vec<GraphProto>,
}

#[derive(Clone, PartialEq, Message)]
struct TensorProto {
    #[prost(int64, repeated, packed = "false", tag = "1")]
    dims: Vec<i64>,
    #[prost(int32, tag = "2")]
    data_type: i32,
    #[prost(float, repeated, packed = "false", tag = "4")]
    float_data: Vec<f32>,
    #[prost(int32, repeated, packed = "false", tag = "5")]
    int32_data: Vec<i32>,
    #[prost(bytes = "vec", repeated, tag = "6")]
    string_data: Vec<Vec<u8>>,
    #[prost(int64, repeated, packed = "false", tag = "7")]
    int64_data: Vec<i64>,
    #[prost(string, tag = "8")]
    name: String,
    #[prost(string, tag = "12")]
    doc_string: String,
    #[prost(bytes = "vec", tag = "9")]
    raw_data: Vec<u8>,
    #[prost(double, repeated, packed = "false", tag = "10")]
    double_data: Vec<f64>,
    #[prost(uint64, repeated, packed = "false", tag = "11")]
    uint64_data: Vec<u64>,
    #[prost(int32, optional, tag = "14")]
    data_location: Option<i32>,
    #[prost(message, repeated, tag = "13")]
    external_data: Vec<StringStringEntryProto>,
}

#[derive(Clone, PartialEq, Message)]
struct ValueInfoProto {
    #[prost(string, tag = "1")]
    name: String,
    #[prost(message, optional, tag = "2")]
    r#type: Option<TypeProto>,
    #[prost(string, tag = "3")]
    doc_string: String,
}

#[derive(Clone, PartialEq, Message)]
struct TypeProto {
    #[prost(string, tag = "6")]
    denotation: String,
    #[prost(message, optional, tag = "1")]
    tensor_type: Option<TypeProtoTensor>,
}

#[derive(Clone, PartialEq, Message)]
struct TypeProtoTensor {
    #[prost(int32, tag = "1")]
    elem_type: i32,
    #[prost(message, optional, tag = "2")]
    shape: Option<TensorShapeProto>,
}

#[derive(Clone, PartialEq, Message)]
struct TensorShapeProto {
    #[prost(message, repeated, tag = "1")]
    dim: Vec<Dimension>,
}

#[derive(Clone, PartialEq, Message)]
struct Dimension {
    #[prost(string, tag = "3")]
    denotation: String,
    #[prost(int64, optional, tag = "1")]
    dim_value: Option<i64>,
    #[prost(string, optional, tag = "2")]
    dim_param: Option<String>,
}

/// prost's unpacked encoding of the message whose packed encoding is `packed`.
fn unpacked_by_prost<M: Message + Default>(packed: &[u8]) -> Vec<u8> {
    M::decode(packed).unwrap().encode_to_vec()
}

/// Every model, input and expected output of the full catalogue, as `padkit suite export`
/// writes them, is byte for byte what prost's unpacked encoder writes.
#[test]
fn the_catalogue_encodes_as_prosts_unpacked_encoder_does() {
    let mut packed_runs = 0;
    for case in cases(Size::Full) {
        let model = PadModel::from_case(&case);
        let proto = model.proto();
        let packed = proto.encode_to_vec();
        let ours = encode_model(&proto).unwrap();
        assert_eq!(
            ours,
            unpacked_by_prost::<ModelProto>(&packed),
            "{}",
            case.name
        );
        packed_runs += usize::from(ours != packed);
        let mut tensors: Vec<_> = model
            .inputs()
            .iter()
            .map(|t| tensor_to_proto(t, "x"))
            .collect();
        if let Expected::Output(y) = &case.expected {
            tensors.push(tensor_to_proto(y, "y"));
        }
        for t in tensors {
            let packed = t.encode_to_vec();
            let ours = encode_tensor(&t).unwrap();
            assert_eq!(
                ours,
                unpacked_by_prost::<TensorProto>(&packed),
                "{}",
                case.name
            );
        }
    }
    // nearly every model has a packed run (a dim of its inputs' shapes, a list of ints)
    assert!(packed_runs > 5000, "{packed_runs}");
}

/// Bad encodings are errors naming the byte, never panics.
#[test]
fn malformed_encodings_are_errors() {
    for (bytes, want) in [
        (
            &[0x0a, 5, 2][..],
            "field at byte 0 claims 5 bytes, 1 remain",
        ),
        (&[0x08][..], "field at byte 0"),
        (&[0x0b][..], "field at byte 0 has wire type 3"),
        (&[0x25, 1, 2][..], "field at byte 0 is truncated"),
        (
            &[0x22, 3, 0, 0, 0][..],
            "packed field at byte 0 ends inside an element",
        ),
    ] {
        let e = unpack(bytes, Root::Tensor).unwrap_err().to_string();
        assert!(e.starts_with(want), "{e}");
    }
    // graphs nested in attributes 200 deep
    let mut graph: Vec<u8> = vec![];
    for _ in 0..200 {
        let mut attr = vec![0x32];
        prost::encoding::encode_varint(graph.len() as u64, &mut attr);
        attr.extend_from_slice(&graph);
        let mut node = vec![0x2a];
        prost::encoding::encode_varint(attr.len() as u64, &mut node);
        node.extend_from_slice(&attr);
        graph = vec![0x0a];
        prost::encoding::encode_varint(node.len() as u64, &mut graph);
        graph.extend_from_slice(&node);
    }
    let mut model = vec![0x3a];
    prost::encoding::encode_varint(graph.len() as u64, &mut model);
    model.extend_from_slice(&graph);
    let e = unpack(&model, Root::Model).unwrap_err().to_string();
    assert_eq!(e, "messages nest deeper than 100 levels");
}

#[test]
fn an_attribute_of_zero_keeps_its_value_field_as_onnx_writes_it() {
    use padkit_onnx::pb::attribute_proto::AttributeType;
    use padkit_onnx::pb::{AttributeProto, GraphProto, ModelProto, NodeProto};
    let attribute = |name: &str, t: AttributeType| AttributeProto {
        name: name.into(),
        r#type: t as i32,
        ..Default::default()
    };
    let node = NodeProto {
        op_type: "Gather".into(),
        attribute: vec![
            attribute("axis", AttributeType::Int),
            attribute("value", AttributeType::Float),
            attribute("mode", AttributeType::String),
        ],
        ..Default::default()
    };
    let graph = GraphProto {
        node: vec![node],
        ..Default::default()
    };
    let model = ModelProto {
        graph: Some(graph),
        ..Default::default()
    };
    let bytes = encode_model(&model).unwrap();
    // each attribute: its name (field 1), its type (field 20, key 0xa0 0x01), then the
    // value field the type names, at zero: i (field 3, a varint), f (field 2, four
    // bytes), s (field 4, no bytes)
    let holds = |run: &[u8]| bytes.windows(run.len()).any(|w| w == run);
    assert!(holds(&[
        0x0a, 4, b'a', b'x', b'i', b's', 0xa0, 0x01, 2, 0x18, 0
    ]));
    assert!(holds(&[
        b'v', b'a', b'l', b'u', b'e', 0xa0, 0x01, 1, 0x15, 0, 0, 0, 0
    ]));
    assert!(holds(&[b'm', b'o', b'd', b'e', 0xa0, 0x01, 3, 0x22, 0]));
    assert_eq!(ModelProto::decode(&bytes[..]).unwrap(), model);
}
