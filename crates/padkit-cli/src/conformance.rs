//! `padkit conformance`: every ONNX backend-test case below some directories, on every
//! engine, each case isolated so that one failure is one failure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::{Context, Result, ensure};

use crate::engine::{self, Engine};
use crate::suite::read_manifest;
use crate::verdict::{Expect, Tally, judge};
use padkit::Tensor;
use padkit_conformance::compare::Tolerance;
use padkit_conformance::{ExpectedEntry, Manifest, Report, Verdict};
use padkit_onnx::data::{find_cases, numbered, read_model};
use padkit_onnx::graph::Outcome;
use padkit_onnx::graph::is_pad_graph;
use padkit_onnx::names::printable;
use tract_onnx::pb::ModelProto;

/// How `conformance` compares and bounds the cases.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The tolerance for float outputs of whole models; Pad graphs compare exactly.
    pub tolerance: Tolerance,
    /// The largest output any engine may allocate.
    pub max_output_bytes: u64,
    /// How long an engine may take on one case before it counts as hung.
    pub timeout: Duration,
}

/// One case and data set as the runner reports it.
#[derive(Debug, Clone)]
pub struct Row {
    /// The case's directory and data set, printable (`DIR/case/test_data_set_0`).
    pub label: String,
    /// The case's name in reports: its directory below the root it was found in, and the
    /// data set unless it is the first.
    pub name: String,
    /// The case's tags, from the `manifest.json` beside it (none without one).
    pub tags: Vec<String>,
}

/// Runs every case below `dirs` on `engines`; prints one line per (case, data set,
/// engine) and returns the tally.
pub fn run(dirs: &[PathBuf], engines: &[Engine], settings: Settings) -> Result<Tally> {
    run_with(
        dirs,
        engines,
        settings,
        |row, engine, verdict| match engine {
            Some(engine) => print_line(&format!("{} [{}]", row.label, engine.name()), verdict),
            None => print_line(&row.label, verdict),
        },
    )
}

/// Runs every case below `dirs` on `engines` and gathers the verdicts in a report.
pub fn report(dirs: &[PathBuf], engines: &[Engine], settings: Settings) -> Result<(Tally, Report)> {
    let mut report = Report::new(&engines.iter().map(|e| e.name()).collect::<Vec<_>>());
    let tally = run_with(dirs, engines, settings, |row, engine, verdict| {
        // An unreadable case is refused by every engine.
        let names = match engine {
            Some(e) => vec![e],
            None => engines.to_vec(),
        };
        for e in names {
            report.record(&row.name, &row.tags, e.name(), verdict.clone());
        }
    })?;
    Ok((tally, report))
}

