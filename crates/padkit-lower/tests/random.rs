//! Random Pads (shapes, pads and crops, axes subsets, every mode, padkit's symmetric and
//! interior padding, a fill value, the first extent declared or known only at run time,
//! pads and axes known when the model is read or fed at run time),
//! each lowered and run by stock tract-onnx, against padkit-conformance's naive reference:
//! the output where the reference has one, an error (from the lowering or from tract)
//! where it refuses. Crops and interior padding of an extent known only at run time take
//! the index maps computed at run time, as fed pads and axes do.

use padkit::{PadMode, Tensor};
use padkit_conformance::ErrClass;
use padkit_conformance::reference::Case;
use padkit_onnx::model::{Feed, PadModel};
use proptest::prelude::*;
use tract_onnx::prelude::*;

/// The most elements an output may have, in the reference and (as f32 bytes) in the
/// lowering's options.
const LIMIT: usize = 1 << 20;

/// One random pad: a shape of rank 1 to 3 (extents 0 to 4), a mode, pads from -3 to 4 per
/// side on every axis or on a subset given by (possibly negative) axes, interior padding
/// in constant mode now and then, and the fill 7.
fn cases() -> impl Strategy<Value = Case> {
    (1usize..=3)
        .prop_flat_map(|rank| {
            let shape = proptest::collection::vec(0usize..=4, rank);
            let mode = prop_oneof![
                Just(PadMode::Constant),
                Just(PadMode::Reflect),
                Just(PadMode::Edge),
                Just(PadMode::Wrap),
                Just(PadMode::Symmetric),
            ];
            let axes = proptest::option::of(proptest::sample::subsequence(
                (0..rank as i64).collect::<Vec<_>>(),
                0..=rank,
            ));
            (shape, mode, axes, any::<bool>(), any::<bool>())
        })
        .prop_flat_map(|(shape, mode, axes, negative, interior)| {
            let rank = shape.len();
            let axes = axes.map(|a| {
                a.into_iter()
                    .map(|k| if negative { k - rank as i64 } else { k })
                    .collect::<Vec<_>>()
            });
            let padded = axes.as_ref().map_or(rank, Vec::len);
            let pads = proptest::collection::vec(-3i64..=4, 2 * padded);
            let inner = proptest::collection::vec(0i64..=2, padded);
            (
                Just(shape),
                Just(mode),
                Just(axes),
                pads,
                inner,
                Just(interior),
            )
        })
        .prop_map(|(shape, mode, axes, pads, inner, interior)| {
            let mut case = Case::new(shape, pads, mode);
            case.axes = axes;
            if interior && mode == PadMode::Constant {
                case.interior = Some(inner);
            }
            case
        })
}

/// `case` as a model (padkit's own Pad, which holds every mode and interior padding, its
/// first extent the symbol `N` where `symbolic`, its pads and axes graph inputs where
/// `fed`), lowered and run by stock tract-onnx on `data`; `None` where the lowering
/// declares it does not lower it.
fn lowered_on_stock_tract(
    case: &Case,
    data: &[f32],
    symbolic: bool,
    fed: bool,
) -> Option<TractResult<padkit::Tensor>> {
    let run = || -> TractResult<Option<padkit::Tensor>> {
        let x = Tensor::from_slice(&case.shape, data)?;
        let pads = case.pads.clone();
        let feed = if fed { Feed::Input } else { Feed::Initializer };
        let mut model = PadModel::new(25, "constant", x.clone(), pads, feed)
            .with_value(Tensor::scalar(7.0f32), Feed::Initializer);
        if let Some(axes) = &case.axes {
            model = model.with_axes(axes.clone(), feed);
        }
        model.mode = Some(case.mode.to_string());
        model.domain = padkit::onnx::PADKIT_DOMAIN.into();
        model.interior = case.interior.clone();
        if symbolic {
            model.symbolic_dims[0] = Some("N".into());
        }
        let options = padkit_lower::Options::default().with_max_output_bytes(4 * LIMIT as u64);
        let lowered = match padkit_lower::lower_with(&model.proto(), &options) {
            Err(padkit_lower::LowerError::NotLowered { .. }) => return Ok(None),
            other => other?,
        };
        // Typed, not optimised: tract's declutter fails on some joins of empty tensors of
        // a symbolic extent, which is the optimiser's matter, not the lowering's.
        // Stock tract panics on a Gather position out of range (an empty axis known only
        // at run time, which the lowered model must fail on): a panic is its error here,
        // which the caller accepts only where the reference refuses too.
        let ran = std::panic::catch_unwind(|| -> TractResult<padkit::Tensor> {
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
        });
        let y = ran.map_err(|_| anyhow::anyhow!("stock tract panicked"))??;
        Ok(Some(y))
    };
    run().transpose()
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
    let (b, e) = (case.pads[k], case.pads[axes.len() + k]);
    let reach = case.shape[0] as i64 - i64::from(case.mode == PadMode::Reflect);
    case.mode != PadMode::Constant && b.max(e) > reach
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn lowered_pads_match_the_reference(case in cases(), symbolic in any::<bool>(), fed in any::<bool>()) {
        let data: Vec<f32> = (0..case.input_len()).map(|v| v as f32 + 1.0).collect();
        let Some(got) = lowered_on_stock_tract(&case, &data, symbolic, fed) else {
            prop_assert!(false, "{case:?} is not lowered");
            return Ok(());
        };
        match case.reference(&data, 7.0, LIMIT) {
            // Borders wider than the run-time extent allows read outside the axis: the
            // runtime's Gather refuses them, or, where nothing is gathered (an empty
            // output), stock tract checks no position (docs/lower.md).
            // Stock tract keeps a symbolic extent as a symbol through the index map's
            // arithmetic, and cannot divide by it (the period of reflect, symmetric and
            // wrap): its error names the Div (docs/lower.md).
            Ok(_) if symbolic
                && got.as_ref().is_err_and(|e| format!("{e:#}").contains("Can't divide")) => {}
            Ok(_) if symbolic
                && !fed
                && beyond_run_time_borders(&case)
                && got.as_ref().map_or(true, |y| y.is_empty()) => {}
            Ok((shape, want)) => {
                let y = got.map_err(|e| TestCaseError::fail(format!("{case:?}: {e:#}")))?;
                prop_assert_eq!(y.shape(), &shape[..], "{:?}", case);
                prop_assert_eq!(y.to_vec::<f32>().unwrap(), want, "{:?}", case);
            }
            // The one failure a lowered model cannot state before run time: padding an
            // empty axis whose extent is known only then. Its Gather of positions that do
            // not exist fails in ONNX Runtime; stock tract gives an empty output when
            // nothing is gathered (docs/lower.md).
            Err(ErrClass::EmptyWindow)
                if symbolic
                    && !fed
                    && case.shape[0] == 0
                    && got.as_ref().is_ok_and(|y| y.is_empty()) => {}
            Err(class) => prop_assert!(got.is_err(), "{case:?} must fail ({class:?})"),
        }
    }
}

