//! `.npy` files as padkit tensors: numbers, bool and complex in either byte order and
//! either memory order (Fortran-order files are transposed to row-major).

use anyhow::{Context, Result, bail, ensure};
use npyz::{DType as NpyType, Endianness, NpyHeader, Order, TypeChar};
use padkit::{DType, Data, Tensor};

/// Reads a `.npy` file's bytes; `origin` names the file in errors.
///
/// # Errors
///
/// The bytes are not a `.npy` file, or hold an element type padkit does not read, a shape
/// that does not match the data, or a data length other than the header's; the error names
/// `origin`.
///
/// ```
/// use npyz::WriterBuilder;
/// let mut bytes = vec![];
/// let mut w = npyz::WriteOptions::<f32>::new().default_dtype().shape(&[2]).writer(&mut bytes).begin_nd().unwrap();
/// w.extend([1.0f32, 2.0]).unwrap();
/// w.finish().unwrap();
/// let t = padkit_onnx_tools::npy::read_npy(&bytes, "x.npy").unwrap();
/// assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
/// ```
pub fn read_npy(bytes: &[u8], origin: &str) -> Result<Tensor> {
    check_shape_text(bytes, origin)?;
    let mut data = bytes;
    let header = NpyHeader::from_reader(&mut data)
        .with_context(|| format!("{origin} is not a .npy file (its header does not parse)"))?;
    let NpyType::Plain(ts) = header.dtype() else {
        bail!("{origin}: structured numpy types are not supported");
    };
    let descr = ts.to_string();
    let dtype = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Bool, 1) => DType::Bool,
        (TypeChar::Int, 1) => DType::Int8,
        (TypeChar::Int, 2) => DType::Int16,
        (TypeChar::Int, 4) => DType::Int32,
        (TypeChar::Int, 8) => DType::Int64,
        (TypeChar::Uint, 1) => DType::UInt8,
        (TypeChar::Uint, 2) => DType::UInt16,
        (TypeChar::Uint, 4) => DType::UInt32,
        (TypeChar::Uint, 8) => DType::UInt64,
        (TypeChar::Float, 2) => DType::Float16,
        (TypeChar::Float, 4) => DType::Float32,
        (TypeChar::Float, 8) => DType::Float64,
        (TypeChar::Complex, 8) => DType::Complex64,
        (TypeChar::Complex, 16) => DType::Complex128,
        _ => bail!("{origin}: numpy type {descr:?} is not supported (use a .pb)"),
    };
    let shape = header
        .shape()
        .iter()
        .map(|&d| usize::try_from(d))
        .collect::<Result<Vec<usize>, _>>()
        .with_context(|| {
            format!(
                "{origin}: shape {:?} does not fit this machine",
                header.shape()
            )
        })?;
    let width = ts.size_field() as usize;
    let expected = shape
        .iter()
        .try_fold(width, |acc, &d| acc.checked_mul(d))
        .filter(|&b| b <= isize::MAX as usize)
        .with_context(|| {
            format!("{origin}: shape {shape:?} has more elements than memory can address")
        })?;
    ensure!(
        data.len() >= expected,
        "{origin} is truncated: its header says shape {shape:?} of {descr} ({expected} bytes of data) \
         but it holds {} bytes ({} missing)",
        data.len(),
        expected - data.len()
    );
    ensure!(
        data.len() == expected,
        "{origin}: {} bytes follow the {expected} bytes of data its header describes",
        data.len() - expected
    );
    let mut elements = data.to_vec();
    if ts.endianness() == Endianness::Big {
        // Complex numbers are two floats, each in the file's byte order.
        let part = if ts.type_char() == TypeChar::Complex {
            width / 2
        } else {
            width
        };
        elements.chunks_exact_mut(part).for_each(<[u8]>::reverse);
    }
    if header.order() == Order::Fortran {
        elements = fortran_to_c(&elements, &shape, width);
    }
    Tensor::new(dtype, shape, Data::Bytes(elements)).map_err(|e| anyhow::anyhow!("{origin}: {e}"))
}

/// Elements of `width` bytes stored in Fortran (column-major) order, rearranged into
/// row-major order.
fn fortran_to_c(data: &[u8], shape: &[usize], width: usize) -> Vec<u8> {
    // Fortran strides: the first axis varies fastest.
    let strides: Vec<usize> = shape
        .iter()
        .scan(1, |acc, &d| {
            let s = *acc;
            *acc *= d;
            Some(s)
        })
        .collect();
    let mut out = Vec::with_capacity(data.len());
    let mut index = vec![0usize; shape.len()];
    for _ in 0..data.len() / width.max(1) {
        let at: usize = index.iter().zip(&strides).map(|(i, s)| i * s).sum();
        out.extend_from_slice(&data[at * width..(at + 1) * width]);
        for a in (0..shape.len()).rev() {
            index[a] += 1;
            if index[a] < shape[a] {
                break;
            }
            index[a] = 0;
        }
    }
    out
}

/// Refuses headers whose shape multiplies past `u64::MAX` before the header parser (which
/// multiplies without a check) sees them.
fn check_shape_text(bytes: &[u8], origin: &str) -> Result<()> {
    // The header is an ASCII Python dict after a 10- or 12-byte preamble; look at no more
    // than its first 64 KiB.
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 16)]);
    let Some(tuple) = text
        .split_once("'shape'")
        .and_then(|(_, rest)| rest.split_once('('))
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(inside, _)| inside)
    else {
        return Ok(()); // no shape: the parser reports it
    };
    // The parser multiplies the extents in both directions, so any product of non-zero
    // extents must fit a u64. (Extents that are not numbers are the parser's to report.)
    let fits = tuple
        .split(',')
        .filter_map(|d| d.trim().trim_end_matches('L').parse::<u128>().ok())
        .try_fold(1u128, |acc, d| {
            acc.checked_mul(d.max(1))
                .filter(|&n| n <= u128::from(u64::MAX))
        })
        .is_some();
    ensure!(
        fits,
        "{origin}: shape ({tuple}) has more elements than memory can address"
    );
    Ok(())
}
