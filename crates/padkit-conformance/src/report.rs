//! The results of a run: every case's verdict on every engine, as JSON (which reports of
//! other runs, e.g. ONNX Runtime's through the repository's Python script, merge with),
//! as a feature × engine matrix in Markdown, and as JUnit XML for CI systems.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::case::Case;
use crate::grade::Verdict;

/// Every case's verdict on every engine.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The engines, in column order.
    pub engines: Vec<String>,
    /// The cases, in run order.
    pub cases: Vec<CaseResult>,
}

/// One case's verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// The case's tags.
    pub tags: Vec<String>,
    /// The verdict of each engine that ran it.
    pub results: BTreeMap<String, Verdict>,
}

/// Counts of verdicts in one cell of the matrix, with the first cases that did not pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cell {
    /// Cases passed.
    pub pass: usize,
    /// Cases refused with a clear error.
    pub refused: usize,
    /// Cases answered wrong.
    pub wrong: usize,
    /// Cases that crashed the engine.
    pub crash: usize,
    /// The first cases that did not pass: crashes and wrong answers before refusals.
    pub failing: Vec<(String, Verdict)>,
}

impl Cell {
    fn add(&mut self, name: &str, v: &Verdict, keep: usize) {
        match v {
            Verdict::Pass => self.pass += 1,
            Verdict::Refused(_) => self.refused += 1,
            Verdict::Wrong(_) => self.wrong += 1,
            Verdict::Crash(_) => self.crash += 1,
        }
        if *v != Verdict::Pass {
            self.failing.push((name.to_string(), v.clone()));
            self.failing.sort_by_key(|(_, v)| severity(v));
            self.failing.truncate(keep);
        }
    }

    /// The cell as text: `✓ 12` when all passed, else the non-zero counts.
    ///
    /// ```
    /// let cell = padkit_conformance::report::Cell { pass: 3, wrong: 1, ..Default::default() };
    /// assert_eq!(cell.summary(), "3 pass · **1 wrong**");
    /// ```
    pub fn summary(&self) -> String {
        if self.pass > 0 && self.refused + self.wrong + self.crash == 0 {
            return format!("✓ {}", self.pass);
        }
        let parts = [
            (self.pass, "pass", false),
            (self.refused, "refused", false),
            (self.wrong, "wrong", true),
            (self.crash, "crash", true),
        ];
        let shown: Vec<String> = parts
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|&(n, what, loud)| {
                if loud {
                    format!("**{n} {what}**")
                } else {
                    format!("{n} {what}")
                }
            })
            .collect();
        if shown.is_empty() {
            "–".into()
        } else {
            shown.join(" · ")
        }
    }
}

fn severity(v: &Verdict) -> u8 {
    match v {
        Verdict::Crash(_) => 0,
        Verdict::Wrong(_) => 1,
        v if v.is_unsupported() => 3,
        Verdict::Refused(_) => 2,
        Verdict::Pass => 4,
    }
}

/// How many characters of a verdict's detail a report keeps.
///
/// ```
/// use padkit_conformance::{Report, Verdict, report::DETAIL_CHARS};
/// let mut r = Report::new(&[]);
/// r.record("c", &[], "mine", Verdict::Wrong("x".repeat(1000)));
/// assert_eq!(r.cases[0].results["mine"].detail().chars().count(), DETAIL_CHARS + 1);
/// ```
pub const DETAIL_CHARS: usize = 240;

/// The order of tag groups in the matrix: features first, then modes, types, opsets and
/// operand feeds; `must-error` and untagged groups last.
const GROUPS: [&str; 5] = ["feature", "mode", "type", "opset", "feed"];

impl Report {
    /// An empty report over `engines`.
    ///
    /// ```
    /// let r = padkit_conformance::Report::new(&["mine"]);
    /// assert!(r.cases.is_empty());
    /// ```
    pub fn new(engines: &[&str]) -> Report {
        Report {
            engines: engines.iter().map(|e| e.to_string()).collect(),
            cases: vec![],
        }
    }

