//! Pad cases on 3-D tensors that the adapters' suites (padkit-burn's, padkit-candle's)
//! share: random ones for proptest, and the named ones every adapter must get right.

use padkit::{PadMode, PadSpec};
use proptest::prelude::*;

/// A 3-D input of at most 4 × 4 × 4 and a spec over some of its axes (negative ones too),
/// pads from -3 to 5, interior padding for constant pads.
#[derive(Debug, Clone)]
pub struct TensorCase {
    /// The input's shape.
    pub shape: [usize; 3],
    /// The pad.
    pub spec: PadSpec,
}

/// The strategy of [`TensorCase`]s.
pub fn tensor_case() -> impl Strategy<Value = TensorCase> {
    (
        [0usize..=4, 0usize..=4, 0usize..=4],
        prop::sample::select(PadMode::ALL.to_vec()),
        prop::sample::subsequence(vec![0i64, 1, 2], 0..=3),
        any::<[bool; 3]>(),
        prop::collection::vec(-3i64..=5, 6),
        prop::collection::vec(0i64..=2, 3),
    )
        .prop_map(|(shape, mode, axes, neg, pads, interior)| {
            let n = axes.len();
            let axes: Vec<i64> = axes
                .iter()
                .zip(neg)
                .map(|(&a, ng)| if ng { a - 3 } else { a })
                .collect();
            let mut spec = PadSpec::new([&pads[..n], &pads[3..3 + n]].concat())
                .with_axes(axes)
                .with_mode(mode);
            if mode == PadMode::Constant {
                spec = spec.with_interior(interior[..n].to_vec());
            }
            TensorCase { shape, spec }
        })
}

impl TensorCase {
    /// The same case for padkit-conformance's naive reference.
    pub fn reference(&self) -> padkit_conformance::reference::Case {
        let s = &self.spec;
        padkit_conformance::reference::Case {
            shape: self.shape.to_vec(),
            pads: s.pads.clone(),
            axes: s.axes.clone(),
            interior: s.interior.clone(),
            mode: s.mode,
        }
    }
}

/// The cases the issue names: empty outputs, size-1 axes, crops to nothing, reflect wider
/// than the axis, interior padding, every mode; rows long enough for the CubeCL kernel's
/// vectors; each also on a strided view.
pub fn named_cases() -> Vec<TensorCase> {
    let mut v = Vec::new();
    for mode in PadMode::ALL {
        let pads = |p: Vec<i64>| PadSpec::new(p).with_mode(mode);
        v.extend([
            // size-1 axes, padded wider than themselves
            TensorCase {
                shape: [1, 1, 3],
                spec: pads(vec![2, 0, 1, 3, 1, 5]),
            },
            // reflect (and every periodic mode) wider than the axis, both sides
            TensorCase {
                shape: [2, 3, 2],
                spec: pads(vec![0, 7, 5, 1, 9, 4]),
            },
            // an axis cropped to nothing: an empty output
            TensorCase {
                shape: [2, 3, 4],
                spec: pads(vec![0, -2, 1, 0, -1, 2]),
            },
            // crops and pads on one axis, axes given negative
            TensorCase {
                shape: [4, 4, 4],
                spec: pads(vec![-1, 3, 2, -3]).with_axes(vec![-1, 0]),
            },
            // rows of whole vectors of 4 on the GPU: the center moves by vectors, the
            // borders are assembled
            TensorCase {
                shape: [2, 3, 16],
                spec: pads(vec![1, 0, 4, 0, 1, 4]),
            },
            // a crop by 2 and a pad by 6: vectors of 2
            TensorCase {
                shape: [2, 2, 12],
                spec: pads(vec![-2, 6]).with_axes(vec![2]),
            },
        ]);
    }
    // an empty input padded with constant (all fill), and interior padding with crops
    v.push(TensorCase {
        shape: [0, 2, 3],
        spec: PadSpec::new(vec![1, 0, 0, 2, 1, 1]),
    });
    // cropped past the axis on one side and padded back on the other: all fill
    v.push(TensorCase {
        shape: [2, 3, 4],
        spec: PadSpec::new(vec![-3_000_000_000, 3_000_000_000]).with_axes(vec![2]),
    });
    v.push(TensorCase {
        shape: [3, 1, 4],
        spec: PadSpec::new(vec![1, -2, 0, 1, 2, -1]).with_interior(vec![2, 0, 1]),
    });
    v
}

/// The input shape of [`gradient_specs`]' cases, holding [`gradient_input`].
pub const GRADIENT_SHAPE: [usize; 3] = [4, 2, 2];

/// The pads the adapters' gradient suites differentiate on [`GRADIENT_SHAPE`]: every mode
/// with a crop of one side and pads wider than the axis, a pad of the last axis, an axis
/// cropped to nothing (an empty output, zero gradients), and interior padding with crops.
pub fn gradient_specs() -> Vec<PadSpec> {
    let mut v: Vec<PadSpec> = PadMode::ALL
        .into_iter()
        .flat_map(|m| {
            [
                PadSpec::new(vec![2, -1, 3, 5])
                    .with_axes(vec![0, 2])
                    .with_mode(m),
                PadSpec::new(vec![1, 2]).with_axes(vec![-1]).with_mode(m),
                PadSpec::new(vec![-1, -1, 4, 3, -1, 3]).with_mode(m),
            ]
        })
        .collect();
    v.push(
        PadSpec::new(vec![1, -2, 0, 1])
            .with_axes(vec![0, 1])
            .with_interior(vec![2, 1]),
    );
    v
}

/// The weights `w` of a gradient suite's loss `sum(w · pad(x))`: small whole numbers,
/// exact in every float type.
pub fn gradient_weights(len: usize) -> Vec<f64> {
    (0..len).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect()
}

/// The input of [`GRADIENT_SHAPE`] the gradient suites differentiate at: multiples of 0.5.
pub fn gradient_input() -> Vec<f64> {
    (0..16).map(|i| i as f64 * 0.5).collect()
}

/// Central differences, at [`gradient_input`], of the loss `sum(w · pad(x))` with the
/// weights [`gradient_weights`], where `pad` maps the input's values to the padded
/// output's (through whichever framework). The loss is linear in `x`, so any step gives the
/// exact slope; 0.5 keeps every value (multiples of 0.5 times small whole weights) exact
/// in every float type.
pub fn central_differences(pad: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let loss = |x: &[f64]| {
        let y = pad(x);
        y.iter()
            .zip(gradient_weights(y.len()))
            .map(|(a, b)| a * b)
            .sum::<f64>()
    };
    let eps = 0.5;
    let x = gradient_input();
    (0..x.len())
        .map(|i| {
            let (mut hi, mut lo) = (x.clone(), x.clone());
            hi[i] += eps;
            lo[i] -= eps;
            (loss(&hi) - loss(&lo)) / (2.0 * eps)
        })
        .collect()
}
