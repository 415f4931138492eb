//! ONNX `TensorProto`s, read strictly: every element type, raw or typed data (never
//! both), counts and ranges checked, bool bytes normalised to 0/1 as ONNX Runtime and
//! tract-onnx read them. Every error names the tensor.

use crate::error::{Context, Result, bail, ensure};
use crate::pb::tensor_proto::DataLocation;
use crate::pb::{SparseTensorProto, TensorProto};
use padkit::dtype::Layout;
use padkit::{DType, Data, Tensor};
use prost::Message;

/// Reads a serialized `TensorProto` from `bytes`; `origin` names where they came from.
///
/// # Errors
///
/// `bytes` are not a serialized `TensorProto`, or the tensor does not read
/// ([`tensor_from_proto`]); the error names `origin`.
///
/// ```
/// use prost::Message;
/// let tp = padkit_onnx::pb::TensorProto { data_type: 7, dims: vec![2], int64_data: vec![3, -1], ..Default::default() };
/// let t = padkit_onnx::proto::decode_tensor(&tp.encode_to_vec(), "pads.pb").unwrap();
/// assert_eq!(t.to_vec::<i64>().unwrap(), vec![3, -1]);
/// ```
pub fn decode_tensor(bytes: &[u8], origin: &str) -> Result<Tensor> {
    let tp = TensorProto::decode(bytes)
        .with_context(|| format!("{origin} is not a serialized ONNX TensorProto"))?;
    tensor_from_proto(&tp).with_context(|| origin.to_string())
}

/// The checked element type and shape of a `TensorProto`, without reading its data.
///
/// # Errors
///
/// The element type is not one padkit holds, a dimension is negative, or the shape has more
/// elements than memory can address (the error names the tensor).
pub fn dtype_and_shape(tp: &TensorProto) -> Result<(DType, Vec<usize>)> {
    let name = &tp.name;
    let dtype = DType::from_onnx(tp.data_type).with_context(|| format!("tensor {name:?}"))?;
    let shape = tp
        .dims
        .iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| {
                crate::error::Error::msg(format!("tensor {name:?}: dimension {d} is negative"))
            })
        })
        .collect::<Result<Vec<usize>>>()?;
    let fits = shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .and_then(|n| dtype.storage_bytes(n))
        .is_some_and(|b| b <= isize::MAX as usize);
    ensure!(
        fits,
        "tensor {name:?}: shape {shape:?} of {dtype} has more elements than memory can address"
    );
    Ok((dtype, shape))
}

/// The name, element type and shape of a `SparseTensorProto` (its `values` name and type,
/// its `dims`), without reading its data.
///
/// # Errors
///
/// When it has no `values`, or its type or dims are not those of a tensor
/// ([`dtype_and_shape`]).
pub fn sparse_dtype_and_shape(sp: &SparseTensorProto) -> Result<(&str, DType, Vec<usize>)> {
    let values = sp
        .values
        .as_ref()
        .context("a sparse tensor without values")?;
    let dense = TensorProto {
        name: values.name.clone(),
        data_type: values.data_type,
        dims: sp.dims.clone(),
        ..Default::default()
    };
    let (dtype, shape) = dtype_and_shape(&dense)?;
    Ok((&values.name, dtype, shape))
}

/// The dense tensor a `SparseTensorProto` of int64 or int32 stands for (the types of pads
/// and axes): zero but at its indices, linear (`[NNZ]`) or coordinates (`[NNZ, rank]`).
///
/// ```
/// use padkit_onnx::pb::{SparseTensorProto, TensorProto};
/// let values = TensorProto { name: "pads".into(), data_type: 7, dims: vec![1], int64_data: vec![2], ..Default::default() };
/// let indices = TensorProto { data_type: 7, dims: vec![1], int64_data: vec![3], ..Default::default() };
/// let sp = SparseTensorProto { values: Some(values), indices: Some(indices), dims: vec![4] };
/// let t = padkit_onnx::proto::sparse_tensor_from_proto(&sp).unwrap();
/// assert_eq!(t.to_vec::<i64>().unwrap(), vec![0, 0, 0, 2]);
/// ```
///
/// # Errors
///
/// When its type is another, its indices are neither form or point outside its shape, or
/// the parts do not read ([`tensor_from_proto`]).
pub fn sparse_tensor_from_proto(sp: &SparseTensorProto) -> Result<Tensor> {
    let (name, dtype, shape) = sparse_dtype_and_shape(sp)?;
    let values = tensor_from_proto(sp.values.as_ref().context("values")?)?;
    let values: Vec<i64> = match dtype {
        DType::Int64 => values.to_vec::<i64>()?,
        DType::Int32 => values.to_vec::<i32>()?.into_iter().map(i64::from).collect(),
        other => bail!("sparse tensor {name:?}: {other} values are not read, only int64 and int32"),
    };
    let indices = tensor_from_proto(
        sp.indices
            .as_ref()
            .context("a sparse tensor without indices")?,
    )?;
    let flat = indices
        .to_vec::<i64>()
        .with_context(|| format!("sparse tensor {name:?}: indices"))?;
    let total: usize = shape.iter().product();
    let rank = shape.len();
    let nnz = values.len();
    let linear: Vec<i64> = match indices.shape() {
        [n] if *n == nnz => flat,
        [n, r] if *n == nnz && *r == rank => flat
            .chunks(rank.max(1))
            .map(|c| {
                c.iter()
                    .zip(&shape)
                    .try_fold(0i64, |acc, (&i, &d)| {
                        (0..d as i64).contains(&i).then(|| acc * d as i64 + i)
                    })
                    .unwrap_or(-1)
            })
            .collect(),
        other => bail!(
            "sparse tensor {name:?}: indices of shape {other:?} for {nnz} values of rank {rank}"
        ),
    };
    let mut dense = vec![0i64; total];
    for (&at, v) in linear.iter().zip(values) {
        let at = usize::try_from(at).ok().filter(|&a| a < total);
        let at =
            at.with_context(|| format!("sparse tensor {name:?}: an index outside {shape:?}"))?;
        dense[at] = v;
    }
    match dtype {
        DType::Int32 => {
            let dense: Vec<i32> = dense.into_iter().map(|v| v as i32).collect();
            Ok(Tensor::from_slice(&shape, &dense)?)
        }
        _ => Ok(Tensor::from_slice(&shape, &dense)?),
    }
}

