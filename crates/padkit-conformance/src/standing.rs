//! What ONNX says about a case: whether ONNX's reference evaluator gives exactly the case's
//! answer ([`Standing::Required`]), or ONNX leaves it open, or padkit answers where the
//! reference refuses by design, or the reference is wrong there.
//!
//! The rules below are read from the reference evaluator of onnx-weekly
//! [`REFERENCE`] (`onnx/reference/ops/op_pad.py`: crops first; overcrops an all-fill output
//! in constant mode and an error otherwise; reflect refuses a pad above the cropped length
//! − 1 and a padded axis shorter than 2 after its crops) and from Pad's spec. The root
//! test `conformance_table` (`the_onnx_classes_account_for_every_verdict_of_the_onnx_reference`)
//! checks them against that evaluator's committed report, case by case.

use padkit::{DType, PadMode};

use crate::case::{Case, Expected, Refusal};
use crate::reference::ErrClass;

/// The onnx release the classification was read from and is checked against (Pad is
/// still Pad-25 there, its spec text unchanged).
pub const REFERENCE: &str = "onnx-weekly 1.24.0.dev20261026";

/// What ONNX says about a case, and why where it is not [`Standing::Required`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Standing {
    /// ONNX requires the case's answer: its reference evaluator gives exactly this output
    /// or an error.
    Required,
    /// ONNX leaves the answer open (its spec calls it undefined, or defines nothing for
    /// the type); padkit requires the answer it gives, and the reference gives another.
    Open(&'static str),
    /// Beyond ONNX: its reference refuses by design, and padkit answers numpy's result.
    /// A clear refusal passes there too ([`credit_refusal`](crate::grade::credit_refusal)).
    Beyond(&'static str),
    /// ONNX's reference evaluator is wrong here: it refuses a valid model, or answers
    /// where the spec requires an error or another value.
    ReferenceWrong(&'static str),
    /// padkit's own Pad (domain `ai.padkit`), which ONNX does not have.
    PadkitDomain,
}

impl Standing {
    /// The standing of `case`.
    ///
    /// ```
    /// use padkit_conformance::{Size, Standing, cases};
    /// let all = cases(Size::Small);
    /// let of = |name: &str| all.iter().find(|c| c.name == name).unwrap().onnx;
    /// assert_eq!(of("test_padkit_opset25_constant_float_pad"), Standing::Required);
    /// assert!(matches!(of("test_padkit_opset25_reflect_float_wider_than_axis"), Standing::Beyond(_)));
    /// ```
    pub fn of(case: &Case) -> Standing {
        if !case.domain.is_empty() {
            return Standing::PadkitDomain;
        }
        match &case.expected {
            Expected::Error(Refusal::Signature(_)) => Standing::ReferenceWrong(UNCHECKED),
            Expected::Error(Refusal::Pad(ErrClass::DuplicateAxis)) => Standing::Open(REPEATED),
            Expected::Error(_) => Standing::Required,
            Expected::Output(_) if case.input.shape().is_empty() => {
                Standing::ReferenceWrong(SCALAR)
            }
            Expected::Output(_) => Standing::of_output(case),
        }
    }

    /// The standing of a case with an output, of rank 1 or more.
    fn of_output(case: &Case) -> Standing {
        if case.mode == PadMode::Constant && case.value.is_none() {
            match case.input.dtype() {
                DType::String => return Standing::ReferenceWrong(STRING_ZERO),
                DType::Float8E8M0 => return Standing::Open(NO_ZERO),
                _ => {}
            }
        }
        if case.mode != PadMode::Reflect {
            return Standing::Required;
        }
        let Ok(axes) = case.spec().resolve(case.input.shape().len()) else {
            return Standing::Required;
        };
        let mut unpadded_empty = false;
        for (axis, &len) in axes.iter().zip(case.input.shape()) {
            let crops =
                (axis.begin.min(0).unsigned_abs()).saturating_add(axis.end.min(0).unsigned_abs());
            let kept = (len as u64).saturating_sub(crops);
            let widest = axis.begin.max(axis.end).max(0).unsigned_abs();
            if widest == 0 {
                unpadded_empty |= kept == 0;
            } else if kept < 2 {
                return Standing::Beyond(SHORT_AXIS);
            } else if widest > kept - 1 {
                return Standing::Beyond(WIDER);
            }
        }
        if unpadded_empty {
            Standing::ReferenceWrong(EMPTY_UNPADDED)
        } else {
            Standing::Required
        }
    }

    /// The class's name: `required`, `open`, `beyond`, `reference-wrong` or
    /// `padkit-domain`, the value of the case's `onnx:` tag.
    ///
    /// ```
    /// assert_eq!(padkit_conformance::Standing::Required.name(), "required");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Standing::Required => "required",
            Standing::Open(_) => "open",
            Standing::Beyond(_) => "beyond",
            Standing::ReferenceWrong(_) => "reference-wrong",
            Standing::PadkitDomain => "padkit-domain",
        }
    }

    /// The case's tag: `onnx:` and [`Standing::name`].
    ///
    /// ```
    /// assert_eq!(padkit_conformance::Standing::PadkitDomain.tag(), "onnx:padkit-domain");
    /// ```
    pub fn tag(&self) -> String {
        format!("onnx:{}", self.name())
    }

    /// Why the case stands so, empty where ONNX requires its answer.
    ///
    /// ```
    /// use padkit_conformance::Standing;
    /// assert!(Standing::Required.why().is_empty());
    /// assert!(Standing::PadkitDomain.why().contains("ai.padkit"));
    /// ```
    pub fn why(&self) -> &'static str {
        match self {
            Standing::Required => "",
            Standing::Open(why) | Standing::Beyond(why) | Standing::ReferenceWrong(why) => why,
            Standing::PadkitDomain => PADKIT,
        }
    }
}

const UNCHECKED: &str = "the reference evaluator runs a model that breaks its Pad version's \
     signature (it does not check models); the spec's type and attribute constraints make \
     the model invalid";
const REPEATED: &str = "Pad's spec: \"Behavior is undefined if an axis is repeated\"; padkit \
     refuses, naming both entries (the reference pads the axis once, with the last entry's \
     pads)";
const SCALAR: &str = "the reference fails on a scalar input (numpy.pad gets an empty \
     pad_width and raises TypeError); Pad's spec puts no bound on the rank, and padkit returns \
     the scalar";
const STRING_ZERO: &str = "the reference fills a string tensor with the integer 0 where the \
     value is omitted; the spec: \"by default it is 0, empty string or False\"";
const NO_ZERO: &str = "float8e8m0 has no 0, so the spec's default value does not exist for it; \
     padkit fills with the all-zero byte (2^-127, onnx's saturating converter's cast of 0.0), \
     the reference with NaN";
const SHORT_AXIS: &str = "reflect of an axis shorter than 2 after its crops: the reference \
     refuses, padkit gives numpy.pad's answer (the element repeated)";
const WIDER: &str = "reflect wider than the axis (a pad above its length - 1 after crops): the \
     reference refuses, padkit gives numpy.pad's answer (reflected again)";
const EMPTY_UNPADDED: &str = "the reference refuses reflect where an axis it does not pad is \
     empty (its pad <= length - 1 check runs on every axis); numpy.pad and ONNX Runtime pad \
     the other axes";
const PADKIT: &str = "padkit's own Pad (domain ai.padkit: symmetric mode, interior padding), \
     which ONNX does not have";
