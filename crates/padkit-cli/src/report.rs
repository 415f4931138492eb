//! Comparing outputs exactly (pad copies values: bit-exact, NaN-aware) and printing them.

use padkit::{Data, Tensor};

/// `None` when equal; otherwise where and how they first differ.
pub fn first_difference(got: &Tensor, want: &Tensor) -> Option<String> {
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
    let (g, w) = (elements(got), elements(want));
    g.iter().zip(&w).position(|(a, b)| a != b).map(|i| {
        format!(
            "first difference at index {i}: got {}, expected {}",
            g[i], w[i]
        )
    })
}

/// Each element as text (bytes in hex for the fixed-size types: exact, NaN-aware).
pub fn elements(t: &Tensor) -> Vec<String> {
    match (t.data(), t.unpacked_codes()) {
        (_, Some(codes)) => codes.iter().map(|c| format!("{c:#x}")).collect(),
        (Data::Strings(s), _) => s.iter().map(|x| format!("{x:?}")).collect(),
        (Data::Bytes(b), _) => match t.dtype().layout() {
            padkit::Layout::Bytes(width) => b.chunks(width).map(|c| display(t, c)).collect(),
            _ => vec![],
        },
    }
}

fn display(t: &Tensor, c: &[u8]) -> String {
    use padkit::DType::*;
    match (t.dtype(), c.len()) {
        (Float32, 4) => f32::from_le_bytes(c.try_into().unwrap_or([0; 4])).to_string(),
        (Int32, 4) => i32::from_le_bytes(c.try_into().unwrap_or([0; 4])).to_string(),
        (Float64, 8) => f64::from_le_bytes(c.try_into().unwrap_or([0; 8])).to_string(),
        (Int64, 8) => i64::from_le_bytes(c.try_into().unwrap_or([0; 8])).to_string(),
        _ => c.iter().rev().map(|b| format!("{b:02x}")).collect(),
    }
}
