//! The native kernels ran, not only gave the right answer: on every test device, every
//! case meant to be native is declared native by `pad_path` and moves `kernel_runs` by
//! what the device's kernel must run (the host kernel once per pad and per gradient; the
//! CubeCL kernels their launches, none for an empty output), and its answer is the naive
//! reference's. Over 1 000 random cases per device, every kind (floats also as a strided
//! view), with fusion when padkit-burn's `fusion` feature is on (the library's
//! `unfused_tests` run the same cases on the CubeCL backend without it). On wgpu also:
//! launches counted exactly, rows long enough for many of the kernels' threads in every
//! element type the device holds, and the composed path's reasons. The tests of this
//! binary take `support::counters()`, so that none moves the counters while another reads
//! them.
mod support;

use std::ops::RangeInclusive;

use burn::tensor::{Bool, Int, Tensor, TensorData};
use padkit_burn::counters::{KernelRuns, kernel_runs};
use padkit_burn::pad_with;
use padkit_burn::route::{PadPath, pad_path};
use support::{
    Case, TestDevice, check_named_and_random, launches, transposed, weights_and_adjoint,
};

/// The counter of the kernel that pads (`backward`: differentiates) on `d`.
fn runs_of(d: &TestDevice, runs: KernelRuns, backward: bool) -> u64 {
    match (d.name, backward) {
        ("wgpu", false) => runs.device_forward,
        ("wgpu", true) => runs.device_backward,
        _ => runs.host,
    }
}

/// What a pad of `c` (`backward`: its gradient) must add to `d`'s counter: the host
/// kernel runs once per call; the CubeCL kernel launches as [`launches`] says.
fn expected(d: &TestDevice, c: &Case, backward: bool) -> RangeInclusive<u64> {
    if d.name == "wgpu" {
        launches(c, backward)
    } else {
        1..=1
    }
}

/// Runs `f` (which must read its result, so that a fused backend runs the kernel) and
/// asserts that it moved the counter of `d`'s kernel by a number in `expected`.
fn counted<T>(
    d: &TestDevice,
    backward: bool,
    expected: RangeInclusive<u64>,
    what: &str,
    f: impl FnOnce() -> T,
) -> T {
    let before = runs_of(d, kernel_runs(), backward);
    let out = f();
    let n = runs_of(d, kernel_runs(), backward) - before;
    assert!(
        expected.contains(&n),
        "{}: {what}: {n} kernel runs, not {expected:?}",
        d.name
    );
    out
}

/// One case on one device, every kind, forward and backward; false for a spec the
/// reference refuses (the forward suite checks those errors).
fn check(d: &TestDevice, c: &Case) -> bool {
    let reference = c.reference();
    let Ok((out_shape, _)) = reference.sources(usize::MAX) else {
        return false;
    };
    let what = format!("{:?} {:?}", c.shape, c.spec);
    let path = pad_path(&d.device, d.float, &c.shape, &out_shape);
    let native = if d.name == "wgpu" {
        PadPath::Device
    } else {
        PadPath::Host
    };
    assert_eq!(path, native, "{}: {what}", d.name);
    let (forward, backward) = (expected(d, c, false), expected(d, c, true));

    let n: usize = c.shape.iter().product();
    let data: Vec<f64> = (0..n).map(|i| i as f64 - 2.5).collect();
    let (_, want) = reference.reference(&data, 0.75, usize::MAX).unwrap();
    let stored = transposed(&data, c.shape);
    let [a, b, e] = c.shape;
    let plain = Tensor::<3>::from_data(TensorData::new(data, c.shape), (&d.device, d.float));
    let strided = Tensor::<3>::from_data(TensorData::new(stored, [e, b, a]), (&d.device, d.float))
        .permute([2, 1, 0]);
    for x in [plain, strided] {
        let got = counted(d, false, forward.clone(), &what, || {
            let y = pad_with(x, &c.spec, 0.75).unwrap();
            y.into_data().try_into_vec_as::<f64>().unwrap()
        });
        assert_eq!(got, want, "{}: {what}", d.name);
    }

    let ints: Vec<i64> = (0..n as i64).map(|i| 3 - i).collect();
    let (_, want) = reference.reference(&ints, -9, usize::MAX).unwrap();
    let x = Tensor::<3, Int>::from_data(TensorData::new(ints, c.shape), (&d.device, d.int));
    let got = counted(d, false, forward.clone(), &what, || {
        let y = pad_with(x, &c.spec, -9i64).unwrap();
        y.into_data().try_into_vec_as::<i64>().unwrap()
    });
    assert_eq!(got, want, "{}: {what}", d.name);

    let bools: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
    let (_, want) = reference.reference(&bools, true, usize::MAX).unwrap();
    let x = Tensor::<3, Bool>::from_data(TensorData::new(bools, c.shape), &d.device);
    let got = counted(d, false, forward, &what, || {
        let y = pad_with(x, &c.spec, true).unwrap();
        y.into_data().try_into_vec_as::<bool>().unwrap()
    });
    assert_eq!(got, want, "{}: {what}", d.name);

    // The backward: d/dx sum(w · pad(x)) is the reference adjoint of w.
    let (w, want) = weights_and_adjoint(&reference, &out_shape);
    let want: Vec<f64> = want.into_iter().map(|g| g as f64).collect();
    let dev = d.device.clone().autodiff();
    let x = Tensor::<3>::from_data(TensorData::new(vec![1.0; n], c.shape), (&dev, d.float))
        .require_grad();
    let y = pad_with(x.clone(), &c.spec, 0.0).unwrap();
    let w = Tensor::<3>::from_data(TensorData::new(w, y.dims()), (&dev, d.float));
    let got = counted(d, true, backward, &what, || {
        let grads = (y * w).sum().backward();
        let g = x.grad(&grads).unwrap();
        g.into_data().try_into_vec_as::<f64>().unwrap()
    });
    assert_eq!(got, want, "{}: gradient of {what}", d.name);
    true
}

