//! ONNX messages in the encoding onnx's own writer produces: repeated numbers unpacked,
//! one key per element, as `onnx.proto` (proto2) declares them.
//!
//! prost, like every proto3 writer, packs repeated numbers into one length-delimited run.
//! Readers accept both encodings as protobuf requires, except those written against
//! onnx's (rten 0.27's parser reads tensor dims and int attributes unpacked only). Every
//! model and tensor file padkit writes goes through here.
//!
//! The rewrite works on the wire format: it walks the messages that can hold a repeated
//! number (a model's graphs, nodes, attributes, tensors, sparse tensors, training infos
//! and functions), unpacks the packed runs of `AttributeProto.floats`/`ints`,
//! `TensorProto.dims` and its `*_data` numbers, and `SparseTensorProto.dims`, and copies
//! every other field as it is. It also writes an attribute's value field where a proto3
//! writer leaves it out: onnx's writer (proto2) sets the field the attribute's type names
//! (`i` of an INT, `f` of a FLOAT, `s` of a STRING) even when it holds 0, and readers
//! written against onnx's output require it (tinygrad 0.14's parser fails on an INT
//! attribute without `i`, as prost writes `axis = 0`).

use anyhow::{Result, bail, ensure};
use padkit_onnx::pb::{ModelProto, TensorProto};
use prost::Message;
use prost::encoding::{decode_varint, encode_varint};

/// A model encoded as onnx writes it ([`unpack`]).
///
/// # Errors
///
/// The model nests messages deeper than [`unpack`] follows (100 levels).
///
/// ```
/// use prost::Message;
/// use padkit_onnx::pb::ModelProto;
/// let model = ModelProto { ir_version: 10, ..Default::default() };
/// let bytes = padkit_onnx_tools::wire::encode_model(&model).unwrap();
/// assert_eq!(ModelProto::decode(&bytes[..]).unwrap(), model);
/// ```
pub fn encode_model(model: &ModelProto) -> Result<Vec<u8>> {
    unpack(&model.encode_to_vec(), Root::Model)
}

/// A tensor encoded as onnx writes it ([`unpack`]).
///
/// # Errors
///
/// As [`encode_model`].
///
/// ```
/// use padkit_onnx::pb::TensorProto;
/// let t = TensorProto { dims: vec![2, 3], ..Default::default() };
/// // dims as two keyed varints (field 1, wire type 0), not one packed run
/// assert_eq!(padkit_onnx_tools::wire::encode_tensor(&t).unwrap(), vec![0x08, 2, 0x08, 3]);
/// ```
pub fn encode_tensor(tensor: &TensorProto) -> Result<Vec<u8>> {
    unpack(&tensor.encode_to_vec(), Root::Tensor)
}

/// The top-level message of an encoded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// A `ModelProto` (`model.onnx`).
    Model,
    /// A `TensorProto` (`input_0.pb`, an initializer's file).
    Tensor,
}

/// `bytes`, an encoded message of type `root`, with every packed run of repeated numbers
/// unpacked; any other field is copied as it is, unknown fields included.
///
/// # Errors
///
/// When `bytes` is not a well-formed encoding (a truncated field, a varint past 10 bytes,
/// a group, a length past the end; the error names the byte offset) or nests messages
/// deeper than 100 levels.
///
/// ```
/// use padkit_onnx_tools::wire::{Root, unpack};
/// // TensorProto.dims = [2, 3], packed: key 0x0a, length 2, then the values
/// assert_eq!(unpack(&[0x0a, 2, 2, 3], Root::Tensor).unwrap(), vec![0x08, 2, 0x08, 3]);
/// assert!(unpack(&[0x0a, 5, 2], Root::Tensor).is_err());
/// ```
pub fn unpack(bytes: &[u8], root: Root) -> Result<Vec<u8>> {
    let kind = match root {
        Root::Model => Kind::Model,
        Root::Tensor => Kind::Tensor,
    };
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    walk(bytes, kind, 0, &mut out)?;
    Ok(out)
}

/// The messages of `onnx.proto` on a path to a repeated number field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Model,
    Graph,
    Node,
    Attribute,
    Tensor,
    SparseTensor,
    TrainingInfo,
    Function,
}

/// The wire encoding of one element of a repeated number field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scalar {
    /// int32, int64, uint64 (wire type 0).
    Varint,
    /// float (wire type 5).
    Fixed32,
    /// double (wire type 1).
    Fixed64,
}

/// What field `field` of a message of `kind` holds, where the rewrite must look inside.
enum Field {
    Message(Kind),
    Numbers(Scalar),
    Other,
}

/// The fields of `onnx.proto` (onnx 1.17) the rewrite looks inside.
fn field(kind: Kind, field: u64) -> Field {
    use Field::{Message as M, Numbers as N};
    use Kind::*;
    match (kind, field) {
        (Model, 7) => M(Graph),
        (Model, 20) => M(TrainingInfo),
        (Model, 25) => M(Function),
        (Graph, 1) => M(Node),
        (Graph, 5) => M(Tensor),
        (Graph, 15) => M(SparseTensor),
        (Node, 5) => M(Attribute),
        (Attribute, 5 | 10) => M(Tensor),
        (Attribute, 6 | 11) => M(Graph),
        (Attribute, 22 | 23) => M(SparseTensor),
        (Attribute, 7) => N(Scalar::Fixed32),
        (Attribute, 8) => N(Scalar::Varint),
        (Tensor, 1 | 5 | 7 | 11) => N(Scalar::Varint),
        (Tensor, 4) => N(Scalar::Fixed32),
        (Tensor, 10) => N(Scalar::Fixed64),
        (SparseTensor, 1 | 2) => M(Tensor),
        (SparseTensor, 3) => N(Scalar::Varint),
        (TrainingInfo, 1 | 2) => M(Graph),
        (Function, 7) => M(Node),
        (Function, 11) => M(Attribute),
        _ => Field::Other,
    }
}