/// Checks a `TensorProto` the way [`tensor_from_proto`] reads it, without copying its data:
/// for the initializers and Constant nodes of a model handed to another engine.
///
/// # Errors
///
/// As [`tensor_from_proto`], without reading the data.
pub fn check_proto(tp: &TensorProto) -> Result<()> {
    let (dtype, shape) = dtype_and_shape(tp)?;
    data_source(tp, dtype, &shape).map(drop)
}

/// Reads a `TensorProto` of any ONNX element type.
///
/// # Errors
///
/// Its type or shape does not read ([`dtype_and_shape`]); its data is in no field or in
/// several, in a field its type does not use, of another length than its shape's element
/// count, stored as external data or in segments, or holds values its element type cannot
/// (the error names the tensor).
///
/// ```
/// use padkit_onnx::pb::TensorProto;
/// let both = TensorProto { data_type: 1, dims: vec![1], float_data: vec![1.0], raw_data: vec![0; 4], ..Default::default() };
/// let err = padkit_onnx::proto::tensor_from_proto(&both).unwrap_err();
/// assert!(err.to_string().contains("both raw_data and float_data"));
/// ```
pub fn tensor_from_proto(tp: &TensorProto) -> Result<Tensor> {
    let (dtype, shape) = dtype_and_shape(tp)?;
    let name = &tp.name;
    let data = match data_source(tp, dtype, &shape)? {
        Source::Strings => Data::Strings(
            tp.string_data
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    String::from_utf8(s.clone())
                        .with_context(|| format!("tensor {name:?}: string {i} is not UTF-8"))
                })
                .collect::<Result<_>>()?,
        ),
        Source::Raw => Data::Bytes(tp.raw_data.clone()),
        Source::Typed => Data::Bytes(typed_bytes(tp, dtype)?),
    };
    let data = match data {
        // ONNX reads any non-zero byte as true.
        Data::Bytes(b) if dtype == DType::Bool => {
            Data::Bytes(b.iter().map(|&x| u8::from(x != 0)).collect())
        }
        other => other,
    };
    Tensor::new(dtype, shape, data).with_context(|| format!("tensor {name:?}"))
}

/// Where a tensor's elements are.
enum Source {
    Raw,
    Typed,
    Strings,
}

/// The typed field ONNX uses for `dtype`, and how many values it holds per element
/// (sub-byte types: one entry per packed byte).
fn typed_field(dtype: DType) -> (&'static str, usize) {
    match dtype {
        DType::Float32 => ("float_data", 1),
        DType::Complex64 => ("float_data", 2),
        DType::Float64 => ("double_data", 1),
        DType::Complex128 => ("double_data", 2),
        DType::Int64 => ("int64_data", 1),
        DType::UInt32 | DType::UInt64 => ("uint64_data", 1),
        DType::String => ("string_data", 1),
        _ => ("int32_data", 1),
    }
}

fn field_len(tp: &TensorProto, field: &str) -> usize {
    match field {
        "float_data" => tp.float_data.len(),
        "double_data" => tp.double_data.len(),
        "int64_data" => tp.int64_data.len(),
        "uint64_data" => tp.uint64_data.len(),
        "string_data" => tp.string_data.len(),
        _ => tp.int32_data.len(),
    }
}

