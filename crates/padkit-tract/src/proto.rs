//! ONNX `TensorProto`s of every element type as padkit tensors, and padkit tensors as
//! tract tensors (for the types tract can hold).

use padkit::{DType, Data, Layout};
use tract_hir::internal::*;
use tract_onnx::pb::TensorProto;

/// Reads a `TensorProto` of any ONNX element type (raw or typed fields).
///
/// ```
/// use tract_onnx::pb::TensorProto;
/// let tp = TensorProto { data_type: 7, dims: vec![2], int64_data: vec![3, -1], ..Default::default() };
/// let t = padkit_tract::proto::tensor_from_proto(&tp).unwrap();
/// assert_eq!(t.to_vec::<i64>().unwrap(), vec![3, -1]);
/// ```
pub fn tensor_from_proto(tp: &TensorProto) -> TractResult<padkit::Tensor> {
    let name = &tp.name;
    let dtype = DType::from_onnx(tp.data_type).map_err(|e| format_err!("tensor {name:?}: {e}"))?;
    ensure!(
        tp.external_data.is_empty(),
        "tensor {name:?}: external data is not supported"
    );
    let shape = tp
        .dims
        .iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| format_err!("tensor {name:?}: negative dimension {d}"))
        })
        .collect::<TractResult<Vec<usize>>>()?;
    let data = match dtype.layout() {
        Layout::Strings => Data::Strings(
            tp.string_data
                .iter()
                .map(|s| String::from_utf8(s.clone()))
                .collect::<Result<_, _>>()
                .with_context(|| format!("tensor {name:?}: a string is not UTF-8"))?,
        ),
        _ if !tp.raw_data.is_empty() => Data::Bytes(tp.raw_data.clone()),
        _ => Data::Bytes(typed_field_bytes(tp, dtype)),
    };
    padkit::Tensor::new(dtype, shape, data).map_err(|e| format_err!("tensor {name:?}: {e}"))
}

/// The bytes of the typed field ONNX uses for `dtype` (`int32_data` holds one narrow value,
/// or one packed byte for the sub-byte types, per entry).
fn typed_field_bytes(tp: &TensorProto, dtype: DType) -> Vec<u8> {
    match dtype {
        DType::Float32 | DType::Complex64 => {
            tp.float_data.iter().flat_map(|x| x.to_le_bytes()).collect()
        }
        DType::Float64 | DType::Complex128 => tp
            .double_data
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        DType::Int64 => tp.int64_data.iter().flat_map(|x| x.to_le_bytes()).collect(),
        DType::UInt32 => tp
            .uint64_data
            .iter()
            .flat_map(|&x| (x as u32).to_le_bytes())
            .collect(),
        DType::UInt64 => tp
            .uint64_data
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        _ => {
            let width = match dtype.layout() {
                Layout::Bytes(w) => w,
                _ => 1,
            };
            tp.int32_data
                .iter()
                .flat_map(|&x| x.to_le_bytes()[..width].to_vec())
                .collect()
        }
    }
}

/// A `TensorProto` (raw data, or `string_data`) named `name`.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1.5f32, 2.0]).unwrap();
/// let tp = padkit_tract::proto::tensor_to_proto(&t, "x");
/// assert_eq!(padkit_tract::proto::tensor_from_proto(&tp).unwrap(), t);
/// ```
pub fn tensor_to_proto(t: &padkit::Tensor, name: &str) -> TensorProto {
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

/// The tract datum type of an ONNX type, when tract has one.
///
/// ```
/// use padkit::DType;
/// assert!(padkit_tract::proto::tract_type(DType::Float16).is_ok());
/// let err = padkit_tract::proto::tract_type(DType::BFloat16).unwrap_err();
/// assert_eq!(err.to_string(), "tract cannot hold element type bfloat16");
/// ```
pub fn tract_type(dtype: DType) -> TractResult<DatumType> {
    Ok(match dtype {
        DType::Bool => DatumType::Bool,
        DType::UInt8 => DatumType::U8,
        DType::UInt16 => DatumType::U16,
        DType::UInt32 => DatumType::U32,
        DType::UInt64 => DatumType::U64,
        DType::Int8 => DatumType::I8,
        DType::Int16 => DatumType::I16,
        DType::Int32 => DatumType::I32,
        DType::Int64 => DatumType::I64,
        DType::Float16 => DatumType::F16,
        DType::Float32 => DatumType::F32,
        DType::Float64 => DatumType::F64,
        DType::String => DatumType::String,
        other => bail!("tract cannot hold element type {other}"),
    })
}

/// A padkit tensor as a tract tensor.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1i32, 2]).unwrap();
/// let tt = padkit_tract::proto::to_tract(&t).unwrap();
/// assert_eq!(tt.shape(), &[2]);
/// ```
pub fn to_tract(t: &padkit::Tensor) -> TractResult<Tensor> {
    let dt = tract_type(t.dtype())?;
    match t.data() {
        Data::Strings(s) => {
            Ok(tract_ndarray::ArrayD::from_shape_vec(t.shape(), s.clone())?.into_tensor())
        }
        // SAFETY: `padkit::Tensor::new` checked that `b` holds exactly `len` elements of
        // `dt`'s width, and every fixed-size tract type accepts any bit pattern except
        // Bool, which ONNX stores as 0/1 bytes.
        Data::Bytes(b) => unsafe { Tensor::from_raw_dt(dt, t.shape(), b) },
    }
}

/// A tract tensor as a padkit tensor.
///
/// ```
/// use tract_hir::internal::*;
/// let t = padkit_tract::proto::from_tract(&tensor1(&[1u8, 2])).unwrap();
/// assert_eq!(t.to_vec::<u8>().unwrap(), vec![1, 2]);
/// ```
pub fn from_tract(t: &Tensor) -> TractResult<padkit::Tensor> {
    let dtype = DType::ALL
        .iter()
        .copied()
        .find(|d| tract_type(*d).is_ok_and(|dt| dt == t.datum_type()))
        .with_context(|| format!("no ONNX type for tract type {:?}", t.datum_type()))?;
    let data = match dtype {
        DType::String => Data::Strings(t.try_as_plain_ram()?.as_slice::<String>()?.to_vec()),
        _ => Data::Bytes(t.as_bytes().to_vec()),
    };
    Ok(padkit::Tensor::new(dtype, t.shape().to_vec(), data)?)
}
