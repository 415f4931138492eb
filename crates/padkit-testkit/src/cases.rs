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
