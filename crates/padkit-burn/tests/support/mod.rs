//! What the forward and gradient suites share: random pad cases and the devices they run
//! on: Flex, and NdArray with the `ndarray` feature, in f64 and i64; with the `wgpu`
//! feature (or `wgpu-without-fusion`) also Burn's CubeCL wgpu backend on Vulkan's CPU
//! adapter (lavapipe where there is no GPU), in f32 and i32, which every wgpu adapter
//! supports.
#![allow(deprecated)] // Device::ndarray: NdArray is deprecated in Burn 0.22, still served
#![allow(dead_code)] // each test binary uses a part

use std::ops::RangeInclusive;

use burn::tensor::{DType, Device};
use padkit::axis_map::AxisBorders;
use padkit::{PadMode, PadSpec};
use proptest::prelude::*;

pub use padkit_testkit::cases::{TensorCase as Case, named_cases, tensor_case as case};
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// One device and the element types the suites use on it.
#[derive(Clone)]
pub struct TestDevice {
    pub name: &'static str,
    pub device: Device,
    pub float: DType,
    pub int: DType,
}

pub fn devices() -> Vec<TestDevice> {
    let host = |name, device| TestDevice {
        name,
        device,
        float: DType::F64,
        int: DType::I64,
    };
    #[allow(unused_mut)]
    let mut v = vec![host("flex", Device::flex())];
    #[cfg(feature = "ndarray")]
    v.push(host("ndarray", Device::ndarray()));
    #[cfg(feature = "wgpu-without-fusion")]
    v.push(TestDevice {
        name: "wgpu",
        device: Device::wgpu(burn::tensor::DeviceKind::Cpu),
        float: DType::F32,
        int: DType::I32,
    });
    v
}

/// Rows of 4 097 elements (odd: the CubeCL kernels move them in vectors of 1) and of 4 100
/// (vectors of 4 where the device has them), in every mode: each row's center spans many
/// of the kernels' center threads (32 vectors each), the last of them partly, as 4 097 =
/// 32 × 128 + 1 vectors over 129 threads and 1 025 vectors over 33 threads do.
pub fn long_cases() -> Vec<Case> {
    PadMode::ALL
        .into_iter()
        .flat_map(|mode| {
            [
                // padded on both axes: the rows of the middle axis' border too
                Case {
                    shape: [3, 2, 4097],
                    spec: PadSpec::new(vec![1, 5, 0, 7])
                        .with_axes(vec![1, 2])
                        .with_mode(mode),
                },
                // padded by 8 and 4: the center's vectors begin at a vector's start
                Case {
                    shape: [2, 3, 4100],
                    spec: PadSpec::new(vec![8, 4]).with_axes(vec![2]).with_mode(mode),
                },
                // cropped by 4 and padded by 8
                Case {
                    shape: [2, 3, 4100],
                    spec: PadSpec::new(vec![-4, 8]).with_axes(vec![2]).with_mode(mode),
                },
            ]
        })
        .collect()
}

/// Holds padkit-burn's process-wide kernel counters for one test of a binary that has
/// several: a test that reads them around its work takes this first, so that no other
/// test's kernels run meanwhile (a test that failed holding it leaves it usable).
pub fn counters() -> std::sync::MutexGuard<'static, ()> {
    static COUNTERS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    COUNTERS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Wider than any vector a device gives the CubeCL kernels (wgpu loads 128 bits: 16 of the
/// narrowest elements).
const WIDEST: usize = 64;

/// How many times the CubeCL kernel launches for a pad of `c` (`backward`: its adjoint
/// kernel, for the gradient), which `padkit_burn::counters::kernel_runs` counts. Each runs in two
/// launches over the rows of the last axis: the first moves vectors of the widest size the
/// tensors allow, which the device decides, along a run of the row (the pad: its center;
/// the adjoint: its longest run of elements that only the center reads, outside the
/// borders' windows), the second the rest; a launch with nothing to do is left out, and an
/// empty output (for the adjoint, an empty input) launches nothing. Exact where the
/// vectors' width cannot change it: the run is empty or the whole row (one launch), or
/// long enough to hold a whole vector of any width (two); else one or two.
pub fn launches(c: &Case, backward: bool) -> RangeInclusive<u64> {
    let out = padkit::output_shape(&c.shape, &c.spec).expect("a valid case");
    let pads = c.spec.resolve(3).expect("a valid case");
    let last =
        padkit::axis_map::axis_borders(2, c.shape[2], &pads[2], c.spec.mode).expect("a valid case");
    let (run, row) = if backward {
        if c.shape.contains(&0) {
            return 0..=0;
        }
        (sole_run(&last), c.shape[2])
    } else {
        if out.contains(&0) {
            return 0..=0;
        }
        (last.center_len, out[2])
    };
    if run == 0 || run == row {
        1..=1
    } else if run >= 2 * WIDEST - 1 {
        2..=2
    } else {
        1..=2
    }
}

/// The longest run of input positions of an axis that only its center reads: in the
/// center, outside the smallest windows holding the sources of the borders before and
/// after it (as the adjoint's tables list them).
fn sole_run(a: &AxisBorders) -> usize {
    let window = |border: &[Option<usize>]| {
        let sources = border.iter().flatten();
        Some((*sources.clone().min()?, *sources.max()? + 1))
    };
    let windows: Vec<(usize, usize)> = [window(&a.before), window(&a.after)]
        .into_iter()
        .flatten()
        .collect();
    let (mut best, mut run) = (0, 0);
    for q in a.center_src..a.center_src + a.center_len {
        if windows.iter().any(|&(lo, hi)| (lo..hi).contains(&q)) {
            run = 0;
        } else {
            run += 1;
            best = best.max(run);
        }
    }
    best
}

/// `x` of `shape` [a, b, e] stored transposed: `stored[k][j][i] = x[i][j][k]`, so that
/// `stored` as a tensor of shape [e, b, a], permuted by [2, 1, 0], is `x` as a strided view.
pub fn transposed<T: Copy>(x: &[T], shape: [usize; 3]) -> Vec<T> {
    let [a, b, e] = shape;
    (0..e)
        .flat_map(|k| (0..b).flat_map(move |j| (0..a).map(move |i| (i * b + j) * e + k)))
        .map(|at| x[at])
        .collect()
}

/// Weights `w` of a pad's output (`out_shape`), small integers exact in any float type,
/// and the reference's adjoint of them: the gradient of `sum(w · pad(x))` with respect
/// to `x`.
pub fn weights_and_adjoint(
    reference: &padkit_conformance::reference::Case,
    out_shape: &[usize],
) -> (Vec<i64>, Vec<i64>) {
    let w: Vec<i64> = (0..out_shape.iter().product::<usize>())
        .map(|i| (i as i64 * 31) % 7 - 3)
        .collect();
    let adjoint = reference.reference_adjoint(&w).expect("a valid case");
    (w, adjoint)
}

/// Runs `check` on every named case, which must be valid, and on random cases (the same
/// on every run) until 1 000 valid ones were checked; `check` returns false for a spec
/// the reference refuses.
pub fn check_named_and_random(mut check: impl FnMut(&Case) -> bool) {
    for c in named_cases() {
        assert!(check(&c), "{c:?} is a valid pad");
    }
    let mut runner = TestRunner::deterministic();
    let mut checked = 0;
    while checked < 1000 {
        let c = case().new_tree(&mut runner).unwrap().current();
        checked += usize::from(check(&c));
    }
}
