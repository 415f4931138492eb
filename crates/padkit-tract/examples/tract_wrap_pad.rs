//! Loads the official ONNX `wrap` Pad test model (opset 25; its pads are a graph input,
//! fed at run time) through `padkit_tract::onnx()`, and runs it on a small tensor.
//!
//! Run with `cargo run -p padkit-tract --example tract_wrap_pad`.

use tract_onnx::prelude::*;

fn main() -> TractResult<()> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/onnx-conformance/node/test_wrap_pad/model.onnx"
    );
    let plan = padkit_tract::onnx() // the one line that changes
        .model_for_path(path)?
        .into_optimized()?
        .into_runnable()?;
    let x = Tensor::from_shape(&[1, 3, 4, 5], &(0..60).collect::<Vec<i32>>())?;
    let pads = tensor1(&[0i64, 0, 1, 1, 0, 0, 1, 1]);
    let y = plan
        .run(tvec!(x.into_tvalue(), pads.into_tvalue()))?
        .remove(0);
    let y = y.to_plain_array_view::<i32>()?;
    println!("output {:?}, first channel:", y.shape());
    // [1, 3, 6, 7]: each 4×5 channel wrapped by one row and one column on every side
    let channel = y.index_axis(tract_ndarray::Axis(0), 0);
    println!("{}", channel.index_axis(tract_ndarray::Axis(0), 0));
    Ok(())
}
