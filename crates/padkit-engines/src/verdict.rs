//! Judging an engine's run against what a case expects, and counting verdicts.

use anyhow::Result;
use padkit::{PadError, Tensor};
use padkit_conformance::compare::Tolerance;
use padkit_conformance::grade::{self, Classed, Run, Want};
use padkit_conformance::{Refusal, Verdict};

use crate::pad_graph::Outcome;
use padkit_onnx_tools::isolate::Panicked;

/// What a case expects of an engine.
#[derive(Debug, Clone, Copy)]
pub enum Expect<'a> {
    /// These outputs, in order.
    Outputs(&'a [Tensor]),
    /// An error of the class named here ([`Refusal::class`]), checked as the
    /// [`ClassCheck`] says.
    Error(&'a str, ClassCheck),
}

/// How the class of an engine's error is checked where a case must fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassCheck {
    /// Any clear error passes (the stock engines, which know nothing of padkit's classes).
    Any,
    /// The error must be of the case's class: a [`PadError`] of that class in its chain
    /// ([`Refusal::class_of_error`]); an error without one is of no class.
    Strict,
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
    /// Cases that put the engine to no test: an error on a case that must fail, from an
    /// engine that does not pass the case's valid twin. Not a wrong answer, so not a
    /// failure.
    pub untested: usize,
}

impl Tally {
    /// Counts one verdict.
    pub fn record(&mut self, v: &Verdict) {
        match v {
            Verdict::Pass => self.passed += 1,
            Verdict::Untested(_) => self.untested += 1,
            Verdict::Unsupported(_) => self.skipped += 1,
            _ => self.failed += 1,
        }
    }

    /// The summary line: `N passed, N failed, N skipped`, then `, N untested` where some
    /// are.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        );
        if self.untested > 0 {
            line.push_str(&format!(", {} untested", self.untested));
        }
        line
    }

    /// True when no verdict passed or failed: every case was skipped or untested, or
    /// there was none.
    pub fn tested_nothing(&self) -> bool {
        self.passed == 0 && self.failed == 0
    }
}

/// Grades a run by padkit's one rule ([`padkit_conformance::grade::judge`]): a caught panic
/// is a crash, and an error's class is read from the [`PadError`] in its chain where
/// [`Expect::Error`]'s [`ClassCheck`] asks for it.
pub fn judge(run: Result<Outcome>, expect: Expect, tolerance: Option<Tolerance>) -> Verdict {
    let (want, check) = match expect {
        Expect::Outputs(outputs) => (Want::Outputs(outputs), ClassCheck::Any),
        Expect::Error(class, check) => (Want::Error(class), check),
    };
    let run = match run {
        Err(e) if e.chain().any(|c| c.is::<Panicked>()) => Run::Crash(format!("{e:#}")),
        Err(e) => {
            let classed = match check {
                ClassCheck::Any => Classed::Unchecked,
                ClassCheck::Strict => Classed::Class(
                    e.chain()
                        .find_map(|c| c.downcast_ref::<PadError>())
                        .and_then(Refusal::class_of_error),
                ),
            };
            Run::Error(format!("{e:#}"), classed)
        }
        Ok(Outcome::Unsupported(why)) => Run::Unsupported(why),
        Ok(Outcome::Ran(outs)) => Run::Outputs(outs),
    };
    grade::judge(want, run, tolerance)
}

#[cfg(test)]
mod tests {
    use anyhow::Context;
    use padkit::PadSpec;
    use padkit_conformance::Verdict;

    use super::{ClassCheck, Expect, judge};
    use crate::verdict::Tally;

    #[test]
    fn unsupported_refusals_are_skips() {
        let mut t = Tally::default();
        t.record(&Verdict::Refused("no".into()));
        t.record(&Verdict::Unsupported("no int4".into()));
        assert_eq!((t.passed, t.failed, t.skipped), (0, 1, 1));
    }

    #[test]
    fn untested_is_counted_apart_and_shown_only_when_some_are() {
        let mut t = Tally::default();
        t.record(&Verdict::Pass);
        assert_eq!(t.line(), "1 passed, 0 failed, 0 skipped");
        t.record(&Verdict::Untested("twin refused".into()));
        assert_eq!((t.passed, t.failed, t.skipped, t.untested), (1, 0, 0, 1));
        assert_eq!(t.line(), "1 passed, 0 failed, 0 skipped, 1 untested");
        assert!(!t.tested_nothing());
        let mut none = Tally::default();
        none.record(&Verdict::Untested("twin refused".into()));
        none.record(&Verdict::Unsupported("no int4".into()));
        assert!(none.tested_nothing());
    }

    /// A padkit error of the spec (pads of the wrong length) behind a context, as the
    /// core and burn engines raise them.
    fn pads_length() -> anyhow::Error {
        PadSpec::new(vec![1])
            .resolve(1)
            .map(drop)
            .context("Pad node \"p\"")
            .unwrap_err()
    }

    #[test]
    fn an_error_passes_only_when_of_the_cases_class() {
        let strict = |e, class| judge(Err(e), Expect::Error(class, ClassCheck::Strict), None);
        assert_eq!(strict(pads_length(), "PadsLength"), Verdict::Pass);
        let wrong = strict(pads_length(), "Crop");
        assert_eq!(wrong.name(), "wrong");
        assert!(
            wrong
                .detail()
                .starts_with("failed with PadsLength (Pad node \"p\": pads has 1")
                && wrong
                    .detail()
                    .ends_with("where the case must fail with Crop"),
            "{wrong:?}"
        );
        // An error without a padkit error in its chain is of no class, not even a
        // signature break's.
        let plain = || anyhow::anyhow!("the model has no graph");
        assert_eq!(strict(plain(), "Crop").name(), "wrong");
        assert_eq!(strict(plain(), "Signature").name(), "wrong");
        assert_eq!(strict(pads_length(), "Signature").name(), "wrong");
        let wrap = || anyhow::Error::new(padkit::onnx::parse_mode("wrap", 18).unwrap_err());
        assert_eq!(strict(wrap(), "Signature"), Verdict::Pass);
        // The stock engines' errors are not classed.
        let any = |e| judge(Err(e), Expect::Error("Crop", ClassCheck::Any), None);
        assert_eq!(any(pads_length()), Verdict::Pass);
        assert_eq!(any(plain()), Verdict::Pass);
    }
}
