//! The custom op serving Pad nodes in [`PAD_DOMAIN`](crate::PAD_DOMAIN): every check at
//! build time, then one call to `padkit_burn::import::pad_node` in the generated code.

use burn_onnx::ext::proc_macro2::TokenStream;
use burn_onnx::ext::quote::quote;
use burn_onnx::ext::{
    ArgType, Argument, AttrKind, CodegenContext, CustomNode, CustomOp, DType, ProcessError,
    TensorData, TensorType, arg_to_ident,
};
use padkit::onnx::{Given, Operand, Source};
use padkit::{PadMode, PadSpec};

use crate::rewrite::{NAME_ATTRIBUTE, PAD_DOMAIN};

/// ONNX Pad, every opset, as a burn-onnx custom op generating calls to padkit-burn.
pub struct PadOp;

/// A constant fill known at build time: none given (zero), or the one value given.
enum Value {
    Zero,
    Float(f64),
    Int(i64),
    Bool(bool),
}

/// A Pad node read and checked.
struct Config {
    mode: PadMode,
    pads: Given<Vec<i64>>,
    axes: Option<Given<Vec<i64>>>,
    value: Given<Value>,
    dtype: DType,
    rank: usize,
}

fn error(node: &CustomNode, what: impl std::fmt::Display) -> ProcessError {
    ProcessError::Custom(format!("Pad node {:?}: {what}", model_name(node)))
}

/// The node's name in the model (burn-onnx's own name for it when the rewrite did not
/// record one).
fn model_name(node: &CustomNode) -> &str {
    node.attrs
        .get_string(NAME_ATTRIBUTE)
        .unwrap_or(node.name.as_str())
}

impl Config {
    fn read(node: &CustomNode) -> Result<Config, ProcessError> {
        let opset = node.opset as i64;
        let mode = match node.attrs.kind("mode") {
            None => "constant",
            Some(AttrKind::String) => node.attrs.get_string("mode").unwrap_or("constant"),
            Some(other) => {
                return Err(error(
                    node,
                    format!("attribute 'mode' must be a string, it is {other:?}"),
                ));
            }
        };
        let signature = padkit::onnx::signature(opset);
        signature
            .check_inputs(node.inputs.len())
            .map_err(|e| error(node, e))?;
        let mode = signature.parse_mode(mode).map_err(|e| error(node, e))?;
        let ArgType::Tensor(TensorType { dtype, rank, .. }) = node
            .inputs
            .first()
            .map(|a| &a.ty)
            .ok_or_else(|| error(node, "has no data input"))?
        else {
            return Err(error(node, "its data must be a tensor"));
        };
        let (dtype, rank) = (*dtype, *rank);
        let onnx = padkit_burn::dtype::onnx_type(dtype)
            .ok_or_else(|| error(node, format!("Burn cannot pad element type {dtype:?}")))?;
        padkit::onnx::check_type(onnx, opset).map_err(|e| error(node, e))?;
        let given: Vec<usize> = (0..node.inputs.len())
            .filter(|&i| !node.inputs[i].is_optional())
            .collect();
        let mut config = Config {
            mode,
            pads: Given::Known(vec![]),
            axes: None,
            value: Given::Known(Value::Zero),
            dtype,
            rank,
        };
        if let Source::Attribute(name) = signature.pads {
            config.pads = Given::Known(match node.attrs.kind(name) {
                Some(AttrKind::Int64s) => node.attrs.get_i64s(name).unwrap_or_default().to_vec(),
                _ => {
                    return Err(error(
                        node,
                        format!("attribute '{name}' (a list of ints) is missing"),
                    ));
                }
            });
        } else if !given.contains(&1) {
            return Err(error(node, "input 'pads' is missing"));
        } else {
            config.pads = ints(node, 1, Operand::Pads, dtype)?;
        }
        config.value = match signature.value {
            Source::Attribute(name) => match node.attrs.kind(name) {
                None => Given::Known(Value::Zero),
                Some(AttrKind::Float32) => Given::Known(Value::Float(f64::from(
                    node.attrs.get_f32(name).unwrap_or(0.0),
                ))),
                Some(other) => {
                    return Err(error(
                        node,
                        format!("attribute '{name}' must be a float, it is {other:?}"),
                    ));
                }
            },
            Source::Input(ix) if given.contains(&ix) => value(node, ix, dtype)?,
            Source::Input(_) => Given::Known(Value::Zero),
        };
        if let Some(Source::Input(ix)) = signature.axes
            && given.contains(&ix)
        {
            config.axes = Some(ints(node, ix, Operand::Axes, dtype)?);
        }
        config.checked(node)
    }

