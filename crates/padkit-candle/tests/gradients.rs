//! Gradients on candle's CPU device: the kernel path's backward (padkit's adjoint, a
//! custom op) equals candle's own gradient of the composed path, central finite
//! differences and the naive reference adjoint, for every mode, crops, interior padding,
//! outputs cropped to nothing and empty inputs, in f64, f32, f16 and bf16.

use candle_core::{DType, Device, Tensor, Var};
use padkit::PadSpec;
use padkit_candle::route::pad_composed;
use padkit_candle::{Error, Fill, pad_with};
use padkit_testkit::cases::tensor_case;
use padkit_testkit::cases::{
    GRADIENT_SHAPE, central_differences, gradient_input, gradient_specs, gradient_weights,
};
use proptest::prelude::*;

type Path = fn(&Tensor, &PadSpec) -> Result<Tensor, Error>;

fn kernel(x: &Tensor, s: &PadSpec) -> Result<Tensor, Error> {
    pad_with(x, s, 0.0)
}

fn composed(x: &Tensor, s: &PadSpec) -> Result<Tensor, Error> {
    pad_composed(x, s, Fill::Zero)
}

/// d/dx sum(w · pad(x)) through `path`, in `dtype`, as f64.
fn gradient(
    shape: &[usize],
    x: Vec<f64>,
    dtype: DType,
    spec: &PadSpec,
    path: Path,
) -> (Vec<usize>, Vec<f64>) {
    let x = Var::from_tensor(
        &Tensor::from_vec(x, shape, &Device::Cpu)
            .unwrap()
            .to_dtype(dtype)
            .unwrap(),
    )
    .unwrap();
    let y = path(x.as_tensor(), spec).unwrap();
    let w = Tensor::from_vec(gradient_weights(y.elem_count()), y.dims(), &Device::Cpu)
        .unwrap()
        .to_dtype(dtype)
        .unwrap();
    let grads = (&y * &w).unwrap().sum_all().unwrap().backward().unwrap();
    let grad = grads
        .get(&x)
        .expect("a gradient, zeros for an empty output");
    let values = grad
        .to_dtype(DType::F64)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1::<f64>()
        .unwrap();
    (y.dims().to_vec(), values)
}

/// Central differences of sum(w · pad(x)), in f64.
fn finite_differences(spec: &PadSpec) -> Vec<f64> {
    central_differences(|x| {
        let t = Tensor::from_vec(x.to_vec(), &GRADIENT_SHAPE, &Device::Cpu).unwrap();
        let y = kernel(&t, spec).unwrap();
        y.flatten_all().unwrap().to_vec1::<f64>().unwrap()
    })
}

#[test]
fn kernel_backward_matches_candles_composition_and_finite_differences() {
    for spec in gradient_specs() {
        let fd = finite_differences(&spec);
        // every value is a small whole number: exact in every float type
        for dtype in [DType::F64, DType::F32, DType::F16, DType::BF16] {
            let (_, ours) = gradient(&GRADIENT_SHAPE, gradient_input(), dtype, &spec, kernel);
            let (_, theirs) = gradient(&GRADIENT_SHAPE, gradient_input(), dtype, &spec, composed);
            assert_eq!(ours, theirs, "{dtype:?} {spec:?}");
            assert_eq!(ours, fd, "{dtype:?} {spec:?}");
        }
    }
}

#[test]
fn pads_padkit_does_not_differentiate_say_so() {
    // candle's 8-bit float is a float candle tracks, which padkit's adjoint does not sum in
    let x = Tensor::new(&[1f32, 2.0], &Device::Cpu)
        .unwrap()
        .to_dtype(DType::F8E4M3)
        .unwrap();
    let x = Var::from_tensor(&x).unwrap();
    let y = kernel(x.as_tensor(), &PadSpec::new(vec![1, 1])).unwrap();
    let err = y.backward().unwrap_err();
    assert!(
        err.to_string()
            .contains("padkit's adjoint sums in f64, f32, f16 and bf16, not f8e4m3"),
        "{err}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random specs, on both paths: the gradient of sum(w · pad(x)) is the reference
    /// adjoint of w (the reference pad's transpose).
    #[test]
    fn random_gradients_match_the_reference_adjoint(c in tensor_case()) {
        let reference = c.reference();
        // specs the core refuses are the forward suite's business
        let Ok((out_shape, _)) = reference.sources(usize::MAX) else {
            return Ok(());
        };
        let w: Vec<i64> = (0..out_shape.iter().product::<usize>()).map(|i| (i as i64 * 7919) % 13 - 6).collect();
        let want: Vec<f64> = reference.reference_adjoint(&w).unwrap().into_iter().map(|g| g as f64).collect();
        let n = c.shape.iter().product::<usize>();
        for (name, path) in [("kernel", kernel as Path), ("composed", composed)] {
            let (shape, got) = gradient(&c.shape, vec![0.5; n], DType::F64, &c.spec, path);
            prop_assert_eq!(&shape, &out_shape);
            prop_assert_eq!(&got, &want, "{} {:?}", name, c.spec);
        }
    }
}
