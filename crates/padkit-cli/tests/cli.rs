//! The `padkit` binary as a user runs it: exit codes and messages.

use std::path::PathBuf;

use assert_cmd::Command;

fn padkit() -> Command {
    Command::cargo_bin("padkit").unwrap()
}

/// Test data vendored in the repository (`tests/data`).
fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(rel)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `padkit conformance --engine ENGINES` over test data `rel`; it must succeed and end
/// with `summary`.
fn conformance_on(engines: &str, rel: &str, summary: &str) {
    let out = padkit()
        .args(["conformance", "--engine", engines])
        .arg(data(rel))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().last(), Some(summary), "{text}");
}

/// [`conformance_on`] padkit's engines (core, tract, burn).
fn conformance_on_every_engine(rel: &str, summary: &str) {
    conformance_on("all", rel, summary);
}

/// The 16 official ONNX Pad tests vendored (onnx 1.24's five negative-pad cases among
/// them) pass on padkit's engines.
#[test]
fn conformance_passes_all_sixteen_on_every_engine() {
    conformance_on_every_engine("onnx-conformance", "48 passed, 0 failed, 0 skipped");
}

/// The same 16 lowered by padkit-lower pass on stock tract: every Pad lowered
/// (`lowered-tract`), lowered for stock tract (`targeted-tract`) and for tract's GPU
/// runtimes (`targeted-tract-gpu`, run on the CPU).
#[test]
fn conformance_passes_all_sixteen_lowered() {
    conformance_on(
        "lowered-tract,targeted-tract,targeted-tract-gpu",
        "onnx-conformance",
        "48 passed, 0 failed, 0 skipped",
    );
}

/// A model as onnx 1.23's `make_model` writes it by default (IR version 14, opset 28, whose
/// Pad is Pad-25) runs on every engine and matches ONNX Runtime 1.32.
#[test]
fn the_newest_onnx_defaults_load_on_every_engine() {
    conformance_on_every_engine("burn-import/newest_onnx", "3 passed, 0 failed, 0 skipped");
}

