//! The constant a pad fills with, exact in every Burn element type.

use burn::config::Config;
use burn::tensor::{BoolStore, DType};
use padkit::PadError;
use padkit::half::{bf16, f16};

/// The fill value of a constant-mode pad.
///
/// It is converted to the tensor's own element type without a detour through `f32`:
/// an `i64` of 16 777 217 stays 16 777 217, an `f64` 0.1 stays 0.1 in an f64 tensor.
/// Integers must fit the type; floats go to the nearest value of a float type and must be
/// whole and in range for an integer type.
///
/// ```
/// use padkit_burn::Fill;
/// assert_eq!(Fill::from(3i64), Fill::Int(3));
/// assert_eq!(Fill::default(), Fill::Zero);
/// ```
#[derive(Config, Debug, Copy, PartialEq)]
pub enum Fill {
    /// All-zero bits: 0, 0.0 or `false`.
    Zero,
    /// A floating-point value.
    Float(f64),
    /// An integer value.
    Int(i64),
    /// A boolean value.
    Bool(bool),
}

// Not derived: `Config` copies the variants, `#[default]` included, into a serde enum
// where that attribute is unknown.
#[allow(clippy::derivable_impls)]
impl Default for Fill {
    fn default() -> Self {
        Fill::Zero
    }
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

impl From<bool> for Fill {
    fn from(v: bool) -> Fill {
        Fill::Bool(v)
    }
}

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

impl Fill {
    fn out_of_range(self, dtype: DType) -> PadError {
        let value = match self {
            Fill::Zero => "0".to_string(),
            Fill::Float(v) => v.to_string(),
            Fill::Int(v) => v.to_string(),
            Fill::Bool(v) => v.to_string(),
        };
        PadError::ValueOutOfRange {
            value,
            dtype: format!("{dtype:?}"),
        }
    }

    /// The value as an integer, for integer and bool types.
    pub(crate) fn integer(self, dtype: DType) -> Result<i64, PadError> {
        match self {
            Fill::Zero => Ok(0),
            Fill::Int(v) => Ok(v),
            Fill::Bool(b) => Ok(i64::from(b)),
            Fill::Float(v) if v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 => {
                Ok(v as i64)
            }
            Fill::Float(_) => Err(self.out_of_range(dtype)),
        }
    }

    /// The value as a float, for float types.
    pub(crate) fn float(self) -> f64 {
        match self {
            Fill::Zero => 0.0,
            Fill::Float(v) => v,
            Fill::Int(v) => v as f64,
            Fill::Bool(b) => f64::from(u8::from(b)),
        }
    }

    /// The fill's little-endian bytes in `dtype`.
    ///
    /// # Errors
    ///
    /// [`PadError::ValueOutOfRange`] when the value is not exactly
    /// representable in `dtype` (out of range, or a fraction for an integer type), and
    /// [`PadError::UnsupportedType`] for a dtype padkit cannot pad.
    ///
    /// ```
    /// use burn::tensor::DType;
    /// use padkit_burn::Fill;
    /// assert_eq!(Fill::Int(16_777_217).bytes(DType::I64).unwrap(), 16_777_217i64.to_le_bytes());
    /// assert_eq!(Fill::Float(0.1).bytes(DType::F64).unwrap(), 0.1f64.to_le_bytes());
    /// assert!(Fill::Int(300).bytes(DType::U8).is_err());
    /// ```
    pub fn bytes(self, dtype: DType) -> Result<Vec<u8>, PadError> {
        let range = || self.out_of_range(dtype);
        let int = || self.integer(dtype);
        Ok(match dtype {
            DType::F64 => self.float().to_le_bytes().to_vec(),
            DType::F32 => (self.float() as f32).to_le_bytes().to_vec(),
            DType::F16 => f16::from_f64(self.float()).to_le_bytes().to_vec(),
            DType::BF16 => bf16::from_f64(self.float()).to_le_bytes().to_vec(),
            DType::I64 => int()?.to_le_bytes().to_vec(),
            DType::I32 => i32::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::I16 => i16::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::I8 => i8::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::U64 => u64::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::U32 => u32::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::U16 => u16::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::U8 => u8::try_from(int()?)
                .map_err(|_| range())?
                .to_le_bytes()
                .to_vec(),
            DType::Bool(store) => {
                let b = match int()? {
                    0 => 0u8,
                    1 => 1,
                    _ => return Err(range()),
                };
                let mut bytes = vec![0; width(DType::Bool(store))?];
                bytes[0] = b;
                bytes
            }
            other => return Err(PadError::UnsupportedType(format!("{other:?}"))),
        })
    }
}
