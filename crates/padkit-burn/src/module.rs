//! A `Pad` layer in Burn's module style.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;
use padkit::{PadError, PadSpec};

use crate::{Fill, PadKind, PaddingMode, pad_with};

/// Configuration of a [`Pad`] layer.
///
/// ```
/// use padkit_burn::{PadConfig, PaddingMode};
/// let pad = PadConfig::new(vec![0, 0, 1, 1, 0, 0, 1, 1]).with_mode(PaddingMode::Reflect).init();
/// assert_eq!(pad.spec().mode, padkit::PadMode::Reflect);
/// ```
#[derive(Config, Debug)]
pub struct PadConfig {
    /// ONNX-order pads `[b.., e..]` over `axes`; negative values crop.
    pub pads: Vec<i64>,
    /// The padded axes (negative counts from the back); all axes when `None`.
    #[config(default = "None")]
    pub axes: Option<Vec<i64>>,
    /// Interior padding per padded axis (constant mode only).
    #[config(default = "None")]
    pub interior: Option<Vec<i64>>,
    /// How the padding is filled (the constant mode holds its value).
    #[config(default = "PaddingMode::Constant(Fill::Zero)")]
    pub mode: PaddingMode,
}

impl PadConfig {
    /// The layer. The pads are checked against the input when it runs.
    pub fn init(&self) -> Pad {
        let (mode, fill) = self.mode.parts();
        Pad {
            spec: PadSpec::new(self.pads.clone())
                .with_axes(self.axes.clone())
                .with_interior(self.interior.clone())
                .with_mode(mode),
            fill,
        }
    }

    /// The configuration of an ONNX Pad node of the model's `opset`: its `mode`
    /// attribute, pads (attribute or input), constant value and axes.
    ///
    /// # Errors
    ///
    /// When `mode` is not a mode of ONNX Pad, or not one of `opset` (`wrap` needs opset
    /// 19). The pads themselves are checked against the input when the layer runs.
    ///
    /// ```
    /// use padkit_burn::{Fill, PadConfig, PaddingMode};
    /// let c = PadConfig::from_onnx(19, Some("wrap"), vec![1, 1], None, Some(vec![-1])).unwrap();
    /// assert_eq!(c.mode, PaddingMode::Wrap);
    /// let c = PadConfig::from_onnx(13, None, vec![1, 1], Some(Fill::Int(7)), None).unwrap();
    /// assert_eq!(c.mode, PaddingMode::Constant(Fill::Int(7)));
    /// let err = PadConfig::from_onnx(18, Some("wrap"), vec![1, 1], None, None).unwrap_err();
    /// assert_eq!(err.to_string(), "mode \"wrap\" needs opset 19 or later, the model uses opset 18");
    /// ```
    pub fn from_onnx(
        opset: i64,
        mode: Option<&str>,
        pads: Vec<i64>,
        constant_value: Option<Fill>,
        axes: Option<Vec<i64>>,
    ) -> Result<PadConfig, PadError> {
        let mode = match padkit::onnx::parse_mode(mode.unwrap_or("constant"), opset)? {
            padkit::PadMode::Constant => PaddingMode::Constant(constant_value.unwrap_or_default()),
            padkit::PadMode::Reflect => PaddingMode::Reflect,
            padkit::PadMode::Edge => PaddingMode::Edge,
            padkit::PadMode::Wrap => PaddingMode::Wrap,
            padkit::PadMode::Symmetric => PaddingMode::Symmetric,
        };
        Ok(PadConfig::new(pads).with_axes(axes).with_mode(mode))
    }
}

/// A pad layer: stateless, saved with its configuration, usable inside any
/// `#[derive(Module)]` model, on tensors of every kind.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit_burn::{PadConfig, PaddingMode};
/// let pad = PadConfig::new(vec![1, 2]).with_mode(PaddingMode::from(-1.0)).init();
/// let y = pad.forward(Tensor::<1>::from_floats([5.0], &Device::flex()));
/// assert_eq!(y.into_data().try_to_vec::<f32>().unwrap(), vec![-1.0, 5.0, -1.0, -1.0]);
/// ```
#[derive(Module, Debug)]
pub struct Pad {
    #[module(skip)]
    spec: PadSpec,
    #[module(skip)]
    fill: Fill,
}

impl Pad {
    /// The padkit spec of this layer.
    pub fn spec(&self) -> &PadSpec {
        &self.spec
    }

    /// Pads `input`, like every burn-nn layer's `forward`, infallibly.
    ///
    /// # Panics
    ///
    /// When the pads do not fit the input (wrong length or axes for its rank, crops past
    /// an axis, an output too large to allocate); [`Pad::try_forward`] returns the error
    /// instead.
    pub fn forward<const D: usize, K: PadKind>(&self, input: Tensor<D, K>) -> Tensor<D, K> {
        self.try_forward(input)
            .unwrap_or_else(|e| panic!("Pad layer: {e}"))
    }

    /// Pads `input`, or says why the pads do not fit it.
    ///
    /// # Errors
    ///
    /// As [`pad_with`](crate::pad_with): the layer's pads, axes or interior do not fit
    /// `input`, its constant is not exact in the element type, or the output is too large.
    ///
    /// ```
    /// use burn::tensor::{Device, Tensor};
    /// let pad = padkit_burn::PadConfig::new(vec![1, 1, 1]).init();
    /// let err = pad.try_forward(Tensor::<1>::from_floats([5.0], &Device::flex())).unwrap_err();
    /// assert!(err.to_string().starts_with("pads has 3 values"));
    /// ```
    pub fn try_forward<const D: usize, K: PadKind>(
        &self,
        input: Tensor<D, K>,
    ) -> Result<Tensor<D, K>, PadError> {
        pad_with(input, &self.spec, self.fill)
    }
}
