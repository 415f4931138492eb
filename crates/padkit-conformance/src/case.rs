//! One conformance case: a Pad call as an ONNX model states it, with its tags and what a
//! conforming engine gives.

use padkit::{PadError, PadMode, PadSpec, Tensor};
use serde::{Deserialize, Serialize};

use crate::reference::ErrClass;
use crate::standing::Standing;

/// How an operand (pads, value, axes) reaches the Pad node in the case's ONNX model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Feed {
    /// A node attribute (opsets 1–10: `paddings`/`pads`, `value`).
    Attribute,
    /// A graph initializer.
    Initializer,
    /// A `Constant` node's output.
    ConstantNode,
    /// A graph input, fed at run time.
    Input,
}

/// Why a conforming engine refuses a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The pad breaks a rule of Pad, whatever the model (the reference's class).
    Pad(ErrClass),
    /// The model breaks the signature of its Pad version (a mode, an element type or an
    /// input that version does not have, a value of another type than the data).
    Signature(&'static str),
}

impl Refusal {
    /// The class's name, as the manifest writes it: the [`ErrClass`] variant's name, or
    /// `Signature`.
    ///
    /// ```
    /// use padkit_conformance::{ErrClass, Refusal};
    /// assert_eq!(Refusal::Pad(ErrClass::DuplicateAxis).class(), "DuplicateAxis");
    /// ```
    pub fn class(&self) -> String {
        match self {
            Refusal::Pad(c) => format!("{c:?}"),
            Refusal::Signature(_) => SIGNATURE.into(),
        }
    }

    /// The class of padkit's error `e`, as [`Refusal::class`] names classes: its
    /// [`ErrClass`]'s, or `Signature` for the errors of a model that breaks
    /// its Pad version's signature (a mode, an input or an element type that version does
    /// not have, a value of another type than the data); `None` for an error no case
    /// expects (an allocation that failed, say).
    ///
    /// ```
    /// use padkit_conformance::Refusal;
    /// let e = padkit::PadSpec::new(vec![1]).resolve(1).unwrap_err();
    /// assert_eq!(Refusal::class_of_error(&e).as_deref(), Some("PadsLength"));
    /// let e = padkit::onnx::parse_mode("wrap", 18).unwrap_err();
    /// assert_eq!(Refusal::class_of_error(&e).as_deref(), Some("Signature"));
    /// let e = padkit::onnx::check_type(padkit::DType::Bool, 11).unwrap_err();
    /// assert_eq!(Refusal::class_of_error(&e).as_deref(), Some("Signature"));
    /// let e = padkit::memory::check_strides(&[0, 1 << 40, 1 << 40]).unwrap_err();
    /// assert_eq!(Refusal::class_of_error(&e), None);
    /// ```
    pub fn class_of_error(e: &PadError) -> Option<String> {
        use PadError::*;
        if let Some(class) = crate::class_of(e) {
            return Some(Refusal::Pad(class).class());
        }
        match e {
            UnknownOnnxMode(_)
            | UnknownMode(_)
            | ModeNeedsOpset { .. }
            | InputNeedsOpset { .. }
            | InputCount { .. }
            | DomainVersion { .. }
            | TypeNeedsOpset { .. }
            | OperandType { .. }
            | OperandRank { .. }
            | ValueNotScalar { .. }
            | ValueType { .. } => Some(SIGNATURE.into()),
            _ => None,
        }
    }
}

/// The class of the refusals of models that break their Pad version's signature.
const SIGNATURE: &str = "Signature";

/// What a conforming engine gives for a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// This output, bit for bit (any NaN matches any NaN).
    Output(Tensor),
    /// An error of this class.
    Error(Refusal),
}

/// One case of the catalogue.
///
/// The pad itself is [`Case::spec`] on [`Case::input`] with fill [`Case::fill`]; the
/// other fields say how the case's ONNX model states it (which Pad version, which
/// operands come from where), which a framework without ONNX can ignore.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// A unique name, usable as a directory name (`test_padkit_…`).
    pub name: String,
    /// What the case exercises: `opset:19`, `mode:reflect`, `type:float16`,
    /// `feature:crop`, `feed:input`, …
    pub tags: Vec<String>,
    /// The model's opset of ONNX's domain (which Pad version an ONNX Pad node is; padkit's
    /// own Pad is version 1 of its domain, in models of the newest opset).
    pub opset: i64,
    /// The Pad node's domain: empty for ONNX's, [`padkit::onnx::PADKIT_DOMAIN`] for
    /// padkit's own Pad (symmetric mode, interior padding).
    pub domain: String,
    /// The mode.
    pub mode: PadMode,
    /// Whether the model writes the `mode` attribute (ONNX's default is constant).
    pub mode_attribute: bool,
    /// The data.
    pub input: Tensor,
    /// ONNX-order pads (all begins, then all ends) over [`Case::axes`].
    pub pads: Vec<i64>,
    /// The padded axes (`None`: all of them).
    pub axes: Option<Vec<i64>>,
    /// Interior padding per padded axis (padkit's domain only).
    pub interior: Option<Vec<i64>>,
    /// The constant value as the model gives it (`None`: omitted, the fill is zero):
    /// a scalar of the data's type from opset 11, an `f32` attribute before.
    pub value: Option<Tensor>,
    /// The fill the value stands for, as a one-element tensor of the data's type.
    pub fill: Tensor,
    /// How pads, value and axes reach the node.
    pub feeds: Feeds,
    /// What a conforming engine gives.
    pub expected: Expected,
    /// For a case that must fail, the name of its valid twin: the same model with the one
    /// offending detail corrected, which comes just before it in the catalogue. An engine's
    /// error on this case counts as a pass only where it passes the twin
    /// ([`credit_error`](crate::grade::credit_error)).
    pub twin: Option<String>,
    /// What ONNX says about the case (also its `onnx:` tag).
    pub onnx: Standing,
}

/// How each operand reaches the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feeds {
    /// The pads.
    pub pads: Feed,
    /// The constant value (when given).
    pub value: Feed,
    /// The axes (when given).
    pub axes: Feed,
}

impl Case {
    /// The pad as a padkit spec (no output limit).
    ///
    /// ```
    /// let case = &padkit_conformance::cases(padkit_conformance::Size::Small)[0];
    /// assert_eq!(case.spec().pads, case.pads);
    /// ```
    pub fn spec(&self) -> PadSpec {
        PadSpec::new(self.pads.clone())
            .with_axes(self.axes.clone())
            .with_interior(self.interior.clone())
            .with_mode(self.mode)
    }

    /// True when the case carries `tag` (a whole tag such as `feature:crop`, or just its
    /// value, `crop`).
    ///
    /// ```
    /// let case = &padkit_conformance::cases(padkit_conformance::Size::Small)[0];
    /// assert!(case.has_tag("opset:1") && case.has_tag("1"));
    /// ```
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags
            .iter()
            .any(|t| t == tag || t.split_once(':').is_some_and(|(_, v)| v == tag))
    }
}
