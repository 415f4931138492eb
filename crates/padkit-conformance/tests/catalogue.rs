//! The catalogue's own promises: unique names, every version, mode, type and feature
//! present, the small catalogue inside the full one, and expectations that agree with
//! the rules of Pad where they can be stated without the reference.

use std::collections::HashSet;

use padkit::onnx::{PAD_VERSIONS, check_type, modes_for};
use padkit::{DType, PadMode};
use padkit_conformance::{ErrClass, Expected, Refusal, Size, cases};

#[test]
fn names_are_unique_and_the_small_catalogue_is_inside_the_full_one() {
    let full = cases(Size::Full);
    let names: HashSet<&str> = full.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), full.len(), "case names repeat");
    assert!(full.len() > 3000, "{} cases", full.len());
    let small = cases(Size::Small);
    assert!(small.iter().all(|c| names.contains(c.name.as_str())));
    assert!(full.iter().all(|c| {
        c.name.starts_with("test_padkit_")
            && c.name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    }));
}

#[test]
fn every_version_mode_and_type_is_covered() {
    let full = cases(Size::Full);
    for opset in PAD_VERSIONS {
        for mode in modes_for(opset) {
            for &dtype in DType::ALL {
                if check_type(dtype, opset).is_ok() {
                    let found = full.iter().any(|c| {
                        c.opset == opset
                            && c.mode == mode
                            && c.input.dtype() == dtype
                            && matches!(c.expected, Expected::Output(_))
                    });
                    assert!(found, "opset {opset} {mode} {dtype}");
                }
            }
        }
    }
}

#[test]
fn expectations_follow_the_rules_stated_without_the_reference() {
    let full = cases(Size::Full);
    let class = |name: &str| {
        full.iter()
            .find(|c| c.name == name)
            .map(|c| c.expected.clone())
            .unwrap_or_else(|| panic!("no case {name}"))
    };
    let err = |c| Expected::Error(Refusal::Pad(c));
    assert_eq!(
        class("test_padkit_opset19_edge_float_axes_repeated"),
        err(ErrClass::DuplicateAxis)
    );
    assert_eq!(
        class("test_padkit_opset25_wrap_int64_axes_out_of_range"),
        err(ErrClass::AxisRange)
    );
    assert_eq!(
        class("test_padkit_opset11_reflect_float_over_crop"),
        err(ErrClass::NegativeOutput)
    );
    assert_eq!(
        class("test_padkit_opset2_edge_float_pads_int64_max"),
        err(ErrClass::Overflow)
    );
    assert_eq!(
        class("test_padkit_opset13_reflect_float_empty_axis_padded"),
        err(ErrClass::EmptyWindow)
    );
    assert!(matches!(
        class("test_padkit_opset18_wrap_float_mode_before_its_opset"),
        Expected::Error(Refusal::Signature(_))
    ));
    // Reflect 4 and 5 wide on an axis of 3: numpy's answer, from
    // np.pad([[.5, 1, 1.5], [2, 2.5, 3]], ((0, 1), (4, 5)), "reflect")[0].
    let Expected::Output(y) = class("test_padkit_opset19_reflect_float_wider_than_axis") else {
        panic!("reflect wider than the axis has an output");
    };
    assert_eq!(y.shape(), &[3, 12]);
    let row: Vec<f32> = y.to_vec::<f32>().unwrap()[..12].to_vec();
    assert_eq!(
        row,
        [0.5, 1.0, 1.5, 1.0, 0.5, 1.0, 1.5, 1.0, 0.5, 1.0, 1.5, 1.0]
    );
    // A crop to nothing is an empty output, in every mode.
    for mode in [PadMode::Constant, PadMode::Edge, PadMode::Wrap] {
        let Expected::Output(y) = class(&format!("test_padkit_opset19_{mode}_int8_crop_to_empty"))
        else {
            panic!("{mode}: a crop to nothing has an output");
        };
        assert_eq!(y.shape(), &[2, 0]);
    }
}

#[test]
fn special_fills_are_tagged_and_reach_the_output() {
    let full = cases(Size::Full);
    let nan = full
        .iter()
        .find(|c| c.name == "test_padkit_opset13_constant_bfloat16_value_nan")
        .expect("a NaN fill case");
    assert!(nan.has_tag("feature:value-nan"));
    let Expected::Output(y) = &nan.expected else {
        panic!("a fill has an output")
    };
    let v = y.to_vec::<padkit::half::bf16>().unwrap();
    // [2, 2] padded to [3, 3]: five new elements.
    assert_eq!(v.iter().filter(|x| x.is_nan()).count(), 5);
}
