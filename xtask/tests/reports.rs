//! `cargo xtask suite compare` and `cargo xtask suite table` on JSON reports, as CI and a
//! maintainer run them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use padkit_conformance::Report;

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-reports-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Two small reports of two engines, written to `dir`.
fn two_reports(dir: &Path) -> (PathBuf, PathBuf) {
    use padkit_conformance::Verdict;
    std::fs::create_dir_all(dir).unwrap();
    let mut a = Report::new(&["core", "tract"]);
    a.record("c1", &[], "core", Verdict::Pass);
    a.record("c1", &[], "tract", Verdict::Refused("no such opset".into()));
    a.record(
        "c2",
        &[],
        "core",
        Verdict::Wrong("off by one (1.2 s)".into()),
    );
    a.record("c2", &[], "tract", Verdict::Pass);
    let mut b = Report::new(&["core", "tract"]);
    b.record("c1", &[], "core", Verdict::Pass);
    b.record("c1", &[], "tract", Verdict::Unsupported("no f32".into()));
    b.record(
        "c2",
        &[],
        "core",
        Verdict::Wrong("off by two (3.4 s)".into()),
    );
    b.record("c2", &[], "tract", Verdict::Untested("twin refused".into()));
    b.record("c3", &[], "core", Verdict::Pass);
    let (pa, pb) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&pa, a.to_json()).unwrap();
    std::fs::write(&pb, b.to_json()).unwrap();
    (pa, pb)
}

#[test]
fn suite_compare_lists_each_difference_in_kind() {
    let dir = scratch("compare");
    let (a, b) = two_reports(&dir);
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = xtask(&["suite", "compare", a, a]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "reports agree: 2 cases × 2 engines\n");
    let out = xtask(&["suite", "compare", a, b]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "case \"c3\": in the actual report only\n\
         case \"c1\", engine \"tract\": expected refused, actual unsupported\n\
         case \"c2\", engine \"tract\": expected pass, actual untested\n"
    );
    assert!(
        text(&out.stderr).contains("differ: 3 differences"),
        "{}",
        text(&out.stderr)
    );
    // The case list against the catalogue's.
    let out = xtask(&["suite", "compare", "--cases-of-catalogue", a, a]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("the actual report's cases are not the catalogue's: 2 cases"),
        "{}",
        text(&out.stdout)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `suite compare` merges several actual reports, runs of different engines on the same
/// cases (as CI grades padkit's engines with two builds of the CLI), before comparing.
#[test]
fn suite_compare_merges_runs_of_different_engines() {
    use padkit_conformance::Verdict;
    let dir = scratch("compare-merged");
    let (a, _) = two_reports(&dir);
    let mut core = Report::new(&["core"]);
    core.record("c1", &[], "core", Verdict::Pass);
    core.record("c2", &[], "core", Verdict::Wrong("off by one".into()));
    let mut tract = Report::new(&["tract"]);
    tract.record("c1", &[], "tract", Verdict::Refused("no such opset".into()));
    tract.record("c2", &[], "tract", Verdict::Pass);
    let (pc, pt) = (dir.join("core.json"), dir.join("tract.json"));
    std::fs::write(&pc, core.to_json()).unwrap();
    std::fs::write(&pt, tract.to_json()).unwrap();
    let (a, pc, pt) = (
        a.to_str().unwrap(),
        pc.to_str().unwrap(),
        pt.to_str().unwrap(),
    );
    let out = xtask(&["suite", "compare", a, pc, pt]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "reports agree: 2 cases × 2 engines\n");
    // One of the runs alone lacks the other's engine.
    let out = xtask(&["suite", "compare", a, pc]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "engine \"tract\": in the expected report only\n"
    );
    assert!(
        text(&out.stderr).contains(&format!("{a} and {pc} differ: 1 difference")),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `suite table` refuses two verdicts for one (case, engine), naming both reports.
#[test]
fn suite_table_refuses_two_verdicts_for_one_case_and_engine() {
    let dir = scratch("table-clash");
    let (a, b) = two_reports(&dir);
    let out = xtask(&["suite", "table", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "{} and {} both hold a verdict of engine \"core\" on case \"c1\"",
            a.display(),
            b.display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
