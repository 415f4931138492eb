//! What each ONNX version of Pad allows, for loaders of ONNX models: its [`signature`]
//! (where pads, value and axes come from, how many inputs it takes), the modes and the
//! element types of each version. padkit-tract's loader, padkit-burn-onnx and the `padkit`
//! CLI all read Pad nodes through it, so a new Pad version is one edit here.

use crate::{DType, PadError, PadMode, Result};

/// Every version of ONNX Pad.
///
/// ```
/// assert_eq!(padkit::onnx::PAD_VERSIONS[0], 1);
/// ```
pub const PAD_VERSIONS: [i64; 10] = [1, 2, 11, 13, 18, 19, 21, 23, 24, 25];

/// The newest version of ONNX Pad.
///
/// ```
/// assert_eq!(padkit::onnx::NEWEST_VERSION, 25);
/// ```
pub const NEWEST_VERSION: i64 = PAD_VERSIONS[PAD_VERSIONS.len() - 1];

/// An operand of a Pad node as a loader holds it: known when the model is read (a constant,
/// an initializer, a folded expression), or a value the graph feeds at run time, referred
/// to as the graph refers to it (`R`): the node's input index for padkit-tract and
/// padkit-burn-onnx (the default), the value's name for padkit-lower.
///
/// ```
/// use padkit::onnx::Given;
/// let pads: Given<Vec<i64>> = Given::Known(vec![0, 1, 0, 1]);
/// assert_eq!(pads.known(), Some(&vec![0, 1, 0, 1]));
/// assert_eq!(pads.fed(), None);
/// let fed: Given<Vec<i64>, String> = Given::Fed("pads".into());
/// assert_eq!((fed.known(), fed.fed()), (None, Some(&"pads".to_string())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Given<T, R = usize> {
    /// Known when the model is read.
    Known(T),
    /// Fed by the graph at run time, from this input of the node or value of the graph.
    Fed(R),
}

impl<T, R> Given<T, R> {
    /// The value, where it is known when the model is read.
    pub fn known(&self) -> Option<&T> {
        match self {
            Given::Known(v) => Some(v),
            Given::Fed(_) => None,
        }
    }

    /// Where the graph feeds it, where it is not known when the model is read.
    pub fn fed(&self) -> Option<&R> {
        match self {
            Given::Known(_) => None,
            Given::Fed(r) => Some(r),
        }
    }
}

/// Where a Pad version reads an operand.
///
/// ```
/// use padkit::onnx::{Source, signature};
/// assert_eq!(signature(2).pads, Source::Attribute("pads"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A node attribute of this name.
    Attribute(&'static str),
    /// The node's input at this position (0 is the data).
    Input(usize),
}

/// The ONNX domain of padkit's own Pad: ONNX's newest Pad (inputs `data`, `pads`,
/// optional `constant_value` and `axes`, every element type) plus the mode `symmetric` and
/// the attribute `interior` (ints, one per padded axis: fill values inserted between
/// adjacent elements, constant mode only), at version 1.
///
/// ```
/// use padkit::onnx::{PADKIT_DOMAIN, node_signature};
/// assert_eq!(node_signature(PADKIT_DOMAIN, 1).name(), "ai.padkit Pad-1");
/// ```
pub const PADKIT_DOMAIN: &str = "ai.padkit";

/// True for the names of ONNX's default domain: the empty string, as models write it, and
/// its long name `ai.onnx`.
///
/// ```
/// use padkit::onnx::is_default_domain;
/// assert!(is_default_domain("") && is_default_domain("ai.onnx"));
/// assert!(!is_default_domain("ai.onnx.ml") && !is_default_domain("ai.padkit"));
/// ```
pub fn is_default_domain(domain: &str) -> bool {
    domain.is_empty() || domain == "ai.onnx"
}

