//! `padkit suite export`: padkit-conformance's catalogue in the ONNX backend-test layout
//! (`CASE/model.onnx`, `CASE/test_data_set_0/input_K.pb` and `output_0.pb`), which
//! `onnx.backend.test`, ONNX Runtime's test runner and `padkit conformance` read, with a
//! `manifest.json` of every case's tags and expected result (the layout cannot say that a
//! case must fail).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use padkit_conformance::manifest::OUTPUT_FILE;
use padkit_conformance::report::{TABLE_BEGIN, TABLE_END, splice};
use padkit_conformance::{Case, Expected, Manifest, Report, Size, cases};
use prost::Message;

use padkit_onnx::model::PadModel;
use padkit_onnx::proto::tensor_to_proto;

/// The catalogue's cases of `size` that carry every tag of `tags` (a whole tag such as
/// `mode:reflect`, or its value, `reflect`).
pub fn select(size: Size, tags: &[String]) -> Vec<Case> {
    cases(size)
        .into_iter()
        .filter(|c| tags.iter().all(|t| c.has_tag(t)))
        .collect()
}

/// Writes `cases` below `dir` and returns how many. `dir` must be absent, empty, or a
/// suite exported before: only a `manifest.json` written by padkit-conformance and the
/// case directories it lists, which are replaced. The manifest is written first, so an
/// interrupted export can be repeated.
pub fn export(dir: &Path, cases: &[Case]) -> Result<usize> {
    ensure!(
        !cases.is_empty(),
        "no case of the catalogue carries every tag given"
    );
    prepare(dir)?;
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, Manifest::of(cases).to_json())
        .with_context(|| format!("cannot write {}", manifest.display()))?;
    for case in cases {
        write_case(&dir.join(&case.name), case)
            .with_context(|| format!("cannot write case {}", case.name))?;
    }
    Ok(cases.len())
}

/// The `manifest.json` of a suite's directory, if it has one.
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
/// that the directory holds nothing else.
fn prepare(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
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
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let name = entry?.file_name();
        let name = name.to_string_lossy();
        let ours = (old.is_some() && name == "manifest.json")
            || (is_case_name(&name) && listed.contains(&name.as_ref()));
        ensure!(
            ours,
            "{} holds {name:?}, which is not part of a padkit suite; export into a new or \
             empty directory",
            dir.display()
        );
    }
    for name in listed.iter().filter(|n| is_case_name(n)) {
        let case = dir.join(name);
        if case.is_dir() {
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

fn write_case(dir: &Path, case: &Case) -> Result<()> {
    let model = PadModel::from_case(case);
    let proto = model.proto();
    let set = dir.join("test_data_set_0");
    std::fs::create_dir_all(&set)?;
    std::fs::write(dir.join("model.onnx"), proto.encode_to_vec())?;
    let names = proto.graph.iter().flat_map(|g| &g.input).map(|i| &i.name);
    for (k, (name, t)) in names.zip(model.inputs()).enumerate() {
        let tp = tensor_to_proto(&t, name);
        std::fs::write(set.join(format!("input_{k}.pb")), tp.encode_to_vec())?;
    }
    if let Expected::Output(y) = &case.expected {
        std::fs::write(
            dir.join(OUTPUT_FILE),
            tensor_to_proto(y, "y").encode_to_vec(),
        )?;
    }
    Ok(())
}

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
    let new = splice(&doc, &table).with_context(|| {
        format!(
            "{} has no lines {TABLE_BEGIN:?} and {TABLE_END:?} to put the table between",
            path.display()
        )
    })?;
    std::fs::write(path, new).with_context(|| format!("cannot write {}", path.display()))
}

/// The JSON reports at `paths`, merged in order.
pub fn merged(paths: &[PathBuf]) -> Result<Report> {
    let reports = paths.iter().map(|p| {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        Report::from_json(&text).with_context(|| format!("{} is not a padkit report", p.display()))
    });
    Ok(Report::merge(reports.collect::<Result<Vec<_>>>()?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_selection_carries_every_tag() {
        use padkit_conformance::Size;
        let picked = crate::suite::select(Size::Small, &["wrap".into(), "opset:19".into()]);
        assert!(!picked.is_empty() && picked.iter().all(|c| c.has_tag("mode:wrap")));
    }

    #[test]
    fn an_export_writes_the_layout_and_the_manifest() {
        use padkit_conformance::Size;
        let dir = std::env::temp_dir().join(format!("padkit-suite-unit-{}", std::process::id()));
        let picked = crate::suite::select(Size::Small, &["feature:crop".into()]);
        assert_eq!(crate::suite::export(&dir, &picked).unwrap(), picked.len());
        assert!(dir.join(&picked[0].name).join("model.onnx").is_file());
        assert!(dir.join("manifest.json").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
