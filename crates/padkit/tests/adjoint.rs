//! The adjoint checked against its definition: `<pad(x), g> == <x, pad_adjoint(g)>`,
//! exactly, on integer data.

use padkit::{PadMode, PadSpec, pad, pad_adjoint};
use proptest::prelude::*;

fn spec() -> impl Strategy<Value = (Vec<usize>, PadSpec)> {
    (1usize..=4)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(0usize..=6, rank),
                prop::collection::vec(-4i64..=9, 2 * rank),
                prop::sample::select(PadMode::ALL.to_vec()),
                prop::collection::vec(0i64..=2, rank),
            )
        })
        .prop_map(|(shape, pads, mode, interior)| {
            let mut spec = PadSpec::new(pads).with_mode(mode);
            if mode == PadMode::Constant {
                spec = spec.with_interior(interior);
            }
            (shape, spec)
        })
}

fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn adjoint_identity((shape, spec) in spec(), seed in any::<u64>()) {
        let n: usize = shape.iter().product();
        let x: Vec<i64> = (0..n as u64).map(|i| ((i * 2654435761 + seed) % 19) as i64 - 9).collect();
        let Ok((out_shape, y)) = pad(&x, &shape, &spec, 0) else {
            // An invalid spec must be refused by the adjoint too.
            prop_assert!(pad_adjoint(&[0i64], &shape, &spec).is_err());
            return Ok(());
        };
        prop_assert_eq!(out_shape.iter().product::<usize>(), y.len());
        let g: Vec<i64> = (0..y.len() as u64).map(|i| ((i * 40503 + seed / 7) % 23) as i64 - 11).collect();
        let back = pad_adjoint(&g, &shape, &spec).unwrap();
        prop_assert_eq!(back.len(), n);
        prop_assert_eq!(dot(&y, &g), dot(&x, &back));
    }
}

#[test]
fn cropped_positions_get_zero() {
    let spec = PadSpec::new(vec![-1, 1]).with_mode(PadMode::Constant);
    assert_eq!(
        pad_adjoint(&[5.0f32, 6.0, 7.0], &[3], &spec).unwrap(),
        vec![0.0, 5.0, 6.0]
    );
}

#[test]
fn edge_folds_borders_onto_the_ends() {
    let spec = PadSpec::new(vec![2, 3]).with_mode(PadMode::Edge);
    assert_eq!(
        pad_adjoint(&[1.0f64; 10], &[5], &spec).unwrap(),
        vec![3.0, 1.0, 1.0, 1.0, 4.0]
    );
}
