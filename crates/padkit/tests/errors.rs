//! Each rule's error names the axis and the numbers; nothing panics or over-allocates.

use padkit::{
    DType, Data, PadError, PadMode, PadSpec, Plan, Tensor, output_shape, pad, pad_tensor,
};

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
        "output of shape [4611686018427387905] would take 36893488147419103240 bytes \
         (34359738368.0 GiB), above the limit of 9223372036854775807 bytes (8589934592.0 GiB)"
    );
}

/// Crops at the ends of `i64`: 3 + i64::MIN + i64::MAX = 2 elements, but the crop
/// reaches far past the axis, which only constant mode allows (its output is all fill).
#[test]
fn crops_at_the_ends_of_i64_are_refused_in_index_modes() {
    for mode in [
        PadMode::Edge,
        PadMode::Reflect,
        PadMode::Wrap,
        PadMode::Symmetric,
    ] {
        for pads in [vec![i64::MIN, i64::MAX], vec![i64::MAX, i64::MIN]] {
            let err = pad(
                &[1.0f32, 2.0, 3.0],
                &[3],
                &PadSpec::new(pads).with_mode(mode),
                0.0,
            )
            .unwrap_err();
            assert!(
                matches!(err, PadError::CropTooLarge { axis: 0, .. }),
                "{mode}: {err}"
            );
        }
    }
    let spec = PadSpec::new(vec![i64::MIN, i64::MAX]);
    assert_eq!(
        pad(&[1.0f32, 2.0, 3.0], &[3], &spec, 9.0).unwrap().1,
        vec![9.0, 9.0]
    );
    let message = pad(&[1u8; 3], &[3], &spec.with_mode(PadMode::Edge), 0)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "axis 0: mode edge crops 9223372036854775807 of 3 elements (begin -9223372036854775808, \
         end 9223372036854775807), leaving -9223372036854775805"
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

/// An empty output needs no memory, whatever its other extents.
#[test]
fn empty_outputs_with_huge_extents() {
    let huge = 1 << 61;
    let spec = PadSpec::new(vec![huge, huge, 0, huge, huge, 0]);
    let plan = Plan::new(&[0, 0, 0], &spec, 4).unwrap();
    assert_eq!(plan.output_shape(), &[1 << 62, 1 << 62, 0]);
    assert_eq!((plan.input_len(), plan.output_len()), (0, 0));
    assert_eq!(plan.run_to_vec::<f32>(&[], &0.0).unwrap(), vec![]);
}

#[test]
fn input_extents_that_overflow_are_refused() {
    let shape = [1usize << 40, 1 << 40, 0];
    let spec = PadSpec::new(vec![0, 0, 0, 0, 0, 1]);
    assert_eq!(
        output_shape(&shape, &spec).unwrap(),
        vec![1 << 40, 1 << 40, 1]
    );
    let err = pad::<u8>(&[], &shape, &spec, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "input of shape [1099511627776, 1099511627776, 0] has more elements than memory can address"
    );
}

/// Periodic borders far wider than their axis plan in a few runs and run in doubling
/// copies: numpy's answer, without a run per period.
#[test]
fn huge_reflect_borders_plan_quickly() {
    let spec = PadSpec::new(vec![1 << 40, 1 << 40]).with_mode(PadMode::Reflect);
    assert!(Plan::new(&[2], &spec, 1).is_ok());
    let spec = PadSpec::new(vec![5_000_000, 3]).with_mode(PadMode::Reflect);
    let (_, out) = pad(&[1u8, 2], &[2], &spec, 0).unwrap();
    assert_eq!(out.len(), 5_000_005);
    assert!(
        out.iter()
            .enumerate()
            .all(|(i, &v)| v == if i % 2 == 0 { 1 } else { 2 })
    );
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
        "tensor data holds 7 bytes but shape [2] needs 8 bytes"
    );
    let err = Tensor::new(DType::Bool, vec![3], Data::Bytes(vec![1, 0, 7])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bool element 2 is stored as byte 7; bool bytes must be 0 or 1"
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
