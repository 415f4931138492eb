//! NNEF round trips: a model holding padkit's Pad is written with tract-nnef and read back
//! with padkit's registry, then runs to the same output: every mode, negative pads,
//! symbolic shapes, runtime pads and axes, fill values of several types. Pads that NNEF's
//! own `pad` expresses exactly are written as `pad` and read by stock tract-nnef, without
//! padkit; a file holding `padkit_pad` is refused by stock tract-nnef with a message that
//! names padkit's extension, and hostile `padkit_pad` parameters are refused cleanly.

use padkit::{PadMode, Tensor};
use padkit_onnx_tools::model::{Feed, PadModel};
use padkit_tract::nnef::WithPadkit;
use padkit_tract::{Given, PadkitPad};
use padkit_tract::{from_tract, to_tract};
use tract_onnx::prelude::*;
use tract_onnx::tract_core::ops::array::Pad as CorePad;

/// Writes `model` to an NNEF archive and reads it back with padkit's extension.
fn round_trip(model: &TypedModel) -> TypedModel {
    let nnef = tract_nnef::nnef().with_padkit();
    let buffer = nnef.write_to_tar(model, vec![]).unwrap();
    nnef.model_for_read(&mut &buffer[..]).unwrap()
}

fn run(model: TypedModel, inputs: &[padkit::Tensor]) -> Vec<padkit::Tensor> {
    let inputs = inputs
        .iter()
        .map(|t| to_tract(t).unwrap().into_tvalue())
        .collect();
    let out = model.into_runnable().unwrap().run(inputs).unwrap();
    out.iter().map(|t| from_tract(t).unwrap()).collect()
}

/// How a Pad is written to NNEF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    /// NNEF's `pad`, read back as tract-core's Pad, by stock tract-nnef too.
    Stock,
    /// padkit's `padkit_pad`, read back as padkit's Pad.
    Padkit,
}

fn optimized(m: &PadModel) -> TypedModel {
    padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&m.proto()).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap()
}

fn check(m: &PadModel, written: Written) {
    let model = optimized(m);
    assert!(
        model.nodes().iter().any(|n| n.op_is::<PadkitPad>()),
        "{model}"
    );
    let back = round_trip(&model);
    let read_as_core = back.nodes().iter().any(|n| n.op_is::<CorePad>());
    let read_as_padkit = back.nodes().iter().any(|n| n.op_is::<PadkitPad>());
    match written {
        Written::Stock => assert!(read_as_core && !read_as_padkit, "{back}"),
        Written::Padkit => assert!(read_as_padkit && !read_as_core, "{back}"),
    }
    let (before, after) = (model.output_fact(0).unwrap(), back.output_fact(0).unwrap());
    if m.pads.1 == Feed::Input {
        // runtime pads: the output's dims are symbols minted anew when the model loads
        assert_eq!(before.rank(), after.rank());
    } else {
        assert_eq!(format!("{:?}", before.shape), format!("{:?}", after.shape));
    }
    let inputs = m.inputs();
    assert_eq!(run(model, &inputs), run(back, &inputs));
}

fn x() -> Tensor {
    Tensor::from_slice(
        &[2, 3, 4],
        &(0..24).map(|i| i as f32 * 0.5).collect::<Vec<_>>(),
    )
    .unwrap()
}

#[test]
fn every_mode_with_negative_pads_round_trips() {
    for mode in ["constant", "reflect", "edge", "wrap"] {
        let m = PadModel::new(19, mode, x(), vec![1, -1, 2, 0, 3, -2], Feed::Initializer);
        check(&m, Written::Padkit);
    }
    let m = PadModel::new(
        19,
        "constant",
        x(),
        vec![1, 0, 0, 0, 0, 2],
        Feed::Initializer,
    )
    .with_value(Tensor::scalar(-7.25f32), Feed::Initializer);
    check(&m, Written::Stock);
    // 2^24 + 1: NNEF's `pad` carries its value as an f32, which would round it
    let ints = Tensor::from_slice(&[2, 3], &[1i64, 2, 3, 4, 5, 6]).unwrap();
    let m = PadModel::new(
        13,
        "constant",
        ints.clone(),
        vec![0, 1, 0, 1],
        Feed::Initializer,
    )
    .with_value(Tensor::scalar(16_777_217i64), Feed::Initializer);
    check(&m, Written::Padkit);
    let m = PadModel::new(13, "constant", ints, vec![0, 1, 0, 1], Feed::Initializer)
        .with_value(Tensor::scalar(16_777_216i64), Feed::Initializer);
    check(&m, Written::Stock);
}

