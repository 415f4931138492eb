//! A Pad or CenterCropPad node read once, as the lowering needs it: its data's element
//! type and extents (each known when the model is read, or not), its operands (each
//! known, or a graph value fed at run time), checked by ONNX's rules for its version.

use padkit::onnx::{Given, Operand};
use padkit::{DType, Data, PadError, PadMode, PadSpec, Tensor};
use padkit_onnx::graph::describe;
use padkit_onnx::pb::NodeProto;

use crate::LowerError;
use crate::scope::Scope;

/// The one element constant mode pads with, of the data's type: known when the model is
/// read, or the name of the graph value that holds it at run time.
pub(crate) type Fill = Given<Tensor, String>;

/// A Pad being lowered.
pub(crate) struct Pad<'n> {
    pub(crate) node: &'n NodeProto,
    /// The node's opset (its domain's), which reads it; the ops emitted for it take the
    /// model's ([`Session::opset`](crate::session::Session::opset)).
    pub(crate) node_opset: i64,
    /// The data and the output.
    pub(crate) x: String,
    pub(crate) y: String,
    /// The data's element type and extents (`None` where known only at run time).
    pub(crate) dtype: DType,
    pub(crate) shape: Vec<Option<usize>>,
    pub(crate) mode: PadMode,
    /// `2 m` values: the begins, then the ends, of the padded axes.
    pub(crate) pads: Given<Vec<i64>, String>,
    /// The padded axes as given (negative ones from the back), all where `None`.
    pub(crate) axes: Option<Given<Vec<i64>, String>>,
    /// Interior padding per padded axis (padkit's own Pad; known when the model is read).
    pub(crate) interior: Option<Vec<i64>>,
    pub(crate) fill: Fill,
    /// ONNX's `Pad` (the default domain), not padkit's own nor `CenterCropPad`.
    pub(crate) onnx_pad: bool,
    /// The node has a `constant_value` input (opset 11 on), and whether it is declared or
    /// known as a scalar.
    pub(crate) value_input: Option<bool>,
}

impl Pad<'_> {
    /// `e`, raised on this Pad.
    pub(crate) fn fail(&self, e: PadError) -> LowerError {
        LowerError::pad(self.node, e)
    }

    /// Refuses an index map of `n` entries along `axis`, above [`crate::MAX_MAP_LEN`]: the
    /// one cap of the maps written when the model is read.
    pub(crate) fn check_map_len(&self, axis: usize, n: usize) -> Result<(), LowerError> {
        if n <= crate::MAX_MAP_LEN {
            return Ok(());
        }
        Err(self.refuse(format!(
            "axis {axis}: its index map would hold {n} entries, above padkit-lower's limit \
             of {}",
            crate::MAX_MAP_LEN
        )))
    }

    /// This Pad is not lowered, for reason `why`.
    pub(crate) fn refuse(&self, why: String) -> LowerError {
        LowerError::NotLowered {
            node: describe(self.node),
            why,
        }
    }

    /// The pads, axes, interior padding and mode as padkit's spec, where the pads and
    /// axes are known.
    pub(crate) fn spec(&self) -> Option<PadSpec> {
        let pads = self.pads.known()?;
        let axes = match &self.axes {
            Some(axes) => Some(axes.known()?.clone()),
            None => None,
        };
        let spec = PadSpec::new(pads.clone())
            .with_axes(axes)
            .with_interior(self.interior.clone())
            .with_mode(self.mode);
        Some(spec)
    }
}

