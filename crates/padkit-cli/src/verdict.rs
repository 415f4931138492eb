//! Judging an engine's run against what a case expects, and counting verdicts.

use anyhow::Result;
use padkit::Tensor;
use padkit_conformance::Verdict;
use padkit_conformance::compare::{Tolerance, first_difference};

use padkit_onnx::graph::Outcome;
use padkit_onnx::isolate::Panicked;
use padkit_onnx::names::printable;

/// What a case expects of an engine.
#[derive(Debug, Clone, Copy)]
pub enum Expect<'a> {
    /// These outputs, in order.
    Outputs(&'a [Tensor]),
    /// An error (any clear error passes), of the class named here.
    Error(&'a str),
}

/// Counts of verdicts, as the CLI prints them.
#[derive(Debug, Default)]
pub struct Tally {
    /// Cases that passed.
    pub passed: usize,
    /// Cases answered wrong, crashed on, or refused with an error where an output was due.
    pub failed: usize,
    /// Cases an engine declared it cannot hold (an element type it lacks, …).
    pub skipped: usize,
}

impl Tally {
    /// Counts one verdict.
    pub fn record(&mut self, v: &Verdict) {
        match v {
            Verdict::Pass => self.passed += 1,
            v if v.is_unsupported() => self.skipped += 1,
            _ => self.failed += 1,
        }
    }
}

/// Grades a run: an error is a pass where the case must fail and a refusal otherwise (a
/// crash when it is a caught panic); outputs are compared exactly (bit-exact, NaN-aware),
/// or within `tolerance` for float outputs when one is given.
pub fn judge(run: Result<Outcome>, expect: Expect, tolerance: Option<Tolerance>) -> Verdict {
    let (outs, expected) = match (run, expect) {
        (Err(e), _) if e.chain().any(|c| c.is::<Panicked>()) => {
            return Verdict::Crash(format!("{e:#}"));
        }
        (Err(_), Expect::Error(_)) => return Verdict::Pass,
        (Err(e), Expect::Outputs(_)) => return Verdict::Refused(format!("{e:#}")),
        (Ok(Outcome::Unsupported(why)), _) => {
            return Verdict::Refused(format!("{}{why}", padkit_conformance::grade::UNSUPPORTED));
        }
        (Ok(Outcome::Ran(outs)), Expect::Error(class)) => {
            let shapes: Vec<_> = outs.iter().map(|(_, t)| t.shape().to_vec()).collect();
            return Verdict::Wrong(format!(
                "gave outputs of shapes {shapes:?} where the case must fail ({class})"
            ));
        }
        (Ok(Outcome::Ran(outs)), Expect::Outputs(expected)) => (outs, expected),
    };
    if outs.len() != expected.len() {
        return Verdict::Wrong(format!(
            "{} outputs, expected {}",
            outs.len(),
            expected.len()
        ));
    }
    let diff = outs.iter().zip(expected).find_map(|((name, got), want)| {
        first_difference(got, want, tolerance).map(|d| format!("output {:?}: {d}", printable(name)))
    });
    diff.map_or(Verdict::Pass, Verdict::Wrong)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unsupported_refusals_are_skips() {
        use padkit_conformance::Verdict;
        let mut t = crate::verdict::Tally::default();
        t.record(&Verdict::Refused("no".into()));
        t.record(&Verdict::Refused("unsupported: no int4".into()));
        assert_eq!((t.passed, t.failed, t.skipped), (0, 1, 1));
    }
}
