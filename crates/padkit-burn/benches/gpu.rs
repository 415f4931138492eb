//! padkit-burn on Burn's wgpu backend with Burn's default fusion (`--features wgpu`):
//! padkit's CubeCL kernel ("native") against padkit's composed path, Burn's own
//! `Tensor::pad` (the modes it has, without crops) and the floor, a device-to-device copy
//! of the output's size.
//!
//! Each job runs its operation and waits for the device (`Device::sync`) with its results
//! alive, and the jobs of the autodiff device also read their loss (the output's sum) back,
//! so that fusion skips no output; the jobs of a workload are timed once per round in an
//! order shuffled each round, and the table gives medians over the rounds of per-round
//! ratios: forwards to the copy and Burn's pad to native; native's backward (its
//! forward+backward, `y.sum().backward()` and the input's gradient, less its forward on
//! the autodiff device with the same reads: the output, the loss read back, a sync; so the
//! backward of the sum is in it) to its forward; and the others' forward+backward to
//! native's.
//! On a machine without a GPU, wgpu runs on lavapipe (the CPU): compare the ratios of one
//! run, never absolute times.
//!
//! `cargo bench -p padkit-burn --features wgpu --bench gpu [-- ROUNDS] [NAME...]`

use std::time::Instant;

use burn::backend::DispatchDevice;
use burn::backend::ops::FloatTensorOps;
use burn::tensor::ops::PadMode as BurnMode;
use burn::tensor::{Device, DeviceKind, Distribution, Tensor};
use padkit::{PadMode, PadSpec};
use padkit_burn::route::{PadPath, pad_composed, pad_path};
use padkit_burn::{Fill, pad_with};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

type Job = Box<dyn FnMut()>;

/// One workload: an input shape, a spec, and Burn's pad of it where Burn has one.
struct Workload {
    name: &'static str,
    shape: Vec<usize>,
    spec: PadSpec,
    burn: Option<(Vec<(usize, usize)>, BurnMode)>,
}

fn workloads() -> Vec<Workload> {
    let image = vec![8, 64, 128, 128];
    let hw = PadSpec::new(vec![2, 2, 2, 2]).with_axes(vec![2, 3]);
    let mut v: Vec<Workload> = [
        (PadMode::Constant, Some(BurnMode::Constant(0.0))),
        (PadMode::Reflect, Some(BurnMode::Reflect)),
        (PadMode::Edge, Some(BurnMode::Edge)),
        (PadMode::Wrap, None),
    ]
    .into_iter()
    .map(|(mode, burn)| Workload {
        name: match mode {
            PadMode::Constant => "image constant",
            PadMode::Reflect => "image reflect",
            PadMode::Edge => "image edge",
            _ => "image wrap",
        },
        shape: image.clone(),
        spec: hw.clone().with_mode(mode),
        burn: burn.map(|m| (vec![(0, 0), (0, 0), (2, 2), (2, 2)], m)),
    })
    .collect();
    v.push(Workload {
        name: "audio reflect",
        shape: vec![4_194_304],
        spec: PadSpec::new(vec![512, 512]).with_mode(PadMode::Reflect),
        burn: Some((vec![(512, 512)], BurnMode::Reflect)),
    });
    v.push(Workload {
        name: "image crop",
        shape: image,
        spec: PadSpec::new(vec![-2, -2, -2, -2]).with_axes(vec![2, 3]),
        burn: None,
    });
    v.push(Workload {
        name: "tiny constant",
        shape: vec![1, 1, 4, 4],
        spec: PadSpec::new(vec![1, 1, 1, 1]).with_axes(vec![2, 3]),
        burn: Some((
            vec![(0, 0), (0, 0), (1, 1), (1, 1)],
            BurnMode::Constant(0.0),
        )),
    });
    v
}

