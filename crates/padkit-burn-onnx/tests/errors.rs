//! What padkit-burn-onnx refuses is a clear error naming the node, not a panic: Pads
//! burn-onnx cannot reach (inside subgraphs) that it would refuse itself, and Pads whose
//! pads do not fit the data.

use onnx_ir::{AttributeProto, GraphProto, Message, ModelProto, NodeProto};

/// A model read from the official wrap test, to start from a valid one.
fn wrap_model() -> ModelProto {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/onnx-conformance/node/test_wrap_pad/model.onnx"
    );
    ModelProto::parse_from_bytes(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn top_level_pads_move_to_padkits_domain() {
    let bytes = padkit_burn_onnx::rewrite_model(&wrap_model().write_to_bytes().unwrap()).unwrap();
    let m = ModelProto::parse_from_bytes(&bytes).unwrap();
    let pad = m.graph.node.iter().find(|n| n.op_type == "Pad").unwrap();
    assert_eq!(pad.domain, padkit_burn_onnx::PAD_DOMAIN);
    let import = m
        .opset_import
        .iter()
        .find(|o| o.domain == padkit_burn_onnx::PAD_DOMAIN)
        .unwrap();
    assert_eq!(import.version, 25, "the Pad version is kept");
}

/// A wrap Pad in an If branch: burn-onnx's hooks do not reach it and its own Pad refuses it.
#[test]
fn wrap_pads_in_subgraphs_are_refused_by_name() {
    let mut m = wrap_model();
    let mut branch = GraphProto::new();
    let mut pad = m.graph.node[0].clone();
    pad.name = "inner_pad".into();
    branch.node.push(pad);
    let mut cond = NodeProto::new();
    cond.op_type = "If".into();
    cond.name = "branch".into();
    for name in ["then_branch", "else_branch"] {
        let mut a = AttributeProto::new();
        a.name = name.into();
        a.g = Some(branch.clone()).into();
        cond.attribute.push(a);
    }
    m.graph.mut_or_insert_default().node.push(cond);
    let err = padkit_burn_onnx::rewrite_model(&m.write_to_bytes().unwrap()).unwrap_err();
    assert!(
        err.starts_with(
            "Pad node \"inner_pad\" in attribute 'then_branch' of If node \"branch\" uses mode wrap"
        ),
        "{err}"
    );
}

/// `m` (the wrap model) with `pads` as an initializer in place of its graph input, and
/// its Pad node named `name`.
fn with_pads(mut m: ModelProto, pads: onnx_ir::TensorProto, name: &str) -> ModelProto {
    let g = m.graph.mut_or_insert_default();
    g.initializer.push(pads);
    g.input.retain(|i| i.name != "pads");
    g.node[0].name = name.into();
    m
}

/// `pads` named so, of ONNX type `data_type` and shape `dims`, eight zeros.
fn pads_tensor(data_type: i32, dims: Vec<i64>) -> onnx_ir::TensorProto {
    let mut pads = onnx_ir::TensorProto::new();
    pads.name = "pads".into();
    pads.data_type = data_type;
    pads.dims = dims;
    match data_type {
        1 => pads.float_data = vec![0.0; 8],
        _ => pads.int64_data = vec![0; 8],
    }
    pads
}

/// The error of importing `m`, written as `file`.
fn build_error(m: &ModelProto, file: &str) -> String {
    let dir = std::env::temp_dir().join(format!("padkit-burn-onnx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    std::fs::write(&path, m.write_to_bytes().unwrap()).unwrap();
    padkit_burn_onnx::ModelGen::new()
        .input(&path.to_string_lossy())
        .out_dir(&dir.join("out").to_string_lossy())
        .try_run_from_cli(&dir.join("scratch"))
        .unwrap_err()
        .to_string()
}

/// Pads of the wrong type or rank get padkit's one message for each
/// (`padkit::onnx::Operand`), the message the CLI's core, tract and burn engines give for
/// the same models (the CLI's `hostile` test).
#[test]
fn bad_operands_get_padkits_message() {
    for (pads, want) in [
        (
            pads_tensor(1, vec![8]),
            "Pad node \"bad\": input 'pads' has type float; Pad takes int64",
        ),
        (
            pads_tensor(7, vec![2, 4]),
            "Pad node \"bad\": input 'pads' must be 1-D, it has rank 2",
        ),
    ] {
        let err = build_error(&with_pads(wrap_model(), pads, "bad"), "bad.onnx");
        assert!(err.contains(want), "{err}");
    }
}

/// Pads that crop past the axis, known at build time: the op's check fails the
/// import with padkit's message naming the model's node (not burn-onnx's `custom1`),
/// through burn-onnx's parser, as an error.
#[test]
fn pads_that_do_not_fit_are_build_errors() {
    // pads [0,0,-9,0, 0,0,2,0] on a [1,3,4,5] input, reflect
    let mut pads = pads_tensor(7, vec![8]);
    pads.int64_data = vec![0, 0, -9, 0, 0, 0, 2, 0];
    let mut m = with_pads(wrap_model(), pads, "too_much_crop");
    let mode = m.graph.mut_or_insert_default().node[0]
        .attribute
        .iter_mut()
        .find(|a| a.name == "mode")
        .unwrap();
    mode.s = "reflect".into();
    let err = build_error(&m, "crop.onnx");
    assert!(
        err.contains(
            "Pad node \"too_much_crop\": axis 2: output extent would be -3 (extent 4, begin -9, end 2"
        ),
        "{err}"
    );
}
