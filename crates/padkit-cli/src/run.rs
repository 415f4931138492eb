//! `padkit run`: one model, inputs from `.pb` or `.npy` files, outputs printed (a few
//! elements each) and written; and `padkit lower`, one model's Pads rewritten.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use padkit::{Data, Tensor};
use padkit_onnx::pb::{ModelProto, TensorProto};
use prost::Message;

use padkit_conformance::compare::head;
use padkit_engines::pad_graph::Outcome;
use padkit_engines::{self as engine, Engine};
use padkit_onnx::graph::graph_inputs;
use padkit_onnx::proto::{decode_tensor, tensor_to_proto};
use padkit_onnx_tools::data::{create_file, model_dir, numbered, read_model, read_model_as_stored};
use padkit_onnx_tools::names::{file_name, printable};
use padkit_onnx_tools::npy::read_npy;
use padkit_onnx_tools::wire::encode_tensor;

/// What `padkit run` was asked to do.
pub struct Request<'a> {
    /// The model file.
    pub model: &'a Path,
    /// The engine.
    pub engine: Engine,
    /// `NAME=FILE` inputs.
    pub inputs: &'a [String],
    /// A data set directory (`input_K.pb`).
    pub data_set: Option<&'a Path>,
    /// Where to write the outputs.
    pub output_dir: Option<&'a Path>,
    /// The largest output accepted, and the semantics.
    pub settings: engine::RunSettings,
}

