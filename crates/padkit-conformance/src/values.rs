//! The element values the cases are made of: distinct input elements of every type, the
//! special constants a fill can be, and tensors built from them.
//!
//! An element is its little-endian bytes (one byte per code for packed types, UTF-8 for
//! strings), so that one representation serves every ONNX type and the reference pads
//! elements without knowing what they mean.

use padkit::dtype::Layout;
use padkit::half::{bf16, f16};
use padkit::{DType, Data, Tensor};

/// One element of some type: its little-endian bytes, its code, or its UTF-8 text.
pub type Element = Vec<u8>;

/// `n` distinct elements of `dtype` (numbers for the number types, so that engines which
/// convert floats keep them; byte patterns for the float8 and float4 codes; `s0`, `s1`, …
/// for strings).
pub fn elements(dtype: DType, n: usize) -> Vec<Element> {
    (0..n).map(|i| element(dtype, i)).collect()
}

fn element(dtype: DType, i: usize) -> Element {
    let x = i as f32 * 0.5 + 0.5;
    let k = i as u8;
    match dtype {
        DType::Float32 => x.to_le_bytes().to_vec(),
        DType::Float64 => f64::from(x).to_le_bytes().to_vec(),
        DType::Float16 => f16::from_f32(x).to_le_bytes().to_vec(),
        DType::BFloat16 => bf16::from_f32(x).to_le_bytes().to_vec(),
        DType::Complex64 => [x.to_le_bytes(), (-x).to_le_bytes()].concat(),
        DType::Complex128 => [f64::from(x).to_le_bytes(), f64::from(-x).to_le_bytes()].concat(),
        DType::Bool => vec![u8::from(!i.is_multiple_of(3))],
        DType::String => format!("s{i}").into_bytes(),
        _ => match dtype.layout() {
            // Codes 1, 2, … wrapping below the code range (never the all-ones code, which
            // the specials use).
            Layout::Packed(bits) => vec![(k % ((1 << bits) - 1)) + 1],
            // Integers 1, 2, …; float8 codes 0x11, 0x12, … (small normal numbers).
            Layout::Bytes(w) => {
                let mut e = vec![0; w];
                e[0] = if w == 1 && !is_int(dtype) {
                    0x11 + k % 0x40
                } else {
                    k.wrapping_add(1)
                };
                e
            }
            Layout::Strings => unreachable!("strings are handled above"),
        },
    }
}

fn is_int(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Int8
            | DType::Int16
            | DType::Int32
            | DType::Int64
            | DType::UInt8
            | DType::UInt16
            | DType::UInt32
            | DType::UInt64
    )
}

/// The zero of `dtype`: what ONNX Pad fills with when no value is given.
pub fn zero(dtype: DType) -> Element {
    match dtype.layout() {
        Layout::Bytes(w) => vec![0; w],
        Layout::Packed(_) => vec![0],
        Layout::Strings => vec![],
    }
}

