//! Pads of strings that padkit-lower would have to read by a `Gather` along an axis other
//! than the last (before opset 10, where its slices are `Gather`s; borders of an extent
//! known only at run time) are refused: ONNX Runtime 1.32 gathers strings wrong there (one
//! string per block). Along the last axis, and from opset 10 with known extents, they are
//! lowered.

use padkit::Tensor;
use padkit_lower::{LowerError, lower};
use padkit_onnx::model::{Feed, PadModel};

fn strings(shape: &[usize]) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_strings(shape, (0..n).map(|k| format!("s{k}")).collect()).unwrap()
}

/// padkit's own Pad (which takes strings, and its pads as an input, at any opset) with
/// the default domain at `opset`, reflect mode.
fn reflect(opset: i64, data: Tensor, pads: Vec<i64>, symbolic: bool) -> PadModel {
    let mut model = PadModel::new(opset, "reflect", data, pads, Feed::Initializer);
    model.domain = padkit::onnx::PADKIT_DOMAIN.into();
    if symbolic {
        model.symbolic_dims[0] = Some("N".into());
    }
    model
}

fn refused(model: &PadModel) -> bool {
    matches!(lower(&model.proto()), Err(LowerError::NotLowered { .. }))
}

#[test]
fn strings_along_a_leading_axis_before_opset_10_are_refused() {
    let model = reflect(9, strings(&[3, 2]), vec![1, 0, 1, 0], false);
    assert!(refused(&model));
    let last = reflect(9, strings(&[3, 2]), vec![0, 1, 0, 1], false);
    assert!(lower(&last.proto()).is_ok());
    let later = reflect(13, strings(&[3, 2]), vec![1, 0, 1, 0], false);
    assert!(lower(&later.proto()).is_ok());
}

#[test]
fn string_borders_of_a_run_time_extent_on_a_leading_axis_are_refused() {
    let model = reflect(13, strings(&[3, 2]), vec![1, 0, 1, 0], true);
    assert!(refused(&model));
    let last = reflect(13, strings(&[2, 3]), vec![0, 1, 0, 1], true);
    assert!(lower(&last.proto()).is_ok());
}