/// Median of `v`.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times every job once per round in a shuffled order, after one warm-up run each;
/// returns the per-round times.
fn measure(jobs: &mut [(String, Job)], rounds: usize, rng: &mut SmallRng) -> Vec<Vec<f64>> {
    for (_, job) in jobs.iter_mut() {
        job();
    }
    let mut samples = vec![Vec::new(); jobs.len()];
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    for _ in 0..rounds {
        order.shuffle(rng);
        for &i in &order {
            let t = Instant::now();
            (jobs[i].1)();
            samples[i].push(t.elapsed().as_secs_f64());
        }
    }
    samples
}

/// Median over rounds of `a[r] / b[r]`.
fn ratio(a: &[f64], b: &[f64]) -> f64 {
    median(a.iter().zip(b).map(|(x, y)| x / y).collect())
}

/// A device-to-device copy of `len` f32 on `device`'s CubeCL backend, synced: the floor.
fn copy_job(device: &Device, len: usize) -> Job {
    let inner = device.clone().inner();
    let DispatchDevice::Cube(cube) = inner.as_dispatch() else {
        panic!("the bench runs on a CubeCL device")
    };
    let src =
        burn_cubecl::CubeBackend::float_zeros([len].into(), cube, burn::tensor::FloatDType::F32);
    let device = device.clone();
    Box::new(move || {
        let copy = src.copy();
        device.sync().unwrap();
        drop(copy);
    })
}

fn float<const D: usize>(shape: &[usize], device: &Device) -> Tensor<D> {
    let shape: [usize; D] = shape.try_into().unwrap();
    Tensor::<D>::random(shape, Distribution::Default, device)
}

type Pad<const D: usize> = std::rc::Rc<dyn Fn(Tensor<D>) -> Tensor<D>>;

/// The implementations of `w` that exist: native, composed, and Burn's.
fn pads<const D: usize>(w: &Workload) -> Vec<(&'static str, Pad<D>)> {
    let (s1, s2) = (w.spec.clone(), w.spec.clone());
    let mut v: Vec<(&'static str, Pad<D>)> = vec![
        (
            "native",
            std::rc::Rc::new(move |x| pad_with(x, &s1, 0.0).unwrap()),
        ),
        (
            "composed",
            std::rc::Rc::new(move |x| pad_composed(x, &s2, Fill::Zero).unwrap()),
        ),
    ];
    if let Some((p, m)) = w.burn.clone() {
        v.push((
            "burn",
            std::rc::Rc::new(move |x: Tensor<D>| x.pad(p.as_slice(), m)),
        ));
    }
    v
}