    /// Records `engine`'s verdict on the case `name` with `tags` (adding the engine's
    /// column and the case's row as needed). Details are kept to their first
    /// [`DETAIL_CHARS`] characters.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c", &["feature:crop".into()], "mine", Verdict::Pass);
    /// assert_eq!((r.engines.len(), r.cases.len()), (1, 1));
    /// ```
    pub fn record(&mut self, name: &str, tags: &[String], engine: &str, verdict: Verdict) {
        if !self.engines.iter().any(|e| e == engine) {
            self.engines.push(engine.to_string());
        }
        let row = match self.cases.iter().rposition(|c| c.name == name) {
            Some(i) => &mut self.cases[i],
            None => {
                self.cases.push(CaseResult {
                    name: name.to_string(),
                    tags: tags.to_vec(),
                    results: BTreeMap::new(),
                });
                self.cases.last_mut().expect("a case was just pushed")
            }
        };
        let verdict = match verdict {
            Verdict::Refused(d) => Verdict::Refused(clip(&d, DETAIL_CHARS)),
            Verdict::Wrong(d) => Verdict::Wrong(clip(&d, DETAIL_CHARS)),
            Verdict::Crash(d) => Verdict::Crash(clip(&d, DETAIL_CHARS)),
            Verdict::Pass => Verdict::Pass,
        };
        row.results.insert(engine.to_string(), verdict);
    }

    /// Runs `pad` on every case as engine `engine` and records the verdicts (panics
    /// become crashes; see [`run_case`](crate::run_case)).
    ///
    /// ```
    /// use padkit_conformance::{Answer, Report, Size, cases};
    /// let mut r = Report::new(&[]);
    /// r.run(&cases(Size::Small)[..3], "refuses-all", |_| Answer::Unsupported("nothing".into()));
    /// assert_eq!(r.cell(None, "refuses-all").refused, 3);
    /// ```
    pub fn run(
        &mut self,
        cases: &[Case],
        engine: &str,
        mut pad: impl FnMut(&Case) -> crate::Answer,
    ) {
        for case in cases {
            let verdict = crate::run_case(case, &mut pad);
            self.record(&case.name, &case.tags, engine, verdict);
        }
    }

    /// The reports of several runs as one: their engines side by side, the cases in
    /// first-seen order.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let (mut a, mut b) = (Report::new(&[]), Report::new(&[]));
    /// a.record("c", &[], "one", Verdict::Pass);
    /// b.record("c", &[], "two", Verdict::Pass);
    /// assert_eq!(Report::merge([a, b]).cases[0].results.len(), 2);
    /// ```
    pub fn merge(reports: impl IntoIterator<Item = Report>) -> Report {
        let mut out = Report::default();
        for r in reports {
            for e in r.engines {
                if !out.engines.contains(&e) {
                    out.engines.push(e);
                }
            }
            for c in r.cases {
                for (engine, v) in c.results {
                    out.record(&c.name, &c.tags, &engine, v);
                }
            }
        }
        out
    }

    /// The verdict counts of `engine` on the cases tagged `tag` (all cases for `None`).
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c", &["mode:edge".into()], "mine", Verdict::Wrong("off by one".into()));
    /// assert_eq!(r.cell(Some("mode:edge"), "mine").wrong, 1);
    /// ```
    pub fn cell(&self, tag: Option<&str>, engine: &str) -> Cell {
        self.cell_keeping(tag, engine, 3)
    }

    /// [`Report::cell`], keeping the first `n` cases that did not pass.
    fn cell_keeping(&self, tag: Option<&str>, engine: &str, n: usize) -> Cell {
        let mut cell = Cell::default();
        for c in &self.cases {
            if tag.is_some_and(|t| !c.tags.iter().any(|x| x == t)) {
                continue;
            }
            if let Some(v) = c.results.get(engine) {
                cell.add(&c.name, v, n);
            }
        }
        cell
    }

