//! `cargo xtask bench-models`: whole models, padkit-tract against stock tract-onnx.

use std::time::Instant;

use anyhow::Result;
use tract_onnx::prelude::*;

use super::Job;
use super::timing::{measure, median};

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
        for case in padkit_onnx_tools::data::find_cases(d)? {
            eprint!("\r{:<60}", case.display());
            let model = padkit_onnx_tools::data::read_model(&case.join("model.onnx"))?;
            let inputs = padkit_onnx_tools::data::numbered(&case.join("test_data_set_0"), "input")?;
            let feeds = inputs
                .iter()
                .map(padkit_tract::to_tract)
                .collect::<Result<TVec<_>>>()?;
            let optimize = |f| padkit_engines::tract::optimize(f, &model, &feeds);
            let padkit = optimize(padkit_engines::tract::padkit_framework())?;
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
