//! The constant a pad fills with, and a mode that carries it, as the framework adapters
//! take them (padkit-burn, padkit-candle): each converts a [`Fill`] exactly to its own
//! element types.

use crate::{PadError, PadMode};

/// The fill value of a constant-mode pad.
///
/// An adapter converts it to the tensor's own element type without a detour through
/// `f32`: an `i64` of 16 777 217 stays 16 777 217, an `f64` 0.1 stays 0.1 in an f64 tensor.
/// Integers must fit the type; floats go to the nearest value of a float type and must be
/// whole and in range for an integer type ([`Fill::integer`]).
///
/// ```
/// use padkit::fill::Fill;
/// assert_eq!(Fill::from(3i64), Fill::Int(3));
/// assert_eq!(Fill::default(), Fill::Zero);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Fill {
    /// All-zero bits: 0, 0.0 or `false`.
    #[default]
    Zero,
    /// A floating-point value.
    Float(f64),
    /// An integer value.
    Int(i64),
    /// A boolean value.
    Bool(bool),
}

macro_rules! from {
    ($($t:ty => $variant:ident as $wide:ty),*) => {
        $(impl From<$t> for Fill {
            fn from(v: $t) -> Fill {
                Fill::$variant(<$wide>::from(v))
            }
        })*
    };
}

from!(f64 => Float as f64, f32 => Float as f64, i64 => Int as i64, i32 => Int as i64,
      u32 => Int as i64, u8 => Int as i64, bool => Bool as bool);

impl Fill {
    /// The error of a fill that `dtype` (named as its framework names it) cannot hold
    /// exactly.
    ///
    /// ```
    /// let e = padkit::fill::Fill::Int(300).out_of_range("U8");
    /// assert_eq!(e.to_string(), "constant value 300 does not fit element type U8");
    /// ```
    pub fn out_of_range(self, dtype: &str) -> PadError {
        let value = match self {
            Fill::Zero => "0".to_string(),
            Fill::Float(v) => v.to_string(),
            Fill::Int(v) => v.to_string(),
            Fill::Bool(v) => v.to_string(),
        };
        PadError::ValueOutOfRange {
            value,
            dtype: dtype.to_string(),
        }
    }

    /// The value as an integer, for integer and bool types: whole floats convert,
    /// fractions do not.
    ///
    /// # Errors
    ///
    /// [`PadError::ValueOutOfRange`] (naming `dtype`) for a fraction, or a float outside
    /// `i64`.
    ///
    /// ```
    /// use padkit::fill::Fill;
    /// assert_eq!(Fill::Float(3.0).integer("I64").unwrap(), 3);
    /// assert!(Fill::Float(0.5).integer("I64").is_err());
    /// ```
    pub fn integer(self, dtype: &str) -> Result<i64, PadError> {
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

    /// The value as an integer of type `T`, exactly: [`Fill::integer`], then in `T`'s
    /// range.
    ///
    /// # Errors
    ///
    /// [`PadError::ValueOutOfRange`] (naming `dtype`) when the value is a fraction or out
    /// of `T`'s range.
    ///
    /// ```
    /// use padkit::fill::Fill;
    /// assert_eq!(Fill::Int(255).exact::<u8>("U8").unwrap(), 255);
    /// assert!(Fill::Int(256).exact::<u8>("U8").is_err());
    /// ```
    pub fn exact<T: TryFrom<i64>>(self, dtype: &str) -> Result<T, PadError> {
        T::try_from(self.integer(dtype)?).map_err(|_| self.out_of_range(dtype))
    }

    /// The value as a float, for float types (rounded to the type by the adapter).
    ///
    /// ```
    /// assert_eq!(padkit::fill::Fill::Bool(true).float(), 1.0);
    /// ```
    pub fn float(self) -> f64 {
        match self {
            Fill::Zero => 0.0,
            Fill::Float(v) => v,
            Fill::Int(v) => v as f64,
            Fill::Bool(b) => f64::from(u8::from(b)),
        }
    }
}

/// How the padding is filled, as tensor APIs take it: the constant mode holds its value.
///
/// ```
/// use padkit::fill::{Fill, PaddingMode};
/// assert_eq!(PaddingMode::from(2.5), PaddingMode::Constant(Fill::Float(2.5)));
/// assert_eq!(PaddingMode::default(), PaddingMode::Constant(Fill::Zero));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PaddingMode {
    /// Fill with this value (exact in the tensor's element type).
    Constant(Fill),
    /// Mirror on the end values, which are not repeated (numpy `reflect`).
    Reflect,
    /// Repeat the end values.
    Edge,
    /// Continue periodically from the other end.
    Wrap,
    /// Mirror including the end values (numpy `symmetric`).
    Symmetric,
}

impl Default for PaddingMode {
    fn default() -> Self {
        PaddingMode::Constant(Fill::Zero)
    }
}

impl<F: Into<Fill>> From<F> for PaddingMode {
    fn from(value: F) -> Self {
        PaddingMode::Constant(value.into())
    }
}

impl PaddingMode {
    /// padkit's mode and the fill it uses.
    ///
    /// ```
    /// use padkit::fill::{Fill, PaddingMode};
    /// assert_eq!(PaddingMode::Wrap.parts(), (padkit::PadMode::Wrap, Fill::Zero));
    /// ```
    pub fn parts(&self) -> (PadMode, Fill) {
        match self {
            PaddingMode::Constant(fill) => (PadMode::Constant, *fill),
            PaddingMode::Reflect => (PadMode::Reflect, Fill::Zero),
            PaddingMode::Edge => (PadMode::Edge, Fill::Zero),
            PaddingMode::Wrap => (PadMode::Wrap, Fill::Zero),
            PaddingMode::Symmetric => (PadMode::Symmetric, Fill::Zero),
        }
    }
}
