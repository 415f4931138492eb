//! The checks every pad starts with, on both paths (native and composed).

use padkit::{PadError, PadSpec, Plan};

use crate::Fill;
use crate::fill;

/// Checks `spec` and `fill` against a tensor of `dims` and `dtype`, and that its output
/// can be allocated and be a backend tensor (the backends allocate infallibly and compute
/// strides unchecked); returns the plan.
pub(crate) fn check(
    dims: &[usize],
    dtype: burn::tensor::DType,
    spec: &PadSpec,
    fill: Fill,
) -> Result<Plan, PadError> {
    let width = fill::width(dtype)?;
    let plan = Plan::new(dims, spec, width)?;
    fill::bytes(fill, dtype)?;
    padkit::memory::check_allocatable(plan.output_len() * width)?;
    padkit::memory::check_strides(plan.output_shape())?;
    Ok(plan)
}
