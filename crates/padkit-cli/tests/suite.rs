//! `padkit suite export` and `padkit conformance --report` as a conformance user runs
//! them: the exported cases read back, every verdict graded from the manifest, the
//! reports in each format.

use std::path::{Path, PathBuf};

use padkit_conformance::{ExpectedEntry, Manifest, Report};

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
    assert!(
        manifest
            .cases
            .iter()
            .all(|c| c.tags.iter().any(|t| t == "opset:18"))
    );
    // The backend-test layout, with the output only where the case must not fail.
    for entry in &manifest.cases {
        let case = dir.join(&entry.name);
        assert!(case.join("model.onnx").is_file());
        assert!(case.join("test_data_set_0/input_0.pb").is_file());
        let output = case.join("test_data_set_0/output_0.pb").is_file();
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
    // Without --exit-zero, the refusals of stock-burn are skips, so the run succeeds.
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
