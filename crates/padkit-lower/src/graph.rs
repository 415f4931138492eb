//! The walk over a model's graphs: what is known of each value (constants, declared types
//! and shapes) in the graph and the graphs around it, and each Pad replaced in place.

use std::collections::{HashMap, HashSet};

use padkit::onnx::{Operand, PADKIT_DOMAIN, is_default_domain};
use padkit::{DType, Tensor};
use padkit_onnx::graph::{describe, dims, value_info};
use padkit_onnx::pb::tensor_shape_proto::dimension::Value as Dim;
use padkit_onnx::pb::{GraphProto, ModelProto, NodeProto, TensorProto, ValueInfoProto, type_proto};
use padkit_onnx::proto::{
    dtype_and_shape, sparse_dtype_and_shape, sparse_tensor_from_proto, tensor_from_proto,
};

use crate::LowerError;
use crate::emit::{Budget, Emitter, Names};
use crate::pad::{Rewrite, lower_center_crop_pad, lower_pad};
use crate::widen;

/// What is known of the values of one graph, and through `outer`, of the graphs around
/// it (each graph keeps only its own: a model of many subgraphs holds each constant once).
#[derive(Default)]
pub(crate) struct Scope<'o> {
    /// What the graphs around this one know.
    outer: Option<&'o Scope<'o>>,
    /// Every name this graph defines (inputs, initializers, node outputs): a name defined
    /// here shadows the graphs around it, known or not.
    defined: HashSet<String>,
    /// Values known when the model is read: initializers and Constant nodes' outputs of
    /// at most [`MAX_ELEMENTS`](crate::fold::MAX_ELEMENTS) elements (operands are
    /// small), and the small integer tensors folded from them.
    pub(crate) constants: HashMap<String, Tensor>,
    /// Element types and shapes, each extent where it is known before run time:
    /// declared (graph inputs, value_info, outputs), of constants, and of the Pads lowered
    /// so far.
    pub(crate) types: HashMap<String, (DType, Vec<Option<usize>>)>,
}

impl<'o> Scope<'o> {
    /// The constant `name`, if known.
    pub(crate) fn constant(&self, name: &str) -> Option<&Tensor> {
        match self.constants.get(name) {
            Some(t) => Some(t),
            None if self.defined.contains(name) => None,
            None => self.outer?.constant(name),
        }
    }

    /// The element type and shape of `name`, if known.
    pub(crate) fn type_of(&self, name: &str) -> Option<&(DType, Vec<Option<usize>>)> {
        match self.types.get(name) {
            Some(t) => Some(t),
            None if self.defined.contains(name) => None,
            None => self.outer?.type_of(name),
        }
    }

    /// What `g` declares and holds, inside `outer`. Where `overridable` (IR version 4 on),
    /// an initializer that is also a graph input is only a default the caller may replace:
    /// its declared type stands, and it is no constant.
    fn of_graph(
        outer: &'o Scope<'o>,
        g: &GraphProto,
        overridable: bool,
    ) -> Result<Scope<'o>, LowerError> {
        let mut scope = Scope {
            outer: Some(outer),
            ..Scope::default()
        };
        let inputs: HashSet<&str> = g.input.iter().map(|i| i.name.as_str()).collect();
        scope.defined.extend(inputs.iter().map(|n| n.to_string()));
        scope
            .defined
            .extend(g.initializer.iter().map(|t| t.name.clone()));
        let outputs = g.node.iter().flat_map(|n| n.output.iter().cloned());
        scope.defined.extend(outputs);
        for vi in g.input.iter().chain(&g.value_info).chain(&g.output) {
            if let Some(t) = declared(vi) {
                scope.types.insert(vi.name.clone(), t);
            }
        }
        for t in &g.initializer {
            if overridable && inputs.contains(t.name.as_str()) {
                continue;
            }
            let (dtype, shape) = dtype_and_shape(t).map_err(LowerError::model)?;
            let small = shape
                .iter()
                .try_fold(1usize, |n, &d| n.checked_mul(d.max(1)))
                .is_some_and(|n| n <= crate::fold::MAX_ELEMENTS);
            scope.types.insert(
                t.name.clone(),
                (dtype, shape.into_iter().map(Some).collect()),
            );
            if small {
                let tensor = tensor_from_proto(t).map_err(LowerError::model)?;
                scope.constants.insert(t.name.clone(), tensor);
            }
        }
        // sparse initializers: their types, and the small int64 and int32 ones (pads,
        // axes) as the dense constants they stand for
        for sp in &g.sparse_initializer {
            let (name, dtype, shape) = sparse_dtype_and_shape(sp).map_err(LowerError::model)?;
            let name = name.to_string();
            scope.defined.insert(name.clone());
            if overridable && inputs.contains(name.as_str()) {
                continue;
            }
            let small = shape.iter().product::<usize>() <= crate::fold::MAX_ELEMENTS;
            let ints = matches!(dtype, DType::Int64 | DType::Int32);
            scope
                .types
                .insert(name.clone(), (dtype, shape.into_iter().map(Some).collect()));
            if small && ints {
                let tensor = sparse_tensor_from_proto(sp).map_err(LowerError::model)?;
                scope.constants.insert(name, tensor);
            }
        }
        Ok(scope)
    }
}

