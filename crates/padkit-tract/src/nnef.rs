//! NNEF: models holding padkit's Pad written and read back by tract-nnef.
//!
//! A Pad that NNEF's own `pad` expresses exactly (known, non-negative pads; constant,
//! reflect or edge; a number type; a constant exact in `f32`; reflect narrower than the
//! axis) is written as `pad`, which stock `tract_nnef::nnef()` reads (as tract-core's
//! Pad). Every other Pad (wrap, symmetric, crops, symbolic or runtime pads and axes,
//! other constants and types) is written as the `padkit_pad` fragment of padkit's
//! extension; a reader without it fails with
//! `Registry not found Identifier("padkit (read with padkit-tract: ...)")`, which says
//! what to add.
//!
//! ```
//! use padkit_tract::nnef::WithPadkit;
//! let nnef = tract_nnef::nnef().with_padkit();
//! assert!(nnef.registries.iter().any(|r| r.id.0.starts_with("padkit")));
//! ```

use padkit::PadMode;
use tract_nnef::ast::Literal;
use tract_nnef::internal::*;
use tract_nnef::ser::{string, tdims};

use crate::PadkitPad;
use padkit::onnx::Given;

/// The NNEF fragment padkit's Pad is written as.
const FRAGMENT: &str = "padkit_pad";

/// The extension's name as `graph.nnef` writes it (`extension tract_registry ...;`): the
/// name, and what a reader adds to read it, which stock tract-nnef's error repeats.
pub const REGISTRY_ID: &str = "padkit (read with padkit-tract: tract_nnef::nnef().with_padkit(), padkit_tract::nnef::WithPadkit)";

/// The `padkit` NNEF extension: a dumper and a loader for [`PadkitPad`]. It also reads
/// files that name it `padkit` alone.
///
/// ```
/// let registry = padkit_tract::nnef::registry();
/// assert_eq!(registry.id.0, padkit_tract::nnef::REGISTRY_ID);
/// ```
pub fn registry() -> Registry {
    let mut registry = Registry::new(REGISTRY_ID)
        .with_doc("Extension `padkit`: the complete ONNX Pad (padkit's `padkit_pad`).")
        .with_doc("Read with padkit-tract: `tract_nnef::nnef().with_padkit()`.");
    registry.aliases.push("padkit".into());
    registry.register_dumper(dump);
    registry.register_primitive(
        FRAGMENT,
        &parameters(),
        &[("output", TypeName::Any.tensor())],
        load,
    );
    registry
}

/// Adds the `padkit` extension to a tract-nnef framework.
pub trait WithPadkit {
    /// The framework, able to write and read models holding padkit's Pad: Pads that
    /// NNEF's `pad` expresses exactly are written as `pad` (through tract-nnef's own
    /// registry, so the file needs no extension), the others as `padkit_pad`.
    fn with_padkit(self) -> Self;
}

impl WithPadkit for tract_nnef::framework::Nnef {
    fn with_padkit(mut self) -> Self {
        // tract-nnef tries its registries in order, its own first, and names in the file
        // the registry whose dumper wrote the node: a `pad` written from tract-nnef's own
        // registry needs no extension to be read.
        if let Some(stock) = self.registries.iter_mut().find(|r| r.id.0 == "tract_nnef") {
            stock.register_dumper(dump_stock);
        }
        self.with_registry(registry())
    }
}

/// NNEF's `pad`, for the Pads tract-core's Pad computes exactly; otherwise no answer, and
/// padkit's registry writes `padkit_pad`.
fn dump_stock(
    ast: &mut IntoAst,
    node: &TypedNode,
    op: &PadkitPad,
) -> TractResult<Option<Arc<RValue>>> {
    let input = ast.model.outlet_fact(node.inputs[0])?.clone();
    match op.stock_equivalent(node, &input)? {
        Some(core) => tract_nnef::ops::nnef::ser::pad(ast, node, &core),
        None => Ok(None),
    }
}

/// `input`, and the pads known for every axis (`pads`, integers or symbolic expressions in
/// ONNX order) or read at run time (`pads_input`, with `axes_input` when only some axes
/// are padded); `value` is the constant fill, a tensor of the data's type.
fn parameters() -> Vec<Parameter> {
    vec![
        TypeName::Any.tensor().named("input"),
        TypeName::String.named("mode").default("constant"),
        TypeName::Integer
            .array()
            .named("pads")
            .default(Literal::Array(vec![])),
        TypeName::Integer
            .tensor()
            .named("pads_input")
            .default(false),
        TypeName::Integer
            .tensor()
            .named("axes_input")
            .default(false),
        TypeName::Any.tensor().named("value").default(false),
    ]
}

