//! Grading an engine's answer to a case: pass, refused (a clear error), wrong (another
//! output, or an output where the case must fail) or crash.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use padkit::Tensor;
use serde::{Deserialize, Serialize};

use crate::case::{Case, Expected};
use crate::compare::first_difference;

/// What an engine made of a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// It ran and gave this output.
    Output(Tensor),
    /// It refused the case with this error.
    Error(String),
    /// It does not support what the case needs (an element type, a mode, negative
    /// pads, …), and why: the case counts as refused, whatever it expects.
    Unsupported(String),
    /// It panicked, aborted or hung, and how.
    Crash(String),
}

/// The grade of one answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", content = "detail", rename_all = "lowercase")]
pub enum Verdict {
    /// The expected output, or an error where the case must fail.
    Pass,
    /// A clear refusal where an output was expected (or any case declared unsupported).
    Refused(String),
    /// Another output than expected, or an output where the case must fail.
    Wrong(String),
    /// A panic, an abort or a hang.
    Crash(String),
    /// The engine was not put to the test, and why: the harness cannot feed the case to
    /// it (a type its binding cannot hold), or the case must fail and the engine does not
    /// pass the case's valid twin, so its error cannot be credited to the rule the case
    /// tests.
    Untested(String),
}

impl Verdict {
    /// `pass`, `refused`, `wrong`, `crash` or `untested`.
    ///
    /// ```
    /// assert_eq!(padkit_conformance::Verdict::Pass.name(), "pass");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Refused(_) => "refused",
            Verdict::Wrong(_) => "wrong",
            Verdict::Crash(_) => "crash",
            Verdict::Untested(_) => "untested",
        }
    }

    /// True for a refusal an engine declared with [`Answer::Unsupported`] (not an error
    /// it raised).
    ///
    /// ```
    /// use padkit_conformance::{Answer, Size, cases, grade};
    /// let case = &cases(Size::Small)[0];
    /// assert!(grade(case, Answer::Unsupported("no f32".into())).is_unsupported());
    /// assert!(!grade(case, Answer::Error("no".into())).is_unsupported());
    /// ```
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Verdict::Refused(why) if why.starts_with(UNSUPPORTED))
    }

    /// What happened, empty for a pass.
    ///
    /// ```
    /// use padkit_conformance::Verdict;
    /// assert_eq!(Verdict::Refused("no int4".into()).detail(), "no int4");
    /// ```
    pub fn detail(&self) -> &str {
        match self {
            Verdict::Pass => "",
            Verdict::Refused(d) | Verdict::Wrong(d) | Verdict::Crash(d) | Verdict::Untested(d) => d,
        }
    }
}

/// How a refusal of an [`Answer::Unsupported`] begins.
///
/// ```
/// use padkit_conformance::{Answer, Size, cases, grade};
/// let v = grade(&cases(Size::Small)[0], Answer::Unsupported("no f32".into()));
/// assert_eq!(v.detail(), format!("{}no f32", padkit_conformance::grade::UNSUPPORTED));
/// ```
pub const UNSUPPORTED: &str = "unsupported: ";

/// Grades `answer` against what `case` expects.
///
/// ```
/// use padkit_conformance::{Answer, Expected, Size, Verdict, cases, grade};
/// let case = &cases(Size::Small)[0];
/// let Expected::Output(want) = &case.expected else { unreachable!() };
/// assert_eq!(grade(case, Answer::Output(want.clone())), Verdict::Pass);
/// assert_eq!(grade(case, Answer::Error("no".into())).name(), "refused");
/// ```
pub fn grade(case: &Case, answer: Answer) -> Verdict {
    match (&case.expected, answer) {
        (_, Answer::Crash(why)) => Verdict::Crash(why),
        (_, Answer::Unsupported(why)) => Verdict::Refused(format!("{UNSUPPORTED}{why}")),
        (Expected::Output(_), Answer::Error(why)) => Verdict::Refused(why),
        (Expected::Error(_), Answer::Error(_)) => Verdict::Pass,
        (Expected::Error(refusal), Answer::Output(got)) => Verdict::Wrong(format!(
            "gave an output of shape {:?} where the case must fail ({})",
            got.shape(),
            refusal.class()
        )),
        (Expected::Output(want), Answer::Output(got)) => {
            first_difference(&got, want, None).map_or(Verdict::Pass, Verdict::Wrong)
        }
    }
}

/// The verdict of a case that must fail, given its valid twin's verdict on the same
/// engine. An error passes only where the engine passes the twin (the same model with the
/// one offending detail corrected), so that an engine which cannot run such a model at all
/// earns no pass for refusing this one. A twin the engine declared unsupported makes the
/// case unsupported too; a twin it did not pass, or that did not run, leaves the case
/// [`Verdict::Untested`]. Other verdicts (a wrong output, a crash) stand as they are.
///
/// ```
/// use padkit_conformance::{Verdict, grade::credit_error};
/// let refused = Verdict::Refused("no such opset".into());
/// assert_eq!(credit_error(Verdict::Pass, "t", Some(&Verdict::Pass)), Verdict::Pass);
/// assert_eq!(credit_error(Verdict::Pass, "t", Some(&refused)).name(), "untested");
/// assert_eq!(credit_error(Verdict::Pass, "t", None).name(), "untested");
/// let wrong = Verdict::Wrong("gave an output".into());
/// assert_eq!(credit_error(wrong.clone(), "t", Some(&Verdict::Pass)), wrong);
/// ```
pub fn credit_error(verdict: Verdict, twin: &str, twin_verdict: Option<&Verdict>) -> Verdict {
    if verdict != Verdict::Pass {
        return verdict;
    }
    match twin_verdict {
        Some(Verdict::Pass) => Verdict::Pass,
        Some(v) if v.is_unsupported() => Verdict::Refused(format!(
            "{UNSUPPORTED}as its valid twin `{twin}`: {}",
            v.detail().strip_prefix(UNSUPPORTED).unwrap_or(v.detail())
        )),
        Some(v) => Verdict::Untested(format!(
            "its error is not credited: the engine does not pass the case's valid twin \
             `{twin}` ({})",
            v.name()
        )),
        None => Verdict::Untested(format!(
            "its error is not credited: the case's valid twin `{twin}` did not run"
        )),
    }
}

/// Runs `pad` on `case` and grades its answer; a panic is a [`Verdict::Crash`] (the panic
/// hook still prints it).
///
/// ```
/// use padkit_conformance::{Answer, Size, cases, run_case};
/// let case = &cases(Size::Small)[0];
/// assert_eq!(run_case(case, |_| -> Answer { panic!("boom") }).name(), "crash");
/// ```
pub fn run_case(case: &Case, pad: impl FnOnce(&Case) -> Answer) -> Verdict {
    match catch_unwind(AssertUnwindSafe(|| pad(case))) {
        Ok(answer) => grade(case, answer),
        Err(payload) => Verdict::Crash(format!("panicked: {}", panic_message(&*payload))),
    }
}

/// The message of a panic's payload (a `String` or `&str`, as `panic!` makes them).
///
/// ```
/// let payload = std::panic::catch_unwind(|| panic!("boom {}", 1)).unwrap_err();
/// assert_eq!(padkit_conformance::grade::panic_message(&*payload), "boom 1");
/// ```
pub fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message")
}
