//! The models the README's examples read (`tests/data/*.onnx`) are the Pad models the
//! case library builds: Pad-19 in wrap and in reflect mode over a 2×3 `f32` initializer,
//! padded by one column after. `PADKIT_BLESS=1` writes them anew.

use padkit::Tensor;
use padkit_onnx_tools::model::{Feed, PadModel};
use prost::Message;

fn check(file: &str, mode: &str) {
    let x = Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let model = PadModel::new(19, mode, x, vec![0, 1, 0, 1], Feed::Initializer).proto();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    if std::env::var_os("PADKIT_BLESS").is_some() {
        std::fs::write(&path, model.encode_to_vec()).unwrap();
    }
    let stored = std::fs::read(&path).unwrap();
    assert_eq!(
        padkit_onnx::pb::ModelProto::decode(&*stored).unwrap(),
        model,
        "{file}"
    );
}

#[test]
fn the_readme_models_are_the_case_librarys() {
    check("wrap19.onnx", "wrap");
    check("reflect19.onnx", "reflect");
}
