//! Forward pads on Flex and NdArray (and wgpu with the `wgpu` feature), every kind, native
//! and composed paths, against the core's naive reference (shared with padkit's tests, not
//! copied).
mod support;

use burn::tensor::{Bool, DType, Device, Int, Tensor, TensorData};
use padkit::{PadMode, PadSpec};
use padkit_burn::route::pad_composed;
use padkit_burn::{Fill, pad_with};
use padkit_conformance::reference::{ErrClass, class_of};
use proptest::prelude::*;
use support::{Case, TestDevice, case};

fn want<T: Clone>(c: &Case, data: &[T], fill: T) -> Result<(Vec<usize>, Vec<T>), ErrClass> {
    c.reference().reference(data, fill, usize::MAX)
}

/// Compares one result with the reference; `on` names the device.
fn compare<T: PartialEq + std::fmt::Debug>(
    on: &str,
    got: Result<(Vec<usize>, Vec<T>), padkit::PadError>,
    want: Result<(Vec<usize>, Vec<T>), ErrClass>,
) -> Result<(), TestCaseError> {
    match (got, want) {
        (Ok(g), Ok(w)) => prop_assert_eq!(g, w, "on {}", on),
        (Err(g), Err(w)) => prop_assert_eq!(class_of(&g), Some(w), "on {}: {}", on, g),
        (g, w) => prop_assert!(
            false,
            "on {}: got {:?}, want {:?}",
            on,
            g.map(|x| x.0),
            w.map(|x| x.0)
        ),
    }
    Ok(())
}

/// A fill every float type holds exactly.
const FILL: f64 = 0.375;

/// A float tensor of `d`'s float type.
fn float(d: &TestDevice, data: Vec<f64>, shape: [usize; 3]) -> Tensor<3> {
    Tensor::<3>::from_data(TensorData::new(data, shape), (&d.device, d.float))
}

/// Shape and values, in f64 whatever the float type (the data are exact in f32).
fn read_float(t: Tensor<3>) -> (Vec<usize>, Vec<f64>) {
    let dims = t.dims().to_vec();
    (dims, t.into_data().try_into_vec_as::<f64>().unwrap())
}

fn n(c: &Case) -> usize {
    c.shape.iter().product()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn float_matches_reference(c in case()) {
        let data: Vec<f64> = (0..n(&c)).map(|i| i as f64 + 0.25).collect();
        let w = want(&c, &data, FILL);
        for d in support::devices() {
            let x = || float(&d, data.clone(), c.shape);
            compare(d.name, pad_with(x(), &c.spec, FILL).map(read_float), w.clone())?;
            compare(d.name, pad_composed(x(), &c.spec, Fill::Float(FILL)).map(read_float), w.clone())?;
        }
    }

    /// Views whose buffer is not the plain row-major data: a permutation (strided) and a
    /// narrowed tensor (offset), on both backends and both paths.
    #[test]
    fn strided_and_offset_views_match_reference(c in case()) {
        let [a, b, d] = c.shape;
        let data: Vec<f64> = (0..n(&c)).map(|i| i as f64 - 3.5).collect();
        let w = want(&c, &data, FILL);
        // stored[k][i][j] = view[i][j][k], so view = stored.permute([1, 2, 0])
        let stored: Vec<f64> = (0..d)
            .flat_map(|k| (0..a).flat_map(move |i| (0..b).map(move |j| (i, j, k))))
            .map(|(i, j, k)| data[(i * b + j) * d + k])
            .collect();
        // one extra leading slab, narrowed away
        let padded: Vec<f64> = vec![99.0; b * d].into_iter().chain(data.iter().copied()).collect();
        for dev in support::devices() {
            let permuted = float(&dev, stored.clone(), [d, a, b]).permute([1, 2, 0]);
            let mut views = vec![permuted];
            if a > 0 {
                // Burn cannot narrow to length 0: the permutation covers empty views
                views.push(float(&dev, padded.clone(), [a + 1, b, d]).narrow(0, 1, a));
            }
            for x in views {
                compare(dev.name, pad_with(x.clone(), &c.spec, FILL).map(read_float), w.clone())?;
                compare(dev.name, pad_composed(x, &c.spec, Fill::Float(FILL)).map(read_float), w.clone())?;
            }
        }
    }

    #[test]
    fn int_matches_reference(c in case()) {
        let data: Vec<i64> = (0..n(&c) as i64).map(|i| i - 7).collect();
        // 2^24 + 1: no float holds it, so a fill that goes through f32 shows
        let w = want(&c, &data, 16_777_217);
        for d in support::devices() {
            let x = || Tensor::<3, Int>::from_data(TensorData::new(data.clone(), c.shape), (&d.device, d.int));
            let read = |t: Tensor<3, Int>| (t.dims().to_vec(), t.into_data().try_into_vec_as::<i64>().unwrap());
            compare(d.name, pad_with(x(), &c.spec, 16_777_217i64).map(read), w.clone())?;
            compare(d.name, pad_composed(x(), &c.spec, Fill::Int(16_777_217)).map(read), w.clone())?;
        }
    }

    #[test]
    fn bool_matches_reference(c in case()) {
        let data: Vec<bool> = (0..n(&c)).map(|i| i % 3 == 1).collect();
        let w = want(&c, &data, true);
        for d in support::devices() {
            let x = || Tensor::<3, Bool>::from_data(TensorData::new(data.clone(), c.shape), &d.device);
            let read = |t: Tensor<3, Bool>| (t.dims().to_vec(), t.into_data().try_into_vec_as::<bool>().unwrap());
            compare(d.name, pad_with(x(), &c.spec, true).map(read), w.clone())?;
            compare(d.name, pad_composed(x(), &c.spec, Fill::Bool(true)).map(read), w.clone())?;
        }
    }
}

