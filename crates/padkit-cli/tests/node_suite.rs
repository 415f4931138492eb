//! The ONNX backend node tests through stock tract-onnx and padkit-tract in one harness:
//! no case that stock tract passes may fail with padkit (the `If` and `CenterCropPad`
//! that padkit-tract registers included), and the Pad and CenterCropPad cases stock tract
//! fails pass with padkit.
//!
//! By default the vendored Pad, CenterCropPad and If cases (`tests/data/node-suite`); with
//! `PADKIT_NODE_SUITE=DIR`, every case below DIR (the whole suite, written by
//! `tests/node-suite/generate.py`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use padkit_cli::conformance::{Settings, run_with};
use padkit_cli::engine::Engine;
use padkit_conformance::Verdict;
use padkit_conformance::compare::Tolerance;

#[test]
fn padkit_tract_passes_every_node_test_stock_tract_passes() {
    let vendored = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/node-suite");
    let dir = std::env::var_os("PADKIT_NODE_SUITE").map_or(vendored.clone(), PathBuf::from);
    let settings = Settings {
        tolerance: Tolerance::ONNX_BACKEND,
        max_output_bytes: 1 << 30,
    };
    // case → (stock passes, padkit passes)
    let mut cases: BTreeMap<String, (bool, bool)> = BTreeMap::new();
    let engines = [Engine::StockTract, Engine::Tract];
    run_with(
        std::slice::from_ref(&dir),
        &engines,
        settings,
        |row, engine, verdict| {
            let pass = matches!(verdict, Verdict::Pass);
            let entry = cases.entry(row.label.clone()).or_default();
            match engine {
                Some(Engine::StockTract) => entry.0 = pass,
                Some(_) => entry.1 = pass,
                None => {} // an unreadable model fails on both
            }
        },
    )
    .unwrap();
    let name = |c: &str| c.rsplit('/').nth(1).unwrap_or(c).to_string();
    let regressions: Vec<String> = cases
        .iter()
        .filter(|(_, (stock, padkit))| *stock && !*padkit)
        .map(|(c, _)| name(c))
        .collect();
    let gains: Vec<String> = cases
        .iter()
        .filter(|(_, (stock, padkit))| !*stock && *padkit)
        .map(|(c, _)| name(c))
        .collect();
    let stock = cases.values().filter(|(s, _)| *s).count();
    let padkit = cases.values().filter(|(_, p)| *p).count();
    println!(
        "{} data sets below {}: stock tract-onnx passes {stock}, padkit-tract {padkit}; \
         {} regressions, {} gains: {gains:?}",
        cases.len(),
        dir.display(),
        regressions.len(),
        gains.len()
    );
    assert!(
        regressions.is_empty(),
        "stock passes, padkit fails: {regressions:?}"
    );
    for must in [
        "test_center_crop_pad_crop",
        "test_center_crop_pad_pad",
        "test_center_crop_pad_crop_and_pad",
        "test_center_crop_pad_crop_axes_chw",
        "test_center_crop_pad_crop_axes_hwc",
        "test_center_crop_pad_crop_negative_axes_hwc",
        "test_constant_pad",
        "test_constant_pad_axes",
        "test_constant_pad_negative_axes",
        "test_edge_pad",
        "test_reflect_pad",
        "test_wrap_pad",
    ] {
        assert!(
            gains.iter().any(|g| g == must),
            "{must} is not a gain: {gains:?}"
        );
    }
}