#[test]
fn every_native_case_runs_the_kernel_and_matches_the_reference() {
    let _counters = support::counters();
    for d in support::devices() {
        check_named_and_random(|c| check(&d, c));
    }
}

/// Burn's wgpu device and the kernels' counters (padkit-burn's `wgpu` feature, or
/// `wgpu-without-fusion`).
#[cfg(feature = "wgpu-without-fusion")]
mod wgpu {
    use burn::tensor::{Bool, BoolStore, DType, Int, Tensor, TensorData};
    use padkit::{PadMode, PadSpec};
    use padkit_burn::counters::kernel_runs;
    use padkit_burn::pad_with;
    use padkit_burn::route::{PadPath, Reason, pad_path};

    use super::{check, counted};
    use crate::support::{self, Case, TestDevice, launches, weights_and_adjoint};

    /// The test device on wgpu.
    fn wgpu() -> TestDevice {
        support::devices()
            .into_iter()
            .find(|d| d.name == "wgpu")
            .expect("the wgpu feature adds Burn's wgpu device to the test devices")
    }

    /// Burn's float types and int types; the bool stores are below.
    const FLOATS: [DType; 4] = [DType::F64, DType::F32, DType::F16, DType::BF16];
    const INTS: [DType; 8] = [
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
    ];
    const BOOLS: [DType; 3] = [
        DType::Bool(BoolStore::Native),
        DType::Bool(BoolStore::U8),
        DType::Bool(BoolStore::U32),
    ];

    /// The CubeCL kernels count what they launch, not the calls: none for an empty output
    /// (the call returns it unlaunched), one where the rows are all center or all border,
    /// two where they have both; the gradient likewise, none for an empty input. The counts
    /// are written out here, checked against [`launches`], and `check` asserts that each
    /// pad and gradient of every kind moved the counters by exactly them.
    #[test]
    fn the_cubecl_kernels_count_launches_not_calls() {
        let _counters = support::counters();
        let d = wgpu();
        let cases = [
            // a last axis cropped to nothing: an empty output; its gradient is zeros
            (
                Case {
                    shape: [2, 3, 4],
                    spec: PadSpec::new(vec![-2, -2]).with_axes(vec![2]),
                },
                0,
                1,
            ),
            // rows with a long center and borders: both launches, both ways
            (
                Case {
                    shape: [2, 3, 4097],
                    spec: PadSpec::new(vec![3, 2])
                        .with_axes(vec![2])
                        .with_mode(PadMode::Reflect),
                },
                2,
                2,
            ),
            // the last axis unpadded: every row all center, one launch each way
            (
                Case {
                    shape: [2, 3, 4097],
                    spec: PadSpec::new(vec![1, 1])
                        .with_axes(vec![1])
                        .with_mode(PadMode::Edge),
                },
                1,
                1,
            ),
            // an empty input padded: all fill, one launch; its gradient is empty
            (
                Case {
                    shape: [0, 3, 4],
                    spec: PadSpec::new(vec![1, 0]).with_axes(vec![0]),
                },
                1,
                0,
            ),
        ];
        for (c, forward, backward) in cases {
            assert_eq!(launches(&c, false), forward..=forward, "{c:?}");
            assert_eq!(launches(&c, true), backward..=backward, "gradient of {c:?}");
            assert!(check(&d, &c), "{c:?} is a valid pad");
        }
    }