    /// Every tag of the report in matrix order (by [`GROUPS`], then as first seen).
    fn rows(&self, groups: &[&str]) -> Vec<String> {
        let mut rows: Vec<String> = vec![];
        for c in &self.cases {
            for t in &c.tags {
                if !rows.contains(t) {
                    rows.push(t.clone());
                }
            }
        }
        let rank = |t: &String| {
            let group = t.split_once(':').map_or(t.as_str(), |(g, _)| g);
            GROUPS
                .iter()
                .position(|&g| g == group)
                .unwrap_or(GROUPS.len())
        };
        rows.retain(|t| {
            groups.is_empty() || groups.contains(&t.split_once(':').map_or(t.as_str(), |(g, _)| g))
        });
        rows.sort_by_key(rank);
        rows
    }

    /// The feature × engine matrix in Markdown: a row per tag of the `groups` (all tags
    /// when empty) plus a total, a column per engine; then, unless `failures` is 0, up to
    /// that many failing cases of each cell that did not pass entirely (crashes and wrong
    /// answers first).
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c", &["feature:crop".into()], "mine", Verdict::Pass);
    /// r.record("d", &["feature:pad".into()], "mine", Verdict::Wrong("off by one".into()));
    /// let md = r.markdown(&["feature"], 3);
    /// assert!(md.contains("| feature:crop | ✓ 1 |"));
    /// assert!(md.contains("- feature:pad on mine: `d` (wrong: off by one)"));
    /// ```
    pub fn markdown(&self, groups: &[&str], failures: usize) -> String {
        let rows = self.rows(groups);
        let mut s = self.matrix(&rows);
        if failures > 0 {
            let mut heading = "\nFirst failing cases of each cell (crashes and wrong answers first, declared refusals last):\n\n";
            let labels = std::iter::once(None).chain(rows.iter().map(|r| Some(r.as_str())));
            for tag in labels {
                for e in &self.engines {
                    let cell = self.cell_keeping(tag, e, failures);
                    if cell.failing.is_empty() {
                        continue;
                    }
                    let cases: Vec<String> = cell
                        .failing
                        .iter()
                        .map(|(name, v)| {
                            let detail = clip(&v.detail().replace('\n', " "), 120);
                            format!("`{name}` ({}: {detail})", v.name())
                        })
                        .collect();
                    s.push_str(std::mem::take(&mut heading));
                    let _ = writeln!(s, "- {} on {e}: {}", tag.unwrap_or("all"), cases.join("; "));
                }
            }
        }
        s
    }

