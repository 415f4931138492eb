//! The pad as a layer, in candle-nn's style.

use candle_core::{Module, Tensor};
use padkit::PadSpec;
use padkit::pairs::Padding;

use crate::{Fill, PaddingMode, pad_with};

/// A pad layer: a fixed [`PadSpec`] and fill, applied by `forward`.
///
/// ```
/// use candle_core::{Device, Module, Tensor};
/// use padkit_candle::{Pad, PaddingMode};
/// let layer = Pad::new([(2, 2)], PaddingMode::Reflect);
/// let x = Tensor::new(&[[1f32, 2.0, 3.0]], &Device::Cpu).unwrap();
/// let y = layer.forward(&x).unwrap();
/// assert_eq!(y.to_vec2::<f32>().unwrap(), [[3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Pad {
    spec: PadSpec,
    fill: Fill,
}

impl Pad {
    /// A layer padding by `(before, after)` pairs (of the last dims, or [`on_axes`](crate::on_axes)) in `mode`.
    pub fn new(padding: impl Padding, mode: impl Into<PaddingMode>) -> Pad {
        let (mode, fill) = mode.into().parts();
        Pad {
            spec: padding.spec(mode),
            fill,
        }
    }

    /// A layer padding by an ONNX-shaped `spec`, filling with `fill`.
    pub fn from_spec(spec: PadSpec, fill: impl Into<Fill>) -> Pad {
        Pad {
            spec,
            fill: fill.into(),
        }
    }

    /// The layer's spec.
    pub fn spec(&self) -> &PadSpec {
        &self.spec
    }
}

impl Module for Pad {
    fn forward(&self, xs: &Tensor) -> candle_core::Result<Tensor> {
        Ok(pad_with(xs, &self.spec, self.fill)?)
    }
}
