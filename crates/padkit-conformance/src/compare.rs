//! Comparing outputs (exactly, or within a tolerance for whole models) and showing a few
//! of their elements, without ever formatting a whole tensor.

use padkit::half::{bf16, f16};
use padkit::{DType, Data, Tensor};

/// How close a float must be to the expected value: `|got − want| ≤ atol + rtol·|want|`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
}

impl Tolerance {
    /// What the ONNX backend tests allow for whole models.
    ///
    /// ```
    /// use padkit_conformance::compare::Tolerance;
    /// assert_eq!((Tolerance::ONNX_BACKEND.rtol, Tolerance::ONNX_BACKEND.atol), (1e-3, 1e-7));
    /// ```
    pub const ONNX_BACKEND: Tolerance = Tolerance {
        rtol: 1e-3,
        atol: 1e-7,
    };
}

/// `None` when `got` matches `want` (bit-exact, except that any NaN of `float`,
/// `double`, `float16` or `bfloat16` matches any NaN; or within `tolerance` for those
/// types when one is given); otherwise where and how they first differ.
///
/// ```
/// use padkit::Tensor;
/// use padkit_conformance::compare::{first_difference, Tolerance};
/// let a = Tensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
/// let b = Tensor::from_slice(&[2], &[1.0f32, 2.0001]).unwrap();
/// assert!(first_difference(&a, &b, None).unwrap().contains("index 1"));
/// assert_eq!(first_difference(&a, &b, Some(Tolerance::ONNX_BACKEND)), None);
/// ```
pub fn first_difference(
    got: &Tensor,
    want: &Tensor,
    tolerance: Option<Tolerance>,
) -> Option<String> {
    if got.dtype() != want.dtype() {
        return Some(format!(
            "type {} but expected {}",
            got.dtype(),
            want.dtype()
        ));
    }
    if got.shape() != want.shape() {
        return Some(format!(
            "shape {:?} but expected {:?}",
            got.shape(),
            want.shape()
        ));
    }
    let width = element_width(got);
    let at = match (got.data(), want.data()) {
        (Data::Strings(g), Data::Strings(w)) => g.iter().zip(w).position(|(a, b)| a != b),
        (Data::Bytes(g), Data::Bytes(w)) => match (tolerance, float_reader(got.dtype())) {
            (Some(t), Some(read)) => {
                g.chunks_exact(width)
                    .zip(w.chunks_exact(width))
                    .position(|(a, b)| {
                        let (a, b) = (read(a), read(b));
                        !((a - b).abs() <= t.atol + t.rtol * b.abs()
                            || (a.is_nan() && b.is_nan())
                            || a == b)
                    })
            }
            _ if got.unpacked_codes().is_some() => got
                .unpacked_codes()
                .zip(want.unpacked_codes())
                .and_then(|(a, b)| a.iter().zip(&b).position(|(x, y)| x != y)),
            (None, read) => g
                .chunks_exact(width)
                .zip(w.chunks_exact(width))
                .position(|(a, b)| a != b && !read.is_some_and(|r| r(a).is_nan() && r(b).is_nan())),
            (Some(_), None) => g
                .chunks_exact(width)
                .zip(w.chunks_exact(width))
                .position(|(a, b)| a != b),
        },
        _ => Some(0),
    }?;
    Some(format!(
        "first difference at index {at}: got {}, expected {}",
        element(got, at),
        element(want, at)
    ))
}

/// The first `n` elements of `t` as text, with `, …` when there are more.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
/// assert_eq!(padkit_conformance::compare::head(&t, 2), "1, 2, …");
/// ```
pub fn head(t: &Tensor, n: usize) -> String {
    let shown: Vec<String> = (0..t.len().min(n)).map(|i| element(t, i)).collect();
    let more = if t.len() > n { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// Element `i` of `t` as text: numbers in decimal (exact, NaN-aware), other fixed-size
/// types as hex bytes, packed codes in hex, strings quoted.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1.5f32, f32::NAN]).unwrap();
/// assert_eq!(padkit_conformance::compare::element(&t, 0), "1.5");
/// ```
pub fn element(t: &Tensor, i: usize) -> String {
    if let Some(codes) = t.unpacked_codes() {
        return codes.get(i).map_or_else(String::new, |c| format!("{c:#x}"));
    }
    match t.data() {
        Data::Strings(s) => s.get(i).map_or_else(String::new, |x| format!("{x:?}")),
        Data::Bytes(b) => {
            let w = element_width(t);
            let Some(c) = b.get(i * w..(i + 1) * w) else {
                return String::new();
            };
            match (t.dtype(), float_reader(t.dtype())) {
                (
                    DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16,
                    Some(read),
                ) => read(c).to_string(),
                (DType::Int8, _) => (c[0] as i8).to_string(),
                (DType::UInt8, _) => c[0].to_string(),
                (DType::Bool, _) => (c[0] != 0).to_string(),
                (DType::Int16, _) => i16::from_le_bytes([c[0], c[1]]).to_string(),
                (DType::UInt16, _) => u16::from_le_bytes([c[0], c[1]]).to_string(),
                (DType::Int32, _) => {
                    i32::from_le_bytes(c.try_into().unwrap_or_default()).to_string()
                }
                (DType::UInt32, _) => {
                    u32::from_le_bytes(c.try_into().unwrap_or_default()).to_string()
                }
                (DType::Int64, _) => {
                    i64::from_le_bytes(c.try_into().unwrap_or_default()).to_string()
                }
                (DType::UInt64, _) => {
                    u64::from_le_bytes(c.try_into().unwrap_or_default()).to_string()
                }
                _ => c.iter().rev().map(|b| format!("{b:02x}")).collect(),
            }
        }
    }
}

fn element_width(t: &Tensor) -> usize {
    match t.dtype().layout() {
        padkit::dtype::Layout::Bytes(w) => w,
        _ => 1,
    }
}

/// Reads one element of a float type as f64.
fn float_reader(dtype: DType) -> Option<fn(&[u8]) -> f64> {
    Some(match dtype {
        DType::Float32 => |c| f64::from(f32::from_le_bytes(c.try_into().unwrap_or_default())),
        DType::Float64 => |c| f64::from_le_bytes(c.try_into().unwrap_or_default()),
        DType::Float16 => |c| f64::from(f16::from_le_bytes(c.try_into().unwrap_or_default())),
        DType::BFloat16 => |c| f64::from(bf16::from_le_bytes(c.try_into().unwrap_or_default())),
        _ => return None,
    })
}
