//! padkit tensors as tract's and back.

use anyhow::{Context, Result, anyhow};
use padkit::{DType, Data};
use tract_onnx::prelude::*;

/// The tract datum type of an ONNX type, when tract has one.
///
/// ```
/// use padkit::DType;
/// assert!(padkit_onnx::tract::tract_type(DType::Float16).is_ok());
/// let err = padkit_onnx::tract::tract_type(DType::BFloat16).unwrap_err();
/// assert_eq!(err.to_string(), "tract cannot hold element type bfloat16");
/// ```
pub fn tract_type(dtype: DType) -> Result<DatumType> {
    padkit_tract::datum_type(dtype).ok_or_else(|| anyhow!("tract cannot hold element type {dtype}"))
}

/// A padkit tensor as a tract tensor.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1i32, 2]).unwrap();
/// let tt = padkit_onnx::tract::to_tract(&t).unwrap();
/// assert_eq!(tt.shape(), &[2]);
/// ```
pub fn to_tract(t: &padkit::Tensor) -> Result<Tensor> {
    let dt = tract_type(t.dtype())?;
    match t.data() {
        Data::Strings(s) => {
            Ok(tract_ndarray::ArrayD::from_shape_vec(t.shape(), s.clone())?.into_tensor())
        }
        Data::Bytes(b) => {
            // SAFETY: `padkit::Tensor::new` checked that `b` holds exactly the shape's
            // elements of `dt`'s width, and that bool bytes are 0 or 1; every other
            // fixed-size tract type accepts any bit pattern.
            let t = unsafe { Tensor::from_raw_dt(dt, t.shape(), b) };
            t.map_err(|e| anyhow!("{e:#}"))
        }
    }
}

/// A tract tensor as a padkit tensor.
///
/// ```
/// use tract_onnx::prelude::*;
/// let t = padkit_onnx::tract::from_tract(&tensor1(&[1u8, 2])).unwrap();
/// assert_eq!(t.to_vec::<u8>().unwrap(), vec![1, 2]);
/// ```
pub fn from_tract(t: &Tensor) -> Result<padkit::Tensor> {
    let dtype = padkit_tract::onnx_type(t.datum_type())
        .with_context(|| format!("no ONNX type for tract type {:?}", t.datum_type()))?;
    let data = match dtype {
        DType::String => Data::Strings(
            t.try_as_plain_ram()
                .and_then(|r| Ok(r.as_slice::<String>()?.to_vec()))
                .map_err(|e| anyhow!("{e:#}"))?,
        ),
        _ => Data::Bytes(t.as_bytes().to_vec()),
    };
    Ok(padkit::Tensor::new(dtype, t.shape().to_vec(), data)?)
}