/// Runs the request: prints each output's name, type, shape and first elements, and
/// writes it to `OUTPUT_DIR/NAME.pb` (the name escaped so that it stays in the directory).
pub fn run(r: &Request) -> Result<()> {
    r.engine.check_built()?;
    let model = read_model(r.model)?;
    let names = graph_inputs(&model)?;
    let mut feeds: Vec<Option<Tensor>> = match r.data_set {
        Some(dir) => numbered(dir, "input")?.into_iter().map(Some).collect(),
        None => vec![None; names.len()],
    };
    ensure!(
        feeds.len() <= names.len(),
        "the data set holds {} inputs but the model has {} ({})",
        feeds.len(),
        names.len(),
        names.join(", ")
    );
    feeds.resize(names.len(), None);
    let mut seen = HashSet::new();
    for spec in r.inputs {
        let (name, file) = spec
            .split_once('=')
            .with_context(|| format!("--input {spec:?} is not NAME=FILE"))?;
        ensure!(seen.insert(name), "--input {name:?} is given twice");
        let ix = names.iter().position(|n| n == name).with_context(|| {
            format!(
                "the model has no graph input {name:?} (inputs: {})",
                names.join(", ")
            )
        })?;
        feeds[ix] = Some(read_input(Path::new(file))?);
    }
    let feeds = feeds
        .into_iter()
        .zip(&names)
        .map(|(f, n)| {
            f.with_context(|| {
                format!("no value for graph input {n:?}: use --input {n}=FILE or --data-set DIR")
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let outs = match engine::run(r.engine, &model, &feeds, r.settings)? {
        Outcome::Ran(outs) => outs,
        Outcome::Unsupported(why) => {
            bail!("engine {} cannot run this model: {why}", r.engine.name())
        }
    };
    drop(feeds);
    if let Some(dir) = r.output_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    for (name, t) in &outs {
        println!(
            "{}: {} {:?} [{}]",
            printable(name),
            t.dtype(),
            t.shape(),
            head(t, 8)
        );
        if let Some(dir) = r.output_dir {
            write_output(dir, name, t)?;
        }
    }
    Ok(())
}

/// `padkit lower`: the model at `model` with its Pads rewritten into standard ops
/// (`padkit_lower::lower_with`, as `options` say: the output limit, the budget of constant
/// bytes), written to `output` in onnx's encoding.
///
/// Tensors the model keeps as external data stay there: the lowered model refers to the
/// same files, so it must be written into the model's own directory.
pub fn lower(model: &Path, output: &Path, options: &padkit_lower::Options) -> Result<()> {
    let stored = read_model_as_stored(model)?;
    refuse_aliases(model, output, &stored)?;
    let mut lowered = padkit_lower::lower_with(&read_model(model)?, options)?;
    if padkit_onnx_tools::external::restore(&mut lowered, &stored) > 0 {
        let same = |p: &Path| std::fs::canonicalize(model_dir(p)).ok();
        ensure!(
            same(model).is_some() && same(model) == same(output),
            "{} keeps tensors as external data, which the lowered model refers to as it \
             does: write it into the same directory ({})",
            model.display(),
            model_dir(model).display()
        );
    }
    // Encoded, then rewritten into onnx's encoding once the model is dropped: the command
    // holds at most two copies of what it writes at once (docs/lower.md).
    let packed = lowered.encode_to_vec();
    drop(lowered);
    let bytes = padkit_onnx_tools::wire::unpack(&packed, padkit_onnx_tools::wire::Root::Model)?;
    drop(packed);
    create_file(output)?
        .write_all(&bytes)
        .with_context(|| format!("cannot write {}", output.display()))
}

/// Refuses an `output` that is the model itself or a file its external data is read from
/// (the same file, by whatever name): writing it would change what the lowered model
/// refers to.
fn refuse_aliases(model: &Path, output: &Path, stored: &ModelProto) -> Result<()> {
    if !output.exists() {
        return Ok(());
    }
    let files = padkit_onnx_tools::external::files(stored, model_dir(model))?;
    for input in std::iter::once(model.to_path_buf()).chain(files) {
        ensure!(
            !same_file(&input, output)?,
            "{} is {}, which the lowering reads{}: write the lowered model to another file",
            output.display(),
            input.display(),
            if input.as_path() == model {
                ""
            } else {
                " (external data of the model)"
            }
        );
    }
    Ok(())
}

/// Whether `a` and `b` name one file: the same device and inode on Unix, the same
/// canonical path elsewhere.
fn same_file(a: &Path, b: &Path) -> Result<bool> {
    let meta =
        |p: &Path| std::fs::metadata(p).with_context(|| format!("cannot read {}", p.display()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (a, b) = (meta(a)?, meta(b)?);
        Ok(a.dev() == b.dev() && a.ino() == b.ino())
    }
    #[cfg(not(unix))]
    {
        meta(a)?;
        meta(b)?;
        Ok(a.canonicalize()? == b.canonicalize()?)
    }
}

/// Writes `t` as a `TensorProto` to `dir/NAME.pb`, without copying its data and without
/// following a symbolic link at that path.
fn write_output(dir: &Path, name: &str, t: &Tensor) -> Result<()> {
    let path = dir.join(format!("{}.pb", file_name(name)));
    let header = TensorProto {
        data_type: t.dtype().onnx_code(),
        dims: t.shape().iter().map(|&d| d as i64).collect(),
        name: name.to_string(),
        ..TensorProto::default()
    };
    let mut file = create_file(&path)?;
    // Strings whole; other data as the header's fields, then `raw_data` (field 9,
    // length-delimited) written from the tensor's own bytes: protobuf fields may come in
    // any order.
    let head = match t.data() {
        Data::Strings(_) => encode_tensor(&tensor_to_proto(t, name))?,
        Data::Bytes(_) => encode_tensor(&header)?,
    };
    let written = (|| -> std::io::Result<()> {
        file.write_all(&head)?;
        match t.data() {
            Data::Strings(_) => Ok(()),
            Data::Bytes(b) => {
                let mut prefix = vec![(9 << 3) | 2];
                prost::encoding::encode_varint(b.len() as u64, &mut prefix);
                file.write_all(&prefix)?;
                file.write_all(b)
            }
        }
    })();
    written.with_context(|| format!("cannot write {}", path.display()))
}

/// A `.npy` file, or else a serialized `TensorProto`.
fn read_input(path: &Path) -> Result<Tensor> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let origin = path.display().to_string();
    Ok(if path.extension().is_some_and(|e| e == "npy") {
        read_npy(&bytes, &origin)?
    } else {
        decode_tensor(&bytes, &origin)?
    })
}