    /// Rows long enough for many threads of the kernels' centers (`support::long_cases`),
    /// every mode, against the reference, forward and (floats) gradient, in every element
    /// type of Burn's: those the device holds take the kernel, which launches as
    /// [`launches`] says; for those it lacks `pad_path` gives the composed path's reason,
    /// [`Reason::ElementType`], and there is no tensor to pad (a device cannot make a
    /// tensor of a type it does not hold). On wgpu's WGSL (Burn's `wgpu` feature), f32,
    /// i32, u32 and bools stored as u32 are always held; f16, f64, i64 and u64 where the
    /// adapter has the feature (lavapipe may lack some); i8, i16, u8, u16, bf16 and bools
    /// stored natively or as u8 never are. The test prints which types took which path.
    #[test]
    fn long_rows_of_every_element_type_the_device_holds_match_the_reference() {
        let _counters = support::counters();
        let d = wgpu();
        let dev = &d.device;
        for dtype in [DType::F32, DType::I32, DType::U32] {
            assert!(
                dev.supports_dtype(dtype),
                "every wgpu device holds {dtype:?}"
            );
        }
        let bool_store = Tensor::<1, Bool>::from_data([true], dev).dtype();
        let all = || FLOATS.into_iter().chain(INTS).chain(BOOLS);
        let held: Vec<DType> = all().filter(|&t| dev.supports_dtype(t)).collect();
        let lacking: Vec<DType> = all().filter(|&t| !dev.supports_dtype(t)).collect();
        eprintln!(
            "wgpu holds {held:?} (bool tensors: {bool_store:?}), the kernel runs on those; \
             it lacks {lacking:?}, which take the composed path"
        );
        for c in support::long_cases() {
            let what = format!("{:?} {:?}", c.shape, c.spec);
            let reference = c.reference();
            let (out_shape, _) = reference.sources(usize::MAX).expect("a valid case");
            let n: usize = c.shape.iter().product();
            let values: Vec<i64> = (0..n as i64).map(|i| i * 7 % 97).collect();
            for dtype in all() {
                let what = format!("{dtype:?} {what}");
                let path = pad_path(dev, dtype, &c.shape, &out_shape);
                if !dev.supports_dtype(dtype) {
                    // the device lacks the type: the composed path, for that reason
                    assert_eq!(
                        path,
                        PadPath::Composed(Reason::ElementType(dtype)),
                        "{what}"
                    );
                    continue;
                }
                assert_eq!(path, PadPath::Device, "{what}");
                if dtype.is_bool() && dtype != bool_store {
                    // held, but Burn makes every bool tensor of the device's own store
                    continue;
                }
                let forward = launches(&c, false);
                if dtype.is_float() {
                    let data: Vec<f64> = values.iter().map(|&v| v as f64).collect();
                    let (_, want) = reference.reference(&data, 0.5, usize::MAX).unwrap();
                    let x = Tensor::<3>::from_data(TensorData::new(data, c.shape), (dev, dtype));
                    let got = counted(&d, false, forward, &what, || {
                        let y = pad_with(x, &c.spec, 0.5).unwrap();
                        assert_eq!(y.dtype(), dtype, "{what}");
                        y.into_data().try_into_vec_as::<f64>().unwrap()
                    });
                    assert_eq!(got, want, "{what}");
                    gradient(&d, &c, dtype, &out_shape);
                } else if dtype.is_bool() {
                    let bools: Vec<bool> = values.iter().map(|&v| v % 3 == 0).collect();
                    let (_, want) = reference.reference(&bools, true, usize::MAX).unwrap();
                    let x = Tensor::<3, Bool>::from_data(TensorData::new(bools, c.shape), dev);
                    let got = counted(&d, false, forward, &what, || {
                        let y = pad_with(x, &c.spec, true).unwrap();
                        assert_eq!(y.dtype(), dtype, "{what}");
                        y.into_data().try_into_vec_as::<bool>().unwrap()
                    });
                    assert_eq!(got, want, "{what}");
                } else {
                    let (_, want) = reference.reference(&values, 5, usize::MAX).unwrap();
                    let data = TensorData::new(values.clone(), c.shape);
                    let x = Tensor::<3, Int>::from_data(data, (dev, dtype));
                    let got = counted(&d, false, forward, &what, || {
                        let y = pad_with(x, &c.spec, 5i64).unwrap();
                        assert_eq!(y.dtype(), dtype, "{what}");
                        y.into_data().try_into_vec_as::<i64>().unwrap()
                    });
                    assert_eq!(got, want, "{what}");
                }
            }
        }
    }

