//! Burn as bench jobs: padkit-burn's pad on Flex, and Burn's own `Tensor::pad` where it
//! can do the workload.

use super::workloads::Workload;
use burn::tensor::kind::Numeric;
use burn::tensor::{Device, Int, Tensor as BurnTensor, TensorData, ops::PadMode as BurnMode};
use padkit::{DType, PadMode, Tensor};

use super::Job;
use super::buffers::bytes;

/// Pushes `padkit-burn`, and `burn-pad` where Burn's pad can do `w`.
pub(super) fn push(w: &Workload, x: &Tensor, jobs: &mut Vec<(String, Job)>) {
    match w.shape.len() {
        1 => burn_jobs::<1>(w, x, jobs),
        3 => burn_jobs::<3>(w, x, jobs),
        _ => burn_jobs::<4>(w, x, jobs),
    }
}

fn burn_jobs<const D: usize>(w: &Workload, x: &Tensor, jobs: &mut Vec<(String, Job)>) {
    let dev = Device::flex();
    let dtype = match w.dtype {
        DType::Float16 => burn::tensor::DType::F16,
        DType::UInt8 => burn::tensor::DType::U8,
        _ => burn::tensor::DType::F32,
    };
    let data = TensorData::from_bytes_vec(bytes(x).to_vec(), w.shape.clone(), dtype);
    let pads: Option<Vec<(usize, usize)>> = w.spec.resolve(D).ok().and_then(|p| {
        p.iter()
            .map(|a| Some((usize::try_from(a.begin).ok()?, usize::try_from(a.end).ok()?)))
            .collect()
    });
    let burn_mode = match w.spec.mode {
        PadMode::Constant => Some(BurnMode::Constant(0.0)),
        PadMode::Reflect => Some(BurnMode::Reflect),
        PadMode::Edge => Some(BurnMode::Edge),
        _ => None,
    };
    let burn_pad = pads.zip(burn_mode);
    if w.dtype == DType::UInt8 {
        let t = BurnTensor::<D, Int>::from_data(data, (&dev, dtype));
        push_burn_jobs(t, &w.spec, burn_pad, jobs);
    } else {
        let t = BurnTensor::<D>::from_data(data, (&dev, dtype));
        push_burn_jobs(t, &w.spec, burn_pad, jobs);
    }
}

/// padkit-burn's pad of `t`, and Burn's own where it can do the workload.
fn push_burn_jobs<const D: usize, K: padkit_burn::PadKind + Numeric + 'static>(
    t: BurnTensor<D, K>,
    spec: &padkit::PadSpec,
    burn_pad: Option<(Vec<(usize, usize)>, BurnMode)>,
    jobs: &mut Vec<(String, Job)>,
) {
    let (t2, spec) = (t.clone(), spec.clone());
    jobs.push((
        "padkit-burn".into(),
        Box::new(move || drop(padkit_burn::pad(t.clone(), &spec).map(|y| y.into_data()))),
    ));
    if let Some((p, m)) = burn_pad {
        jobs.push((
            "burn-pad".into(),
            Box::new(move || drop(t2.clone().pad(p.as_slice(), m).into_data())),
        ));
    }
}