#[test]
fn f32_and_f16_on_flex_keep_their_type() {
    let dev = Device::flex();
    let spec = PadSpec::new(vec![2, 1]).with_mode(PadMode::Reflect);
    let x = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0], [3]), &dev);
    assert_eq!(
        pad_with(x, &spec, 0.0)
            .unwrap()
            .into_data()
            .try_to_vec::<f32>()
            .unwrap(),
        vec![3.0, 2.0, 1.0, 2.0, 3.0, 2.0]
    );
    let h = |v: f32| padkit::half::f16::from_f32(v);
    let x = Tensor::<1>::from_data(
        TensorData::new(vec![h(1.0), h(2.0)], [2]),
        (&dev, DType::F16),
    );
    let y = pad_with(x, &PadSpec::new(vec![1, 0]), 0.5).unwrap();
    assert_eq!(y.dtype(), DType::F16);
    assert_eq!(
        y.into_data().try_to_vec::<padkit::half::f16>().unwrap(),
        vec![h(0.5), h(1.0), h(2.0)]
    );
}

#[test]
fn bad_specs_are_errors() {
    let x = || Tensor::<2>::zeros([2, 3], &Device::flex());
    let e = pad_with(x(), &PadSpec::new(vec![1, 1, 1]), 0.0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "pads has 3 values but 2 axes are padded, so it needs 2 × 2 = 4"
    );
    let e = pad_with(
        x(),
        &PadSpec::new(vec![0, -4, 0, 1]).with_mode(PadMode::Reflect),
        0.0,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "axis 1: mode reflect crops 4 of 3 elements (begin -4, end 1), leaving -1"
    );
    let ints = Tensor::<1, Int>::from_data(
        TensorData::new(vec![1u8, 2], [2]),
        (&Device::flex(), DType::U8),
    );
    let e = pad_with(ints, &PadSpec::new(vec![1, 0]), 300i64).unwrap_err();
    assert_eq!(
        e.to_string(),
        "constant value 300 does not fit element type U8"
    );
}

/// An output too large to allocate (10^12 bytes) is an error on every path and kind,
/// before any backend allocates it.
#[test]
fn outputs_that_cannot_be_allocated_are_errors() {
    let spec = PadSpec::new(vec![0, 250_000_000_000]).with_mode(PadMode::Edge);
    for d in support::devices() {
        for dev in [d.device.clone(), d.device.autodiff()] {
            let x = Tensor::<1>::from_floats([1.0], &dev);
            let e = pad_with(x.clone(), &spec, 0.0).unwrap_err();
            assert_eq!(
                e.to_string(),
                "could not allocate 1000000000004 bytes for the output"
            );
            assert!(pad_composed(x, &spec, Fill::Zero).is_err());
            let b = Tensor::<1, Bool>::from_data([true], &dev);
            assert!(pad_with(b, &spec, false).is_err());
        }
    }
}

/// An empty output whose other dims multiply past `usize` ([0, 2^40 + 1, 2^40 + 1]) is an
/// error, not a panic in a backend's stride arithmetic.
#[test]
fn empty_outputs_with_huge_dims_are_errors() {
    let huge = 1i64 << 40;
    let spec = PadSpec::new(vec![-1, huge, huge, 0, 0, 0]);
    for d in support::devices() {
        let x = Tensor::<3>::zeros([1, 1, 1], &d.device);
        let run = std::panic::catch_unwind(|| {
            (
                pad_with(x.clone(), &spec, 0.0).map(|y| y.dims()),
                pad_composed(x.clone(), &spec, Fill::Zero).map(|y| y.dims()),
            )
        });
        let (native, composed) = run.unwrap_or_else(|_| panic!("{} panics", d.name));
        assert!(
            native.is_err() && composed.is_err(),
            "{}: {native:?} {composed:?}",
            d.name
        );
    }
}
