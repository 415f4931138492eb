//! Pads of strings that padkit-lower would have to read by a `Gather` along an axis other
//! than the last (before opset 10, where its slices are `Gather`s; borders of an extent
//! known only at run time) are refused: ONNX Runtime 1.32 gathers strings wrong there (one
//! string per block). Along the last axis, and from opset 10 with known extents, they are
//! lowered.

use padkit::Tensor;
use padkit_lower::{LowerError, lower};
use padkit_onnx_tools::model::{Feed, PadModel};

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

#[test]
fn strings_read_by_a_gather_along_a_leading_axis_are_refused() {
    // (opset, shape, pads, first extent known only at run time, refused)
    let cases = [
        // before opset 10 a slice is a Gather: along the last axis only
        (9, [3, 2], [1, 0, 1, 0], false, true),
        (9, [3, 2], [0, 1, 0, 1], false, false),
        (13, [3, 2], [1, 0, 1, 0], false, false),
        // the borders of a run-time extent are Gathers at any opset
        (13, [3, 2], [1, 0, 1, 0], true, true),
        (13, [2, 3], [0, 1, 0, 1], true, false),
    ];
    for (opset, shape, pads, symbolic, refused) in cases {
        let model = reflect(opset, strings(&shape), pads.to_vec(), symbolic);
        let lowered = lower(&model.proto());
        let not_lowered = matches!(lowered, Err(LowerError::NotLowered { .. }));
        assert_eq!(
            not_lowered, refused,
            "opset {opset}, {shape:?}, {pads:?}: {lowered:?}"
        );
        assert!(refused || lowered.is_ok());
    }
}
