//! Forward pads on candle's CPU device, every dtype candle holds, every mode, both paths
//! (padkit's kernel and the composition of candle ops that other devices run), against
//! padkit-conformance's naive reference; strided and offset views; exact fills; errors of
//! the reference's class.

use candle_core::{CpuStorage, DType, Device, Storage, Tensor};
use padkit::{PadError, PadMode, PadSpec};
use padkit_candle::convert::from_candle;
use padkit_candle::route::pad_composed;
use padkit_candle::{Error, Fill, pad_with};
use padkit_conformance::reference::{ErrClass, class_of};
use padkit_testkit::cases::{TensorCase, named_cases, tensor_case};
use proptest::prelude::*;

/// Every dtype of candle 0.11, with the values and fill the suite uses: whole numbers
/// below 13, exact in all of them (as codes for the types candle stores as codes).
const DTYPES: [DType; 14] = [
    DType::U8,
    DType::U32,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::BF16,
    DType::F16,
    DType::F32,
    DType::F64,
    DType::F8E4M3,
    DType::F6E2M3,
    DType::F6E3M2,
    DType::F4,
    DType::F8E8M0,
];

/// Types candle stores one code per byte, without arithmetic.
fn is_code(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::F6E2M3 | DType::F6E3M2 | DType::F4 | DType::F8E8M0
    )
}

/// A tensor of `dtype` holding `values` (whole, below 13): made from `i64`s with candle's
/// own cast, or as codes.
fn tensor(dtype: DType, values: &[i64], shape: &[usize]) -> Tensor {
    if is_code(dtype) {
        let codes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
        return Tensor::from_raw_buffer(&codes, dtype, shape, &Device::Cpu).unwrap();
    }
    let t = Tensor::from_vec(values.to_vec(), shape, &Device::Cpu).unwrap();
    if dtype.is_float() {
        t.to_dtype(DType::F64).unwrap().to_dtype(dtype).unwrap()
    } else {
        t.to_dtype(dtype).unwrap()
    }
}

/// The elements' bytes, as candle stores them, in row-major order.
fn bytes(t: &Tensor) -> Vec<u8> {
    let t = t.contiguous().unwrap();
    if !is_code(t.dtype()) {
        return match from_candle(&t).unwrap().data() {
            padkit::Data::Bytes(b) => b.clone(),
            padkit::Data::Strings(_) => unreachable!("candle holds no strings"),
        };
    }
    let (storage, layout) = t.storage_and_layout();
    let (start, end) = layout.contiguous_offsets().unwrap();
    match &*storage {
        Storage::Cpu(
            CpuStorage::F6E2M3(v)
            | CpuStorage::F6E3M2(v)
            | CpuStorage::F4(v)
            | CpuStorage::F8E8M0(v),
        ) => v[start..end].to_vec(),
        _ => unreachable!("a code type on the CPU"),
    }
}

const FILL: i64 = 5;

fn values(c: &TensorCase) -> Vec<i64> {
    (0..c.shape.iter().product::<usize>() as i64)
        .map(|i| i % 13)
        .collect()
}

/// Compares a pad's result with the reference, as padkit tensors (dtype, shape, bytes).
fn compare(
    what: &str,
    got: Result<Tensor, Error>,
    want: &Result<(Vec<usize>, Vec<i64>), ErrClass>,
    dtype: DType,
) -> Result<(), TestCaseError> {
    match (got, want) {
        (Ok(g), Ok((shape, w))) => {
            prop_assert_eq!(g.dtype(), dtype, "{}", what);
            prop_assert_eq!(g.dims(), &shape[..], "{}", what);
            prop_assert_eq!(bytes(&g), bytes(&tensor(dtype, w, shape)), "{}", what);
        }
        (Err(Error::Pad(e)), Err(w)) => prop_assert_eq!(class_of(&e), Some(*w), "{}: {}", what, e),
        (g, w) => prop_assert!(
            false,
            "{}: got {:?}, want {:?}",
            what,
            g.map(|t| t.dims().to_vec()),
            w
        ),
    }
    Ok(())
}