/// Pads and axes fed at run time near the int64 limits, on data of rank 0 to 3 (extents 0
/// to 3), every mode, interior padding now and then, the axes list absent, empty or a
/// subset: the lowered model's arithmetic must not wrap unseen, and its checks must hold
/// with no axis padded.
fn extreme_cases() -> impl Strategy<Value = Case> {
    let big = prop::sample::select(vec![
        i64::MIN,
        i64::MIN + 1,
        -i64::MAX,
        -(1 << 62),
        -(1 << 40),
        1 << 40,
        1 << 62,
        i64::MAX - 5,
        i64::MAX - 1,
        i64::MAX,
    ]);
    let pad = prop_oneof![-3i64..=3, big];
    (0usize..=3, any::<u8>())
        .prop_flat_map(|(rank, pick)| {
            let shape = proptest::collection::vec(0usize..=3, rank);
            let axes =
                proptest::sample::subsequence((0..rank as i64).collect::<Vec<_>>(), 0..=rank);
            let mode = proptest::sample::select(vec![
                PadMode::Constant,
                PadMode::Reflect,
                PadMode::Edge,
                PadMode::Wrap,
                PadMode::Symmetric,
            ]);
            let axes = axes.prop_map(move |a| (pick % 3 != 0).then_some(a));
            (shape, mode, axes, Just(pick))
        })
        .prop_flat_map(move |(shape, mode, axes, pick)| {
            let padded = axes.as_ref().map_or(shape.len(), Vec::len);
            let pads = proptest::collection::vec(pad.clone(), 2 * padded);
            let inner =
                proptest::collection::vec(prop_oneof![0i64..=2, Just(i64::MAX / 2)], padded);
            (Just(shape), Just(mode), Just(axes), pads, inner, Just(pick))
        })
        .prop_map(|(shape, mode, axes, pads, inner, pick)| {
            let mut case = Case::new(shape, pads, mode);
            case.axes = axes;
            if pick % 4 == 0 && mode == PadMode::Constant && !inner.is_empty() {
                case.interior = Some(inner);
            }
            case
        })
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
        let d = case.shape[a as usize] as i128;
        d + (d - 1).max(0) * i128::from(r) > i128::from(i64::MAX)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn lowered_pads_fail_where_the_reference_does_at_the_int64_limits(
        case in extreme_cases(),
        symbolic in any::<bool>(),
    ) {
        let data: Vec<f32> = (0..case.input_len()).map(|v| v as f32 + 1.0).collect();
        let symbolic = symbolic && !case.shape.is_empty();
        let Some(got) = lowered_on_stock_tract(&case, &data, symbolic, true) else {
            prop_assert!(spread_beyond_i64(&case), "{case:?} is not lowered");
            return Ok(());
        };
        match case.reference(&data, 7.0, LIMIT) {
            // Interior padding that alone takes an axis past i64::MAX (a crop then brings
            // back): refused by the lowering, or by the lowered model (docs/lower.md).
            Ok(_) if spread_beyond_i64(&case) && got.is_err() => {}
            // An empty output with an extent above padkit-lower's cap on index maps: the
            // lowered model fails rather than compute a map that long (docs/lower.md).
            Ok((shape, _))
                if shape.contains(&0)
                    && shape.iter().any(|&n| n > padkit_lower::MAX_MAP_LEN)
                    && got.is_err() => {}
            Ok((shape, want)) => {
                let y = got.map_err(|e| TestCaseError::fail(format!("{case:?}: {e:#}")))?;
                prop_assert_eq!(y.shape(), &shape[..], "{:?}", case);
                prop_assert_eq!(y.to_vec::<f32>().unwrap(), want, "{:?}", case);
            }
            Err(class) => prop_assert!(got.is_err(), "{case:?} must fail ({class:?})"),
        }
    }
}
