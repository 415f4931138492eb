//! Judging an engine's run against the expected outputs, and counting verdicts.

use anyhow::Result;
use padkit::Tensor;

use crate::engine::Outcome;
use crate::report::first_difference;

/// What became of one case on one engine.
pub enum Verdict {
    Pass,
    Fail(String),
    Skip(String),
}

/// Counts of verdicts.
#[derive(Debug, Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Tally {
    pub fn record(&mut self, v: &Verdict) {
        match v {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(_) => self.failed += 1,
            Verdict::Skip(_) => self.skipped += 1,
        }
    }
}

/// Compares every output exactly with `expected` (bit-exact, NaN-aware).
pub fn judge(run: Result<Outcome>, expected: &[Tensor]) -> Verdict {
    let outs = match run {
        Err(e) => return Verdict::Fail(format!("{e:#}")),
        Ok(Outcome::Unsupported(why)) => return Verdict::Skip(why),
        Ok(Outcome::Ran(outs)) => outs,
    };
    if outs.len() != expected.len() {
        return Verdict::Fail(format!(
            "{} outputs, expected {}",
            outs.len(),
            expected.len()
        ));
    }
    let diff = outs.iter().zip(expected).find_map(|((name, got), want)| {
        first_difference(got, want).map(|d| format!("output {name:?}: {d}"))
    });
    diff.map_or(Verdict::Pass, Verdict::Fail)
}
