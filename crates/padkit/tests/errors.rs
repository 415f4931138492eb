//! Each rule's error names the axis and the numbers; nothing panics or over-allocates.

use padkit::{DType, Data, PadError, PadMode, PadSpec, Tensor, output_shape, pad, pad_tensor};

fn message(shape: &[usize], spec: PadSpec) -> String {
    let n = shape.iter().product();
    pad(&vec![0u8; n], shape, &spec, 0).unwrap_err().to_string()
}

#[test]
fn pads_length() {
    assert_eq!(
        message(&[2, 2], PadSpec::new(vec![1, 1, 1])),
        "pads has 3 values but 2 axes are padded, so it needs 2 × 2 = 4"
    );
}

#[test]
fn axis_out_of_range() {
    assert_eq!(
        message(&[2, 2], PadSpec::new(vec![1, 1]).with_axes(vec![-3])),
        "axes: axis -3 is out of range for a tensor of rank 2 (allowed -2..=1)"
    );
}

#[test]
fn repeated_axis() {
    assert_eq!(
        message(
            &[2, 2],
            PadSpec::new(vec![1, 1, 1, 1]).with_axes(vec![1, -1])
        ),
        "axes: axis -1 names axis 1, which is already listed"
    );
}

#[test]
fn negative_output() {
    assert_eq!(
        message(&[2, 3], PadSpec::new(vec![0, -2, 0, -2])),
        "axis 1: output extent would be -1 (extent 3, begin -2, end -2, interior 0)"
    );
}

#[test]
fn crop_larger_than_the_axis_in_index_modes() {
    let spec = PadSpec::new(vec![-4, 2]).with_mode(PadMode::Edge);
    assert_eq!(
        message(&[3], spec),
        "axis 0: mode edge crops 4 of 3 elements (begin -4, end 2), leaving -1"
    );
}

#[test]
fn padding_an_emptied_axis() {
    let spec = PadSpec::new(vec![0, -2, 0, 1]).with_mode(PadMode::Wrap);
    assert_eq!(
        message(&[1, 2], spec),
        "axis 1: mode wrap cannot pad (begin -2, end 1) an axis with no element left (extent 0 after crops)"
    );
}

#[test]
fn interior_outside_constant_mode() {
    let spec = PadSpec::new(vec![0, 0])
        .with_axes(vec![1])
        .with_interior(vec![2])
        .with_mode(PadMode::Reflect);
    assert_eq!(
        message(&[2, 2], spec),
        "axis 1: interior padding 2 needs mode constant, not reflect"
    );
}

#[test]
fn negative_interior() {
    let spec = PadSpec::new(vec![0, 0]).with_interior(vec![-1]);
    assert_eq!(
        message(&[2], spec),
        "axis 0: interior padding -1 is negative"
    );
}

#[test]
fn overflowing_pads_are_refused_before_allocating() {
    let err = pad(&[1u8], &[1], &PadSpec::new(vec![i64::MAX, i64::MAX]), 0).unwrap_err();
    assert!(
        matches!(
            err,
            PadError::Overflow { axis: 0, .. } | PadError::TooLarge { .. }
        ),
        "{err}"
    );
    let err = pad(&[1u64], &[1], &PadSpec::new(vec![1 << 62, 0]), 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "output of shape [4611686018427387905] would take 36893488147419103240 bytes, above the limit of 9223372036854775807 bytes"
    );
}

#[test]
fn caller_limit() {
    let spec = PadSpec::new(vec![10, 10]).with_max_output_bytes(16);
    assert_eq!(
        message(&[1], spec),
        "output of shape [21] would take 21 bytes, above the limit of 16 bytes"
    );
}

#[test]
fn huge_shape_product_is_refused() {
    let shape = [1usize << 40, 1 << 40, 0];
    let spec = PadSpec::new(vec![0, 0, 0, 0, 0, 1]);
    let err = output_shape(&shape, &spec).unwrap();
    assert_eq!(err, vec![1 << 40, 1 << 40, 1]);
    assert!(matches!(
        pad::<u8>(&[], &shape, &spec, 0),
        Err(PadError::TooLarge { .. })
    ));
}

#[test]
fn data_length_mismatch() {
    let err = pad(&[1u8, 2], &[3], &PadSpec::new(vec![0, 0]), 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "input data holds 2 elements but shape [3] needs 3"
    );
}

#[test]
fn value_type_and_arity() {
    let x = Tensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    let err = pad_tensor(&x, &PadSpec::new(vec![1, 1]), Some(&Tensor::scalar(1i32))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "constant value has type int32 but the data has type float"
    );
    let two = Tensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    let err = pad_tensor(&x, &PadSpec::new(vec![1, 1]), Some(&two)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "constant value must hold one element, it holds 2"
    );
}

#[test]
fn tensor_storage_mismatch() {
    let err = Tensor::new(DType::String, vec![1], Data::Bytes(vec![0])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tensor data of type string must be strings"
    );
    let err = Tensor::new(DType::Float32, vec![2], Data::Bytes(vec![0; 7])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tensor data holds 7 elements but shape [2] needs 8"
    );
}

#[test]
fn unknown_mode_and_dtype() {
    assert_eq!(
        "circular".parse::<PadMode>().unwrap_err().to_string(),
        "unknown pad mode \"circular\" (expected constant, reflect, edge, wrap or symmetric)"
    );
    assert_eq!(
        DType::from_onnx(0).unwrap_err().to_string(),
        "unknown ONNX element type code 0"
    );
}
