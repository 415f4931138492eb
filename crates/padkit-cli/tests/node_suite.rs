//! The ONNX backend node tests through stock tract-onnx and padkit-tract in one harness:
//! no case that stock tract passes may fail with padkit (the `If` and `CenterCropPad`
//! that padkit-tract registers included), and the Pad and CenterCropPad cases stock tract
//! fails pass with padkit.
//!
//! padkit's harness drives stock tract as it drives padkit-tract (input facts set from the
//! data, scalar inputs as values, ONNX Runtime's load-time checks first), so stock tract
//! also runs as a user loads it: `tract_onnx::onnx().model_for_path(..)`, optimised, run
//! on the data set's inputs as tract's own loader reads them, with no padkit code between.
//! The test prints where that differs from the harness-driven stock column, and padkit-tract
//! must pass every case either stock column passes.
//!
//! By default the vendored Pad, CenterCropPad and If cases (`tests/data/node-suite`); with
//! `PADKIT_NODE_SUITE=DIR`, every case below DIR (the whole suite, written by
//! `tests/node-suite/generate.py`), and the counts must be those of docs/tract.md's "ONNX
//! node suite".

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use assert_cmd::Command;
use padkit_conformance::{Report, Verdict};

#[test]
fn padkit_tract_passes_every_node_test_stock_tract_passes() {
    let vendored = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/node-suite");
    // (a relative PADKIT_NODE_SUITE is below the workspace's root)
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let whole_suite = std::env::var_os("PADKIT_NODE_SUITE").is_some();
    let dir = std::env::var_os("PADKIT_NODE_SUITE").map_or(vendored, |d| root.join(d));
    // Every case on both engines, as `padkit conformance` grades them (the ONNX backend
    // tests' tolerance for whole models).
    let out = Command::cargo_bin("padkit")
        .unwrap()
        .args([
            "conformance",
            "--engine",
            "stock-tract,tract",
            "--report",
            "json",
        ])
        .args(["--exit-zero", "--max-output-bytes", "1073741824"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = Report::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
    // case → stock-tract's and padkit-tract's verdicts; an unreadable model fails on both
    let harness: BTreeMap<String, (Option<Verdict>, Option<Verdict>)> = report
        .cases
        .iter()
        .map(|c| {
            let verdict = |e: &str| c.results.get(e).cloned();
            (c.name.clone(), (verdict("stock-tract"), verdict("tract")))
        })
        .collect();
    // The same data sets through stock tract as a user loads it, named as the report
    // names them.
    let (case_dirs, user) = as_a_user::verdicts(&dir).unwrap();
    let names: BTreeSet<&String> = harness.keys().chain(user.keys()).collect();
    let passes = |v: &Option<Verdict>| *v == Some(Verdict::Pass);
    // data set → (stock through the harness, stock as a user loads it, padkit) passes
    let rows: BTreeMap<&str, (bool, bool, bool)> = names
        .iter()
        .map(|n| {
            let (stock, padkit) = harness.get(*n).cloned().unwrap_or_default();
            let by_user = matches!(user.get(*n), Some(Ok(())));
            (n.as_str(), (passes(&stock), by_user, passes(&padkit)))
        })
        .collect();
    // A case's directory name (its report name ends with the data set past the first).
    let name = |c: &str| {
        let mut parts = c.rsplit('/');
        let last = parts.next().unwrap_or(c);
        match last.starts_with("test_data_set_") {
            true => parts.next().unwrap_or(last).to_string(),
            false => last.to_string(),
        }
    };
    // Against both stock columns: a data set either passes must pass with padkit.
    let regressions: Vec<String> = rows
        .iter()
        .filter(|(_, (stock, by_user, padkit))| (*stock || *by_user) && !*padkit)
        .map(|(c, (stock, by_user, _))| {
            let which = match (*stock, *by_user) {
                (true, true) => "both stock columns pass it",
                (true, false) => "stock through the harness passes it",
                _ => "stock as a user loads it passes it",
            };
            format!("{} ({which})", name(c))
        })
        .collect();
    // docs/tract.md's gains: against the harness-driven stock column.
    let gains: Vec<String> = rows
        .iter()
        .filter(|(_, (stock, _, padkit))| !*stock && *padkit)
        .map(|(c, _)| name(c))
        .collect();
    let stock = rows.values().filter(|(s, _, _)| *s).count();
    let by_user = rows.values().filter(|(_, u, _)| *u).count();
    let padkit = rows.values().filter(|(_, _, p)| *p).count();
    println!(
        "{case_dirs} cases, {} data sets below {}: stock tract-onnx passes {stock} through \
         padkit's harness and {by_user} as a user loads it, padkit-tract {padkit}; {} \
         regressions (against either stock column), {} gains: {gains:?}",
        rows.len(),
        dir.display(),
        regressions.len(),
        gains.len()
    );
    // Where the two stock columns disagree, and why.
    let differ: Vec<String> = rows
        .iter()
        .filter(|(_, (stock, by_user, _))| stock != by_user)
        .map(|(c, _)| {
            let through = match harness.get(*c).and_then(|(s, _)| s.as_ref()) {
                Some(Verdict::Pass) => "passes".to_string(),
                Some(v) => format!("{}: {}", v.name(), clip(v.detail())),
                None => "no verdict".to_string(),
            };
            let loaded = match user.get(*c) {
                Some(Ok(())) => "passes".to_string(),
                Some(Err(why)) => clip(why),
                None => "not run".to_string(),
            };
            format!("  {c}: through the harness {through}; as a user loads it {loaded}")
        })
        .collect();
    println!(
        "stock tract-onnx as a user loads it and through padkit's harness differ on {} data \
         sets{}",
        differ.len(),
        if differ.is_empty() { "" } else { ":" }
    );
    for line in &differ {
        println!("{line}");
    }
    assert!(
        regressions.is_empty(),
        "stock passes, padkit fails: {regressions:?}"
    );
    for must in [
        "test_center_crop_pad_crop",
        "test_center_crop_pad_pad",
        "test_center_crop_pad_crop_and_pad",
        "test_center_crop_pad_crop_axes_chw",
        "test_center_crop_pad_crop_axes_hwc",
        "test_center_crop_pad_crop_negative_axes_hwc",
        "test_constant_pad",
        "test_constant_pad_axes",
        "test_constant_pad_negative_axes",
        "test_edge_pad",
        "test_reflect_pad",
        "test_wrap_pad",
    ] {
        assert!(
            gains.iter().any(|g| g == must),
            "{must} is not a gain: {gains:?}"
        );
    }
    // docs/tract.md quotes the whole suite's counts (the vendored cases are a few of them).
    if whole_suite {
        readme::check(&readme::Counts {
            cases: case_dirs,
            stock,
            by_user,
            padkit,
            regressions: regressions.len(),
            gains: gains.len(),
        });
    }
}

/// `text` on one line, cut to its first 200 characters.
fn clip(text: &str) -> String {
    let line = text.replace('\n', " | ");
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}

/// Stock tract-onnx as a user loads it, with no padkit code between: each data set in a
/// thread of its own, a panic caught (as padkit's harness isolates its engines), and no
/// answer within the harness's default timeout a failure.
mod as_a_user {
    use std::collections::BTreeMap;
    use std::path::Path;
    use std::sync::mpsc;
    use std::time::Duration;

    use anyhow::{Context, Result, bail, ensure};
    use padkit_conformance::compare::{Tolerance, first_difference};
    use padkit_engines::pad_graph::is_pad_graph;
    use padkit_onnx_tools::data::{data_sets, find_cases, numbered, read_model};
    use padkit_onnx_tools::isolate::{install_hook, isolated};
    use prost::Message;
    use tract_onnx::data_resolver::FopenDataResolver;
    use tract_onnx::pb::TensorProto;
    use tract_onnx::prelude::*;

    /// What `padkit conformance` gives an engine by default (its `--timeout`).
    const TIMEOUT: Duration = Duration::from_secs(60);

    /// Every data set's verdict by name (`Err` says why it does not pass).
    pub type Verdicts = BTreeMap<String, Result<(), String>>;

    /// The number of cases below `dir`, and every data set's verdict, named as `padkit
    /// conformance` names them in its report: the case's directory below `dir`, then the
    /// data set unless it is the first.
    pub fn verdicts(dir: &Path) -> Result<(usize, Verdicts)> {
        // Panics inside `isolated` are verdicts, not noise on stderr.
        install_hook();
        let cases = find_cases(dir)?;
        let mut out = BTreeMap::new();
        for case in &cases {
            let relative = case.strip_prefix(dir).unwrap_or(case).to_string_lossy();
            let relative = match relative.is_empty() {
                true => case.file_name().unwrap_or_default().to_string_lossy(),
                false => relative,
            };
            // The harness's comparison: Pad graphs exactly, whole models within the ONNX
            // backend tests' tolerance.
            let tolerance = match read_model(&case.join("model.onnx")) {
                Ok(m) if is_pad_graph(&m) => None,
                _ => Some(Tolerance::ONNX_BACKEND),
            };
            for set in data_sets(case)? {
                let set_name = set.file_name().unwrap_or_default().to_string_lossy();
                let name = match set_name == "test_data_set_0" {
                    true => relative.to_string(),
                    false => format!("{relative}/{set_name}"),
                };
                out.insert(name, watched(case, &set, tolerance));
            }
        }
        Ok((cases.len(), out))
    }

    /// [`run`] in a thread of its own, isolated; `Err` says why the data set does not
    /// pass.
    fn watched(case: &Path, set: &Path, tolerance: Option<Tolerance>) -> Result<(), String> {
        let (tx, rx) = mpsc::channel();
        let (case, set) = (case.to_path_buf(), set.to_path_buf());
        std::thread::Builder::new()
            .name("stock-tract-as-a-user".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let verdict = isolated("stock tract-onnx", || run(&case, &set, tolerance));
                let _ = tx.send(verdict.map_err(|e| format!("{e:#}")));
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        rx.recv_timeout(TIMEOUT).unwrap_or_else(|e| {
            Err(match e {
                mpsc::RecvTimeoutError::Timeout => {
                    format!("hung: no answer within {} s", TIMEOUT.as_secs())
                }
                mpsc::RecvTimeoutError::Disconnected => "its thread died".to_string(),
            })
        })
    }

    /// `case/model.onnx` through `tract_onnx::onnx()` as its documentation loads a model,
    /// run on the inputs of `set` read by tract-onnx's own `TensorProto` loader, its
    /// outputs compared with the expected ones as the harness compares them.
    fn run(case: &Path, set: &Path, tolerance: Option<Tolerance>) -> Result<()> {
        let plan = tract_onnx::onnx()
            .model_for_path(case.join("model.onnx"))
            .context("load")?
            .into_optimized()
            .context("optimise")?
            .into_runnable()
            .context("prepare")?;
        let inputs: TVec<TValue> = (0usize..)
            .map(|k| set.join(format!("input_{k}.pb")))
            .take_while(|p| p.is_file())
            .map(|p| -> Result<TValue> {
                let bytes = std::fs::read(&p)?;
                let proto = TensorProto::decode(&*bytes)?;
                let tensor = tract_onnx::tensor::load_tensor(&FopenDataResolver, &proto, None)?;
                Ok(tensor.into_tvalue())
            })
            .collect::<Result<TVec<TValue>>>()
            .context("read the inputs")?;
        let outputs = plan.run(inputs).context("run")?;
        let expected = numbered(set, "output").context("read the expected outputs")?;
        ensure!(
            outputs.len() == expected.len(),
            "{} outputs, expected {}",
            outputs.len(),
            expected.len()
        );
        for (k, (got, want)) in outputs.iter().zip(&expected).enumerate() {
            let got = padkit_tract::from_tract(got).with_context(|| format!("output {k}"))?;
            if let Some(diff) = first_difference(&got, want, tolerance) {
                bail!("output {k}: {diff}");
            }
        }
        Ok(())
    }
}

/// docs/tract.md's "ONNX node suite" counts, read back and compared with the run's.
mod readme {
    use xtask::table_splice::spaced;

    /// A run's counts, as docs/tract.md quotes them.
    pub struct Counts {
        /// Case directories (docs/tract.md's "N cases").
        pub cases: usize,
        /// Data sets stock tract-onnx passes through padkit's harness.
        pub stock: usize,
        /// Data sets stock tract-onnx passes as a user loads it.
        pub by_user: usize,
        /// Data sets padkit-tract passes.
        pub padkit: usize,
        /// Data sets either stock column passes and padkit-tract fails.
        pub regressions: usize,
        /// Data sets padkit-tract passes and the harness-driven stock column fails.
        pub gains: usize,
    }

    /// Panics, saying what to write, unless docs/tract.md's "## ONNX node suite" quotes
    /// `run`'s counts: "(N cases, generated by" in its first sentence, then in its first
    /// table, by the row's first cell, `stock tract-onnx …` (through the harness),
    /// `… as a user loads it …`, `padkit-tract`, `… padkit fails …` and
    /// `… padkit passes …`, each count the first thing in the row's second cell.
    pub fn check(run: &Counts) {
        // The crate's directory as cargo gives it at run time: CI runs this test binary as
        // built in another copy of the repository, which is gone by then.
        let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(
            || env!("CARGO_MANIFEST_DIR").into(),
            std::path::PathBuf::from,
        );
        let path = crate_dir.join("../../docs/tract.md");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let part = section(&text, "## ONNX node suite")
            .unwrap_or_else(|| panic!("{} has no \"## ONNX node suite\"", path.display()));
        let rows = first_table(part);
        let row = |which: &dyn Fn(&str) -> bool| {
            rows.iter()
                .find(|(first, _)| which(first.as_str()))
                .and_then(|(_, second)| leading_number(second))
        };
        let user = |c: &str| c.contains("as a user loads it");
        let quoted = [
            (
                "the \"(N cases, generated by\" of its first sentence",
                cases(part),
                run.cases,
            ),
            (
                "the row \"stock tract-onnx …\" (through the harness)",
                row(&|c| c.starts_with("stock tract-onnx") && !user(c)),
                run.stock,
            ),
            (
                "the row \"… as a user loads it …\"",
                row(&user),
                run.by_user,
            ),
            (
                "the row \"padkit-tract\"",
                row(&|c| c == "padkit-tract"),
                run.padkit,
            ),
            (
                "the row \"… padkit fails\"",
                row(&|c| c.contains("padkit fails")),
                run.regressions,
            ),
            (
                "the row \"… padkit passes …\"",
                row(&|c| c.contains("padkit passes")),
                run.gains,
            ),
        ];
        let wrong: Vec<String> = quoted
            .iter()
            .filter(|(_, says, counted)| *says != Some(*counted))
            .map(|(what, says, counted)| {
                let says = says.map_or("nothing".to_string(), spaced);
                format!(
                    "{what}: docs/tract.md says {says}, this run counts {}",
                    spaced(*counted)
                )
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "docs/tract.md's \"## ONNX node suite\" does not quote this run's counts:\n  {}\n\
             Write this run's counts there (thousands set apart by a space, `1 016`). They are \
             the whole suite's, as .ci/run generates it (tests/node-suite/generate.py without \
             substrings, the onnx of tests/node-suite/requirements.txt); the vendored cases \
             alone are not checked.",
            wrong.join("\n  ")
        );
    }

    /// The text from the heading line `heading` to the next heading.
    fn section<'t>(text: &'t str, heading: &str) -> Option<&'t str> {
        let start = text.lines().position(|l| l.trim_end() == heading)?;
        let mut offset = 0;
        let mut begin = None;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if i == start + 1 {
                begin = Some(offset);
            }
            if i > start && line.starts_with('#') {
                return Some(&text[begin.unwrap_or(offset)..offset]);
            }
            offset += line.len();
        }
        Some(&text[begin.unwrap_or(offset)..])
    }

    /// The first Markdown table of `section`: each row's first and second cells, trimmed.
    fn first_table(section: &str) -> Vec<(String, String)> {
        section
            .lines()
            .skip_while(|l| !l.trim_start().starts_with('|'))
            .take_while(|l| l.trim_start().starts_with('|'))
            .filter_map(|l| {
                let mut cells = l.trim().trim_matches('|').split('|').map(str::trim);
                Some((cells.next()?.to_string(), cells.next()?.to_string()))
            })
            .collect()
    }

    /// The N of "(N cases, generated by".
    fn cases(section: &str) -> Option<usize> {
        let before = &section[..section.find(" cases, generated by")?];
        leading_number(&before[before.rfind('(')? + 1..])
    }

    /// The count `text` begins with (after any `**`): digits, then groups of three set apart
    /// by a space, thin space, narrow or plain no-break space (`1 016`, `**0**`, `20: …`).
    fn leading_number(text: &str) -> Option<usize> {
        let chars: Vec<char> = text.trim().trim_start_matches('*').chars().collect();
        let mut digits: String = chars.iter().take_while(|c| c.is_ascii_digit()).collect();
        let mut at = digits.len();
        if at == 0 {
            return None;
        }
        loop {
            let separated = chars
                .get(at)
                .is_some_and(|c| [' ', '\u{2009}', '\u{202f}', '\u{a0}'].contains(c));
            let group: String = chars.iter().skip(at + 1).take(3).collect();
            let three = group.len() == 3 && group.chars().all(|c| c.is_ascii_digit());
            let ends = !chars.get(at + 4).is_some_and(char::is_ascii_digit);
            if !(separated && three && ends) {
                break;
            }
            digits.push_str(&group);
            at += 4;
        }
        digits.parse().ok()
    }

    #[test]
    fn counts_read_as_the_readme_writes_them() {
        assert_eq!(leading_number("1 016"), Some(1016));
        assert_eq!(leading_number("1\u{2009}036"), Some(1036));
        assert_eq!(leading_number("**0**"), Some(0));
        assert_eq!(leading_number("20: the 6 Pad cases"), Some(20));
        assert_eq!(leading_number("5 of 6"), Some(5));
        assert_eq!(leading_number("none"), None);
        let part = section(
            "# A\n## ONNX node suite\n\nThe tests (1 884 cases, generated by\nx\n\n\
             | | passes |\n|---|---|\n| stock tract-onnx 0.23.9 | 1 016 |\n\n| other | 3 |\n\
             ## Next\n",
            "## ONNX node suite",
        )
        .unwrap();
        assert_eq!(cases(part), Some(1884));
        let rows = first_table(part);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2], ("stock tract-onnx 0.23.9".into(), "1 016".into()));
    }
}