#[test]
fn symbolic_shapes_round_trip() {
    let mut m = PadModel::new(19, "wrap", x(), vec![0, 1, 2, 0, 1, 2], Feed::Initializer);
    m.symbolic_dims = vec![Some("N".into()), None, Some("W".into())];
    check(&m, Written::Padkit);
    let mut m = PadModel::new(
        19,
        "constant",
        x(),
        vec![0, 1, 2, 0, 1, 2],
        Feed::Initializer,
    );
    m.symbolic_dims = vec![Some("N".into()), None, Some("W".into())];
    check(&m, Written::Stock);
}

#[test]
fn runtime_pads_and_axes_round_trip() {
    let m =
        PadModel::new(19, "reflect", x(), vec![1, 2], Feed::Input).with_axes(vec![-1], Feed::Input);
    check(&m, Written::Padkit);
    let m = PadModel::new(19, "edge", x(), vec![1, 2], Feed::Input)
        .with_axes(vec![0], Feed::Initializer);
    check(&m, Written::Padkit);
}

/// Symmetric mode (nGraph's, not ONNX's): built directly as a typed op.
#[test]
fn symmetric_round_trips() {
    let mut model = TypedModel::default();
    let input = model.add_source("x", f32::fact([5])).unwrap();
    let pads = Given::Known(vec![3.to_dim(), 7.to_dim()]);
    let op = PadkitPad::new(
        "p",
        PadMode::Symmetric,
        pads,
        Given::Known(None),
        Given::Known(None),
        &model,
        input,
    )
    .unwrap();
    let y = model.wire_node("p", op, &[input]).unwrap();
    model.select_output_outlets(&y).unwrap();
    let back = round_trip(&model);
    let x = Tensor::from_slice(&[5], &[1.0f32, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let got = run(back, std::slice::from_ref(&x));
    let want = padkit_testkit::Case::new(vec![5], vec![3, 7], PadMode::Symmetric)
        .reference(&x.to_vec::<f32>().unwrap(), 0.0, usize::MAX)
        .unwrap()
        .1;
    assert_eq!(got[0].to_vec::<f32>().unwrap(), want);
}

/// The graph.nnef of `model` as written with padkit's extension.
fn graph_text(model: &TypedModel) -> String {
    let tar = tract_nnef::nnef()
        .with_padkit()
        .write_to_tar(model, vec![])
        .unwrap();
    let text = String::from_utf8_lossy(&tar).to_string();
    let start = text
        .find("version 1.0")
        .expect("a graph.nnef in the archive");
    let graph = start + text[start..].find("\ngraph ").expect("the graph");
    let end = graph + text[graph..].find("\n}").expect("the graph's end") + 2;
    text[start..end].to_string()
}

/// Pads NNEF's `pad` expresses are written with no extension, read by stock tract-nnef
/// (which knows nothing of padkit) and give padkit's output.
#[test]
fn stock_tract_nnef_reads_the_pads_nnef_expresses() {
    let ints = Tensor::from_slice(&[2, 3], &[1i32, -2, 3, 4, 5, 6]).unwrap();
    let cases = [
        PadModel::new(
            13,
            "constant",
            x(),
            vec![0, 1, 2, 1, 0, 3],
            Feed::Initializer,
        ),
        PadModel::new(
            13,
            "constant",
            x(),
            vec![1, 0, 0, 0, 0, 2],
            Feed::Initializer,
        )
        .with_value(Tensor::scalar(1.5f32), Feed::Initializer),
        PadModel::new(
            13,
            "reflect",
            x(),
            vec![0, 2, 3, 0, 2, 3],
            Feed::Initializer,
        ),
        PadModel::new(13, "edge", x(), vec![1, 4, 0, 2, 0, 5], Feed::Initializer),
        PadModel::new(
            13,
            "constant",
            ints.clone(),
            vec![1, 2, 0, 1],
            Feed::Initializer,
        )
        .with_value(Tensor::scalar(-7i32), Feed::Initializer),
        PadModel::new(13, "edge", ints, vec![0, 2, 1, 0], Feed::Initializer),
        PadModel::new(2, "reflect", x(), vec![0, 0, 1, 0, 0, 1], Feed::Attribute),
    ];
    for m in cases {
        let model = optimized(&m);
        let text = graph_text(&model);
        assert!(!text.contains("padkit"), "{text}");
        assert!(text.contains(" pad("), "{text}");
        let tar = tract_nnef::nnef()
            .with_padkit()
            .write_to_tar(&model, vec![])
            .unwrap();
        let stock = tract_nnef::nnef().model_for_read(&mut &tar[..]).unwrap();
        let inputs = m.inputs();
        assert_eq!(run(stock, &inputs), run(model, &inputs), "{text}");
    }
}

/// What NNEF's `pad` cannot express stays `padkit_pad`, and stock tract-nnef refuses it
/// with a message that names padkit's extension and how to read it.
#[test]
fn stock_tract_nnef_refuses_padkit_pad_saying_what_to_add() {
    let cases = [
        PadModel::new(19, "wrap", x(), vec![0, 1, 1, 0, 1, 1], Feed::Initializer),
        PadModel::new(
            13,
            "constant",
            x(),
            vec![0, -1, 1, 0, 0, 1],
            Feed::Initializer,
        ),
        // reflect wider than the axis (numpy's answer; tract-core's Pad would panic)
        PadModel::new(
            13,
            "reflect",
            x(),
            vec![0, 0, 4, 0, 0, 1],
            Feed::Initializer,
        ),
        PadModel::new(
            13,
            "constant",
            x(),
            vec![0, 0, 1, 0, 0, 1],
            Feed::Initializer,
        )
        .with_value(Tensor::scalar(f32::NAN), Feed::Initializer),
        // 0.1 in f64, which NNEF's `pad` would round to an f32
        PadModel::new(
            13,
            "constant",
            Tensor::from_slice(&[2], &[1.0f64, 2.0]).unwrap(),
            vec![1, 1],
            Feed::Initializer,
        )
        .with_value(Tensor::scalar(0.1f64), Feed::Initializer),
    ];
    for m in cases {
        let model = optimized(&m);
        let text = graph_text(&model);
        assert!(text.contains("padkit_pad("), "{text}");
        let tar = tract_nnef::nnef()
            .with_padkit()
            .write_to_tar(&model, vec![])
            .unwrap();
        let err = tract_nnef::nnef()
            .model_for_read(&mut &tar[..])
            .err()
            .unwrap();
        let msg = format!("{err:#}");
        assert!(
            msg.contains("Registry not found") && msg.contains("tract_nnef::nnef().with_padkit()"),
            "{msg}"
        );
    }
}

/// Files written by earlier padkit versions name the extension `padkit` alone.
#[test]
fn the_short_extension_name_still_reads() {
    let m = PadModel::new(19, "wrap", x(), vec![0, 1, 1, 0, 1, 1], Feed::Initializer);
    let model = optimized(&m);
    let text = graph_text(&model).replace(padkit_tract::nnef::REGISTRY_ID, "padkit");
    assert!(text.contains("extension tract_registry padkit;"), "{text}");
    let back = padkit_tract::nnef::read_text(&text).unwrap();
    let inputs = m.inputs();
    assert_eq!(run(back, &inputs), run(model, &inputs));
}

/// Hostile `padkit_pad` parameters in a graph.nnef are refused with an error naming the
/// problem when the file is read or run, never a panic.
#[test]
fn hostile_padkit_pad_parameters_are_refused() {
    let m = PadModel::new(19, "wrap", x(), vec![0, 1, 1, 0, 1, 1], Feed::Initializer);
    let text = graph_text(&optimized(&m));
    let call = text
        .lines()
        .find(|l| l.contains("padkit_pad("))
        .expect("a padkit_pad call")
        .to_string();
    let pads = "pads = [0, 1, 1, 0, 1, 1]";
    assert!(call.contains(pads), "{call}");
    for (hostile, why) in [
        (call.replace(pads, "pads = [1, 1, 1]"), "pads has 3 values"),
        (call.replace(pads, "pads = [1, 1]"), "pads has 2 values"),
        (
            call.replace(pads, "pads = [0, 0, 9223372036854775807, 0, 0, 0]"),
            "axis 2: output extent overflows",
        ),
        (
            call.replace(pads, "pads = [0, 0, -9223372036854775808, 0, 0, 0]"),
            "",
        ),
        (call.replace("\"wrap\"", "\"mirror\""), "mirror"),
        (call.replace("\"wrap\"", "\"wrapp\""), "wrapp"),
        (call.replace("\"wrap\"", "\"\""), "mode"),
        (
            call.replace(pads, "pads = [0, 1, 99999999999999999999999, 0, 1, 1]"),
            "",
        ),
    ] {
        let doc = text.replace(&call, &hostile);
        let outcome = std::panic::catch_unwind(|| {
            let model = padkit_tract::nnef::read_text(&doc)?;
            let x = padkit_tract::to_tract(&x())?;
            model.into_runnable()?.run(tvec![x.into_tvalue()])
        });
        let result = outcome.unwrap_or_else(|_| panic!("panicked on {hostile}"));
        let err = result.err().unwrap_or_else(|| panic!("accepted {hostile}"));
        let msg = format!("{err:#}");
        assert!(msg.contains(why), "{hostile}: {msg}");
    }
}