/// What one ONNX Pad version takes.
///
/// ```
/// use padkit::onnx::{Source, signature};
/// let pad1 = signature(1);
/// assert_eq!((pad1.pads, pad1.value), (Source::Attribute("paddings"), Source::Attribute("value")));
/// let pad18 = signature(18);
/// assert_eq!((pad18.pads, pad18.axes), (Source::Input(1), Some(Source::Input(3))));
/// assert_eq!(signature(17).version, 13);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The node's domain: empty for ONNX's, or [`PADKIT_DOMAIN`].
    pub domain: &'static str,
    /// The model's opset of the node's domain.
    pub opset: i64,
    /// The Pad version (one of [`PAD_VERSIONS`]; 1 in [`PADKIT_DOMAIN`]).
    pub version: i64,
    /// Where the pads come from: the `paddings` (Pad-1) or `pads` (Pad-2) attribute, a
    /// list of ints, or input 1.
    pub pads: Source,
    /// Where the constant comes from: the optional float attribute `value` (Pad-1, Pad-2),
    /// or the optional input 2, a scalar of the data's type.
    pub value: Source,
    /// Where the axes come from: the optional input 3, from Pad-18.
    pub axes: Option<Source>,
    /// Where the interior padding comes from: the attribute `interior`, in
    /// [`PADKIT_DOMAIN`] only.
    pub interior: Option<Source>,
    /// The modes the `mode` attribute may name.
    pub modes: Vec<PadMode>,
    /// The opset whose element types the node takes (every type in [`PADKIT_DOMAIN`]).
    pub types_of: i64,
}

/// The signature of the Pad version a model of `opset` uses (the newest version at or
/// below it; opsets below 1 read as Pad-1).
///
/// ```
/// let pad = padkit::onnx::signature(20);
/// assert_eq!((pad.version, pad.max_inputs()), (19, 4));
/// ```
pub fn signature(opset: i64) -> Signature {
    let version = PAD_VERSIONS
        .iter()
        .rev()
        .find(|&&v| v <= opset)
        .copied()
        .unwrap_or(1);
    let (pads, value) = match version {
        1 => (Source::Attribute("paddings"), Source::Attribute("value")),
        2 => (Source::Attribute("pads"), Source::Attribute("value")),
        _ => (Source::Input(1), Source::Input(2)),
    };
    Signature {
        domain: "",
        opset,
        version,
        pads,
        value,
        axes: (version >= 18).then_some(Source::Input(3)),
        interior: None,
        modes: modes_for(version),
        types_of: opset,
    }
}

/// The signature of a Pad node of `domain` in a model that imports `opset` of it: padkit's
/// own in [`PADKIT_DOMAIN`] (whose only version is 1: [`Signature::check_inputs`] refuses
/// others), ONNX's otherwise.
///
/// ```
/// use padkit::onnx::{PADKIT_DOMAIN, Source, node_signature};
/// let own = node_signature(PADKIT_DOMAIN, 1);
/// assert_eq!(own.interior, Some(Source::Attribute("interior")));
/// assert!(own.parse_mode("symmetric").is_ok());
/// assert!(node_signature("", 25).parse_mode("symmetric").is_err());
/// ```
pub fn node_signature(domain: &str, opset: i64) -> Signature {
    if domain != PADKIT_DOMAIN {
        return signature(opset);
    }
    Signature {
        domain: PADKIT_DOMAIN,
        opset,
        version: 1,
        interior: Some(Source::Attribute("interior")),
        modes: PadMode::ALL.to_vec(),
        types_of: NEWEST_VERSION,
        ..signature(NEWEST_VERSION)
    }
}

impl Signature {
    /// The op as errors name it: `Pad-13`, or `ai.padkit Pad-1`.
    ///
    /// ```
    /// assert_eq!(padkit::onnx::signature(17).name(), "Pad-13");
    /// ```
    pub fn name(&self) -> String {
        if self.domain.is_empty() {
            format!("Pad-{}", self.version)
        } else {
            format!("{} Pad-{}", self.domain, self.version)
        }
    }

    /// The most inputs a node of this version has (empty names of omitted optional
    /// inputs included): the data, then each operand read from an input.
    ///
    /// ```
    /// use padkit::onnx::signature;
    /// assert_eq!([1, 11, 18].map(|v| signature(v).max_inputs()), [1, 3, 4]);
    /// ```
    pub fn max_inputs(&self) -> usize {
        let operands = [Some(self.pads), Some(self.value), self.axes];
        1 + operands
            .iter()
            .filter(|s| matches!(s, Some(Source::Input(_))))
            .count()
    }

