//! `padkit bench`: the workloads W1–W8 timed in one process, one thread, for every
//! implementation, each as a ratio to the memcpy floor (copy the input's bytes, fill the
//! rest of the output) timed in the same round.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use crate::model::{Feed, PadModel};
use anyhow::Result;
use burn::tensor::kind::Numeric;
use burn::tensor::{Device, Int, Tensor as BurnTensor, TensorData, ops::PadMode as BurnMode};
use padkit::half::f16;
use padkit::{DType, Data, PadMode, Tensor};
use padkit_workloads::{self as workload, Workload};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use tract_core::ops::array::{Pad as CorePad, PadMode as CoreMode};
use tract_onnx::prelude::Tensor as TractTensor;
use tract_onnx::prelude::*;

type Job = Box<dyn FnMut()>;

/// One measured (workload, implementation).
struct Row {
    workload: String,
    implementation: String,
    median_seconds: f64,
    ratio_to_floor: f64,
    /// The lowest and highest of the runs' ratios.
    ratio_range: (f64, f64),
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A deterministic input of the workload's type.
fn input(w: &Workload) -> Tensor {
    let n = w.input_len();
    let width = match w.dtype.layout() {
        padkit::Layout::Bytes(b) => b,
        _ => 1,
    };
    let bytes = (0..n * width).map(|i| (i % 251) as u8).collect();
    Tensor::new(w.dtype, w.shape.clone(), Data::Bytes(bytes))
        .expect("workload inputs are well formed")
}

fn bytes(t: &Tensor) -> &[u8] {
    match t.data() {
        Data::Bytes(b) => b,
        Data::Strings(_) => &[],
    }
}

/// Bytes that start at a cache-line (64-byte) boundary, as framework tensors usually do.
/// A plain `Vec<u8>` is only 16-byte aligned, and row copies whose source straddles cache
/// lines run slower, which would time the allocator's alignment rather than the kernel.
/// The floor gets the same alignment.
struct LineAligned {
    buf: Vec<u8>,
    start: usize,
}

impl LineAligned {
    /// Room for `len` bytes, not yet written.
    fn uninit(len: usize) -> LineAligned {
        let buf: Vec<u8> = Vec::with_capacity(len + 63);
        let start = buf.as_ptr().align_offset(64);
        LineAligned { buf, start }
    }

    /// A copy of `bytes`.
    fn copy_of(bytes: &[u8]) -> LineAligned {
        let mut a = LineAligned::uninit(bytes.len());
        a.buf.resize(a.start, 0);
        a.buf.extend_from_slice(bytes);
        a
    }

    /// `len` zero bytes.
    fn zeroed(len: usize) -> LineAligned {
        let mut a = LineAligned::uninit(len);
        a.buf.resize(a.start + len, 0);
        a
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.start..]
    }
}

fn floor(x: &Tensor, out_bytes: usize) -> Job {
    let src = LineAligned::copy_of(bytes(x));
    let mut out = LineAligned::zeroed(out_bytes);
    Box::new(move || {
        let (src, out) = (src.bytes(), out.bytes_mut());
        let n = src.len().min(out.len());
        out[..n].copy_from_slice(&src[..n]);
        out[n..].fill(0);
        std::hint::black_box(out);
    })
}

/// The input and output buffers that `padkit-core` and `padkit-typed` share, so that
/// the two differ only by the API they call, not by where their buffers happen to lie.
type Shared = Rc<RefCell<(LineAligned, LineAligned)>>;

/// A copy of `x`'s bytes and an output buffer of `out_bytes` zeros.
fn shared(x: &Tensor, out_bytes: usize) -> Shared {
    let pair = (
        LineAligned::copy_of(bytes(x)),
        LineAligned::zeroed(out_bytes),
    );
    Rc::new(RefCell::new(pair))
}

