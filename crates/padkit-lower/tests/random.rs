//! Random Pads (shapes, pads and crops, axes subsets, every mode, padkit's symmetric and
//! interior padding, a fill value, the first extent declared or known only at run time,
//! pads and axes known when the model is read or fed at run time),
//! each lowered and run by stock tract-onnx, against padkit-conformance's naive reference
//! (`padkit_testkit::lowered::check`, which the `lower_verdict` fuzz target checks too):
//! the output where the reference has one, an error (from the lowering or from tract)
//! where it refuses. Crops and interior padding of an extent known only at run time take
//! the index maps computed at run time, as fed pads and axes do.

use padkit::PadMode;
use padkit_conformance::reference::Case;
use proptest::prelude::*;

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn lowered_pads_match_the_reference(case in cases(), symbolic in any::<bool>(), fed in any::<bool>()) {
        let checked = padkit_testkit::lowered::check(&case, symbolic, fed, LIMIT);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn lowered_pads_fail_where_the_reference_does_at_the_int64_limits(
        case in extreme_cases(),
        symbolic in any::<bool>(),
    ) {
        let checked = padkit_testkit::lowered::check(&case, symbolic, true, LIMIT);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

/// Interior padding of zeros is still one value per padded axis: a list of another length
/// is refused by the core, and must fail the lowered model too (found by the
/// `lower_verdict` fuzz target on rank-0 data with fed pads and `interior = [0]`).
#[test]
fn interior_zeros_of_the_wrong_count_fail() {
    let mut cases = vec![];
    for (shape, pads, axes, interior) in [
        (vec![], vec![], None, vec![0]),
        (vec![2], vec![1, 1], Some(vec![0]), vec![0, 0]),
        (vec![2, 2], vec![1, 1, 0, 0], None, vec![0]),
    ] {
        let mut case = Case::new(shape, pads, PadMode::Constant);
        case.axes = axes;
        case.interior = Some(interior);
        cases.push(case);
    }
    for case in &cases {
        for fed in [false, true] {
            padkit_testkit::lowered::check(case, false, fed, LIMIT).unwrap();
        }
    }
}