    /// The matrix of `rows` (and the total) in Markdown.
    fn matrix(&self, rows: &[String]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "| cases | {} |", self.engines.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(self.engines.len()));
        let mut line = |label: &str, tag: Option<&str>| {
            let cells: Vec<String> = self
                .engines
                .iter()
                .map(|e| self.cell(tag, e).summary())
                .collect();
            let _ = writeln!(s, "| {label} | {} |", cells.join(" | "));
        };
        line("**all**", None);
        for row in rows {
            line(row, Some(row));
        }
        s
    }

    /// The table a README shows: the rows of features, modes, element types and opsets,
    /// then the first three failing cases of each engine.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c", &["type:int4".into(), "feed:pads-input".into()], "mine", Verdict::Pass);
    /// let t = r.table();
    /// assert!(t.contains("type:int4") && !t.contains("feed:"));
    /// ```
    pub fn table(&self) -> String {
        let mut s = self.matrix(&self.rows(&["feature", "mode", "type", "opset"]));
        for e in &self.engines {
            let cell = self.cell_keeping(None, e, 3).failing;
            if cell.is_empty() {
                continue;
            }
            let _ = writeln!(s, "\nFirst cases {e} did not pass:\n");
            for (name, v) in cell {
                let detail = v.detail().replace('\n', " ");
                let _ = writeln!(s, "- `{name}`: {} — {}", v.name(), clip(&detail, 200));
            }
        }
        s
    }

    /// The report as JSON (what [`Report::from_json`] reads), a case per line.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c", &[], "mine", Verdict::Refused("no".into()));
    /// r.record("d", &[], "mine", Verdict::Pass);
    /// assert_eq!(Report::from_json(&r.to_json()).unwrap(), r);
    /// assert_eq!(r.to_json().lines().count(), 5);
    /// ```
    pub fn to_json(&self) -> String {
        let compact = |v: serde_json::Result<String>| v.expect("a report is plain data");
        let cases: Vec<String> = self
            .cases
            .iter()
            .map(|c| compact(serde_json::to_string(c)))
            .collect();
        format!(
            "{{\"engines\": {},\n\"cases\": [\n{}\n]}}\n",
            compact(serde_json::to_string(&self.engines)),
            cases.join(",\n")
        )
    }

    /// Reads a report written by [`Report::to_json`] (or by another tool in that form).
    ///
    /// # Errors
    ///
    /// When `text` is not such a report, with serde_json's line and column.
    ///
    /// ```
    /// assert!(padkit_conformance::Report::from_json("{}").is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Report, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The report as JUnit XML: a test suite per engine, a test case per case; wrong
    /// answers are failures, crashes errors, refusals skipped.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c<1>", &[], "mine", Verdict::Wrong("1 & 2".into()));
    /// let xml = r.junit();
    /// assert!(xml.contains(r#"<testcase classname="mine" name="c&lt;1&gt;">"#));
    /// assert!(xml.contains(r#"<failure message="wrong">1 &amp; 2</failure>"#));
    /// ```
    pub fn junit(&self) -> String {
        let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(s, "<testsuites name=\"padkit conformance\">");
        for e in &self.engines {
            let c = self.cell(None, e);
            let _ = writeln!(
                s,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
                xml(e),
                c.pass + c.refused + c.wrong + c.crash,
                c.wrong,
                c.crash,
                c.refused
            );
            for case in &self.cases {
                let Some(v) = case.results.get(e) else {
                    continue;
                };
                let head = format!(
                    "    <testcase classname=\"{}\" name=\"{}\"",
                    xml(e),
                    xml(&case.name)
                );
                let body = match v {
                    Verdict::Pass => {
                        let _ = writeln!(s, "{head}/>");
                        continue;
                    }
                    Verdict::Refused(d) => format!("<skipped message=\"{}\"/>", xml(&clip(d, 500))),
                    Verdict::Wrong(d) => format!("<failure message=\"wrong\">{}</failure>", xml(d)),
                    Verdict::Crash(d) => format!("<error message=\"crash\">{}</error>", xml(d)),
                };
                let _ = writeln!(s, "{head}>{body}</testcase>");
            }
            let _ = writeln!(s, "  </testsuite>");
        }
        s.push_str("</testsuites>\n");
        s
    }
}

/// The line before a generated table in a Markdown file (see [`splice`]).
///
/// ```
/// assert!(padkit_conformance::report::TABLE_BEGIN.starts_with("<!--"));
/// ```
pub const TABLE_BEGIN: &str =
    "<!-- conformance-table:begin (generated by `padkit suite table`) -->";
/// The line after a generated table (see [`splice`]).
///
/// ```
/// assert!(padkit_conformance::report::TABLE_END.ends_with("-->"));
/// ```
pub const TABLE_END: &str = "<!-- conformance-table:end -->";

/// `doc` with the text between its [`TABLE_BEGIN`] and [`TABLE_END`] lines replaced by
/// `table`; `None` when it lacks them.
///
/// ```
/// use padkit_conformance::report::{TABLE_BEGIN, TABLE_END, splice};
/// let doc = format!("intro\n{TABLE_BEGIN}\nold\n{TABLE_END}\nrest\n");
/// assert_eq!(splice(&doc, "new\n").unwrap(), format!("intro\n{TABLE_BEGIN}\nnew\n{TABLE_END}\nrest\n"));
/// assert!(splice("no markers", "new").is_none());
/// ```
pub fn splice(doc: &str, table: &str) -> Option<String> {
    let begin = doc.find(TABLE_BEGIN)? + TABLE_BEGIN.len();
    let end = begin + doc[begin..].find(TABLE_END)?;
    Some(format!("{}\n{table}{}", &doc[..begin], &doc[end..]))
}

/// `text` cut to `n` characters, with `…` when cut.
fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// `text` escaped for XML text and attributes.
fn xml(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => {}
            c => s.push(c),
        }
    }
    s
}
