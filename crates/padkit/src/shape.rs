//! Shape inference, generic over the dimension type so that symbolic dims work too.

use std::fmt::Display;

use crate::{AxisPad, PadError, PadMode, PadSpec, Result};

/// A dimension: a concrete number, or a symbolic expression an adapter supplies
/// (tract's `TDim`, for instance).
///
/// Arithmetic returns `None` on overflow; a symbolic dimension never overflows.
///
/// ```
/// use padkit::shape::Dim;
/// assert_eq!(7usize.add_i64(-2), Some(5));
/// assert_eq!(1usize.add_i64(-2), None); // would be negative
/// assert_eq!(usize::MAX.mul_i64(2), None);
/// ```
pub trait Dim: Clone + Display {
    /// The value, when it is known.
    fn to_i64(&self) -> Option<i64>;
    /// A known value as a dimension (`None` when it cannot be represented).
    fn from_i64(value: i64) -> Option<Self>;
    /// `self + k`.
    fn add_i64(&self, k: i64) -> Option<Self>;
    /// `self * k`.
    fn mul_i64(&self, k: i64) -> Option<Self>;
}

impl Dim for usize {
    fn to_i64(&self) -> Option<i64> {
        i64::try_from(*self).ok()
    }
    fn from_i64(value: i64) -> Option<Self> {
        usize::try_from(value).ok()
    }
    fn add_i64(&self, k: i64) -> Option<Self> {
        self.checked_add_signed(isize::try_from(k).ok()?)
    }
    fn mul_i64(&self, k: i64) -> Option<Self> {
        self.checked_mul(usize::try_from(k).ok()?)
    }
}

impl Dim for i64 {
    fn to_i64(&self) -> Option<i64> {
        Some(*self)
    }
    fn from_i64(value: i64) -> Option<Self> {
        Some(value)
    }
    fn add_i64(&self, k: i64) -> Option<Self> {
        self.checked_add(k)
    }
    fn mul_i64(&self, k: i64) -> Option<Self> {
        self.checked_mul(k)
    }
}

/// The output shape of `spec` applied to `shape`.
///
/// Works on any [`Dim`]: with `usize` every rule is checked; with a symbolic dim the
/// checks that need the number run once it is known (through [`axis_output`] again).
///
/// # Errors
///
/// - the errors of [`PadSpec::resolve`] when `spec` does not fit the rank of `shape`;
/// - the errors of [`axis_output`] for any axis: a negative output extent, crops past
///   the axis or padding an axis with nothing left (known extents only), an overflow;
/// - with [`PadSpec::with_strict_onnx`], [`PadError::BeyondOnnx`] from
///   [`check_strict_onnx`] (known extents only).
///
/// ```
/// use padkit::{output_shape, PadSpec, PadMode};
/// let spec = PadSpec::new(vec![0, 0, 1, 2, 0, 0, 2, 3]).with_mode(PadMode::Reflect);
/// assert_eq!(output_shape(&[1usize, 3, 4, 5], &spec).unwrap(), vec![1, 3, 7, 10]);
/// ```
pub fn output_shape<D: Dim>(shape: &[D], spec: &PadSpec) -> Result<Vec<D>> {
    let axes = spec.resolve(shape.len())?;
    shape
        .iter()
        .zip(&axes)
        .enumerate()
        .map(|(axis, (d, p))| {
            let out = axis_output(axis, d, p, spec.mode)?;
            match d.to_i64() {
                Some(d) if spec.strict_onnx => {
                    check_strict_onnx(axis, d, p, spec.mode).map(|()| out)
                }
                _ => Ok(out),
            }
        })
        .collect()
}

/// Strict ONNX semantics' rule ([`PadSpec::with_strict_onnx`]) for an axis of known
/// extent `d` whose output extent [`axis_output`] accepted: in reflect mode, no pad above
/// the length − 1 after crops, and no axis shorter than 2 after crops padded.
///
/// # Errors
///
/// [`PadError::BeyondOnnx`] naming the axis, its extent after crops and the pads.
///
/// ```
/// use padkit::shape::check_strict_onnx;
/// use padkit::spec::AxisPad;
/// use padkit::PadMode;
/// let wide = AxisPad { begin: 3, end: 0, interior: 0 };
/// assert!(check_strict_onnx(0, 3, &wide, PadMode::Reflect).is_err());
/// assert!(check_strict_onnx(0, 4, &wide, PadMode::Reflect).is_ok());
/// assert!(check_strict_onnx(0, 3, &wide, PadMode::Edge).is_ok());
/// ```
pub fn check_strict_onnx(axis: usize, d: i64, p: &AxisPad, mode: PadMode) -> Result<()> {
    if mode != PadMode::Reflect || (p.begin <= 0 && p.end <= 0) {
        return Ok(());
    }
    // (concrete_extent refused crops past the axis: what is left is in 0..=d)
    let cropped = (-i128::from(p.begin)).max(0) + (-i128::from(p.end)).max(0);
    let kept = i128::from(d) - cropped;
    if kept >= 2 && i128::from(p.begin.max(p.end)) < kept {
        return Ok(());
    }
    Err(PadError::BeyondOnnx {
        axis,
        extent: kept.clamp(0, i128::from(i64::MAX)) as i64,
        begin: p.begin,
        end: p.end,
    })
}

