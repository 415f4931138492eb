//! candle-onnx models whose Pads run: [`simple_eval`] has candle-onnx's signature; it
//! lowers the model's Pads into ops candle-onnx evaluates (padkit-lower's portable op
//! set), then calls `candle_onnx::simple_eval`, which evaluates every other node exactly
//! as before.
//!
//! Built on the lowering rather than on a walk of its own: candle-onnx has no hook for one
//! op (its evaluator is one `match`), so a walk of padkit's would have to evaluate every
//! other node too, and drift from candle-onnx's own; the lowering leaves them to it.
//!
//! Each call lowers the model for the inputs it is given ([`lower_for`]): their shapes
//! fill the unknown extents of the graph inputs' declared shapes, and small `int64` inputs
//! (pads or axes fed at run time) become constants, so that Pads lower to index maps of
//! known size. padkit-lower knows the shapes of graph inputs, initializers, constants and
//! values with `value_info`; a Pad of another op's output without `value_info` is not
//! lowered, and the model then goes to candle-onnx as it is (whose own Pad runs reflect
//! mode only). A model evaluated many times on inputs of one shape can be lowered once
//! with [`lower`] and run with `candle_onnx::simple_eval`.
//!
//! Every model `candle_onnx::simple_eval` takes is taken: one that does not say which
//! version of ONNX it is written in (IR version 0, no opset of the default domain, as
//! models built in code often are, candle-onnx's own tests among them) is read as
//! candle-onnx reads it, its Pads in their inputs form: as the newest Pad
//! ([`padkit::onnx::NEWEST_VERSION`]), which means what candle-onnx's does on every model
//! candle-onnx's takes. Graph inputs that declare no type take the type and shape of what
//! they are fed. Outputs are limited ([`default_max_output_bytes`]) so that a Pad too
//! large for the machine is an error before candle allocates (candle's allocations abort
//! the process when they fail).

use std::borrow::Cow;
use std::collections::HashMap;

use candle_core::{DType, Tensor};
use candle_onnx::onnx::{GraphProto, ModelProto};
use padkit_onnx::pb;
use prost::Message;

pub use padkit::memory::default_max_output_bytes;
pub use padkit_lower::Options;

/// The largest `int64` input (in elements) that a call's lowering takes as a constant.
pub const MAX_PINNED_ELEMENTS: usize = 4096;

/// Evaluates `model` on `inputs` as `candle_onnx::simple_eval` does, with every Pad and
/// CenterCropPad (every opset, mode and input form, padkit's `ai.padkit` Pad, in the
/// graph and in `If`, `Loop` and `Scan` bodies) lowered first.
///
/// # Errors
///
/// A Pad that cannot run on its inputs (pads that do not fit, a crop past the axis…),
/// with the node and padkit's reason; a malformed model; and candle-onnx's errors, a panic
/// of candle-onnx's included (as an error naming it).
///
/// ```
/// use std::collections::HashMap;
/// use candle_core::{Device, Tensor};
/// use prost::Message;
/// # use padkit_onnx_tools::model::{Feed, PadModel};
/// # let x = padkit::Tensor::from_slice(&[2, 2], &[1f32, 2.0, 3.0, 4.0]).unwrap();
/// // `model`: an ONNX model (`padkit_onnx::pb::ModelProto`) whose Pad-19 pads its input
/// // `x` in wrap mode, which candle-onnx refuses to load
/// # let model = PadModel::new(19, "wrap", x, vec![0, 1, 0, 1], Feed::Initializer).proto();
/// let model = candle_onnx::onnx::ModelProto::decode(model.encode_to_vec().as_slice()).unwrap();
/// let x = Tensor::new(&[[1f32, 2.0], [3.0, 4.0]], &Device::Cpu).unwrap();
/// let out = padkit_candle::onnx::simple_eval(&model, HashMap::from([("x".to_string(), x)])).unwrap();
/// assert_eq!(out["y"].to_vec2::<f32>().unwrap(), [[2.0, 1.0, 2.0, 1.0], [4.0, 3.0, 4.0, 3.0]]);
/// ```
pub fn simple_eval(
    model: &ModelProto,
    inputs: HashMap<String, Tensor>,
) -> candle_core::Result<HashMap<String, Tensor>> {
    simple_eval_with(model, inputs, &Options::default())
}

