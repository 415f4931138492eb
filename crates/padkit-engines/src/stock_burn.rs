//! The `stock-burn` engine: the Pad nodes of a Pad graph through Burn's own
//! `Tensor::pad` on Flex, without padkit-burn, for what that API expresses (constant,
//! reflect and edge; pads that do not crop; Float and Int tensors of rank 1 to 6). The
//! rest is unsupported, so that it reads "refused", not "wrong". The ONNX operands become
//! Burn's per-dimension pairs as an importer makes them, through padkit's spec resolution
//! (axes normalized, pads counted); the constant reaches Burn as its `PadMode::Constant`
//! takes it, an `f32`.

use anyhow::{Context, Result};
use burn::tensor::ops::PadMode as BurnMode;
use burn::tensor::{Device, Int, Tensor as BurnTensor, TensorData};
use padkit::PadMode;
use padkit_burn::Fill;

use crate::burn::{fill_of, first, from_burn, to_burn};
use crate::pad_graph::{PadCall, PadResult};

/// Runs one Pad node through `Tensor::pad`; outputs above `max_output_bytes` are not run
/// (Burn's pad checks no size before it allocates).
pub fn pad(call: &PadCall, max_output_bytes: u64) -> Result<PadResult> {
    let unsupported = |why: String| Ok(PadResult::Unsupported(why));
    let dtype = call.x.dtype();
    if dtype == padkit::DType::Bool {
        return unsupported("Burn's Tensor::pad takes Float and Int tensors, not Bool".into());
    }
    let Some(data) = to_burn(&call.x) else {
        return unsupported(format!("Burn has no element type {dtype}"));
    };
    let mode = match call.spec.mode {
        PadMode::Constant => BurnMode::Constant(match &call.value {
            // (straight to f32: padkit-burn's Fill cannot hold it)
            Some(v) if v.dtype() == padkit::DType::UInt64 => first::<u64>(v)? as f32,
            Some(v) => match fill_of(v)? {
                Fill::Float(v) => v as f32,
                Fill::Int(v) => v as f32,
                Fill::Bool(v) => f32::from(u8::from(v)),
                Fill::Zero => 0.0,
            },
            None => 0.0,
        }),
        PadMode::Reflect => BurnMode::Reflect,
        PadMode::Edge => BurnMode::Edge,
        other => return unsupported(format!("Burn's PadMode has no {other} mode")),
    };
    let axes = call
        .spec
        .resolve(call.x.shape().len())
        .with_context(|| call.node.clone())?;
    let mut pairs = vec![];
    let mut out_elems: Option<usize> = Some(1);
    for (p, &n) in axes.iter().zip(call.x.shape()) {
        let (Ok(begin), Ok(end)) = (usize::try_from(p.begin), usize::try_from(p.end)) else {
            return unsupported("Burn's pads are usize: it cannot crop".into());
        };
        if p.interior != 0 {
            return unsupported("Burn's pad has no interior padding".into());
        }
        pairs.push((begin, end));
        out_elems = out_elems.and_then(|e| e.checked_mul(n.checked_add(begin)?.checked_add(end)?));
    }
    match out_elems.and_then(|e| dtype.storage_bytes(e)) {
        Some(bytes) if bytes as u64 <= max_output_bytes => {}
        _ => {
            return unsupported(format!(
                "not run: the output would exceed {max_output_bytes} bytes, and Burn's pad \
                 checks no size before it allocates"
            ));
        }
    }
    let out = match pairs.len() {
        1 => pad_rank::<1>(data, &pairs, mode),
        2 => pad_rank::<2>(data, &pairs, mode),
        3 => pad_rank::<3>(data, &pairs, mode),
        4 => pad_rank::<4>(data, &pairs, mode),
        5 => pad_rank::<5>(data, &pairs, mode),
        6 => pad_rank::<6>(data, &pairs, mode),
        r => {
            return unsupported(format!(
                "rank {r}: Burn's tensors have ranks 1 and up, the engine handles up to 6"
            ));
        }
    };
    Ok(PadResult::Ran(from_burn(dtype, &out)?))
}

fn pad_rank<const D: usize>(
    data: TensorData,
    pairs: &[(usize, usize)],
    mode: BurnMode,
) -> TensorData {
    let dev = Device::flex();
    let dtype = data.dtype();
    if dtype.is_float() {
        BurnTensor::<D>::from_data(data, (&dev, dtype))
            .pad(pairs, mode)
            .into_data()
    } else {
        BurnTensor::<D, Int>::from_data(data, (&dev, dtype))
            .pad(pairs, mode)
            .into_data()
    }
}
