//! ONNX `CenterCropPad` (opset 18): each listed axis cropped or zero-padded around its
//! center to a target extent, which is a constant Pad whose pads follow from the shapes.
//! It becomes a [`PadkitPad`]: with pads known while the model is analysed when the
//! target extents are (and the extents they are compared with), otherwise with pads that
//! [`CenterPads`] computes at run time.

use padkit::PadMode;
use tract_hir::internal::*;
use tract_onnx::model::ParsingContext;
use tract_onnx::pb::NodeProto;

use crate::op::PadkitPad;
use padkit::onnx::Given;

/// ONNX `CenterCropPad` as tract's inference model sees it: the data, then the target
/// extents (`shape`) of the axes the `axes` attribute lists (all axes by default).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CenterCropPad {
    /// The node's name, for error messages.
    pub node: String,
    /// The `axes` attribute (negative counts from the back).
    pub axes: Option<Vec<i64>>,
}

/// The `OpBuilder` for ONNX `CenterCropPad`.
///
/// # Errors
///
/// When the node's `axes` attribute is not a list of ints.
pub fn center_crop_pad_builder(
    _ctx: &ParsingContext,
    node: &NodeProto,
) -> TractResult<(Box<dyn InferenceOp>, Vec<String>)> {
    let op = CenterCropPad {
        node: node.name.clone(),
        axes: node.get_attr_opt_vec("axes")?,
    };
    Ok((expand(op), vec![]))
}

impl CenterCropPad {
    /// The padded axes, `[0, rank)`.
    fn axes(&self, rank: usize, targets: usize) -> TractResult<Vec<usize>> {
        let axes = match &self.axes {
            Some(a) => a.clone(),
            None => (0..rank as i64).collect(),
        };
        ensure!(
            axes.len() == targets,
            "CenterCropPad node {:?}: shape has {targets} extents for {} axes",
            self.node,
            axes.len()
        );
        padkit::spec::normalize_axes(&axes, rank)
            .map_err(|e| format_err!("CenterCropPad node {:?}: {e}", self.node))
    }

    /// ONNX-order pads `[b.., e..]` over `axes` that bring `dims` to `targets`: half of
    /// the difference before (rounded down), the rest after; negative where they crop.
    fn pads(&self, dims: &[TDim], targets: &[i64]) -> TractResult<(Vec<usize>, Vec<TDim>)> {
        let axes = self.axes(dims.len(), targets.len())?;
        let mut begins = vec![];
        let mut ends = vec![];
        for (&axis, &target) in axes.iter().zip(targets) {
            ensure!(
                target >= 0,
                "CenterCropPad node {:?}: axis {axis}: target extent {target} is negative",
                self.node
            );
            let diff = (TDim::from(target) - &dims[axis]).simplify();
            let diff = diff.to_i64().map_err(|_| {
                format_err!(
                    "CenterCropPad node {:?}: axis {axis}: whether extent {} is cropped or \
                     padded to {target} is not known while the model is analysed",
                    self.node,
                    dims[axis]
                )
            })?;
            let (begin, end) = padkit::onnx::center_pads(diff);
            begins.push(TDim::from(begin));
            ends.push(TDim::from(end));
        }
        begins.extend(ends);
        Ok((axes, begins))
    }
}

/// The target extents held by `shape`.
fn targets(shape: &Tensor) -> TractResult<Vec<i64>> {
    Ok(shape
        .cast_to::<i64>()?
        .try_as_plain_ram()?
        .as_slice::<i64>()?
        .to_vec())
}

impl Expansion for CenterCropPad {
    fn name(&self) -> StaticName {
        "CenterCropPad".into()
    }

