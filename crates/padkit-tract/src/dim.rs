//! tract's symbolic dimension as a padkit [`Dim`], so the core's shape rules run on it.

use std::fmt;

use padkit::shape::Dim;
use tract_hir::internal::TDim;

/// A tract `TDim` seen by padkit's shape inference.
///
/// ```
/// use padkit::{output_shape, PadSpec};
/// use padkit_tract::SymDim;
/// use tract_hir::internal::*;
/// let n = TDim::from(SymbolScope::default().sym("N"));
/// let out = output_shape(&[SymDim(n.clone())], &PadSpec::new(vec![1, 1])).unwrap();
/// assert_eq!(out[0].0, n + 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymDim(pub TDim);

impl fmt::Display for SymDim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Dim for SymDim {
    fn to_i64(&self) -> Option<i64> {
        self.0.to_i64().ok()
    }
    fn from_i64(value: i64) -> Option<Self> {
        Some(SymDim(TDim::from(value)))
    }
    fn add_i64(&self, k: i64) -> Option<Self> {
        Some(SymDim(self.0.clone() + k))
    }
    fn mul_i64(&self, k: i64) -> Option<Self> {
        Some(SymDim(self.0.clone() * k))
    }
}
