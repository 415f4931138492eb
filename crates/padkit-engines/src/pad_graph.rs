//! The evaluation of Pad graphs (Pad, Constant and Identity nodes, ONNX's and padkit's own
//! Pad) for the engines that run one Pad node at a time (`core`, `burn`, `stock-burn`):
//! each Pad node read at its opset, its operands evaluated and checked, then handed to the
//! engine.

use std::collections::HashMap;

use anyhow::{Context, Result, ensure};
use padkit::onnx::{Given, Operand, PADKIT_DOMAIN, is_default_domain};
use padkit::{DType, PadSpec, Tensor};
use padkit_onnx::graph::{describe, opset};
use padkit_onnx::pad_node::node_opset;
use padkit_onnx::pb::{ModelProto, NodeProto};
use padkit_onnx::proto::tensor_from_proto;

use crate::inputs::graph_inputs_for;

/// True for graphs of Pad, Constant and Identity nodes only, whose outputs are exact.
pub fn is_pad_graph(model: &ModelProto) -> bool {
    model
        .graph
        .as_ref()
        .is_some_and(|g| g.node.iter().all(is_pad_graph_node))
}

/// A node of a Pad graph: ONNX's Pad, Constant or Identity, or padkit's own Pad.
pub fn is_pad_graph_node(node: &NodeProto) -> bool {
    (is_default_domain(&node.domain)
        && ["Pad", "Constant", "Identity"].contains(&node.op_type.as_str()))
        || (node.domain == PADKIT_DOMAIN && node.op_type == "Pad")
}

/// A Pad node with its operands evaluated, for an engine to run.
pub struct PadCall {
    /// How the node is described in errors.
    pub node: String,
    /// The data.
    pub x: Tensor,
    /// The pad.
    pub spec: PadSpec,
    /// The constant value, if given.
    pub value: Option<Tensor>,
}

impl PadCall {
    /// The pad as padkit's engines run it under `settings`: the node's spec with their
    /// output limit and semantics.
    pub fn spec_for(&self, settings: crate::RunSettings) -> PadSpec {
        (self.spec.clone())
            .with_max_output_bytes(settings.max_output_bytes)
            .with_strict_onnx(settings.strict_onnx)
    }
}

/// What an engine makes of one Pad node.
pub enum PadResult {
    /// The output.
    Ran(Tensor),
    /// The engine cannot hold the case (an element type it lacks), with the reason.
    Unsupported(String),
}

/// The graph's outputs by name, or the reason the engine cannot hold the case.
pub enum Outcome {
    /// Every graph output, in order, by name.
    Ran(Vec<(String, Tensor)>),
    /// The engine cannot hold the case, and why.
    Unsupported(String),
}

/// Evaluates a checked graph of Pad, Constant and Identity nodes (ONNX's, and padkit's own Pad)
/// fed by graph inputs and initializers, with `pad` running each Pad node; `engine`
/// names the engine in errors. Returns exactly the graph's outputs.
pub fn evaluate(
    model: &ModelProto,
    inputs: &[Tensor],
    engine: &str,
    pad: &dyn Fn(&PadCall) -> Result<PadResult>,
) -> Result<Outcome> {
    let opset = opset(model)?;
    let g = model.graph.as_ref().context("the model has no graph")?;
    let mut values: HashMap<&str, Tensor> = HashMap::new();
    for t in &g.initializer {
        values.insert(&t.name, tensor_from_proto(t)?);
    }
    let names = graph_inputs_for(model, inputs.len())?;
    for (name, t) in names.iter().zip(inputs) {
        values.insert(name, t.clone());
    }
    for node in &g.node {
        ensure!(
            is_pad_graph_node(node),
            "the {engine} engine evaluates graphs of Pad, Constant and Identity nodes; {} is not one \
             (tract runs whole models)",
            describe(node)
        );
        ensure!(
            node.output.len() == 1,
            "{} has {} outputs; it must have 1",
            describe(node),
            node.output.len()
        );
        let out = match node.op_type.as_str() {
            "Constant" => constant(node)?,
            "Identity" => {
                ensure!(
                    node.input.len() == 1,
                    "{} has {} inputs; it must have 1",
                    describe(node),
                    node.input.len()
                );
                operand(&values, node, 0)?.clone()
            }
            _ => match pad(&pad_call(node, node_opset(model, node, opset), &values)?)? {
                PadResult::Ran(t) => t,
                PadResult::Unsupported(why) => return Ok(Outcome::Unsupported(why)),
            },
        };
        values.insert(&node.output[0], out);
    }
    let outputs = g
        .output
        .iter()
        .map(|o| {
            let t = values
                .get(o.name.as_str())
                .with_context(|| format!("graph output {:?} was not computed", o.name))?;
            Ok((o.name.clone(), t.clone()))
        })
        .collect::<Result<_>>()?;
    Ok(Outcome::Ran(outputs))
}

