//! Sub-byte element types (4- and 2-bit), packed the ONNX way: the first element of each
//! byte sits in its lowest bits.

/// One code per element (`0..2^bits`) from packed bytes.
pub(crate) fn unpack(bytes: &[u8], bits: u32, n: usize) -> Vec<u8> {
    let per_byte = (8 / bits) as usize;
    let mask = (1u8 << bits) - 1;
    (0..n)
        .map(|i| (bytes[i / per_byte] >> ((i % per_byte) as u32 * bits)) & mask)
        .collect()
}

/// Packed bytes from one code per element; unused high bits of the last byte are zero.
pub(crate) fn pack(codes: &[u8], bits: u32) -> Vec<u8> {
    let per_byte = (8 / bits) as usize;
    let mask = (1u8 << bits) - 1;
    codes
        .chunks(per_byte)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |acc, (i, &v)| acc | ((v & mask) << (i as u32 * bits)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int4_low_nibble_first() {
        // ONNX: [1, 2, 3] as int4 packs to [0x21, 0x03].
        assert_eq!(pack(&[1, 2, 3], 4), vec![0x21, 0x03]);
        assert_eq!(unpack(&[0x21, 0x03], 4, 3), vec![1, 2, 3]);
    }

    #[test]
    fn int2_four_per_byte() {
        assert_eq!(pack(&[1, 2, 3, 0, 1], 2), vec![0b00_11_10_01, 0b01]);
        assert_eq!(unpack(&[0b00_11_10_01, 0b01], 2, 5), vec![1, 2, 3, 0, 1]);
    }
}