    /// Checks a node's input count (`inputs`, empty names included).
    ///
    /// # Errors
    ///
    /// [`PadError::InputNeedsOpset`] for an `axes` input before Pad-18,
    /// [`PadError::InputCount`] for no input, or more than [`Signature::max_inputs`], and
    /// [`PadError::DomainVersion`] for a [`PADKIT_DOMAIN`] opset other than 1.
    ///
    /// ```
    /// use padkit::onnx::signature;
    /// assert!(signature(18).check_inputs(4).is_ok());
    /// assert_eq!(
    ///     signature(17).check_inputs(4).unwrap_err().to_string(),
    ///     "input 'axes' needs opset 18 or later, the model uses opset 17"
    /// );
    /// assert_eq!(
    ///     signature(2).check_inputs(2).unwrap_err().to_string(),
    ///     "Pad-2 takes 1 input, the node has 2"
    /// );
    /// ```
    pub fn check_inputs(&self, inputs: usize) -> Result<()> {
        if !self.domain.is_empty() && self.opset != self.version {
            return Err(PadError::DomainVersion {
                domain: self.domain,
                version: self.version,
                opset: self.opset,
            });
        }
        let max = self.max_inputs();
        if inputs == 4 && self.axes.is_none() && max == 3 {
            return Err(PadError::InputNeedsOpset {
                input: "axes",
                since: 18,
                opset: self.opset,
            });
        }
        if inputs == 0 || inputs > max {
            return Err(PadError::InputCount {
                op: self.name(),
                max,
                got: inputs,
            });
        }
        Ok(())
    }

    /// The `mode` attribute's text as one of this version's modes.
    ///
    /// # Errors
    ///
    /// As [`parse_mode`] for ONNX's Pad; [`PadError::UnknownMode`] for a mode padkit does
    /// not know in [`PADKIT_DOMAIN`].
    ///
    /// ```
    /// use padkit::onnx::signature;
    /// assert!(signature(19).parse_mode("wrap").is_ok());
    /// assert!(signature(18).parse_mode("wrap").is_err());
    /// ```
    pub fn parse_mode(&self, text: &str) -> Result<PadMode> {
        match text.parse::<PadMode>() {
            Ok(mode) if self.modes.contains(&mode) => Ok(mode),
            // ONNX's errors: not an ONNX mode, or not yet at this opset
            _ if self.domain.is_empty() => parse_mode(text, self.opset),
            other => other,
        }
    }
}

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
    let mode = text
        .parse::<PadMode>()
        .ok()
        .filter(|m| modes_for(NEWEST_VERSION).contains(m))
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
    Err(PadError::TypeNeedsOpset {
        dtype,
        version: signature(opset).version,
        since,
    })
}

/// An operand that Pad-11 and later read from an input: `pads` (input 1), `constant_value`
/// (input 2) and `axes` (input 3, from Pad-18). Its rules are ONNX's: `pads` is a 1-D
/// int64 tensor, `axes` a 1-D int32 or int64 tensor, and `constant_value` one element of
/// the data's type. Every loader of ONNX models in padkit checks its operands here, so
/// that each gives the same error for the same bad model.
///
/// ```
/// use padkit::{DType, onnx::Operand};
/// assert!(Operand::Axes.check_type(DType::Int32, DType::Float32).is_ok());
/// assert_eq!(
///     Operand::Pads.check_type(DType::Int32, DType::Float32).unwrap_err().to_string(),
///     "input 'pads' has type int32; Pad takes int64"
/// );
/// assert_eq!(
///     Operand::Pads.check_shape(&[2, 2]).unwrap_err().to_string(),
///     "input 'pads' must be 1-D, it has rank 2"
/// );
/// assert_eq!(
///     Operand::ConstantValue.check_shape(&[2]).unwrap_err().to_string(),
///     "constant value must hold one element, it holds 2"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// `pads`: a 1-D int64 tensor.
    Pads,
    /// `constant_value`: one element of the data's type (a scalar, or a 1-element tensor
    /// as ONNX Runtime accepts).
    ConstantValue,
    /// `axes`: a 1-D int32 or int64 tensor.
    Axes,
}

