//! Property tests: the kernels against the naive reference in `common`.

mod common;

use common::{ErrClass, Mode, class_of, reference};
use padkit::{DType, Data, PadMode, PadSpec, Tensor, pad, pad_into, pad_tensor};
use proptest::prelude::*;

/// Largest output the properties allow, in elements.
const LIMIT: usize = 1 << 16;

#[derive(Debug, Clone)]
struct Case {
    shape: Vec<usize>,
    pads: Vec<i64>,
    axes: Option<Vec<i64>>,
    interior: Option<Vec<i64>>,
    mode: PadMode,
}

impl Case {
    fn spec(&self, element_bytes: usize) -> PadSpec {
        PadSpec {
            pads: self.pads.clone(),
            axes: self.axes.clone(),
            interior: self.interior.clone(),
            mode: self.mode,
            max_output_bytes: Some((LIMIT * element_bytes) as u64),
        }
    }

    fn reference<T: Clone>(&self, input: &[T], value: T) -> Result<(Vec<usize>, Vec<T>), ErrClass> {
        self.reference_limited(input, value, LIMIT)
    }

    fn reference_unlimited<T: Clone>(
        &self,
        input: &[T],
        value: T,
    ) -> Result<(Vec<usize>, Vec<T>), ErrClass> {
        self.reference_limited(input, value, usize::MAX)
    }

    fn reference_limited<T: Clone>(
        &self,
        input: &[T],
        value: T,
        limit: usize,
    ) -> Result<(Vec<usize>, Vec<T>), ErrClass> {
        reference(
            input,
            &self.shape,
            &self.pads,
            self.axes.as_deref(),
            self.interior.as_deref(),
            Mode::of(self.mode),
            value,
            limit,
        )
    }
}

fn mode() -> impl Strategy<Value = PadMode> {
    prop::sample::select(PadMode::ALL.to_vec())
}

/// Valid-looking cases: random axes subsets (negative too), pads −9..12, interior 0–3
/// for constant mode; a few malformed ones come from the `invalid` strategy below.
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

/// Distinct values per input element, so every misplaced copy shows.
fn iota(n: usize) -> Vec<u32> {
    (1..=n as u32).collect()
}

fn check<T>(case: &Case, input: Vec<T>, value: T) -> Result<(), TestCaseError>
where
    T: Clone + Send + Sync + PartialEq + std::fmt::Debug,
{
    let want = case.reference(&input, value.clone());
    let got = pad(&input, &case.shape, &case.spec(size_of::<T>()), value);
    match (got, want) {
        (Ok(g), Ok(w)) => prop_assert_eq!(g, w),
        (Err(g), Err(w)) => prop_assert_eq!(class_of(&g), w, "{}", g),
        (g, w) => prop_assert!(
            false,
            "kernel {:?} but reference {:?}",
            g.map(|x| x.0),
            w.map(|x| x.0)
        ),
    }
    Ok(())
}

