//! What is known of the values of a graph and the graphs around it, when the model is
//! read: constants (initializers, Constant nodes, small integer tensors folded from them)
//! and declared element types and shapes.

use std::collections::{HashMap, HashSet};

use padkit::onnx::Operand;
use padkit::{DType, Tensor};
use padkit_onnx::graph::describe;
use padkit_onnx::pb::tensor_shape_proto::dimension::Value as Dim;
use padkit_onnx::pb::{GraphProto, NodeProto, ValueInfoProto, type_proto};
use padkit_onnx::proto::{
    dtype_and_shape, sparse_dtype_and_shape, sparse_tensor_from_proto, tensor_from_proto,
};

use crate::LowerError;

/// The most elements of a constant the lowering keeps (operands are small), and of an
/// integer tensor it folds ([`crate::fold`]).
pub(crate) const MAX_ELEMENTS: usize = 4096;

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
    /// at most [`MAX_ELEMENTS`] elements (operands are
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

    /// The operand `operand` of `node` named `name`, a constant checked by ONNX's rules for
    /// data of type `data`.
    pub(crate) fn operand(
        &self,
        node: &NodeProto,
        operand: Operand,
        name: &str,
        data: DType,
    ) -> Result<&Tensor, LowerError> {
        let t = self.constant(name).ok_or_else(|| LowerError::NotLowered {
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

    /// What `g` declares and holds, inside `outer`. Where `overridable` (IR version 4 on),
    /// an initializer that is also a graph input is only a default the caller may replace:
    /// its declared type stands, and it is no constant.
    pub(crate) fn of_graph(
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
            let (dtype, shape) = dtype_and_shape(t)?;
            let small = shape
                .iter()
                .try_fold(1usize, |n, &d| n.checked_mul(d.max(1)))
                .is_some_and(|n| n <= MAX_ELEMENTS);
            scope.types.insert(
                t.name.clone(),
                (dtype, shape.into_iter().map(Some).collect()),
            );
            if small {
                let tensor = tensor_from_proto(t)?;
                scope.constants.insert(t.name.clone(), tensor);
            }
        }
        // sparse initializers: their types, and the small int64 and int32 ones (pads,
        // axes) as the dense constants they stand for
        for sp in &g.sparse_initializer {
            let (name, dtype, shape) = sparse_dtype_and_shape(sp)?;
            let name = name.to_string();
            scope.defined.insert(name.clone());
            if overridable && inputs.contains(name.as_str()) {
                continue;
            }
            let small = shape.iter().product::<usize>() <= MAX_ELEMENTS;
            let ints = matches!(dtype, DType::Int64 | DType::Int32);
            scope
                .types
                .insert(name.clone(), (dtype, shape.into_iter().map(Some).collect()));
            if small && ints {
                let tensor = sparse_tensor_from_proto(sp)?;
                scope.constants.insert(name, tensor);
            }
        }
        Ok(scope)
    }
}

/// The element type and shape of a tensor the model holds.
pub(crate) fn known(t: &Tensor) -> (DType, Vec<Option<usize>>) {
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
