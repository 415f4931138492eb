//! A `Pad` layer in Burn's module style.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;
use padkit::{PadError, PadMode, PadSpec};

use crate::{Fill, pad_with};

/// Configuration of a [`Pad`] layer.
///
/// ```
/// use padkit_burn::PadConfig;
/// let pad = PadConfig::new(vec![0, 0, 1, 1, 0, 0, 1, 1]).with_mode("reflect".into()).init().unwrap();
/// assert_eq!(pad.spec().unwrap().mode, padkit::PadMode::Reflect);
/// assert!(PadConfig::new(vec![1, 1]).with_mode("circular".into()).init().is_err());
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
    /// constant, reflect, edge, wrap or symmetric.
    #[config(default = "String::from(\"constant\")")]
    pub mode: String,
    /// The constant-mode fill value.
    #[config(default = "0.0")]
    pub value: f64,
}

impl PadConfig {
    /// The layer; fails on a mode padkit does not know.
    pub fn init(&self) -> Result<Pad, PadError> {
        let pad = Pad {
            pads: self.pads.clone(),
            axes: self.axes.clone(),
            interior: self.interior.clone(),
            mode: self.mode.clone(),
            value: self.value,
        };
        pad.spec()?; // the mode; pads and axes are checked against the input's rank
        Ok(pad)
    }

    /// The configuration of an ONNX Pad node of the model's `opset`: `mode` attribute,
    /// pads (attribute or input), `constant_value` (or the `value` attribute) and `axes`.
    ///
    /// ```
    /// use padkit_burn::PadConfig;
    /// let c = PadConfig::from_onnx(19, Some("wrap"), vec![1, 1], Some(0.0), Some(vec![-1])).unwrap();
    /// assert_eq!(c.mode, "wrap");
    /// let err = PadConfig::from_onnx(18, Some("wrap"), vec![1, 1], None, None).unwrap_err();
    /// assert_eq!(err.to_string(), "mode \"wrap\" needs opset 19 or later, the model uses opset 18");
    /// ```
    pub fn from_onnx(
        opset: i64,
        mode: Option<&str>,
        pads: Vec<i64>,
        constant_value: Option<f64>,
        axes: Option<Vec<i64>>,
    ) -> Result<PadConfig, PadError> {
        let mode = padkit::onnx::parse_mode(mode.unwrap_or("constant"), opset)?;
        Ok(PadConfig::new(pads)
            .with_axes(axes)
            .with_mode(mode.name().to_string())
            .with_value(constant_value.unwrap_or(0.0)))
    }
}

/// A pad layer: stateless, serialisable with its configuration, usable inside any
/// `#[derive(Module)]` model.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// let pad = padkit_burn::PadConfig::new(vec![1, 2]).with_value(-1.0).init().unwrap();
/// let y = pad.forward(Tensor::<1>::from_floats([5.0], &Device::flex())).unwrap();
/// assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![-1.0, 5.0, -1.0, -1.0]);
/// ```
#[derive(Module, Debug)]
pub struct Pad {
    pads: Vec<i64>,
    axes: Option<Vec<i64>>,
    interior: Option<Vec<i64>>,
    mode: String,
    value: f64,
}

impl Pad {
    /// The padkit spec of this layer.
    pub fn spec(&self) -> Result<PadSpec, PadError> {
        Ok(PadSpec {
            pads: self.pads.clone(),
            axes: self.axes.clone(),
            interior: self.interior.clone(),
            mode: self.mode.parse::<PadMode>()?,
            max_output_bytes: None,
        })
    }

    /// Pads a float tensor.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Result<Tensor<D>, PadError> {
        pad_with(input, &self.spec()?, Fill::Float(self.value))
    }
}
