//! # padkit-testkit: what padkit's tests check against
//!
//! - [`reference`](mod@reference): the naive Pad of [`padkit_conformance`], written from the
//!   rules alone (one source index per output element, straight from each mode's
//!   formula, in `i128`), independent of the kernels;
//! - [`check`]: every public run path of the core against that reference, on outputs that
//!   start as a sentinel pattern, so an element the kernel forgets to write shows;
//! - [`fuzz`]: the core fuzz target's body, which `cargo fuzz` and the corpus replay test
//!   both call (the ONNX targets' bodies live beside the engines, in padkit-engines' `fuzz` module).
//!
//! - [`lowered`](mod@lowered) (feature `lower`): a Pad lowered by padkit-lower and run by
//!   stock tract-onnx against that reference, the property of padkit-lower's random tests
//!   and of the `lower_verdict` fuzz target.
//!
//! Without `lower` it needs only padkit and padkit-conformance, so the core's test build
//! compiles no framework.
//!
//! ```
//! use padkit::PadMode;
//! use padkit_testkit::Case;
//! let case = Case::new(vec![3], vec![2, 1], PadMode::Reflect);
//! let (shape, out) = case.reference(&[1, 2, 3], 0, usize::MAX).unwrap();
//! assert_eq!((shape, out), (vec![6], vec![3, 2, 1, 2, 3, 2]));
//! ```

pub mod cases;
pub mod check;
pub mod fuzz;
#[cfg(feature = "lower")]
pub mod lowered;

pub use check::check_core;
pub use padkit_conformance::reference::{self, Case, ErrClass, class_of};