/// How deep messages may nest (graphs in attributes in graphs…).
const MAX_DEPTH: usize = 100;

/// Appends `bytes`, a message of `kind` at nesting `depth`, unpacked, to `out`.
fn walk(mut bytes: &[u8], kind: Kind, depth: usize, out: &mut Vec<u8>) -> Result<()> {
    ensure!(
        depth <= MAX_DEPTH,
        "messages nest deeper than {MAX_DEPTH} levels"
    );
    let total = bytes.len();
    // an attribute's type, and which of its scalar value fields (f, i, s) it holds
    let (mut attribute_type, mut values) = (None, [false; 3]);
    while !bytes.is_empty() {
        let at = total - bytes.len();
        let key = decode_varint(&mut bytes).map_err(|e| fail(at, e))?;
        let (number, wire_type) = (key >> 3, key & 7);
        if kind == Kind::Attribute && (2..=4).contains(&number) {
            values[number as usize - 2] = true;
        }
        match wire_type {
            0 => {
                let v = decode_varint(&mut bytes).map_err(|e| fail(at, e))?;
                if kind == Kind::Attribute && number == ATTRIBUTE_TYPE {
                    attribute_type = Some(v);
                }
                encode_varint(key, out);
                encode_varint(v, out);
            }
            1 | 5 => {
                let n = if wire_type == 1 { 8 } else { 4 };
                ensure!(bytes.len() >= n, "field at byte {at} is truncated");
                encode_varint(key, out);
                out.extend_from_slice(&bytes[..n]);
                bytes = &bytes[n..];
            }
            2 => {
                let len = decode_varint(&mut bytes).map_err(|e| fail(at, e))?;
                let len = usize::try_from(len).unwrap_or(usize::MAX);
                ensure!(
                    bytes.len() >= len,
                    "field at byte {at} claims {len} bytes, {} remain",
                    bytes.len()
                );
                let (body, rest) = bytes.split_at(len);
                bytes = rest;
                match field(kind, number) {
                    Field::Message(inner) => {
                        let mut nested = Vec::with_capacity(body.len());
                        walk(body, inner, depth + 1, &mut nested)?;
                        encode_varint(key, out);
                        encode_varint(nested.len() as u64, out);
                        out.extend_from_slice(&nested);
                    }
                    Field::Numbers(scalar) => unpack_run(number, scalar, body, at, out)?,
                    Field::Other => {
                        encode_varint(key, out);
                        encode_varint(body.len() as u64, out);
                        out.extend_from_slice(body);
                    }
                }
            }
            other => bail!("field at byte {at} has wire type {other}, which ONNX does not use"),
        }
    }
    if let Some(t) = attribute_type {
        write_zero_value(t, values, out);
    }
    Ok(())
}

/// `AttributeProto.type`'s field number.
const ATTRIBUTE_TYPE: u64 = 20;

/// Appends the zero of the value field an attribute of type `t` (`AttributeProto.type`)
/// names where `held` (whether `f`, `i`, `s`, fields 2 to 4, are present) says it is
/// missing: what onnx's writer sets and a proto3 writer leaves out.
fn write_zero_value(t: u64, held: [bool; 3], out: &mut Vec<u8>) {
    // FLOAT = 1: f (field 2, fixed32); INT = 2: i (3, varint); STRING = 3: s (4, bytes)
    let (index, key, zero): (usize, u64, &[u8]) = match t {
        1 => (0, (2 << 3) | 5, &[0, 0, 0, 0]),
        2 => (1, 3 << 3, &[0]),
        3 => (2, (4 << 3) | 2, &[0]),
        _ => return,
    };
    if !held[index] {
        encode_varint(key, out);
        out.extend_from_slice(zero);
    }
}

/// Appends the packed run `body` of field `number` as one keyed element each.
fn unpack_run(
    number: u64,
    scalar: Scalar,
    mut body: &[u8],
    at: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    let (wire_type, width) = match scalar {
        Scalar::Varint => (0, 0),
        Scalar::Fixed64 => (1, 8),
        Scalar::Fixed32 => (5, 4),
    };
    let key = (number << 3) | wire_type;
    while !body.is_empty() {
        encode_varint(key, out);
        if scalar == Scalar::Varint {
            let v = decode_varint(&mut body).map_err(|e| fail(at, e))?;
            encode_varint(v, out);
        } else {
            ensure!(
                body.len() >= width,
                "packed field at byte {at} ends inside an element"
            );
            out.extend_from_slice(&body[..width]);
            body = &body[width..];
        }
    }
    Ok(())
}

/// A decoding error at byte `at`.
fn fail(at: usize, e: prost::DecodeError) -> anyhow::Error {
    anyhow::anyhow!("field at byte {at}: {e}")
}