/// The element type and shape of a tensor the model holds.
fn known(t: &Tensor) -> (DType, Vec<Option<usize>>) {
    (t.dtype(), t.shape().iter().map(|&d| Some(d)).collect())
}

/// The element type and shape `vi` declares (each extent where it is a number), when it
/// declares both.
fn declared(vi: &ValueInfoProto) -> Option<(DType, Vec<Option<usize>>)> {
    let Some(type_proto::Value::TensorType(t)) = vi.r#type.as_ref()?.value.as_ref() else {
        return None;
    };
    let dtype = DType::from_onnx(t.elem_type).ok()?;
    let shape = t
        .shape
        .as_ref()?
        .dim
        .iter()
        .map(|d| match d.value {
            Some(Dim::DimValue(v)) => usize::try_from(v).ok(),
            _ => None,
        })
        .collect();
    Some((dtype, shape))
}

/// The model's opset of the default domain (0 when it imports none).
fn default_opset(model: &ModelProto) -> i64 {
    model
        .opset_import
        .iter()
        .find(|o| is_default_domain(&o.domain))
        .map_or(0, |o| o.version)
}

/// Every name `g` and its subgraphs define or read.
fn collect_names(g: &GraphProto, names: &mut std::collections::HashSet<String>) {
    let values = g.input.iter().chain(&g.output).chain(&g.value_info);
    names.extend(values.map(|v| v.name.clone()));
    names.extend(g.initializer.iter().map(|t| t.name.clone()));
    let sparse = g
        .sparse_initializer
        .iter()
        .filter_map(|t| t.values.as_ref());
    names.extend(sparse.map(|t| t.name.clone()));
    for node in &g.node {
        names.extend(node.input.iter().chain(&node.output).cloned());
        names.insert(node.name.clone());
        for a in &node.attribute {
            for sub in a.g.iter().chain(&a.graphs) {
                collect_names(sub, names);
            }
        }
    }
}

/// The walk's state over one model.
pub(crate) struct Walk<'m> {
    pub(crate) model: &'m ModelProto,
    pub(crate) options: &'m crate::Options,
    pub(crate) opset: i64,
    pub(crate) names: Names,
    pub(crate) budget: Budget,
    /// Constants the lowering writes as initializers (before opset 9, those `Constant`
    /// does not hold), not yet added to the graph being lowered.
    pub(crate) initializers: Vec<TensorProto>,
}

impl<'m> Walk<'m> {
    pub(crate) fn new(model: &'m ModelProto, options: &'m crate::Options) -> Walk<'m> {
        let mut names = std::collections::HashSet::new();
        if let Some(g) = &model.graph {
            collect_names(g, &mut names);
        }
        Walk {
            model,
            options,
            opset: default_opset(model),
            names: Names::new(names),
            budget: Budget {
                limit: options
                    .max_constant_bytes
                    .unwrap_or(crate::DEFAULT_MAX_CONSTANT_BYTES),
                spent: 0,
            },
            initializers: vec![],
        }
    }

    /// An emitter of the nodes a Pad writing `y` becomes, for this walk's model and target.
    pub(crate) fn emitter(&mut self, y: &str) -> Emitter<'_> {
        Emitter::new(
            (self.opset, self.options.target.borders()),
            y,
            &mut self.names,
            &mut self.budget,
            &mut self.initializers,
        )
    }

    /// An error naming `node`, just lowered, where the constants written so far overdraw
    /// the budget.
    fn within_budget(&self, node: &NodeProto) -> Result<(), LowerError> {
        if self.budget.overdrawn() {
            return Err(LowerError::Budget {
                node: describe(node),
                limit: self.budget.limit,
            });
        }
        Ok(())
    }

    /// Lowers every Pad of `g` and of its subgraphs, `outer` being what the graphs
    /// around it know.
    pub(crate) fn graph(
        &mut self,
        g: &mut GraphProto,
        outer: &Scope<'_>,
    ) -> Result<(), LowerError> {
        let mut scope = Scope::of_graph(outer, g, self.model.ir_version >= 4)?;
        // the initializers this graph's Pads add (a subgraph's go into the subgraph)
        let first_initializer = self.initializers.len();
        let mut nodes = Vec::with_capacity(g.node.len());
        for mut node in std::mem::take(&mut g.node) {
            for a in &mut node.attribute {
                for sub in a.g.iter_mut().chain(a.graphs.iter_mut()) {
                    self.graph(sub, &scope)?;
                }
            }
            match kind(&node) {
                Kind::Pad => match lower_pad(self, &node, &mut scope)? {
                    Rewrite::Kept => nodes.push(node),
                    Rewrite::Lowered(lowered) => {
                        self.within_budget(&node)?;
                        let lowered = widen::where_needed(&node, &scope, lowered, &mut self.names);
                        nodes.extend(lowered);
                    }
                },
                Kind::CenterCropPad => {
                    let lowered = lower_center_crop_pad(self, &node, &mut scope)?;
                    self.within_budget(&node)?;
                    let lowered = widen::where_needed(&node, &scope, lowered, &mut self.names);
                    nodes.extend(lowered);
                }
                Kind::Constant => {
                    if let Some(t) = constant_value(&node) {
                        scope.types.insert(node.output[0].clone(), known(&t));
                        if t.len() <= crate::fold::MAX_ELEMENTS {
                            scope.constants.insert(node.output[0].clone(), t);
                        }
                    }
                    nodes.push(node);
                }
                Kind::Other => {
                    if let Some(t) = crate::fold::fold(&node, &scope) {
                        scope.types.insert(node.output[0].clone(), known(&t));
                        scope.constants.insert(node.output[0].clone(), t);
                    }
                    nodes.push(node);
                }
            }
        }
        g.node = nodes;
        let added: Vec<TensorProto> = self.initializers.drain(first_initializer..).collect();
        if self.model.ir_version < 4 {
            // before IR version 4 every initializer is also a graph input
            g.input.extend(
                added
                    .iter()
                    .map(|t| value_info(&t.name, t.data_type, Some(dims(&t.dims)))),
            );
        }
        g.initializer.extend(added);
        Ok(())
    }
}

