//! The built-in self-check: the small conformance suite (padkit-conformance's
//! `Size::Small`: every mode × feature on `float` at the versions that changed Pad's
//! signature and on `int64` at the newest, the plain pad of every type, padkit's own
//! Pad) as ONNX models, through every engine, each answer graded against the naive
//! reference's (the independent oracle padkit's own tests use).

use std::collections::HashMap;

use padkit_conformance::{Expected, Report, Size, Verdict, cases, credit_error};

use padkit::memory::default_max_output_bytes;
use padkit_engines::verdict::{Expect, Tally, judge};
use padkit_engines::{self as engine, Engine};
use padkit_onnx_tools::model::PadModel;

/// Runs the suite; prints progress, then the feature × engine matrix and returns the
/// tally. A case that must fail passes on an engine's error only where that engine passes
/// the case's valid twin ([`credit_error`]).
pub fn run(engines: &[Engine]) -> Tally {
    let cases = cases(Size::Small);
    let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
    let mut report = Report::new(&names);
    let mut tally = Tally::default();
    let limit = default_max_output_bytes();
    // Each engine's verdicts by case name, for the cases whose twin they are.
    let mut verdicts: HashMap<(&str, &str), Verdict> = HashMap::new();
    for (i, case) in cases.iter().enumerate() {
        eprint!("\r[{}/{}] {:<64}", i + 1, cases.len(), case.name);
        let model = PadModel::from_case(case);
        let (proto, inputs) = (model.proto(), model.inputs());
        let class = match &case.expected {
            Expected::Output(_) => None,
            Expected::Error(refusal) => Some(refusal.class()),
        };
        for &e in engines {
            let expect = match (&case.expected, &class) {
                (Expected::Output(y), _) => Expect::Outputs(std::slice::from_ref(y)),
                (Expected::Error(_), class) => {
                    Expect::Error(class.as_deref().unwrap_or_default(), e.class_check())
                }
            };
            let run = engine::run(e, &proto, &inputs, engine::RunSettings::new(limit));
            let mut verdict = judge(run, expect, None);
            if let Some(twin) = &case.twin {
                verdict = credit_error(verdict, twin, verdicts.get(&(twin.as_str(), e.name())));
            }
            tally.record(&verdict);
            verdicts.insert((case.name.as_str(), e.name()), verdict.clone());
            report.record(&case.name, &case.tags, e.name(), verdict);
        }
    }
    eprintln!();
    print!("{}", report.table());
    tally
}
