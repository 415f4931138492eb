//! Whole models that contain Pads — the six silero-vad models of its PyPI wheel, and the
//! benchmark's generated nets — through tract with padkit's Pad, against ONNX Runtime's
//! outputs (tests/data/models, made by its make_fixtures.py).

use std::path::PathBuf;

use assert_cmd::Command;
use padkit_engines::tract::optimize;
use padkit_onnx_tools::data::{find_cases, numbered, read_model};
use padkit_tract::to_tract;
use tract_onnx::prelude::*;

fn models() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/models")
}

/// `padkit conformance --engine ENGINE --atol 1e-5` on every model: its output, and its
/// stdout as text.
fn conformance(engine: &str) -> (std::process::Output, String) {
    let out = Command::cargo_bin("padkit")
        .unwrap()
        .args(["conformance", "--engine", engine, "--atol", "1e-5"])
        .arg(models())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

/// Every model matches ONNX Runtime to 1e-5 absolute and 1e-3 relative (convolutions sum
/// in another order than ONNX Runtime's: a few ulps of 1.0 on values near zero).
#[test]
fn every_model_matches_onnx_runtime() {
    let (out, stdout) = conformance("tract");
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().last(),
        Some("9 passed, 0 failed, 0 skipped"),
        "{stdout}"
    );
}

/// Every model lowered by padkit-lower (its Pads as standard ops, those inside silero-vad's
/// `If` branches too) and run by stock tract-onnx matches ONNX Runtime, but the three
/// silero-vad models whose other `If`s stock tract cannot analyse (they fail the same way
/// unlowered; `tests/peers/lowered_models.py` runs all nine lowered through ONNX Runtime).
#[test]
fn lowered_models_match_onnx_runtime_on_stock_tract() {
    let (_, stdout) = conformance("lowered-tract");
    let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 3, "{stdout}");
    for line in failed {
        assert!(
            line.contains("silero-vad")
                && line.contains("could not analyse")
                && line.contains("If"),
            "{line}"
        );
    }
    assert_eq!(
        stdout.lines().last(),
        Some("6 passed, 3 failed, 0 skipped"),
        "{stdout}"
    );
}

/// Every model through padkit-candle's candle-onnx (its Pads lowered, those inside
/// silero-vad's `If` branches too) matches ONNX Runtime, but two that candle-onnx 0.11.1
/// stops on other ops: it has no `InstanceNormalization`, and one silero-vad model fails
/// in an op on a rank-0 tensor, as it does unlowered (`stock-candle`).
#[test]
#[cfg(feature = "candle")]
fn models_match_onnx_runtime_through_padkit_candle() {
    let (ours, stock) = (conformance("candle").1, conformance("stock-candle").1);
    let failed: Vec<&str> = ours.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 2, "{ours}");
    assert!(
        failed[0].contains("style_transfer")
            && failed[0].contains("unsupported op_type InstanceNormalization"),
        "{ours}"
    );
    assert!(
        failed[1].contains("silero_vad_op18_ifless")
            && failed[1].contains("axis 1 is too large, tensor rank 0"),
        "{ours}"
    );
    assert!(
        stock.lines().any(|l| l.starts_with("FAIL")
            && l.contains("silero_vad_op18_ifless")
            && l.contains("axis 1 is too large, tensor rank 0")),
        "{stock}"
    );
    assert_eq!(
        ours.lines().last(),
        Some("7 passed, 2 failed, 0 skipped"),
        "{ours}"
    );
}

/// Where stock tract runs a model, padkit's optimised graph has as many nodes, or fewer
/// when transposes cancel through the Pad; three silero-vad models only run with
/// padkit-tract's `If`.
#[test]
fn optimised_graphs_match_stock_tract() {
    let mut stock_fails = vec![];
    for case in find_cases(&models()).unwrap() {
        let model = read_model(&case.join("model.onnx")).unwrap();
        let inputs = numbered(&case.join("test_data_set_0"), "input").unwrap();
        let feeds: Vec<Tensor> = inputs.iter().map(|t| to_tract(t).unwrap()).collect();
        let ours = optimize(padkit_engines::tract::padkit_framework(), &model, &feeds)
            .unwrap()
            .nodes()
            .len();
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        match optimize(tract_onnx::onnx(), &model, &feeds) {
            Ok(stock) if name == "layout" => assert!(ours < stock.nodes().len(), "{name}"),
            Ok(stock) => assert_eq!(ours, stock.nodes().len(), "{name}"),
            Err(_) => stock_fails.push(name),
        }
    }
    assert_eq!(
        stock_fails,
        ["silero_vad", "silero_vad_16k_op15", "silero_vad_half"]
    );
}
