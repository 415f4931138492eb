//! padkit tensors as tract's and back, through the type table of [`crate::datum_type`].

use padkit::{DType, Data};
use tract_hir::internal::*;

/// A padkit tensor as a tract tensor.
///
/// # Errors
///
/// When tract cannot hold the tensor's element type (bfloat16, the float8s, the 4- and
/// 2-bit types, complex): the error names the type.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1i32, 2]).unwrap();
/// let tt = padkit_tract::to_tract(&t).unwrap();
/// assert_eq!(tt.shape(), &[2]);
/// let bf16 = padkit::Tensor::scalar(padkit::half::bf16::ONE);
/// let err = padkit_tract::to_tract(&bf16).unwrap_err();
/// assert_eq!(err.to_string(), "tract cannot hold element type bfloat16");
/// ```
pub fn to_tract(t: &padkit::Tensor) -> TractResult<Tensor> {
    let dt = crate::datum_type(t.dtype())
        .ok_or_else(|| format_err!("tract cannot hold element type {}", t.dtype()))?;
    match t.data() {
        Data::Strings(s) => {
            Ok(tract_ndarray::ArrayD::from_shape_vec(t.shape(), s.clone())?.into_tensor())
        }
        // SAFETY: `padkit::Tensor::new` checked that `b` holds exactly the shape's
        // elements of `dt`'s width, and that bool bytes are 0 or 1; every other
        // fixed-size tract type accepts any bit pattern.
        Data::Bytes(b) => unsafe { Tensor::from_raw_dt(dt, t.shape(), b) },
    }
}

/// A tract tensor as a padkit tensor.
///
/// # Errors
///
/// When the tensor's datum type has no ONNX element type (tract's `TDim`, `Blob` or
/// quantized types), naming it.
///
/// ```
/// use tract_onnx::prelude::*;
/// let t = padkit_tract::from_tract(&tensor1(&[1u8, 2])).unwrap();
/// assert_eq!(t.to_vec::<u8>().unwrap(), vec![1, 2]);
/// ```
pub fn from_tract(t: &Tensor) -> TractResult<padkit::Tensor> {
    let dtype = crate::onnx_type(t.datum_type())
        .with_context(|| format!("no ONNX type for tract type {:?}", t.datum_type()))?;
    let data = match dtype {
        DType::String => Data::Strings(t.try_as_plain_ram()?.as_slice::<String>()?.to_vec()),
        _ => Data::Bytes(t.as_bytes().to_vec()),
    };
    Ok(padkit::Tensor::new(dtype, t.shape().to_vec(), data)?)
}
