//! Tensors stored as ONNX external data, read into the model: each file confined to the
//! model's directory (a relative path, no `..`, no symbolic link leaving it), each range
//! within its file and exactly the size the tensor's type and shape need.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail, ensure};
use padkit::DType;
use padkit_onnx::pb::tensor_proto::DataLocation;
use padkit_onnx::pb::{GraphProto, ModelProto, TensorProto};

use padkit_onnx::proto::dtype_and_shape;

/// Replaces every tensor of `model` stored as external data (initializers, `Constant`
/// values, subgraphs' too) by its bytes, read from files below `dir`, the model's
/// directory.
///
/// # Errors
///
/// A tensor's reference leaves `dir` (an absolute path, `..`, a link out of it), has no
/// location or a malformed offset or length, names a file that cannot be opened, or a range
/// outside its file or of another size than the tensor's type and shape need; the error
/// names the tensor and the file.
///
/// ```
/// use padkit_onnx::pb::{GraphProto, ModelProto, StringStringEntryProto, TensorProto};
/// let dir = std::env::temp_dir().join(format!("padkit-doc-external-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("w.bin"), [9u8, 1, 2, 3, 4]).unwrap();
/// let entry = |k: &str, v: &str| StringStringEntryProto { key: k.into(), value: v.into() };
/// let w = TensorProto {
///     name: "w".into(), data_type: 2, dims: vec![4], data_location: 1,
///     external_data: vec![entry("location", "w.bin"), entry("offset", "1"), entry("length", "4")],
///     ..Default::default()
/// };
/// let graph = GraphProto { initializer: vec![w], ..Default::default() };
/// let mut model = ModelProto { graph: Some(graph), ..Default::default() };
/// padkit_onnx_tools::external::inline(&mut model, &dir).unwrap();
/// assert_eq!(model.graph.unwrap().initializer[0].raw_data, vec![1, 2, 3, 4]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn inline(model: &mut ModelProto, dir: &Path) -> Result<()> {
    match model.graph.as_mut() {
        Some(g) => inline_graph(g, dir),
        None => Ok(()),
    }
}

fn inline_graph(g: &mut GraphProto, dir: &Path) -> Result<()> {
    for t in &mut g.initializer {
        inline_tensor(t, dir)?;
    }
    for node in &mut g.node {
        for a in &mut node.attribute {
            for t in a.t.iter_mut().chain(&mut a.tensors) {
                inline_tensor(t, dir)?;
            }
            for sub in a.g.iter_mut().chain(&mut a.graphs) {
                inline_graph(sub, dir)?;
            }
        }
    }
    Ok(())
}

/// Gives the tensors of `lowered` that `original` keeps as external data their external
/// references back (and drops their bytes): for a model rewritten from `original` read
/// with [`inline`], its initializers and Constant values keeping their names. Returns how
/// many were restored.
///
/// ```
/// use padkit_onnx::pb::{GraphProto, ModelProto, StringStringEntryProto, TensorProto};
/// let entry = |k: &str, v: &str| StringStringEntryProto { key: k.into(), value: v.into() };
/// let stored = TensorProto {
///     name: "w".into(), data_type: 2, dims: vec![4], data_location: 1,
///     external_data: vec![entry("location", "w.bin"), entry("length", "4")],
///     ..Default::default()
/// };
/// let inlined = TensorProto { data_location: 0, external_data: vec![], raw_data: vec![1, 2, 3, 4], ..stored.clone() };
/// let model = |t: TensorProto| ModelProto { graph: Some(GraphProto { initializer: vec![t], ..Default::default() }), ..Default::default() };
/// let mut lowered = model(inlined);
/// assert_eq!(padkit_onnx_tools::external::restore(&mut lowered, &model(stored.clone())), 1);
/// assert_eq!(lowered, model(stored));
/// ```
pub fn restore(lowered: &mut ModelProto, original: &ModelProto) -> usize {
    let mut stored = std::collections::HashMap::new();
    if let Some(g) = &original.graph {
        external_tensors(g, &mut stored);
    }
    match lowered.graph.as_mut() {
        Some(g) if !stored.is_empty() => restore_graph(g, &stored),
        _ => 0,
    }
}

/// The files below `dir`, the model's directory, that `model`'s external tensors are
/// stored in, each once, as canonical paths.
///
/// # Errors
///
/// A tensor whose `external_data` names no location, or a location that is absolute,
/// holds `..` or leaves `dir` through a symbolic link.
///
/// ```
/// use padkit_onnx::pb::{GraphProto, ModelProto, StringStringEntryProto, TensorProto};
/// let entry = |k: &str, v: &str| StringStringEntryProto { key: k.into(), value: v.into() };
/// let w = TensorProto {
///     name: "w".into(), data_type: 2, dims: vec![4], data_location: 1,
///     external_data: vec![entry("location", "w.bin"), entry("length", "4")],
///     ..Default::default()
/// };
/// let model = ModelProto { graph: Some(GraphProto { initializer: vec![w], ..Default::default() }), ..Default::default() };
/// let dir = std::env::temp_dir().join(format!("padkit-doc-files-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("w.bin"), [1u8, 2, 3, 4]).unwrap();
/// let files = padkit_onnx_tools::external::files(&model, &dir).unwrap();
/// assert_eq!(files, [dir.canonicalize().unwrap().join("w.bin")]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn files(model: &ModelProto, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut stored = std::collections::HashMap::new();
    if let Some(g) = &model.graph {
        external_tensors(g, &mut stored);
    }
    let mut out = vec![];
    for t in stored.values() {
        let location = t
            .external_data
            .iter()
            .find(|e| e.key == "location")
            .with_context(|| format!("tensor {:?}: its external_data has no 'location'", t.name))?;
        let path = confined(dir, &location.value)?;
        if !out.contains(&path) {
            out.push(path);
        }
    }
    Ok(out)
}