/// padkit's byte-width kernel (what `pad_tensor` and padkit-burn run), planned per call,
/// into a reused buffer.
fn core_pad_bytes<const N: usize>(w: &Workload, buffers: Shared) -> Job {
    let (shape, spec) = (w.shape.clone(), w.spec.clone());
    Box::new(move || {
        let (src, out) = &mut *buffers.borrow_mut();
        let plan = padkit::Plan::new(&shape, &spec, N).expect("workloads are valid");
        // SAFETY: `run_bytes` writes every byte of `room`, each a copy of an input or fill
        // byte, never an uninitialised one, so `out` stays initialised for the job that
        // shares it.
        let room = unsafe { workload::as_uninit_bytes(out.bytes_mut()) };
        std::hint::black_box(
            plan.run_bytes(src.bytes(), &[0; N], room)
                .expect("workloads are valid"),
        );
    })
}

/// padkit's typed API (`pad_into`) on the workload's element type, into a reused buffer.
fn core_typed<T: padkit::bytemuck::Pod + Send + Sync>(w: &Workload, buffers: Shared) -> Job {
    let (shape, spec) = (w.shape.clone(), w.spec.clone());
    Box::new(move || {
        let (src, out) = &mut *buffers.borrow_mut();
        let input: &[T] = padkit::bytemuck::cast_slice(src.bytes());
        let out: &mut [T] = padkit::bytemuck::cast_slice_mut(out.bytes_mut());
        padkit::pad_into(input, &shape, &spec, T::zeroed(), out).expect("workloads are valid");
        std::hint::black_box(out);
    })
}

/// padkit's allocating API (`pad`) on the workload's element type: a fresh output each
/// call, whose pages the kernel faults in (on huge pages where the system allows).
fn core_fresh<T: padkit::bytemuck::Pod + Send + Sync>(w: &Workload, x: &Tensor) -> Job {
    let src = LineAligned::copy_of(bytes(x));
    let (shape, spec) = (w.shape.clone(), w.spec.clone());
    Box::new(move || {
        let input: &[T] = padkit::bytemuck::cast_slice(src.bytes());
        drop(std::hint::black_box(
            padkit::pad(input, &shape, &spec, T::zeroed()).expect("workloads are valid"),
        ));
    })
}

/// The geometry of a constant pad of the last two axes only: what [`row_loop`] needs.
#[derive(Debug, Clone, Copy)]
struct Rows {
    planes: usize,
    /// Input rows per plane and elements per input row.
    h: usize,
    w: usize,
    /// Output rows per plane and elements per output row.
    oh: usize,
    ow: usize,
    /// Begin pads (negative: crops) of the rows and of the columns.
    top: i64,
    left: i64,
    /// Bytes per element.
    width: usize,
}

impl Rows {
    /// The geometry of `w`, when it is a constant pad of its last two axes only.
    fn of(w: &Workload, width: usize) -> Option<Rows> {
        let r = w.shape.len();
        let pads = w.spec.resolve(r).ok()?;
        let outer_untouched = pads[..r.checked_sub(2)?].iter().all(|p| p.is_identity());
        let no_interior = pads.iter().all(|p| p.interior == 0);
        if w.spec.mode != PadMode::Constant || !outer_untouched || !no_interior {
            return None;
        }
        let out = w.output_shape();
        Some(Rows {
            planes: w.shape[..r - 2].iter().product(),
            h: w.shape[r - 2],
            w: w.shape[r - 1],
            oh: out[r - 2],
            ow: out[r - 1],
            top: pads[r - 2].begin,
            left: pads[r - 1].begin,
            width,
        })
    }
}