    fn rules<'r, 'p: 'r, 's: 'r>(
        &'s self,
        s: &mut Solver<'r>,
        inputs: &'p [TensorProxy],
        outputs: &'p [TensorProxy],
    ) -> InferenceResult {
        check_input_arity(inputs, 2)?;
        check_output_arity(outputs, 1)?;
        s.equals(&inputs[0].datum_type, &outputs[0].datum_type)?;
        s.equals(&inputs[0].rank, &outputs[0].rank)?;
        s.equals(&inputs[1].rank, 1)?;
        s.given_2(&inputs[0].shape, &inputs[1].value, move |s, dims, shape| {
            let targets = targets(&shape)?;
            let (axes, _) = self.pads(&dims, &targets)?;
            for (ix, d) in dims.iter().enumerate() {
                match axes.iter().position(|&a| a == ix) {
                    Some(k) => s.equals(&outputs[0].shape[ix], targets[k].to_dim())?,
                    None => s.equals(&outputs[0].shape[ix], d.clone())?,
                }
            }
            Ok(())
        })
    }

    fn wire(
        &self,
        prefix: &str,
        model: &mut TypedModel,
        inputs: &[OutletId],
    ) -> TractResult<TVec<OutletId>> {
        let dims = model.outlet_fact(inputs[0])?.shape.to_tvec();
        let targets_len = model
            .outlet_fact(inputs[1])?
            .shape
            .as_concrete()
            .map(|s| s[0]);
        let targets_len = targets_len.ok_or_else(|| {
            format_err!(
                "CenterCropPad node {:?}: shape's length is not known",
                self.node
            )
        })?;
        let axes = self.axes(dims.len(), targets_len)?;
        let known = match model.outlet_fact(inputs[1])?.konst.clone() {
            Some(shape) => self.pads(&dims, &targets(&shape)?).ok(),
            None => None,
        };
        let (pads, wires) = match known {
            Some((_, pads)) => (Given::Known(pads), tvec![inputs[0]]),
            None => {
                let op = CenterPads {
                    node: self.node.clone(),
                    axes: axes.clone(),
                };
                let pads = model.wire_node(format!("{prefix}.pads"), op, inputs)?[0];
                (Given::Fed(1), tvec![inputs[0], pads])
            }
        };
        let axes = axes.iter().map(|&a| a as i64).collect();
        let op = PadkitPad::new(
            &self.node,
            PadMode::Constant,
            pads,
            Given::Known(Some(axes)),
            Given::Known(None),
            model,
            inputs[0],
        )?;
        model.wire_node(prefix, op, &wires)
    }
}

/// The ONNX-order pads of a `CenterCropPad` whose target extents are only known at run
/// time: from the data (input 0, for its shape) and the target extents (input 1), the
/// int64 pads `[b.., e..]` over `axes`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CenterPads {
    /// The node's name, for error messages.
    pub node: String,
    /// The padded axes, `[0, rank)`.
    pub axes: Vec<usize>,
}

impl Op for CenterPads {
    fn name(&self) -> StaticName {
        "CenterPads".into()
    }

    op_as_typed_op!();
}

impl EvalOp for CenterPads {
    op_out_of_plan!();

    fn eval(&self, _ctx: &EvalContext, inputs: TVec<TValue>) -> TractResult<TVec<TValue>> {
        let (data, shape) = args_2!(inputs);
        let targets = targets(&shape)?;
        ensure!(
            targets.len() == self.axes.len(),
            "CenterCropPad node {:?}: shape has {} extents for {} axes",
            self.node,
            targets.len(),
            self.axes.len()
        );
        let mut pads = vec![0i64; 2 * targets.len()];
        for (k, (&axis, &target)) in self.axes.iter().zip(&targets).enumerate() {
            ensure!(
                target >= 0,
                "CenterCropPad node {:?}: axis {axis}: target extent {target} is negative",
                self.node
            );
            let extent = i64::try_from(data.shape()[axis])?;
            (pads[k], pads[targets.len() + k]) = padkit::onnx::center_pads(target - extent);
        }
        Ok(tvec![tensor1(&pads).into_tvalue()])
    }
}

impl TypedOp for CenterPads {
    fn output_facts(&self, _inputs: &[&TypedFact]) -> TractResult<TVec<TypedFact>> {
        Ok(tvec![i64::fact([2 * self.axes.len()])])
    }

    as_op!();
}
