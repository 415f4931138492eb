//! The `candle`, `targeted-candle` and `stock-candle` engines: a whole model through
//! candle-onnx 0.11.1's `simple_eval`, its Pads lowered first by padkit-candle (`candle`),
//! lowered where candle-onnx's own Pad would not run them right (`targeted-candle`), or
//! evaluated by candle-onnx itself (`stock-candle`).
//!
//! Both declare unsupported what candle-onnx cannot hold: graph inputs and outputs of an
//! element type it has no dtype for (it has uint8, uint32, int64, float16, float, double,
//! and bool as uint8), and tensors (initializers, `Constant` values) of a type it cannot
//! read, or int32 tensors of rank above 1, which it reads flattened.

use std::collections::HashMap;

use anyhow::{Context, Result};
use candle_core::{Device, Tensor};
use padkit::{DType, Data};
use padkit_candle::convert::{from_candle, to_candle};
use padkit_onnx::pb::{GraphProto, ModelProto, TensorProto, type_proto};
use padkit_onnx_tools::isolate::isolated;
use prost::Message;

use crate::inputs::graph_inputs_for;

use crate::pad_graph::Outcome;

/// The element types candle-onnx 0.11.1 evaluates (its `dtype()`).
const CANDLE_ONNX_TYPES: [DType; 7] = [
    DType::UInt8,
    DType::UInt32,
    DType::Int64,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Bool,
];