impl Operand {
    /// The input's name in the ONNX spec.
    ///
    /// ```
    /// assert_eq!(padkit::onnx::Operand::ConstantValue.name(), "constant_value");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Operand::Pads => "pads",
            Operand::ConstantValue => "constant_value",
            Operand::Axes => "axes",
        }
    }

    /// Checks the operand's element type `got`, for data of type `data`.
    ///
    /// # Errors
    ///
    /// [`PadError::OperandType`] for pads other than int64 or axes other than int32 and
    /// int64, [`PadError::ValueType`] for a constant value of another type than the data.
    ///
    /// ```
    /// use padkit::{DType, onnx::Operand};
    /// assert!(Operand::ConstantValue.check_type(DType::Float16, DType::Float16).is_ok());
    /// assert!(Operand::ConstantValue.check_type(DType::Int64, DType::Float16).is_err());
    /// ```
    pub fn check_type(self, got: DType, data: DType) -> Result<()> {
        let allowed: &'static [DType] = match self {
            Operand::Pads => &[DType::Int64],
            Operand::Axes => &[DType::Int32, DType::Int64],
            Operand::ConstantValue if got == data => return Ok(()),
            Operand::ConstantValue => {
                return Err(PadError::ValueType {
                    expected: data,
                    got,
                });
            }
        };
        if allowed.contains(&got) {
            return Ok(());
        }
        Err(PadError::OperandType {
            input: self.name(),
            got,
            allowed,
        })
    }

    /// Checks the rank of `pads` or `axes` (1), for loaders that know the rank before the
    /// shape; a constant value's rank is free (its element count is checked by
    /// [`Operand::check_shape`]).
    ///
    /// # Errors
    ///
    /// [`PadError::OperandRank`] when `pads` or `axes` is not 1-D.
    ///
    /// ```
    /// use padkit::onnx::Operand;
    /// assert!(Operand::Axes.check_rank(1).is_ok());
    /// assert!(Operand::Axes.check_rank(0).is_err());
    /// assert!(Operand::ConstantValue.check_rank(0).is_ok());
    /// ```
    pub fn check_rank(self, rank: usize) -> Result<()> {
        if self == Operand::ConstantValue || rank == 1 {
            return Ok(());
        }
        Err(PadError::OperandRank {
            input: self.name(),
            rank,
        })
    }

    /// Checks the operand's shape: 1-D for `pads` and `axes`, one element for the constant
    /// value.
    ///
    /// # Errors
    ///
    /// [`PadError::OperandRank`] as [`Operand::check_rank`], and
    /// [`PadError::ValueNotScalar`] for a constant value of other than one element.
    ///
    /// ```
    /// use padkit::onnx::Operand;
    /// assert!(Operand::ConstantValue.check_shape(&[1]).is_ok());
    /// assert!(Operand::ConstantValue.check_shape(&[]).is_ok());
    /// assert!(Operand::Pads.check_shape(&[4]).is_ok());
    /// ```
    pub fn check_shape(self, shape: &[usize]) -> Result<()> {
        self.check_rank(shape.len())?;
        let elements = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        if self == Operand::ConstantValue && elements != Some(1) {
            return Err(PadError::ValueNotScalar {
                elements: elements.unwrap_or(usize::MAX),
            });
        }
        Ok(())
    }
}

/// The float `value` attribute of Pad-1 and Pad-2 as one element of the data's type
/// (those versions take float data only: float, double, float16).
///
/// # Errors
///
/// [`PadError::ValueType`] for data of another type.
///
/// ```
/// use padkit::{DType, onnx::attribute_value};
/// let v = attribute_value(1.5, DType::Float64).unwrap();
/// assert_eq!(v.to_vec::<f64>().unwrap(), vec![1.5]);
/// assert!(attribute_value(1.5, DType::Int32).is_err());
/// ```
pub fn attribute_value(v: f32, dtype: DType) -> Result<crate::Tensor> {
    match dtype {
        DType::Float32 => Ok(crate::Tensor::scalar(v)),
        DType::Float64 => Ok(crate::Tensor::scalar(f64::from(v))),
        DType::Float16 => Ok(crate::Tensor::scalar(half::f16::from_f32(v))),
        other => Err(PadError::ValueType {
            expected: other,
            got: DType::Float32,
        }),
    }
}

/// The `(begin, end)` pads by which ONNX's `CenterCropPad` brings an axis to its target
/// extent, `diff` being the target less the extent: negative pads crop, positive ones pad;
/// the smaller half of the difference goes before (rounded toward zero, either sign).
///
/// ```
/// use padkit::onnx::center_pads;
/// assert_eq!(center_pads(3), (1, 2)); // pad 3: 1 before, 2 after
/// assert_eq!(center_pads(-3), (-1, -2)); // crop 3: 1 before, 2 after
/// ```
pub fn center_pads(diff: i64) -> (i64, i64) {
    let begin = diff / 2;
    (begin, diff - begin)
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
