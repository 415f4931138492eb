//! padkit's [`Fill`] in every candle dtype: exact in the integer types, the nearest value
//! in the float types (f8e4m3 saturates at ±448). candle stores its 6- and 4-bit floats
//! and `F8E8M0` as one code per byte: their fill is a code, given as an `Int` below 2 to
//! the type's width (`Zero` is code 0, which for `F8E8M0`, a type without zero, is
//! 2^-127).

use candle_core::DType;
use padkit::PadError;
use padkit::fill::Fill;
use padkit::half::{bf16, f16};

/// The fill's little-endian bytes in `dtype` (one element): [`PadError::ValueOutOfRange`]
/// when the value is not exactly representable in `dtype` (out of range, or a fraction for
/// an integer type or a code).
pub(crate) fn bytes(fill: Fill, dtype: DType) -> Result<Vec<u8>, PadError> {
    let name = dtype.as_str();
    macro_rules! exact {
        ($t:ty) => {
            fill.exact::<$t>(name)?.to_le_bytes().to_vec()
        };
    }
    Ok(match dtype {
        DType::F64 => fill.float().to_le_bytes().to_vec(),
        DType::F32 => (fill.float() as f32).to_le_bytes().to_vec(),
        DType::F16 => f16::from_f64(fill.float()).to_le_bytes().to_vec(),
        DType::BF16 => bf16::from_f64(fill.float()).to_le_bytes().to_vec(),
        DType::F8E4M3 => vec![float8::F8E4M3::from_f64(fill.float()).to_bits()],
        DType::I64 => exact!(i64),
        DType::I32 => exact!(i32),
        DType::I16 => exact!(i16),
        DType::U32 => exact!(u32),
        DType::U8 => exact!(u8),
        DType::F6E2M3 | DType::F6E3M2 | DType::F4 | DType::F8E8M0 => {
            let bits = match dtype {
                DType::F6E2M3 | DType::F6E3M2 => 6,
                DType::F4 => 4,
                _ => 8,
            };
            match fill {
                Fill::Zero => vec![0],
                Fill::Int(code) if (0..1 << bits).contains(&code) => vec![code as u8],
                _ => return Err(fill.out_of_range(name)),
            }
        }
        other => return Err(PadError::UnsupportedType(other.as_str().to_string())),
    })
}