/// Runs `model` on `inputs` through candle-onnx, lowered by padkit-candle for `target`
/// (`None`: not lowered, candle-onnx's own Pads); padkit-candle's lowering refuses Pads
/// whose outputs are above `settings`' limit, and follows its semantics.
pub fn run(
    target: Option<padkit_lower::Target>,
    model: &ModelProto,
    inputs: &[padkit::Tensor],
    settings: crate::RunSettings,
) -> Result<Outcome> {
    let max_output_bytes = settings.max_output_bytes;
    if let Some(why) = cannot_hold(model) {
        return Ok(Outcome::Unsupported(why));
    }
    let names = graph_inputs_for(model, inputs.len())?;
    let fed: HashMap<&str, &padkit::Tensor> =
        names.iter().map(String::as_str).zip(inputs).collect();
    if target.is_none()
        && let Some(why) = unbounded_reflect(model, &fed, max_output_bytes)
    {
        return Ok(Outcome::Unsupported(why));
    }
    let mut feeds = HashMap::new();
    for (name, t) in &fed {
        feeds.insert(name.to_string(), feed(t)?);
    }
    let candle_model = candle_onnx::onnx::ModelProto::decode(model.encode_to_vec().as_slice())?;
    // padkit-candle's simple_eval is its lowering, then candle-onnx's: run here as two
    // steps, so that a panic of candle-onnx's is a crash (isolated), as on stock-candle.
    let runnable = match target {
        None => std::borrow::Cow::Borrowed(&candle_model),
        Some(target) => {
            let options = padkit_candle::onnx::Options::default()
                .with_max_output_bytes(max_output_bytes)
                .with_target(target)
                .with_strict_onnx(settings.strict_onnx);
            padkit_candle::onnx::lower_for(&candle_model, &feeds, &options)?
        }
    };
    let mut outputs = isolated("candle-onnx", || {
        Ok(candle_onnx::simple_eval(&runnable, feeds)?)
    })?;
    let graph = model.graph.as_ref().context("the model has no graph")?;
    let mut outs = vec![];
    for o in &graph.output {
        let t = outputs
            .remove(&o.name)
            .with_context(|| format!("candle-onnx gave no output {:?}", o.name))?;
        outs.push((o.name.clone(), read(&t, elem_type(o.r#type.as_ref()))?));
    }
    Ok(Outcome::Ran(outs))
}

/// A feed as candle-onnx takes it: bool as uint8.
fn feed(t: &padkit::Tensor) -> Result<Tensor> {
    let t = match (t.dtype(), t.data()) {
        (DType::Bool, Data::Bytes(b)) => {
            padkit::Tensor::new(DType::UInt8, t.shape().to_vec(), Data::Bytes(b.clone()))?
        }
        _ => t.clone(),
    };
    Ok(to_candle(&t, &Device::Cpu)?)
}

/// An output as padkit reads it: uint8 as bool where the graph declares bool.
fn read(t: &Tensor, declared: Option<DType>) -> Result<padkit::Tensor> {
    let out = from_candle(t)?;
    Ok(match (declared, out.data()) {
        (Some(DType::Bool), Data::Bytes(b)) if out.dtype() == DType::UInt8 => {
            padkit::Tensor::new(DType::Bool, out.shape().to_vec(), Data::Bytes(b.clone()))?
        }
        _ => out,
    })
}

fn elem_type(t: Option<&padkit_onnx::pb::TypeProto>) -> Option<DType> {
    let type_proto::Value::TensorType(tt) = t?.value.as_ref()? else {
        return None;
    };
    DType::from_onnx(tt.elem_type).ok()
}

/// Why candle-onnx's own reflect Pad cannot be run on `model` without an unbounded
/// allocation, if it cannot: it counts each axis' index map as `pre as usize + dim + post
/// as usize` and collects it, so a negative pad that leaves that sum near 2^64 (it does
/// not overflow) would be collected until the process is killed; and it checks no output
/// size. Read where the main graph, its `Constant` nodes or the feeds hold pads and data
/// (Pads inside subgraphs are not looked at).
fn unbounded_reflect(
    model: &ModelProto,
    fed: &HashMap<&str, &padkit::Tensor>,
    limit: u64,
) -> Option<String> {
    let graph = model.graph.as_ref()?;
    let known = |name: &str| -> Option<padkit::Tensor> {
        if let Some(t) = fed.get(name) {
            return Some((*t).clone());
        }
        let constant = graph.node.iter().find_map(|n| {
            (n.op_type == "Constant" && n.output.first().is_some_and(|o| o == name))
                .then(|| n.attribute.iter().find_map(|a| a.t.as_ref()))
                .flatten()
        });
        graph
            .initializer
            .iter()
            .find(|t| t.name == name)
            .or(constant)
            .and_then(|t| padkit_onnx::proto::tensor_from_proto(t).ok())
    };
    for node in graph
        .node
        .iter()
        .filter(|n| n.op_type == "Pad" && n.input.len() >= 2)
    {
        let (Some(data), Some(pads)) = (known(&node.input[0]), known(&node.input[1])) else {
            continue;
        };
        let (Ok(pads), rank) = (pads.to_vec::<i64>(), data.shape().len()) else {
            continue;
        };
        if pads.len() != 2 * rank {
            continue;
        }
        let mut elements: u128 = 1;
        for (axis, &dim) in data.shape().iter().enumerate() {
            // candle-onnx's count, which overflows (a panic, caught) or wraps to a huge one
            let (pre, post) = (pads[axis] as u64, pads[axis + rank] as u64);
            let Some(count) = pre
                .checked_add(dim as u64)
                .and_then(|c| c.checked_add(post))
            else {
                continue;
            };
            let count = if dim > 1 { count } else { dim as u64 };
            elements = elements.saturating_mul(u128::from(count));
        }
        let width = data.dtype().storage_bytes(1).unwrap_or(1).max(8) as u128;
        if elements.saturating_mul(width) > u128::from(limit) {
            return Some(format!(
                "candle-onnx 0.11.1 would allocate for {elements} elements (it checks no Pad \
                 size, and casts negative pads to usize): above the output limit"
            ));
        }
    }
    None
}

/// Why candle-onnx cannot hold `model`, if it cannot.
fn cannot_hold(model: &ModelProto) -> Option<String> {
    let graph = model.graph.as_ref()?;
    for (what, info) in graph
        .input
        .iter()
        .map(|i| ("input", i))
        .chain(graph.output.iter().map(|o| ("output", o)))
    {
        if let Some(dtype) = elem_type(info.r#type.as_ref())
            && !CANDLE_ONNX_TYPES.contains(&dtype)
        {
            return Some(format!(
                "candle-onnx 0.11.1 has no element type {dtype} (graph {what} {:?})",
                info.name
            ));
        }
    }
    unreadable_tensor(graph)
}

/// The first tensor of `graph` (or of a graph in its nodes' attributes) that candle-onnx
/// cannot read as it is.
fn unreadable_tensor(graph: &GraphProto) -> Option<String> {
    let check = |t: &TensorProto| -> Option<String> {
        let dtype = DType::from_onnx(t.data_type).ok()?;
        if dtype == DType::Int32 && t.dims.len() > 1 {
            Some(format!(
                "candle-onnx 0.11.1 reads int32 tensors flattened ({:?})",
                t.name
            ))
        } else if dtype != DType::Int32 && !CANDLE_ONNX_TYPES.contains(&dtype) {
            Some(format!(
                "candle-onnx 0.11.1 reads no {dtype} tensor ({:?})",
                t.name
            ))
        } else {
            None
        }
    };
    graph.initializer.iter().find_map(check).or_else(|| {
        graph.node.iter().find_map(|n| {
            n.attribute.iter().find_map(|a| {
                a.t.as_ref()
                    .and_then(check)
                    .or_else(|| a.g.as_ref().and_then(unreadable_tensor))
                    .or_else(|| a.graphs.iter().find_map(unreadable_tensor))
            })
        })
    })
}
