//! Shape inference on a symbolic dimension type (a stand-in for tract's `TDim`).

use std::fmt;

use padkit::shape::Dim;
use padkit::{PadMode, PadSpec, output_shape};

/// `scale·N + offset`, or a known number.
#[derive(Debug, Clone, PartialEq)]
enum Sym {
    Known(i64),
    Linear { scale: i64, offset: i64 },
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sym::Known(v) => write!(f, "{v}"),
            Sym::Linear { scale, offset } => write!(f, "{scale}*N+{offset}"),
        }
    }
}

impl Dim for Sym {
    fn to_i64(&self) -> Option<i64> {
        match self {
            Sym::Known(v) => Some(*v),
            Sym::Linear { .. } => None,
        }
    }
    fn from_i64(value: i64) -> Option<Self> {
        Some(Sym::Known(value))
    }
    fn add_i64(&self, k: i64) -> Option<Self> {
        Some(match self {
            Sym::Known(v) => Sym::Known(v.checked_add(k)?),
            Sym::Linear { scale, offset } => Sym::Linear {
                scale: *scale,
                offset: offset.checked_add(k)?,
            },
        })
    }
    fn mul_i64(&self, k: i64) -> Option<Self> {
        Some(match self {
            Sym::Known(v) => Sym::Known(v.checked_mul(k)?),
            Sym::Linear { scale, offset } => Sym::Linear {
                scale: scale.checked_mul(k)?,
                offset: offset.checked_mul(k)?,
            },
        })
    }
}

const N: Sym = Sym::Linear {
    scale: 1,
    offset: 0,
};

#[test]
fn symbolic_dim_padded_by_one_and_one_is_n_plus_two() {
    let spec = PadSpec::new(vec![1, 0, 1, 0]).with_mode(PadMode::Reflect);
    assert_eq!(
        output_shape(&[N, Sym::Known(3)], &spec).unwrap(),
        vec![
            Sym::Linear {
                scale: 1,
                offset: 2
            },
            Sym::Known(3)
        ]
    );
}

#[test]
fn symbolic_interior_is_scaled() {
    // N + (N-1)·2 + 1 + 0 = 3N - 1
    let spec = PadSpec::new(vec![1, 0]).with_interior(vec![2]);
    assert_eq!(
        output_shape(&[N], &spec).unwrap(),
        vec![Sym::Linear {
            scale: 3,
            offset: -1
        }]
    );
}

#[test]
fn known_dims_are_still_checked() {
    let spec = PadSpec::new(vec![0, -4, 0, 0]);
    let err = output_shape(&[N, Sym::Known(3)], &spec).unwrap_err();
    assert_eq!(
        err.to_string(),
        "axis 1: output extent would be -1 (extent 3, begin -4, end 0, interior 0)"
    );
}
