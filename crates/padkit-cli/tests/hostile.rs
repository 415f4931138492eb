//! Hostile and malformed input, by class (numbered on each test): every file ends in a
//! clear error (exit 1, a message naming the node, input or axis and the numbers) or the
//! right answer, the same way on the core, tract and burn engines, and on stock tract and
//! candle-onnx with the model lowered by padkit, for any runtime (`lowered-tract`,
//! `candle`) or for them (`targeted-tract`, `targeted-candle`).

use std::path::{Path, PathBuf};

use padkit::{DType, Data, Tensor};
use padkit_onnx::pb::{AttributeProto, ModelProto, NodeProto, TensorProto};
use padkit_onnx::proto::tensor_to_proto;
use padkit_onnx_tools::model::{Feed, PadModel};
use prost::Message;

const ENGINES: [&str; 8] = [
    "core",
    "tract",
    "burn",
    "lowered-tract",
    "targeted-tract",
    "targeted-tract-gpu",
    "candle",
    "targeted-candle",
];

/// The engines that refuse bad pads fed at run time with padkit's message (padkit-candle
/// takes the fed pads as constants of the call). padkit-lower computes such Pads' index
/// maps in the graph, which fails where the original must, but with the runtime's own
/// error (a Gather out of range), so the `…-tract` engines on lowered models are not among
/// them.
const RUNTIME_PADS_ENGINES: [&str; 5] = ["core", "tract", "burn", "candle", "targeted-candle"];

/// `engines` less those this build lacks (the candle engines need the `candle` feature).
fn built<'a>(engines: &[&'a str]) -> Vec<&'a str> {
    let candle = cfg!(feature = "candle");
    engines
        .iter()
        .copied()
        .filter(|e| candle || !e.contains("candle"))
        .collect()
}

/// A fresh directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("padkit-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_model(dir: &Path, name: &str, model: &ModelProto) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, model.encode_to_vec()).unwrap();
    path
}

fn write_tensor(dir: &Path, name: &str, t: &TensorProto) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, t.encode_to_vec()).unwrap();
    path
}

mod common;
use common::{padkit, text};

/// Runs `padkit run MODEL --engine E ARGS…` on every engine; each must exit 1 with a
/// message containing `want`.
fn refused_everywhere(model: &Path, args: &[&str], want: &str) {
    refused_on(&built(&ENGINES), model, args, want);
}

/// [`refused_everywhere`] on `engines`.
fn refused_on(engines: &[&str], model: &Path, args: &[&str], want: &str) {
    for &engine in engines {
        let mut all = vec!["run", model.to_str().unwrap(), "--engine", engine];
        all.extend_from_slice(args);
        let out = padkit(&all);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{engine}: {err}");
        assert!(
            err.starts_with("padkit: ") && err.contains(want),
            "{engine}: {err}"
        );
        assert!(!err.contains("panicked"), "{engine}: {err}");
    }
}

/// One Pad model whose pads (and value) are initializers, data `x` a graph input.
fn pad_model(opset: i64, mode: &str, x: Tensor, pads: Vec<i64>) -> PadModel {
    PadModel::new(opset, mode, x, pads, Feed::Initializer)
}

fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_slice(shape, v).unwrap()
}

/// `x` written next to the model, as `--input x=FILE`.
fn x_arg(dir: &Path, x: &Tensor) -> String {
    let path = write_tensor(dir, "x.pb", &tensor_to_proto(x, "x"));
    format!("x={}", path.display())
}

/// Class 0: pads at the ends of i64 crop far past the axis in edge and reflect mode:
/// every engine refuses them with a clear error.
#[test]
fn pads_at_the_ends_of_i64_are_refused() {
    let dir = scratch("extreme");
    let x = f32s(&[3], &[1.0, 2.0, 3.0]);
    let xa = x_arg(&dir, &x);
    for (mode, pads) in [
        ("edge", vec![i64::MIN, i64::MAX]),
        ("reflect", vec![i64::MAX, i64::MIN]),
    ] {
        let m = write_model(
            &dir,
            &format!("{mode}.onnx"),
            &pad_model(13, mode, x.clone(), pads).proto(),
        );
        refused_everywhere(&m, &["--input", &xa], &format!("mode {mode} crops"));
    }
}

