//! padkit-candle's error: padkit's, naming the axis and the numbers, or candle's.

use candle_core::DType;
use padkit::PadError;

/// Why a pad failed.
///
/// Converts into `candle_core::Error` (as a wrapped error carrying this text), so `?`
/// works in candle code; matching on it gives padkit's [`PadError`].
///
/// ```
/// use candle_core::{Device, Tensor};
/// use padkit::{PadError, PadMode, PadSpec};
/// let x = Tensor::new(&[1f32, 2.0], &Device::Cpu).unwrap();
/// let spec = PadSpec::new(vec![-3, 2]).with_mode(PadMode::Edge);
/// let err = padkit_candle::pad(&x, &spec).unwrap_err();
/// assert!(matches!(err, padkit_candle::Error::Pad(PadError::CropTooLarge { axis: 0, .. })));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The pad does not fit the tensor, the fill is not exact in its type, or the output
    /// is too large.
    #[error(transparent)]
    Pad(#[from] PadError),
    /// candle failed (a device's allocation, a copy, an op of the composed path).
    #[error(transparent)]
    Candle(#[from] candle_core::Error),
    /// A gradient asked of a pad of a type padkit's adjoint does not sum in.
    #[error("padkit's adjoint sums in f64, f32, f16 and bf16, not {}", .0.as_str())]
    NoGradient(DType),
}

impl From<Error> for candle_core::Error {
    fn from(e: Error) -> candle_core::Error {
        match e {
            Error::Candle(e) => e,
            other => candle_core::Error::wrap(other),
        }
    }
}
