//! Running the op: padkit's kernel on tract's tensors, runtime operands read and checked.

use std::mem::MaybeUninit;

use padkit::onnx::{Given, Operand};
use padkit::{PadSpec, Plan};
use tract_hir::internal::*;

use crate::PadkitPad;
use crate::types::check_operand_type;

/// Makes every [`PadkitPad`] of `model`, and of the bodies of its `If` and `Scan` nodes,
/// refuse outputs above `bytes` bytes before allocating them (e.g. the memory a server can
/// spare); the limit travels with each op, through the optimiser's rewrites. Without it
/// only outputs that cannot be allocated are refused.
///
/// ```
/// use tract_onnx::prelude::*;
/// let mut model = padkit_tract::onnx()
///     .model_for_path("../../tests/data/onnx-conformance/node/test_wrap_pad/model.onnx")
///     .unwrap()
///     .into_typed()
///     .unwrap();
/// padkit_tract::limit_output_bytes(&mut model, 1 << 30);
/// ```
pub fn limit_output_bytes(model: &mut TypedModel, bytes: u64) {
    each_pad(model, &mut |op| op.max_output_bytes = Some(bytes));
}

/// Makes every [`PadkitPad`] of `model`, and of the bodies of its `If` and `Scan` nodes,
/// give ONNX's refusal where padkit otherwise answers beyond ONNX with numpy's result:
/// reflect pads above the axis length − 1 after crops, and reflect padding of an axis
/// shorter than 2 after crops, refused as they run with [`padkit::PadError::BeyondOnnx`]
/// in the error's chain ([`padkit::PadSpec::with_strict_onnx`]). Every other Pad runs as
/// before. The setting travels with each op through the optimiser's rewrites; NNEF, which
/// has no such setting, does not carry it.
///
/// ```
/// use tract_onnx::prelude::*;
/// let mut model = padkit_tract::onnx()
///     .model_for_path("../../tests/data/onnx-conformance/node/test_reflect_pad/model.onnx")
///     .unwrap()
///     .into_typed()
///     .unwrap();
/// padkit_tract::strict_onnx(&mut model);
/// ```
pub fn strict_onnx(model: &mut TypedModel) {
    each_pad(model, &mut |op| op.strict_onnx = true);
}

/// Calls `f` on every [`PadkitPad`] of `model` and of the bodies of its `If` and `Scan`
/// nodes.
fn each_pad(model: &mut TypedModel, f: &mut dyn FnMut(&mut PadkitPad)) {
    for node in model.nodes_mut() {
        if let Some(op) = node.op_as_mut::<PadkitPad>() {
            f(op);
        } else if let Some(op) = node.op_as_mut::<tract_core::ops::logic::IfThenElse>() {
            each_pad(&mut op.then_body, f);
            each_pad(&mut op.else_body, f);
        } else if let Some(op) = node.op_as_mut::<tract_core::ops::scan::Scan>() {
            each_pad(&mut op.body, f);
        }
    }
}

/// Runs `op` on `inputs`: its pads, axes and value resolved (symbols by `symbols`,
/// runtime operands from their inputs), then padkit's kernel in the data's own type.
pub(crate) fn pad(
    op: &PadkitPad,
    symbols: &SymbolValues,
    inputs: &[TValue],
) -> TractResult<Tensor> {
    let node = &op.node;
    let data = inputs[0].datum_type();
    let pads = match &op.pads {
        Given::Known(p) => p
            .iter()
            .map(|d| d.eval(symbols).to_i64().ok())
            .collect::<Option<Vec<i64>>>()
            .with_context(|| format!("Pad node {node:?}: pads {p:?} are not known yet"))?,
        Given::Fed(i) => ints(node, Operand::Pads, data, &inputs[*i])?,
    };
    let axes = match &op.axes {
        Given::Known(a) => a.clone(),
        Given::Fed(i) => Some(ints(node, Operand::Axes, data, &inputs[*i])?),
    };
    let spec = PadSpec::new(pads)
        .with_axes(axes)
        .with_mode(op.mode)
        .with_max_output_bytes(op.max_output_bytes)
        .with_strict_onnx(op.strict_onnx);
    let value = match &op.value {
        Given::Known(v) => v.clone(),
        Given::Fed(i) => Some(inputs[*i].clone().into_arc_tensor()),
    };
    let x = &inputs[0];
    let (dt, value) = (x.datum_type(), value.as_deref());
    // Copy types run on the byte kernel; only the others instantiate padkit's cloning one
    // (once per type, which a dispatch over every type would compile twenty times).
    let mut out = match dt {
        _ if dt.is_copy() => dispatch_copy!(pad_t(dt)(node, x, &spec, value, None))?,
        DatumType::String => pad_t::<String>(node, x, &spec, value, Some(Plan::run_cloned))?,
        DatumType::TDim => pad_t::<TDim>(node, x, &spec, value, Some(Plan::run_cloned))?,
        DatumType::Blob => pad_t::<Blob>(node, x, &spec, value, Some(Plan::run_cloned))?,
        _ => bail!("Pad node {node:?}: padkit pads no {dt:?} data"),
    };
    // SAFETY: `pad_t` ran on the storage type of `x`'s datum type (i8 for QI8, …), which
    // has the same layout: the output only takes back the scale and zero point.
    unsafe { out.set_datum_type(x.datum_type()) };
    Ok(out)
}

