//! The bodies of the ONNX fuzz targets (`fuzz/fuzz_targets`: readers, tract_model, lower,
//! nnef),
//! which the corpus replay tests also call on the stable toolchain. Errors are fine; a
//! panic, an abort or a panic that [`isolated`] had to
//! catch is a finding.

use padkit_lower::{LowerError, Target};
use padkit_onnx::pb::ModelProto;
use padkit_onnx::pb::tensor_shape_proto::dimension::Value;
use padkit_onnx::pb::type_proto;
use prost::Message;
use tract_onnx::prelude::*;
use tract_onnx::tract_core::internal::DimLike;

use padkit_onnx::graph::graph_inputs;
use padkit_onnx_tools::isolate::{Panicked, isolated};

use crate::core_engine::evaluate_core;
use crate::pad_graph::Outcome;
use crate::run_checked;
use crate::tract as tract_run;

/// Largest output a fuzzed run may allocate.
const MAX_OUTPUT_BYTES: u64 = 1 << 24;

/// The readers on `data`: as a `TensorProto`, as a `.npy` file, through the rewrite into
/// onnx's encoding, and as a model run by the core engine on small inputs.
///
/// ```
/// padkit_engines::fuzz::readers(b"\x93NUMPY\x01\x00");
/// ```
pub fn readers(data: &[u8]) {
    let _ = padkit_onnx::proto::decode_tensor(data, "fuzz input");
    let _ = padkit_onnx_tools::npy::read_npy(data, "fuzz input");
    let _ = padkit_onnx_tools::wire::unpack(data, padkit_onnx_tools::wire::Root::Model);
    run(data, |model, inputs| {
        run_checked(model, inputs, "core", || {
            evaluate_core(model, inputs, crate::RunSettings::new(MAX_OUTPUT_BYTES))
        })
    });
}

/// `data` as a model through the checks and tract (load, optimise, run on small inputs).
///
/// ```
/// padkit_engines::fuzz::tract_model(&[0x08, 0x07]);
/// ```
pub fn tract_model(data: &[u8]) {
    run(data, |model, inputs| {
        run_checked(model, inputs, "tract", || {
            let settings = crate::RunSettings::new(MAX_OUTPUT_BYTES);
            tract_run::run(tract_run::padkit_framework(), model, inputs, settings)
        })
    });
}

/// `data` as a model through padkit-lower's rewrite (`padkit lower`), for any runtime and
/// for a target picked by the input (which must refuse what the former refuses as
/// malformed or failing, with the same error), and the lowered models written in onnx's
/// encoding. Only the lowering is under test: a runtime that
/// panics on a valid lowered model (stock tract on the empty tensors of astronomically
/// long axes that padkit's rules allow, say) is that runtime's finding.
///
/// ```
/// padkit_engines::fuzz::lower(&[0x08, 0x07]);
/// ```
pub fn lower(data: &[u8]) {
    let Ok(model) = ModelProto::decode(data) else {
        return;
    };
    let options = padkit_lower::Options::default().with_max_output_bytes(MAX_OUTPUT_BYTES);
    let portable = padkit_lower::lower_with(&model, &options);
    // a target picked by the input: it refuses what the portable lowering refuses as
    // malformed or failing, with the same error
    let target = Target::ALL[data.len() % Target::ALL.len()];
    let targeted = padkit_lower::lower_with(&model, &options.with_target(target));
    let refused =
        |e: &LowerError| !matches!(e, LowerError::Budget { .. } | LowerError::NotLowered { .. });
    if let Err(e) = portable.as_ref()
        && refused(e)
    {
        let message = |e: &LowerError| padkit_onnx::error::message(e);
        let same = targeted.as_ref().err().map(message) == Some(message(e));
        assert!(
            same,
            "{target}: {targeted:?} where the portable lowering gives {e}"
        );
    }
    for lowered in [portable, targeted].iter().flatten() {
        let _ = padkit_onnx_tools::wire::encode_model(lowered);
    }
}

/// `data` as an NNEF `graph.nnef` through tract-nnef with padkit's extension (hostile
/// `padkit_pad` parameters), then run on small zero inputs.
///
/// ```
/// padkit_engines::fuzz::nnef(b"version 1.0; graph g(x) -> (y) { x = external(shape = [2]); y = x; }");
/// ```
pub fn nnef(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let outcome = isolated("nnef", || {
        let mut model = padkit_tract::nnef::read_text(text)?;
        padkit_tract::limit_output_bytes(&mut model, MAX_OUTPUT_BYTES);
        tract_run::check_sizes(&model, MAX_OUTPUT_BYTES)?;
        let inputs = model
            .input_outlets()?
            .iter()
            .map(|&o| {
                let fact = model.outlet_fact(o)?;
                let shape: Vec<usize> = fact
                    .shape
                    .iter()
                    .map(|d| d.to_usize().unwrap_or(2).min(64))
                    .collect();
                anyhow::ensure!(shape.iter().product::<usize>() <= 4096, "input too large");
                Ok(Tensor::zero_dt(fact.datum_type, &shape)?.into_tvalue())
            })
            .collect::<anyhow::Result<TVec<_>>>()?;
        model.into_runnable()?.run(inputs)?;
        Ok(())
    });
    if let Err(e) = outcome
        && let Some(p) = e.downcast_ref::<Panicked>()
    {
        panic!("{p}");
    }
}

/// `data` as a model, run by `engine` on small inputs; a caught panic is re-raised.
fn run(
    data: &[u8],
    engine: impl FnOnce(&ModelProto, &[padkit::Tensor]) -> anyhow::Result<Outcome>,
) {
    let Ok(model) = ModelProto::decode(data) else {
        return;
    };
    let Some(inputs) = small_inputs(&model) else {
        return;
    };
    if let Err(e) = engine(&model, &inputs)
        && let Some(p) = e.downcast_ref::<Panicked>()
    {
        panic!("{p}");
    }
}

/// Zero-filled inputs of the declared types, symbolic dims set to 2, when they are small.
fn small_inputs(model: &ModelProto) -> Option<Vec<padkit::Tensor>> {
    let g = model.graph.as_ref()?;
    let names = graph_inputs(model).ok()?;
    names
        .iter()
        .map(|name| {
            let input = g.input.iter().find(|i| &i.name == name)?;
            let Some(type_proto::Value::TensorType(tt)) = input.r#type.as_ref()?.value.as_ref()
            else {
                return None;
            };
            let dtype = padkit::DType::from_onnx(tt.elem_type).ok()?;
            let shape: Vec<usize> = tt
                .shape
                .as_ref()?
                .dim
                .iter()
                .map(|d| match d.value {
                    Some(Value::DimValue(v)) => usize::try_from(v).ok().filter(|&v| v <= 64),
                    _ => Some(2),
                })
                .collect::<Option<_>>()?;
            let n = shape
                .iter()
                .try_fold(1usize, |a, &d| a.checked_mul(d))
                .filter(|&n| n <= 4096)?;
            let data = match dtype.layout() {
                padkit::dtype::Layout::Strings => padkit::Data::Strings(vec![String::new(); n]),
                _ => padkit::Data::Bytes(vec![0; dtype.storage_bytes(n)?]),
            };
            padkit::Tensor::new(dtype, shape, data).ok()
        })
        .collect()
}