/// The value of a Constant node (its `value` tensor).
fn constant(node: &NodeProto) -> Result<Tensor> {
    let a = node
        .attribute
        .first()
        .with_context(|| format!("{} has no value", describe(node)))?;
    ensure!(
        a.name == "value",
        "{}: attribute {:?} is not supported here; the core and burn engines read Constant's 'value' tensor",
        describe(node),
        a.name
    );
    let t =
        a.t.as_ref()
            .with_context(|| format!("{}: attribute 'value' holds no tensor", describe(node)))?;
    tensor_from_proto(t).with_context(|| describe(node))
}

fn operand<'v>(
    values: &'v HashMap<&str, Tensor>,
    node: &NodeProto,
    ix: usize,
) -> Result<&'v Tensor> {
    let name = &node.input[ix];
    values.get(name.as_str()).with_context(|| {
        format!(
            "{}: input {name:?} is not computed before it",
            describe(node)
        )
    })
}

/// A Pad node of opset `opset` (of its domain) with its operands read from `values`, checked as ONNX
/// defines them ([`padkit::onnx::check_type`] for the data, [`Operand`] for the rest).
fn pad_call(node: &NodeProto, opset: i64, values: &HashMap<&str, Tensor>) -> Result<PadCall> {
    let name = describe(node);
    let pad = padkit_onnx::pad_node::read(node, opset)?;
    let slots = node.input.len();
    let given: Vec<usize> = (0..slots).filter(|&i| !node.input[i].is_empty()).collect();
    let get = |ix: usize| -> Result<&Tensor> {
        let slot = *given
            .get(ix)
            .with_context(|| format!("{name} lacks input {ix}"))?;
        operand(values, node, slot)
    };
    let x = get(0)?;
    padkit::onnx::check_type(x.dtype(), pad.opset)
        .map_err(|e| anyhow::Error::new(e).context(name.clone()))?;
    let dtype = x.dtype();
    let checked = |operand: Operand, t: &Tensor| -> Result<()> {
        operand
            .check_type(t.dtype(), dtype)
            .and_then(|()| operand.check_shape(t.shape()))
            .map_err(|e| anyhow::Error::new(e).context(name.clone()))
    };
    let ints = |operand: Operand, t: &Tensor| -> Result<Vec<i64>> {
        checked(operand, t)?;
        Ok(match t.dtype() {
            DType::Int32 => t.to_vec::<i32>()?.into_iter().map(i64::from).collect(),
            _ => t.to_vec::<i64>()?,
        })
    };
    let pads = match &pad.pads {
        Given::Known(p) => p.clone(),
        Given::Fed(ix) => ints(Operand::Pads, get(*ix)?)?,
    };
    let axes = pad
        .axes_input
        .map(|a| ints(Operand::Axes, get(a)?))
        .transpose()?;
    let value = match pad.value {
        Some(Given::Known(bits)) => Some(
            padkit::onnx::attribute_value(f32::from_bits(bits), dtype)
                .map_err(|e| anyhow::Error::new(e).context(name.clone()))?,
        ),
        Some(Given::Fed(v)) => {
            let v = get(v)?;
            checked(Operand::ConstantValue, v)?;
            Some(v.clone())
        }
        None => None,
    };
    Ok(PadCall {
        node: name,
        x: x.clone(),
        spec: PadSpec::new(pads)
            .with_axes(axes)
            .with_interior(pad.interior)
            .with_mode(pad.mode),
        value,
    })
}