/// Refuses a model with a Pad where the walk of its graph does not reach: in the body of a
/// model-local function (`FunctionProto`, whose values have no shapes to lower for) or in
/// a training graph (`TrainingInfoProto`). Leaving it would give a model that still holds
/// a Pad the runtime may not run.
pub(crate) fn refuse_unreached(model: &ModelProto) -> Result<(), LowerError> {
    let not_lowered = |node: &NodeProto, place: String| LowerError::NotLowered {
        node: describe(node),
        why: format!("it is in {place}, which padkit-lower does not rewrite"),
    };
    for f in &model.functions {
        if let Some(node) = first_pad(&f.node) {
            let name = &f.name;
            return Err(not_lowered(
                node,
                format!("the body of model-local function {name:?}"),
            ));
        }
    }
    for (i, t) in model.training_info.iter().enumerate() {
        for g in t.initialization.iter().chain(&t.algorithm) {
            if let Some(node) = first_pad(&g.node) {
                return Err(not_lowered(
                    node,
                    format!("training graph {i} ({:?})", g.name),
                ));
            }
        }
    }
    Ok(())
}

/// The first Pad or CenterCropPad among `nodes` and the graphs of their attributes.
fn first_pad(nodes: &[NodeProto]) -> Option<&NodeProto> {
    nodes.iter().find_map(|n| {
        if matches!(kind(n), Kind::Pad | Kind::CenterCropPad) {
            return Some(n);
        }
        n.attribute
            .iter()
            .flat_map(|a| a.g.iter().chain(&a.graphs))
            .find_map(|g| first_pad(&g.node))
    })
}

/// What the walk does with a node.
enum Kind {
    Pad,
    CenterCropPad,
    Constant,
    Other,
}

fn kind(node: &NodeProto) -> Kind {
    let onnx = is_default_domain(&node.domain);
    match node.op_type.as_str() {
        "Pad" if onnx || node.domain == PADKIT_DOMAIN => Kind::Pad,
        "CenterCropPad" if onnx => Kind::CenterCropPad,
        "Constant" if onnx && node.output.len() == 1 => Kind::Constant,
        _ => Kind::Other,
    }
}

/// The tensor of a Constant node's `value`, `value_int` or `value_ints` attribute (other
/// forms are left unknown).
fn constant_value(node: &NodeProto) -> Option<Tensor> {
    let a = node.attribute.first()?;
    match a.name.as_str() {
        "value" => tensor_from_proto(a.t.as_ref()?).ok(),
        "value_int" => Some(Tensor::scalar(a.i)),
        "value_ints" => Tensor::from_slice(&[a.ints.len()], &a.ints).ok(),
        _ => None,
    }
}

/// The operand `operand` of `node` named `name`, a constant checked by ONNX's rules for
/// data of type `data`.
pub(crate) fn operand<'s>(
    scope: &'s Scope,
    node: &NodeProto,
    operand: Operand,
    name: &str,
    data: DType,
) -> Result<&'s Tensor, LowerError> {
    let t = scope.constant(name).ok_or_else(|| LowerError::NotLowered {
        node: describe(node),
        why: format!(
            "input '{}' ({name:?}) is computed at run time; padkit-lower lowers Pads whose \
             operands are initializers or Constant nodes",
            operand.name()
        ),
    })?;
    operand
        .check_type(t.dtype(), data)
        .and_then(|()| operand.check_shape(t.shape()))
        .map_err(|e| LowerError::pad(node, e))?;
    Ok(t)
}
