//! The results of a run: every case's verdict on every engine, as JSON (which reports of
//! other runs, e.g. ONNX Runtime's through the repository's Python script, merge with),
//! as a feature × engine matrix in Markdown, and as JUnit XML for CI systems.
//!
//! Names, tags, engine names and details may hold any text (a report read from JSON holds
//! whatever its writer put there): the Markdown writers turn line breaks into spaces and
//! other control characters into their escapes, escape `|` in table cells and replace
//! backticks in code spans; the JUnit writer escapes markup and line breaks and drops the
//! characters XML 1.0 cannot hold.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::case::Case;
use crate::grade::Verdict;

/// Every case's verdict on every engine. Two reports are equal when their engines and
/// cases are.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Report {
    /// The engines, in column order.
    pub engines: Vec<String>,
    /// The cases, in run order.
    pub cases: Vec<CaseResult>,
    /// Where each case is in `cases`: a cache for [`Report::record`], not data.
    #[serde(skip)]
    index: Index,
}

impl PartialEq for Report {
    fn eq(&self, other: &Report) -> bool {
        self.engines == other.engines && self.cases == other.cases
    }
}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Report")
            .field("engines", &self.engines)
            .field("cases", &self.cases)
            .finish()
    }
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

/// The position of each case of a report in its `cases`, by name (the last case of a name
/// that several have, as a search from the end finds). `cases` is public and may have
/// changed since: the index is rebuilt when their number differs from what it covers or a
/// name it holds is no longer at its position.
#[derive(Clone, Default)]
struct Index {
    /// The position of each name.
    rows: HashMap<String, usize>,
    /// How many cases it covers.
    len: usize,
}

impl Index {
    /// The position in `cases` of the last case named `name`.
    fn find(&mut self, cases: &[CaseResult], name: &str) -> Option<usize> {
        let stale = self.len != cases.len()
            || self
                .rows
                .get(name)
                .is_some_and(|&i| cases.get(i).is_none_or(|c| c.name != name));
        if stale {
            self.rows = cases
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.clone(), i))
                .collect();
            self.len = cases.len();
        }
        self.rows.get(name).copied()
    }

    /// Notes a case named `name` pushed at the end of the cases it covers.
    fn push(&mut self, name: &str) {
        self.rows.insert(name.to_string(), self.len);
        self.len += 1;
    }
}

/// Two verdicts of one engine on one case, which [`Report::try_merge`] refuses to choose
/// between.
///
/// ```
/// let c = padkit_conformance::report::Conflict { case: "c".into(), engine: "e".into(), first: 0, second: 1 };
/// assert!(c.to_string().contains(r#"engine "e" on case "c""#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The case's name.
    pub case: String,
    /// The engine's name.
    pub engine: String,
    /// The position (from 0) of the report holding the first verdict.
    pub first: usize,
    /// The position of the report holding the second (`first` when one report holds both).
    pub second: usize,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Conflict {
            case,
            engine,
            first,
            second,
        } = self;
        if first == second {
            write!(f, "report {first} (counted from 0) holds two verdicts")?;
        } else {
            write!(
                f,
                "reports {first} and {second} (counted from 0) both hold a verdict"
            )?;
        }
        write!(
            f,
            " of engine {engine:?} on case {case:?}: keeping one would hide the other"
        )
    }
}

impl std::error::Error for Conflict {}

/// Counts of verdicts in one cell of the matrix, with the first cases that did not pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cell {
    /// Cases passed.
    pub pass: usize,
    /// Cases refused with a clear error, or declared unsupported.
    pub refused: usize,
    /// Cases the engine was not put to (see [`Verdict::Untested`]).
    pub untested: usize,
    /// Cases answered wrong.
    pub wrong: usize,
    /// Cases that crashed the engine.
    pub crash: usize,
    /// The first cases that did not pass: crashes, wrong answers, refusals, untested
    /// cases, then declared refusals.
    pub failing: Vec<(String, Verdict)>,
}

