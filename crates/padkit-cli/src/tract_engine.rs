//! The `tract` engine: the whole model through tract with padkit's Pad, stage by stage,
//! each failure naming its stage.

use anyhow::{Context, Result, anyhow, bail};
use padkit::{DType, Data};
use tract_onnx::pb::ModelProto;
use tract_onnx::prelude::*;

use crate::graph::Outcome;
use crate::isolate::isolated;

/// Runs `model` on `inputs` through `padkit_tract::onnx()`: load, set the input facts
/// from the data (so that shape chains and `If` conditions resolve), analyse, optimise,
/// check every output that now has a known shape against `max_output_bytes`, prepare and
/// run. Padkit's Pads with runtime pads check their own outputs against the limit.
pub fn run(
    model: &ModelProto,
    inputs: &[padkit::Tensor],
    max_output_bytes: u64,
) -> Result<Outcome> {
    let mut feeds = TVec::new();
    for t in inputs {
        match to_tract(t) {
            Ok(t) => feeds.push(t),
            Err(e) => return Ok(Outcome::Unsupported(e.to_string())),
        }
    }
    padkit_tract::limit_output_bytes(max_output_bytes);
    let stage = |what: &'static str| {
        move |e: TractError| anyhow!("tract could not {what} the model: {e:#}")
    };
    let outputs = isolated("tract", || {
        let mut m = padkit_tract::onnx()
            .model_for_proto_model(model)
            .map_err(stage("load"))?;
        for (ix, t) in feeds.iter().enumerate() {
            let fact = InferenceFact::dt_shape(t.datum_type(), t.shape());
            m.set_input_fact(ix, fact)
                .map_err(stage("set the input facts of"))?;
        }
        let typed = m.into_typed().map_err(stage("analyse"))?;
        let optimized = typed.into_optimized().map_err(stage("optimise"))?;
        check_sizes(&optimized, max_output_bytes)?;
        let plan = optimized.into_runnable().map_err(stage("prepare"))?;
        plan.run(feeds.into_iter().map(|t| t.into_tvalue()).collect())
            .map_err(stage("run"))
    })?;
    let names = model
        .graph
        .as_ref()
        .map(|g| g.output.iter().map(|o| o.name.clone()).collect::<Vec<_>>())
        .unwrap_or_default();
    let outs = outputs
        .iter()
        .zip(names)
        .map(|(t, n)| Ok((n, from_tract(t)?)))
        .collect::<Result<_>>()?;
    Ok(Outcome::Ran(outs))
}

/// Refuses a model any of whose node outputs, once its shape is known, would take more
/// than `limit` bytes: tract allocates outputs without a fallible path.
fn check_sizes(model: &TypedModel, limit: u64) -> Result<()> {
    for node in model.nodes() {
        for (ix, out) in node.outputs.iter().enumerate() {
            let fact = &out.fact;
            let Some(shape) = fact.shape.as_concrete() else {
                continue;
            };
            let bytes = shape
                .iter()
                .try_fold(fact.datum_type.size_of() as u128, |acc, &d| {
                    acc.checked_mul(d as u128)
                })
                .unwrap_or(u128::MAX);
            if bytes > u128::from(limit) {
                bail!(
                    "node {:?} (output {ix}) would take {bytes} bytes ({shape:?} of {:?}), above the \
                     limit of {limit} bytes (see --max-output-bytes)",
                    node.name,
                    fact.datum_type
                );
            }
        }
    }
    Ok(())
}

/// The tract datum type of an ONNX type, when tract has one.
///
/// ```
/// use padkit::DType;
/// assert!(padkit_cli::tract_engine::tract_type(DType::Float16).is_ok());
/// let err = padkit_cli::tract_engine::tract_type(DType::BFloat16).unwrap_err();
/// assert_eq!(err.to_string(), "tract cannot hold element type bfloat16");
/// ```
pub fn tract_type(dtype: DType) -> Result<DatumType> {
    Ok(match dtype {
        DType::Bool => DatumType::Bool,
        DType::UInt8 => DatumType::U8,
        DType::UInt16 => DatumType::U16,
        DType::UInt32 => DatumType::U32,
        DType::UInt64 => DatumType::U64,
        DType::Int8 => DatumType::I8,
        DType::Int16 => DatumType::I16,
        DType::Int32 => DatumType::I32,
        DType::Int64 => DatumType::I64,
        DType::Float16 => DatumType::F16,
        DType::Float32 => DatumType::F32,
        DType::Float64 => DatumType::F64,
        DType::String => DatumType::String,
        other => bail!("tract cannot hold element type {other}"),
    })
}

/// A padkit tensor as a tract tensor.
///
/// ```
/// let t = padkit::Tensor::from_slice(&[2], &[1i32, 2]).unwrap();
/// let tt = padkit_cli::tract_engine::to_tract(&t).unwrap();
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
/// let t = padkit_cli::tract_engine::from_tract(&tensor1(&[1u8, 2])).unwrap();
/// assert_eq!(t.to_vec::<u8>().unwrap(), vec![1, 2]);
/// ```
pub fn from_tract(t: &Tensor) -> Result<padkit::Tensor> {
    let dtype = DType::ALL
        .iter()
        .copied()
        .find(|d| tract_type(*d).is_ok_and(|dt| dt == t.datum_type()))
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
