//! A Pad lowered by padkit-lower and run by stock tract-onnx, against the naive reference:
//! the property padkit-lower's random tests and the `lower_verdict` fuzz target check
//! (feature `lower`). The lowered model must answer what the reference answers, exactly,
//! and fail where the reference refuses, but for the carve-outs docs/lower.md states, each
//! named below.

use padkit::{PadMode, Tensor};
use padkit_onnx_tools::model::{Feed, PadModel};
use tract_onnx::prelude::*;

use crate::{Case, ErrClass};

/// `case` as a model (padkit's own Pad, which holds every mode and interior padding; the
/// fill 7), its first extent the symbol `N` where `symbolic`, its pads and axes graph
/// inputs where `fed`, lowered with outputs up to `limit` f32 elements and run by stock
/// tract-onnx on `data`; `None` where the lowering declares it does not lower it.
///
/// # Errors
///
/// The inner result is the lowering's error or tract's (a panic of tract's is one).
#[must_use]
pub fn on_stock_tract(
    case: &Case,
    data: &[f32],
    symbolic: bool,
    fed: bool,
    limit: usize,
) -> Option<TractResult<Tensor>> {
    let run = || -> TractResult<Option<Tensor>> {
        let x = Tensor::from_slice(&case.shape, data)?;
        let feed = if fed { Feed::Input } else { Feed::Initializer };
        let mut model = PadModel::new(25, "constant", x, case.pads.clone(), feed)
            .with_value(Tensor::scalar(7.0f32), Feed::Initializer);
        if let Some(axes) = &case.axes {
            model = model.with_axes(axes.clone(), feed);
        }
        model.mode = Some(case.mode.to_string());
        model.domain = padkit::onnx::PADKIT_DOMAIN.into();
        model.interior.clone_from(&case.interior);
        if symbolic && !case.shape.is_empty() {
            model.symbolic_dims[0] = Some("N".into());
        }
        let options = padkit_lower::Options::default().with_max_output_bytes(4 * limit as u64);
        let lowered = match padkit_lower::lower_with(&model.proto(), &options) {
            Err(padkit_lower::LowerError::NotLowered { .. }) => return Ok(None),
            other => other?,
        };
        // Typed, not optimised: tract's declutter fails on some joins of empty tensors of
        // a symbolic extent, which is the optimiser's matter, not the lowering's.
        // Stock tract panics on a Gather position out of range (an empty axis known only
        // at run time, which the lowered model must fail on): a panic is its error here,
        // which the caller accepts only where the reference refuses too.
        // (isolated: under libFuzzer, whose panic hook aborts, a caught panic too)
        static HOOK: std::sync::Once = std::sync::Once::new();
        HOOK.call_once(padkit_onnx_tools::isolate::install_hook);
        let y = padkit_onnx_tools::isolate::isolated("stock tract", || -> TractResult<Tensor> {
            let plan = tract_onnx::onnx()
                .model_for_proto_model(&padkit_tract::tract_proto(&lowered)?)?
                .into_typed()?
                .into_runnable()?;
            let inputs = model
                .inputs()
                .iter()
                .map(|t| Ok(padkit_tract::to_tract(t)?.into_tvalue()))
                .collect::<TractResult<TVec<_>>>()?;
            let out = plan.run(inputs)?;
            padkit_tract::from_tract(&out[0])
        })?;
        Ok(Some(y))
    };
    run().transpose()
}

