//! Output shapes of Pad on tract's symbolic dimensions, and pads spread over every axis.

use padkit::{PadMode, PadSpec};
use tract_hir::internal::*;

use crate::SymDim;

/// The output shape for known (possibly symbolic) pads: padkit's rules when the pads are
/// numbers, `d + b + e` on symbols otherwise.
pub(crate) fn symbolic_output_shape(
    node: &str,
    shape: &[TDim],
    pads: &[TDim],
    axes: Option<&[i64]>,
    mode: PadMode,
) -> TractResult<TVec<TDim>> {
    let fail = |e: padkit::PadError| crate::node_error(node, e);
    let dims: Vec<SymDim> = shape.iter().cloned().map(SymDim).collect();
    if let Some(concrete) = pads
        .iter()
        .map(|p| p.to_i64().ok())
        .collect::<Option<Vec<i64>>>()
    {
        let spec = PadSpec::new(concrete)
            .with_axes(axes.map(<[i64]>::to_vec))
            .with_mode(mode);
        let out = padkit::output_shape(&dims, &spec).map_err(fail)?;
        return Ok(out.into_iter().map(|d| d.0).collect());
    }
    // Symbolic pads: check lengths and axes through the core, then add.
    let spec = PadSpec::new(vec![0; pads.len()])
        .with_axes(axes.map(<[i64]>::to_vec))
        .with_mode(mode);
    spec.resolve(shape.len()).map_err(fail)?;
    let listed = match axes {
        Some(a) => padkit::spec::normalize_axes(a, shape.len()).map_err(fail)?,
        None => (0..shape.len()).collect(),
    };
    let mut out: TVec<TDim> = shape.into();
    for (i, &axis) in listed.iter().enumerate() {
        out[axis] = out[axis].clone() + pads[i].clone() + pads[listed.len() + i].clone();
    }
    Ok(out)
}

/// Pads over `axes` (ONNX order, `[b.., e..]`) spread over every axis of a tensor of rank
/// `rank`, zero where an axis is not listed; `symbolic_output_shape` checked them.
pub(crate) fn full_rank(
    rank: usize,
    pads: &[TDim],
    axes: Option<&[i64]>,
) -> TractResult<Vec<TDim>> {
    let listed = match axes {
        Some(a) => padkit::spec::normalize_axes(a, rank)?,
        None => (0..rank).collect(),
    };
    let mut full = vec![TDim::Val(0); 2 * rank];
    for (i, &axis) in listed.iter().enumerate() {
        full[axis] = pads[i].clone();
        full[rank + axis] = pads[listed.len() + i].clone();
    }
    Ok(full)
}
