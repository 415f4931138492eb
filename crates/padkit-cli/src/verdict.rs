//! Judging an engine's run against the expected outputs, and counting verdicts.

use anyhow::Result;
use padkit::Tensor;

use crate::graph::Outcome;
use crate::names::printable;
use padkit_conformance::compare::{Tolerance, first_difference};

/// What became of one case on one engine.
pub enum Verdict {
    /// Every output matched.
    Pass,
    /// Something differed or failed, and what.
    Fail(String),
    /// The engine cannot hold the case, and why.
    Skip(String),
}

/// Counts of verdicts.
#[derive(Debug, Default)]
pub struct Tally {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases an engine could not hold.
    pub skipped: usize,
}

impl Tally {
    /// Counts one verdict.
    pub fn record(&mut self, v: &Verdict) {
        match v {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(_) => self.failed += 1,
            Verdict::Skip(_) => self.skipped += 1,
        }
    }
}

/// Compares every output with `expected`: exactly (bit-exact, NaN-aware), or within
/// `tolerance` for float outputs when one is given.
pub fn judge(run: Result<Outcome>, expected: &[Tensor], tolerance: Option<Tolerance>) -> Verdict {
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
        first_difference(got, want, tolerance).map(|d| format!("output {:?}: {d}", printable(name)))
    });
    diff.map_or(Verdict::Pass, Verdict::Fail)
}