/// Checks `case` lowered and run on stock tract ([`on_stock_tract`], on the data 1, 2, …)
/// against the reference with outputs up to `limit` elements.
///
/// # Errors
///
/// The case and how the lowered model disagrees: another output, an output where the
/// reference refuses, an error where it answers, or a refusal to lower it.
pub fn check(case: &Case, symbolic: bool, fed: bool, limit: usize) -> Result<(), String> {
    let data: Vec<f32> = (0..case.input_len()).map(|v| v as f32 + 1.0).collect();
    let symbolic = symbolic && !case.shape.is_empty();
    let fail = |what: String| Err(format!("{case:?} (symbolic {symbolic}, fed {fed}): {what}"));
    let Some(got) = on_stock_tract(case, &data, symbolic, fed, limit) else {
        // interior padding that alone takes an axis past i64::MAX is refused by name
        if spread_beyond_i64(case) {
            return Ok(());
        }
        return fail("not lowered".into());
    };
    let accepted = match case.reference(&data, 7.0, limit) {
        // Stock tract keeps a symbolic extent as a symbol through the index map's
        // arithmetic, and cannot divide by it (the period of reflect, symmetric and
        // wrap): its error names the Div.
        Ok(_)
            if symbolic
                && got
                    .as_ref()
                    .is_err_and(|e| format!("{e:#}").contains("Can't divide")) =>
        {
            true
        }
        // Borders wider than the run-time extent allows read outside the axis: the
        // runtime's Gather refuses them, or, where nothing is gathered (an empty output),
        // stock tract checks no position.
        Ok(_)
            if symbolic
                && !fed
                && beyond_run_time_borders(case)
                && got.as_ref().map_or(true, Tensor::is_empty) =>
        {
            true
        }
        // Interior padding that alone takes an axis past i64::MAX (a crop then brings it
        // back): refused by the lowered model.
        Ok(_) if spread_beyond_i64(case) && got.is_err() => true,
        // An empty output with an extent above padkit-lower's cap on index maps: the
        // lowered model fails rather than compute a map that long.
        Ok((shape, _))
            if shape.contains(&0)
                && shape.iter().any(|&n| n > padkit_lower::MAX_MAP_LEN)
                && got.is_err() =>
        {
            true
        }
        Ok((shape, want)) => match &got {
            Ok(y) if y.shape() == &shape[..] && y.to_vec::<f32>().ok() == Some(want) => true,
            Ok(y) => return fail(format!("answers {:?} {:?}", y.shape(), y.to_vec::<f32>())),
            Err(e) => return fail(format!("fails: {e:#}")),
        },
        // The one failure a lowered model cannot state before run time: padding an empty
        // axis whose extent is known only then; stock tract gives an empty output when
        // nothing is gathered.
        Err(ErrClass::EmptyWindow)
            if symbolic
                && !fed
                && case.shape[0] == 0
                && got.as_ref().is_ok_and(Tensor::is_empty) =>
        {
            true
        }
        Err(_) => got.is_err(),
    };
    if accepted {
        Ok(())
    } else {
        fail(format!(
            "the reference refuses, the lowered model gives {got:?}"
        ))
    }
}

/// True when the first axis (whose extent the model leaves to run time) is padded wider
/// than a border counted from its ends can reach: beyond its extent, less one in reflect
/// mode. The lowered model's Gather then reads outside the axis and the runtime fails,
/// where padkit gives numpy's answer (docs/lower.md).
fn beyond_run_time_borders(case: &Case) -> bool {
    let rank = case.shape.len() as i64;
    let axes: Vec<i64> = case
        .axes
        .clone()
        .unwrap_or_else(|| (0..rank).collect())
        .into_iter()
        .map(|a| if a < 0 { a + rank } else { a })
        .collect();
    let Some(k) = axes.iter().position(|&a| a == 0) else {
        return false;
    };
    let (Some(&b), Some(&e)) = (case.pads.get(k), case.pads.get(axes.len() + k)) else {
        return false;
    };
    let reach = case.shape[0] as i64 - i64::from(case.mode == PadMode::Reflect);
    case.mode != PadMode::Constant && b.max(e) > reach
}

/// True when interior padding alone takes some axis of `case` past `i64::MAX`.
fn spread_beyond_i64(case: &Case) -> bool {
    let Some(interior) = &case.interior else {
        return false;
    };
    let rank = case.shape.len() as i64;
    let axes: Vec<i64> = case.axes.clone().unwrap_or_else(|| (0..rank).collect());
    axes.iter().zip(interior).any(|(&a, &r)| {
        let a = if a < 0 { a + rank } else { a };
        let Some(&d) = usize::try_from(a).ok().and_then(|a| case.shape.get(a)) else {
            return false;
        };
        let d = d as i128;
        d + (d - 1).max(0) * i128::from(r) > i128::from(i64::MAX)
    })
}
