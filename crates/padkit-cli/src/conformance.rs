//! `padkit conformance`: every ONNX backend-test case below some directories, on every
//! engine, compared exactly.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use prost::Message;
use tract_onnx::pb::{ModelProto, TensorProto};

use crate::engine::{self, Engine};
use crate::verdict::{Tally, Verdict, judge};

/// Every folder holding `model.onnx` and `test_data_set_*`, sorted.
fn find_cases(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if dir.join("model.onnx").is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?;
    for e in entries {
        let p = e?.path();
        if p.is_dir() {
            find_cases(&p, out)?;
        }
    }
    Ok(())
}

pub fn read_tensor(path: &Path) -> Result<padkit::Tensor> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let tp = TensorProto::decode(&*bytes)
        .with_context(|| format!("{} is not a serialized ONNX TensorProto", path.display()))?;
    padkit_tract::proto::tensor_from_proto(&tp)
        .map_err(|e| anyhow::anyhow!("{}: {e:#}", path.display()))
}

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
        .map(|p| read_tensor(&p))
        .collect()
}

pub fn run(dirs: &[PathBuf], engines: &[Engine]) -> Result<Tally> {
    let mut cases = vec![];
    for d in dirs {
        find_cases(d, &mut cases)?;
    }
    cases.sort();
    let mut tally = Tally::default();
    for case in cases {
        let label = case.display().to_string();
        let model = read_model(&case.join("model.onnx"))?;
        let mut sets: Vec<PathBuf> = std::fs::read_dir(&case)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("test_data_set_"))
            })
            .collect();
        sets.sort();
        for set in sets {
            let inputs = numbered(&set, "input")?;
            let expected = numbered(&set, "output")?;
            for &engine in engines {
                let name = format!(
                    "{label}/{} [{}]",
                    set.file_name().unwrap_or_default().to_string_lossy(),
                    engine.name()
                );
                let run = engine::run(engine, &model, Some(&case.join("model.onnx")), &inputs);
                let verdict = judge(run, &expected);
                tally.record(&verdict);
                match verdict {
                    Verdict::Pass => println!("PASS {name}"),
                    Verdict::Fail(why) => println!("FAIL {name}: {why}"),
                    Verdict::Skip(why) => println!("SKIP {name}: {why}"),
                }
            }
        }
    }
    Ok(tally)
}
