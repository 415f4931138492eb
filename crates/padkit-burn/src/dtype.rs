//! ONNX's element types and Burn's: one table, read both ways.

use burn::tensor::{BoolStore, DType as BurnType};
use padkit::DType;

/// The ONNX element types Burn holds, each beside Burn's type (bool as Burn's native bool;
/// [`onnx_type`] reads every bool store as ONNX's bool).
const TYPES: [(DType, BurnType); 13] = [
    (DType::Float32, BurnType::F32),
    (DType::Float64, BurnType::F64),
    (DType::Float16, BurnType::F16),
    (DType::BFloat16, BurnType::BF16),
    (DType::Int8, BurnType::I8),
    (DType::Int16, BurnType::I16),
    (DType::Int32, BurnType::I32),
    (DType::Int64, BurnType::I64),
    (DType::UInt8, BurnType::U8),
    (DType::UInt16, BurnType::U16),
    (DType::UInt32, BurnType::U32),
    (DType::UInt64, BurnType::U64),
    (DType::Bool, BurnType::Bool(BoolStore::Native)),
];

/// Burn's element type for an ONNX element type, when Burn holds it (not strings, complex,
/// the float8s, or the 4- and 2-bit types).
///
/// ```
/// use burn::tensor::DType as BurnType;
/// use padkit::DType;
/// assert_eq!(padkit_burn::dtype::burn_type(DType::BFloat16), Some(BurnType::BF16));
/// assert_eq!(padkit_burn::dtype::burn_type(DType::String), None);
/// ```
pub fn burn_type(dtype: DType) -> Option<BurnType> {
    TYPES.iter().find(|(d, _)| *d == dtype).map(|&(_, b)| b)
}

/// The ONNX element type of a Burn element type (any bool store is ONNX's bool), when ONNX
/// has one (not Burn's quantized or flex types).
///
/// ```
/// use burn::tensor::{BoolStore, DType as BurnType};
/// use padkit::DType;
/// assert_eq!(padkit_burn::dtype::onnx_type(BurnType::Bool(BoolStore::U8)), Some(DType::Bool));
/// assert_eq!(padkit_burn::dtype::onnx_type(BurnType::U16), Some(DType::UInt16));
/// ```
pub fn onnx_type(dtype: BurnType) -> Option<DType> {
    if let BurnType::Bool(_) = dtype {
        return Some(DType::Bool);
    }
    TYPES.iter().find(|(_, b)| *b == dtype).map(|&(d, _)| d)
}
