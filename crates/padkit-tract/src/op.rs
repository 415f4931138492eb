//! The typed Pad op: runs padkit's kernel, with pads, value and axes known at load time
//! (possibly symbolic) or read from inputs at run time.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering};

use padkit::{PadMode, PadSpec, Plan};
use tract_core::ops::array::{Pad as CorePad, PadMode as CoreMode};
use tract_core::ops::cnn::{Conv, PaddingSpec};
use tract_hir::internal::*;

use crate::SymDim;

/// Where an operand of the op comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Operand<T> {
    /// Known when the model was typed (a constant or a folded expression).
    Known(T),
    /// Read from this input of the op at run time.
    Input(usize),
}

/// ONNX Pad on padkit's kernel.
///
/// Input 0 is the data; runtime operands follow as listed by their [`Operand::Input`].
/// When pads or axes are only known at run time the output dims are fresh symbols that
/// the plan binds as the op runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PadkitPad {
    /// The ONNX node's name, for error messages.
    pub node: String,
    /// The padding mode.
    pub mode: PadMode,
    /// ONNX-order pads over `axes`.
    pub pads: Operand<Vec<TDim>>,
    /// The padded axes (`None`: all).
    pub axes: Operand<Option<Vec<i64>>>,
    /// The constant fill (`None`: zero of the data type).
    pub value: Operand<Option<Arc<Tensor>>>,
    /// The output shape, symbolic where needed.
    pub output_shape: TVec<TDim>,
}

impl PadkitPad {
    /// Builds the op for the data at `data` in `model`, computing its output shape.
    pub fn new(
        node: &str,
        mode: PadMode,
        pads: Operand<Vec<TDim>>,
        axes: Operand<Option<Vec<i64>>>,
        value: Operand<Option<Arc<Tensor>>>,
        model: &TypedModel,
        data: OutletId,
    ) -> TractResult<PadkitPad> {
        let fact = model.outlet_fact(data)?;
        if let Operand::Known(Some(v)) = &value {
            check_value(node, v)?;
        }
        let output_shape = match (&pads, &axes) {
            (Operand::Known(p), Operand::Known(a)) => {
                symbolic_output_shape(node, fact.shape.dims(), p, a.as_deref(), mode)?
            }
            _ => (0..fact.rank())
                .map(|_| TDim::from(model.symbols.new_with_prefix("pad")))
                .collect(),
        };
        Ok(PadkitPad {
            node: node.to_string(),
            mode,
            pads,
            axes,
            value,
            output_shape,
        })
    }

    /// The concrete spec, with symbols resolved by `symbols` and runtime operands read
    /// from `inputs`.
    fn spec(&self, symbols: &SymbolValues, inputs: &[TValue]) -> TractResult<PadSpec> {
        let pads = match &self.pads {
            Operand::Known(p) => p
                .iter()
                .map(|d| d.eval(symbols).to_i64().ok())
                .collect::<Option<Vec<i64>>>()
                .with_context(|| {
                    format!("Pad node {:?}: pads {p:?} are not known yet", self.node)
                })?,
            Operand::Input(i) => ints(&self.node, "pads", &inputs[*i])?,
        };
        let axes = match &self.axes {
            Operand::Known(a) => a.clone(),
            Operand::Input(i) => Some(ints(&self.node, "axes", &inputs[*i])?),
        };
        Ok(PadSpec {
            pads,
            axes,
            mode: self.mode,
            ..PadSpec::default()
        })
    }

