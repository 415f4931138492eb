//! Imports the official ONNX wrap Pad test model into Burn code with padkit-burn-onnx, as
//! a user's `build.rs` does.

fn main() {
    padkit_burn_onnx::ModelGen::new()
        .input_named(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../data/onnx-conformance/node/test_wrap_pad/model.onnx"
            ),
            "wrap_pad",
        )
        .out_dir("model/")
        .run_from_script();
}