    /// Checks known pads and axes against the data's rank (and its shape when known).
    fn checked(self, node: &CustomNode) -> Result<Config, ProcessError> {
        if let (Given::Known(pads), None | Some(Given::Known(_))) = (&self.pads, &self.axes) {
            let spec = self.spec(pads.clone());
            spec.resolve(self.rank).map_err(|e| error(node, e))?;
            if let Some(shape) = static_shape(&node.inputs[0]) {
                padkit::output_shape(&shape, &spec).map_err(|e| error(node, e))?;
            }
        }
        Ok(self)
    }

    fn spec(&self, pads: Vec<i64>) -> PadSpec {
        let axes = match &self.axes {
            Some(Given::Known(a)) => Some(a.clone()),
            _ => None,
        };
        PadSpec::new(pads).with_axes(axes).with_mode(self.mode)
    }

    /// The output's static shape, when the data's and the pads are known.
    fn output_shape(&self, data: &Argument) -> Option<Vec<Option<usize>>> {
        let Given::Known(pads) = &self.pads else {
            return None;
        };
        if matches!(self.axes, Some(Given::Fed(_))) {
            return None;
        }
        let out = padkit::output_shape(&static_shape(data)?, &self.spec(pads.clone())).ok()?;
        Some(out.into_iter().map(Some).collect())
    }
}

/// The data's shape, when every dim is known at build time.
fn static_shape(data: &Argument) -> Option<Vec<usize>> {
    match &data.ty {
        ArgType::Tensor(t) => t.static_shape.as_ref()?.iter().copied().collect(),
        _ => None,
    }
}

/// Checks the operand `operand` of element type `got` (rank, or whole shape when known) by
/// padkit's rule, for data of type `data`.
fn check_operand(
    node: &CustomNode,
    operand: Operand,
    got: DType,
    data: DType,
    shape: Result<&[usize], usize>,
) -> Result<(), ProcessError> {
    let (Some(got), Some(data)) = (
        padkit_burn::dtype::onnx_type(got),
        padkit_burn::dtype::onnx_type(data),
    ) else {
        return Err(error(
            node,
            format!(
                "input '{}' has type {got:?}, which ONNX does not define",
                operand.name()
            ),
        ));
    };
    operand
        .check_type(got, data)
        .and_then(|()| match shape {
            Ok(shape) => operand.check_shape(shape),
            Err(rank) => operand.check_rank(rank),
        })
        .map_err(|e| error(node, e))
}

/// Input `ix` (pads or axes) as integers, known or read at run time.
fn ints(
    node: &CustomNode,
    ix: usize,
    operand: Operand,
    data: DType,
) -> Result<Given<Vec<i64>>, ProcessError> {
    let arg = &node.inputs[ix];
    if let Some(values) = arg.value() {
        check_operand(node, operand, values.dtype(), data, Ok(values.shape()))?;
        let values = values
            .convert::<i64>()
            .try_to_vec::<i64>()
            .map_err(|e| error(node, format!("{e:?}")))?;
        return Ok(Given::Known(values));
    }
    match &arg.ty {
        ArgType::Tensor(t) => {
            check_operand(node, operand, t.dtype, data, Err(t.rank))?;
            Ok(Given::Fed(ix))
        }
        ArgType::Shape(_) => Ok(Given::Fed(ix)),
        other => Err(error(
            node,
            format!(
                "input '{}' must be a 1-D tensor, it is {other:?}",
                operand.name()
            ),
        )),
    }
}

/// Input `ix` (constant_value): known exactly in the data's type, or read at run time.
fn value(node: &CustomNode, ix: usize, dtype: DType) -> Result<Given<Value>, ProcessError> {
    let arg = &node.inputs[ix];
    let Some(data) = arg.value() else {
        return Ok(Given::Fed(ix));
    };
    let operand = Operand::ConstantValue;
    check_operand(node, operand, data.dtype(), dtype, Ok(data.shape()))?;
    exact(node, data).map(Given::Known)
}