/// A hand-written row loop for constant pads of the last two axes (zero fill): each
/// output row is a fill, one `memcpy` of the input row and a fill, or one fill. It is
/// not a peer but a yardstick: what copying row by row costs here, against the floor's
/// single `memcpy` of the same bytes.
fn row_loop(g: Rows, src: &[u8], out: &mut [u8]) {
    let (row_in, row_out) = (g.w * g.width, g.ow * g.width);
    // Output column c reads input column c - left: copy `n` columns from `s0` to `c0`.
    let (c0, s0) = (g.left.max(0) as usize, (-g.left).max(0) as usize);
    let n = g.w.saturating_sub(s0).min(g.ow.saturating_sub(c0));
    let (c0, s0, n) = (c0 * g.width, s0 * g.width, n * g.width);
    for (p, plane) in out.chunks_exact_mut(g.oh * row_out).enumerate() {
        for (ro, row) in plane.chunks_exact_mut(row_out).enumerate() {
            let ri = ro as i64 - g.top;
            if !(0..g.h as i64).contains(&ri) {
                row.fill(0);
                continue;
            }
            let from = (p * g.h + ri as usize) * row_in + s0;
            row[..c0].fill(0);
            row[c0..c0 + n].copy_from_slice(&src[from..from + n]);
            row[c0 + n..].fill(0);
        }
    }
}

fn row_loop_job(g: Rows, x: &Tensor) -> Job {
    let src = LineAligned::copy_of(bytes(x));
    let mut out = LineAligned::zeroed(g.planes * g.oh * g.ow * g.width);
    Box::new(move || {
        row_loop(g, src.bytes(), out.bytes_mut());
        std::hint::black_box(out.bytes_mut());
    })
}

