//! Imports the Pad models with padkit-burn-onnx: the official ONNX Pad tests (runtime
//! pads, value and axes; wrap) and the cases stock burn-onnx refuses (negative pads,
//! Bool, an exact int64 constant, a wrap Pad before a Conv).

fn main() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");
    let mut generator = padkit_burn_onnx::ModelGen::new();
    for (test, name) in [
        ("test_wrap_pad", "wrap_pad"),
        ("test_edge_pad", "edge_pad"),
        ("test_reflect_pad", "reflect_pad"),
        ("test_constant_pad", "constant_pad"),
        ("test_constant_pad_axes", "constant_pad_axes"),
        (
            "test_constant_pad_negative_axes",
            "constant_pad_negative_axes",
        ),
    ] {
        generator.input_named(
            &format!("{data}/onnx-conformance/node/{test}/model.onnx"),
            name,
        );
    }
    for name in [
        "negative_edge",
        "bool_constant",
        "int64_exact",
        "wrap_conv",
        "reflect_axes_runtime",
        "newest_onnx",
    ] {
        generator.input_named(&format!("{data}/burn-import/{name}/model.onnx"), name);
    }
    generator.out_dir("model/").run_from_script();
}
