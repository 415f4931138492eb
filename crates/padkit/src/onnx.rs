//! What each ONNX version of Pad allows, for loaders of ONNX models.

use crate::{DType, PadError, PadMode, Result};

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
/// # Errors
///
/// [`PadError::UnknownOnnxMode`] when `text` is not `constant`, `reflect`, `edge` or
/// `wrap` (padkit's `symmetric` is not an ONNX mode), and [`PadError::ModeNeedsOpset`]
/// when it is `wrap` and `opset` is below 19.
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

/// The element types ONNX Pad takes at `opset`: floats for Pad-1 and Pad-2, numbers from
/// Pad-11, every type of its time (bool, string, bfloat16, complex) from Pad-13, then the
/// float8s and 4-bit ints (21), float4e2m1 (23), float8e8m0 (24) and 2-bit ints (25).
///
/// # Errors
///
/// [`PadError::TypeNeedsOpset`] when the Pad version of `opset` does not take `dtype`.
///
/// ```
/// use padkit::{DType, onnx::check_type};
/// assert!(check_type(DType::Bool, 13).is_ok());
/// assert_eq!(
///     check_type(DType::Bool, 11).unwrap_err().to_string(),
///     "Pad-11 does not take element type bool (Pad-13 does)"
/// );
/// ```
pub fn check_type(dtype: DType, opset: i64) -> Result<()> {
    let since = since(dtype);
    if opset >= since {
        return Ok(());
    }
    let version = PAD_VERSIONS
        .iter()
        .rev()
        .find(|&&v| v <= opset)
        .copied()
        .unwrap_or(1);
    Err(PadError::TypeNeedsOpset {
        dtype,
        version,
        since,
    })
}

/// The first Pad version that takes `dtype`.
fn since(dtype: DType) -> i64 {
    use DType::*;
    match dtype {
        Float32 | Float64 | Float16 => 1,
        Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 => 11,
        Bool | String | BFloat16 | Complex64 | Complex128 => 13,
        Float8E4M3FN | Float8E4M3FNUZ | Float8E5M2 | Float8E5M2FNUZ | Int4 | UInt4 => 21,
        Float4E2M1 => 23,
        Float8E8M0 => 24,
        Int2 | UInt2 => 25,
    }
}