fn run<const D: usize>(w: &Workload, device: &Device, rounds: usize, rng: &mut SmallRng) {
    let out: Vec<usize> = padkit::output_shape(&w.shape, &w.spec).unwrap();
    let path = pad_path(device, burn::tensor::DType::F32, &w.shape, &out);
    assert_eq!(path, PadPath::Device, "{}: {path}", w.name);
    let mut jobs: Vec<(String, Job)> =
        vec![("copy".into(), copy_job(device, out.iter().product()))];
    let ad = device.clone().autodiff();
    for (name, pad) in pads::<D>(w) {
        let (x, dev, p) = (float::<D>(&w.shape, device), device.clone(), pad.clone());
        jobs.push((
            format!("{name} fwd"),
            Box::new(move || {
                let y = p(x.clone());
                dev.sync().unwrap(); // (y alive: fusion may skip outputs dropped unread)
                drop(y);
            }),
        ));
        // On the autodiff device, native's forward and every forward+backward make the same
        // reads: the loss (the output's sum) read back, which needs the output computed,
        // then a sync with the output (and, after the backward, the gradient) alive. So
        // fusion skips neither the pad nor the loss, and native's two differ by the
        // backward alone.
        if name == "native" {
            let (x, dev, p) = (
                float::<D>(&w.shape, &ad).require_grad(),
                ad.clone(),
                pad.clone(),
            );
            jobs.push((
                format!("{name} ad fwd"),
                Box::new(move || {
                    let y = p(x.clone());
                    let loss = y.clone().sum();
                    let _: f32 = loss.clone().into_scalar();
                    dev.sync().unwrap();
                    drop((y, loss));
                }),
            ));
        }
        let (x, dev) = (float::<D>(&w.shape, &ad).require_grad(), ad.clone());
        jobs.push((
            format!("{name} fwd+bwd"),
            Box::new(move || {
                let y = pad(x.clone());
                let loss = y.clone().sum();
                let _: f32 = loss.clone().into_scalar();
                let grads = loss.backward();
                let g = x.grad(&grads).unwrap();
                dev.sync().unwrap();
                drop((y, loss, g));
            }),
        ));
    }
    // The sum's own backward, with the same reads, on a leaf of the output's shape: what
    // native's backward holds beside the pad's adjoint.
    for backward in [false, true] {
        let (leaf, dev) = (float::<D>(&out, &ad).require_grad(), ad.clone());
        let name = if backward { "leaf fwd+bwd" } else { "leaf fwd" };
        jobs.push((
            name.into(),
            Box::new(move || {
                let loss = leaf.clone().sum();
                let _: f32 = loss.clone().into_scalar();
                let g = backward.then(|| leaf.grad(&loss.backward()).unwrap());
                dev.sync().unwrap();
                drop((loss, g));
            }),
        ));
    }
    let t = measure(&mut jobs, rounds, rng);
    let time = |name: &str| &t[jobs.iter().position(|(n, _)| n == name).unwrap()];
    let cell = |name: &str, base: &str| {
        if jobs.iter().any(|(n, _)| n == name) {
            format!("{:.2}", ratio(time(name), time(base)))
        } else {
            "—".into()
        }
    };
    // native's backward, per round: fwd+bwd less the forward that made the same reads,
    // over the plain forward; then the same less the sum's own backward (the leaf's), which
    // leaves the pad's adjoint
    let (fb, adf, f) = (
        time("native fwd+bwd"),
        time("native ad fwd"),
        time("native fwd"),
    );
    let (lfb, lf) = (time("leaf fwd+bwd"), time("leaf fwd"));
    let backward: Vec<f64> = (0..fb.len()).map(|r| (fb[r] - adf[r]) / f[r]).collect();
    let adjoint: Vec<f64> = (0..fb.len())
        .map(|r| (fb[r] - adf[r] - (lfb[r] - lf[r])) / f[r])
        .collect();
    println!(
        "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {} |",
        w.name,
        cell("native fwd", "copy"),
        cell("composed fwd", "copy"),
        cell("burn fwd", "copy"),
        cell("burn fwd", "native fwd"),
        median(backward),
        median(adjoint),
        cell("composed fwd+bwd", "native fwd+bwd"),
        cell("burn fwd+bwd", "native fwd+bwd"),
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let rounds = args.iter().find_map(|a| a.parse().ok()).unwrap_or(11);
    // other arguments: run only the workloads whose names contain one of them
    let only: Vec<&String> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .collect();
    let device = Device::wgpu(DeviceKind::DefaultDevice);
    let mut rng = SmallRng::seed_from_u64(24);
    println!("padkit-burn on wgpu (fusion on), f32, median of {rounds} rounds");
    println!();
    println!(
        "| workload | native / copy | composed / copy | Burn's pad / copy | Burn's pad / native \
         | native backward / native forward | the pad's adjoint / native forward \
         | composed fwd+bwd / native fwd+bwd | Burn fwd+bwd / native fwd+bwd |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let chosen = |w: &Workload| only.is_empty() || only.iter().any(|o| w.name.contains(o.as_str()));
    for w in workloads().into_iter().filter(chosen) {
        match w.shape.len() {
            1 => run::<1>(&w, &device, rounds, &mut rng),
            _ => run::<4>(&w, &device, rounds, &mut rng),
        }
    }
}
