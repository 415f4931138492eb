//! Streaming with tract-pulse (feature `pulse`): models with a Pad on the time axis `T` of
//! `x[1, 2, T]` are loaded by stock tract-onnx and by padkit-tract, pulsed, and streamed
//! pulse by pulse. Where stock tract pulses a model, padkit pulses it with the same delay
//! and the same stream; every padkit stream (crops, reflect, symmetric, edge beside other
//! padded axes, borders wider than the stream) is also checked against the whole-input
//! run of the model it came from, which is the oracle for what a stream must hold.

use std::panic::{AssertUnwindSafe, catch_unwind};

use padkit::PadMode;
use padkit_onnx::pb::{AttributeProto, ModelProto, NodeProto};
use padkit_onnx_tools::model::{Feed, PadModel};
use padkit_tract::{Given, PadkitPad};
use tract_onnx::prelude::*;
use tract_pulse::internal::{DimLike, PulsedModel, PulsedModelExt};

const C: usize = 2;

fn pad_model(opset: i64, mode: &str, pads: Vec<i64>) -> PadModel {
    let x = padkit::Tensor::from_slice(&[1, C, 4], &[0.0f32; C * 4]).unwrap();
    let mut m = PadModel::new(opset, mode, x, pads, Feed::Initializer);
    m.symbolic_dims = vec![None, None, Some("T".into())];
    m
}

