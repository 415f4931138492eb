//! Burn-shaped pad calls: `(before, after)` pairs from the last dims (negative = crop) or
//! on named axes, and a mode that carries its constant, like `burn::tensor::ops::PadMode`
//! (with padkit's wrap and symmetric too).

use burn::config::Config;
use padkit::{PadMode, PadSpec};

use crate::Fill;

/// How the padding is filled, Burn's way: the constant mode holds its value.
///
/// ```
/// use padkit_burn::{Fill, PaddingMode};
/// assert_eq!(PaddingMode::from(2.5), PaddingMode::Constant(Fill::Float(2.5)));
/// assert_eq!(PaddingMode::default(), PaddingMode::Constant(Fill::Zero));
/// ```
#[derive(Config, Debug, PartialEq)]
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
    /// use padkit_burn::{Fill, PaddingMode};
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

/// `(before, after)` pads of some axes: the last ones, like Burn's `pad`, or named ones
/// with [`on_axes`]. Negative values crop.
pub trait Padding {
    /// The spec of these pads in `mode`.
    fn spec(self, mode: PadMode) -> PadSpec;
}

/// Pads of named axes (negative axes count from the back): see [`on_axes`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnAxes(Vec<(i64, (i64, i64))>);

/// Pads of the named axes.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit_burn::{PadExt, PaddingMode, on_axes};
/// let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &Device::flex());
/// let y = x.padkit_pad(on_axes([(0, (1, 0))]), PaddingMode::Wrap).unwrap();
/// assert_eq!(y.dims(), [3, 2]);
/// ```
pub fn on_axes(pads: impl IntoIterator<Item = (i64, (i64, i64))>) -> OnAxes {
    OnAxes(pads.into_iter().collect())
}

impl Padding for OnAxes {
    fn spec(self, mode: PadMode) -> PadSpec {
        let (axes, pairs): (Vec<i64>, Vec<(i64, i64)>) = self.0.into_iter().unzip();
        let (begins, ends): (Vec<i64>, Vec<i64>) = pairs.into_iter().unzip();
        PadSpec::new([begins, ends].concat())
            .with_axes(axes)
            .with_mode(mode)
    }
}

/// Pairs for the last `pairs.len()` axes, in order.
fn last_axes(pairs: &[(i64, i64)], mode: PadMode) -> PadSpec {
    let n = pairs.len() as i64;
    on_axes((-n..0).zip(pairs.iter().copied())).spec(mode)
}

impl<const N: usize> Padding for [(i64, i64); N] {
    fn spec(self, mode: PadMode) -> PadSpec {
        last_axes(&self, mode)
    }
}

impl Padding for &[(i64, i64)] {
    fn spec(self, mode: PadMode) -> PadSpec {
        last_axes(self, mode)
    }
}

impl Padding for Vec<(i64, i64)> {
    fn spec(self, mode: PadMode) -> PadSpec {
        last_axes(&self, mode)
    }
}