fn dump(ast: &mut IntoAst, node: &TypedNode, op: &PadkitPad) -> TractResult<Option<Arc<RValue>>> {
    let wire = |ast: &IntoAst, ix: usize| (*ast.mapping[&node.inputs[ix]]).clone();
    let mut named = vec![("mode", string(op.mode.name()))];
    match (&op.pads, &op.axes) {
        (Given::Known(p), Given::Known(None)) => {
            ensure!(
                p.iter().all(writable),
                "Pad node {:?}: pads {p:?} have no NNEF form",
                op.node
            );
            named.push(("pads", tdims(p)));
        }
        (pads, axes) => {
            let pads = match pads {
                Given::Fed(i) => wire(ast, *i),
                Given::Known(p) => {
                    let numbers = p
                        .iter()
                        .map(|d| d.to_i64().ok())
                        .collect::<Option<Vec<_>>>();
                    let numbers = numbers.with_context(|| {
                        format!("Pad node {:?}: symbolic pads {p:?} with runtime axes have no NNEF form", op.node)
                    })?;
                    let t = tensor1(&numbers);
                    (*ast.konst(format!("{}_pads", node.name), &t.into_arc_tensor())?).clone()
                }
            };
            named.push(("pads_input", pads));
            match axes {
                Given::Fed(i) => named.push(("axes_input", wire(ast, *i))),
                Given::Known(Some(a)) => {
                    let t = tensor1(a).into_arc_tensor();
                    named.push((
                        "axes_input",
                        (*ast.konst(format!("{}_axes", node.name), &t)?).clone(),
                    ));
                }
                Given::Known(None) => {}
            }
        }
    }
    match &op.value {
        Given::Fed(i) => named.push(("value", wire(ast, *i))),
        Given::Known(Some(v)) => named.push((
            "value",
            (*ast.konst_variable(format!("{}_value", node.name), v)?).clone(),
        )),
        Given::Known(None) => {}
    }
    Ok(Some(invocation(
        FRAGMENT,
        &[ast.mapping[&node.inputs[0]].clone()],
        &named,
    )))
}

/// True for the expressions tract-nnef writes (sums and products of numbers and symbols).
fn writable(d: &TDim) -> bool {
    match d {
        TDim::Val(_) | TDim::Sym(_) => true,
        TDim::Add(terms) | TDim::Mul(terms) => terms.iter().all(writable),
        TDim::MulInt(_, d) | TDim::Div(d, _) => writable(d),
        _ => false,
    }
}

fn load(builder: &mut ModelBuilder, invocation: &ResolvedInvocation) -> TractResult<Value> {
    let input: OutletId = invocation.named_arg_as(builder, "input")?;
    let mode: String = invocation.named_arg_as(builder, "mode")?;
    let mode: PadMode = mode.parse()?;
    let mut wires = tvec![input];
    let mut operand = |wire: OutletId| {
        wires.push(wire);
        wires.len() - 1
    };
    let pads_input = invocation.optional_named_arg_as::<OutletId>(builder, "pads_input")?;
    let axes_input = invocation.optional_named_arg_as::<OutletId>(builder, "axes_input")?;
    let value = invocation.optional_named_arg_as::<OutletId>(builder, "value")?;
    let (pads, axes) = match pads_input {
        Some(p) => (
            Given::Fed(operand(p)),
            axes_input.map_or(Given::Known(None), |a| Given::Fed(operand(a))),
        ),
        None => (
            Given::Known(
                invocation
                    .named_arg_as::<TVec<TDim>>(builder, "pads")?
                    .into_vec(),
            ),
            Given::Known(None),
        ),
    };
    let value = match value {
        Some(v) => match builder.model.outlet_fact(v)?.konst.clone() {
            Some(k) => Given::Known(Some(k)),
            None => Given::Fed(operand(v)),
        },
        None => Given::Known(None),
    };
    let name = builder.generate_node_name();
    let op = PadkitPad::new(&name, mode, pads, axes, value, &builder.model, input)?;
    builder.wire(op, &wires)
}

/// A `graph.nnef` (with no tensor files) read by tract-nnef with padkit's extension.
///
/// # Errors
///
/// tract-nnef's, when the text does not parse or its graph does not load.
///
/// ```
/// let m = padkit_tract::nnef::read_text("version 1.0; graph g(x) -> (y) { x = external(shape = [2]); y = x; }");
/// assert!(m.is_ok());
/// ```
pub fn read_text(text: &str) -> TractResult<TypedModel> {
    let proto = tract_nnef::ast::ProtoModel {
        doc: tract_nnef::ast::parse::parse_document(text)?,
        tensors: Default::default(),
        quantization: None,
        resources: Default::default(),
    };
    tract_nnef::nnef()
        .with_padkit()
        .model_for_proto_model(&proto)
}
