//! Grading an engine's answer to a case: pass, refused (a clear error), unsupported (a
//! declared refusal), wrong (another output, or an output where the case must fail),
//! crash, or untested. One rule ([`judge`]) serves every grader.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use padkit::Tensor;
use serde::{Deserialize, Serialize};

use crate::case::{Case, Expected};
use crate::compare::{Tolerance, first_difference};
use crate::standing::Standing;

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
    /// A clear refusal where an output was expected.
    Refused(String),
    /// The engine declared that it cannot hold what the case needs (an element type, a
    /// mode, negative pads, …), and why: a refusal it owns up to, whatever the case
    /// expects.
    Unsupported(String),
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
    /// `pass`, `refused`, `unsupported`, `wrong`, `crash` or `untested`.
    ///
    /// ```
    /// assert_eq!(padkit_conformance::Verdict::Pass.name(), "pass");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Refused(_) => "refused",
            Verdict::Unsupported(_) => "unsupported",
            Verdict::Wrong(_) => "wrong",
            Verdict::Crash(_) => "crash",
            Verdict::Untested(_) => "untested",
        }
    }

    /// True for [`Verdict::Unsupported`]: a refusal an engine declared (with
    /// [`Answer::Unsupported`]), not an error it raised.
    ///
    /// ```
    /// use padkit_conformance::{Answer, Size, cases, grade};
    /// let case = &cases(Size::Small)[0];
    /// assert!(grade(case, Answer::Unsupported("no f32".into())).is_unsupported());
    /// assert!(!grade(case, Answer::Error("no".into())).is_unsupported());
    /// ```
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Verdict::Unsupported(_))
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
            Verdict::Refused(d)
            | Verdict::Unsupported(d)
            | Verdict::Wrong(d)
            | Verdict::Crash(d)
            | Verdict::Untested(d) => d,
        }
    }
}

/// Grades `answer` against what `case` expects ([`judge`]'s rule, for one output and an
/// error of any class; a refusal of a case beyond ONNX passes, as [`credit_refusal`] has
/// it).
///
/// ```
/// use padkit_conformance::{Answer, Expected, Size, Verdict, cases, grade};
/// let case = &cases(Size::Small)[0];
/// let Expected::Output(want) = &case.expected else { unreachable!() };
/// assert_eq!(grade(case, Answer::Output(want.clone())), Verdict::Pass);
/// assert_eq!(grade(case, Answer::Error("no".into())).name(), "refused");
/// assert_eq!(grade(case, Answer::Unsupported("no f32".into())).name(), "unsupported");
/// ```
pub fn grade(case: &Case, answer: Answer) -> Verdict {
    let class;
    let want = match &case.expected {
        Expected::Output(y) => Want::Outputs(std::slice::from_ref(y)),
        Expected::Error(refusal) => {
            class = refusal.class();
            Want::Error(&class)
        }
    };
    let run = match answer {
        Answer::Output(y) => Run::Outputs(vec![(String::new(), y)]),
        Answer::Error(e) => Run::Error(e, Classed::Unchecked),
        Answer::Unsupported(why) => Run::Unsupported(why),
        Answer::Crash(why) => Run::Crash(why),
    };
    credit_refusal(judge(want, run, None), &case.tags)
}