impl Cell {
    /// The cell as text: `✓ 12` when all passed, else the non-zero counts.
    ///
    /// ```
    /// use padkit_conformance::report::Cell;
    /// let cell = Cell { pass: 3, wrong: 1, ..Default::default() };
    /// assert_eq!(cell.summary(), "3 pass · **1 wrong**");
    /// let cell = Cell { pass: 2, refused: 1, untested: 4, ..Default::default() };
    /// assert_eq!(cell.summary(), "2 pass · 1 refused · 4 untested");
    /// ```
    pub fn summary(&self) -> String {
        if self.pass > 0 && self.refused + self.untested + self.wrong + self.crash == 0 {
            return format!("✓ {}", self.pass);
        }
        let parts = [
            (self.pass, "pass", false),
            (self.refused, "refused", false),
            (self.untested, "untested", false),
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

/// How many places [`severity`] ranks.
const SEVERITIES: usize = 5;

/// Where a verdict goes in a cell's failing cases: crashes first, then wrong answers,
/// refusals, untested cases and declared refusals; `None` for a pass.
fn severity(v: &Verdict) -> Option<usize> {
    match v {
        Verdict::Pass => None,
        Verdict::Crash(_) => Some(0),
        Verdict::Wrong(_) => Some(1),
        Verdict::Unsupported(_) => Some(4),
        Verdict::Refused(_) => Some(2),
        Verdict::Untested(_) => Some(3),
    }
}

/// A [`Cell`] being counted. Of the cases that did not pass it keeps the first `keep` of
/// each severity, all that can be among the cell's first `keep` once ordered.
struct Tally<'a> {
    cell: Cell,
    keep: usize,
    /// The cases kept, with their severity, in the order added.
    failing: Vec<(usize, &'a str, &'a Verdict)>,
    /// How many cases of each severity are kept.
    kept: [usize; SEVERITIES],
}

impl<'a> Tally<'a> {
    fn new(keep: usize) -> Self {
        Tally {
            cell: Cell::default(),
            keep,
            failing: vec![],
            kept: [0; SEVERITIES],
        }
    }

    fn add(&mut self, name: &'a str, v: &'a Verdict) {
        let count = match v {
            Verdict::Pass => &mut self.cell.pass,
            // the table's refused column counts declared refusals too
            Verdict::Refused(_) | Verdict::Unsupported(_) => &mut self.cell.refused,
            Verdict::Untested(_) => &mut self.cell.untested,
            Verdict::Wrong(_) => &mut self.cell.wrong,
            Verdict::Crash(_) => &mut self.cell.crash,
        };
        *count += 1;
        if let Some(rank) = severity(v)
            && self.kept[rank] < self.keep
        {
            self.kept[rank] += 1;
            self.failing.push((rank, name, v));
        }
    }

    /// The cell, with its first `keep` failing cases by severity, then as added.
    fn finish(self) -> Cell {
        let Tally {
            mut cell,
            keep,
            mut failing,
            ..
        } = self;
        failing.sort_by_key(|&(rank, _, _)| rank);
        cell.failing = failing
            .into_iter()
            .take(keep)
            .map(|(_, name, v)| (name.to_string(), v.clone()))
            .collect();
        cell
    }
}

/// The cells of a matrix: the total's and each row's, a cell per engine of the report in
/// column order.
struct Cells {
    all: Vec<Cell>,
    rows: Vec<Vec<Cell>>,
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
const GROUPS: [&str; 6] = ["onnx", "feature", "mode", "type", "opset", "feed"];

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
            ..Report::default()
        }
    }

