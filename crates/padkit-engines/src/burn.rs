//! The `burn` engine: the Pad nodes of a Pad graph through padkit-burn on Burn's Flex
//! backend, for the element types Burn holds.

use anyhow::{Context, Result, bail};
use burn::tensor::{Bool, Device, Int, Tensor as BurnTensor, TensorData};
use padkit::half::{bf16, f16};
use padkit::{DType, Data, PadError, PadSpec, Tensor};
use padkit_burn::dtype::burn_type;
use padkit_burn::{Fill, pad_with};

use crate::pad_graph::{PadCall, PadResult};

/// The first element of `v` as `T`.
pub(crate) fn first<T: padkit::Element>(v: &Tensor) -> Result<T> {
    v.to_vec::<T>()?
        .first()
        .copied()
        .context("constant value is empty")
}

/// A constant padkit-burn's [`Fill`] cannot hold: a `uint64` above `i64::MAX`.
#[derive(Debug, thiserror::Error)]
#[error("padkit-burn's Fill holds integers as i64: a uint64 constant above i64::MAX")]
pub(crate) struct Unsupported;

/// The constant value tensor as a Burn fill ([`Unsupported`] in the error chain for a
/// constant the fill cannot hold).
pub(crate) fn fill_of(v: &Tensor) -> Result<Fill> {
    Ok(match v.dtype() {
        DType::Float32 => Fill::Float(f64::from(first::<f32>(v)?)),
        DType::Float64 => Fill::Float(first::<f64>(v)?),
        DType::Float16 => Fill::Float(f64::from(first::<f16>(v)?)),
        DType::BFloat16 => Fill::Float(f64::from(first::<bf16>(v)?)),
        DType::Int8 => Fill::Int(i64::from(first::<i8>(v)?)),
        DType::Int16 => Fill::Int(i64::from(first::<i16>(v)?)),
        DType::Int32 => Fill::Int(i64::from(first::<i32>(v)?)),
        DType::Int64 => Fill::Int(first::<i64>(v)?),
        DType::UInt8 => Fill::Int(i64::from(first::<u8>(v)?)),
        DType::UInt16 => Fill::Int(i64::from(first::<u16>(v)?)),
        DType::UInt32 => Fill::Int(i64::from(first::<u32>(v)?)),
        DType::UInt64 => Fill::Int(i64::try_from(first::<u64>(v)?).map_err(|_| Unsupported)?),
        DType::Bool => Fill::Bool(matches!(v.data(), Data::Bytes(b) if b.first() == Some(&1))),
        other => bail!("constant value of type {other} has no Burn fill"),
    })
}

fn pad_rank<const D: usize>(
    data: TensorData,
    spec: &PadSpec,
    fill: Fill,
) -> Result<TensorData, PadError> {
    let dev = Device::flex();
    let dtype = data.dtype();
    Ok(if dtype.is_float() {
        pad_with(BurnTensor::<D>::from_data(data, (&dev, dtype)), spec, fill)?.into_data()
    } else if dtype.is_bool() {
        pad_with(
            BurnTensor::<D, Bool>::from_data(data, (&dev, dtype)),
            spec,
            fill,
        )?
        .into_data()
    } else {
        pad_with(
            BurnTensor::<D, Int>::from_data(data, (&dev, dtype)),
            spec,
            fill,
        )?
        .into_data()
    })
}

/// The data as Burn's, when Burn has its element type.
pub(crate) fn to_burn(x: &Tensor) -> Option<TensorData> {
    let (Some(burn), Data::Bytes(bytes)) = (burn_type(x.dtype()), x.data()) else {
        return None;
    };
    Some(TensorData::from_bytes_vec(
        bytes.clone(),
        x.shape().to_vec(),
        burn,
    ))
}

/// Burn's data as padkit's, of type `dtype`.
pub(crate) fn from_burn(dtype: DType, out: &TensorData) -> Result<Tensor> {
    Ok(Tensor::new(
        dtype,
        out.shape().to_vec(),
        Data::Bytes(out.as_bytes().to_vec()),
    )?)
}

/// Runs one Pad node on Flex, as `settings` say.
pub fn pad(call: &PadCall, settings: crate::RunSettings) -> Result<PadResult> {
    let dtype = call.x.dtype();
    let Some(data) = to_burn(&call.x) else {
        return Ok(PadResult::Unsupported(format!(
            "Burn has no element type {dtype}"
        )));
    };
    let fill = match call.value.as_ref().map(fill_of).transpose() {
        Ok(fill) => fill.unwrap_or_default(),
        Err(e) if e.is::<Unsupported>() => return Ok(PadResult::Unsupported(e.to_string())),
        Err(e) => return Err(e),
    };
    let spec = call.spec_for(settings);
    let out = match call.x.shape().len() {
        1 => pad_rank::<1>(data, &spec, fill),
        2 => pad_rank::<2>(data, &spec, fill),
        3 => pad_rank::<3>(data, &spec, fill),
        4 => pad_rank::<4>(data, &spec, fill),
        5 => pad_rank::<5>(data, &spec, fill),
        6 => pad_rank::<6>(data, &spec, fill),
        r => {
            return Ok(PadResult::Unsupported(format!(
                "rank {r}: the burn engine handles ranks 1 to 6"
            )));
        }
    }
    .with_context(|| call.node.clone())?;
    Ok(PadResult::Ran(from_burn(dtype, &out)?))
}
