//! padkit's CubeCL kernels on Burn's CubeCL backend itself, without burn-fusion: the
//! suites' named cases, 1 000 random valid ones and rows long enough for many of the
//! kernels' threads (`support::long_cases`), every kind (floats also as a strided
//! view) and the backward, called on `CubeBackend` directly and compared with
//! padkit-conformance's naive reference; each call launches its kernel as many times as
//! [`support::launches`] expects (none for an empty output).
//!
//! A Burn built with fusion (Burn's default, and padkit-burn's `wgpu` feature) puts
//! `Fusion<CubeBackend>` in front of `Device::wgpu` tensors, so the integration suites
//! reach the kernels through burn-fusion; these tests run the same kernels the way a Burn
//! built without fusion runs them, in the same build.

#[path = "../../../tests/support/mod.rs"]
mod support;

use std::ops::RangeInclusive;

use burn::backend::ops::{BoolTensorOps, FloatTensorOps, IntTensorOps};
use burn::backend::{DispatchDevice, TensorMetadata};
use burn::tensor::{BoolStore, DType, Device, DeviceKind, TensorData, read_sync};
use burn_cubecl::tensor::CubeTensor;
use burn_cubecl::{CubeBackend, CubeDevice};

use super::super::{Checked, PadBackend};
use crate::Fill;
use crate::counters::kernel_runs;
use support::{Case, check_named_and_random, launches, transposed, weights_and_adjoint};

/// The CubeCL device behind Burn's wgpu device on Vulkan's CPU adapter.
fn device() -> CubeDevice {
    match Device::wgpu(DeviceKind::Cpu).inner().as_dispatch() {
        DispatchDevice::Cube(device) => device.clone(),
        other => panic!("a wgpu device is a CubeCL device, not {other:?}"),
    }
}

/// Runs `f` and asserts that it launched the pad kernel (or, `backward`, the adjoint
/// kernel) a number of times in `expected`; `f` must read its result.
fn launched<T>(
    backward: bool,
    expected: RangeInclusive<u64>,
    what: &str,
    f: impl FnOnce() -> T,
) -> T {
    let runs = || {
        let runs = kernel_runs();
        if backward {
            runs.device_backward
        } else {
            runs.device_forward
        }
    };
    let before = runs();
    let out = f();
    let n = runs() - before;
    assert!(
        expected.contains(&n),
        "{what}: {n} launches, not {expected:?}"
    );
    out
}

/// The pad of `x` by `c` with `fill`, through `pad`, read back.
fn padded(
    x: CubeTensor,
    c: &Case,
    fill: Fill,
    pad: fn(CubeTensor, Checked) -> CubeTensor,
    read: fn(CubeTensor) -> TensorData,
) -> TensorData {
    let checked = Checked::new(&c.shape, x.dtype(), &c.spec, fill).expect("a valid case");
    let expected = launches(c, false);
    launched(false, expected, &format!("{c:?}"), || read(pad(x, checked)))
}

fn read_float(x: CubeTensor) -> TensorData {
    read_sync(CubeBackend::float_into_data(x)).expect("a readable tensor")
}

fn read_int(x: CubeTensor) -> TensorData {
    read_sync(CubeBackend::int_into_data(x)).expect("a readable tensor")
}

fn read_bool(x: CubeTensor) -> TensorData {
    read_sync(CubeBackend::bool_into_data(x)).expect("a readable tensor")
}

/// One case, every kind, forward and backward; false for a spec the reference refuses
/// (the forward suite checks those errors).
fn check(device: &CubeDevice, c: &Case) -> bool {
    let reference = c.reference();
    let Ok((out_shape, _)) = reference.sources(usize::MAX) else {
        return false;
    };
    let n: usize = c.shape.iter().product();

    let floats: Vec<f32> = (0..n).map(|i| i as f32 - 2.5).collect();
    let (_, want) = reference.reference(&floats, 0.75, usize::MAX).unwrap();
    let stored = transposed(&floats, c.shape);
    let [a, b, e] = c.shape;
    let plain = CubeBackend::float_from_data(TensorData::new(floats, c.shape), device);
    let stored = CubeBackend::float_from_data(TensorData::new(stored, [e, b, a]), device);
    let strided = CubeBackend::float_permute(stored, &[2, 1, 0]);
    for x in [plain, strided] {
        let got = padded(
            x,
            c,
            Fill::Float(0.75),
            CubeBackend::padkit_pad_float,
            read_float,
        );
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "{c:?}");
    }

    let ints: Vec<i32> = (0..n as i32).map(|i| 3 - i).collect();
    let (_, want) = reference.reference(&ints, -9, usize::MAX).unwrap();
    let x = CubeBackend::int_from_data(TensorData::new(ints, c.shape), device);
    let got = padded(x, c, Fill::Int(-9), CubeBackend::padkit_pad_int, read_int);
    assert_eq!(got.to_vec::<i32>().unwrap(), want, "{c:?}");

    let bools: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
    let (_, want) = reference.reference(&bools, true, usize::MAX).unwrap();
    // (stored as u32, as WGSL holds bools)
    let bools = TensorData::new(bools, c.shape).convert_dtype(DType::Bool(BoolStore::U32));
    let x = CubeBackend::bool_from_data(bools, device);
    let got = padded(
        x,
        c,
        Fill::Bool(true),
        CubeBackend::padkit_pad_bool,
        read_bool,
    );
    assert_eq!(got.try_into_vec_as::<bool>().unwrap(), want, "{c:?}");

    // The adjoint of a weight tensor w is the reference's adjoint of w.
    let (w, want) = weights_and_adjoint(&reference, &out_shape);
    let want: Vec<f32> = want.into_iter().map(|g| g as f32).collect();
    let w: Vec<f32> = w.into_iter().map(|g| g as f32).collect();
    let grad = CubeBackend::float_from_data(TensorData::new(w, out_shape), device);
    let got = launched(
        true,
        launches(c, true),
        &format!("gradient of {c:?}"),
        || {
            read_float(CubeBackend::padkit_pad_float_backward(
                grad,
                c.shape.to_vec(),
                c.spec.clone(),
            ))
        },
    );
    assert_eq!(got.to_vec::<f32>().unwrap(), want, "gradient of {c:?}");
    true
}

#[test]
fn the_kernels_on_cube_backend_without_fusion_match_the_reference() {
    let _counters = support::counters();
    let device = device();
    check_named_and_random(|c| check(&device, c));
    // rows long enough for many threads of the center, every mode, every kind
    for c in support::long_cases() {
        assert!(check(&device, &c), "{c:?} is a valid pad");
    }
}