    /// Records `engine`'s verdict on the case `name` with `tags` (adding the engine's
    /// column and the case's row as needed), replacing the engine's earlier verdict on the
    /// case if any ([`Report::try_merge`] refuses such overlaps between reports). Details
    /// are kept to their first [`DETAIL_CHARS`] characters.
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
        let row = self.row(name, tags);
        self.cases[row]
            .results
            .insert(engine.to_string(), clipped(verdict));
    }

    /// The position in `cases` of the case `name` (the last, should several have it), or
    /// of a new one with `tags` pushed at the end.
    fn row(&mut self, name: &str, tags: &[String]) -> usize {
        if let Some(i) = self.index.find(&self.cases, name) {
            return i;
        }
        self.index.push(name);
        self.cases.push(CaseResult {
            name: name.to_string(),
            tags: tags.to_vec(),
            results: BTreeMap::new(),
        });
        self.cases.len() - 1
    }

    /// Runs `pad` on every case as engine `engine` and records the verdicts (panics
    /// become crashes; see [`run_case`](crate::run_case)). An error on a case that must
    /// fail passes only where the engine passed the case's valid twin earlier in `cases`
    /// ([`credit_error`](crate::credit_error)).
    ///
    /// ```
    /// use padkit_conformance::{Answer, Report, Size, cases};
    /// let mut r = Report::new(&[]);
    /// r.run(&cases(Size::Small)[..3], "refuses-all", |_| Answer::Unsupported("nothing".into()));
    /// assert_eq!(r.cell(None, "refuses-all").refused, 3);
    /// // An engine that errs on everything passes no must-error case: it fails their twins.
    /// // It passes the cases beyond ONNX only, where a refusal passes.
    /// let mut r = Report::new(&[]);
    /// r.run(&cases(Size::Small), "errs", |_| Answer::Error("no".into()));
    /// let all = r.cell(None, "errs");
    /// assert_eq!((all.pass, all.wrong), (r.cell(Some("onnx:beyond"), "errs").pass, 0));
    /// assert!(all.pass > 0);
    /// assert!(all.untested > 0);
    /// ```
    pub fn run(
        &mut self,
        cases: &[Case],
        engine: &str,
        mut pad: impl FnMut(&Case) -> crate::Answer,
    ) {
        let mut seen: HashMap<&str, Verdict> = HashMap::new();
        for case in cases {
            let mut verdict = crate::run_case(case, &mut pad);
            if let Some(twin) = &case.twin {
                verdict = crate::credit_error(verdict, twin, seen.get(twin.as_str()));
            }
            seen.insert(&case.name, verdict.clone());
            self.record(&case.name, &case.tags, engine, verdict);
        }
    }

    /// The reports of several runs as one: their engines side by side, the cases in
    /// first-seen order with the tags they first came with, details kept to
    /// [`DETAIL_CHARS`] characters.
    ///
    /// # Errors
    ///
    /// A [`Conflict`] naming the case and the engine when two reports, or two rows of one
    /// report, hold a verdict of the same engine on the same case: keeping one would hide
    /// the other, a failure perhaps.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let (mut a, mut b) = (Report::new(&[]), Report::new(&[]));
    /// a.record("c", &[], "one", Verdict::Pass);
    /// b.record("c", &[], "two", Verdict::Pass);
    /// assert_eq!(Report::try_merge([a.clone(), b]).unwrap().cases[0].results.len(), 2);
    /// let mut again = Report::new(&[]);
    /// again.record("c", &[], "one", Verdict::Wrong("off by one".into()));
    /// let conflict = Report::try_merge([a, again]).unwrap_err();
    /// assert_eq!((conflict.case.as_str(), conflict.engine.as_str()), ("c", "one"));
    /// assert_eq!((conflict.first, conflict.second), (0, 1));
    /// ```
    pub fn try_merge(reports: impl IntoIterator<Item = Report>) -> Result<Report, Conflict> {
        let mut out = Report::default();
        let mut engines = HashSet::new();
        // The report each verdict of `out` came from, by row and engine.
        let mut from: HashMap<(usize, String), usize> = HashMap::new();
        for (n, report) in reports.into_iter().enumerate() {
            for e in &report.engines {
                out.add_engine(&mut engines, e);
            }
            for case in report.cases {
                let row = out.row(&case.name, &case.tags);
                for (engine, verdict) in case.results {
                    out.add_engine(&mut engines, &engine);
                    let key = (row, engine);
                    if let Some(&first) = from.get(&key) {
                        let (case, engine) = (case.name, key.1);
                        return Err(Conflict {
                            case,
                            engine,
                            first,
                            second: n,
                        });
                    }
                    let results = &mut out.cases[row].results;
                    results.insert(key.1.clone(), clipped(verdict));
                    from.insert(key, n);
                }
            }
        }
        Ok(out)
    }

    /// Adds the column `engine` unless `known` (the engines so far) holds it.
    fn add_engine(&mut self, known: &mut HashSet<String>, engine: &str) {
        if !known.contains(engine) {
            known.insert(engine.to_string());
            self.engines.push(engine.to_string());
        }
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

    /// [`Report::cell`], keeping the first `keep` cases that did not pass.
    fn cell_keeping(&self, tag: Option<&str>, engine: &str, keep: usize) -> Cell {
        let mut tally = Tally::new(keep);
        for c in &self.cases {
            if tag.is_some_and(|t| !c.tags.iter().any(|x| x == t)) {
                continue;
            }
            if let Some(v) = c.results.get(engine) {
                tally.add(&c.name, v);
            }
        }
        tally.finish()
    }

    /// The cells of the total and of each tag of `rows` for every engine, keeping the
    /// first `keep` failing cases of each: one pass over the cases.
    fn cells(&self, rows: &[&str], keep: usize) -> Cells {
        // The columns of each engine (more than one where `engines` repeats it).
        let mut columns: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, e) in self.engines.iter().enumerate() {
            columns.entry(e.as_str()).or_default().push(j);
        }
        let row_of: HashMap<&str, usize> = rows.iter().enumerate().map(|(i, &t)| (t, i)).collect();
        let width = self.engines.len();
        let blank = || (0..width).map(|_| Tally::new(keep)).collect::<Vec<_>>();
        let mut all = blank();
        let mut tallies: Vec<_> = rows.iter().map(|_| blank()).collect();
        let mut mine: Vec<usize> = vec![];
        for case in &self.cases {
            // The rows of the case, each once however often the case repeats its tag.
            mine.clear();
            mine.extend(
                case.tags
                    .iter()
                    .filter_map(|t| row_of.get(t.as_str()).copied()),
            );
            mine.sort_unstable();
            mine.dedup();
            for (engine, v) in &case.results {
                for &col in columns.get(engine.as_str()).into_iter().flatten() {
                    all[col].add(&case.name, v);
                    for &r in &mine {
                        tallies[r][col].add(&case.name, v);
                    }
                }
            }
        }
        let finish =
            |row: Vec<Tally<'_>>| -> Vec<Cell> { row.into_iter().map(Tally::finish).collect() };
        Cells {
            all: finish(all),
            rows: tallies.into_iter().map(finish).collect(),
        }
    }

    /// Every tag of the report in matrix order (by [`GROUPS`], then as first seen), of the
    /// `groups` only unless empty.
    fn rows(&self, groups: &[&str]) -> Vec<&str> {
        let mut seen = HashSet::new();
        let mut rows: Vec<&str> = self
            .cases
            .iter()
            .flat_map(|c| &c.tags)
            .map(String::as_str)
            .filter(|t| seen.insert(*t))
            .filter(|t| groups.is_empty() || groups.contains(&group(t)))
            .collect();
        rows.sort_by_key(|t| {
            GROUPS
                .iter()
                .position(|&g| g == group(t))
                .unwrap_or(GROUPS.len())
        });
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
        let cells = self.cells(&rows, failures);
        let mut s = self.matrix(&rows, &cells);
        let mut heading = "\nFirst failing cases of each cell (crashes and wrong answers first, declared refusals last):\n\n";
        let labels =
            std::iter::once(("all", &cells.all)).chain(rows.iter().copied().zip(&cells.rows));
        for (tag, row) in labels {
            for (e, cell) in self.engines.iter().zip(row) {
                if cell.failing.is_empty() {
                    continue;
                }
                let cases: Vec<String> = cell
                    .failing
                    .iter()
                    .map(|(name, v)| {
                        let detail = md(&clip(v.detail(), 120), Md::Text);
                        format!("`{}` ({}: {detail})", md(name, Md::Code), v.name())
                    })
                    .collect();
                s.push_str(std::mem::take(&mut heading));
                let (tag, e) = (md(tag, Md::Text), md(e, Md::Text));
                let _ = writeln!(s, "- {tag} on {e}: {}", cases.join("; "));
            }
        }
        s
    }

    /// The matrix of `rows` (and the total) in Markdown, from their `cells`.
    fn matrix(&self, rows: &[&str], cells: &Cells) -> String {
        let mut s = String::from("| cases |");
        for e in &self.engines {
            let _ = write!(s, " {} |", md(e, Md::Cell));
        }
        let _ = writeln!(s, "\n|---|{}", "---|".repeat(self.engines.len()));
        let mut line = |label: &str, counts: &[Cell]| {
            let _ = write!(s, "| {label} |");
            for c in counts {
                let _ = write!(s, " {} |", c.summary());
            }
            s.push('\n');
        };
        line("**all**", &cells.all);
        for (row, counts) in rows.iter().zip(&cells.rows) {
            line(&md(row, Md::Cell), counts);
        }
        s
    }

    /// The table a README shows: the rows of what ONNX says about the cases (their
    /// `onnx:` tags), features, modes, element types and opsets, then the first three
    /// failing cases of each engine.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c", &["type:int4".into(), "feed:pads-input".into()], "mine", Verdict::Pass);
    /// let t = r.table();
    /// assert!(t.contains("type:int4") && !t.contains("feed:"));
    /// ```
    pub fn table(&self) -> String {
        let rows = self.rows(&["onnx", "feature", "mode", "type", "opset"]);
        let cells = self.cells(&rows, 3);
        let mut s = self.matrix(&rows, &cells);
        for (e, cell) in self.engines.iter().zip(&cells.all) {
            if cell.failing.is_empty() {
                continue;
            }
            let _ = writeln!(s, "\nFirst cases {} did not pass:\n", md(e, Md::Text));
            for (name, v) in &cell.failing {
                let detail = md(&clip(v.detail(), 200), Md::Text);
                let _ = writeln!(s, "- `{}`: {} — {detail}", md(name, Md::Code), v.name());
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
    /// answers are failures, crashes errors, refusals and untested cases skipped. Any
    /// text makes valid XML: what XML 1.0 cannot hold (most C0 controls, U+FFFE, U+FFFF)
    /// is dropped, tabs and line breaks are character references.
    ///
    /// ```
    /// use padkit_conformance::{Report, Verdict};
    /// let mut r = Report::new(&[]);
    /// r.record("c<1>", &[], "mine", Verdict::Wrong("1 & 2".into()));
    /// r.record("d\u{1b}", &[], "mine", Verdict::Untested("no twin".into()));
    /// let xml = r.junit();
    /// assert!(xml.contains(r#"<testcase classname="mine" name="c&lt;1&gt;">"#));
    /// assert!(xml.contains(r#"<failure message="wrong">1 &amp; 2</failure>"#));
    /// assert!(xml.contains(r#"name="d"><skipped message="untested: no twin"/>"#));
    /// assert!(xml.contains(r#"tests="2" failures="1" errors="0" skipped="1""#));
    /// // What ONNX says about a case is its `onnx` property.
    /// r.record("e", &["onnx:beyond".into()], "mine", Verdict::Pass);
    /// assert!(r.junit().contains(r#"<property name="onnx" value="beyond"/>"#));
    /// ```
    pub fn junit(&self) -> String {
        let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.push_str("<testsuites name=\"padkit conformance\">\n");
        for e in &self.engines {
            let c = self.cell_keeping(None, e, 0);
            let _ = writeln!(
                s,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
                xml(e),
                c.pass + c.refused + c.untested + c.wrong + c.crash,
                c.wrong,
                c.crash,
                c.refused + c.untested
            );
            for case in &self.cases {
                let Some(v) = case.results.get(e) else {
                    continue;
                };
                let (class, name) = (xml(e), xml(&case.name));
                let _ = write!(s, "    <testcase classname=\"{class}\" name=\"{name}\"");
                // What ONNX says about the case (its `onnx:` tag), as a property.
                let standing = case.tags.iter().find_map(|t| t.strip_prefix("onnx:"));
                let property = standing.map(|o| {
                    let o = xml(o);
                    format!("<properties><property name=\"onnx\" value=\"{o}\"/></properties>")
                });
                match (property, junit_outcome(v)) {
                    (None, None) => s.push_str("/>\n"),
                    (p, body) => {
                        let body = p.into_iter().chain(body).collect::<String>();
                        let _ = writeln!(s, ">{body}</testcase>");
                    }
                }
            }
            s.push_str("  </testsuite>\n");
        }
        s.push_str("</testsuites>\n");
        s
    }
}

/// The group of a tag: what comes before its `:` (the whole tag without one).
fn group(tag: &str) -> &str {
    tag.split_once(':').map_or(tag, |(g, _)| g)
}

/// The element in a JUnit test case of a verdict that did not pass (`None` for a pass).
fn junit_outcome(v: &Verdict) -> Option<String> {
    let skipped =
        |why: &str, d: &str| format!("<skipped message=\"{why}{}\"/>", xml(&clip(d, 500)));
    match v {
        Verdict::Pass => None,
        Verdict::Refused(d) => Some(skipped("", d)),
        Verdict::Unsupported(d) => Some(skipped("unsupported: ", d)),
        Verdict::Untested(d) => Some(skipped("untested: ", d)),
        Verdict::Wrong(d) => Some(format!("<failure message=\"wrong\">{}</failure>", xml(d))),
        Verdict::Crash(d) => Some(format!("<error message=\"crash\">{}</error>", xml(d))),
    }
}

/// `verdict` with its detail kept to [`DETAIL_CHARS`] characters.
fn clipped(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Pass => Verdict::Pass,
        Verdict::Refused(d) => Verdict::Refused(clip(&d, DETAIL_CHARS)),
        Verdict::Unsupported(d) => Verdict::Unsupported(clip(&d, DETAIL_CHARS)),
        Verdict::Untested(d) => Verdict::Untested(clip(&d, DETAIL_CHARS)),
        Verdict::Wrong(d) => Verdict::Wrong(clip(&d, DETAIL_CHARS)),
        Verdict::Crash(d) => Verdict::Crash(clip(&d, DETAIL_CHARS)),
    }
}

/// `text` cut to `n` characters, with `…` when cut.
fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Where [`md`] puts a string on a Markdown line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Md {
    /// Plain text of a list item. `|` stays as it is: outside a table it is text (and the
    /// README's table shows details that hold it).
    Text,
    /// A cell of a table row: `|` and `\` are escaped too, so no `|` ends the cell.
    Cell,
    /// The inside of a code span between single backticks: a backtick becomes `'`, so
    /// none ends the span.
    Code,
}

/// `text` made safe for one place on one Markdown line (see [`Md`]): line breaks and
/// tabs become spaces and other control characters (C0, DEL, C1) their escapes
/// (`\u{1b}`), so that no text ends the line, starts a table row or reaches a terminal as
/// an escape sequence.
fn md(text: &str, at: Md) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' | '\u{2028}' | '\u{2029}' => s.push(' '),
            '|' | '\\' if at == Md::Cell => {
                s.push('\\');
                s.push(c);
            }
            '`' if at == Md::Code => s.push('\''),
            c if c.is_control() => s.extend(c.escape_unicode()),
            c => s.push(c),
        }
    }
    s
}

/// `text` escaped for XML 1.0 text and attribute values alike: markup characters as
/// entities, tabs and line breaks as character references (which attribute-value
/// normalisation and line-end handling keep), and the characters XML 1.0 cannot hold (the
/// other C0 controls, U+FFFE and U+FFFF; surrogates are no `char`) dropped.
fn xml(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            '\t' => s.push_str("&#9;"),
            '\n' => s.push_str("&#10;"),
            '\r' => s.push_str("&#13;"),
            '\0'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {}
            c => s.push(c),
        }
    }
    s
}
