//! The walk over a model's graphs, each Pad replaced in place; what is known of each value
//! in a graph and the graphs around it is its [`Scope`] (`scope.rs`).

use std::collections::HashSet;

use padkit::Tensor;
use padkit::onnx::{PADKIT_DOMAIN, is_default_domain};
use padkit_onnx::graph::{describe, dims, value_info};
use padkit_onnx::pad_node::node_opset;
use padkit_onnx::pb::{GraphProto, ModelProto, NodeProto, TensorProto};
use padkit_onnx::proto::tensor_from_proto;

use crate::rewrite::{self, Rewrite};
use crate::scope::{MAX_ELEMENTS, Scope, known};
use crate::session::{Session, collect_names};
use crate::{LowerError, Target};
use crate::{fold, widen};

/// The walk over one model's graphs.
pub(crate) struct Walk<'m> {
    model: &'m ModelProto,
    session: Session<'m>,
}

impl<'m> Walk<'m> {
    pub(crate) fn new(model: &'m ModelProto, options: &'m crate::Options) -> Walk<'m> {
        Walk {
            model,
            session: Session::new(model, options),
        }
    }

    /// The target's first refusal of a Pad the walk lowered ([`Session::refuse`]).
    pub(crate) fn refusal(self) -> Option<LowerError> {
        self.session.refusal
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
        let first_initializer = self.session.initializers.len();
        let mut nodes = Vec::with_capacity(g.node.len());
        // the values lowered Pads read, whose Constant nodes may be left unread
        let mut read_by_lowered = HashSet::new();
        for mut node in std::mem::take(&mut g.node) {
            for a in &mut node.attribute {
                for sub in a.g.iter_mut().chain(a.graphs.iter_mut()) {
                    self.graph(sub, &scope)?;
                }
            }
            match kind(&node) {
                Kind::Pad | Kind::CenterCropPad => {
                    let opset = node_opset(self.model, &node, self.session.opset);
                    match rewrite::rewrite(&mut self.session, &node, opset, &mut scope)? {
                        Rewrite::Kept => nodes.push(node),
                        Rewrite::Lowered(lowered) => {
                            self.session.within_budget(&node)?;
                            let (names, target) =
                                (&mut self.session.names, self.session.options.target);
                            let wide = widen::where_needed(&node, &scope, lowered, names, target);
                            if let Some(e) = unconverted(&node, &wide, target, self.session.opset) {
                                self.session.refuse(e);
                            }
                            nodes.extend(wide);
                            read_by_lowered.extend(node.input);
                        }
                    }
                }
                Kind::Constant => {
                    if let Some(t) = constant_value(&node) {
                        scope.types.insert(node.output[0].clone(), known(&t));
                        if t.len() <= MAX_ELEMENTS {
                            scope.constants.insert(node.output[0].clone(), t);
                        }
                    }
                    nodes.push(node);
                }
                Kind::Other => {
                    if let Some(t) = fold::fold(&node, &scope) {
                        scope.types.insert(node.output[0].clone(), known(&t));
                        scope.constants.insert(node.output[0].clone(), t);
                    }
                    nodes.push(node);
                }
            }
        }
        g.node = nodes;
        drop_unread_constants(g, &read_by_lowered);
        let added: Vec<TensorProto> = self
            .session
            .initializers
            .drain(first_initializer..)
            .collect();
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

/// Removes from `g` the `Constant` nodes that only lowered Pads read (their values in
/// `read_by_lowered`): left, a model would hold `Constant`s nothing reads, which a target's
/// runtime may not run (onnx2torch 1.5.15 from opset 19), where a Pad's pads or axes came
/// from one, as exporters write them.
fn drop_unread_constants(g: &mut GraphProto, read_by_lowered: &HashSet<String>) {
    if read_by_lowered.is_empty() {
        return;
    }
    // what the graph's nodes, its subgraphs and its outputs still name
    let mut named = HashSet::new();
    for node in &g.node {
        named.extend(node.input.iter().cloned());
        for sub in node
            .attribute
            .iter()
            .flat_map(|a| a.g.iter().chain(&a.graphs))
        {
            collect_names(sub, &mut named);
        }
    }
    named.extend(g.output.iter().map(|v| v.name.clone()));
    g.node.retain(|n| {
        !matches!(kind(n), Kind::Constant)
            || !read_by_lowered.contains(&n.output[0])
            || named.contains(&n.output[0])
    });
}

/// The refusal of Pad `node`, lowered into `lowered`, where `target`'s runtime does not
/// run one of their ops at `opset` ([`Target::converts`]).
fn unconverted(
    node: &NodeProto,
    lowered: &[NodeProto],
    target: Target,
    opset: i64,
) -> Option<LowerError> {
    let n = lowered
        .iter()
        .find(|n| !target.converts(&n.op_type, opset))?;
    Some(LowerError::NotLowered {
        node: describe(node),
        why: format!(
            "its lowering needs {}, which {target} does not run at opset {opset}",
            n.op_type
        ),
    })
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