/// What a graded engine must give.
#[derive(Debug, Clone, Copy)]
pub enum Want<'a> {
    /// These outputs, in order.
    Outputs(&'a [Tensor]),
    /// An error of this class ([`Refusal::class`](crate::Refusal::class)).
    Error(&'a str),
}

/// What an engine gave for a model of any number of outputs.
#[derive(Debug, Clone, PartialEq)]
pub enum Run {
    /// Its outputs, in order, each with its name (named in a difference's detail where
    /// not empty).
    Outputs(Vec<(String, Tensor)>),
    /// A clear error, and its class as far as the engine's errors have one.
    Error(String, Classed),
    /// It declared that it cannot hold the case, and why.
    Unsupported(String),
    /// It panicked, aborted or hung, and how.
    Crash(String),
}

/// The class of an engine's error, as the grader holds it against a case that must fail.
#[derive(Debug, Clone, PartialEq)]
pub enum Classed {
    /// The engine's errors carry no class padkit reads (ONNX Runtime's, stock tract's):
    /// any clear error passes.
    Unchecked,
    /// The error's class ([`Refusal::class_of_error`](crate::Refusal::class_of_error)
    /// of the `PadError` in its chain), or `None` for an error of no class: it passes
    /// only when of the case's class.
    Class(Option<String>),
}

/// The one grading rule of padkit's graders ([`grade`], and the `padkit` CLI's runs of
/// exported suites): a crash is a crash and a declared refusal is unsupported, whatever
/// the case expects; an error passes where the case must fail (when of the case's class,
/// as [`Classed`] says) and is a refusal otherwise; outputs where the case must fail are
/// wrong; outputs are compared exactly (bit-exact, NaN-aware), or within `tolerance` for
/// float outputs when one is given.
///
/// ```
/// use padkit_conformance::grade::{Classed, Run, Want, judge};
/// let y = padkit::Tensor::scalar(1.0f32);
/// let run = || Run::Outputs(vec![("y".into(), y.clone())]);
/// assert_eq!(judge(Want::Outputs(&[y.clone()]), run(), None).name(), "pass");
/// assert_eq!(judge(Want::Error("Crop"), run(), None).name(), "wrong");
/// let err = |class: &str| Run::Error("no".into(), Classed::Class(Some(class.into())));
/// assert_eq!(judge(Want::Error("Crop"), err("Crop"), None).name(), "pass");
/// assert_eq!(judge(Want::Error("Crop"), err("PadsLength"), None).name(), "wrong");
/// ```
pub fn judge(want: Want<'_>, run: Run, tolerance: Option<Tolerance>) -> Verdict {
    let (outs, expected) = match (run, want) {
        (Run::Crash(why), _) => return Verdict::Crash(why),
        (Run::Unsupported(why), _) => return Verdict::Unsupported(why),
        (Run::Error(e, classed), Want::Error(class)) => return error_verdict(&e, classed, class),
        (Run::Error(e, _), Want::Outputs(_)) => return Verdict::Refused(e),
        (Run::Outputs(outs), Want::Error(class)) => {
            let shapes: Vec<_> = outs.iter().map(|(_, t)| t.shape().to_vec()).collect();
            let gave = match &shapes[..] {
                [shape] => format!("an output of shape {shape:?}"),
                _ => format!("outputs of shapes {shapes:?}"),
            };
            return Verdict::Wrong(format!("gave {gave} where the case must fail ({class})"));
        }
        (Run::Outputs(outs), Want::Outputs(expected)) => (outs, expected),
    };
    if outs.len() != expected.len() {
        return Verdict::Wrong(format!(
            "{} outputs, expected {}",
            outs.len(),
            expected.len()
        ));
    }
    let diff = outs.iter().zip(expected).find_map(|((name, got), want)| {
        let d = first_difference(got, want, tolerance)?;
        Some(match name.as_str() {
            "" => d,
            name => format!("output {name:?}: {d}"),
        })
    });
    diff.map_or(Verdict::Pass, Verdict::Wrong)
}

/// The verdict of error `e` of class `classed` where the case must fail with `class`.
fn error_verdict(e: &str, classed: Classed, class: &str) -> Verdict {
    let Classed::Class(got) = classed else {
        return Verdict::Pass;
    };
    if got.as_deref() == Some(class) {
        return Verdict::Pass;
    }
    let got = got.unwrap_or_else(|| "an error of no class".into());
    Verdict::Wrong(format!(
        "failed with {got} ({e}) where the case must fail with {class}"
    ))
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
        Some(Verdict::Unsupported(why)) => {
            Verdict::Unsupported(format!("as its valid twin `{twin}`: {why}"))
        }
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

/// The verdict of a case given its tags: on a case beyond ONNX (tagged `onnx:beyond`,
/// [`Standing::Beyond`]), where ONNX's reference refuses by design
/// and padkit gives numpy's answer, a clear refusal passes as well as that answer. Other
/// verdicts, and every verdict on other cases, stand as they are. Graders apply it to the
/// runtimes they grade against ONNX; padkit's own engines, whose semantics are numpy's,
/// are held to numpy's answer (the `padkit` CLI and `tests/peers/run.py` credit only the
/// outside runtimes).
///
/// ```
/// use padkit_conformance::{Verdict, grade::credit_refusal};
/// let refused = || Verdict::Refused("reflect pad 5 exceeds the axis".into());
/// assert_eq!(credit_refusal(refused(), &["onnx:beyond".into()]), Verdict::Pass);
/// assert_eq!(credit_refusal(refused(), &["onnx:required".into()]), refused());
/// ```
pub fn credit_refusal(verdict: Verdict, tags: &[String]) -> Verdict {
    let beyond = Standing::Beyond("").tag();
    match verdict {
        Verdict::Refused(_) if tags.contains(&beyond) => Verdict::Pass,
        v => v,
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
