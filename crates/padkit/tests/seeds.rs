//! Every example of the seed documents padkit was written from (ONNX's Pad for each
//! opset, nGraph's Pad), with the output they give, plus the examples the core's
//! specification states.

use padkit::{PadMode, PadSpec, pad};

const DATA: [f32; 6] = [1.0, 1.2, 2.3, 3.4, 4.5, 5.7];

fn onnx_example(pads: Vec<i64>, mode: PadMode) -> (Vec<usize>, Vec<f32>) {
    pad(&DATA, &[3, 2], &PadSpec::new(pads).with_mode(mode), 0.0).unwrap()
}

#[test]
fn onnx_example_1_constant() {
    let (shape, out) = onnx_example(vec![0, 2, 0, 0], PadMode::Constant);
    assert_eq!(shape, vec![3, 4]);
    #[rustfmt::skip]
    assert_eq!(out, vec![
        0.0, 0.0, 1.0, 1.2,
        0.0, 0.0, 2.3, 3.4,
        0.0, 0.0, 4.5, 5.7,
    ]);
}

#[test]
fn onnx_example_2_reflect_wider_than_the_axis() {
    let (shape, out) = onnx_example(vec![0, 2, 0, 0], PadMode::Reflect);
    assert_eq!(shape, vec![3, 4]);
    #[rustfmt::skip]
    assert_eq!(out, vec![
        1.0, 1.2, 1.0, 1.2,
        2.3, 3.4, 2.3, 3.4,
        4.5, 5.7, 4.5, 5.7,
    ]);
}

#[test]
fn onnx_example_3_edge() {
    let (shape, out) = onnx_example(vec![0, 2, 0, 0], PadMode::Edge);
    assert_eq!(shape, vec![3, 4]);
    #[rustfmt::skip]
    assert_eq!(out, vec![
        1.0, 1.0, 1.0, 1.2,
        2.3, 2.3, 2.3, 3.4,
        4.5, 4.5, 4.5, 5.7,
    ]);
}

#[test]
fn onnx_example_4_wrap() {
    let (shape, out) = onnx_example(vec![2, 1, 1, 1], PadMode::Wrap);
    assert_eq!(shape, vec![6, 4]);
    #[rustfmt::skip]
    assert_eq!(out, vec![
        3.4, 2.3, 3.4, 2.3,
        5.7, 4.5, 5.7, 4.5,
        1.2, 1.0, 1.2, 1.0,
        3.4, 2.3, 3.4, 2.3,
        5.7, 4.5, 5.7, 4.5,
        1.2, 1.0, 1.2, 1.0,
    ]);
}

#[test]
fn ngraph_interior_example() {
    let spec = PadSpec::new(vec![1, 2, 1, 0]).with_interior(vec![1, 2]);
    let (shape, out) = pad(&[1, 2, 3, 4, 5, 6, 7, 8, 9], &[3, 3], &spec, 42).unwrap();
    assert_eq!(shape, vec![7, 9]);
    #[rustfmt::skip]
    assert_eq!(out, vec![
        42, 42, 42, 42, 42, 42, 42, 42, 42,
        42, 42,  1, 42, 42,  2, 42, 42,  3,
        42, 42, 42, 42, 42, 42, 42, 42, 42,
        42, 42,  4, 42, 42,  5, 42, 42,  6,
        42, 42, 42, 42, 42, 42, 42, 42, 42,
        42, 42,  7, 42, 42,  8, 42, 42,  9,
        42, 42, 42, 42, 42, 42, 42, 42, 42,
    ]);
}

#[test]
fn constant_crop_past_the_axis_is_padded_back() {
    let (shape, out) = pad(&[1, 2, 3], &[3], &PadSpec::new(vec![-4, 2]), 9).unwrap();
    assert_eq!((shape, out), (vec![1], vec![9]));
}

#[test]
fn wrap_crops_first() {
    let spec = PadSpec::new(vec![1, -1]).with_mode(PadMode::Wrap);
    assert_eq!(
        pad(&[1, 2, 3, 4], &[4], &spec, 0).unwrap().1,
        vec![3, 1, 2, 3]
    );
}

#[test]
fn rank_zero_with_empty_pads_returns_the_input() {
    assert_eq!(
        pad(&[5u8], &[], &PadSpec::new(vec![]), 0).unwrap(),
        (vec![], vec![5])
    );
}

#[test]
fn empty_axis_unpadded_in_index_modes_is_fine() {
    let spec = PadSpec::new(vec![0, 1, 0, 1]).with_mode(PadMode::Reflect);
    assert_eq!(
        pad::<u8>(&[], &[0, 2], &spec, 0).unwrap(),
        (vec![0, 4], vec![])
    );
}
