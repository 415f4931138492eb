//! `padkit run`: one model, inputs from .pb files, outputs printed and written.

use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use padkit::Tensor;

use crate::conformance::{numbered, read_model, read_tensor};
use crate::engine::{self, Engine, Outcome};
use crate::report::elements;

pub fn run(
    model_path: &Path,
    engine: Engine,
    inputs: &[String],
    data_set: Option<&Path>,
    output_dir: Option<&Path>,
) -> Result<()> {
    let model = read_model(model_path)?;
    let names = engine::graph_inputs(&model)?;
    let mut feeds = match data_set {
        Some(dir) => numbered(dir, "input")?.into_iter().map(Some).collect(),
        None => vec![None; names.len()],
    };
    feeds.resize(names.len().max(feeds.len()), None);
    for spec in inputs {
        let (name, file) = spec
            .split_once('=')
            .with_context(|| format!("--input {spec:?} is not NAME=FILE"))?;
        let ix = names.iter().position(|n| n == name).with_context(|| {
            format!(
                "the model has no graph input {name:?} (inputs: {})",
                names.join(", ")
            )
        })?;
        feeds[ix] = Some(read_input(Path::new(file))?);
    }
    ensure!(
        feeds.len() == names.len(),
        "{} inputs given but the model has {} ({})",
        feeds.len(),
        names.len(),
        names.join(", ")
    );
    let feeds = feeds
        .into_iter()
        .zip(&names)
        .map(|(f, n)| {
            f.with_context(|| {
                format!("no value for graph input {n:?}: use --input {n}=FILE or --data-set DIR")
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let outs = match engine::run(engine, &model, Some(model_path), &feeds)? {
        Outcome::Ran(outs) => outs,
        Outcome::Unsupported(why) => bail!("engine {} cannot run this model: {why}", engine.name()),
    };
    for (name, t) in &outs {
        let values = elements(t);
        let shown = values
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if values.len() > 8 { ", …" } else { "" };
        println!("{name}: {} {:?} [{shown}{more}]", t.dtype(), t.shape());
        if let Some(dir) = output_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            let path = dir.join(format!("{name}.pb"));
            let bytes =
                prost::Message::encode_to_vec(&padkit_tract::proto::tensor_to_proto(t, name));
            std::fs::write(&path, bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(())
}

/// A `.npy` file, or else a serialized `TensorProto`.
fn read_input(path: &Path) -> Result<Tensor> {
    if path.extension().is_none_or(|e| e != "npy") {
        return read_tensor(path);
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let npy = npyz::NpyFile::new(&bytes[..])
        .with_context(|| format!("{} is not a .npy file", path.display()))?;
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    let npyz::DType::Plain(type_str) = npy.dtype() else {
        bail!(
            "{}: structured and array numpy types are not supported",
            path.display()
        );
    };
    let descr = type_str.to_string();
    let bad = |e: std::io::Error| anyhow::anyhow!("{}: {e}", path.display());
    let t = match descr.trim_start_matches(['<', '>', '|', '=']) {
        "f4" => Tensor::from_slice(&shape, &npy.into_vec::<f32>().map_err(bad)?),
        "f8" => Tensor::from_slice(&shape, &npy.into_vec::<f64>().map_err(bad)?),
        "i1" => Tensor::from_slice(&shape, &npy.into_vec::<i8>().map_err(bad)?),
        "i2" => Tensor::from_slice(&shape, &npy.into_vec::<i16>().map_err(bad)?),
        "i4" => Tensor::from_slice(&shape, &npy.into_vec::<i32>().map_err(bad)?),
        "i8" => Tensor::from_slice(&shape, &npy.into_vec::<i64>().map_err(bad)?),
        "u1" => Tensor::from_slice(&shape, &npy.into_vec::<u8>().map_err(bad)?),
        "u2" => Tensor::from_slice(&shape, &npy.into_vec::<u16>().map_err(bad)?),
        "u4" => Tensor::from_slice(&shape, &npy.into_vec::<u32>().map_err(bad)?),
        "u8" => Tensor::from_slice(&shape, &npy.into_vec::<u64>().map_err(bad)?),
        "b1" => {
            let v: Vec<u8> = npy
                .into_vec::<bool>()
                .map_err(bad)?
                .into_iter()
                .map(u8::from)
                .collect();
            Tensor::new(padkit::DType::Bool, shape, padkit::Data::Bytes(v))
        }
        other => bail!(
            "{}: numpy type {other:?} is not supported (use a .pb)",
            path.display()
        ),
    };
    Ok(t?)
}
