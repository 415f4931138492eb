//! The padding modes.

use std::fmt;
use std::str::FromStr;

use crate::PadError;

/// How the padded region is filled.
///
/// ```
/// use padkit::PadMode;
/// assert_eq!("wrap".parse::<PadMode>().unwrap(), PadMode::Wrap);
/// assert_eq!(PadMode::Symmetric.to_string(), "symmetric");
/// assert!("circular".parse::<PadMode>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PadMode {
    /// Fill with a constant value (zero by default).
    #[default]
    Constant,
    /// Mirror on the end values, which are not repeated (numpy `reflect`).
    Reflect,
    /// Repeat the end values (numpy `edge`, ONNX `edge`).
    Edge,
    /// Continue periodically from the other end (numpy `wrap`, ONNX 19+ `wrap`).
    Wrap,
    /// Mirror including the end values (numpy `symmetric`, nGraph `SYMMETRIC`).
    Symmetric,
}

impl PadMode {
    /// Every mode, in declaration order.
    ///
    /// ```
    /// assert_eq!(padkit::PadMode::ALL.len(), 5);
    /// ```
    pub const ALL: [PadMode; 5] = [
        PadMode::Constant,
        PadMode::Reflect,
        PadMode::Edge,
        PadMode::Wrap,
        PadMode::Symmetric,
    ];

    /// The lower-case name, as ONNX and numpy spell it.
    ///
    /// ```
    /// assert_eq!(padkit::PadMode::Edge.name(), "edge");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            PadMode::Constant => "constant",
            PadMode::Reflect => "reflect",
            PadMode::Edge => "edge",
            PadMode::Wrap => "wrap",
            PadMode::Symmetric => "symmetric",
        }
    }
}

impl fmt::Display for PadMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PadMode {
    type Err = PadError;
    fn from_str(s: &str) -> Result<Self, PadError> {
        PadMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| PadError::UnknownMode(s.to_string()))
    }
}