fn tract_plan(model: TypedModel, x: Arc<TractTensor>) -> Job {
    let plan = model.into_runnable().expect("the workload model runs");
    Box::new(move || {
        std::hint::black_box(
            plan.run(tvec!(TValue::from_const(x.clone())))
                .expect("the plan runs"),
        );
    })
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

/// The oldest opset whose Pad takes `spec` with its pads as an input: 19 for wrap, 18 for
/// an `axes` input, else 13.
fn opset_for(spec: &padkit::PadSpec) -> i64 {
    match (spec.mode, &spec.axes) {
        (PadMode::Wrap, _) => 19,
        (_, Some(_)) => 18,
        _ => 13,
    }
}

/// Every implementation that can run `w`.
fn jobs(w: &Workload, x: &Tensor) -> Result<Vec<(String, Job)>> {
    let mut jobs: Vec<(String, Job)> = vec![];
    let width = bytes(x).len() / w.input_len().max(1);
    let buffers = shared(x, w.output_len() * width);
    let (bytes_job, typed, fresh) = match w.dtype {
        DType::UInt8 => (
            core_pad_bytes::<1>(w, buffers.clone()),
            core_typed::<u8>(w, buffers),
            core_fresh::<u8>(w, x),
        ),
        DType::Float16 => (
            core_pad_bytes::<2>(w, buffers.clone()),
            core_typed::<f16>(w, buffers),
            core_fresh::<f16>(w, x),
        ),
        _ => (
            core_pad_bytes::<4>(w, buffers.clone()),
            core_typed::<f32>(w, buffers),
            core_fresh::<f32>(w, x),
        ),
    };
    jobs.push(("padkit-core".into(), bytes_job));
    jobs.push(("padkit-typed".into(), typed));
    jobs.push(("padkit-fresh".into(), fresh));
    if let Some(g) = Rows::of(w, width) {
        jobs.push(("row-loop".into(), row_loop_job(g, x)));
    }
    let tx = crate::tract_engine::to_tract(x)?.into_arc_tensor();
    let opset = opset_for(&w.spec);
    let mut m = PadModel::new(
        opset,
        w.spec.mode.name(),
        x.clone(),
        w.spec.pads.clone(),
        Feed::Initializer,
    );
    if let Some(axes) = &w.spec.axes {
        m = m.with_axes(axes.clone(), Feed::Initializer);
    }
    let typed = padkit_tract::onnx()
        .model_for_proto_model(&m.proto())?
        .into_optimized()?;
    jobs.push(("padkit-tract".into(), tract_plan(typed, tx.clone())));
    let pads = w.spec.resolve(w.shape.len())?;
    let core_mode = match w.spec.mode {
        PadMode::Constant => Some(CoreMode::Constant(Arc::new(TractTensor::zero_scalar_dt(
            tx.datum_type(),
        )?))),
        PadMode::Reflect => Some(CoreMode::Reflect),
        PadMode::Edge => Some(CoreMode::Edge),
        _ => None,
    };
    if let (Some(mode), true) = (core_mode, pads.iter().all(|p| p.begin >= 0 && p.end >= 0)) {
        let mut model = TypedModel::default();
        let src = model.add_source("x", tx.datum_type().fact(tx.shape()))?;
        let op = CorePad::new(
            pads.iter()
                .map(|p| (p.begin as usize, p.end as usize))
                .collect(),
            mode,
        );
        let out = model.wire_node("pad", op, &[src])?;
        model.select_output_outlets(&out)?;
        jobs.push(("tract-core".into(), tract_plan(model, tx)));
    }
    match w.shape.len() {
        1 => burn_jobs::<1>(w, x, &mut jobs),
        3 => burn_jobs::<3>(w, x, &mut jobs),
        _ => burn_jobs::<4>(w, x, &mut jobs),
    }
    Ok(jobs)
}

/// Times every job `rounds` times, in an order shuffled each round from `seed`; returns
/// each job's median time and median ratio to job 0 (the floor, or stock tract) of the
/// same round.
fn measure(jobs: &mut [(String, Job)], reps: usize, rounds: usize, seed: u64) -> Vec<(f64, f64)> {
    let time = |f: &mut Job| {
        f(); // warm
        let t = Instant::now();
        (0..reps).for_each(|_| f());
        t.elapsed().as_secs_f64() / reps as f64
    };
    // A job pays for what the job before it left in the caches, so no implementation may
    // always follow the same one, as it would under a rotation.
    let mut samples = vec![vec![]; jobs.len()];
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    for _ in 0..rounds {
        order.shuffle(&mut rng);
        for &i in &order {
            samples[i].push(time(&mut jobs[i].1));
        }
    }
    let floors = samples[0].clone();
    samples
        .into_iter()
        .map(|s| {
            let ratios = s.iter().zip(&floors).map(|(t, f)| t / f).collect();
            (median(s), median(ratios))
        })
        .collect()
}

/// What `padkit bench` was asked to do.
pub struct Options<'a> {
    /// Skip the largest workloads and run fewer rounds.
    pub quick: bool,
    /// One JSON object per (workload, implementation).
    pub json: bool,
    /// Only the workloads whose name starts with this.
    pub only: Option<&'a str>,
    /// Independent measurements (each of 12 shuffled rounds) whose medians are
    /// summarised by their median and range.
    pub runs: usize,
}