/// [`simple_eval`], lowering as `options` say: an output limit for the Pads, which is
/// [`default_max_output_bytes`] (the memory available now) where `options` set none.
///
/// # Errors
///
/// As [`simple_eval`]; and a Pad whose output is above the limit (padkit's `TooLarge`,
/// before anything is allocated).
pub fn simple_eval_with(
    model: &ModelProto,
    inputs: HashMap<String, Tensor>,
    options: &Options,
) -> candle_core::Result<HashMap<String, Tensor>> {
    let lowered = lower_for(model, &inputs, options)?;
    // candle-onnx indexes and unwraps what a model gives it: a panic there is an error
    // here, naming it (the panic hook still prints it).
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        candle_onnx::simple_eval(&lowered, inputs)
    }))
    .unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(candle_core::Error::msg(format!(
            "candle-onnx panicked evaluating the model: {message}"
        )))
    })
}

/// The model [`simple_eval_with`] hands to `candle_onnx::simple_eval` for `inputs`:
/// `model` itself when it has no Pad, else `model` with its Pads lowered for these inputs
/// (their unknown extents set from the fed shapes, their type where they declare none;
/// `int64` inputs of at most
/// [`MAX_PINNED_ELEMENTS`] elements, declared `int64` and not also initializers, taken as
/// constants). Where padkit-lower does not rewrite a Pad (one whose data's shape is not
/// known when the model is read: the output of another op without `value_info`, say),
/// `model` itself, which candle-onnx runs as it would alone.
///
/// # Errors
///
/// A Pad that cannot run on its inputs (with the node and padkit's reason), a malformed
/// model (padkit-lower's checks, those ONNX Runtime makes when it loads a model), a Pad
/// whose output is above the limit ([`simple_eval_with`]).
pub fn lower_for<'m>(
    model: &'m ModelProto,
    inputs: &HashMap<String, Tensor>,
    options: &Options,
) -> candle_core::Result<Cow<'m, ModelProto>> {
    if !has_pad(model.graph.as_ref()) {
        return Ok(Cow::Borrowed(model));
    }
    let mut m = to_padkit(model)?;
    declare_versions(&mut m);
    pin_inputs(&mut m, inputs)?;
    let limit = options
        .max_output_bytes
        .unwrap_or_else(default_max_output_bytes);
    let options = options.clone().with_max_output_bytes(limit);
    match padkit_lower::lower_with(&m, &options) {
        Ok(lowered) => {
            // what candle-onnx gets says no more of its versions than the model did
            let mut lowered = from_padkit(&lowered)?;
            lowered.ir_version = model.ir_version;
            lowered.opset_import = model.opset_import.clone();
            Ok(Cow::Owned(lowered))
        }
        Err(padkit_lower::LowerError::NotLowered { .. }) => Ok(Cow::Borrowed(model)),
        Err(e) => Err(lower_error(&e)),
    }
}

/// padkit-lower's error as candle's: its whole message, every layer of its chain (candle
/// prints an error's own message only).
fn lower_error(e: &padkit_lower::LowerError) -> candle_core::Error {
    candle_core::Error::Msg(padkit_onnx::error::message(e))
}

/// Declares, on a model that leaves them unsaid, the versions candle-onnx reads it at: the
/// default domain at the newest Pad's opset where it imports no version of it, and that
/// opset's IR version where it declares none (0).
fn declare_versions(model: &mut pb::ModelProto) {
    let imports_default = model
        .opset_import
        .iter()
        .any(|o| padkit::onnx::is_default_domain(&o.domain));
    if !imports_default {
        model.opset_import.push(pb::OperatorSetIdProto {
            domain: String::new(),
            version: padkit::onnx::NEWEST_VERSION,
        });
    }
    if model.ir_version == 0 {
        let opset = padkit_onnx::graph::opset(model).unwrap_or(padkit::onnx::NEWEST_VERSION);
        model.ir_version = padkit_onnx::graph::ir_version(opset);
    }
}