/// Class 1: a Constant node without outputs, a graph output nothing produces, and an
/// output too large to allocate: errors, not panics.
#[test]
fn malformed_graphs_and_huge_outputs_are_errors() {
    let dir = scratch("panics");
    let x = f32s(&[2], &[1.0, 2.0]);
    let xa = x_arg(&dir, &x);
    let mut m = pad_model(13, "constant", x.clone(), vec![1, 1]).proto();
    let g = m.graph.as_mut().unwrap();
    g.node.insert(
        0,
        NodeProto {
            name: "c".into(),
            op_type: "Constant".into(),
            attribute: vec![AttributeProto {
                name: "value".into(),
                r#type: 4,
                t: Some(tensor_to_proto(&Tensor::scalar(1.0f32), "")),
                ..Default::default()
            }],
            ..Default::default()
        },
    );
    let path = write_model(&dir, "constant.onnx", &m);
    refused_everywhere(
        &path,
        &["--input", &xa],
        "Constant node \"c\" has 0 outputs",
    );

    let mut m = pad_model(13, "constant", x.clone(), vec![1, 1]).proto();
    m.graph.as_mut().unwrap().output[0].name = "nowhere".into();
    let path = write_model(&dir, "output.onnx", &m);
    refused_everywhere(
        &path,
        &["--input", &xa],
        "graph output \"nowhere\" is produced by no node",
    );

    // 10^12 bytes from runtime pads: above any machine's memory here
    let m = PadModel::new(13, "constant", x, vec![0, 250_000_000_000], Feed::Input);
    let path = write_model(&dir, "huge.onnx", &m.proto());
    let pads = write_tensor(&dir, "pads.pb", &tensor_to_proto(&m.inputs()[1], "pads"));
    let pads_arg = format!("pads={}", pads.display());
    refused_on(
        &built(&RUNTIME_PADS_ENGINES),
        &path,
        &["--input", &xa, "--input", &pads_arg],
        "1000000000008 bytes",
    );
}

/// Class 1, last line of defence: in `conformance`, a broken case is one failure among
/// the others, not the end of the run.
#[test]
fn conformance_counts_a_broken_case_as_one_failure() {
    let dir = scratch("isolation");
    let good = dir.join("good");
    std::fs::create_dir_all(good.join("test_data_set_0")).unwrap();
    let x = f32s(&[2], &[1.0, 2.0]);
    let m = pad_model(13, "edge", x.clone(), vec![1, 0]);
    write_model(&good, "model.onnx", &m.proto());
    write_tensor(
        &good.join("test_data_set_0"),
        "input_0.pb",
        &tensor_to_proto(&x, "x"),
    );
    let y = f32s(&[3], &[1.0, 1.0, 2.0]);
    write_tensor(
        &good.join("test_data_set_0"),
        "output_0.pb",
        &tensor_to_proto(&y, "y"),
    );
    let bad = dir.join("bad");
    std::fs::create_dir_all(bad.join("test_data_set_0")).unwrap();
    std::fs::write(bad.join("model.onnx"), b"not a model").unwrap();
    let out = padkit(&["conformance", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("3 passed, 1 failed, 0 skipped"),
        "{stdout}"
    );
}

/// Class 2: a 64 MiB output runs in 450 MB of address space, most of which the binary and
/// its threads take: the output is never formatted whole, and written without copies.
#[test]
fn memory_stays_proportional_to_the_data() {
    let dir = scratch("memory");
    let x = Tensor::from_slice(&[1], &[7u8]).unwrap();
    let xa = x_arg(&dir, &x);
    let m = write_model(
        &dir,
        "big.onnx",
        &pad_model(13, "edge", x, vec![0, 64 << 20]).proto(),
    );
    for engine in ["core", "burn", "tract"] {
        let script = format!(
            "ulimit -v 450000; exec {} run {} --engine {engine} --input {xa} --output-dir {}",
            assert_cmd::cargo::cargo_bin("padkit").display(),
            m.display(),
            dir.display()
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            "y: uint8 [67108865] [7, 7, 7, 7, 7, 7, 7, 7, …]\n",
            "{engine}"
        );
        let written = TensorProto::decode(&*std::fs::read(dir.join("y.pb")).unwrap()).unwrap();
        assert_eq!(
            (written.name.as_str(), &written.dims[..]),
            ("y", &[67108865][..])
        );
        assert!(written.raw_data.len() == 67108865 && written.raw_data.iter().all(|&b| b == 7));
    }
}

/// Class 3: outputs above `--max-output-bytes` are refused before they are allocated,
/// saying how big they would be.
#[test]
fn outputs_above_the_limit_are_refused() {
    let dir = scratch("limit");
    let x = f32s(&[2], &[1.0, 2.0]);
    let xa = x_arg(&dir, &x);
    let m = write_model(
        &dir,
        "m.onnx",
        &pad_model(19, "wrap", x, vec![0, 1000]).proto(),
    );
    refused_everywhere(
        &m,
        &["--input", &xa, "--max-output-bytes", "1000"],
        "4008 bytes",
    );
    // The same pads fed at run time: tract's plan meets them only as the Pad runs, so the
    // limit must travel with the op into the optimised plan.
    let m = PadModel::new(
        19,
        "wrap",
        f32s(&[2], &[1.0, 2.0]),
        vec![0, 1000],
        Feed::Input,
    );
    let path = write_model(&dir, "runtime.onnx", &m.proto());
    let pads = write_tensor(&dir, "pads.pb", &tensor_to_proto(&m.inputs()[1], "pads"));
    let pads_arg = format!("pads={}", pads.display());
    refused_on(
        &built(&RUNTIME_PADS_ENGINES),
        &path,
        &[
            "--input",
            &xa,
            "--input",
            &pads_arg,
            "--max-output-bytes",
            "1000",
        ],
        "4008 bytes",
    );
}

/// Class 4: symbolic links to directories are not followed: two links back to `.` neither
/// hang the walk nor repeat the case.
#[cfg(unix)]
#[test]
fn conformance_does_not_follow_directory_links() {
    let dir = scratch("links");
    let case = dir.join("case");
    std::fs::create_dir_all(case.join("test_data_set_0")).unwrap();
    let x = f32s(&[2], &[1.0, 2.0]);
    write_model(
        &case,
        "model.onnx",
        &pad_model(13, "edge", x.clone(), vec![0, 1]).proto(),
    );
    write_tensor(
        &case.join("test_data_set_0"),
        "input_0.pb",
        &tensor_to_proto(&x, "x"),
    );
    let y = f32s(&[3], &[1.0, 2.0, 2.0]);
    write_tensor(
        &case.join("test_data_set_0"),
        "output_0.pb",
        &tensor_to_proto(&y, "y"),
    );
    std::os::unix::fs::symlink(".", dir.join("loop1")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("loop2")).unwrap();
    let out = padkit(&["conformance", "--engine", "core", dir.to_str().unwrap()]);
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("1 passed, 0 failed, 0 skipped")
    );
}

