//! ONNX `CenterCropPad` (stock tract-onnx has none) through `padkit_tract::onnx()`: target
//! extents known or fed at run time, `axes` attributes (negative too), symbolic extents
//! on the axes left alone; checked against a centred copy written here from the spec's
//! rule (the smaller half of a crop or pad goes before).

use padkit_onnx::pb::{AttributeProto, ModelProto};
use padkit_onnx_tools::model::{Feed, PadModel};
use padkit_tract::{from_tract, to_tract};
use tract_onnx::prelude::*;

/// A `CenterCropPad` of `data` to `targets` over `axes`: a Pad model whose `pads` input
/// carries the target extents.
fn model(data: &padkit::Tensor, targets: &[i64], axes: Option<&[i64]>, feed: Feed) -> ModelProto {
    let mut proto = PadModel::new(18, "constant", data.clone(), targets.to_vec(), feed).proto();
    let node = &mut proto.graph.as_mut().unwrap().node[0];
    node.op_type = "CenterCropPad".into();
    node.attribute.clear();
    if let Some(axes) = axes {
        node.attribute.push(AttributeProto {
            name: "axes".into(),
            r#type: 7,
            ints: axes.to_vec(),
            ..Default::default()
        });
    }
    proto
}

/// The centred copy: output index `o` of an axis reads input `o + (d − s) / 2` (rounded
/// toward zero, so the smaller half of a crop or pad goes before), zero outside.
fn centred(data: &[f32], shape: &[usize], out_shape: &[usize]) -> Vec<f32> {
    let len: usize = out_shape.iter().product();
    (0..len)
        .map(|mut flat| {
            let mut src = 0usize;
            let mut inside = true;
            for (ax, (&d, &s)) in shape.iter().zip(out_shape).enumerate().rev() {
                let o = flat % s;
                flat /= s;
                let offset = (d as i64 - s as i64) / 2;
                let i = o as i64 + offset;
                inside &= (0..d as i64).contains(&i);
                let stride: usize = shape[ax + 1..].iter().product();
                src += i.max(0) as usize * stride;
            }
            if inside { data[src] } else { 0.0 }
        })
        .collect()
}

fn runnable(proto: &ModelProto) -> std::sync::Arc<TypedSimplePlan> {
    padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(proto).unwrap())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap()
}

fn check(shape: &[usize], targets: &[i64], axes: Option<&[i64]>, feed: Feed) {
    let n: usize = shape.iter().product();
    let values: Vec<f32> = (0..n).map(|i| i as f32 + 1.0).collect();
    let data = padkit::Tensor::from_slice(shape, &values).unwrap();
    let rank = shape.len() as i64;
    let listed: Vec<usize> = match axes {
        Some(a) => a.iter().map(|&x| ((x + rank) % rank) as usize).collect(),
        None => (0..shape.len()).collect(),
    };
    let mut out_shape = shape.to_vec();
    for (&ax, &t) in listed.iter().zip(targets) {
        out_shape[ax] = t as usize;
    }
    let proto = model(&data, targets, axes, feed);
    let mut feeds = tvec![to_tract(&data).unwrap().into_tvalue()];
    if feed == Feed::Input {
        feeds.push(tensor1(targets).into_tvalue());
    }
    let plan = runnable(&proto);
    let got = from_tract(&plan.run(feeds).unwrap()[0]).unwrap();
    assert_eq!(
        got.shape(),
        &out_shape[..],
        "{shape:?} → {targets:?} on {axes:?}"
    );
    let want = centred(&values, shape, &out_shape);
    assert_eq!(
        got.to_vec::<f32>().unwrap(),
        want,
        "{shape:?} → {targets:?} on {axes:?}"
    );
}

#[test]
fn crops_and_pads_around_the_center() {
    for feed in [Feed::Initializer, Feed::Input] {
        check(&[5, 4], &[3, 7], None, feed);
        check(&[6, 7, 2], &[9, 2], Some(&[0, 1]), feed);
        check(&[6, 7, 2], &[2, 10], Some(&[-2, -3]), feed);
        check(&[3, 3], &[0, 3], None, feed);
        check(&[4, 4], &[4, 4], None, feed);
    }
}

#[test]
fn symbolic_extents_of_axes_left_alone_stay_symbolic() {
    let data = padkit::Tensor::from_slice(&[2, 5, 4], &[0.0f32; 40]).unwrap();
    let mut pad_model = PadModel::new(18, "constant", data, vec![3, 6], Feed::Initializer);
    pad_model.symbolic_dims = vec![Some("N".into()), None, None];
    let mut proto = pad_model.proto();
    let node = &mut proto.graph.as_mut().unwrap().node[0];
    node.op_type = "CenterCropPad".into();
    node.attribute = vec![AttributeProto {
        name: "axes".into(),
        r#type: 7,
        ints: vec![1, 2],
        ..Default::default()
    }];
    let typed = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&proto).unwrap())
        .unwrap()
        .into_typed()
        .unwrap();
    let fact = typed.output_fact(0).unwrap();
    assert_eq!(format!("{:?}", fact.shape), "N,3,6");
}

#[test]
fn bad_targets_are_refused_naming_the_node() {
    let data = padkit::Tensor::from_slice(&[2, 2], &[0.0f32; 4]).unwrap();
    let proto = model(&data, &[1, 2, 3], None, Feed::Initializer);
    let err = padkit_tract::onnx()
        .model_for_proto_model(&padkit_tract::tract_proto(&proto).unwrap())
        .and_then(|m| m.into_typed())
        .err()
        .unwrap();
    let msg = format!("{err:#}");
    assert!(
        msg.contains("CenterCropPad node \"the_pad\": shape has 3 extents for 2 axes"),
        "{msg}"
    );
    let proto = model(&data, &[1, -2], None, Feed::Input);
    let plan = runnable(&proto);
    let x = to_tract(&data).unwrap().into_tvalue();
    let err = plan
        .run(tvec![x, tensor1(&[1i64, -2]).into_tvalue()])
        .err()
        .unwrap();
    let msg = format!("{err:#}");
    assert!(
        msg.contains("axis 1: target extent -2 is negative"),
        "{msg}"
    );
}