/// `model` with every Pad lowered into padkit-lower's portable op set, for any input
/// padkit-lower can lower it for: Pads whose pads or axes are fed at run time, or whose
/// data's shape is not known when the model is read, are refused ([`simple_eval`] takes
/// the call's inputs as constants instead).
///
/// # Errors
///
/// As padkit-lower's `lower`: a malformed model, a Pad that cannot run, a Pad it does not
/// rewrite (the node and the reason).
pub fn lower(model: &ModelProto) -> candle_core::Result<ModelProto> {
    let lowered = padkit_lower::lower(&to_padkit(model)?).map_err(|e| lower_error(&e))?;
    from_padkit(&lowered)
}

/// Whether a Pad or CenterCropPad is in `graph` or in a graph of its nodes' attributes.
fn has_pad(graph: Option<&GraphProto>) -> bool {
    graph.into_iter().flat_map(|g| &g.node).any(|n| {
        matches!(n.op_type.as_str(), "Pad" | "CenterCropPad")
            || n.attribute
                .iter()
                .any(|a| has_pad(a.g.as_ref()) || a.graphs.iter().any(|g| has_pad(Some(g))))
    })
}

/// candle-onnx's model as padkit-lower reads it (one `onnx.proto`, two generated crates).
fn to_padkit(model: &ModelProto) -> candle_core::Result<pb::ModelProto> {
    pb::ModelProto::decode(model.encode_to_vec().as_slice()).map_err(candle_core::Error::wrap)
}

/// padkit-lower's model as candle-onnx reads it.
fn from_padkit(model: &pb::ModelProto) -> candle_core::Result<ModelProto> {
    ModelProto::decode(model.encode_to_vec().as_slice()).map_err(candle_core::Error::wrap)
}

/// Fixes the graph inputs fed in `inputs` for one call's lowering: an input that declares
/// no type takes the fed tensor's, the unknown extents of their declared shapes become the
/// fed extents (declared extents stay, so candle-onnx still checks them), and `int64`
/// inputs declared `int64`, of at most
/// [`MAX_PINNED_ELEMENTS`] elements and not also initializers become initializers holding
/// the fed values (candle-onnx reads the same values either way).
fn pin_inputs(
    model: &mut pb::ModelProto,
    inputs: &HashMap<String, Tensor>,
) -> candle_core::Result<()> {
    use pb::tensor_shape_proto::{Dimension, dimension::Value as Dim};
    let Some(graph) = model.graph.as_mut() else {
        return Ok(());
    };
    let mut kept = vec![];
    for mut input in std::mem::take(&mut graph.input) {
        let Some(fed) = inputs.get(&input.name) else {
            kept.push(input);
            continue;
        };
        let untyped = input.r#type.as_ref().is_none_or(|t| t.value.is_none());
        if untyped && let Some(dtype) = crate::convert::onnx_type(fed.dtype()) {
            let tensor = pb::type_proto::Tensor {
                elem_type: dtype.onnx_code(),
                shape: None,
            };
            input.r#type = Some(pb::TypeProto {
                value: Some(pb::type_proto::Value::TensorType(tensor)),
                ..Default::default()
            });
        }
        let Some(pb::type_proto::Value::TensorType(t)) =
            input.r#type.as_mut().and_then(|t| t.value.as_mut())
        else {
            kept.push(input);
            continue;
        };
        let initialized = graph.initializer.iter().any(|i| i.name == input.name);
        if t.elem_type == pb::tensor_proto::DataType::Int64 as i32
            && fed.dtype() == DType::I64
            && fed.elem_count() <= MAX_PINNED_ELEMENTS
            && !initialized
        {
            let value = crate::convert::from_candle(fed)?;
            graph
                .initializer
                .push(padkit_onnx::proto::tensor_to_proto(&value, &input.name));
            continue;
        }
        let fed_dim = |&d: &usize| Dimension {
            value: Some(Dim::DimValue(d as i64)),
            ..Default::default()
        };
        match t.shape.as_mut() {
            None => {
                t.shape = Some(pb::TensorShapeProto {
                    dim: fed.dims().iter().map(fed_dim).collect(),
                })
            }
            Some(shape) if shape.dim.len() == fed.rank() => {
                for (dim, d) in shape.dim.iter_mut().zip(fed.dims()) {
                    if !matches!(dim.value, Some(Dim::DimValue(_))) {
                        *dim = fed_dim(d);
                    }
                }
            }
            Some(_) => {}
        }
        kept.push(input);
    }
    graph.input = kept;
    Ok(())
}
