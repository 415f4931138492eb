//! # padkit-conformance: grade any Pad against padkit's cases
//!
//! A catalogue of ONNX Pad cases ([`cases`]): every Pad version (opsets 1 to 25) × mode ×
//! element type × feature (crops, crops to nothing, pads wider than the axis, size-1
//! and empty axes, scalars, axes subsets with negative and repeated entries, operands
//! fed at run time or by `Constant` nodes, special fill values such as NaN, -0.0 and
//! the integer limits, pads at the `i64` limits, models that break their version's
//! signature), and padkit's own Pad (domain `ai.padkit`: symmetric mode with every
//! feature, interior padding). Each case carries tags and what a conforming engine gives: the output,
//! computed by a naive [`reference`](mod@reference) Pad written from the rules alone, or the class
//! of error it must raise.
//!
//! Run your own pad on the cases, [`grade()`] its answers, and read the [`Report`] as a
//! feature × engine matrix (Markdown), JSON or JUnit XML. What your engine does not
//! support, it declares with [`Answer::Unsupported`]: those cases read "refused", not
//! "wrong". The cases tagged `onnx-signature` are ONNX models that break their Pad
//! version's signature (a mode or type before its opset, a value of another type): an
//! engine that takes a pad rather than a model skips them.
//!
//! ```
//! use padkit::{PadMode, Tensor};
//! use padkit_conformance::{Answer, Case, Report, Size, cases};
//!
//! // A framework whose pad handles constant mode on f32 only, with non-negative pads.
//! fn my_pad(case: &Case) -> Answer {
//!     if case.mode != PadMode::Constant || case.input.dtype() != padkit::DType::Float32 {
//!         return Answer::Unsupported("constant mode on float only".into());
//!     }
//!     if case.pads.iter().any(|&p| p < 0) || case.axes.is_some() {
//!         return Answer::Unsupported("no crops, no axes".into());
//!     }
//!     // … call the framework here; padkit stands in for it (with an output limit:
//!     // some cases ask for terabytes, and must fail).
//!     let spec = case.spec().with_max_output_bytes(1 << 30);
//!     match padkit::pad_tensor(&case.input, &spec, Some(&case.fill)) {
//!         Ok(y) => Answer::Output(y),
//!         Err(e) => Answer::Error(e.to_string()),
//!     }
//! }
//!
//! let mut report = Report::new(&[]);
//! let cases: Vec<Case> = cases(Size::Small)
//!     .into_iter()
//!     .filter(|c| !c.has_tag("onnx-signature"))
//!     .collect();
//! report.run(&cases, "mine", my_pad);
//! let all = report.cell(None, "mine");
//! assert_eq!((all.wrong, all.crash), (0, 0));
//! assert!(all.pass > 0 && all.refused > 0);
//! println!("{}", report.markdown(&["feature", "mode"], 3));
//! ```
//!
//! The `padkit` CLI writes the catalogue in the ONNX backend-test layout (`padkit suite
//! export DIR`) for engines that read ONNX files, and runs such directories through
//! tract, Burn and padkit (`padkit conformance --report md`).

pub mod case;
pub mod catalogue;
pub mod compare;
pub mod grade;
pub mod manifest;
pub mod reference;
pub mod report;
pub mod standing;
mod values;

pub use case::{Case, Expected, Feed, Feeds, Refusal};
pub use catalogue::{Size, cases};
pub use grade::{Answer, Verdict, credit_error, credit_refusal, grade, run_case};
pub use manifest::{Entry, ExpectedEntry, Manifest};
pub use reference::{ErrClass, class_of};
pub use report::Report;
pub use standing::Standing;