/// The special constants a fill of `dtype` is checked with, by name: NaN, -0.0 and
/// infinity for the floats; the limits for the integers; `true`; the empty string and a
/// non-ASCII one; the all-ones and sign-bit codes of the float8 and float4 types; the
/// extreme codes of the packed integers.
pub fn specials(dtype: DType) -> Vec<(&'static str, Element)> {
    let float = |nan: Element, neg_zero: Element, inf: Element| {
        vec![("nan", nan), ("negative-zero", neg_zero), ("infinity", inf)]
    };
    let limits = |min: Element, max: Element| vec![("int-min", min), ("int-max", max)];
    match dtype {
        DType::Float32 => float(
            f32::NAN.to_le_bytes().to_vec(),
            (-0.0f32).to_le_bytes().to_vec(),
            f32::INFINITY.to_le_bytes().to_vec(),
        ),
        DType::Float64 => float(
            f64::NAN.to_le_bytes().to_vec(),
            (-0.0f64).to_le_bytes().to_vec(),
            f64::INFINITY.to_le_bytes().to_vec(),
        ),
        DType::Float16 => float(
            f16::NAN.to_le_bytes().to_vec(),
            f16::NEG_ZERO.to_le_bytes().to_vec(),
            f16::INFINITY.to_le_bytes().to_vec(),
        ),
        DType::BFloat16 => float(
            bf16::NAN.to_le_bytes().to_vec(),
            bf16::NEG_ZERO.to_le_bytes().to_vec(),
            bf16::INFINITY.to_le_bytes().to_vec(),
        ),
        DType::Complex64 => vec![(
            "nan-and-negative-zero",
            [f32::NAN.to_le_bytes(), (-0.0f32).to_le_bytes()].concat(),
        )],
        DType::Complex128 => vec![(
            "nan-and-negative-zero",
            [f64::NAN.to_le_bytes(), (-0.0f64).to_le_bytes()].concat(),
        )],
        DType::Int8 => limits(vec![0x80], vec![0x7f]),
        DType::Int16 => limits(
            i16::MIN.to_le_bytes().to_vec(),
            i16::MAX.to_le_bytes().to_vec(),
        ),
        DType::Int32 => limits(
            i32::MIN.to_le_bytes().to_vec(),
            i32::MAX.to_le_bytes().to_vec(),
        ),
        DType::Int64 => limits(
            i64::MIN.to_le_bytes().to_vec(),
            i64::MAX.to_le_bytes().to_vec(),
        ),
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
            vec![("uint-max", vec![0xff; zero(dtype).len()])]
        }
        DType::Bool => vec![("true", vec![1])],
        DType::String => vec![("empty-string", vec![]), ("unicode", "é∅".into())],
        DType::Int4 => limits(vec![0x8], vec![0x7]),
        DType::Int2 => limits(vec![0b10], vec![0b01]),
        DType::UInt4 => vec![("uint-max", vec![0xf])],
        DType::UInt2 => vec![("uint-max", vec![0b11])],
        DType::Float4E2M1 => vec![("code-all-ones", vec![0xf]), ("negative-zero", vec![0x8])],
        _ => vec![("code-all-ones", vec![0xff]), ("code-sign-bit", vec![0x80])],
    }
}

/// A tensor of `dtype` and `shape` holding `elements` in row-major order.
///
/// # Panics
///
/// When the elements do not fit the type or the shape (the catalogue's own values
/// always do).
pub fn tensor(dtype: DType, shape: &[usize], elements: &[Element]) -> Tensor {
    let made = match dtype.layout() {
        Layout::Strings => {
            let strings = elements
                .iter()
                .map(|e| String::from_utf8_lossy(e).into_owned());
            Tensor::new(dtype, shape.to_vec(), Data::Strings(strings.collect()))
        }
        Layout::Packed(_) => Tensor::from_codes(dtype, shape, &elements.concat()),
        Layout::Bytes(_) => Tensor::new(dtype, shape.to_vec(), Data::Bytes(elements.concat())),
    };
    made.expect("the catalogue's elements fit their type and shape")
}

/// An `f32` (a `value` attribute of Pad-1 and Pad-2) as an element of `dtype`, one of
/// the float types those versions take.
pub fn from_f32(dtype: DType, x: f32) -> Element {
    match dtype {
        DType::Float64 => f64::from(x).to_le_bytes().to_vec(),
        DType::Float16 => f16::from_f32(x).to_le_bytes().to_vec(),
        _ => x.to_le_bytes().to_vec(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn elements_are_little_endian_and_distinct() {
        use padkit::DType;
        let e = crate::values::elements(DType::Int16, 2);
        assert_eq!(e, vec![vec![1, 0], vec![2, 0]]);
    }

    #[test]
    fn zero_is_the_zero_bit_pattern() {
        use padkit::DType;
        assert_eq!(crate::values::zero(DType::Float16), vec![0, 0]);
        assert_eq!(crate::values::zero(DType::String), Vec::<u8>::new());
    }

    #[test]
    fn specials_of_ints_are_their_limits() {
        use padkit::DType;
        let s = crate::values::specials(DType::Int64);
        assert_eq!(s[0], ("int-min", i64::MIN.to_le_bytes().to_vec()));
    }

    #[test]
    fn tensors_of_packed_types_hold_codes() {
        use crate::values::{elements, tensor};
        use padkit::DType;
        let t = tensor(DType::UInt4, &[3], &elements(DType::UInt4, 3));
        assert_eq!(t.unpacked_codes().unwrap(), vec![1, 2, 3]);
    }

    #[test]
    fn from_f32_converts_to_the_type() {
        use padkit::DType;
        let e = crate::values::from_f32(DType::Float64, 1.5);
        assert_eq!(e, 1.5f64.to_le_bytes().to_vec());
    }
}
