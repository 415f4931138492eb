//! `cargo xtask suite table` and `cargo xtask suite compare`: padkit's JSON conformance
//! reports (`padkit conformance --report json`, `tests/peers/run.py`) merged into the
//! feature × engine table, and compared verdict by verdict.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, ensure};
use padkit_conformance::report::CaseResult;
use padkit_conformance::{Report, Size, Verdict, cases};
use xtask::table_splice::splice;

/// Merges the JSON `reports` into the README table ([`Report::table`]) and prints it, or
/// splices it into the Markdown file `update` between its conformance-table markers.
pub fn table(reports: &[PathBuf], update: Option<&Path>) -> Result<()> {
    let table = merged(reports)?.table();
    let Some(path) = update else {
        print!("{table}");
        return Ok(());
    };
    let doc =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let new = splice(&doc, &table)
        .with_context(|| format!("cannot put the table into {}", path.display()))?;
    std::fs::write(path, new).with_context(|| format!("cannot write {}", path.display()))
}

/// The JSON report at `path`.
fn read_report(path: &Path) -> Result<Report> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Report::from_json(&text).with_context(|| format!("{} is not a padkit report", path.display()))
}

/// The JSON reports at `paths`, merged in order ([`Report::try_merge`]). Two verdicts for
/// one (case, engine), in two reports or twice in one, are refused, naming the files: a
/// merge would keep one of them silently.
pub fn merged(paths: &[PathBuf]) -> Result<Report> {
    let reports = paths
        .iter()
        .map(|p| read_report(p))
        .collect::<Result<Vec<_>>>()?;
    Report::try_merge(reports).map_err(|c| {
        let path = |i: usize| {
            paths
                .get(i)
                .map_or_else(|| format!("report {i}"), |p| p.display().to_string())
        };
        let (case, engine) = (&c.case, &c.engine);
        if c.first == c.second {
            anyhow!(
                "{} holds two verdicts of engine {engine:?} on case {case:?}: keeping one \
                 would hide the other",
                path(c.first)
            )
        } else {
            anyhow!(
                "{} and {} both hold a verdict of engine {engine:?} on case {case:?}: keeping \
                 one would hide the other; merge reports of different engines or cases",
                path(c.first),
                path(c.second)
            )
        }
    })
}

/// `cargo xtask suite compare`: the differences between the JSON report at `expected` and
/// the reports at `actual`, merged ([`merged`]: runs of different engines on the same
/// cases), printed one a line, are an error (see [`differences`]); with `catalogue`, the
/// cases of the merged report must also be the full catalogue's, in its order.
pub fn compare(expected: &Path, actual: &[PathBuf], catalogue: bool) -> Result<()> {
    let (want, got) = (read_report(expected)?, merged(actual)?);
    let mut found = differences(&want, &got);
    if catalogue {
        found.extend(catalogue_difference(&got));
    }
    for d in &found {
        println!("{d}");
    }
    ensure!(
        found.is_empty(),
        "{} and {} differ: {} difference{}",
        expected.display(),
        actual
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" + "),
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    );
    println!(
        "reports agree: {} cases × {} engines",
        got.cases.len(),
        got.engines.len()
    );
    Ok(())
}

/// What differs between two reports, one line each: a case or an engine in one only, and
/// each (case, engine) of both whose verdicts differ in kind (`pass`, `refused`,
/// `unsupported` — a refusal the engine declared —, `wrong`, `crash`, `untested`, or no
/// verdict). Details (messages, timings, paths) and the order of the cases are not
/// compared.
pub fn differences(expected: &Report, actual: &Report) -> Vec<String> {
    let mut out = vec![];
    for (one, other, which) in [(expected, actual, "expected"), (actual, expected, "actual")] {
        for e in one.engines.iter().filter(|e| !other.engines.contains(*e)) {
            out.push(format!("engine {e:?}: in the {which} report only"));
        }
    }
    let (want, got) = (by_name(expected), by_name(actual));
    for c in &expected.cases {
        if !got.contains_key(c.name.as_str()) {
            out.push(format!("case {:?}: in the expected report only", c.name));
        }
    }
    for c in &actual.cases {
        if !want.contains_key(c.name.as_str()) {
            out.push(format!("case {:?}: in the actual report only", c.name));
        }
    }
    let engines: Vec<&String> = expected
        .engines
        .iter()
        .filter(|e| actual.engines.contains(*e))
        .collect();
    for c in &expected.cases {
        let Some(other) = got.get(c.name.as_str()) else {
            continue;
        };
        for e in &engines {
            let (w, g) = (kind(c.results.get(*e)), kind(other.results.get(*e)));
            if w != g {
                out.push(format!(
                    "case {:?}, engine {e:?}: expected {w}, actual {g}",
                    c.name
                ));
            }
        }
    }
    out
}

/// A report's cases by name.
fn by_name(r: &Report) -> HashMap<&str, &CaseResult> {
    r.cases.iter().map(|c| (c.name.as_str(), c)).collect()
}

/// A verdict's kind, as [`differences`] compares them.
fn kind(v: Option<&Verdict>) -> &'static str {
    match v {
        None => "no verdict",
        Some(v) => v.name(),
    }
}

/// How the cases of `actual` differ from the full catalogue's (names, in order), if they
/// do.
fn catalogue_difference(actual: &Report) -> Option<String> {
    let want: Vec<String> = cases(Size::Full).into_iter().map(|c| c.name).collect();
    let got: Vec<&str> = actual.cases.iter().map(|c| c.name.as_str()).collect();
    if want.iter().map(String::as_str).eq(got.iter().copied()) {
        return None;
    }
    let at = want
        .iter()
        .zip(&got)
        .position(|(w, g)| w != g)
        .unwrap_or(want.len().min(got.len()));
    let show = |name: Option<&str>| name.map_or("no case".to_string(), |n| format!("{n:?}"));
    Some(format!(
        "the actual report's cases are not the catalogue's: {} cases where the catalogue \
         has {}; case {} is {} where the catalogue has {}",
        got.len(),
        want.len(),
        at + 1,
        show(got.get(at).copied()),
        show(want.get(at).map(String::as_str))
    ))
}

#[cfg(test)]
mod tests {
    use padkit_conformance::{Report, Verdict};

    #[test]
    fn reports_differ_in_kind_of_verdict_not_in_detail() {
        let mut a = Report::new(&["core", "tract"]);
        a.record("c1", &[], "core", Verdict::Pass);
        a.record("c1", &[], "tract", Verdict::Refused("no".into()));
        a.record("c2", &[], "core", Verdict::Wrong("off by one".into()));
        let mut b = a.clone();
        b.cases[1]
            .results
            .insert("core".into(), Verdict::Wrong("off by two".into()));
        assert!(super::differences(&a, &b).is_empty());
        b.cases[0]
            .results
            .insert("tract".into(), Verdict::Unsupported("no f32".into()));
        b.cases[1].results.insert("tract".into(), Verdict::Pass);
        b.record("c3", &[], "core", Verdict::Pass);
        b.engines.push("burn".into());
        assert_eq!(
            super::differences(&a, &b),
            [
                "engine \"burn\": in the actual report only",
                "case \"c3\": in the actual report only",
                "case \"c1\", engine \"tract\": expected refused, actual unsupported",
                "case \"c2\", engine \"tract\": expected no verdict, actual pass",
            ]
        );
    }
}