/// Times W1–W8 for every implementation and prints one row per (workload,
/// implementation): the median time and the ratio to the floor of the same round, as the
/// median (and range) over `runs` measurements.
pub fn run(o: &Options) -> Result<()> {
    // The targets are for one thread: padkit's parallel paths stay off.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
    let rounds = if o.quick { 3 } else { 12 };
    let mut rows = vec![];
    for w in workload::all() {
        if (o.quick && w.output_len() > 32 << 20) || o.only.is_some_and(|p| !w.name.starts_with(p))
        {
            continue;
        }
        eprint!("\r{:<12}", w.name);
        let x = input(&w);
        let width = bytes(&x).len() / w.input_len().max(1);
        let mut jobs = jobs(&w, &x)?;
        jobs.insert(0, ("floor".into(), floor(&x, w.output_len() * width)));
        let reps = if w.output_len() < 1 << 12 { 2000 } else { 1 };
        let runs: Vec<Vec<(f64, f64)>> = (0..o.runs.max(1) as u64)
            .map(|r| measure(&mut jobs, reps, rounds, 0x5eed + r))
            .collect();
        for (j, (name, _)) in jobs.iter().enumerate() {
            let mut ratios: Vec<f64> = runs.iter().map(|m| m[j].1).collect();
            ratios.sort_by(f64::total_cmp);
            rows.push(Row {
                workload: w.name.clone(),
                implementation: name.clone(),
                median_seconds: median(runs.iter().map(|m| m[j].0).collect()),
                ratio_to_floor: median(ratios.clone()),
                ratio_range: (ratios[0], ratios[ratios.len() - 1]),
            });
        }
    }
    eprintln!();
    for r in &rows {
        if o.json {
            println!(
                "{{\"workload\":\"{}\",\"implementation\":\"{}\",\"median_seconds\":{:e},\"ratio_to_floor\":{:.3},\"ratio_min\":{:.3},\"ratio_max\":{:.3}}}",
                r.workload,
                r.implementation,
                r.median_seconds,
                r.ratio_to_floor,
                r.ratio_range.0,
                r.ratio_range.1
            );
        } else {
            println!(
                "{:<14} {:<14} {:>12.1} µs  ×{:.2} ({:.2}–{:.2})",
                r.workload,
                r.implementation,
                r.median_seconds * 1e6,
                r.ratio_to_floor,
                r.ratio_range.0,
                r.ratio_range.1
            );
        }
    }
    Ok(())
}

/// One whole model timed: padkit-tract against stock tract-onnx.
struct ModelRow {
    model: String,
    stock_seconds: Option<f64>,
    padkit_seconds: f64,
    ratio: Option<(f64, f64, f64)>,
    nodes: (usize, Option<usize>),
    stock_error: Option<String>,
}

