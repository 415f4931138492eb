//! `padkit conformance`: every ONNX backend-test case below some directories, on every
//! engine, each case isolated so that one failure is one failure.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::{Result, bail, ensure};

use padkit::Tensor;
use padkit_conformance::compare::Tolerance;
use padkit_conformance::{ExpectedEntry, Manifest, Report, Verdict, credit_error, credit_refusal};
use padkit_engines::pad_graph::{Outcome, is_pad_graph};
use padkit_engines::verdict::{Expect, Tally, judge};
use padkit_engines::{self as engine, Engine};
use padkit_onnx::graph::graph_inputs;
use padkit_onnx::pb::ModelProto;
use padkit_onnx_tools::data::{data_sets, find_cases, numbered, read_model};
use padkit_onnx_tools::names::printable;
use padkit_onnx_tools::suite::read_manifest;

/// How `conformance` compares and bounds the cases.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The tolerance for float outputs of whole models; Pad graphs compare exactly.
    pub tolerance: Tolerance,
    /// The largest output any engine may allocate, and the semantics padkit's engines
    /// follow.
    pub run: engine::RunSettings,
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
        // A broken case is refused by every engine.
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
/// printing it. Where a case's directory has a `manifest.json` beside it (as `padkit suite
/// export` writes), the case carries its tags, and passes on an error of its class when it
/// must fail, on an engine that passes the case's valid twin ([`credit_error`]).
///
/// A broken case fails once, for no engine (`None`): a model that cannot be read, a case
/// the manifest lists and the directory lacks, a data set without an input per graph
/// input, or without the expected output. Two cases that would be reported under one name
/// (the same case below two of `dirs`) are refused before anything runs.
pub fn run_with(
    dirs: &[PathBuf],
    engines: &[Engine],
    settings: Settings,
    on_result: impl FnMut(&Row, Option<Engine>, &Verdict),
) -> Result<Tally> {
    for engine in engines {
        engine.check_built()?;
    }
    // The manifest of each directory holding cases, read once.
    let mut manifests: HashMap<PathBuf, Option<Manifest>> = HashMap::new();
    let mut cases: Vec<Found> = vec![];
    for d in dirs {
        let found = find_cases(d)?;
        // The suites: the directories holding cases, and the root itself unless it is a
        // case (a suite whose cases are all missing holds none).
        let mut suites: Vec<PathBuf> = vec![];
        let root = (!d.join("model.onnx").is_file()).then(|| d.clone());
        for dir in found
            .iter()
            .filter_map(|c| c.parent().map(Path::to_path_buf))
            .chain(root)
        {
            if !suites.contains(&dir) {
                suites.push(dir);
            }
        }
        for dir in &suites {
            if !manifests.contains_key(dir) {
                manifests.insert(dir.clone(), read_manifest(dir)?);
            }
        }
        let mut here: Vec<(PathBuf, Option<usize>, bool)> = found
            .iter()
            .map(|c| {
                let at = manifest_of(&manifests, c).and_then(|m| {
                    m.cases
                        .iter()
                        .position(|e| Some(e.name.as_str()) == leaf(c))
                });
                (c.clone(), at, false)
            })
            .collect();
        // The cases a manifest lists that are not there (of the suites below the root:
        // a case given as the root takes its tags from the suite around it, whose other
        // cases are not asked for).
        let present: HashSet<&PathBuf> = found.iter().collect();
        for dir in suites.iter().filter(|s| s.starts_with(d)) {
            let Some(Some(m)) = manifests.get(dir) else {
                continue;
            };
            for (i, e) in m.cases.iter().enumerate() {
                let case = dir.join(&e.name);
                if !present.contains(&case) {
                    here.push((case, Some(i), true));
                }
            }
        }
        // A suite's cases in its manifest's order, which groups them as the catalogue does.
        here.sort_by(|(a, i, _), (b, j, _)| (a.parent(), i).cmp(&(b.parent(), j)));
        cases.extend(here.into_iter().map(|(case, at, missing)| Found {
            name: report_name(d, &case),
            case,
            at,
            missing,
        }));
    }
    ensure!(
        !cases.is_empty(),
        "no ONNX test cases (folders holding model.onnx) below {}",
        dirs.iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    {
        let mut names: HashMap<&str, &Path> = HashMap::new();
        for f in &cases {
            if let Some(first) = names.insert(&f.name, &f.case) {
                bail!(
                    "two cases would both be reported as {:?}: {} and {}; run them separately",
                    f.name,
                    first.display(),
                    f.case.display()
                );
            }
        }
    }
    let mut sink = Sink {
        engines,
        tally: Tally::default(),
        on_result,
        verdicts: HashMap::new(),
    };
    for Found {
        name: relative,
        case,
        at,
        missing,
    } in cases
    {
        let entry = manifest_of(&manifests, &case)
            .zip(at)
            .map(|(m, i)| &m.cases[i]);
        let tags = entry.map(|e| e.tags.clone()).unwrap_or_default();
        let must_fail = match entry.map(|e| &e.expected) {
            Some(ExpectedEntry::Error { class, .. }) => Some(class.clone()),
            _ => None,
        };
        // The valid twin's directory, whose verdicts credit this case's errors.
        let twin = entry
            .and_then(|e| e.twin.as_deref())
            .map(|t| (t, case.parent().unwrap_or(Path::new("")).join(t)));
        let label = printable(&case.display().to_string()).into_owned();
        let first_set = case.join("test_data_set_0");
        if missing {
            let row = Row {
                label,
                name: relative,
                tags,
            };
            let why = format!(
                "the case is missing: {} lists it, but {} is no folder holding model.onnx",
                printable(&case.with_file_name("manifest.json").display().to_string()),
                printable(&case.display().to_string())
            );
            sink.emit(&row, &first_set, None, Verdict::Refused(why));
            continue;
        }
        let model = match read_model(&case.join("model.onnx")) {
            Ok(m) => Arc::new(m),
            Err(e) => {
                let row = Row {
                    label,
                    name: relative,
                    tags,
                };
                sink.emit(&row, &first_set, None, Verdict::Refused(format!("{e:#}")));
                continue;
            }
        };
        let tolerance = (!is_pad_graph(&model)).then_some(settings.tolerance);
        // The inputs a data set must hold: one per graph input without an initializer.
        let takes = graph_inputs(&model).ok().map(|names| names.len());
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
                    relative.clone()
                } else {
                    format!("{relative}/{set_name}")
                },
                tags: tags.clone(),
            };
            // A data set that cannot be what the case needs is the case's fault, not the
            // engines': it fails once.
            let incomplete = match &data {
                Ok((inputs, _)) if takes.is_some_and(|n| n != inputs.len()) => Some(format!(
                    "the case is incomplete: model takes {} inputs, data set holds {}",
                    takes.unwrap_or_default(),
                    inputs.len()
                )),
                Ok((_, outputs)) if must_fail.is_none() && outputs.is_empty() => Some(format!(
                    "the case is incomplete: its expected output {} is missing",
                    printable(&set.join("output_0.pb").display().to_string())
                )),
                _ => None,
            };
            if let Some(why) = incomplete {
                sink.emit(&row, &set, None, Verdict::Refused(why));
                continue;
            }
            for &engine in engines {
                let mut verdict = match &data {
                    Ok((inputs, outputs)) => {
                        let expect = match &must_fail {
                            Some(class) => Expect::Error(class, engine.class_check()),
                            None => Expect::Outputs(outputs),
                        };
                        match watched(engine, &model, inputs, settings) {
                            // (an outside runtime's refusal beyond ONNX passes, and padkit's
                            // under strict ONNX semantics; else padkit's answers numpy's)
                            Ok(run) if engine.is_stock() || settings.run.strict_onnx => {
                                credit_refusal(judge(run, expect, tolerance), &row.tags)
                            }
                            Ok(run) => judge(run, expect, tolerance),
                            Err(why) => Verdict::Crash(why),
                        }
                    }
                    Err(e) => Verdict::Refused(format!("{e:#}")),
                };
                if let Some((twin, dir)) = &twin {
                    let key = (dir.join(&set_name), engine.name());
                    verdict = credit_error(verdict, twin, sink.verdicts.get(&key));
                }
                sink.emit(&row, &set, Some(engine), verdict);
            }
        }
    }
    Ok(sink.tally)
}