/// `m`'s Pad, then `op_type` (a 3-tap Conv over T, or a Relu) on its output.
fn then(m: &PadModel, op_type: &str) -> ModelProto {
    let mut proto = m.proto();
    let g = proto.graph.as_mut().unwrap();
    let mut node = NodeProto {
        name: op_type.to_lowercase(),
        op_type: op_type.into(),
        input: vec!["y".into()],
        output: vec!["z".into()],
        ..Default::default()
    };
    if op_type == "Conv" {
        let w = padkit::Tensor::from_slice(
            &[C, C, 3],
            &(0..C * C * 3)
                .map(|i| i as f32 * 0.1 - 0.5)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        g.initializer
            .push(padkit_onnx::proto::tensor_to_proto(&w, "w"));
        node.input.push("w".into());
        node.attribute.push(AttributeProto {
            name: "kernel_shape".into(),
            r#type: 7,
            ints: vec![3],
            ..Default::default()
        });
    }
    g.node.push(node);
    g.output[0].name = "z".into();
    proto
}

fn typed(onnx: tract_onnx::Onnx, proto: &ModelProto) -> TractResult<TypedModel> {
    onnx.model_for_proto_model(&padkit_tract::tract_proto(proto).unwrap())?
        .into_typed()?
        .into_decluttered()
}

fn input(t: usize) -> Tensor {
    let data: Vec<f32> = (0..C * t)
        .map(|i| (i * 7 % 11) as f32 * 0.5 - 2.0)
        .collect();
    Tensor::from_shape(&[1, C, t], &data).unwrap()
}

/// The whole-input run of `model` on `x`.
fn whole(model: &TypedModel, x: &Tensor) -> Tensor {
    model
        .clone()
        .into_runnable()
        .unwrap()
        .run(tvec![x.clone().into_tvalue()])
        .unwrap()
        .remove(0)
        .into_tensor()
}

/// A pulsed stream: the output's delay, and the frames of its stream once the delay is
/// dropped (as long as the whole-input output's streaming axis).
struct Stream {
    delay: usize,
    frames: Tensor,
}

/// Pulses `model` over `T` by `pulse` and streams `x` through it, pulse by pulse (zeros
/// after the input's end), with `T` bound to the input's length.
fn stream(model: &TypedModel, pulse: usize, x: &Tensor) -> TractResult<Stream> {
    let sym = model.symbols.sym("T");
    let t = x.shape()[2];
    let pulsed = PulsedModel::new(model, sym.clone(), &pulse.to_dim())?;
    let out = pulsed.output_fact(0)?.clone();
    let info = out
        .stream
        .clone()
        .ok_or_else(|| TractError::msg("a streamed output"))?;
    let len = info
        .dim
        .eval(&SymbolValues::default().with(&sym, t as i64))
        .to_usize()?;
    let plan = pulsed.into_typed()?.into_runnable()?;
    let mut state = plan.spawn()?;
    let mut pulses = vec![];
    for k in 0..(info.delay + len).div_ceil(pulse) {
        let mut chunk = Tensor::zero::<f32>(&[1, C, pulse])?;
        let (from, to) = ((k * pulse).min(t), ((k + 1) * pulse).min(t));
        if to > from {
            chunk.assign_slice(0..to - from, x, from..to, 2)?;
        }
        state.turn_state.resolved_symbols.set(&sym, t as i64);
        pulses.push(
            state
                .run(tvec![chunk.into_tvalue()])?
                .remove(0)
                .into_tensor(),
        );
    }
    let all = Tensor::stack_tensors(info.axis, &pulses)?;
    Ok(Stream {
        delay: info.delay,
        frames: all.slice(info.axis, info.delay, info.delay + len)?,
    })
}

/// Streams `proto` through padkit-tract at every pulse of `pulses` and every input length
/// of `lengths`, against the whole-input run; where stock tract-onnx pulses it too, its
/// delay and stream must be padkit's. Returns whether stock pulsed it.
fn check(proto: &ModelProto, pulses: &[usize], lengths: &[usize]) -> bool {
    let padkit = typed(padkit_tract::onnx(), proto).unwrap();
    let stock = typed(tract_onnx::onnx(), proto);
    let mut stock_pulsed = true;
    for &pulse in pulses {
        for &t in lengths {
            let x = input(t);
            let ours = stream(&padkit, pulse, &x)
                .unwrap_or_else(|e| panic!("padkit, pulse {pulse}, T = {t}: {e:#}\n{padkit}"));
            let want = whole(&padkit, &x);
            assert_eq!(
                ours.frames
                    .close_enough(&want, true)
                    .map_err(|e| e.to_string()),
                Ok(()),
                "pulse {pulse}, T = {t}: stream {:?}\nwhole {:?}",
                ours.frames,
                want
            );
            let Ok(stock) = &stock else {
                stock_pulsed = false;
                continue;
            };
            let theirs = catch_unwind(AssertUnwindSafe(|| stream(stock, pulse, &x)));
            match theirs {
                Ok(Ok(theirs)) => {
                    assert_eq!(ours.delay, theirs.delay, "pulse {pulse}: delays differ");
                    assert_eq!(ours.frames, theirs.frames, "pulse {pulse}, T = {t}");
                }
                _ => stock_pulsed = false,
            }
        }
    }
    stock_pulsed
}

#[test]
fn what_stock_tract_pulses_padkit_pulses_alike() {
    let zero_then_conv = then(&pad_model(13, "constant", vec![0, 0, 1, 0, 0, 2]), "Conv");
    let constant = pad_model(13, "constant", vec![0, 0, 2, 0, 0, 1])
        .with_value(padkit::Tensor::scalar(1.5f32), Feed::Initializer)
        .proto();
    let edge_then_relu = then(&pad_model(13, "edge", vec![0, 0, 2, 0, 0, 3]), "Relu");
    let edge_then_conv = then(&pad_model(13, "edge", vec![0, 0, 1, 0, 0, 1]), "Conv");
    let channels_only = pad_model(13, "reflect", vec![0, 1, 0, 0, 1, 0]).proto();
    let opset11 = pad_model(11, "constant", vec![0, 0, 3, 0, 0, 1])
        .with_value(padkit::Tensor::scalar(-0.25f32), Feed::Initializer)
        .proto();
    let opset18_axes = pad_model(18, "constant", vec![1, 2])
        .with_axes(vec![-1], Feed::Initializer)
        .proto();
    for (name, proto) in [
        ("zero then conv", zero_then_conv),
        ("constant 1.5", constant),
        ("edge then relu", edge_then_relu),
        ("edge then conv", edge_then_conv),
        ("channels only", channels_only),
        ("opset 11 constant", opset11),
        ("opset 18 axes", opset18_axes),
    ] {
        let stock = check(&proto, &[4, 5], &[6, 13]);
        assert!(
            stock,
            "{name}: stock tract pulses it (or the harness is wrong)"
        );
    }
}

#[test]
fn crops_and_mirrors_of_the_stream_pulse_beyond_stock() {
    for (mode, pads) in [
        ("constant", [-1, -2]),
        ("edge", [-2, 1]),
        ("constant", [2, -3]),
        ("reflect", [2, 3]),
        ("reflect", [1, 0]),
        ("reflect", [0, 2]),
        ("reflect", [-1, 2]),
        ("reflect", [3, -1]),
    ] {
        let proto = pad_model(13, mode, vec![0, 0, pads[0], 0, 0, pads[1]]).proto();
        check(&proto, &[1, 2, 5], &[4, 9]);
    }
    // borders wider than the stream mirror it again, as numpy does
    let proto = pad_model(13, "reflect", vec![0, 0, 3, 0, 0, 4]).proto();
    check(&proto, &[1, 3], &[2, 3]);
    // stock refuses edge beside another padded axis; padkit pads the channels per pulse
    let proto = pad_model(13, "edge", vec![0, 1, 1, 0, 2, 2]).proto();
    check(&proto, &[2, 3], &[5, 8]);
    let proto = then(&pad_model(13, "reflect", vec![0, 0, 2, 0, 0, 1]), "Conv");
    check(&proto, &[3], &[7]);
}

/// Symmetric mode (nGraph's, not ONNX's), built as a typed model.
#[test]
fn symmetric_pads_of_the_stream_pulse() {
    for (b, e) in [(1, 1), (2, 3), (0, 2), (3, 0), (4, 5)] {
        let mut model = TypedModel::default();
        let t = model.symbols.sym("T");
        let x = model
            .add_source("x", f32::fact(&[1.to_dim(), C.to_dim(), t.to_dim()]))
            .unwrap();
        let pads = Given::Known(vec![
            0.into(),
            0.into(),
            b.into(),
            0.into(),
            0.into(),
            e.into(),
        ]);
        let op = PadkitPad::new(
            "sym",
            PadMode::Symmetric,
            pads,
            Given::Known(None),
            Given::Known(None),
            &model,
            x,
        )
        .unwrap();
        let y = model.wire_node("sym", op, &[x]).unwrap();
        model.select_output_outlets(&y).unwrap();
        padkit_tract::pulse::register().unwrap();
        for pulse in [1, 2, 4] {
            for len in [3, 6] {
                let x = input(len);
                let got = stream(&model, pulse, &x).unwrap();
                assert_eq!(
                    got.frames,
                    whole(&model, &x),
                    "({b}, {e}), pulse {pulse}, T = {len}"
                );
            }
        }
    }
}

#[test]
fn wrap_of_the_stream_is_refused_naming_the_node() {
    let proto = pad_model(19, "wrap", vec![0, 0, 1, 0, 0, 1]).proto();
    let model = typed(padkit_tract::onnx(), &proto).unwrap();
    let err = stream(&model, 4, &input(6)).err().unwrap();
    let msg = format!("{err:#}");
    assert!(
        msg.contains("Pad node \"the_pad\": wrap padding of the streaming axis 2"),
        "{msg}"
    );
    // wrap of another axis pads every pulse alike
    let proto = pad_model(19, "wrap", vec![0, 1, 0, 0, 1, 0]).proto();
    check(&proto, &[3], &[5]);
}

#[test]
fn runtime_pads_are_refused_naming_the_node() {
    let mut m = pad_model(13, "constant", vec![0, 0, 1, 0, 0, 1]);
    m.pads.1 = Feed::Input;
    let model = typed(padkit_tract::onnx(), &m.proto()).unwrap();
    let sym = model.symbols.sym("T");
    let err = PulsedModel::new(&model, sym, &4.to_dim()).err().unwrap();
    let msg = format!("{err:#}");
    assert!(
        msg.contains("Pad node \"the_pad\": pads or axes read at run time"),
        "{msg}"
    );
}