/// Pad node `node` of opset `opset`, read.
pub(crate) fn pad<'n>(
    node: &'n NodeProto,
    opset: i64,
    scope: &Scope,
) -> Result<Pad<'n>, LowerError> {
    let pad = padkit_onnx::pad_node::read(node, opset).map_err(|e| LowerError::read(node, e))?;
    let fail = |e| LowerError::pad(node, e);
    let given: Vec<&str> = node
        .input
        .iter()
        .filter(|i| !i.is_empty())
        .map(String::as_str)
        .collect();
    let (Some(&x), Some(y)) = (given.first(), node.output.first()) else {
        return Err(LowerError::Model(format!(
            "{} has no data input or no output",
            describe(node)
        )));
    };
    let (dtype, shape) = data(node, x, scope)?;
    padkit::onnx::check_type(dtype, pad.opset).map_err(fail)?;
    let input = |ix: usize| {
        given
            .get(ix)
            .copied()
            .ok_or_else(|| LowerError::Model(format!("{} lacks input {ix}", describe(node))))
    };
    let axes = match pad.axes_input.map(input).transpose()? {
        Some(name) if scope.constant(name).is_none() => {
            // fed at run time: its declared type checked here, its values by the graph
            if let Some((vt, _)) = scope.type_of(name) {
                Operand::Axes.check_type(*vt, dtype).map_err(fail)?;
            }
            Some(Given::Fed(name.to_string()))
        }
        Some(name) => Some(Given::Known(ints(scope.operand(
            node,
            Operand::Axes,
            name,
            dtype,
        )?))),
        None => None,
    };
    let known = |t: padkit::Result<Tensor>| t.map(Given::Known).map_err(fail);
    let fill = match pad.value {
        Some(Given::Known(bits)) => known(
            padkit::onnx::attribute_value(f32::from_bits(bits), dtype)
                .and_then(|v| Tensor::new(dtype, vec![1], v.data().clone())),
        )?,
        Some(Given::Fed(ix)) if scope.constant(input(ix)?).is_none() => {
            // fed at run time: its type and one element checked where declared, else by
            // the runtime (Reshape to one element, Concat of one type)
            let name = input(ix)?;
            fed_type(node, scope, name, Operand::ConstantValue, dtype)?;
            Given::Fed(name.to_string())
        }
        Some(Given::Fed(ix)) => {
            let v = scope.operand(node, Operand::ConstantValue, input(ix)?, dtype)?;
            known(Tensor::new(dtype, vec![1], v.data().clone()))?
        }
        None => known(zero(dtype))?,
    };
    let pads = match &pad.pads {
        Given::Known(p) => Given::Known(p.clone()),
        Given::Fed(ix) => {
            let name = input(*ix)?;
            // with axes fed at run time, known pads are read by the map computed in the
            // graph as fed ones are
            let fed_axes = matches!(axes, Some(Given::Fed(_)));
            if scope.constant(name).is_some() && !fed_axes {
                Given::Known(ints(scope.operand(node, Operand::Pads, name, dtype)?))
            } else {
                fed_type(node, scope, name, Operand::Pads, DType::Int64)?;
                Given::Fed(name.to_string())
            }
        }
    };
    let value_input = (node.input.get(2))
        .filter(|name| !name.is_empty())
        .map(|name| scope.type_of(name).is_some_and(|(_, s)| s.is_empty()));
    Ok(Pad {
        node,
        node_opset: pad.opset,
        x: x.to_string(),
        y: y.to_string(),
        dtype,
        shape,
        mode: pad.mode,
        pads,
        axes,
        interior: pad.interior,
        fill,
        onnx_pad: node.op_type == "Pad" && padkit::onnx::is_default_domain(&node.domain),
        value_input,
    })
}

