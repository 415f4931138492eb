//! Pads as tensor APIs take them: `(before, after)` pairs for the last dims, in order (as
//! Burn's `Tensor::pad` takes them), or for named axes; negative values crop. The adapters' `padkit_pad`
//! methods take any [`Padding`].

use crate::{PadMode, PadSpec};

/// `(before, after)` pads of some axes: the last ones, or named ones with [`on_axes`].
/// Negative values crop.
///
/// ```
/// use padkit::pairs::Padding;
/// use padkit::PadMode;
/// // the last two axes of a tensor of any rank
/// let spec = [(1, 1), (2, -1)].spec(PadMode::Wrap);
/// assert_eq!(spec.pads, vec![1, 2, 1, -1]);
/// assert_eq!(spec.axes, Some(vec![-2, -1]));
/// ```
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
/// use padkit::pairs::{on_axes, Padding};
/// let spec = on_axes([(0, (1, 0))]).spec(padkit::PadMode::Edge);
/// assert_eq!(padkit::output_shape(&[2usize, 2], &spec).unwrap(), vec![3, 2]);
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

impl<const N: usize> Padding for &[(i64, i64); N] {
    fn spec(self, mode: PadMode) -> PadSpec {
        last_axes(self, mode)
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
