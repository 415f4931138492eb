//! A wrap Pad through padkit-tract (an ONNX model loaded with `padkit_tract::onnx()`) and
//! through padkit-burn (a Flex tensor), each checked against the answer worked out by hand.

use burn::tensor::{Device, Tensor as BurnTensor};
use padkit_burn::{PadExt, PaddingMode};
use tract_onnx::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The official ONNX wrap Pad test model (opset 25; its pads are a graph input).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/onnx-conformance/node/test_wrap_pad/model.onnx"
    );
    let model = padkit_tract::onnx()
        .model_for_path(path)?
        .into_optimized()?
        .into_runnable()?;
    let x = Tensor::from_shape(&[1, 3, 4, 5], &(0..60).collect::<Vec<i32>>())?;
    let pads = tensor1(&[0i64, 0, 0, 1, 0, 0, 0, 1]);
    let y = model.run(tvec!(x.into_tvalue(), pads.into_tvalue()))?.remove(0);
    assert_eq!(y.shape(), &[1, 3, 4, 7]);
    let y = y.try_as_plain_ram()?.as_slice::<i32>()?;
    assert_eq!(y[..7], [4, 0, 1, 2, 3, 4, 0]); // the first row, wrapped

    let x = BurnTensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::flex());
    let y = x.padkit_pad([(1, 1)], PaddingMode::Wrap)?;
    assert_eq!(y.dims(), [2, 5]);
    let y = y.into_data().try_to_vec::<f32>().map_err(|e| format!("{e:?}"))?;
    assert_eq!(y, [3.0, 1.0, 2.0, 3.0, 1.0, 6.0, 4.0, 5.0, 6.0, 4.0]);
    assert!(padkit_burn::has_native_kernel(&Device::flex()));

    println!("wrap Pad through padkit-tract and padkit-burn: as expected");
    Ok(())
}