/// The output extent of one axis: `begin + end + d + max(d-1, 0) · interior`, with the
/// mode's rules checked when `d` is known.
///
/// # Errors
///
/// - [`PadError::NegativeInterior`] and [`PadError::InteriorMode`] when `p`'s interior
///   padding is negative, or positive outside constant mode;
/// - with `d` known: [`PadError::NegativeOutput`] when the extent would be negative,
///   [`PadError::CropTooLarge`] when a mode other than constant crops more than `d`,
///   [`PadError::EmptyWindow`] when it pads an axis with nothing left after the crops;
/// - [`PadError::Overflow`] when the extent does not fit an `i64` or `D` (known `d`), or
///   its arithmetic overflows (symbolic `d`).
///
/// ```
/// use padkit::shape::axis_output;
/// use padkit::spec::AxisPad;
/// use padkit::PadMode;
/// let p = AxisPad { begin: 1, end: 1, interior: 0 };
/// assert_eq!(axis_output(0, &4usize, &p, PadMode::Wrap).unwrap(), 6);
/// let crop = AxisPad { begin: -3, end: 1, interior: 0 };
/// assert!(axis_output(0, &2usize, &crop, PadMode::Wrap).is_err());
/// ```
pub fn axis_output<D: Dim>(axis: usize, d: &D, p: &AxisPad, mode: PadMode) -> Result<D> {
    let overflow = || PadError::Overflow {
        axis,
        extent: d.to_string(),
        begin: p.begin,
        end: p.end,
        interior: p.interior,
    };
    if p.is_identity() {
        return Ok(d.clone());
    }
    p.check_interior(axis, mode)?;
    match d.to_i64() {
        Some(n) => {
            let out = concrete_extent(axis, n, p, mode)?;
            D::from_i64(out).ok_or_else(overflow)
        }
        None => {
            // Symbolic: d·(r+1) + (b + e − r), which assumes d ≥ 1 when r > 0.
            let r = p.interior;
            let scale = r.checked_add(1).ok_or_else(overflow)?;
            let shift = p
                .begin
                .checked_add(p.end)
                .and_then(|x| x.checked_sub(r))
                .ok_or_else(overflow)?;
            let scaled = if r == 0 {
                Some(d.clone())
            } else {
                d.mul_i64(scale)
            };
            scaled.and_then(|x| x.add_i64(shift)).ok_or_else(overflow)
        }
    }
}

/// Checked output extent of an axis of known extent `d`.
pub(crate) fn concrete_extent(axis: usize, d: i64, p: &AxisPad, mode: PadMode) -> Result<i64> {
    let wide = |x: i64| i128::from(x);
    let inner = wide(d) + wide((d - 1).max(0)) * wide(p.interior);
    let out = inner + wide(p.begin) + wide(p.end);
    if out < 0 {
        return Err(PadError::NegativeOutput {
            axis,
            extent: d,
            begin: p.begin,
            end: p.end,
            interior: p.interior,
            output: out,
        });
    }
    if mode != PadMode::Constant {
        // Negated in i128: `-i64::MIN` does not fit an i64.
        let cropped = (-wide(p.begin)).max(0) + (-wide(p.end)).max(0);
        let window = wide(d) - cropped;
        if window < 0 {
            return Err(PadError::CropTooLarge {
                axis,
                mode,
                extent: d,
                begin: p.begin,
                end: p.end,
                cropped: cropped.min(wide(i64::MAX)) as i64,
                window: window.max(wide(i64::MIN)) as i64,
            });
        }
        if window == 0 && (p.begin > 0 || p.end > 0) {
            return Err(PadError::EmptyWindow {
                axis,
                mode,
                extent: 0,
                begin: p.begin,
                end: p.end,
            });
        }
    }
    i64::try_from(out).map_err(|_| PadError::Overflow {
        axis,
        extent: d.to_string(),
        begin: p.begin,
        end: p.end,
        interior: p.interior,
    })
}

/// The bytes an output of extents `shape` takes at `element_bits` bits an element
/// ([`crate::DType::element_bits`]; 8 a byte), refused before anything is allocated where
/// that is more than `limit` bytes or more than `isize::MAX`, which no buffer holds. An
/// empty output takes none, whatever its other extents. The one check of an output's size
/// that padkit's core and its adapters make.
///
/// # Errors
///
/// [`PadError::TooLarge`] naming the shape, its bytes (`u128::MAX` where they overflow
/// `u128`) and the limit.
///
/// ```
/// use padkit::shape::check_output_size;
/// assert_eq!(check_output_size(&[2, 3], 32, None).unwrap(), 24);
/// assert_eq!(check_output_size(&[3], 4, None).unwrap(), 2); // packed: 12 bits
/// assert!(check_output_size(&[1 << 20, 1 << 20], 8, Some(1 << 30)).is_err());
/// assert!(check_output_size(&[usize::MAX, 2], 8, None).is_err()); // past isize::MAX
/// assert_eq!(check_output_size(&[0, usize::MAX], 64, Some(0)).unwrap(), 0);
/// ```
pub fn check_output_size(shape: &[usize], element_bits: u64, limit: Option<u64>) -> Result<u128> {
    if shape.contains(&0) {
        return Ok(0);
    }
    let bytes = shape
        .iter()
        .try_fold(u128::from(element_bits), |acc, &d| {
            acc.checked_mul(d as u128)
        })
        .map_or(u128::MAX, |bits| bits.div_ceil(8));
    let cap = (isize::MAX as u128).min(limit.map_or(u128::MAX, u128::from));
    if bytes > cap {
        return Err(PadError::TooLarge {
            shape: shape.to_vec(),
            bytes,
            limit: cap,
        });
    }
    Ok(bytes)
}
