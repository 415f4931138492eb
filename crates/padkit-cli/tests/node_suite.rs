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

use assert_cmd::Command;
use padkit_conformance::{Report, Verdict};

#[test]
fn padkit_tract_passes_every_node_test_stock_tract_passes() {
    let vendored = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/node-suite");
    // (a relative PADKIT_NODE_SUITE is below the workspace's root)
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::var_os("PADKIT_NODE_SUITE").map_or(vendored, |d| root.join(d));
    // Every case on both engines, as `padkit conformance` grades them (the ONNX backend
    // tests' tolerance for whole models).
    let out = Command::cargo_bin("padkit")
        .unwrap()
        .args([
            "conformance",
            "--engine",
            "stock-tract,tract",
            "--report",
            "json",
        ])
        .args(["--exit-zero", "--max-output-bytes", "1073741824"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = Report::from_json(&String::from_utf8_lossy(&out.stdout)).unwrap();
    // case → (stock passes, padkit passes); an unreadable model fails on both
    let cases: BTreeMap<String, (bool, bool)> = report
        .cases
        .iter()
        .map(|c| {
            let pass = |e: &str| c.results.get(e) == Some(&Verdict::Pass);
            (c.name.clone(), (pass("stock-tract"), pass("tract")))
        })
        .collect();
    // A case's directory name (its report name ends with the data set past the first).
    let name = |c: &str| {
        let mut parts = c.rsplit('/');
        let last = parts.next().unwrap_or(c);
        match last.starts_with("test_data_set_") {
            true => parts.next().unwrap_or(last).to_string(),
            false => last.to_string(),
        }
    };
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
