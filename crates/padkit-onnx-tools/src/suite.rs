//! `padkit suite export` (and the Python package's `padkit.suite.export`):
//! padkit-conformance's catalogue in the ONNX backend-test layout
//! (`CASE/model.onnx`, `CASE/test_data_set_0/input_K.pb` and `output_0.pb`), which
//! `onnx.backend.test`, ONNX Runtime's test runner and `padkit conformance` read, with a
//! `manifest.json` of every case's tags and expected result (the layout cannot say that a
//! case must fail).

use std::collections::HashSet;
use std::io::Write as _;
use std::path::Path;

use anyhow::{Context, Result, ensure};
use padkit_conformance::manifest::OUTPUT_FILE;
use padkit_conformance::{Case, Expected, Manifest, Size, cases};

use padkit_onnx::proto::tensor_to_proto;

use crate::data::create_file;
use crate::model::PadModel;
use crate::wire::{encode_model, encode_tensor};

/// The catalogue's cases of `size` that carry every tag of `tags` (a whole tag such as
/// `mode:reflect`, or its value, `reflect`), with the valid twin of each case that must
/// fail whether it carries the tags or not (an error on that case is credited only to an
/// engine that passes its twin), in catalogue order.
pub fn select(size: Size, tags: &[String]) -> Vec<Case> {
    let all = cases(size);
    let mut keep: Vec<bool> = all
        .iter()
        .map(|c| tags.iter().all(|t| c.has_tag(t)))
        .collect();
    let twins: HashSet<String> = all
        .iter()
        .zip(&keep)
        .filter(|(_, picked)| **picked)
        .filter_map(|(c, _)| c.twin.clone())
        .collect();
    for (c, picked) in all.iter().zip(keep.iter_mut()) {
        *picked |= twins.contains(c.name.as_str());
    }
    all.into_iter()
        .zip(keep)
        .filter_map(|(c, picked)| picked.then_some(c))
        .collect()
}

/// Writes `cases` below `dir` and returns how many. `dir` must be absent, empty, or a
/// suite exported before: only a `manifest.json` written by padkit-conformance and the
/// case directories it lists, which are replaced, none of them a symbolic link (which
/// could lead into another suite). The manifest is written first, so an interrupted
/// export can be repeated. Nothing is written or removed through a symbolic link.
///
/// # Errors
///
/// `cases` is empty; `dir` holds anything else, or a symbolic link; a file or directory
/// cannot be written.
pub fn export(dir: &Path, cases: &[Case]) -> Result<usize> {
    ensure!(
        !cases.is_empty(),
        "no case of the catalogue carries every tag given"
    );
    prepare(dir)?;
    let manifest = dir.join("manifest.json");
    write_file(&manifest, Manifest::of(cases).to_json().as_bytes())?;
    for case in cases {
        write_case(&dir.join(&case.name), case)
            .with_context(|| format!("cannot write case {}", case.name))?;
    }
    Ok(cases.len())
}

/// The `manifest.json` of a suite's directory, if it has one.
///
/// # Errors
///
/// The manifest cannot be read or is not one padkit-conformance wrote.
pub fn read_manifest(dir: &Path) -> Result<Option<Manifest>> {
    let path = dir.join("manifest.json");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let manifest = Manifest::from_json(&text)
        .with_context(|| format!("{} is not a padkit suite manifest", path.display()))?;
    Ok(Some(manifest))
}

/// Makes `dir` ready: created if absent; a previous export's cases removed, after checking
/// that the directory holds nothing else, and no symbolic link.
fn prepare(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut names = vec![];
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // `file_type` does not follow symbolic links.
        let kind = entry
            .file_type()
            .with_context(|| format!("cannot read {}", entry.path().display()))?;
        ensure!(
            !kind.is_symlink(),
            "{} holds {name:?}, a symbolic link, which an export would write or remove \
             through; export into a new or empty directory",
            dir.display()
        );
        names.push(name);
    }
    let old = read_manifest(dir)?;
    let listed: Vec<&str> = old
        .iter()
        .flat_map(|m| &m.cases)
        .map(|e| e.name.as_str())
        .collect();
    if let Some(m) = &old {
        ensure!(
            m.generator.starts_with("padkit-conformance "),
            "{}/manifest.json was written by {:?}, not by padkit-conformance; export into a \
             new or empty directory",
            dir.display(),
            m.generator
        );
    }
    for name in &names {
        let ours = (old.is_some() && name == "manifest.json")
            || (is_case_name(name) && listed.contains(&name.as_str()));
        ensure!(
            ours,
            "{} holds {name:?}, which is not part of a padkit suite; export into a new or \
             empty directory",
            dir.display()
        );
    }
    for name in listed.iter().filter(|n| is_case_name(n)) {
        let case = dir.join(name);
        // (not following a link made since the check above: `remove_dir_all` removes a
        // link itself, not what it leads to)
        if std::fs::symlink_metadata(&case).is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(&case)
                .with_context(|| format!("cannot remove {}", case.display()))?;
        }
    }
    Ok(())
}

/// A case directory's name as the catalogue makes them: `test_padkit_` then letters,
/// digits and underscores.
fn is_case_name(name: &str) -> bool {
    name.strip_prefix("test_padkit_")
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// Writes `bytes` to the file `path` (created, or truncated), never through a symbolic
/// link at `path`.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    ensure!(
        !link,
        "{} is a symbolic link; an export does not write through one",
        path.display()
    );
    create_file(path)?
        .write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes one case into the new directory `dir` (which must not exist: `create_dir`
/// makes it, and follows no link).
fn write_case(dir: &Path, case: &Case) -> Result<()> {
    let model = PadModel::from_case(case);
    let proto = model.proto();
    let set = dir.join("test_data_set_0");
    std::fs::create_dir(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::create_dir(&set).with_context(|| format!("cannot create {}", set.display()))?;
    write_file(&dir.join("model.onnx"), &encode_model(&proto)?)?;
    let names = proto.graph.iter().flat_map(|g| &g.input).map(|i| &i.name);
    for (k, (name, t)) in names.zip(model.inputs()).enumerate() {
        let tp = tensor_to_proto(&t, name);
        write_file(&set.join(format!("input_{k}.pb")), &encode_tensor(&tp)?)?;
    }
    if let Expected::Output(y) = &case.expected {
        write_file(
            &dir.join(OUTPUT_FILE),
            &encode_tensor(&tensor_to_proto(y, "y"))?,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use padkit_conformance::Size;

    #[test]
    fn a_selection_carries_every_tag() {
        let picked = super::select(Size::Small, &["wrap".into(), "opset:19".into()]);
        assert!(!picked.is_empty() && picked.iter().all(|c| c.has_tag("mode:wrap")));
    }

    #[test]
    fn a_selection_holds_the_twin_of_each_case_that_must_fail() {
        let picked = crate::suite::select(Size::Small, &["must-error".into()]);
        let names: Vec<&str> = picked.iter().map(|c| c.name.as_str()).collect();
        for twin in picked.iter().filter_map(|c| c.twin.as_deref()) {
            assert!(names.contains(&twin), "{twin} is missing");
        }
    }

    #[test]
    fn an_export_writes_the_layout_and_the_manifest() {
        let dir = std::env::temp_dir().join(format!("padkit-suite-unit-{}", std::process::id()));
        let picked = crate::suite::select(Size::Small, &["feature:crop".into()]);
        assert_eq!(crate::suite::export(&dir, &picked).unwrap(), picked.len());
        assert!(dir.join(&picked[0].name).join("model.onnx").is_file());
        assert!(dir.join("manifest.json").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