    /// tract-core's own Pad for this node, when it is one a following Conv absorbs.
    fn foldable_into_conv(
        &self,
        model: &TypedModel,
        node: &TypedNode,
    ) -> TractResult<Option<CorePad>> {
        rule_if!(node.inputs.len() == 1 && self.mode == PadMode::Constant);
        let value = match &self.value {
            Operand::Known(v) => v.clone(),
            Operand::Input(_) => return Ok(None),
        };
        rule_if!(value.as_ref().is_none_or(|v| v.is_zero().unwrap_or(false)));
        let fact = model.outlet_fact(node.inputs[0])?;
        rule_if!(fact.datum_type.is_number());
        let Ok(spec) = self.spec(&SymbolValues::default(), &[]) else {
            return Ok(None);
        };
        rule_if!(spec.pads.iter().all(|&p| p >= 0));
        let Ok(axes) = spec.resolve(fact.rank()) else {
            return Ok(None);
        };
        let pads: Vec<(usize, usize)> = axes
            .iter()
            .map(|p| (p.begin as usize, p.end as usize))
            .collect();
        let succs = &node.outputs[0].successors;
        rule_if!(succs.len() == 1);
        rule_if_some!(conv = model.node(succs[0].node).op_as::<Conv>());
        rule_if!(!matches!(
            conv.pool_spec.padding,
            PaddingSpec::ExplicitOnnxPool(..) | PaddingSpec::SameLower | PaddingSpec::SameUpper
        ));
        let shape = conv.pool_spec.data_format.shape(fact.shape.to_tvec())?;
        rule_if!(pads[shape.c_axis()] == (0, 0));
        rule_if!(!conv.pool_spec.data_format.has_n() || pads[0] == (0, 0));
        let zero = Tensor::zero_scalar_dt(fact.datum_type)?.into_arc_tensor();
        Ok(Some(CorePad::new(
            pads,
            CoreMode::Constant(value.unwrap_or(zero)),
        )))
    }
}

/// The output shape for known (possibly symbolic) pads: padkit's rules when the pads are
/// numbers, `d + b + e` on symbols otherwise.
pub(crate) fn symbolic_output_shape(
    node: &str,
    shape: &[TDim],
    pads: &[TDim],
    axes: Option<&[i64]>,
    mode: PadMode,
) -> TractResult<TVec<TDim>> {
    let fail = |e: padkit::PadError| format_err!("Pad node {node:?}: {e}");
    let dims: Vec<SymDim> = shape.iter().cloned().map(SymDim).collect();
    if let Some(concrete) = pads
        .iter()
        .map(|p| p.to_i64().ok())
        .collect::<Option<Vec<i64>>>()
    {
        let spec = PadSpec {
            pads: concrete,
            axes: axes.map(<[i64]>::to_vec),
            mode,
            ..PadSpec::default()
        };
        let out = padkit::output_shape(&dims, &spec).map_err(fail)?;
        return Ok(out.into_iter().map(|d| d.0).collect());
    }
    // Symbolic pads: check lengths and axes through the core, then add.
    let spec = PadSpec {
        pads: vec![0; pads.len()],
        axes: axes.map(<[i64]>::to_vec),
        mode,
        ..PadSpec::default()
    };
    spec.resolve(shape.len()).map_err(fail)?;
    let listed = match axes {
        Some(a) => padkit::normalize_axes(a, shape.len()).map_err(fail)?,
        None => (0..shape.len()).collect(),
    };
    let mut out: TVec<TDim> = shape.into();
    for (i, &axis) in listed.iter().enumerate() {
        out[axis] = out[axis].clone() + pads[i].clone() + pads[listed.len() + i].clone();
    }
    Ok(out)
}

/// The largest output, in bytes, any `PadkitPad` of this process writes.
static MAX_OUTPUT_BYTES: AtomicU64 = AtomicU64::new(u64::MAX);

/// Makes every `PadkitPad` of this process refuse outputs above `bytes` bytes (before
/// allocating them), e.g. the memory a server can spare. Without it only outputs that
/// cannot be allocated are refused.
///
/// ```
/// padkit_tract::limit_output_bytes(1 << 30);
/// # padkit_tract::limit_output_bytes(u64::MAX);
/// ```
pub fn limit_output_bytes(bytes: u64) {
    MAX_OUTPUT_BYTES.store(bytes, Ordering::Relaxed);
}

