//! A wrap Pad through padkit-tract (an ONNX model loaded with `padkit_tract::onnx()`),
//! through padkit-burn (a Flex tensor) and through the Burn model padkit-burn-onnx
//! generated from the same ONNX model (`build.rs`), each checked against the answer worked
//! out by hand; then padkit's core graded on padkit-conformance's small catalogue.

use burn::tensor::{Device, Int, Tensor as BurnTensor};
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

    // (engines that take a pad rather than a model skip the signature cases; some cases
    // ask for terabytes, and must fail)
    let catalogue: Vec<Case> = cases(Size::Small)
        .into_iter()
        .filter(|c| !c.has_tag("onnx-signature"))
        .collect();
    let mut report = Report::new(&[]);
    report.run(&catalogue, "padkit", |case| {
        let spec = case.spec().with_max_output_bytes(1 << 30);
        match padkit::pad_tensor(&case.input, &spec, Some(&case.fill)) {
            Ok(y) => Answer::Output(y),
            Err(e) => Answer::Error(e.to_string()),
        }
    });
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
        "wrap Pad through padkit-tract, padkit-burn and padkit-burn-onnx: as expected; \
         padkit's core on {} cases: {} passed",
        catalogue.len(),
        all.pass
    );
    Ok(())
}
