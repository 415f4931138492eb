//! # padkit: the complete Pad operator
//!
//! Every ONNX version of Pad (opsets 1–25) and nGraph's: modes constant, reflect, edge,
//! wrap and symmetric; negative pads (crop); interior padding; axes subsets; every ONNX
//! element type; symbolic shape inference; and the adjoint for autodiff. Framework
//! adapters (`padkit-tract`, `padkit-burn`) are thin layers over this crate.
//!
//! Semantics, per axis of extent `d` with begin `b`, end `e` (either may be negative):
//! - constant: `out[i] = in[i - b]` where `0 <= i - b < d`, else the fill value;
//! - edge, reflect, wrap, symmetric: crop first to the window `k = d - max(0,-b) - max(0,-e)`,
//!   then pad with numpy's index maps (pads wider than the axis follow numpy);
//! - interior `r` (constant mode): `r` fill values between adjacent elements, before the
//!   edge pads apply.
//!
//! ```
//! use padkit::{pad, PadSpec, PadMode};
//! let spec = PadSpec::new(vec![2, 1, 1, 1]).with_mode(PadMode::Wrap);
//! let data = [1.0, 1.2, 2.3, 3.4, 4.5, 5.7];
//! let (shape, out) = pad(&data, &[3, 2], &spec, 0.0).unwrap();
//! assert_eq!(shape, vec![6, 4]);
//! assert_eq!(&out[..4], &[3.4, 2.3, 3.4, 2.3]);
//! ```

pub mod adjoint;
pub mod axis_map;
mod block_copy;
mod bytes;
pub mod dtype;
mod error;
pub mod fill;
mod kernel;
pub mod memory;
mod mode;
pub mod onnx;
mod packed;
pub mod pairs;
mod plan;
mod row;
pub mod run;
mod schedule;
pub mod shape;
mod shuffle_rows;
pub mod spec;
mod tensor;

pub use adjoint::pad_adjoint;
pub use dtype::{DType, Element};
pub use error::{PadError, Result};
pub use mode::PadMode;
pub use plan::Plan;
pub use run::{pad, pad_into};
pub use shape::output_shape;
pub use spec::PadSpec;
pub use tensor::{Data, Tensor, pad_tensor};

// What the crate's own modules name from the root.
pub(crate) use dtype::Layout;
pub(crate) use run::{pad_bytes, pad_cloned};
pub(crate) use shape::axis_output;
pub(crate) use spec::AxisPad;

// Crates whose types appear in the public API.
pub use bytemuck;
pub use half;
pub use num_complex;

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
