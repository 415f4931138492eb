//! The constant a pad fills with, exact in every candle element type.

use candle_core::DType;
use padkit::PadError;
use padkit::half::{bf16, f16};

/// The fill value of a constant-mode pad.
///
/// It is converted to the tensor's own element type without a detour through `f32`: an
/// `i64` of 16 777 217 stays 16 777 217, an `f64` 0.1 stays 0.1 in an f64 tensor.
/// Integers must fit the type; floats go to the nearest value of a float type and must be
/// whole and in range for an integer type. candle stores its 6- and 4-bit floats and
/// `F8E8M0` as one code per byte: their fill is a code (`Zero` is code 0), given as an
/// `Int` below 2 to the type's width.
///
/// ```
/// use padkit_candle::Fill;
/// assert_eq!(Fill::from(3i64), Fill::Int(3));
/// assert_eq!(Fill::default(), Fill::Zero);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Fill {
    /// All-zero bits: 0 or 0.0 (code 0 for the types candle stores as codes).
    #[default]
    Zero,
    /// A floating-point value.
    Float(f64),
    /// An integer value.
    Int(i64),
}

impl From<f64> for Fill {
    fn from(v: f64) -> Fill {
        Fill::Float(v)
    }
}

impl From<f32> for Fill {
    fn from(v: f32) -> Fill {
        Fill::Float(f64::from(v))
    }
}

impl From<i64> for Fill {
    fn from(v: i64) -> Fill {
        Fill::Int(v)
    }
}

impl From<i32> for Fill {
    fn from(v: i32) -> Fill {
        Fill::Int(i64::from(v))
    }
}

impl From<u32> for Fill {
    fn from(v: u32) -> Fill {
        Fill::Int(i64::from(v))
    }
}

impl From<u8> for Fill {
    fn from(v: u8) -> Fill {
        Fill::Int(i64::from(v))
    }
}

impl Fill {
    fn out_of_range(self, dtype: DType) -> PadError {
        let value = match self {
            Fill::Zero => "0".to_string(),
            Fill::Float(v) => v.to_string(),
            Fill::Int(v) => v.to_string(),
        };
        PadError::ValueOutOfRange {
            value,
            dtype: dtype.as_str().to_string(),
        }
    }

    /// The value as an integer: whole floats convert, fractions do not.
    fn integer(self, dtype: DType) -> Result<i64, PadError> {
        match self {
            Fill::Zero => Ok(0),
            Fill::Int(v) => Ok(v),
            Fill::Float(v) if v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 => {
                Ok(v as i64)
            }
            Fill::Float(_) => Err(self.out_of_range(dtype)),
        }
    }

    /// The value as a float.
    pub(crate) fn float(self) -> f64 {
        match self {
            Fill::Zero => 0.0,
            Fill::Float(v) => v,
            Fill::Int(v) => v as f64,
        }
    }

    /// The fill's little-endian bytes in `dtype`: one element.
    ///
    /// # Errors
    ///
    /// [`PadError::ValueOutOfRange`] when the value is not exactly representable in
    /// `dtype` (out of range, or a fraction for an integer type or a code).
    ///
    /// ```
    /// use candle_core::DType;
    /// use padkit_candle::Fill;
    /// assert_eq!(Fill::Int(16_777_217).bytes(DType::I64).unwrap(), 16_777_217i64.to_le_bytes());
    /// assert_eq!(Fill::Float(0.1).bytes(DType::F64).unwrap(), 0.1f64.to_le_bytes());
    /// assert!(Fill::Int(300).bytes(DType::U8).is_err());
    /// ```
    pub fn bytes(self, dtype: DType) -> Result<Vec<u8>, PadError> {
        let range = || self.out_of_range(dtype);
        let int = || self.integer(dtype);
        macro_rules! exact_int {
            ($t:ty) => {
                <$t>::try_from(int()?)
                    .map_err(|_| range())?
                    .to_le_bytes()
                    .to_vec()
            };
        }
        Ok(match dtype {
            DType::F64 => self.float().to_le_bytes().to_vec(),
            DType::F32 => (self.float() as f32).to_le_bytes().to_vec(),
            DType::F16 => f16::from_f64(self.float()).to_le_bytes().to_vec(),
            DType::BF16 => bf16::from_f64(self.float()).to_le_bytes().to_vec(),
            DType::F8E4M3 => vec![float8::F8E4M3::from_f64(self.float()).to_bits()],
            DType::I64 => exact_int!(i64),
            DType::I32 => exact_int!(i32),
            DType::I16 => exact_int!(i16),
            DType::U32 => exact_int!(u32),
            DType::U8 => exact_int!(u8),
            DType::F6E2M3 | DType::F6E3M2 | DType::F4 | DType::F8E8M0 => {
                let bits = match dtype {
                    DType::F6E2M3 | DType::F6E3M2 => 6,
                    DType::F4 => 4,
                    _ => 8,
                };
                match self {
                    Fill::Zero => vec![0],
                    Fill::Int(code) if (0..1 << bits).contains(&code) => vec![code as u8],
                    _ => return Err(range()),
                }
            }
            other => return Err(PadError::UnsupportedType(other.as_str().to_string())),
        })
    }
}
