//! What each ONNX version of Pad allows, for loaders of ONNX models.

use crate::{PadError, PadMode, Result};

/// Every version of ONNX Pad.
pub const PAD_VERSIONS: [i64; 10] = [1, 2, 11, 13, 18, 19, 21, 23, 24, 25];

/// The modes ONNX Pad allows at `opset` (wrap from 19; symmetric never).
///
/// ```
/// use padkit::{PadMode, onnx::modes_for};
/// assert!(!modes_for(18).contains(&PadMode::Wrap));
/// assert!(modes_for(19).contains(&PadMode::Wrap));
/// ```
pub fn modes_for(opset: i64) -> Vec<PadMode> {
    let mut modes = vec![PadMode::Constant, PadMode::Reflect, PadMode::Edge];
    if opset >= 19 {
        modes.push(PadMode::Wrap);
    }
    modes
}

/// The `mode` attribute's text as a mode, checked against the model's opset.
///
/// ```
/// use padkit::onnx::parse_mode;
/// assert_eq!(parse_mode("wrap", 19).unwrap(), padkit::PadMode::Wrap);
/// assert_eq!(
///     parse_mode("wrap", 18).unwrap_err().to_string(),
///     "mode \"wrap\" needs opset 19 or later, the model uses opset 18"
/// );
/// assert!(parse_mode("symmetric", 25).is_err());
/// ```
pub fn parse_mode(text: &str, opset: i64) -> Result<PadMode> {
    let newest = PAD_VERSIONS[PAD_VERSIONS.len() - 1];
    let mode = text
        .parse::<PadMode>()
        .ok()
        .filter(|m| modes_for(newest).contains(m))
        .ok_or_else(|| PadError::UnknownOnnxMode(text.to_string()))?;
    if !modes_for(opset).contains(&mode) {
        return Err(PadError::ModeNeedsOpset { mode, opset });
    }
    Ok(mode)
}
