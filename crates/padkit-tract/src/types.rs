//! ONNX's element types and tract's datum types: one table, read both ways.

use padkit::DType;
use tract_hir::internal::DatumType;

/// The ONNX element types tract holds, each beside its datum type.
const TYPES: [(DType, DatumType); 13] = [
    (DType::Bool, DatumType::Bool),
    (DType::UInt8, DatumType::U8),
    (DType::UInt16, DatumType::U16),
    (DType::UInt32, DatumType::U32),
    (DType::UInt64, DatumType::U64),
    (DType::Int8, DatumType::I8),
    (DType::Int16, DatumType::I16),
    (DType::Int32, DatumType::I32),
    (DType::Int64, DatumType::I64),
    (DType::Float16, DatumType::F16),
    (DType::Float32, DatumType::F32),
    (DType::Float64, DatumType::F64),
    (DType::String, DatumType::String),
];

/// tract's datum type for an ONNX element type, when tract holds it (not bfloat16, the
/// float8s, the 4- and 2-bit types or complex).
///
/// ```
/// use padkit::DType;
/// use tract_onnx::prelude::DatumType;
/// assert_eq!(padkit_tract::datum_type(DType::Float16), Some(DatumType::F16));
/// assert_eq!(padkit_tract::datum_type(DType::BFloat16), None);
/// ```
pub fn datum_type(dtype: DType) -> Option<DatumType> {
    TYPES.iter().find(|(d, _)| *d == dtype).map(|&(_, t)| t)
}

/// The ONNX element type of a tract datum type, for the ones ONNX files hold (not tract's
/// own `TDim`, `Blob` or quantized types).
///
/// ```
/// use padkit::DType;
/// use tract_onnx::prelude::DatumType;
/// assert_eq!(padkit_tract::onnx_type(DatumType::I64), Some(DType::Int64));
/// assert_eq!(padkit_tract::onnx_type(DatumType::TDim), None);
/// ```
pub fn onnx_type(datum_type: DatumType) -> Option<DType> {
    TYPES
        .iter()
        .find(|(_, t)| *t == datum_type)
        .map(|&(d, _)| d)
}

/// Checks the datum type `got` of the Pad operand `operand`, read from an input, for data
/// of type `data`, by padkit's rule ([`padkit::onnx::Operand::check_type`]). tract's `TDim`
/// (pads or axes folded from shapes) counts as int64; a constant value of the data's own
/// tract type (quantized, say) is accepted as it is.
pub(crate) fn check_operand_type(
    node: &str,
    operand: padkit::onnx::Operand,
    got: DatumType,
    data: DatumType,
) -> tract_hir::internal::TractResult<()> {
    use padkit::onnx::Operand;
    if operand == Operand::ConstantValue && got == data {
        return Ok(());
    }
    let as_onnx = |dt: DatumType| match dt {
        DatumType::TDim if operand != Operand::ConstantValue => Some(DType::Int64),
        dt => onnx_type(dt),
    };
    match (as_onnx(got), as_onnx(data)) {
        (Some(got), Some(data)) => operand
            .check_type(got, data)
            .map_err(|e| crate::node_error(node, e)),
        (Some(got), None) if operand != Operand::ConstantValue => operand
            .check_type(got, got)
            .map_err(|e| crate::node_error(node, e)),
        _ => Err(tract_hir::internal::format_err!(
            "Pad node {node:?}: input '{}' has type {got:?} and the data {data:?}; ONNX \
             defines no such Pad",
            operand.name()
        )),
    }
}