/// Checks that the tensor's data lives in exactly one place that fits its type and shape.
fn data_source(tp: &TensorProto, dtype: DType, shape: &[usize]) -> Result<Source> {
    let name = &tp.name;
    ensure!(
        tp.external_data.is_empty() && tp.data_location != DataLocation::External as i32,
        "tensor {name:?}: its data is stored in an external file, which padkit reads only \
         for a model read from a file (beside it)"
    );
    ensure!(
        tp.segment.is_none(),
        "tensor {name:?}: segmented tensors are not supported"
    );
    let fields = [
        "float_data",
        "double_data",
        "int32_data",
        "int64_data",
        "uint64_data",
        "string_data",
    ];
    let filled: Vec<&str> = fields
        .into_iter()
        .filter(|f| field_len(tp, f) > 0)
        .collect();
    let elements: usize = shape.iter().product();
    let (field, per_element) = typed_field(dtype);
    let show = || format!("{name:?} ({dtype} {shape:?})");
    if !tp.raw_data.is_empty() {
        if let Some(other) = filled.first() {
            bail!(
                "tensor {}: both raw_data and {other} are set; ONNX allows one",
                show()
            );
        }
        ensure!(
            dtype != DType::String,
            "tensor {}: strings cannot be stored in raw_data",
            show()
        );
        return Ok(Source::Raw);
    }
    match filled[..] {
        [] if elements == 0 => Ok(if dtype == DType::String {
            Source::Strings
        } else {
            Source::Typed
        }),
        [] => bail!(
            "tensor {}: holds no data for its {elements} elements",
            show()
        ),
        [f] if f != field => bail!(
            "tensor {}: elements of type {dtype} go in {field}, not {f}",
            show()
        ),
        [_] => {
            let expected = match dtype.layout() {
                Layout::Packed(_) => dtype.storage_bytes(elements).unwrap_or(usize::MAX),
                _ => elements.saturating_mul(per_element),
            };
            let got = field_len(tp, field);
            ensure!(
                got == expected,
                "tensor {}: {field} holds {got} values but the shape needs {expected}",
                show()
            );
            Ok(if dtype == DType::String {
                Source::Strings
            } else {
                Source::Typed
            })
        }
        _ => bail!(
            "tensor {}: data in several fields ({}); ONNX allows one",
            show(),
            filled.join(", ")
        ),
    }
}

/// The little-endian bytes of a typed field, each value checked against the type's range.
fn typed_bytes(tp: &TensorProto, dtype: DType) -> Result<Vec<u8>> {
    let name = &tp.name;
    let out_of_range = |i: usize, v: i128| {
        crate::error::Error::msg(format!(
            "tensor {name:?}: value {v} at index {i} does not fit element type {dtype}"
        ))
    };
    Ok(match dtype {
        DType::Float32 | DType::Complex64 => {
            tp.float_data.iter().flat_map(|x| x.to_le_bytes()).collect()
        }
        DType::Float64 | DType::Complex128 => tp
            .double_data
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        DType::Int64 => tp.int64_data.iter().flat_map(|x| x.to_le_bytes()).collect(),
        DType::UInt64 => tp
            .uint64_data
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        DType::UInt32 => tp
            .uint64_data
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                u32::try_from(x)
                    .map(u32::to_le_bytes)
                    .map_err(|_| out_of_range(i, x.into()))
            })
            .collect::<Result<Vec<_>>>()?
            .concat(),
        _ => {
            // int32_data: one value per element, or one packed byte per entry for the
            // sub-byte types; 16-bit floats as their bit patterns.
            let (width, lo, hi): (usize, i64, i64) = match dtype {
                DType::Int32 => (4, i32::MIN.into(), i32::MAX.into()),
                DType::Int16 => (2, i16::MIN.into(), i16::MAX.into()),
                DType::Int8 => (1, i8::MIN.into(), i8::MAX.into()),
                DType::UInt16 | DType::Float16 | DType::BFloat16 => (2, 0, u16::MAX.into()),
                _ => (1, 0, u8::MAX.into()),
            };
            let mut out = Vec::with_capacity(tp.int32_data.len() * width);
            for (i, &x) in tp.int32_data.iter().enumerate() {
                let x = i64::from(x);
                if dtype == DType::Bool {
                    out.push(u8::from(x != 0)); // any non-zero value is true
                    continue;
                }
                if !(lo..=hi).contains(&x) {
                    return Err(out_of_range(i, x.into()));
                }
                out.extend_from_slice(&x.to_le_bytes()[..width]);
            }
            out
        }
    })
}

/// A `TensorProto` (raw data, or `string_data`) named `name`.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1.5f32, 2.0]).unwrap();
/// let tp = padkit_onnx::proto::tensor_to_proto(&t, "x");
/// assert_eq!(padkit_onnx::proto::tensor_from_proto(&tp).unwrap(), t);
/// ```
pub fn tensor_to_proto(t: &Tensor, name: &str) -> TensorProto {
    let mut tp = TensorProto {
        name: name.to_string(),
        data_type: t.dtype().onnx_code(),
        dims: t.shape().iter().map(|&d| d as i64).collect(),
        ..TensorProto::default()
    };
    match t.data() {
        Data::Bytes(b) => tp.raw_data = b.clone(),
        Data::Strings(s) => tp.string_data = s.iter().map(|x| x.as_bytes().to_vec()).collect(),
    }
    tp
}
