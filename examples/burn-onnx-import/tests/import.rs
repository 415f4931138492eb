//! The generated Burn models against ONNX Runtime's outputs (the official tests' data and
//! tests/data/burn-import's): exact for pads, within 1e-5 after the Conv.

use std::path::PathBuf;

use burn::tensor::{Bool, DType as BurnType, Int, Tensor, TensorData};
use burn_onnx_import as models;
use padkit::{DType, Data};
use padkit_conformance::compare::{Tolerance, first_difference};
use padkit_onnx_tools::data::numbered;

fn data(case: &str) -> (Vec<padkit::Tensor>, padkit::Tensor) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let dir = [
        root.join("onnx-conformance/node").join(case),
        root.join("burn-import").join(case),
    ]
    .into_iter()
    .find(|d| d.exists())
    .unwrap()
    .join("test_data_set_0");
    let mut outputs = numbered(&dir, "output").unwrap();
    (numbered(&dir, "input").unwrap(), outputs.remove(0))
}

fn burn_type(t: &padkit::Tensor) -> BurnType {
    match t.dtype() {
        DType::Float32 => BurnType::F32,
        DType::Int32 => BurnType::I32,
        DType::Int64 => BurnType::I64,
        DType::Bool => BurnType::Bool(burn::tensor::BoolStore::Native),
        other => panic!("no test input of type {other}"),
    }
}

fn tensor_data(t: &padkit::Tensor) -> TensorData {
    let Data::Bytes(bytes) = t.data() else {
        panic!("numbers only")
    };
    TensorData::from_bytes_vec(bytes.clone(), t.shape().to_vec(), burn_type(t))
}

fn float<const D: usize>(t: &padkit::Tensor) -> Tensor<D> {
    Tensor::from_data(tensor_data(t), (&Default::default(), burn_type(t)))
}

fn int<const D: usize>(t: &padkit::Tensor) -> Tensor<D, Int> {
    Tensor::from_data(tensor_data(t), (&Default::default(), burn_type(t)))
}

fn boolean<const D: usize>(t: &padkit::Tensor) -> Tensor<D, Bool> {
    Tensor::from_data(tensor_data(t), (&Default::default(), burn_type(t)))
}

/// A Burn output as a padkit tensor of `like`'s type.
fn back(out: TensorData, like: &padkit::Tensor) -> padkit::Tensor {
    let out = out.convert_dtype(burn_type(like));
    padkit::Tensor::new(
        like.dtype(),
        out.shape().to_vec(),
        Data::Bytes(out.as_bytes().to_vec()),
    )
    .unwrap()
}

fn check(got: TensorData, want: &padkit::Tensor, tolerance: Option<Tolerance>) {
    let got = back(got, want);
    assert_eq!(first_difference(&got, want, tolerance), None);
}

#[test]
fn official_pad_tests() {
    let (i, want) = data("test_wrap_pad");
    check(
        models::wrap_pad::Model::default()
            .forward(int(&i[0]), int(&i[1]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("test_edge_pad");
    check(
        models::edge_pad::Model::default()
            .forward(int(&i[0]), int(&i[1]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("test_reflect_pad");
    check(
        models::reflect_pad::Model::default()
            .forward(int(&i[0]), int(&i[1]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("test_constant_pad");
    let value = i[2].to_vec::<f32>().unwrap()[0];
    let y = models::constant_pad::Model::default().forward(float(&i[0]), int(&i[1]), value);
    check(y.into_data(), &want, None);
    for case in ["test_constant_pad_axes", "test_constant_pad_negative_axes"] {
        let (i, want) = data(case);
        let value = i[2].to_vec::<f32>().unwrap()[0];
        let y = if case.contains("negative") {
            models::constant_pad_negative_axes::Model::default().forward(
                float(&i[0]),
                int(&i[1]),
                value,
                int(&i[3]),
            )
        } else {
            models::constant_pad_axes::Model::default().forward(
                float(&i[0]),
                int(&i[1]),
                value,
                int(&i[3]),
            )
        };
        check(y.into_data(), &want, None);
    }
}

/// What stock burn-onnx refuses: negative pads, Bool data, an int64 constant above 2^24,
/// a wrap Pad feeding a Conv, runtime pads with runtime axes in reflect mode; and a model
/// as onnx 1.23 writes it by default (IR version 14, opset 28).
#[test]
fn pads_stock_burn_onnx_refuses() {
    let (i, want) = data("negative_edge");
    check(
        models::negative_edge::Model::default()
            .forward(float(&i[0]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("bool_constant");
    check(
        models::bool_constant::Model::default()
            .forward(boolean(&i[0]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("int64_exact");
    check(
        models::int64_exact::Model::default()
            .forward(int(&i[0]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("reflect_axes_runtime");
    let y = models::reflect_axes_runtime::Model::default().forward(
        float(&i[0]),
        int(&i[1]),
        int(&i[2]),
    );
    check(y.into_data(), &want, None);
    let (i, want) = data("newest_onnx");
    check(
        models::newest_onnx::Model::default()
            .forward(float(&i[0]))
            .into_data(),
        &want,
        None,
    );
    let (i, want) = data("wrap_conv");
    let tolerance = Tolerance {
        rtol: 1e-3,
        atol: 1e-5,
    };
    check(
        models::wrap_conv::Model::default()
            .forward(float(&i[0]))
            .into_data(),
        &want,
        Some(tolerance),
    );
}
