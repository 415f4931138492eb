//! Property tests: every run path of the core against the naive reference of
//! `padkit-testkit`, on outputs that start as a sentinel pattern.

use padkit::PadMode;
use padkit_testkit::{Case, check_core};
use proptest::prelude::*;

/// Largest output the properties allow, in elements.
const LIMIT: usize = 1 << 16;

fn mode() -> impl Strategy<Value = PadMode> {
    prop::sample::select(PadMode::ALL.to_vec())
}

fn width() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![1usize, 2, 4, 8, 16, 3])
}

/// Valid-looking cases: random axes subsets (negative too), pads −9..12, interior 0–3
/// for constant mode.
fn case() -> impl Strategy<Value = Case> {
    (0usize..=6)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(0usize..=7, rank),
                mode(),
                any::<bool>(),
            )
        })
        .prop_flat_map(|(shape, mode, use_axes)| {
            let rank = shape.len();
            let axes = if use_axes && rank > 0 {
                prop::sample::subsequence((0..rank).collect::<Vec<_>>(), 0..=rank)
                    .prop_flat_map(move |ax| {
                        let n = ax.len();
                        (Just(ax), prop::collection::vec(any::<bool>(), n))
                    })
                    .prop_map(move |(ax, neg)| {
                        let v: Vec<i64> = ax
                            .iter()
                            .zip(neg)
                            .map(|(&a, n)| if n { a as i64 - rank as i64 } else { a as i64 })
                            .collect();
                        Some(v)
                    })
                    .boxed()
            } else {
                Just(None).boxed()
            };
            (Just(shape), Just(mode), axes)
        })
        .prop_flat_map(|(shape, mode, axes)| {
            let n = axes.as_ref().map_or(shape.len(), Vec::len);
            let interior = if mode == PadMode::Constant {
                prop::option::of(prop::collection::vec(0i64..=3, n)).boxed()
            } else {
                Just(None).boxed()
            };
            (
                Just(shape),
                Just(mode),
                Just(axes),
                prop::collection::vec(-9i64..=12, 2 * n),
                interior,
            )
        })
        .prop_map(|(shape, mode, axes, pads, interior)| Case {
            shape,
            pads,
            axes,
            interior,
            mode,
        })
}

/// Malformed specs: wrong lengths, bad axes, negative interior, interior outside constant.
fn invalid() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(0usize..=4, 0..=4),
        mode(),
        prop::collection::vec(-9i64..=12, 0..=9),
        prop::option::of(prop::collection::vec(-6i64..=6, 0..=4)),
        prop::option::of(prop::collection::vec(-2i64..=3, 0..=4)),
    )
        .prop_map(|(shape, mode, pads, axes, interior)| Case {
            shape,
            pads,
            axes,
            interior,
            mode,
        })
}

/// Rows with wide borders (8 to 30 elements a side, after a crop of up to 3), whose gaps
/// the kernel writes stretch by stretch rather than element by element; `unit` > 1 makes
/// every element of the padded axis a run of `unit` input elements.
fn wide_border_case() -> impl Strategy<Value = Case> {
    (
        1usize..4,
        1usize..3,
        9usize..40,
        -3i64..31,
        8i64..31,
        mode(),
    )
        .prop_map(|(rows, unit, d, begin, end, mode)| Case {
            shape: vec![rows, d, unit],
            pads: vec![begin / unit as i64, end / unit as i64],
            axes: Some(vec![1]),
            interior: None,
            mode,
        })
}

/// Borders far wider than their axis (periodic modes echo them), and crops.
fn wide_pad_case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(1usize..=4, 1..=3),
        mode(),
        prop::collection::vec(-3i64..=400, 6),
    )
        .prop_map(|(shape, mode, pads)| {
            let n = shape.len();
            let pads = [&pads[..n], &pads[3..3 + n]].concat();
            Case::new(shape, pads, mode)
        })
}

/// Pads at the edges of `i64` and near them.
fn extreme_case() -> impl Strategy<Value = Case> {
    let amount = prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        (0u32..63).prop_map(|k| 1i64 << k),
        (0u32..63).prop_map(|k| -(1i64 << k)),
        -5i64..5,
    ];
    (
        prop::collection::vec(0usize..=4, 1..=3),
        mode(),
        prop::collection::vec(amount, 6),
    )
        .prop_map(|(shape, mode, pads)| {
            let n = shape.len();
            let pads = [&pads[..n], &pads[3..3 + n]].concat();
            Case::new(shape, pads, mode)
        })
}

/// Outputs above the kernel's 4 MiB parallel threshold, on a two-thread pool: the
/// parallel row, block, copy and fill paths against the reference.
#[test]
fn large_outputs_split_across_threads_match_reference() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let cases = [
        (vec![3, 200, 1800], vec![0, 2, 3, 0, 2, 1], PadMode::Reflect),
        (
            vec![3, 200, 1800],
            vec![1, -2, 3, 1, 2, -1],
            PadMode::Constant,
        ),
        (vec![2, 600, 1000], vec![2, 1, 0, 1, 1, 0], PadMode::Edge),
        (vec![1_200_000, 2], vec![1, 1, 0, 1], PadMode::Wrap),
        (vec![3_000_000], vec![70, -5], PadMode::Symmetric),
        (vec![3], vec![2_000_000, 3_000_000], PadMode::Reflect),
    ];
    for (shape, pads, mode) in cases {
        let case = Case::new(shape, pads, mode);
        let input: Vec<u32> = (1..=case.input_len() as u32).collect();
        let want = case.reference(&input, 0xDEAD_BEEF, usize::MAX).unwrap();
        let got = pool
            .install(|| padkit::pad(&input, &case.shape, &case.spec(), 0xDEAD_BEEF))
            .unwrap();
        assert!(got == want, "{case:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn every_path_matches_reference(case in case(), width in width()) {
        check_core(&case, width, LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn invalid_specs_give_the_reference_error(case in invalid(), width in width()) {
        check_core(&case, width, LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn wide_borders_match_reference(case in wide_border_case(), width in width()) {
        check_core(&case, width, LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn pads_wider_than_the_axis_match_reference(case in wide_pad_case(), width in width()) {
        check_core(&case, width, LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn extreme_pads_are_refused_or_right(case in extreme_case(), width in width()) {
        check_core(&case, width, LIMIT).map_err(TestCaseError::fail)?;
    }
}