/// `pad_into` over a buffer of stale values: the buffer must end up equal to `pad`'s
/// output (and the reference's), for plain and for heap-owning elements.
fn check_into<T>(case: &Case, input: Vec<T>, value: T, stale: T) -> Result<(), TestCaseError>
where
    T: Clone + Send + Sync + PartialEq + std::fmt::Debug,
{
    if let Ok((shape, want)) = case.reference(&input, value.clone()) {
        let mut out = vec![stale; want.len()];
        let got = pad_into(
            &input,
            &case.shape,
            &case.spec(size_of::<T>()),
            value,
            &mut out,
        );
        prop_assert_eq!(got.ok(), Some(shape));
        prop_assert_eq!(out, want);
    }
    Ok(())
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
    ];
    for (shape, pads, mode) in cases {
        let case = Case {
            shape,
            pads,
            axes: None,
            interior: None,
            mode,
        };
        let n = case.shape.iter().product();
        let (input, value) = (iota(n), 0xDEAD_BEEF);
        let want = case.reference_unlimited(&input, value).unwrap();
        let spec = PadSpec {
            max_output_bytes: None,
            ..case.spec(4)
        };
        let got = pool
            .install(|| pad(&input, &case.shape, &spec, value))
            .unwrap();
        assert!(got == want, "{case:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn pad_into_matches_reference(case in case()) {
        let n = case.shape.iter().product();
        check_into(&case, iota(n), 0xDEAD_BEEF, 1)?;
        let strings = iota(n).into_iter().map(|v| v.to_string()).collect();
        check_into(&case, strings, "pad".to_string(), "stale".to_string())?;
    }

    #[test]
    fn u8_matches_reference(case in case()) {
        let n = case.shape.iter().product();
        check(&case, iota(n).into_iter().map(|v| v as u8).collect(), 0xEE)?;
    }

    #[test]
    fn u32_matches_reference(case in case()) {
        let n = case.shape.iter().product();
        check(&case, iota(n), 0xDEAD_BEEF)?;
    }

    #[test]
    fn complex128_width_matches_reference(case in case()) {
        let n = case.shape.iter().product();
        let input = iota(n).into_iter().map(|v| [v as u64, !(v as u64)]).collect();
        check(&case, input, [7, 9])?;
    }

    #[test]
    fn wide_borders_match_reference(case in wide_border_case()) {
        let n = case.shape.iter().product();
        check(&case, iota(n), 0xDEAD_BEEF)?;
        check(&case, iota(n).into_iter().map(|v| v.to_string()).collect(), "pad".to_string())?;
    }

    #[test]
    fn strings_match_reference(case in case()) {
        let n = case.shape.iter().product();
        check(&case, iota(n).into_iter().map(|v| v.to_string()).collect(), "pad".to_string())?;
    }

    #[test]
    fn invalid_specs_give_the_reference_error(case in invalid()) {
        let n = case.shape.iter().product();
        check(&case, iota(n), 0)?;
    }

    /// The dynamic tensor: every byte width through the one byte-width kernel.
    #[test]
    fn tensor_widths_match_reference(case in case(), width in prop::sample::select(vec![1usize, 2, 4, 8, 16]), splat in any::<bool>()) {
        let dtype = *DType::ALL.iter().find(|d| d.layout() == padkit::Layout::Bytes(width)).unwrap();
        let n: usize = case.shape.iter().product();
        let elems: Vec<Vec<u8>> = iota(n)
            .into_iter()
            .map(|v| (0..width).map(|i| (v >> (8 * (i % 4))) as u8 ^ i as u8).collect())
            .collect();
        // all bytes equal (filled with memset) or not (element by element)
        let value: Vec<u8> = (0..width).map(|i| if splat { 0xA5 } else { 0xA5 ^ i as u8 }).collect();
        let x = Tensor::new(dtype, case.shape.clone(), Data::Bytes(elems.concat())).unwrap();
        let v = Tensor::new(dtype, vec![], Data::Bytes(value.clone())).unwrap();
        let got = pad_tensor(&x, &case.spec(width), Some(&v));
        match (got, case.reference(&elems, value)) {
            (Ok(g), Ok((s, w))) => {
                prop_assert_eq!(g.shape(), &s[..]);
                prop_assert_eq!(g.data(), &Data::Bytes(w.concat()));
            }
            (Err(g), Err(w)) => prop_assert_eq!(class_of(&g), w),
            (g, w) => prop_assert!(false, "kernel {:?} but reference {:?}", g.is_ok(), w.is_ok()),
        }
    }

    /// Packed 4-bit and 2-bit types: unpacked codes against the reference.
    #[test]
    fn packed_types_match_reference(case in case(), dtype in prop::sample::select(vec![DType::Int4, DType::UInt4, DType::Float4E2M1, DType::Int2, DType::UInt2])) {
        let bits = match dtype.layout() { padkit::Layout::Packed(b) => b, _ => unreachable!() };
        let n: usize = case.shape.iter().product();
        let codes: Vec<u8> = iota(n).into_iter().map(|v| (v % (1 << bits)) as u8).collect();
        let x = Tensor::from_codes(dtype, &case.shape, &codes).unwrap();
        let fill = (1u8 << bits) - 1;
        let v = Tensor::new(dtype, vec![], Data::Bytes(vec![fill])).unwrap();
        let got = pad_tensor(&x, &case.spec(1), Some(&v));
        match (got, case.reference(&codes, fill)) {
            (Ok(g), Ok((s, w))) => {
                prop_assert_eq!(g.shape(), &s[..]);
                prop_assert_eq!(g.unpacked_codes().unwrap(), w);
            }
            (Err(g), Err(w)) => prop_assert_eq!(class_of(&g), w),
            (g, w) => prop_assert!(false, "kernel {:?} but reference {:?}", g.is_ok(), w.is_ok()),
        }
    }
}