fn check_case(c: &TensorCase) -> Result<(), TestCaseError> {
    let data = values(c);
    let want = c.reference().reference(&data, FILL, usize::MAX);
    for dtype in DTYPES {
        let x = tensor(dtype, &data, &c.shape);
        let what = |path| format!("{path} {dtype:?} {:?} {:?}", c.shape, c.spec);
        compare(&what("kernel"), pad_with(&x, &c.spec, FILL), &want, dtype)?;
        let composed = pad_composed(&x, &c.spec, Fill::Int(FILL));
        // candle's ops (cat, index_select, copies) do not take its code types: the
        // composed path may fail there, as candle's error
        if !(is_code(dtype) && matches!(composed, Err(Error::Candle(_)))) {
            compare(&what("composed"), composed, &want, dtype)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_dtype_matches_the_reference(c in tensor_case()) {
        check_case(&c)?;
    }

    /// Views whose storage is not the plain row-major data: a permutation (strided) and a
    /// narrowed tensor (offset), on both paths.
    #[test]
    fn strided_and_offset_views_match_the_reference(c in tensor_case()) {
        let [a, b, d] = c.shape;
        let data = values(&c);
        let want = c.reference().reference(&data, FILL, usize::MAX);
        // stored[k][i][j] = view[i][j][k], so view = stored.permute([1, 2, 0])
        let stored: Vec<i64> = (0..d)
            .flat_map(|k| (0..a).flat_map(move |i| (0..b).map(move |j| (i, j, k))))
            .map(|(i, j, k)| data[(i * b + j) * d + k])
            .collect();
        let padded: Vec<i64> = vec![12; b * d].into_iter().chain(data.iter().copied()).collect();
        for dtype in [DType::F32, DType::I64, DType::F16, DType::F4] {
            let permuted = tensor(dtype, &stored, &[d, a, b]).permute([1, 2, 0]).unwrap();
            let narrowed = tensor(dtype, &padded, &[a + 1, b, d]).narrow(0, 1, a).unwrap();
            for x in [permuted, narrowed] {
                compare("kernel view", pad_with(&x, &c.spec, FILL), &want, dtype)?;
                let composed = pad_composed(&x, &c.spec, Fill::Int(FILL));
                if !(is_code(dtype) && matches!(composed, Err(Error::Candle(_)))) {
                    compare("composed view", composed, &want, dtype)?;
                }
            }
        }
    }
}

#[test]
fn named_cases_match_the_reference() {
    for c in named_cases() {
        check_case(&c).unwrap();
    }
}

#[test]
fn fills_are_exact_in_their_dtype() {
    let x = Tensor::new(&[1i64, 2], &Device::Cpu).unwrap();
    let y = pad_with(&x, &PadSpec::new(vec![1, 1]), 16_777_217i64).unwrap();
    assert_eq!(y.to_vec1::<i64>().unwrap(), [16_777_217, 1, 2, 16_777_217]);
    let x = Tensor::new(&[1f64], &Device::Cpu).unwrap();
    let y = pad_with(&x, &PadSpec::new(vec![1, 0]), 0.1).unwrap();
    assert_eq!(y.to_vec1::<f64>().unwrap(), [0.1, 1.0]);
    // NaN, −0 and ∞ are kept bit for bit
    let x = Tensor::new(&[1f32], &Device::Cpu).unwrap();
    for fill in [f64::NAN, -0.0, f64::NEG_INFINITY] {
        let y = pad_with(&x, &PadSpec::new(vec![1, 0]), fill).unwrap();
        assert_eq!(
            y.to_vec1::<f32>().unwrap()[0].to_bits(),
            (fill as f32).to_bits()
        );
    }
}

#[test]
fn fills_that_do_not_fit_are_errors_naming_value_and_dtype() {
    let x = Tensor::new(&[1u8], &Device::Cpu).unwrap();
    let err = pad_with(&x, &PadSpec::new(vec![1, 0]), 300).unwrap_err();
    assert!(
        matches!(err, Error::Pad(PadError::ValueOutOfRange { .. })),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "constant value 300 does not fit element type u8"
    );
    let x = Tensor::new(&[1i64], &Device::Cpu).unwrap();
    assert!(pad_with(&x, &PadSpec::new(vec![1, 0]), 0.5).is_err());
    let x = Tensor::from_raw_buffer(&[1], DType::F4, &[1], &Device::Cpu).unwrap();
    assert!(pad_with(&x, &PadSpec::new(vec![1, 0]), 16).is_err());
}

#[test]
fn bad_pads_are_errors_naming_axis_and_numbers() {
    let x = Tensor::zeros((2, 3), DType::F32, &Device::Cpu).unwrap();
    let spec = PadSpec::new(vec![0, -4, 0, 0]).with_mode(PadMode::Reflect);
    let err = pad_with(&x, &spec, 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "axis 1: output extent would be -1 (extent 3, begin -4, end 0, interior 0)"
    );
    // into candle's error, for `?` in candle code, with the same text
    let candle: candle_core::Error = err.into();
    assert!(
        candle
            .to_string()
            .contains("axis 1: output extent would be -1"),
        "{candle}"
    );
    // an output too large to index is refused before anything is allocated
    let huge = PadSpec::new(vec![0, i64::MAX / 2, 0, 0]);
    assert!(matches!(pad_with(&x, &huge, 0), Err(Error::Pad(_))));
}

/// candle's safetensors loader stores f4 packed, two codes a byte: storage shorter than
/// one byte an element is an error, on the kernel and in `from_candle`, not a panic.
#[test]
fn packed_code_storage_is_an_error() {
    let x = Tensor::from_raw_buffer(&[0u8; 2], DType::F4, &[4], &Device::Cpu).unwrap();
    assert!(pad_with(&x, &PadSpec::new(vec![1, 0]), 0).is_err());
    let err = from_candle(&x).unwrap_err().to_string();
    assert!(err.contains("one byte an element"), "{err}");
}

/// A broadcast view (stride 0) is read through its layout, in every dtype.
#[test]
fn broadcast_views_match_the_reference() {
    let c = TensorCase {
        shape: [3, 2, 4],
        spec: PadSpec::new(vec![1, -1, 2, 0, 1, 3]).with_mode(PadMode::Reflect),
    };
    let row: Vec<i64> = (0..8).map(|i| i % 13).collect();
    let data: Vec<i64> = row.iter().copied().cycle().take(24).collect();
    let want = c.reference().reference(&data, FILL, usize::MAX);
    for dtype in DTYPES {
        let x = tensor(dtype, &row, &[1, 2, 4])
            .broadcast_as((3, 2, 4))
            .unwrap();
        compare(
            &format!("{dtype:?}"),
            pad_with(&x, &c.spec, FILL),
            &want,
            dtype,
        )
        .unwrap();
    }
}
