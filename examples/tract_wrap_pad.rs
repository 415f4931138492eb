//! Builds an opset-19 ONNX model with a `wrap` Pad on the last two axes (given as
//! negative `axes`), loads it through `padkit_tract::onnx()` and runs it.
//!
//! Run with `cargo run -p padkit-tract --example tract_wrap_pad`.

use padkit::Tensor;
use padkit_tract::model::{Feed, PadModel};
use padkit_tract::proto::{from_tract, to_tract};
use tract_onnx::prelude::*;

fn main() -> TractResult<()> {
    let x = Tensor::from_slice(&[1, 2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    let model = PadModel::new(19, "wrap", x.clone(), vec![1, 2, 1, 2], Feed::Initializer)
        .with_axes(vec![-2, -1], Feed::Initializer);
    let plan = padkit_tract::onnx()
        .model_for_proto_model(&model.proto())?
        .into_optimized()?
        .into_runnable()?;
    let y = from_tract(&plan.run(tvec!(to_tract(&x)?.into_tvalue()))?[0])?;
    println!("input  {:?}: {:?}", x.shape(), x.to_vec::<f32>()?);
    println!("output {:?}:", y.shape());
    for row in y.to_vec::<f32>()?.chunks(y.shape()[2]) {
        println!("  {row:?}");
    }
    Ok(())
}
