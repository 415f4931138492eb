//! What the code padkit-burn-onnx generates calls: ONNX Pad on Burn tensors, with its
//! operands as burn-onnx's generated code holds them (constant arrays, shape arrays,
//! on-device tensors, native scalars).

use burn::tensor::{Bool, Float, Int, Tensor};

use padkit::PadMode;

use crate::{Fill, PadKind, PadSpec, pad_with};

/// Pads `x` as the ONNX Pad node `node` does; panics with the node's name and padkit's
/// error when the pads do not fit `x` (the generated `forward` has no error channel, like
/// every burn-onnx op).
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use padkit_burn::Fill;
/// use padkit::PadMode;
/// let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &Device::flex());
/// let y = padkit_burn::import::pad_node("p", x, PadMode::Wrap, vec![1, -1], None, Fill::Zero);
/// assert_eq!(y.into_data().try_to_vec::<f32>().unwrap(), vec![2.0, 1.0, 2.0]);
/// ```
pub fn pad_node<const D: usize, K: PadKind>(
    node: &str,
    x: Tensor<D, K>,
    mode: PadMode,
    pads: Vec<i64>,
    axes: Option<Vec<i64>>,
    fill: Fill,
) -> Tensor<D, K> {
    let spec = PadSpec::new(pads).with_axes(axes).with_mode(mode);
    pad_with(x, &spec, fill).unwrap_or_else(|e| panic!("Pad node {node:?}: {e}"))
}

/// Integers the generated code holds: pads or axes, known or read at run time.
pub trait Ints {
    /// The integers as `i64`.
    fn ints(self) -> Vec<i64>;
}

impl<const N: usize> Ints for [i64; N] {
    fn ints(self) -> Vec<i64> {
        self.to_vec()
    }
}

impl Ints for Vec<i64> {
    fn ints(self) -> Vec<i64> {
        self
    }
}

impl<const D: usize> Ints for Tensor<D, Int> {
    fn ints(self) -> Vec<i64> {
        self.into_data()
            .convert::<i64>()
            .try_to_vec::<i64>()
            .unwrap_or_default()
    }
}

/// `values` as `i64` (pads or axes held as an array or a tensor).
///
/// ```
/// assert_eq!(padkit_burn::import::ints([1, -2]), vec![1, -2]);
/// ```
pub fn ints(values: impl Ints) -> Vec<i64> {
    values.ints()
}

/// A fill value the generated code holds: a native scalar, or a one-element tensor read
/// at run time, exact in its own type.
pub trait ToFill {
    /// The fill.
    fn to_fill(self) -> Fill;
}

macro_rules! native_fills {
    ($($t:ty => $variant:ident as $wide:ty),*) => {$(
        impl ToFill for $t {
            fn to_fill(self) -> Fill {
                Fill::$variant(<$wide>::from(self))
            }
        }
    )*};
}

native_fills!(
    f32 => Float as f64, f64 => Float as f64, padkit::half::f16 => Float as f64,
    padkit::half::bf16 => Float as f64, i8 => Int as i64, i16 => Int as i64,
    i32 => Int as i64, i64 => Int as i64, u8 => Int as i64, u16 => Int as i64,
    u32 => Int as i64, bool => Bool as bool
);

impl<const D: usize> ToFill for Tensor<D, Float> {
    fn to_fill(self) -> Fill {
        let data = self.into_data().convert::<f64>();
        Fill::Float(
            data.try_to_vec::<f64>()
                .ok()
                .and_then(|v| v.first().copied())
                .unwrap_or(0.0),
        )
    }
}

impl<const D: usize> ToFill for Tensor<D, Int> {
    fn to_fill(self) -> Fill {
        Fill::Int(self.ints().first().copied().unwrap_or(0))
    }
}

impl<const D: usize> ToFill for Tensor<D, Bool> {
    fn to_fill(self) -> Fill {
        let data = self.into_data().convert::<u8>();
        Fill::Bool(
            data.try_to_vec::<u8>()
                .ok()
                .and_then(|v| v.first().copied())
                .unwrap_or(0)
                != 0,
        )
    }
}

/// `value` as a fill (a native scalar or a one-element tensor).
///
/// ```
/// assert_eq!(padkit_burn::import::fill(16_777_217i64), padkit_burn::Fill::Int(16_777_217));
/// ```
pub fn fill(value: impl ToFill) -> Fill {
    value.to_fill()
}