/// The one value of `data`, exactly.
fn exact(node: &CustomNode, data: TensorData) -> Result<Value, ProcessError> {
    let failed =
        |e: burn_onnx::ext::TensorData| error(node, format!("constant_value {e:?} cannot be read"));
    Ok(match data.dtype() {
        DType::F64 | DType::F32 | DType::F16 | DType::BF16 => Value::Float(
            data.clone()
                .convert::<f64>()
                .try_to_vec::<f64>()
                .map_err(|_| failed(data))?[0],
        ),
        DType::Bool(_) => Value::Bool(data.as_bytes().first().is_some_and(|&b| b != 0)),
        DType::U64 => {
            let v = data.clone().try_to_vec::<u64>().map_err(|_| failed(data))?[0];
            Value::Int(i64::try_from(v).map_err(|_| {
                error(
                    node,
                    format!("constant_value {v} is above what padkit-burn holds (i64)"),
                )
            })?)
        }
        _ => Value::Int(
            data.clone()
                .convert::<i64>()
                .try_to_vec::<i64>()
                .map_err(|_| failed(data))?[0],
        ),
    })
}

impl CustomOp for PadOp {
    fn op_type(&self) -> &str {
        "Pad"
    }

    fn domain(&self) -> &str {
        PAD_DOMAIN
    }

    fn infer_output_types(&self, node: &CustomNode) -> Result<Vec<ArgType>, ProcessError> {
        let config = Config::read(node)?;
        let shape = config.output_shape(&node.inputs[0]);
        Ok(vec![ArgType::Tensor(TensorType::new(
            config.dtype,
            config.rank,
            shape,
        ))])
    }

    fn forward(
        &self,
        node: &CustomNode,
        ctx: &mut CodegenContext<'_, '_>,
    ) -> Result<TokenStream, ProcessError> {
        let config = Config::read(node)?;
        let x = ctx.arg(&node.inputs[0]);
        let mut ints = |i: &Given<Vec<i64>>| match i {
            Given::Known(v) => quote! { ::std::vec![#(#v),*] },
            Given::Fed(ix) => {
                let a = ctx.arg(&node.inputs[*ix]);
                quote! { padkit_burn::import::ints(#a) }
            }
        };
        let pads = ints(&config.pads);
        let axes = match &config.axes {
            None => quote! { ::core::option::Option::None },
            Some(a) => {
                let a = ints(a);
                quote! { ::core::option::Option::Some(#a) }
            }
        };
        let fill = match config.value {
            Given::Known(Value::Zero) => quote! { padkit_burn::Fill::Zero },
            Given::Known(Value::Float(v)) => {
                let v = float_tokens(v);
                quote! { padkit_burn::Fill::Float(#v) }
            }
            Given::Known(Value::Int(v)) => quote! { padkit_burn::Fill::Int(#v) },
            Given::Known(Value::Bool(v)) => quote! { padkit_burn::Fill::Bool(#v) },
            Given::Fed(ix) => {
                let a = ctx.arg(&node.inputs[ix]);
                quote! { padkit_burn::import::fill(#a) }
            }
        };
        let mode = match config.mode {
            PadMode::Constant => quote! { Constant },
            PadMode::Reflect => quote! { Reflect },
            PadMode::Edge => quote! { Edge },
            PadMode::Wrap => quote! { Wrap },
            PadMode::Symmetric => quote! { Symmetric },
        };
        let out = arg_to_ident(&node.outputs[0]);
        let name = model_name(node);
        Ok(quote! {
            let #out = padkit_burn::import::pad_node(#name, #x, padkit_burn::padkit::PadMode::#mode, #pads, #axes, #fill);
        })
    }
}

/// An `f64` literal, exact (the shortest decimal that reads back to it), or the constant
/// naming a value without a literal.
fn float_tokens(v: f64) -> TokenStream {
    if v.is_nan() {
        quote! { f64::NAN }
    } else if v == f64::INFINITY {
        quote! { f64::INFINITY }
    } else if v == f64::NEG_INFINITY {
        quote! { f64::NEG_INFINITY }
    } else {
        quote! { #v }
    }
}