    /// The gradient of sum(w · pad(x)) for `c` in `dtype`, through the adjoint kernel: the
    /// reference adjoint of w (small integers, exact in every float type).
    fn gradient(d: &TestDevice, c: &Case, dtype: DType, out_shape: &[usize]) {
        let what = format!("gradient of {dtype:?} {:?} {:?}", c.shape, c.spec);
        let reference = c.reference();
        let ad = d.device.clone().autodiff();
        assert_eq!(
            pad_path(&ad, dtype, &c.shape, out_shape),
            PadPath::Device,
            "{what}"
        );
        let (w, want) = weights_and_adjoint(&reference, out_shape);
        let want: Vec<f64> = want.into_iter().map(|g| g as f64).collect();
        let n: usize = c.shape.iter().product();
        let x = Tensor::<3>::from_data(TensorData::new(vec![0.5f64; n], c.shape), (&ad, dtype))
            .require_grad();
        let y = pad_with(x.clone(), &c.spec, 0.0).unwrap();
        let w: Vec<f64> = w.into_iter().map(|v| v as f64).collect();
        let w = Tensor::<3>::from_data(TensorData::new(w, y.dims()), (&ad, dtype));
        let got = counted(d, true, launches(c, true), &what, || {
            let grads = (y * w).sum().backward();
            let g = x.grad(&grads).unwrap();
            assert_eq!(g.dtype(), dtype, "{what}");
            g.into_data().try_into_vec_as::<f64>().unwrap()
        });
        assert_eq!(got, want, "{what}");
    }

    /// `pad_path`'s composed reasons that a wgpu device meets, each asserted, and where a
    /// tensor can be made for it, the composed result checked.
    ///
    /// - [`Reason::ElementType`]: every type the device lacks (bools stored natively on
    ///   every CubeCL device; see the test above for the rest). No result to check: a
    ///   device cannot make a tensor of a type it does not hold.
    /// - [`Reason::TooLarge`]: sizes past 32-bit indexing (no result: they cannot be
    ///   allocated here), and an empty tensor whose axes are so long that the kernel's
    ///   tables would not index in 32 bits, padded through the composed path: right, and
    ///   no kernel ran.
    /// - [`Reason::FeatureOff`] and [`Reason::Backend`] need a device padkit-burn, as
    ///   built, has no kernel for, which this build (every backend's feature on) has not;
    ///   the library's `path` tests check them, and the forward and gradient suites check
    ///   the composed path itself on every device. [`Reason::NoAutodiffFeature`] needs a
    ///   build without the `autodiff` feature (a `path` test checks it there).
    #[test]
    fn the_composed_paths_reasons_on_wgpu() {
        let _counters = support::counters();
        let dev = wgpu().device;
        let native_bool = DType::Bool(BoolStore::Native);
        assert!(
            !dev.supports_dtype(native_bool),
            "CubeCL holds no native bool"
        );
        for device in [dev.clone(), dev.clone().autodiff()] {
            for dtype in FLOATS.into_iter().chain(INTS).chain(BOOLS) {
                if !device.supports_dtype(dtype) {
                    assert_eq!(
                        pad_path(&device, dtype, &[2, 3], &[4, 5]),
                        PadPath::Composed(Reason::ElementType(dtype)),
                        "{dtype:?}"
                    );
                }
            }
        }

        let float = DType::F32;
        let big = 1usize << 32;
        assert_eq!(
            pad_path(&dev, float, &[big], &[big + 2]),
            PadPath::Composed(Reason::TooLarge {
                input: big,
                output: big + 2
            })
        );
        assert_eq!(
            pad_path(&dev, float, &[3], &[big]),
            PadPath::Composed(Reason::TooLarge {
                input: 3,
                output: big
            })
        );
        // element counts past usize read as usize::MAX
        assert_eq!(
            pad_path(&dev, float, &[usize::MAX, 2], &[usize::MAX, 2]),
            PadPath::Composed(Reason::TooLarge {
                input: usize::MAX,
                output: usize::MAX
            })
        );

        // No elements, but an axis of 1.1 billion: the tables (an entry per input index
        // and per output index of each axis) would pass 2^31 entries.
        let shape = [0, 1_100_000_000];
        let spec = PadSpec::new(vec![0, 0, 0, -1]);
        let out = [0, 1_099_999_999];
        assert_eq!(padkit::output_shape(&shape, &spec).unwrap(), out);
        assert_eq!(
            pad_path(&dev, DType::I32, &shape, &out),
            PadPath::Composed(Reason::TooLarge {
                input: 0,
                output: 0
            })
        );
        let x = Tensor::<2, Int>::from_data(
            TensorData::new(Vec::<i64>::new(), shape),
            (&dev, DType::I32),
        );
        let before = kernel_runs();
        let y = pad_with(x, &spec, 7i64).unwrap();
        assert_eq!(y.dims(), out);
        assert_eq!(y.dtype(), DType::I32);
        assert!(y.into_data().try_into_vec_as::<i64>().unwrap().is_empty());
        assert_eq!(
            kernel_runs(),
            before,
            "the composed path launches no kernel"
        );
    }
}
