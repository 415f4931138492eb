//! `padkit conformance`: every ONNX backend-test case below some directories, on every
//! engine, each case isolated so that one failure is one failure.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use prost::Message;
use tract_onnx::pb::ModelProto;

use crate::engine::{self, Engine};
use crate::graph::is_pad_graph;
use crate::names::printable;
use crate::proto::decode_tensor;
use crate::verdict::{Tally, Verdict, judge};
use padkit_conformance::compare::Tolerance;

/// Every folder below `dir` holding `model.onnx`, sorted. Symbolic links to directories
/// are not followed, so a link back up the tree cannot make the walk endless.
///
/// ```
/// let dir = std::env::temp_dir().join("padkit-doc-find-cases");
/// std::fs::create_dir_all(dir.join("case")).unwrap();
/// std::fs::write(dir.join("case/model.onnx"), b"").unwrap();
/// let cases = padkit_cli::conformance::find_cases(&dir).unwrap();
/// assert_eq!(cases, vec![dir.join("case")]);
/// ```
pub fn find_cases(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = vec![];
    walk(dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if dir.join("model.onnx").is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?;
    for e in entries {
        let e = e.with_context(|| format!("cannot read directory {}", dir.display()))?;
        // `file_type` does not follow symbolic links.
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            walk(&e.path(), out)?;
        }
    }
    Ok(())
}

/// Reads and decodes an ONNX model.
pub fn read_model(path: &Path) -> Result<ModelProto> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    ModelProto::decode(&*bytes).with_context(|| {
        format!(
            "{} is not an ONNX model (protobuf decoding failed)",
            path.display()
        )
    })
}

/// Tensors `prefix_0.pb`, `prefix_1.pb`, … in `dir`.
pub fn numbered(dir: &Path, prefix: &str) -> Result<Vec<padkit::Tensor>> {
    (0..)
        .map(|k| dir.join(format!("{prefix}_{k}.pb")))
        .take_while(|p| p.is_file())
        .map(|p| {
            let bytes =
                std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
            decode_tensor(&bytes, &p.display().to_string())
        })
        .collect()
}

/// How `conformance` compares and bounds the cases.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The tolerance for float outputs of whole models; Pad graphs compare exactly.
    pub tolerance: Tolerance,
    /// The largest output any engine may allocate.
    pub max_output_bytes: u64,
}

/// Runs every case below `dirs` on `engines`; prints one line per (case, data set,
/// engine) and returns the tally.
pub fn run(dirs: &[PathBuf], engines: &[Engine], settings: Settings) -> Result<Tally> {
    run_with(
        dirs,
        engines,
        settings,
        |name, engine, verdict| match engine {
            Some(engine) => report(&format!("{name} [{}]", engine.name()), verdict),
            None => report(name, verdict),
        },
    )
}

/// [`run`], handing each (case and data set, engine, verdict) to `on_result` instead of
/// printing it; a model that cannot be read fails once, for no engine (`None`).
pub fn run_with(
    dirs: &[PathBuf],
    engines: &[Engine],
    settings: Settings,
    mut on_result: impl FnMut(&str, Option<Engine>, &Verdict),
) -> Result<Tally> {
    let mut cases = vec![];
    for d in dirs {
        cases.extend(find_cases(d)?);
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
    for case in cases {
        let label = printable(&case.display().to_string()).into_owned();
        let model = match read_model(&case.join("model.onnx")) {
            Ok(m) => m,
            Err(e) => {
                let verdict = Verdict::Fail(format!("{e:#}"));
                tally.record(&verdict);
                on_result(&label, None, &verdict);
                continue;
            }
        };
        let tolerance = (!is_pad_graph(&model)).then_some(settings.tolerance);
        let mut sets: Vec<PathBuf> = std::fs::read_dir(&case)?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))
            })
            .collect();
        sets.sort();
        for set in sets {
            let set_name = set
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let data = numbered(&set, "input").and_then(|i| Ok((i, numbered(&set, "output")?)));
            let name = format!("{label}/{set_name}");
            for &engine in engines {
                let verdict = match &data {
                    Ok((inputs, expected)) => {
                        let run = engine::run(engine, &model, inputs, settings.max_output_bytes);
                        judge(run, expected, tolerance)
                    }
                    Err(e) => Verdict::Fail(format!("{e:#}")),
                };
                tally.record(&verdict);
                on_result(&name, Some(engine), &verdict);
            }
        }
    }
    Ok(tally)
}

fn report(name: &str, verdict: &Verdict) {
    match verdict {
        Verdict::Pass => println!("PASS {name}"),
        Verdict::Fail(why) => println!("FAIL {name}: {}", printable(why)),
        Verdict::Skip(why) => println!("SKIP {name}: {}", printable(why)),
    }
}