/// A case to run: found below a root, or listed by its suite's manifest and missing.
struct Found {
    /// Its name in reports ([`report_name`]).
    name: String,
    /// Its directory.
    case: PathBuf,
    /// Its position in its suite's manifest.
    at: Option<usize>,
    /// True when the manifest lists it and the directory lacks it.
    missing: bool,
}

/// Where the verdicts go: counted, handed to `on_result`, and kept by data set and engine
/// for the cases whose valid twin the data set's case is.
struct Sink<'e, F> {
    engines: &'e [Engine],
    tally: Tally,
    on_result: F,
    verdicts: HashMap<(PathBuf, &'static str), Verdict>,
}

impl<F: FnMut(&Row, Option<Engine>, &Verdict)> Sink<'_, F> {
    /// One verdict on the data set `set`, of `engine`, or of every engine for a broken
    /// case (`None`).
    fn emit(&mut self, row: &Row, set: &Path, engine: Option<Engine>, verdict: Verdict) {
        self.tally.record(&verdict);
        (self.on_result)(row, engine, &verdict);
        let names: Vec<&'static str> = match engine {
            Some(e) => vec![e.name()],
            None => self.engines.iter().map(|e| e.name()).collect(),
        };
        for name in names {
            self.verdicts
                .insert((set.to_path_buf(), name), verdict.clone());
        }
    }
}

/// A case's name in reports: its directory below the root it was found in (the
/// directory's own name where it is the root).
fn report_name(root: &Path, case: &Path) -> String {
    let relative = case.strip_prefix(root).unwrap_or(case).to_string_lossy();
    if relative.is_empty() {
        case.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    } else {
        relative.into_owned()
    }
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
            let _ = tx.send(engine::run(engine, &model, &inputs, settings.run));
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

fn print_line(name: &str, verdict: &Verdict) {
    match verdict {
        Verdict::Pass => println!("PASS {name}"),
        Verdict::Untested(why) => println!("UNTESTED {name}: {}", printable(why)),
        v if v.is_unsupported() => println!("SKIP {name}: {}", printable(v.detail())),
        v => println!("FAIL {name}: {}: {}", v.name(), printable(v.detail())),
    }
}
