//! A wrap Pad through padkit-tract (an ONNX model loaded with `padkit_tract::onnx()`),
//! through padkit-burn (a Flex tensor) and through the Burn model padkit-burn-onnx
//! generated from the same ONNX model (`build.rs`), through padkit-candle (a candle
//! tensor), and ONNX's constant Pad with axes through padkit-candle's candle-onnx, each
//! checked against the answer worked out by hand; then padkit's core graded on
//! padkit-conformance's small catalogue.

use std::collections::HashMap;

use burn::tensor::{Device, Int, Tensor as BurnTensor};
use candle_core::{Device as CandleDevice, Tensor as CandleTensor};
use padkit_burn::{PadExt, PaddingMode};
use padkit_conformance::{Answer, Case, Report, Size, cases};
use tract_onnx::prelude::*;

#[allow(clippy::all, unused)]
mod wrap_pad {
    include!(concat!(env!("OUT_DIR"), "/model/wrap_pad.rs"));
}

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
    let y = model
        .run(tvec!(x.into_tvalue(), pads.into_tvalue()))?
        .remove(0);
    assert_eq!(y.shape(), &[1, 3, 4, 7]);
    let y = y.try_as_plain_ram()?.as_slice::<i32>()?;
    assert_eq!(y[..7], [4, 0, 1, 2, 3, 4, 0]); // the first row, wrapped

    let x = BurnTensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::flex());
    let y = x.padkit_pad([(1, 1)], PaddingMode::Wrap)?;
    assert_eq!(y.dims(), [2, 5]);
    let y = y
        .into_data()
        .try_to_vec::<f32>()
        .map_err(|e| format!("{e:?}"))?;
    assert_eq!(y, [3.0, 1.0, 2.0, 3.0, 1.0, 6.0, 4.0, 5.0, 6.0, 4.0]);
    assert!(padkit_burn::route::has_native_kernel(&Device::flex()));

    let device = Device::flex();
    let x = BurnTensor::<1, Int>::arange(0..60, &device).reshape([1, 3, 4, 5]);
    let pads = BurnTensor::<1, Int>::from_ints([0, 0, 0, 1, 0, 0, 0, 1], &device);
    let y = wrap_pad::Model::default().forward(x, pads);
    assert_eq!(y.dims(), [1, 3, 4, 7]);
    let y = y
        .into_data()
        .try_into_vec_as::<i64>()
        .map_err(|e| format!("{e:?}"))?;
    assert_eq!(y[..7], [4, 0, 1, 2, 3, 4, 0]);

    // candle: a tensor, and the official ONNX constant Pad with axes, whose pads, value and
    // axes are all graph inputs (candle-onnx alone refuses a Pad of more than two inputs)
    let x = CandleTensor::new(&[[1f32, 2.0, 3.0]], &CandleDevice::Cpu)?;
    let y = padkit_candle::PadExt::padkit_pad(&x, [(1, 1)], padkit_candle::PaddingMode::Wrap)?;
    assert_eq!(y.to_vec2::<f32>()?, [[3.0, 1.0, 2.0, 3.0, 1.0]]);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/onnx-conformance/node/test_constant_pad_axes/model.onnx"
    );
    let model = candle_onnx::read_file(path)?;
    let cpu = CandleDevice::Cpu;
    let feeds = HashMap::from([
        ("x".to_string(), CandleTensor::arange(0f32, 60.0, &cpu)?.reshape((1, 3, 4, 5))?),
        ("pads".to_string(), CandleTensor::new(&[0i64, 3, 0, 4], &cpu)?),
        ("value".to_string(), CandleTensor::new(1.5f32, &cpu)?),
        ("axes".to_string(), CandleTensor::new(&[1i64, 3], &cpu)?),
    ]);
    let y = padkit_candle::onnx::simple_eval(&model, feeds)?.remove("y").ok_or("no output y")?;
    assert_eq!(y.dims(), [1, 3, 4, 12]);
    let row = y.flatten_all()?.narrow(0, 0, 12)?.to_vec1::<f32>()?;
    assert_eq!(row, [1.5, 1.5, 1.5, 0.0, 1.0, 2.0, 3.0, 4.0, 1.5, 1.5, 1.5, 1.5]);

    // (engines that take a pad rather than a model skip the signature cases; some cases
    // ask for terabytes, and must fail)
    let catalogue: Vec<Case> = cases(Size::Small)
        .into_iter()
        .filter(|c| !c.has_tag("onnx-signature"))
        .collect();
    let mut report = Report::new(&[]);
    // (a refusal of a case beyond ONNX passes: padkit's core must answer those)
    let mut refused_beyond = vec![];
    report.run(&catalogue, "padkit", |case| {
        let spec = case.spec().with_max_output_bytes(1 << 30);
        match padkit::pad_tensor(&case.input, &spec, Some(&case.fill)) {
            Ok(y) => Answer::Output(y),
            Err(e) => {
                if case.has_tag("onnx:beyond") {
                    refused_beyond.push(case.name.clone());
                }
                Answer::Error(e.to_string())
            }
        }
    });
    assert!(refused_beyond.is_empty(), "refused beyond ONNX: {refused_beyond:?}");
    // padkit's core answers every case as the catalogue expects: it refuses nothing it
    // should run, and errs where a case must fail (credited by the case's valid twin).
    let all = report.cell(None, "padkit");
    assert_eq!(
        all.pass,
        catalogue.len(),
        "padkit's core did not pass all of its own cases: {:?}",
        all.failing
    );

    println!(
        "wrap Pad through padkit-tract, padkit-burn, padkit-burn-onnx and padkit-candle, \
         constant Pad through padkit-candle's candle-onnx: as expected; \
         padkit's core on {} cases: {} passed",
        catalogue.len(),
        all.pass
    );
    Ok(())
}
