//! The budget of constant bytes (`Options::max_constant_bytes`): one budget for every
//! constant a model's lowering writes, over all its Pads, checked as they are written; a
//! lowering past it is refused by the Pad's name, and the constants a lowering writes are
//! counted as the bytes the lowered model holds beyond the original; each index map is
//! bounded alone.

use padkit::Tensor;
use padkit_lower::{LowerError, Options, lower_with};
use padkit_onnx::pb::ModelProto;
use padkit_onnx_tools::model::{Feed, PadModel};
use prost::Message;

/// A reflect Pad of 1 000 elements by 20 000 after them, which the lowering writes with
/// its border positions as a constant (about 160 kB), and, where `twice`, a second such
/// Pad of the same data, named "second", whose output is a second graph output.
fn model(twice: bool) -> ModelProto {
    let x = Tensor::from_slice(&[1000], &vec![1.0f32; 1000]).unwrap();
    let mut m = PadModel::new(18, "reflect", x, vec![0, 20_000], Feed::Initializer).proto();
    if twice {
        let g = m.graph.as_mut().unwrap();
        let mut second = g.node.last().unwrap().clone();
        let mut out = g.output[0].clone();
        out.name = format!("{}_2", out.name);
        second.name = "second".into();
        second.output[0] = out.name.clone();
        g.node.push(second);
        g.output.push(out);
    }
    m
}

fn lowered_bytes(m: &ModelProto, options: &Options) -> Result<usize, LowerError> {
    lower_with(m, options).map(|l| l.encoded_len())
}

#[test]
fn the_budget_counts_every_constant_of_every_pad() {
    let (one, two) = (model(false), model(true));
    let unbounded = Options::default();
    // what the lowering adds to the model: its constants, and a few nodes
    let grown = lowered_bytes(&one, &unbounded).unwrap() - one.encoded_len();
    let grown_two = lowered_bytes(&two, &unbounded).unwrap() - two.encoded_len();
    assert!(
        grown > 100_000 && grown_two > 2 * grown - 1000,
        "{grown} {grown_two}"
    );
    let budget = |bytes: usize| Options::default().with_max_constant_bytes(bytes as u64);

    // the budget counts what is written: the model's growth suffices, 90% of it does not
    assert!(lowered_bytes(&one, &budget(grown)).is_ok());
    assert!(matches!(
        lower_with(&one, &budget(grown * 9 / 10)),
        Err(LowerError::Budget { .. })
    ));
    // one budget for the whole model: enough for one Pad, the second is refused by name
    match lower_with(&two, &budget(grown)) {
        Err(e @ LowerError::Budget { .. }) => {
            let text = e.to_string();
            assert!(text.contains("\"second\""), "{text}");
            assert!(text.contains(&format!("{grown} bytes")), "{text}");
        }
        other => panic!("not refused for its budget: {:?}", other.map(|_| ())),
    }
    assert!(lowered_bytes(&two, &budget(grown_two)).is_ok());
}

/// Each index map is bounded alone too (`MAX_MAP_LEN` entries): a reflect Pad of an axis
/// declared longer than that is refused by its axis and length, before any map is made.
#[test]
fn an_index_map_above_the_cap_is_refused_by_its_axis() {
    use padkit_onnx::pb::tensor_shape_proto::dimension;
    use padkit_onnx::pb::type_proto::Value;
    let x = Tensor::from_slice(&[1, 3], &[1.0f32, 2.0, 3.0]).unwrap();
    let mut m = PadModel::new(18, "reflect", x, vec![0, 1, 0, 1], Feed::Initializer).proto();
    // (declared only: the lowering reads the data's extents, never its values)
    let long = padkit_lower::MAX_MAP_LEN as i64;
    let x = &mut m.graph.as_mut().unwrap().input[0];
    let Some(Value::TensorType(t)) = &mut x.r#type.as_mut().unwrap().value else {
        panic!("a tensor input")
    };
    t.shape.as_mut().unwrap().dim[1].value = Some(dimension::Value::DimValue(long));
    match lower_with(&m, &Options::default()) {
        Err(e @ LowerError::NotLowered { .. }) => {
            let text = e.to_string();
            let want = format!("axis 1: its index map would hold {} entries", long + 2);
            assert!(text.contains(&want), "{text}");
        }
        other => panic!("not refused for its map: {:?}", other.map(|_| ())),
    }
}

/// A string is counted as its bytes and 32 more, what the process holds for it beside
/// them (so that the process's peak stays within about three times the budget): a fill
/// block of 10 000 strings of 5 bytes takes 370 000 bytes of budget; 360 000 are refused.
#[test]
fn a_string_is_counted_as_what_the_process_holds_for_it() {
    use padkit::{DType, Data};
    let strings = |shape: Vec<usize>, s: &str| {
        let n = shape.iter().product();
        Tensor::new(DType::String, shape, Data::Strings(vec![s.to_string(); n])).unwrap()
    };
    let x = strings(vec![1], "x");
    let m = PadModel::new(13, "constant", x, vec![0, 10_000], Feed::Initializer)
        .with_value(strings(vec![], "fill!"), Feed::Initializer)
        .proto();
    let budget = |bytes: u64| Options::default().with_max_constant_bytes(bytes);
    // (and the slice bounds' few int64s)
    assert!(lowered_bytes(&m, &budget(370_100)).is_ok());
    assert!(matches!(
        lower_with(&m, &budget(360_000)),
        Err(LowerError::Budget { .. })
    ));
}