/// [`run`], handing each (case and data set, engine, verdict) to `on_result` instead of
/// printing it; a model that cannot be read fails once, for no engine (`None`). Where a
/// case's directory has a `manifest.json` beside it (as `padkit suite export` writes), the
/// case carries its tags, and passes on an error when it must fail.
pub fn run_with(
    dirs: &[PathBuf],
    engines: &[Engine],
    settings: Settings,
    mut on_result: impl FnMut(&Row, Option<Engine>, &Verdict),
) -> Result<Tally> {
    // The manifest of each directory holding cases, read once.
    let mut manifests: HashMap<PathBuf, Option<Manifest>> = HashMap::new();
    let mut cases = vec![];
    for d in dirs {
        let found = find_cases(d)?;
        for parent in found.iter().filter_map(|c| c.parent()) {
            if !manifests.contains_key(parent) {
                manifests.insert(parent.to_path_buf(), read_manifest(parent)?);
            }
        }
        let mut found: Vec<(PathBuf, Option<usize>)> = found
            .into_iter()
            .map(|c| {
                let at = manifest_of(&manifests, &c).and_then(|m| {
                    m.cases
                        .iter()
                        .position(|e| Some(e.name.as_str()) == leaf(&c))
                });
                (c, at)
            })
            .collect();
        // A suite's cases in its manifest's order, which groups them as the catalogue does.
        found.sort_by(|(a, i), (b, j)| (a.parent(), i).cmp(&(b.parent(), j)));
        cases.extend(found.into_iter().map(|(c, at)| (d, c, at)));
    }
    ensure!(
        !cases.is_empty(),
        "no ONNX test cases (folders holding model.onnx) below {}",
        dirs.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut tally = Tally::default();
    for (root, case, at) in cases {
        let relative = case.strip_prefix(root).unwrap_or(&case).to_string_lossy();
        let relative = if relative.is_empty() {
            case.file_name().unwrap_or_default().to_string_lossy()
        } else {
            relative
        };
        let entry = manifest_of(&manifests, &case)
            .zip(at)
            .map(|(m, i)| &m.cases[i]);
        let tags = entry.map(|e| e.tags.clone()).unwrap_or_default();
        let must_fail = match entry.map(|e| &e.expected) {
            Some(ExpectedEntry::Error { class, .. }) => Some(class.clone()),
            _ => None,
        };
        let label = printable(&case.display().to_string()).into_owned();
        let model = match read_model(&case.join("model.onnx")) {
            Ok(m) => Arc::new(m),
            Err(e) => {
                let verdict = Verdict::Refused(format!("{e:#}"));
                tally.record(&verdict);
                let row = Row {
                    label: label.clone(),
                    name: relative.into_owned(),
                    tags,
                };
                on_result(&row, None, &verdict);
                continue;
            }
        };
        let tolerance = (!is_pad_graph(&model)).then_some(settings.tolerance);
        for set in data_sets(&case)? {
            let set_name = set
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let data = numbered(&set, "input").and_then(|i| Ok((i, numbered(&set, "output")?)));
            let row = Row {
                label: format!("{label}/{set_name}"),
                name: if set_name == "test_data_set_0" {
                    relative.to_string()
                } else {
                    format!("{relative}/{set_name}")
                },
                tags: tags.clone(),
            };
            for &engine in engines {
                let verdict = match &data {
                    Ok((inputs, outputs)) => {
                        let expect = match &must_fail {
                            Some(class) => Expect::Error(class),
                            None => Expect::Outputs(outputs),
                        };
                        match watched(engine, &model, inputs, settings) {
                            Ok(run) => judge(run, expect, tolerance),
                            Err(why) => Verdict::Crash(why),
                        }
                    }
                    Err(e) => Verdict::Refused(format!("{e:#}")),
                };
                tally.record(&verdict);
                on_result(&row, Some(engine), &verdict);
            }
        }
    }
    Ok(tally)
}

/// The manifest beside a case (in its parent directory), if any.
fn manifest_of<'m>(
    manifests: &'m HashMap<PathBuf, Option<Manifest>>,
    case: &Path,
) -> Option<&'m Manifest> {
    manifests.get(case.parent()?)?.as_ref()
}

/// A case directory's own name.
fn leaf(case: &Path) -> Option<&str> {
    case.file_name()?.to_str()
}

/// Runs `engine` on the case in a thread of its own; `Err` says why there is no answer:
/// none within the settings' timeout (the thread is left behind, still running, and the
/// run goes on), or the thread died. Panics inside the engine are errors already (see
/// [`engine::run`]); an abort stops the process.
fn watched(
    engine: Engine,
    model: &Arc<ModelProto>,
    inputs: &[Tensor],
    settings: Settings,
) -> std::result::Result<Result<Outcome>, String> {
    let (tx, rx) = mpsc::channel();
    let (model, inputs) = (Arc::clone(model), inputs.to_vec());
    std::thread::Builder::new()
        .name(format!("padkit-{}", engine.name()))
        .stack_size(16 << 20)
        .spawn(move || {
            let _ = tx.send(engine::run(
                engine,
                &model,
                &inputs,
                settings.max_output_bytes,
            ));
        })
        .map_err(|e| format!("cannot start a thread for the engine: {e}"))?;
    rx.recv_timeout(settings.timeout).map_err(|e| match e {
        mpsc::RecvTimeoutError::Timeout => format!(
            "hung: no answer within {} s",
            settings.timeout.as_secs_f64()
        ),
        mpsc::RecvTimeoutError::Disconnected => {
            format!("the {} engine's thread died", engine.name())
        }
    })
}

/// The `test_data_set_*` folders of a case, sorted.
fn data_sets(case: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(case)
        .with_context(|| format!("cannot read directory {}", case.display()))?;
    let mut sets: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))
        })
        .collect();
    sets.sort();
    Ok(sets)
}

fn print_line(name: &str, verdict: &Verdict) {
    match verdict {
        Verdict::Pass => println!("PASS {name}"),
        v if v.is_unsupported() => println!("SKIP {name}: {}", printable(v.detail())),
        v => println!("FAIL {name}: {}: {}", v.name(), printable(v.detail())),
    }
}
