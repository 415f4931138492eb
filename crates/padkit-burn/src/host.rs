//! padkit's kernels on a Burn `TensorData`: the body of the native path.

use burn::tensor::{DType, TensorData};
use padkit::half::{bf16, f16};
use padkit::{PadError, PadSpec, pad_adjoint, pad_bytes};

use crate::Fill;
use crate::fill::width;

/// Pads `data` (any element type Burn holds) with the byte-width kernel.
pub(crate) fn pad_data(
    data: &TensorData,
    spec: &PadSpec,
    fill: Fill,
) -> Result<TensorData, PadError> {
    let dtype = data.dtype();
    let (shape, out) = pad_bytes(
        data.as_bytes(),
        width(dtype)?,
        data.shape(),
        spec,
        &fill.bytes(dtype)?,
    )?;
    Ok(TensorData::from_bytes_vec(out, shape, dtype))
}

/// The adjoint of the pad of an input of `in_shape`, applied to the gradient `grad`.
pub(crate) fn adjoint_data(
    grad: &TensorData,
    in_shape: &[usize],
    spec: &PadSpec,
) -> Result<TensorData, PadError> {
    fn typed<T: burn::tensor::Element + Copy + Default + std::ops::AddAssign>(
        grad: &TensorData,
        in_shape: &[usize],
        spec: &PadSpec,
    ) -> Result<TensorData, PadError> {
        let g = grad
            .as_slice::<T>()
            .map_err(|e| PadError::UnsupportedType(format!("{e:?}")))?;
        Ok(TensorData::new(
            pad_adjoint(g, in_shape, spec)?,
            in_shape.to_vec(),
        ))
    }
    match grad.dtype() {
        DType::F64 => typed::<f64>(grad, in_shape, spec),
        DType::F32 => typed::<f32>(grad, in_shape, spec),
        DType::F16 => typed::<f16>(grad, in_shape, spec),
        DType::BF16 => typed::<bf16>(grad, in_shape, spec),
        other => Err(PadError::UnsupportedType(format!(
            "gradient of type {other:?}"
        ))),
    }
}