/// ONNX's `CenterCropPad` node `node` (opset 18: inputs data and target `shape`,
/// attribute `axes`), read as the constant-mode Pad with zero fill it is: on each axis,
/// the difference to the target is split with its smaller half before
/// ([`padkit::onnx::center_pads`]). The target must be a constant and the extents of the
/// axes it sets known when the model is read.
pub(crate) fn center_crop_pad<'n>(
    node: &'n NodeProto,
    opset: i64,
    scope: &Scope,
) -> Result<Pad<'n>, LowerError> {
    let refuse = |why: String| LowerError::NotLowered {
        node: describe(node),
        why,
    };
    let (Some(x), Some(target), Some(y)) =
        (node.input.first(), node.input.get(1), node.output.first())
    else {
        return Err(LowerError::Model(format!(
            "{} takes inputs data and shape and has one output",
            describe(node)
        )));
    };
    let (dtype, shape) = scope.type_of(x).cloned().ok_or_else(|| {
        refuse(format!(
            "the shape of its data {x:?} is not known when the model is read"
        ))
    })?;
    let targets = match scope.constant(target) {
        Some(t) if matches!(t.dtype(), DType::Int64 | DType::Int32) && t.shape().len() == 1 => {
            ints(t)
        }
        Some(t) => {
            return Err(LowerError::Model(format!(
                "{}: input 'shape' must be a 1-D int32 or int64 tensor, it is {} of shape {:?}",
                describe(node),
                t.dtype(),
                t.shape()
            )));
        }
        None => {
            return Err(refuse(format!(
                "its target shape {target:?} is computed at run time"
            )));
        }
    };
    let axes = node
        .attribute
        .iter()
        .find(|a| a.name == "axes")
        .map(|a| a.ints.clone())
        .unwrap_or_else(|| (0..shape.len() as i64).collect());
    if axes.len() != targets.len() {
        return Err(LowerError::Model(format!(
            "{}: shape has {} extents for {} axes",
            describe(node),
            targets.len(),
            axes.len()
        )));
    }
    let normalized =
        padkit::spec::normalize_axes(&axes, shape.len()).map_err(|e| LowerError::pad(node, e))?;
    let (mut begins, mut ends) = (vec![], vec![]);
    for (&axis, &t) in normalized.iter().zip(&targets) {
        let Some(d) = shape[axis] else {
            return Err(refuse(format!(
                "axis {axis}: its extent is known only at run time"
            )));
        };
        let diff = t.checked_sub(d as i64).filter(|_| t >= 0).ok_or_else(|| {
            LowerError::Model(format!(
                "{}: axis {axis}: target extent {t} is negative",
                describe(node)
            ))
        })?;
        let (b, e) = padkit::onnx::center_pads(diff);
        begins.push(b);
        ends.push(e);
    }
    begins.extend(ends);
    let fill = Given::Known(zero(dtype).map_err(|e| LowerError::pad(node, e))?);
    Ok(Pad {
        node,
        node_opset: opset,
        x: x.clone(),
        y: y.clone(),
        dtype,
        shape,
        mode: PadMode::Constant,
        pads: Given::Known(begins),
        axes: Some(Given::Known(axes)),
        interior: None,
        fill,
        onnx_pad: false,
        value_input: None,
    })
}

/// The element type and extents of `node`'s data `x`, which must be known when the model
/// is read.
fn data(
    node: &NodeProto,
    x: &str,
    scope: &Scope,
) -> Result<(DType, Vec<Option<usize>>), LowerError> {
    scope
        .type_of(x)
        .cloned()
        .ok_or_else(|| LowerError::NotLowered {
            node: describe(node),
            why: format!(
                "the shape of its data {x:?} is not known when the model is read (a graph \
             input, value_info or initializer with static dims); padkit-lower lowers such \
             Pads only"
            ),
        })
}

/// Checks the declared type of `operand` `name`, fed at run time, by ONNX's rules for data
/// of type `data`, and its shape where every extent is declared (else the runtime checks).
fn fed_type(
    node: &NodeProto,
    scope: &Scope,
    name: &str,
    operand: Operand,
    data: DType,
) -> Result<(), LowerError> {
    let Some((vt, shape)) = scope.type_of(name) else {
        return Ok(());
    };
    let fail = |e| LowerError::pad(node, e);
    operand.check_type(*vt, data).map_err(fail)?;
    if let Some(shape) = shape.iter().copied().collect::<Option<Vec<usize>>>() {
        operand.check_shape(&shape).map_err(fail)?;
    }
    Ok(())
}

/// A constant `pads` or `axes` as i64.
fn ints(t: &Tensor) -> Vec<i64> {
    match t.dtype() {
        DType::Int32 => t
            .to_vec::<i32>()
            .map(|v| v.into_iter().map(i64::from).collect())
            .unwrap_or_default(),
        _ => t.to_vec::<i64>().unwrap_or_default(),
    }
}

/// One zero (false, the empty string) of `dtype`: an empty tensor padded by one element.
pub(crate) fn zero(dtype: DType) -> padkit::Result<Tensor> {
    let empty = match dtype {
        DType::String => Data::Strings(vec![]),
        _ => Data::Bytes(vec![]),
    };
    let x = Tensor::new(dtype, vec![0], empty)?;
    padkit::pad_tensor(&x, &PadSpec::new(vec![0, 1]), None)
}