#[test]
fn run_a_data_set_and_write_outputs() {
    let case = data("onnx-conformance/node/test_wrap_pad");
    let dir = std::env::temp_dir().join(format!("padkit-cli-{}", std::process::id()));
    let out = padkit()
        .arg("run")
        .arg(case.join("model.onnx"))
        .arg("--data-set")
        .arg(case.join("test_data_set_0"))
        .arg("--output-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("y: int32 [1, 3, 6, 7] ["));
    let written = std::fs::read(dir.join("y.pb")).unwrap();
    let expected = std::fs::read(case.join("test_data_set_0/output_0.pb")).unwrap();
    let decode = |b: &[u8]| <padkit_onnx::pb::TensorProto as prost::Message>::decode(b).unwrap();
    assert_eq!(decode(&written).raw_data, decode(&expected).raw_data);
}

/// A build without the `candle` feature names it when asked for a candle engine, before
/// it reads any case.
#[test]
#[cfg(not(feature = "candle"))]
fn candle_engines_name_the_feature_they_need() {
    for engine in ["candle", "stock-candle", "core,candle"] {
        let out = padkit()
            .args(["conformance", "--engine", engine])
            .arg(data("onnx-conformance"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{engine}");
        let err = stderr(&out);
        assert!(
            err.contains("--features padkit-cli/candle"),
            "{engine}: {err}"
        );
        assert!(out.stdout.is_empty(), "{engine}");
    }
    let model = data("onnx-conformance/node/test_wrap_pad/model.onnx");
    let out = padkit()
        .args(["run", "--engine", "candle"])
        .arg(model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("the candle engine is not in this build"));
}

#[test]
fn missing_model_file() {
    let out = padkit()
        .args(["run", "/nonexistent/model.onnx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot read /nonexistent/model.onnx"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn not_onnx_and_truncated_protobuf() {
    let dir = std::env::temp_dir().join(format!("padkit-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("text.onnx"), "this is not a model\n").unwrap();
    let out = padkit()
        .arg("run")
        .arg(dir.join("text.onnx"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not an ONNX model"),
        "{}",
        stderr(&out)
    );
    let model = std::fs::read(data("onnx-conformance/node/test_edge_pad/model.onnx")).unwrap();
    std::fs::write(dir.join("cut.onnx"), &model[..model.len() / 2]).unwrap();
    let out = padkit()
        .arg("run")
        .arg(dir.join("cut.onnx"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not an ONNX model (protobuf decoding failed)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn missing_and_unknown_inputs() {
    let model = data("onnx-conformance/node/test_edge_pad/model.onnx");
    let out = padkit().arg("run").arg(&model).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no value for graph input \"x\""),
        "{}",
        stderr(&out)
    );
    let out = padkit()
        .arg("run")
        .arg(&model)
        .args(["--input", "nope=x.pb"])
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("the model has no graph input \"nope\" (inputs: x, pads)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn wrong_input_type_is_reported_with_the_node() {
    // feed the int32 data file as `pads`, and the pads file as data
    let case = data("onnx-conformance/node/test_edge_pad");
    let ds = case.join("test_data_set_0");
    for engine in ["core", "tract"] {
        let out = padkit()
            .arg("run")
            .arg(case.join("model.onnx"))
            .args(["--engine", engine])
            .arg("--input")
            .arg(format!("x={}", ds.join("input_0.pb").display()))
            .arg("--input")
            .arg(format!("pads={}", ds.join("input_0.pb").display()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{engine}");
        assert!(
            !stderr(&out).contains("panicked"),
            "{engine}: {}",
            stderr(&out)
        );
        assert!(
            stderr(&out).starts_with("padkit: "),
            "{engine}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn self_check_passes() {
    let out = padkit().output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().last().unwrap().contains(" passed, 0 failed, "),
        "{text}"
    );
}

#[test]
fn npy_input_feeds_the_data() {
    // a float32 [1,3,4,5] .npy made from the conformance data, fed with the .pb pads
    let case = data("onnx-conformance/node/test_edge_pad");
    let ds = case.join("test_data_set_0");
    let dir = std::env::temp_dir().join(format!("padkit-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x = padkit_onnx::proto::tensor_from_proto(
        &<padkit_onnx::pb::TensorProto as prost::Message>::decode(
            &*std::fs::read(ds.join("input_0.pb")).unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let values = x.to_vec::<i32>().unwrap();
    let mut npy = vec![];
    {
        use npyz::WriterBuilder;
        let mut w = npyz::WriteOptions::<i32>::new()
            .default_dtype()
            .shape(&[1, 3, 4, 5])
            .writer(&mut npy)
            .begin_nd()
            .unwrap();
        w.extend(values.iter().copied()).unwrap();
        w.finish().unwrap();
    }
    std::fs::write(dir.join("x.npy"), &npy).unwrap();
    let out = padkit()
        .arg("run")
        .arg(case.join("model.onnx"))
        .arg("--input")
        .arg(format!("x={}", dir.join("x.npy").display()))
        .arg("--input")
        .arg(format!("pads={}", ds.join("input_1.pb").display()))
        .args(["--output-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let decode = |b: &[u8]| <padkit_onnx::pb::TensorProto as prost::Message>::decode(b).unwrap();
    let got = decode(&std::fs::read(dir.join("y.pb")).unwrap());
    let want = decode(&std::fs::read(ds.join("output_0.pb")).unwrap());
    assert_eq!(got.raw_data, want.raw_data);
}

#[test]
fn wrong_input_shape_names_the_numbers() {
    // pads of test_edge_pad (8 values) fed to test_constant_pad_axes, which pads 2 axes
    let case = data("onnx-conformance/node/test_constant_pad_axes/test_data_set_0");
    let pads8 = data("onnx-conformance/node/test_edge_pad/test_data_set_0/input_1.pb");
    for engine in ["core", "tract", "burn"] {
        let out = padkit()
            .arg("run")
            .arg(data(
                "onnx-conformance/node/test_constant_pad_axes/model.onnx",
            ))
            .args(["--engine", engine, "--data-set"])
            .arg(&case)
            .arg("--input")
            .arg(format!("pads={}", pads8.display()))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{engine}");
        // checked against the graph's declaration before any engine runs
        let want = "graph input \"pads\" is declared with shape [4], the data has shape [8]";
        assert!(
            stderr(&out).starts_with("padkit: ") && stderr(&out).contains(want),
            "{engine}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn input_of_another_type_than_declared() {
    let case = data("onnx-conformance/node/test_edge_pad");
    let ds = case.join("test_data_set_0");
    // the float32 data of test_constant_pad fed as the int32 x of test_edge_pad
    let float_x = data("onnx-conformance/node/test_constant_pad/test_data_set_0/input_0.pb");
    let out = padkit()
        .arg("run")
        .arg(case.join("model.onnx"))
        .arg("--input")
        .arg(format!("x={}", float_x.display()))
        .arg("--input")
        .arg(format!("pads={}", ds.join("input_1.pb").display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("graph input \"x\" is declared int32, the data is float"),
        "{}",
        stderr(&out)
    );
}

/// A model whose pads are stored as external data beside it runs on every engine, and the
/// answer is the naive reference's.
#[test]
fn external_data_beside_the_model_runs_on_every_engine() {
    use padkit_onnx::proto::tensor_to_proto;
    use padkit_onnx_tools::model::{Feed, PadModel};
    use prost::Message;
    let dir = std::env::temp_dir().join(format!("padkit-external-{}", std::process::id()));
    let case = dir.join("case");
    std::fs::create_dir_all(case.join("test_data_set_0")).unwrap();
    let values: Vec<f32> = (0..6).map(|i| i as f32).collect();
    let x = padkit::Tensor::from_slice(&[2, 3], &values).unwrap();
    let pads = vec![1, 0, 0, 2];
    let mut proto = PadModel::new(13, "edge", x.clone(), pads.clone(), Feed::Initializer).proto();
    let init = &mut proto.graph.as_mut().unwrap().initializer[0];
    std::fs::write(case.join("weights.bin"), std::mem::take(&mut init.raw_data)).unwrap();
    init.data_location = 1;
    init.external_data = vec![padkit_onnx::pb::StringStringEntryProto {
        key: "location".into(),
        value: "weights.bin".into(),
    }];
    std::fs::write(case.join("model.onnx"), proto.encode_to_vec()).unwrap();
    let reference =
        padkit_conformance::reference::Case::new(vec![2, 3], pads, padkit::PadMode::Edge);
    let (shape, want) = reference.reference(&values, 0.0, 1 << 10).unwrap();
    let y = padkit::Tensor::from_slice(&shape, &want).unwrap();
    let set = case.join("test_data_set_0");
    std::fs::write(
        set.join("input_0.pb"),
        tensor_to_proto(&x, "x").encode_to_vec(),
    )
    .unwrap();
    std::fs::write(
        set.join("output_0.pb"),
        tensor_to_proto(&y, "y").encode_to_vec(),
    )
    .unwrap();
    let out = padkit()
        .args(["conformance", "--engine", "all"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert_eq!(
        text.lines().last(),
        Some("3 passed, 0 failed, 0 skipped"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--strict-onnx` on `conformance`, `run` and `lower`: the cases beyond ONNX of the small
/// suite (reflect wider than an axis, or of an axis of one element) pass on padkit's
/// engines with numpy's answer, and with ONNX's refusal under `--strict-onnx`, which
/// `run` and `lower` give.
#[test]
fn strict_onnx_refuses_the_cases_beyond_onnx() {
    let dir = std::env::temp_dir().join(format!("padkit-strict-{}", std::process::id()));
    let suite = dir.join("suite");
    let out = padkit()
        .args(["suite", "export", "--small", "--tag", "onnx:beyond"])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let graded = |strict: bool| {
        let mut cmd = padkit();
        cmd.args(["conformance", "--engine", "all", "--exit-zero"]);
        if strict {
            cmd.arg("--strict-onnx");
        }
        let out = cmd.arg(&suite).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines().last().unwrap_or_default().to_string()
    };
    let numpy = graded(false);
    assert!(numpy.contains(" passed, 0 failed, 0 skipped"), "{numpy}");
    let strict = graded(true);
    assert!(strict.contains(" passed, 0 failed, 0 skipped"), "{strict}");
    // (its pads an initializer: `lower` refuses it when it reads the model)
    let case = suite.join("test_padkit_opset25_reflect_float_wider_than_axis");
    let model = case.join("model.onnx");
    for args in [
        vec!["run", "--engine", "core", "--strict-onnx", "--data-set"],
        vec!["lower", "--strict-onnx"],
    ] {
        let mut cmd = padkit();
        cmd.args(&args);
        if args[0] == "run" {
            cmd.arg(case.join("test_data_set_0")).arg(&model);
        } else {
            cmd.arg(&model).arg(dir.join("lowered.onnx"));
        }
        let out = cmd.output().unwrap();
        assert!(
            !out.status.success(),
            "{}: {args:?} succeeded",
            case.display()
        );
        assert!(
            stderr(&out).contains("strict ONNX semantics"),
            "{}",
            stderr(&out)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