/// A runtime `pads` or `axes` tensor, checked by ONNX's rules for `operand`, as i64.
fn ints(node: &str, operand: Operand, data: DatumType, t: &Tensor) -> TractResult<Vec<i64>> {
    operand
        .check_shape(t.shape())
        .map_err(|e| crate::node_error(node, e))?;
    check_operand_type(node, operand, t.datum_type(), data)?;
    let t = t.cast_to::<i64>()?;
    Ok(t.try_as_plain_ram()?.as_slice::<i64>()?.to_vec())
}

/// Checks that a constant value holds one element.
pub(crate) fn check_value(node: &str, v: &Tensor) -> TractResult<()> {
    Operand::ConstantValue
        .check_shape(v.shape())
        .map_err(|e| crate::node_error(node, e))
}

/// How a type that is not plain bytes is padded: [`Plan::run_cloned`] for it.
type Cloning<T> = fn(&Plan, &[T], &T, &mut [T]) -> padkit::Result<()>;

/// Pads `x` with padkit's kernel in `x`'s own element type: on plain bytes for copy types
/// (`cloning` is `None`), else by `cloning` each element.
fn pad_t<T: Datum>(
    node: &str,
    x: &Tensor,
    spec: &PadSpec,
    value: Option<&Tensor>,
    cloning: Option<Cloning<T>>,
) -> TractResult<Tensor> {
    let fill = match value {
        None => T::default(),
        Some(v) => {
            check_value(node, v)?;
            let v = v.cast_to::<T>().with_context(|| {
                format!(
                    "Pad node {node:?}: constant_value of type {:?} does not fit data of type {:?}",
                    v.datum_type(),
                    T::datum_type()
                )
            })?;
            v.try_as_plain_ram()?.as_slice::<T>()?[0].clone()
        }
    };
    let data = x.try_as_plain_ram()?.as_slice::<T>()?;
    let failed = |e: padkit::PadError| crate::node_error(node, e);
    let plan = Plan::new(x.shape(), spec, size_of::<T>()).map_err(failed)?;
    // tract's own allocation of the output panics when it fails.
    padkit::memory::check_allocatable(plan.output_len() * size_of::<T>()).map_err(failed)?;
    padkit::memory::check_strides(plan.output_shape()).map_err(failed)?;
    // The kernel writes straight into tract's tensor: no intermediate vector, no copy.
    // SAFETY: tract leaves a new tensor of a copy type uninitialised (non-copy types get
    // defaults); every element is written below before the tensor is returned.
    let mut out = unsafe { Tensor::uninitialized::<T>(plan.output_shape())? };
    let len = out.len();
    // the byte path below reads elements as plain bytes: copy types only
    debug_assert!(cloning.is_some() || T::datum_type().is_copy());
    if let Some(run_cloned) = cloning {
        run_cloned(
            &plan,
            data,
            &fill,
            out.try_as_plain_ram_mut()?.as_slice_mut::<T>()?,
        )
    } else if len == 0 {
        Ok(())
    } else {
        // Copy types run as plain bytes, on padkit's byte-width kernel (the one its
        // benchmarks measure: `memset` fills, block copies of rows).
        // SAFETY: tract's copy types (bool, integers, floats, complex) have no padding
        // bytes, so `data` and `fill` are initialised bytes all through. The tensor's
        // storage holds `len` elements of `T`, and a `MaybeUninit` view of its bytes makes
        // no claim that they are initialised.
        let (bytes, value, slots) = unsafe {
            (
                std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), size_of_val(data)),
                std::slice::from_raw_parts((&raw const fill).cast::<u8>(), size_of::<T>()),
                std::slice::from_raw_parts_mut(
                    out.as_ptr_mut_unchecked::<T>().cast::<MaybeUninit<u8>>(),
                    len * size_of::<T>(),
                ),
            )
        };
        padkit::memory::prefer_huge_pages(slots);
        plan.run_bytes(bytes, value, slots).map(drop)
    }
    .map_err(failed)?;
    Ok(out)
}
