//! The engines a model runs on: `core` (padkit directly, every ONNX type) and `tract`
//! (the whole model through `padkit_tract::onnx()`).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use padkit::{DType, PadSpec, Tensor};
use padkit_tract::proto::{from_tract, tensor_from_proto, to_tract};
use tract_onnx::pb::ModelProto;
use tract_onnx::prelude::*;

/// Which engine runs a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The padkit core on the Pad node.
    Core,
    /// The whole model through tract with padkit's Pad.
    Tract,
    /// The Pad node through padkit-burn on Burn's Flex backend.
    Burn,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Core, Engine::Tract, Engine::Burn];

    pub fn name(self) -> &'static str {
        match self {
            Engine::Core => "core",
            Engine::Tract => "tract",
            Engine::Burn => "burn",
        }
    }
}

/// An engine's answer: outputs, or the reason it cannot hold the case.
pub enum Outcome {
    Ran(Vec<(String, Tensor)>),
    Unsupported(String),
}

/// Refuses inputs whose type or known dims differ from the graph's declaration.
fn check_inputs(model: &ModelProto, inputs: &[Tensor]) -> Result<()> {
    use tract_onnx::pb::{tensor_shape_proto::dimension::Value, type_proto};
    let g = model.graph.as_ref().context("the model has no graph")?;
    for (name, t) in graph_inputs(model)?.iter().zip(inputs) {
        let declared = g
            .input
            .iter()
            .find(|i| &i.name == name)
            .and_then(|i| i.r#type.as_ref());
        let Some(type_proto::Value::TensorType(tt)) = declared.and_then(|t| t.value.as_ref())
        else {
            continue;
        };
        if let Ok(dtype) = DType::from_onnx(tt.elem_type) {
            ensure!(
                dtype == t.dtype(),
                "graph input {name:?} is declared {dtype}, the data is {}",
                t.dtype()
            );
        }
        let Some(shape) = &tt.shape else { continue };
        let dims: Vec<Option<i64>> = shape
            .dim
            .iter()
            .map(|d| match d.value {
                Some(Value::DimValue(v)) => Some(v),
                _ => None,
            })
            .collect();
        let fits = dims.len() == t.shape().len()
            && dims
                .iter()
                .zip(t.shape())
                .all(|(d, &n)| d.is_none_or(|d| d == n as i64));
        let show = |d: &Option<i64>| d.map_or("?".to_string(), |v| v.to_string());
        ensure!(
            fits,
            "graph input {name:?} is declared with shape [{}], the data has shape {:?}",
            dims.iter().map(show).collect::<Vec<_>>().join(", "),
            t.shape()
        );
    }
    Ok(())
}

/// Runs `model` (read from `path` when given, for external data) on `engine`.
pub fn run(
    engine: Engine,
    model: &ModelProto,
    path: Option<&Path>,
    inputs: &[Tensor],
) -> Result<Outcome> {
    check_inputs(model, inputs)?;
    match engine {
        Engine::Core => run_core(model, inputs),
        Engine::Tract => run_tract(model, path, inputs),
        Engine::Burn => crate::burn_engine::run(&pad_call(model, inputs)?),
    }
}

/// The graph inputs a caller feeds (those without an initializer), in order.
pub fn graph_inputs(model: &ModelProto) -> Result<Vec<String>> {
    let g = model.graph.as_ref().context("the model has no graph")?;
    let inits: Vec<&str> = g.initializer.iter().map(|t| t.name.as_str()).collect();
    Ok(g.input
        .iter()
        .map(|i| i.name.clone())
        .filter(|n| !inits.contains(&n.as_str()))
        .collect())
}

fn opset(model: &ModelProto) -> i64 {
    model
        .opset_import
        .iter()
        .find(|o| o.domain.is_empty() || o.domain == "ai.onnx")
        .map_or(0, |o| o.version)
}

fn run_tract(model: &ModelProto, path: Option<&Path>, inputs: &[Tensor]) -> Result<Outcome> {
    let mut feeds = TVec::new();
    for t in inputs {
        match to_tract(t) {
            Ok(t) => feeds.push(t.into_tvalue()),
            Err(e) => return Ok(Outcome::Unsupported(e.to_string())),
        }
    }
    let onnx = padkit_tract::onnx();
    let loaded = match path {
        Some(p) => onnx.model_for_path(p),
        None => onnx.model_for_proto_model(model),
    };
    let plan = loaded
        .and_then(|m| m.into_optimized())
        .and_then(|m| m.into_runnable())
        .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let outputs = plan.run(feeds).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let names = model
        .graph
        .as_ref()
        .map(|g| g.output.iter().map(|o| o.name.clone()).collect::<Vec<_>>())
        .unwrap_or_default();
    let outs = outputs
        .iter()
        .zip(names)
        .map(|(t, n)| Ok((n, from_tract(t).map_err(|e| anyhow::anyhow!("{e:#}"))?)))
        .collect::<Result<_>>()?;
    Ok(Outcome::Ran(outs))
}

/// A graph's one Pad node, with its operands evaluated.
pub struct PadCall {
    /// The node's name.
    pub node: String,
    /// The data.
    pub x: Tensor,
    /// The pad.
    pub spec: PadSpec,
    /// The constant value, if given.
    pub value: Option<Tensor>,
    /// The graph output's name.
    pub output: String,
}

fn run_core(model: &ModelProto, inputs: &[Tensor]) -> Result<Outcome> {
    let call = pad_call(model, inputs)?;
    let y = padkit::pad_tensor(&call.x, &call.spec, call.value.as_ref())
        .with_context(|| format!("Pad node {:?}", call.node))?;
    Ok(Outcome::Ran(vec![(call.output, y)]))
}

/// Reads a graph of one Pad node fed by graph inputs, initializers and Constant nodes.
pub fn pad_call(model: &ModelProto, inputs: &[Tensor]) -> Result<PadCall> {
    let g = model.graph.as_ref().context("the model has no graph")?;
    let mut values: HashMap<String, Tensor> = HashMap::new();
    for t in &g.initializer {
        values.insert(
            t.name.clone(),
            tensor_from_proto(t).map_err(|e| anyhow::anyhow!("{e:#}"))?,
        );
    }
    let names = graph_inputs(model)?;
    ensure!(
        names.len() == inputs.len(),
        "the model has {} graph inputs ({}) but {} were given",
        names.len(),
        names.join(", "),
        inputs.len()
    );
    values.extend(names.into_iter().zip(inputs.iter().cloned()));
    let mut pads_node = None;
    for node in &g.node {
        match node.op_type.as_str() {
            "Constant" => {
                let t = node
                    .attribute
                    .iter()
                    .find(|a| a.name == "value")
                    .and_then(|a| a.t.as_ref());
                let t = t.with_context(|| {
                    format!("Constant node {:?} has no tensor 'value'", node.name)
                })?;
                values.insert(
                    node.output[0].clone(),
                    tensor_from_proto(t).map_err(|e| anyhow::anyhow!("{e:#}"))?,
                );
            }
            "Pad" if pads_node.is_none() => pads_node = Some(node),
            other => bail!(
                "the core engine evaluates Pad graphs only; node {:?} is a {other}",
                node.name
            ),
        }
    }
    let node = pads_node.context("the model has no Pad node")?;
    let pad =
        padkit_tract::parse_pad_node(node, opset(model)).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let given: Vec<&str> = node
        .input
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    let get = |ix: usize| -> Result<&Tensor> {
        let name = given
            .get(ix)
            .with_context(|| format!("Pad node {:?} lacks input {ix}", node.name))?;
        values.get(*name).with_context(|| {
            format!(
                "Pad node {:?}: input {name:?} is not produced by the graph",
                node.name
            )
        })
    };
    let ints = |t: &Tensor, what: &str| -> Result<Vec<i64>> {
        match t.dtype() {
            DType::Int64 => Ok(t.to_vec::<i64>()?),
            DType::Int32 => Ok(t.to_vec::<i32>()?.into_iter().map(i64::from).collect()),
            other => bail!(
                "Pad node {:?}: input '{what}' has type {other}, expected int64 or int32",
                node.name
            ),
        }
    };
    let x = get(0)?;
    let pads = match &pad.attr_pads {
        Some(p) => p.clone(),
        None => ints(get(1)?, "pads")?,
    };
    let axes = pad.axes_input.map(|a| ints(get(a)?, "axes")).transpose()?;
    let value = match (pad.attr_value, pad.value_input) {
        (Some(bits), _) => Some(float_value(f32::from_bits(bits), x.dtype())?),
        (None, Some(v)) => Some(get(v)?.clone()),
        (None, None) => None,
    };
    let spec = PadSpec {
        pads,
        axes,
        mode: pad.mode,
        ..PadSpec::default()
    };
    Ok(PadCall {
        node: node.name.clone(),
        x: x.clone(),
        spec,
        value,
        output: g.output.first().map_or("y".to_string(), |o| o.name.clone()),
    })
}

/// The opset 1–10 float `value` attribute in the data's type.
fn float_value(v: f32, dtype: DType) -> Result<Tensor> {
    Ok(match dtype {
        DType::Float32 => Tensor::scalar(v),
        DType::Float64 => Tensor::scalar(f64::from(v)),
        DType::Float16 => Tensor::scalar(padkit::half::f16::from_f32(v)),
        DType::BFloat16 => Tensor::scalar(padkit::half::bf16::from_f32(v)),
        other => bail!(
            "attribute 'value' is a float; data of type {other} is not allowed before opset 11"
        ),
    })
}