/// The external tensors of `g` and its subgraphs, by name (initializers) or by the output
/// of the Constant node holding them.
fn external_tensors(g: &GraphProto, out: &mut std::collections::HashMap<String, TensorProto>) {
    for t in g.initializer.iter().filter(|t| is_external(t)) {
        out.insert(t.name.clone(), t.clone());
    }
    for node in &g.node {
        for a in &node.attribute {
            if let (Some(t), Some(o)) = (&a.t, node.output.first())
                && is_external(t)
            {
                out.insert(format!("{o}\0{}", a.name), t.clone());
            }
            for sub in a.g.iter().chain(&a.graphs) {
                external_tensors(sub, out);
            }
        }
    }
}

fn restore_graph(
    g: &mut GraphProto,
    stored: &std::collections::HashMap<String, TensorProto>,
) -> usize {
    let mut n = 0;
    for t in &mut g.initializer {
        if let Some(s) = stored.get(&t.name) {
            *t = s.clone();
            n += 1;
        }
    }
    for node in &mut g.node {
        let output = node.output.first().cloned().unwrap_or_default();
        for a in &mut node.attribute {
            if let Some(t) = a.t.as_mut()
                && let Some(s) = stored.get(&format!("{output}\0{}", a.name))
            {
                *t = s.clone();
                n += 1;
            }
            for sub in a.g.iter_mut().chain(a.graphs.iter_mut()) {
                n += restore_graph(sub, stored);
            }
        }
    }
    n
}

/// True when `tp` keeps its data in an external file.
fn is_external(tp: &TensorProto) -> bool {
    !tp.external_data.is_empty() || tp.data_location == DataLocation::External as i32
}

fn inline_tensor(tp: &mut TensorProto, dir: &Path) -> Result<()> {
    if !is_external(tp) {
        return Ok(());
    }
    let name = tp.name.clone();
    ensure!(
        tp.raw_data.is_empty(),
        "tensor {name:?}: it has both raw_data and external data"
    );
    let bytes = read(tp, dir).with_context(|| format!("tensor {name:?} (external data)"))?;
    tp.raw_data = bytes;
    tp.external_data.clear();
    tp.data_location = DataLocation::Default as i32;
    Ok(())
}

/// The bytes of an external tensor.
fn read(tp: &TensorProto, dir: &Path) -> Result<Vec<u8>> {
    let (dtype, shape) = dtype_and_shape(tp)?;
    ensure!(
        dtype != DType::String,
        "string tensors cannot be stored as external data"
    );
    let elements: usize = shape.iter().product();
    let need = dtype
        .storage_bytes(elements)
        .context("its size overflows")?;
    let (mut location, mut offset, mut length) = (None, 0u64, None);
    for e in &tp.external_data {
        let number = |v: &str| {
            v.parse::<u64>()
                .with_context(|| format!("'{}' is {v:?}, not a byte count", e.key))
        };
        match e.key.as_str() {
            "location" => location = Some(e.value.as_str()),
            "offset" => offset = number(&e.value)?,
            "length" => length = Some(number(&e.value)?),
            _ => {} // "checksum" and keys of later versions
        }
    }
    let location = location.context("its external_data has no 'location'")?;
    let path = confined(dir, location)?;
    let mut file = File::open(&path)
        .with_context(|| format!("cannot open {location:?} below {}", dir.display()))?;
    let size = file.metadata()?.len();
    let length = length.unwrap_or(size.saturating_sub(offset));
    let end = offset
        .checked_add(length)
        .context("offset + length overflows")?;
    ensure!(
        end <= size,
        "bytes {offset}..{end} of {location:?} are past its end ({size} bytes)"
    );
    ensure!(
        length == need as u64,
        "{location:?} gives {length} bytes; {} elements of {dtype} need {need}",
        elements
    );
    let mut bytes = vec![0; need];
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(&mut bytes)
        .with_context(|| format!("cannot read {location:?}"))?;
    Ok(bytes)
}

/// `location` below `dir`: relative, without `..`, and still below `dir` once symbolic
/// links are resolved.
fn confined(dir: &Path, location: &str) -> Result<PathBuf> {
    let rel = Path::new(location);
    for c in rel.components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => {
                bail!("location {location:?} leaves the model's directory (..)")
            }
            Component::RootDir | Component::Prefix(_) => {
                bail!(
                    "location {location:?} is an absolute path; it must be relative to the model's directory"
                )
            }
        }
    }
    let root = dir
        .canonicalize()
        .with_context(|| format!("cannot resolve the model's directory {}", dir.display()))?;
    let path = root
        .join(rel)
        .canonicalize()
        .with_context(|| format!("cannot open {location:?} below {}", dir.display()))?;
    ensure!(
        path.starts_with(&root),
        "location {location:?} is a symbolic link leaving the model's directory"
    );
    ensure!(path.is_file(), "location {location:?} is not a file");
    Ok(path)
}
