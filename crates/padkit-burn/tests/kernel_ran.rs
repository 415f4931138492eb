//! The native kernels ran, not only gave the right answer: on every test device, every
//! case meant to be native is declared native by `pad_path` and moves `kernel_runs` by
//! exactly one run of the device's kernel (forward, and backward under autodiff), and its
//! answer is the naive reference's. Over 1 000 random cases per device, every kind (floats
//! also as a strided view), with fusion when padkit-burn's `fusion` feature is on (the
//! library's `unfused_tests` run the same cases on the CubeCL backend without it). One
//! test in this binary, so that no other test moves the counters meanwhile.
mod support;

use burn::tensor::{Bool, Int, Tensor, TensorData};
use padkit_burn::{KernelRuns, PadPath, kernel_runs, pad_path, pad_with};
use support::{Case, TestDevice, check_named_and_random, transposed, weights_and_adjoint};

/// The counter of the kernel that pads (`backward`: differentiates) on `d`.
fn runs_of(d: &TestDevice, runs: KernelRuns, backward: bool) -> u64 {
    match (d.name, backward) {
        ("wgpu", false) => runs.device_forward,
        ("wgpu", true) => runs.device_backward,
        _ => runs.host,
    }
}

/// Runs `f` (which must read its result, so that a fused backend runs the kernel) and
/// asserts that it ran the device's kernel exactly once.
fn once<T>(d: &TestDevice, backward: bool, what: &str, f: impl FnOnce() -> T) -> T {
    let before = runs_of(d, kernel_runs(), backward);
    let out = f();
    let after = runs_of(d, kernel_runs(), backward);
    assert_eq!(after - before, 1, "{}: {what}: kernel runs", d.name);
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

    let n: usize = c.shape.iter().product();
    let data: Vec<f64> = (0..n).map(|i| i as f64 - 2.5).collect();
    let (_, want) = reference.reference(&data, 0.75, usize::MAX).unwrap();
    let stored = transposed(&data, c.shape);
    let [a, b, e] = c.shape;
    let plain = Tensor::<3>::from_data(TensorData::new(data, c.shape), (&d.device, d.float));
    let strided = Tensor::<3>::from_data(TensorData::new(stored, [e, b, a]), (&d.device, d.float))
        .permute([2, 1, 0]);
    for x in [plain, strided] {
        let got = once(d, false, &what, || {
            let y = pad_with(x, &c.spec, 0.75).unwrap();
            y.into_data().try_into_vec_as::<f64>().unwrap()
        });
        assert_eq!(got, want, "{}: {what}", d.name);
    }

    let ints: Vec<i64> = (0..n as i64).map(|i| 3 - i).collect();
    let (_, want) = reference.reference(&ints, -9, usize::MAX).unwrap();
    let x = Tensor::<3, Int>::from_data(TensorData::new(ints, c.shape), (&d.device, d.int));
    let got = once(d, false, &what, || {
        let y = pad_with(x, &c.spec, -9i64).unwrap();
        y.into_data().try_into_vec_as::<i64>().unwrap()
    });
    assert_eq!(got, want, "{}: {what}", d.name);

    let bools: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
    let (_, want) = reference.reference(&bools, true, usize::MAX).unwrap();
    let x = Tensor::<3, Bool>::from_data(TensorData::new(bools, c.shape), &d.device);
    let got = once(d, false, &what, || {
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
    let got = once(d, true, &what, || {
        let grads = (y * w).sum().backward();
        let g = x.grad(&grads).unwrap();
        g.into_data().try_into_vec_as::<f64>().unwrap()
    });
    assert_eq!(got, want, "{}: gradient of {what}", d.name);
    true
}

#[test]
fn every_native_case_runs_the_kernel_and_matches_the_reference() {
    for d in support::devices() {
        check_named_and_random(|c| check(&d, c));
    }
}
