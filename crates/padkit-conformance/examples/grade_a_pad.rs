//! Grades a small pad written for this example (constant and edge modes on `f32`, any
//! rank, no crops, no axes subset, no interior padding) against padkit's catalogue, and
//! prints the matrix.
//!
//! `cargo run -p padkit-conformance --example grade_a_pad`

use padkit::{DType, PadMode, Tensor};
use padkit_conformance::{Answer, Case, Report, Size, Verdict, cases};

/// The pad under test: each output index maps back to an input index per axis.
fn my_pad(x: &[f32], shape: &[usize], pads: &[usize], edge: bool, fill: f32) -> Vec<f32> {
    let rank = shape.len();
    let out_shape: Vec<usize> = (0..rank)
        .map(|a| shape[a] + pads[a] + pads[rank + a])
        .collect();
    let total: usize = out_shape.iter().product();
    let mut out = Vec::with_capacity(total);
    for flat in 0..total {
        let (mut rest, mut src, mut stride, mut inside) = (flat, 0, 1, true);
        for a in (0..rank).rev() {
            let i = (rest % out_shape[a]) as i64 - pads[a] as i64;
            rest /= out_shape[a];
            let n = shape[a] as i64;
            let j = if edge { i.clamp(0, n - 1) } else { i };
            inside &= (0..n).contains(&j);
            src += j.max(0) as usize * stride;
            stride *= shape[a];
        }
        out.push(if inside { x[src] } else { fill });
    }
    out
}

/// The adapter: what the pad does not support, it says so; the rest it runs.
fn answer(case: &Case) -> Answer {
    let edge = case.mode == PadMode::Edge;
    if !(edge || case.mode == PadMode::Constant) || case.input.dtype() != DType::Float32 {
        return Answer::Unsupported("constant and edge on f32 only".into());
    }
    let rank = case.input.shape().len();
    if case.axes.is_some() || case.pads.len() != 2 * rank || case.pads.iter().any(|&p| p < 0) {
        return Answer::Unsupported("non-negative pads on every axis only".into());
    }
    if case.interior.is_some() {
        return Answer::Unsupported("no interior padding".into());
    }
    let shape = case.input.shape();
    let pads_empty_axis =
        (0..rank).any(|a| shape[a] == 0 && (case.pads[a] > 0 || case.pads[rank + a] > 0));
    if edge && pads_empty_axis {
        return Answer::Error("edge padding of an empty axis".into());
    }
    if case.pads.iter().any(|&p| p > 1 << 20) {
        return Answer::Error("pads above 2^20".into());
    }
    let pads: Vec<usize> = case.pads.iter().map(|&p| p as usize).collect();
    let (x, fill) = (
        case.input.to_vec::<f32>().unwrap(),
        case.fill.to_vec::<f32>().unwrap()[0],
    );
    let y = my_pad(&x, case.input.shape(), &pads, edge, fill);
    let shape = (0..rank).map(|a| case.input.shape()[a] + pads[a] + pads[rank + a]);
    Answer::Output(Tensor::from_slice(&shape.collect::<Vec<_>>(), &y).unwrap())
}

fn main() {
    let cases: Vec<Case> = cases(Size::Small)
        .into_iter()
        .filter(|c| !c.has_tag("onnx-signature"))
        .collect();
    let mut report = Report::new(&[]);
    report.run(&cases, "my_pad", answer);
    println!("{}", report.markdown(&["feature", "mode"], 5));
    // Every case my_pad does not pass, it declared unsupported: no wrong answer, no crash,
    // and no refusal of a case it should run.
    let undeclared: Vec<&str> = report
        .cases
        .iter()
        .filter(|c| {
            c.results
                .get("my_pad")
                .is_some_and(|v| *v != Verdict::Pass && !v.is_unsupported())
        })
        .map(|c| c.name.as_str())
        .collect();
    assert!(
        undeclared.is_empty(),
        "my_pad failed cases it does not declare unsupported: {undeclared:?}"
    );
    assert!(
        report.cell(None, "my_pad").pass > 0,
        "my_pad passed nothing"
    );
}
