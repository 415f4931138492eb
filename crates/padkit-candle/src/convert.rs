//! padkit's dynamically typed tensor and candle's, both ways: what padkit's conformance
//! engines and tests feed candle and read back.

use candle_core::{CpuStorage, DType, Device, Storage, Tensor};
use padkit::{DType as OnnxType, Data};

use crate::Error;

/// candle's dtype for an ONNX element type, where candle has one. candle stores
/// `float4e2m1` one code per byte; it has no bool, unsigned 16/64-bit, 8-bit signed,
/// complex, string, other 8-bit float or 2/4-bit integer type.
///
/// ```
/// use padkit_candle::convert::{candle_type, onnx_type};
/// assert_eq!(candle_type(padkit::DType::Float8E4M3FN), Some(candle_core::DType::F8E4M3));
/// assert_eq!(candle_type(padkit::DType::Bool), None);
/// assert_eq!(onnx_type(candle_core::DType::F6E2M3), None);
/// ```
pub fn candle_type(dtype: OnnxType) -> Option<DType> {
    TYPES.iter().find(|(o, _)| *o == dtype).map(|&(_, c)| c)
}

/// The ONNX element type of a candle dtype, where ONNX has one (it has no 6-bit float).
pub fn onnx_type(dtype: DType) -> Option<OnnxType> {
    TYPES.iter().find(|(_, c)| *c == dtype).map(|&(o, _)| o)
}

/// The two-way table of [`candle_type`] and [`onnx_type`].
const TYPES: [(OnnxType, DType); 12] = [
    (OnnxType::UInt8, DType::U8),
    (OnnxType::UInt32, DType::U32),
    (OnnxType::Int16, DType::I16),
    (OnnxType::Int32, DType::I32),
    (OnnxType::Int64, DType::I64),
    (OnnxType::BFloat16, DType::BF16),
    (OnnxType::Float16, DType::F16),
    (OnnxType::Float32, DType::F32),
    (OnnxType::Float64, DType::F64),
    (OnnxType::Float8E4M3FN, DType::F8E4M3),
    (OnnxType::Float4E2M1, DType::F4),
    (OnnxType::Float8E8M0, DType::F8E8M0),
];

/// A padkit tensor as a candle tensor on `device`.
///
/// # Errors
///
/// [`Error::Pad`] ([`padkit::PadError::UnsupportedType`]) when candle has no dtype for
/// the tensor's type; [`Error::Candle`] when candle fails to make it.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1u8, 2]).unwrap();
/// let c = padkit_candle::convert::to_candle(&t, &candle_core::Device::Cpu).unwrap();
/// assert_eq!(c.to_vec1::<u8>().unwrap(), [1, 2]);
/// ```
pub fn to_candle(t: &padkit::Tensor, device: &Device) -> Result<Tensor, Error> {
    let unsupported = || padkit::PadError::UnsupportedType(format!("{} in candle", t.dtype()));
    let dtype = candle_type(t.dtype()).ok_or_else(unsupported)?;
    let bytes = match (t.unpacked_codes(), t.data()) {
        (Some(codes), _) => codes,
        (None, Data::Bytes(b)) => b.clone(),
        (None, Data::Strings(_)) => return Err(unsupported().into()),
    };
    Ok(Tensor::from_raw_buffer(&bytes, dtype, t.shape(), device)?)
}

/// A candle tensor (on any device) as a padkit tensor.
///
/// # Errors
///
/// [`Error::Pad`] when ONNX has no type for the tensor's dtype (candle's 6-bit floats);
/// [`Error::Candle`] when candle cannot bring it to the CPU.
///
/// ```
/// let c = candle_core::Tensor::new(&[[1i64], [2]], &candle_core::Device::Cpu).unwrap();
/// let t = padkit_candle::convert::from_candle(&c).unwrap();
/// assert_eq!((t.shape(), t.to_vec::<i64>().unwrap()), (&[2, 1][..], vec![1, 2]));
/// ```
pub fn from_candle(t: &Tensor) -> Result<padkit::Tensor, Error> {
    let dtype = onnx_type(t.dtype()).ok_or_else(|| {
        padkit::PadError::UnsupportedType(format!("candle's {} in ONNX", t.dtype().as_str()))
    })?;
    let t = t.to_device(&Device::Cpu)?.contiguous()?;
    let (storage, layout) = t.storage_and_layout();
    let Storage::Cpu(cpu) = &*storage else {
        return Err(
            candle_core::Error::msg("a tensor brought to the CPU is not on the CPU").into(),
        );
    };
    let (start, end) = layout
        .contiguous_offsets()
        .ok_or_else(|| candle_core::Error::msg("a contiguous copy that is not contiguous"))?;
    // (candle's safetensors loader stores its 4- and 6-bit floats packed, shorter than
    // one byte an element)
    let bytes = element_bytes(cpu, start..end).ok_or_else(|| {
        candle_core::Error::msg(format!(
            "a {} tensor of {} elements whose storage holds fewer: padkit reads candle's \
             code types one byte an element",
            t.dtype().as_str(),
            t.elem_count()
        ))
    })?;
    let shape = t.dims();
    Ok(if dtype == OnnxType::Float4E2M1 {
        padkit::Tensor::from_codes(dtype, shape, bytes)?
    } else {
        padkit::Tensor::new(dtype, shape.to_vec(), Data::Bytes(bytes.to_vec()))?
    })
}

/// The bytes of the elements `range` of a CPU storage, if it holds them.
fn element_bytes(storage: &CpuStorage, range: std::ops::Range<usize>) -> Option<&[u8]> {
    macro_rules! bytes {
        ($($variant:ident),*) => {
            match storage {
                $(CpuStorage::$variant(v) => v.get(range).map(bytemuck::cast_slice),)*
            }
        };
    }
    bytes!(
        U8, U32, I16, I32, I64, BF16, F16, F32, F64, F8E4M3, F6E2M3, F6E3M2, F4, F8E8M0
    )
}
