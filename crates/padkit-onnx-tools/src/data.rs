//! Reading the ONNX backend-test layout: the case folders below a directory, a model,
//! and a data set's numbered tensors.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use padkit_onnx::pb::ModelProto;
use prost::Message;

use padkit_onnx::proto::decode_tensor;

/// The `test_data_set_*` folders of a case, sorted.
///
/// # Errors
///
/// When `case` cannot be read as a directory.
///
/// ```
/// let case = std::env::temp_dir().join("padkit-doc-data-sets");
/// std::fs::create_dir_all(case.join("test_data_set_1")).unwrap();
/// std::fs::create_dir_all(case.join("test_data_set_0")).unwrap();
/// let sets = padkit_onnx_tools::data::data_sets(&case).unwrap();
/// assert_eq!(sets, vec![case.join("test_data_set_0"), case.join("test_data_set_1")]);
/// ```
pub fn data_sets(case: &Path) -> Result<Vec<PathBuf>> {
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

/// Every folder below `dir` holding `model.onnx`, sorted. Symbolic links to directories
/// are not followed, so a link back up the tree cannot make the walk endless.
///
/// # Errors
///
/// A directory below `dir` cannot be read (the error names it).
///
/// ```
/// let dir = std::env::temp_dir().join("padkit-doc-find-cases");
/// std::fs::create_dir_all(dir.join("case")).unwrap();
/// std::fs::write(dir.join("case/model.onnx"), b"").unwrap();
/// let cases = padkit_onnx_tools::data::find_cases(&dir).unwrap();
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

/// Reads and decodes an ONNX model, with the tensors it stores as external data read from
/// the files beside it (see [`external::inline`](crate::external::inline)).
///
/// # Errors
///
/// As [`read_model_as_stored`], or a tensor's external data does not read
/// ([`external::inline`](crate::external::inline)); the error names the file.
pub fn read_model(path: &Path) -> Result<ModelProto> {
    let mut model = read_model_as_stored(path)?;
    crate::external::inline(&mut model, model_dir(path))
        .with_context(|| path.display().to_string())?;
    Ok(model)
}

/// Reads and decodes an ONNX model as the file holds it: tensors stored as external data
/// keep their references (for tools that write the model back, `padkit lower`).
///
/// # Errors
///
/// The file cannot be read, or it does not decode as an ONNX `ModelProto`.
pub fn read_model_as_stored(path: &Path) -> Result<ModelProto> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    ModelProto::decode(&*bytes).with_context(|| {
        format!(
            "{} is not an ONNX model (protobuf decoding failed)",
            path.display()
        )
    })
}

/// The directory of the model at `path`, where its external data lives.
pub fn model_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Tensors `prefix_0.pb`, `prefix_1.pb`, … in `dir`.
///
/// # Errors
///
/// A file cannot be read, or does not hold a `TensorProto` that reads ([`decode_tensor`]).
pub fn numbered(dir: &Path, prefix: &str) -> Result<Vec<padkit::Tensor>> {
    (0..)
        .map(|k| dir.join(format!("{prefix}_{k}.pb")))
        .take_while(|p| p.is_file())
        .map(|p| {
            let bytes =
                std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
            Ok(decode_tensor(&bytes, &p.display().to_string())?)
        })
        .collect()
}

/// `path` created, or truncated, for writing, never through a symbolic link there (on
/// Unix, `O_NOFOLLOW`): the tools write only where they were told to.
///
/// # Errors
///
/// The file cannot be opened for writing, or `path` is a symbolic link.
pub fn create_file(path: &Path) -> Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    options
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))
}
