//! candle's shape of a pad mode: one that carries its constant.

use padkit::PadMode;

use crate::Fill;

/// How the padding is filled: the constant mode holds its value.
///
/// ```
/// use padkit_candle::{Fill, PaddingMode};
/// assert_eq!(PaddingMode::from(2.5), PaddingMode::Constant(Fill::Float(2.5)));
/// assert_eq!(PaddingMode::default(), PaddingMode::Constant(Fill::Zero));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PaddingMode {
    /// Fill with this value (exact in the tensor's dtype).
    Constant(Fill),
    /// Mirror on the end values, which are not repeated (numpy `reflect`).
    Reflect,
    /// Repeat the end values (candle's `pad_with_same`).
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
    /// use padkit_candle::{Fill, PaddingMode};
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