/// Times whole models (every case below `dirs`, on its first data set): padkit-tract's
/// optimised plan against stock tract-onnx's, built the same way (input facts from the
/// data) and run in the same rounds; ratio = padkit ÷ stock of the same round, median and
/// range over `runs` measurements. Also counts the optimised graphs' nodes.
pub fn models(dirs: &[std::path::PathBuf], runs: usize, json: bool) -> Result<()> {
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global();
    let mut rows = vec![];
    for d in dirs {
        for case in crate::conformance::find_cases(d)? {
            eprint!("\r{:<60}", case.display());
            let model = crate::conformance::read_model(&case.join("model.onnx"))?;
            let inputs = crate::conformance::numbered(&case.join("test_data_set_0"), "input")?;
            let feeds = inputs
                .iter()
                .map(crate::tract_engine::to_tract)
                .collect::<Result<TVec<_>>>()?;
            let optimize = |f| crate::tract_engine::optimize(f, &model, &feeds);
            let padkit = optimize(padkit_tract::onnx())?;
            let stock = optimize(tract_onnx::onnx());
            let plan = |m: TypedModel| -> Result<Job> {
                let plan = m.into_runnable()?;
                let feeds = feeds.clone();
                Ok(Box::new(move || {
                    let inputs = feeds.iter().map(|t| t.clone().into_tvalue()).collect();
                    std::hint::black_box(plan.run(inputs).expect("the model ran once already"));
                }))
            };
            let padkit_nodes = padkit.nodes().len();
            let mut row = ModelRow {
                model: case.display().to_string(),
                stock_seconds: None,
                padkit_seconds: 0.0,
                ratio: None,
                nodes: (padkit_nodes, stock.as_ref().ok().map(|m| m.nodes().len())),
                stock_error: stock.as_ref().err().map(|e| format!("{e:#}")),
            };
            let mut jobs: Vec<(String, Job)> = vec![];
            if let Ok(stock) = stock {
                jobs.push(("stock".into(), plan(stock)?));
            }
            jobs.push(("padkit".into(), plan(padkit)?));
            // Enough calls per sample to last about 20 ms.
            let once = Instant::now();
            (jobs[0].1)();
            let reps = ((0.02 / once.elapsed().as_secs_f64()) as usize).clamp(1, 1000);
            let measured: Vec<Vec<(f64, f64)>> = (0..runs.max(1) as u64)
                .map(|r| measure(&mut jobs, reps, 12, 0x5eed + r))
                .collect();
            let last = jobs.len() - 1;
            row.padkit_seconds = median(measured.iter().map(|m| m[last].0).collect());
            if last == 1 {
                let mut ratios: Vec<f64> = measured.iter().map(|m| m[1].1).collect();
                ratios.sort_by(f64::total_cmp);
                row.stock_seconds = Some(median(measured.iter().map(|m| m[0].0).collect()));
                row.ratio = Some((median(ratios.clone()), ratios[0], ratios[ratios.len() - 1]));
            }
            rows.push(row);
        }
    }
    eprintln!();
    for r in &rows {
        let stock = r.stock_seconds.map_or("null".into(), |s| format!("{s:e}"));
        let (ratio, lo, hi) = r.ratio.map_or(
            ("null".into(), "null".into(), "null".into()),
            |(m, l, h)| (format!("{m:.3}"), format!("{l:.3}"), format!("{h:.3}")),
        );
        if json {
            println!(
                "{{\"model\":{:?},\"padkit_seconds\":{:e},\"stock_seconds\":{stock},\"ratio\":{ratio},\"ratio_min\":{lo},\"ratio_max\":{hi},\"nodes\":{},\"stock_nodes\":{}}}",
                r.model,
                r.padkit_seconds,
                r.nodes.0,
                r.nodes.1.map_or("null".into(), |n| n.to_string())
            );
        } else {
            let against = match (&r.ratio, &r.stock_error) {
                (Some(_), _) => format!(
                    "×{ratio} ({lo}–{hi}) of stock {:.3} ms",
                    r.stock_seconds.unwrap_or(0.0) * 1e3
                ),
                (None, Some(e)) => format!(
                    "stock tract fails: {}",
                    e.chars().take(120).collect::<String>()
                ),
                _ => String::new(),
            };
            println!(
                "{:<60} {:>9.3} ms  nodes {}/{}  {against}",
                r.model,
                r.padkit_seconds * 1e3,
                r.nodes.0,
                r.nodes.1.map_or("-".into(), |n| n.to_string())
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_loop_pads_like_padkit() {
        let shapes_pads: [(&[usize], Vec<i64>); 4] = [
            (&[2, 3, 4, 5], vec![0, 0, 2, 1, 0, 0, 1, 3]),
            (&[2, 3, 4, 5], vec![0, 0, -1, -2, 0, 0, -1, -1]),
            (&[3, 4, 5], vec![0, -3, 2, 0, 1, -2]),
            (&[1, 2, 3], vec![0, 0, 4, 0, 0, -3]),
        ];
        for (shape, pads) in shapes_pads {
            for (width, dtype) in [(1, DType::UInt8), (4, DType::Float32)] {
                let w = Workload {
                    name: "small".into(),
                    shape: shape.to_vec(),
                    dtype,
                    spec: padkit::PadSpec::new(pads.clone()),
                };
                let x = input(&w);
                let g = Rows::of(&w, width).expect("a constant pad of the last two axes");
                let mut out = vec![7; w.output_len() * width];
                row_loop(g, bytes(&x), &mut out);
                let (_, expected) =
                    padkit::pad_bytes(bytes(&x), width, shape, &w.spec, &vec![0; width]).unwrap();
                assert_eq!(out, expected, "{shape:?} {pads:?} width {width}");
            }
        }
    }

    #[test]
    fn every_workload_gets_an_opset_that_accepts_it() {
        for w in workload::all() {
            let opset = opset_for(&w.spec);
            assert!(
                padkit::onnx::modes_for(opset).contains(&w.spec.mode),
                "{}",
                w.name
            );
            assert!(w.spec.axes.is_none() || opset >= 18, "{}", w.name);
        }
    }
}
