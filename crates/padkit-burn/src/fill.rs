//! padkit's [`Fill`], exact in every Burn element type.

use burn::tensor::{BoolStore, DType};
use padkit::PadError;
use padkit::fill::Fill;
use padkit::half::{bf16, f16};

/// Bytes per element of a Burn dtype padkit can pad.
pub(crate) fn width(dtype: DType) -> Result<usize, PadError> {
    match dtype {
        DType::F64 | DType::I64 | DType::U64 => Ok(8),
        DType::F32 | DType::I32 | DType::U32 | DType::Bool(BoolStore::U32) => Ok(4),
        DType::F16 | DType::BF16 | DType::I16 | DType::U16 => Ok(2),
        DType::I8 | DType::U8 | DType::Bool(_) => Ok(1),
        other => Err(PadError::UnsupportedType(format!("{other:?}"))),
    }
}

/// The fill's little-endian bytes in `dtype`: [`PadError::ValueOutOfRange`] when the
/// value is not exactly representable in `dtype` (out of range, or a fraction for an
/// integer type), [`PadError::UnsupportedType`] for a dtype padkit cannot pad.
pub(crate) fn bytes(fill: Fill, dtype: DType) -> Result<Vec<u8>, PadError> {
    let name = format!("{dtype:?}");
    macro_rules! exact {
        ($t:ty) => {
            fill.exact::<$t>(&name)?.to_le_bytes().to_vec()
        };
    }
    Ok(match dtype {
        DType::F64 => fill.float().to_le_bytes().to_vec(),
        DType::F32 => (fill.float() as f32).to_le_bytes().to_vec(),
        DType::F16 => f16::from_f64(fill.float()).to_le_bytes().to_vec(),
        DType::BF16 => bf16::from_f64(fill.float()).to_le_bytes().to_vec(),
        DType::I64 => exact!(i64),
        DType::I32 => exact!(i32),
        DType::I16 => exact!(i16),
        DType::I8 => exact!(i8),
        DType::U64 => exact!(u64),
        DType::U32 => exact!(u32),
        DType::U16 => exact!(u16),
        DType::U8 => exact!(u8),
        DType::Bool(store) => {
            let b = match fill.integer(&name)? {
                0 => 0u8,
                1 => 1,
                _ => return Err(fill.out_of_range(&name)),
            };
            let mut bytes = vec![0; width(DType::Bool(store))?];
            bytes[0] = b;
            bytes
        }
        other => return Err(PadError::UnsupportedType(format!("{other:?}"))),
    })
}
