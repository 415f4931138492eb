//! The built-in self-check: the small conformance suite (padkit-conformance's
//! `Size::Small`: every mode × feature on `float` at the versions that changed Pad's
//! signature and on `int64` at the newest, the plain pad of every type, padkit's own
//! Pad) as ONNX models, through every engine, each answer graded against the naive
//! reference's (the independent oracle padkit's own tests use).

use padkit_conformance::{Expected, Report, Size, cases};

use crate::engine::{self, Engine};
use crate::limits::default_max_output_bytes;
use crate::verdict::{Expect, Tally, judge};
use padkit_onnx::model::PadModel;

/// Runs the suite; prints progress, then the feature × engine matrix and returns the
/// tally.
pub fn run(engines: &[Engine]) -> Tally {
    let cases = cases(Size::Small);
    let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
    let mut report = Report::new(&names);
    let mut tally = Tally::default();
    let limit = default_max_output_bytes();
    for (i, case) in cases.iter().enumerate() {
        eprint!("\r[{}/{}] {:<64}", i + 1, cases.len(), case.name);
        let model = PadModel::from_case(case);
        let (proto, inputs) = (model.proto(), model.inputs());
        let class;
        let expect = match &case.expected {
            Expected::Output(y) => Expect::Outputs(std::slice::from_ref(y)),
            Expected::Error(refusal) => {
                class = refusal.class();
                Expect::Error(&class)
            }
        };
        for &e in engines {
            let verdict = judge(engine::run(e, &proto, &inputs, limit), expect, None);
            tally.record(&verdict);
            report.record(&case.name, &case.tags, e.name(), verdict);
        }
    }
    eprintln!();
    print!("{}", report.table());
    tally
}
