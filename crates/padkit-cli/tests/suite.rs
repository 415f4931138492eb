//! `padkit suite export` and `padkit conformance --report` as a conformance user runs
//! them: the exported cases read back, every verdict graded from the manifest, the
//! reports in each format.

use std::path::{Path, PathBuf};

use padkit_conformance::{ExpectedEntry, Manifest, Report};
use padkit_onnx_tools::wire::{Root, unpack};

mod common;
use common::{padkit, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("padkit-suite-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn export(dir: &Path, args: &[&str]) -> Manifest {
    let mut all = vec!["suite", "export", dir.to_str().unwrap()];
    all.extend(args);
    let out = padkit(&all);
    assert!(out.status.success(), "{}", text(&out.stderr));
    Manifest::from_json(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn an_exported_suite_passes_on_padkits_engines_and_reports_as_json() {
    let dir = scratch("json");
    let manifest = export(&dir, &["--small", "--tag", "opset:18"]);
    assert!(manifest.cases.len() > 50, "{}", manifest.cases.len());
    // Every case carries the tag, but the valid twins of the cases that must fail, which
    // come with them whatever their tags.
    let tagged = |c: &padkit_conformance::Entry| c.tags.iter().any(|t| t == "opset:18");
    for c in &manifest.cases {
        let twin_of_tagged = manifest
            .cases
            .iter()
            .any(|m| tagged(m) && m.twin.as_deref() == Some(c.name.as_str()));
        assert!(tagged(c) || twin_of_tagged, "{}", c.name);
    }
    // The backend-test layout, with the output only where the case must not fail; every
    // file in onnx's encoding, whose repeated numbers are not packed (`unpack` finds
    // nothing to change).
    let in_onnx_encoding = |path: &Path, root| {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(unpack(&bytes, root).unwrap(), bytes, "{}", path.display());
    };
    for entry in &manifest.cases {
        let case = dir.join(&entry.name);
        in_onnx_encoding(&case.join("model.onnx"), Root::Model);
        in_onnx_encoding(&case.join("test_data_set_0/input_0.pb"), Root::Tensor);
        let output = case.join("test_data_set_0/output_0.pb");
        if output.is_file() {
            in_onnx_encoding(&output, Root::Tensor);
        }
        let output = output.is_file();
        assert_eq!(
            output,
            matches!(entry.expected, ExpectedEntry::Output { .. }),
            "{}",
            entry.name
        );
    }
    let out = padkit(&[
        "conformance",
        "--engine",
        "all",
        "--report",
        "json",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = Report::from_json(&text(&out.stdout)).unwrap();
    assert_eq!(report.engines, ["core", "tract", "burn"]);
    assert_eq!(report.cases.len(), manifest.cases.len());
    let core = report.cell(None, "core");
    assert_eq!(
        (core.pass, core.refused, core.wrong, core.crash),
        (manifest.cases.len(), 0, 0, 0)
    );
    // The cases that must fail were graded as such: an error passed them.
    let must = report.cell(Some("must-error"), "tract");
    assert!(must.pass >= 8 && must.wrong == 0, "{must:?}");
    assert!(
        text(&out.stderr).contains(" passed, 0 failed, "),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reports_as_markdown_and_junit_and_stock_engines_are_measured() {
    let dir = scratch("md");
    export(
        &dir,
        &["--small", "--tag", "opset:19", "--tag", "feature:crop"],
    );
    let args = |format| {
        vec![
            "conformance",
            "--engine",
            "core,stock-burn",
            "--report",
            format,
            "--exit-zero",
            dir.to_str().unwrap(),
        ]
    };
    let out = padkit(&args("md"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = text(&out.stdout);
    // Burn's pads are usize: its crops read refused, not wrong.
    assert!(md.contains("| feature:crop | ✓ 4 | 4 refused |"), "{md}");
    let out = padkit(&args("junit"));
    let xml = text(&out.stdout);
    assert!(
        xml.contains(
            r#"<testsuite name="stock-burn" tests="4" failures="0" errors="0" skipped="4">"#
        ),
        "{xml}"
    );
    // Without --exit-zero, the refusals of stock-burn are skips, not failures; but a run
    // in which nothing passed or failed tested nothing, and fails.
    let out = padkit(&[
        "conformance",
        "--engine",
        "stock-burn",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("0 passed, 0 failed, 4 skipped")
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("nothing was tested: no case passed or failed (4 skipped"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_refuses_a_directory_that_is_not_a_suite_and_replaces_a_previous_export() {
    let dir = scratch("refuse");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = padkit(&["suite", "export", "--small", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds \"notes.txt\", which is not part of a padkit suite"),
        "{}",
        text(&out.stderr)
    );
    // A manifest that lists the user's directories deletes nothing.
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let foreign = r#"{"generator": "padkit-conformance 0.1.0", "cases": [{"name": "src", "tags": [], "expected": {"error": {"class": "Crop"}}}]}"#;
    std::fs::write(dir.join("manifest.json"), foreign).unwrap();
    let out = padkit(&["suite", "export", "--small", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(dir.join("src").is_dir() && dir.join("notes.txt").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
    // A tag nothing carries is an error, not an empty suite.
    let out = padkit(&[
        "suite",
        "export",
        "--tag",
        "mode:mirror",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no case of the catalogue carries every tag given"));

    let first = export(&dir, &["--small", "--tag", "mode:wrap"]);
    let second = export(&dir, &["--small", "--tag", "mode:edge"]);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .collect();
    assert_eq!(left.len(), second.cases.len() + 1);
    assert!(!dir.join(&first.cases[0].name).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `padkit conformance DIRS…` with these engines: (exit code, stdout, stderr).
fn conformance(engines: &str, dirs: &[&Path]) -> (Option<i32>, String, String) {
    let mut args = vec!["conformance", "--engine", engines];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    let out = padkit(&args);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The pads-length cases of Pad-18 (three modes), which must fail, with their valid twins.
fn pads_length_suite(dir: &Path) -> Manifest {
    let manifest = export(
        dir,
        &[
            "--small",
            "--tag",
            "feature:pads-length",
            "--tag",
            "opset:18",
        ],
    );
    assert_eq!(manifest.cases.len(), 6, "{manifest:?}");
    manifest
}

/// The twin rule: a case that must fail comes with its valid twin, and its error is
/// credited only to an engine that passes the twin; otherwise it is untested, which shows
/// in the summary but fails nothing.
#[test]
fn an_error_is_credited_only_where_the_twin_passes() {
    let dir = scratch("twins");
    let manifest = pads_length_suite(&dir);
    let must: Vec<&padkit_conformance::Entry> =
        manifest.cases.iter().filter(|c| c.twin.is_some()).collect();
    assert_eq!(must.len(), 3);
    for m in &must {
        let twin = m.twin.as_deref().unwrap();
        let at = |name: &str| manifest.cases.iter().position(|c| c.name == name);
        assert!(
            at(twin) < at(m.name.as_str()),
            "{twin} comes after {}",
            m.name
        );
        assert!(matches!(m.expected, ExpectedEntry::Error { .. }));
    }
    let (code, stdout, _) = conformance("core", &[dir.as_path()]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("6 passed, 0 failed, 0 skipped"));
    // Without its expected output the twin is broken (once, for no engine), and the error
    // of the case it is the twin of is not credited.
    let twin = must[0].twin.as_deref().unwrap();
    std::fs::remove_file(dir.join(twin).join("test_data_set_0/output_0.pb")).unwrap();
    let (code, stdout, _) = conformance("core", &[dir.as_path()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("4 passed, 1 failed, 0 skipped, 1 untested"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{twin}/test_data_set_0/output_0.pb is missing")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("UNTESTED ") && l.contains(&must[0].name)),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The class of the error is checked on padkit's engines: a must-error case passes only
/// on an error of its class.
#[test]
fn an_error_of_another_class_is_wrong() {
    let dir = scratch("class");
    let mut manifest = pads_length_suite(&dir);
    for c in &mut manifest.cases {
        if let ExpectedEntry::Error { class, .. } = &mut c.expected {
            *class = "Crop".into();
        }
    }
    std::fs::write(dir.join("manifest.json"), manifest.to_json()).unwrap();
    let (code, stdout, _) = conformance("core", &[dir.as_path()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("3 passed, 3 failed, 0 skipped"),
        "{stdout}"
    );
    let wrong = stdout.lines().find(|l| l.starts_with("FAIL ")).unwrap();
    assert!(
        wrong.contains(": wrong: failed with PadsLength (")
            && wrong.ends_with("where the case must fail with Crop"),
        "{wrong}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Hostile suites: a data set short of an input, a case the manifest lists and the
/// directory lacks: each a broken case, failed once, for no engine.
#[test]
fn incomplete_and_missing_cases_fail_once() {
    let dir = scratch("incomplete");
    let manifest = pads_length_suite(&dir);
    let must: Vec<&str> = manifest
        .cases
        .iter()
        .filter(|c| c.twin.is_some())
        .map(|c| c.name.as_str())
        .collect();
    // Without its input, a case that must fail would fail on every engine, for the
    // missing input.
    std::fs::remove_file(dir.join(must[0]).join("test_data_set_0/input_0.pb")).unwrap();
    std::fs::remove_dir_all(dir.join(must[1])).unwrap();
    let (code, stdout, _) = conformance("all", &[dir.as_path()]);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("12 passed, 2 failed, 0 skipped"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the case is incomplete: model takes 1 inputs, data set holds 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "the case is missing: {}",
            dir.join("manifest.json").display()
        )) && stdout.contains(&format!(
            "but {} is no folder holding model.onnx",
            dir.join(must[1]).display()
        )),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two roots holding the same case would report it under one name: refused, naming both.
#[test]
fn two_cases_of_one_name_are_refused() {
    let (a, b) = (scratch("same-a"), scratch("same-b"));
    let manifest = pads_length_suite(&a);
    pads_length_suite(&b);
    let (code, stdout, stderr) = conformance("core", &[a.as_path(), b.as_path()]);
    assert_eq!(code, Some(1));
    assert!(stdout.is_empty(), "{stdout}");
    let first = &manifest.cases[0].name;
    assert!(
        stderr.contains(&format!(
            "two cases would both be reported as {first:?}: {} and {}",
            a.join(first).display(),
            b.join(first).display()
        )),
        "{stderr}"
    );
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

/// `suite export` writes nothing through a symbolic link: a `manifest.json` or a case
/// directory that is one (into another suite) is refused, and the other suite is intact.
#[cfg(unix)]
#[test]
fn export_refuses_symbolic_links() {
    let (other, dir) = (scratch("link-other"), scratch("link-dir"));
    let manifest = export(&other, &["--small", "--tag", "mode:wrap"]);
    let before = std::fs::read(other.join("manifest.json")).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(other.join("manifest.json"), dir.join("manifest.json")).unwrap();
    let out = padkit(&["suite", "export", "--small", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds \"manifest.json\", a symbolic link"),
        "{}",
        text(&out.stderr)
    );
    // A real manifest, and a case directory that leads into the other suite.
    std::fs::remove_file(dir.join("manifest.json")).unwrap();
    std::fs::write(dir.join("manifest.json"), &before).unwrap();
    let case = &manifest.cases[0].name;
    std::os::unix::fs::symlink(other.join(case), dir.join(case)).unwrap();
    let out = padkit(&["suite", "export", "--small", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!("holds {case:?}, a symbolic link")),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(other.join("manifest.json")).unwrap(), before);
    assert!(other.join(case).join("model.onnx").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&other).unwrap();
}