/// A runtime int tensor (pads: int64; axes: int32 or int64) as i64.
fn ints(node: &str, what: &str, t: &Tensor) -> TractResult<Vec<i64>> {
    ensure!(
        t.rank() == 1,
        "Pad node {node:?}: input '{what}' must be a 1-D tensor, it has shape {:?}",
        t.shape()
    );
    let allowed: &[DatumType] = if what == "axes" {
        &[DatumType::I64, DatumType::I32, DatumType::TDim]
    } else {
        &[DatumType::I64, DatumType::TDim]
    };
    ensure!(
        allowed.contains(&t.datum_type()),
        "Pad node {node:?}: input '{what}' has type {:?}; Pad takes {}",
        t.datum_type(),
        if what == "axes" {
            "int32 or int64"
        } else {
            "int64"
        }
    );
    let t = t.cast_to::<i64>()?;
    Ok(t.try_as_plain_ram()?.as_slice::<i64>()?.to_vec())
}

fn check_value(node: &str, v: &Tensor) -> TractResult<()> {
    ensure!(
        v.len() == 1,
        "Pad node {node:?}: input 'constant_value' must hold one value, it has shape {:?}",
        v.shape()
    );
    Ok(())
}

/// Pads `x` with padkit's kernel in `x`'s own element type.
fn pad_t<T: Datum>(
    node: &str,
    x: &Tensor,
    spec: &PadSpec,
    value: Option<&Tensor>,
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
    let failed = |e: padkit::PadError| format_err!("Pad node {node:?}: {e}");
    let spec = spec
        .clone()
        .with_max_output_bytes(MAX_OUTPUT_BYTES.load(Ordering::Relaxed));
    let plan = Plan::new(x.shape(), &spec, size_of::<T>()).map_err(failed)?;
    // tract's own allocation of the output panics when it fails.
    padkit::check_allocatable(plan.output_len() * size_of::<T>()).map_err(failed)?;
    // The kernel writes straight into tract's tensor: no intermediate vector, no copy.
    // SAFETY: tract leaves a new tensor of a copy type uninitialised (non-copy types get
    // defaults); every element is written below before the tensor is returned.
    let mut out = unsafe { Tensor::uninitialized::<T>(plan.output_shape())? };
    let len = out.len();
    if !T::datum_type().is_copy() {
        plan.run_cloned(
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
        padkit::prefer_huge_pages(slots);
        plan.run_bytes(bytes, value, slots).map(drop)
    }
    .map_err(failed)?;
    Ok(out)
}

impl Op for PadkitPad {
    fn name(&self) -> StaticName {
        "PadkitPad".into()
    }

    fn info(&self) -> TractResult<Vec<String>> {
        Ok(vec![format!(
            "mode: {}, pads: {:?}, axes: {:?}",
            self.mode, self.pads, self.axes
        )])
    }

    fn mints_runtime_symbols(&self) -> bool {
        matches!(self.pads, Operand::Input(_)) || matches!(self.axes, Operand::Input(_))
    }

    op_as_typed_op!();
}

impl EvalOp for PadkitPad {
    op_out_of_plan!();

    fn eval(&self, ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let spec = self.spec(ctx.symbols, &inputs)?;
        let value = match &self.value {
            Operand::Known(v) => v.clone(),
            Operand::Input(i) => Some(inputs[*i].clone().into_arc_tensor()),
        };
        let x = &inputs[0];
        let out = dispatch_datum!(pad_t(x.datum_type())(
            &self.node,
            x,
            &spec,
            value.as_deref()
        ))?;
        Ok(tvec!(out.into_tvalue()))
    }
}

impl TypedOp for PadkitPad {
    fn output_facts(&self, inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        Ok(tvec!(inputs[0].datum_type.fact(self.output_shape.clone())))
    }

    fn declutter(
        &self,
        model: &TypedModel,
        node: &TypedNode,
    ) -> TractResult<Option<TypedModelPatch>> {
        let nothing_to_do = node.inputs.len() == 1
            && matches!(&self.pads, Operand::Known(p) if p.iter().all(|d| *d == TDim::from(0)));
        if nothing_to_do {
            return TypedModelPatch::shunt_one_op(model, node);
        }
        rule_if_some!(core = self.foldable_into_conv(model, node)?);
        Ok(Some(TypedModelPatch::replace_single_op(
            model,
            node,
            &node.inputs[..1],
            core,
        )?))
    }

    as_op!();
}
