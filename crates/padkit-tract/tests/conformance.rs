//! The official ONNX Pad backend tests (vendored in tests/data/onnx-conformance), with
//! every graph input — pads, value, axes too — fed at run time from the data set.

use std::path::{Path, PathBuf};

use padkit_onnx::pb::TensorProto;
use padkit_onnx::proto::tensor_from_proto;
use padkit_tract::{from_tract, to_tract};
use prost::Message;
use tract_onnx::prelude::*;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/onnx-conformance");
    let mut out = vec![];
    for kind in std::fs::read_dir(&root).expect("the vendored conformance data") {
        let kind = kind.unwrap().path();
        if kind.is_dir() {
            out.extend(std::fs::read_dir(kind).unwrap().map(|c| c.unwrap().path()));
        }
    }
    out.sort();
    out
}

fn load(path: PathBuf) -> padkit::Tensor {
    tensor_from_proto(&TensorProto::decode(&*std::fs::read(path).unwrap()).unwrap()).unwrap()
}

#[test]
fn all_sixteen_cases_pass_with_runtime_inputs() {
    let cases = cases();
    assert_eq!(cases.len(), 16);
    for case in cases {
        let model = padkit_tract::onnx()
            .model_for_path(case.join("model.onnx"))
            .unwrap();
        let n = model.input_outlets().unwrap().len();
        let ds = case.join("test_data_set_0");
        let inputs: TVec<TValue> = (0..n)
            .map(|i| {
                to_tract(&load(ds.join(format!("input_{i}.pb"))))
                    .unwrap()
                    .into_tvalue()
            })
            .collect();
        let plan = model.into_optimized().unwrap().into_runnable().unwrap();
        let out = plan
            .run(inputs)
            .unwrap_or_else(|e| panic!("{}: {e:#}", case.display()));
        let got = from_tract(&out[0]).unwrap();
        let want = load(ds.join("output_0.pb"));
        assert_eq!(got.shape(), want.shape(), "{}", case.display());
        assert_eq!(got.data(), want.data(), "{}", case.display());
    }
}