/// Class 5: a Fortran-order `.npy` is read in its own order.
#[test]
fn fortran_order_npy_is_transposed() {
    let dir = scratch("fortran");
    // 1..6 as a [2, 3] array stored column by column
    let header = "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }";
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    let padded = format!("{header:<117}\n");
    npy.extend_from_slice(&(padded.len() as u16).to_le_bytes());
    npy.extend_from_slice(padded.as_bytes());
    for v in [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0] {
        npy.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(dir.join("x.npy"), &npy).unwrap();
    let x = f32s(&[2, 3], &[0.0; 6]);
    let m = write_model(
        &dir,
        "m.onnx",
        &pad_model(13, "constant", x, vec![0, 1, 0, 0]).proto(),
    );
    let xa = format!("x={}", dir.join("x.npy").display());
    for engine in built(&ENGINES) {
        let out = padkit(&[
            "run",
            m.to_str().unwrap(),
            "--engine",
            engine,
            "--input",
            &xa,
        ]);
        assert_eq!(
            text(&out.stdout),
            "y: float [2, 4] [0, 1, 2, 3, 0, 4, 5, 6]\n",
            "{engine}: {}",
            text(&out.stderr)
        );
    }
}

/// Class 5: every graph output is reported under its own name with its own value, also
/// when it is a Constant or the graph input itself.
#[test]
fn every_graph_output_is_its_own_value() {
    let dir = scratch("outputs");
    let x = f32s(&[2], &[1.0, 2.0]);
    let xa = x_arg(&dir, &x);
    let mut m = pad_model(13, "constant", x, vec![1, 0]).proto();
    let g = m.graph.as_mut().unwrap();
    g.node.insert(
        0,
        NodeProto {
            name: "c".into(),
            op_type: "Constant".into(),
            output: vec!["c".into()],
            attribute: vec![AttributeProto {
                name: "value".into(),
                r#type: 4,
                t: Some(tensor_to_proto(&Tensor::scalar(9i64), "")),
                ..Default::default()
            }],
            ..Default::default()
        },
    );
    let y = g.output[0].clone();
    g.output = vec![
        padkit_onnx::pb::ValueInfoProto {
            name: "c".into(),
            ..y.clone()
        },
        padkit_onnx::pb::ValueInfoProto {
            name: "x".into(),
            ..y.clone()
        },
        y,
    ];
    let path = write_model(&dir, "m.onnx", &m);
    for engine in built(&ENGINES) {
        let out = padkit(&[
            "run",
            path.to_str().unwrap(),
            "--engine",
            engine,
            "--input",
            &xa,
        ]);
        assert_eq!(
            text(&out.stdout),
            "c: int64 [] [9]\nx: float [2] [1, 2]\ny: float [3] [0, 1, 2]\n",
            "{engine}: {}",
            text(&out.stderr)
        );
    }
}

/// Class 5: bool bytes other than 0 and 1 are read as ONNX reads them (non-zero is true).
#[test]
fn bool_bytes_are_normalised() {
    let dir = scratch("bool");
    let x = TensorProto {
        name: "x".into(),
        data_type: 9,
        dims: vec![3],
        raw_data: vec![0, 2, 255],
        ..Default::default()
    };
    let xa = format!("x={}", write_tensor(&dir, "x.pb", &x).display());
    let shape_of = Tensor::new(DType::Bool, vec![3], Data::Bytes(vec![0; 3])).unwrap();
    let m = write_model(
        &dir,
        "m.onnx",
        &pad_model(13, "edge", shape_of, vec![1, 0]).proto(),
    );
    for engine in built(&ENGINES) {
        let out = padkit(&[
            "run",
            m.to_str().unwrap(),
            "--engine",
            engine,
            "--input",
            &xa,
        ]);
        assert_eq!(
            text(&out.stdout),
            "y: bool [4] [false, false, true, true]\n",
            "{engine}: {}",
            text(&out.stderr)
        );
    }
}

/// Class 6: output names cannot lead outside `--output-dir`, nor put escape sequences on
/// the terminal.
#[test]
fn output_names_stay_inside_the_directory() {
    let dir = scratch("names");
    let out_dir = dir.join("out");
    let x = f32s(&[1], &[1.0]);
    let xa = x_arg(&dir, &x);
    for (i, name) in ["../escaped", "/tmp/padkit-absolute-escape", "a\u{1b}[2Jb"]
        .iter()
        .enumerate()
    {
        let mut m = pad_model(13, "constant", x.clone(), vec![0, 0]).proto();
        let g = m.graph.as_mut().unwrap();
        g.node[0].output[0] = name.to_string();
        g.output[0].name = name.to_string();
        let path = write_model(&dir, &format!("m{i}.onnx"), &m);
        for engine in built(&ENGINES) {
            let out = padkit(&[
                "run",
                path.to_str().unwrap(),
                "--engine",
                engine,
                "--input",
                &xa,
                "--output-dir",
                out_dir.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
            assert!(!text(&out.stdout).contains('\u{1b}'), "{engine}");
        }
    }
    assert!(!dir.join("escaped.pb").exists());
    assert!(!Path::new("/tmp/padkit-absolute-escape.pb").exists());
    let mut written: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "%2E.%2Fescaped.pb",
            "%2Ftmp%2Fpadkit-absolute-escape.pb",
            "a%1B%5B2Jb.pb"
        ]
    );
}

/// Class 7: what the ONNX spec does not allow is refused on every engine.
#[test]
fn invalid_models_are_refused_everywhere() {
    let dir = scratch("invalid");
    let x = f32s(&[2], &[1.0, 2.0]);
    let xa = x_arg(&dir, &x);
    let base = pad_model(13, "constant", x.clone(), vec![1, 1]);
    let mut m = base.proto();
    m.opset_import[0].version = 29;
    let p = write_model(&dir, "opset.onnx", &m);
    refused_everywhere(
        &p,
        &["--input", &xa],
        "imports opset 29 of the default ONNX domain",
    );
    let mut m = base.proto();
    m.ir_version = 15;
    let p = write_model(&dir, "ir.onnx", &m);
    refused_everywhere(&p, &["--input", &xa], "IR version 15");
    let mut m = base.proto();
    m.opset_import.clear();
    let p = write_model(&dir, "noopset.onnx", &m);
    refused_everywhere(
        &p,
        &["--input", &xa],
        "imports no opset of the default ONNX domain",
    );
    // Float pads, 2-D pads, an int64 value for float data, a two-element value: each
    // engine gives padkit's one message for each (`padkit::onnx::Operand`), under the node.
    let mut m = base.proto();
    m.graph.as_mut().unwrap().initializer[0] = tensor_to_proto(&f32s(&[2], &[1.0, 1.0]), "pads");
    let p = write_model(&dir, "floatpads.onnx", &m);
    refused_everywhere(
        &p,
        &["--input", &xa],
        "Pad node \"the_pad\": input 'pads' has type float; Pad takes int64",
    );
    let mut m = base.proto();
    m.graph.as_mut().unwrap().initializer[0] =
        tensor_to_proto(&Tensor::from_slice(&[1, 2], &[1i64, 1]).unwrap(), "pads");
    let p = write_model(&dir, "pads2d.onnx", &m);
    refused_everywhere(
        &p,
        &["--input", &xa],
        "Pad node \"the_pad\": input 'pads' must be 1-D, it has rank 2",
    );
    for (name, value, want) in [
        (
            "intvalue",
            Tensor::scalar(1i64),
            "Pad node \"the_pad\": constant value has type int64 but the data has type float",
        ),
        (
            "twovalues",
            f32s(&[2], &[1.0, 2.0]),
            "Pad node \"the_pad\": constant value must hold one element, it holds 2",
        ),
    ] {
        let m = base.clone().with_value(value, Feed::Initializer);
        let p = write_model(&dir, &format!("{name}.onnx"), &m.proto());
        refused_everywhere(&p, &["--input", &xa], want);
    }
    // a type Pad-11 does not take
    let b = Tensor::new(DType::Bool, vec![2], Data::Bytes(vec![1, 0])).unwrap();
    let p = write_model(
        &dir,
        "bool11.onnx",
        &pad_model(11, "constant", b.clone(), vec![1, 1]).proto(),
    );
    let ba = format!(
        "x={}",
        write_tensor(&dir, "b.pb", &tensor_to_proto(&b, "x")).display()
    );
    refused_everywhere(
        &p,
        &["--input", &ba],
        "Pad-11 does not take element type bool",
    );
}

/// Class 7: tensors ONNX does not allow are refused when read.
#[test]
fn invalid_tensors_are_refused() {
    let dir = scratch("tensors");
    let x = f32s(&[2], &[1.0, 2.0]);
    let m = write_model(
        &dir,
        "m.onnx",
        &pad_model(13, "constant", x, vec![1, 1]).proto(),
    );
    let both = TensorProto {
        name: "x".into(),
        data_type: 1,
        dims: vec![2],
        float_data: vec![1.0, 2.0],
        raw_data: vec![0; 8],
        ..Default::default()
    };
    let arg = format!("x={}", write_tensor(&dir, "both.pb", &both).display());
    refused_everywhere(
        &m,
        &["--input", &arg],
        "both raw_data and float_data are set",
    );
    let i8s = TensorProto {
        name: "x".into(),
        data_type: 3,
        dims: vec![2],
        int32_data: vec![1, 300],
        ..Default::default()
    };
    let arg = format!("x={}", write_tensor(&dir, "i8.pb", &i8s).display());
    refused_everywhere(
        &m,
        &["--input", &arg],
        "value 300 at index 1 does not fit element type int8",
    );
    let arg = x_arg(&dir, &f32s(&[2], &[1.0, 2.0]));
    refused_everywhere(
        &m,
        &["--input", &arg, "--input", &arg],
        "--input \"x\" is given twice",
    );
}

/// Class 8: messages say what is wrong in the user's terms.
#[test]
fn messages_name_the_problem() {
    let dir = scratch("messages");
    let x = f32s(&[2, 3], &[0.0; 6]);
    let m = write_model(
        &dir,
        "m.onnx",
        &pad_model(13, "constant", x, vec![0, 0, 0, 0]).proto(),
    );
    // bytes, not elements
    let short = TensorProto {
        name: "x".into(),
        data_type: 1,
        dims: vec![2, 3],
        raw_data: vec![0; 20],
        ..Default::default()
    };
    let arg = format!("x={}", write_tensor(&dir, "short.pb", &short).display());
    refused_everywhere(
        &m,
        &["--input", &arg],
        "holds 20 bytes but shape [2, 3] needs 24 bytes",
    );
    // a shape whose element count overflows
    let huge = TensorProto {
        name: "x".into(),
        data_type: 1,
        dims: vec![1 << 40, 1 << 40],
        ..Default::default()
    };
    let arg = format!("x={}", write_tensor(&dir, "huge.pb", &huge).display());
    refused_everywhere(
        &m,
        &["--input", &arg],
        "has more elements than memory can address",
    );
    // an attribute of the wrong type
    let mut bad = pad_model(13, "constant", f32s(&[2, 3], &[0.0; 6]), vec![0, 0, 0, 0]).proto();
    bad.graph.as_mut().unwrap().node[0].attribute[0] = AttributeProto {
        name: "mode".into(),
        r#type: 2,
        i: 2,
        ..Default::default()
    };
    let p = write_model(&dir, "attr.onnx", &bad);
    let xa = x_arg(&dir, &f32s(&[2, 3], &[0.0; 6]));
    refused_everywhere(
        &p,
        &["--input", &xa],
        "attribute 'mode' must be STRING, it is INT",
    );
    // a truncated .npy
    let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    let padded = format!("{header:<117}\n");
    npy.extend_from_slice(&(padded.len() as u16).to_le_bytes());
    npy.extend_from_slice(padded.as_bytes());
    npy.extend_from_slice(&[0; 20]);
    std::fs::write(dir.join("cut.npy"), &npy).unwrap();
    let arg = format!("x={}", dir.join("cut.npy").display());
    refused_everywhere(
        &m,
        &["--input", &arg],
        "cut.npy is truncated: its header says shape [2, 3] of <f4 (24 bytes of data) but it holds 20 bytes (4 missing)",
    );
    // the burn engine names itself and the node it cannot run
    let mut relu = pad_model(13, "constant", f32s(&[2, 3], &[0.0; 6]), vec![0, 0, 0, 0]).proto();
    relu.graph.as_mut().unwrap().node[0].op_type = "Relu".into();
    relu.graph.as_mut().unwrap().node[0].input.truncate(1);
    let p = write_model(&dir, "relu.onnx", &relu);
    let out = padkit(&[
        "run",
        p.to_str().unwrap(),
        "--engine",
        "burn",
        "--input",
        &xa,
    ]);
    assert!(text(&out.stderr).contains("the burn engine evaluates graphs of Pad, Constant and Identity nodes; Relu node \"the_pad\" is not one"), "{}", text(&out.stderr));
    // an empty conformance directory is an error
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = padkit(&["conformance", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no ONNX test cases"),
        "{}",
        text(&out.stderr)
    );
}

/// Class 9: a case short of its data is the case's fault, not the engines': a data set
/// without an input per graph input, or without the expected output, fails once, for no
/// engine, saying what is missing; and cases without any data set test nothing, which
/// fails too.
#[test]
fn incomplete_cases_fail_once_and_testing_nothing_fails() {
    let dir = scratch("incomplete");
    let x = f32s(&[2], &[1.0, 2.0]);
    let y = f32s(&[3], &[1.0, 1.0, 2.0]);
    let m = pad_model(13, "edge", x.clone(), vec![1, 0]).proto();
    let no_input = dir.join("no_input");
    let set = no_input.join("test_data_set_0");
    std::fs::create_dir_all(&set).unwrap();
    write_model(&no_input, "model.onnx", &m);
    write_tensor(&set, "output_0.pb", &tensor_to_proto(&y, "y"));
    let no_output = dir.join("no_output");
    let set = no_output.join("test_data_set_0");
    std::fs::create_dir_all(&set).unwrap();
    write_model(&no_output, "model.onnx", &m);
    write_tensor(&set, "input_0.pb", &tensor_to_proto(&x, "x"));
    let out = padkit(&["conformance", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("0 passed, 2 failed, 0 skipped"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the case is incomplete: model takes 1 inputs, data set holds 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "the case is incomplete: its expected output {} is missing",
            set.join("output_0.pb").display()
        )),
        "{stdout}"
    );

    let bare = scratch("bare");
    write_model(&bare, "model.onnx", &m);
    let out = padkit(&["conformance", bare.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("0 passed, 0 failed, 0 skipped")
    );
    assert!(
        text(&out.stderr).contains("nothing was tested: the cases hold no data set"),
        "{}",
        text(&out.stderr)
    );
}
