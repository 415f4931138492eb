//! What lowering one model carries from Pad to Pad: the model's opset, the options, the
//! names the model uses, the budget of constant bytes, and the initializers written but
//! not yet added to their graph.

use std::collections::HashSet;

use padkit_onnx::graph::describe;
use padkit_onnx::pb::{GraphProto, ModelProto, NodeProto, TensorProto};

use crate::emit::{Budget, Emitter, Names};
use crate::{LowerError, Options};

/// The lowering's state over one model.
pub(crate) struct Session<'o> {
    /// The model's opset of the default domain, at which the lowering writes its ops (0
    /// when it imports none).
    pub(crate) opset: i64,
    pub(crate) options: &'o Options,
    pub(crate) names: Names,
    pub(crate) budget: Budget,
    /// Constants the lowering writes as initializers (before opset 9, those `Constant`
    /// does not hold), not yet added to the graph being lowered.
    pub(crate) initializers: Vec<TensorProto>,
    /// The first refusal of the target's (a Pad its runtime cannot run however lowered),
    /// raised once every Pad is lowered: a model with a bad Pad is refused with that Pad's
    /// own error, as the portable lowering refuses it, wherever the two Pads are.
    pub(crate) refusal: Option<LowerError>,
}

impl<'o> Session<'o> {
    pub(crate) fn new(model: &ModelProto, options: &'o Options) -> Session<'o> {
        let mut names = HashSet::new();
        if let Some(g) = &model.graph {
            collect_names(g, &mut names);
        }
        // (0 where the model imports no default domain: `check_model` refused any other
        // import that `opset` refuses)
        let opset = padkit_onnx::graph::opset(model).unwrap_or(0);
        Session {
            opset,
            options,
            names: Names::new(names),
            budget: Budget {
                limit: options
                    .max_constant_bytes
                    .unwrap_or(crate::DEFAULT_MAX_CONSTANT_BYTES),
                spent: 0,
            },
            initializers: vec![],
            refusal: None,
        }
    }

    /// Records the target's refusal `e`, unless one came before.
    pub(crate) fn refuse(&mut self, e: LowerError) {
        self.refusal.get_or_insert(e);
    }

    /// An emitter of the nodes a Pad writing `y` becomes, for this model and target.
    pub(crate) fn emitter(&mut self, y: &str) -> Emitter<'_> {
        Emitter::new(
            (self.opset, self.options.target),
            y,
            &mut self.names,
            &mut self.budget,
            &mut self.initializers,
        )
    }

    /// An error naming `node`, just lowered, where the constants written so far overdraw
    /// the budget.
    pub(crate) fn within_budget(&self, node: &NodeProto) -> Result<(), LowerError> {
        if self.budget.overdrawn() {
            return Err(LowerError::Budget {
                node: describe(node),
                limit: self.budget.limit,
            });
        }
        Ok(())
    }
}

/// Every name `g` and its subgraphs define or read.
pub(crate) fn collect_names(g: &GraphProto, names: &mut HashSet<String>) {
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
