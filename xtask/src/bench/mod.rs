//! `cargo xtask bench`: the workloads W1–W8 timed in one process, one thread, for every
//! implementation, each as a ratio to the memcpy floor (copy the input's bytes, fill the
//! rest of the output) timed in the same round. Each implementation's jobs live in a file
//! of their own (`core_jobs`, `row_loop`, `tract_jobs`, `burn_jobs`): adding one is a file
//! and a line in `jobs`.

mod buffers;
mod burn_jobs;
mod core_jobs;
mod models;
mod row_loop;
mod timing;
mod tract_jobs;
mod workloads;

use anyhow::Result;
use padkit::Tensor;
use workloads::{self as workload, Workload};

use buffers::{bytes, floor, input};
pub use models::models;
use timing::{measure, median};

/// One timed implementation: a closure doing the workload once.
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

/// Every implementation that can run `w`.
fn jobs(w: &Workload, x: &Tensor) -> Result<Vec<(String, Job)>> {
    let mut jobs: Vec<(String, Job)> = vec![];
    core_jobs::push(w, x, &mut jobs);
    row_loop::push(w, x, &mut jobs);
    tract_jobs::push(w, x, &mut jobs)?;
    burn_jobs::push(w, x, &mut jobs);
    Ok(jobs)
}

/// What `cargo xtask bench` was asked to do.
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
