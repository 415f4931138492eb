//! Element types that ONNX's `Slice`, `Concat` and `Gather` do not take, through opset 25:
//! the float8s, float4e2m1 and float8e8m0, and the 4- and 2-bit integers. A Pad of them is
//! lowered in a wider type that holds each of their values exactly (float, int8 or uint8):
//! its data, fill value and fill constants are cast to it where they enter, and the output
//! is cast back, so that the lowered model keeps to the ops' type constraints. For rten,
//! whose `Concat` and `Where` take float32 and int32 only, int8 and uint8 are lowered in
//! int32 the same way.

use std::collections::HashMap;

use padkit::DType;
use padkit_onnx::pb::attribute_proto::AttributeType;
use padkit_onnx::pb::{AttributeProto, NodeProto};

use crate::Target;
use crate::emit::Names;
use crate::scope::Scope;

/// `lowered`, the nodes Pad or CenterCropPad `node` became for `target`, computing in a
/// wider type where its data's type needs one ([`wider`]); as they are otherwise.
pub(crate) fn where_needed(
    node: &NodeProto,
    scope: &Scope,
    lowered: Vec<NodeProto>,
    names: &mut Names,
    target: Target,
) -> Vec<NodeProto> {
    let (Some(x), Some(y)) = (node.input.first(), node.output.first()) else {
        return lowered;
    };
    let Some((dtype, wide)) = scope
        .type_of(x)
        .and_then(|(dtype, _)| Some((*dtype, wider(*dtype, target)?)))
    else {
        return lowered;
    };
    // the data, and a constant value fed at run time where the nodes read it
    let value = node
        .input
        .get(2)
        .filter(|v| !v.is_empty() && lowered.iter().any(|n| n.input.iter().any(|i| &i == v)));
    let inputs: Vec<&str> = std::iter::once(x)
        .chain(value)
        .map(String::as_str)
        .collect();
    widen(lowered, &inputs, dtype, wide, y, names)
}

/// The type a Pad of `dtype` is lowered in for `target`, where the lowering's ops do not
/// take `dtype` there.
pub(crate) fn wider(dtype: DType, target: Target) -> Option<DType> {
    use DType::*;
    match dtype {
        // rten 0.27's `Concat` and `Where` take float32 and int32 only (`src/ops/concat.rs`)
        Int8 | UInt8 if target == Target::Rten => Some(Int32),
        Float8E4M3FN | Float8E4M3FNUZ | Float8E5M2 | Float8E5M2FNUZ | Float4E2M1 | Float8E8M0 => {
            Some(Float32)
        }
        Int4 | Int2 => Some(Int8),
        UInt4 | UInt2 => Some(UInt8),
        _ => None,
    }
}

/// `nodes` (a Pad lowered in `dtype`, reading the values `inputs` of that type and writing
/// `y`) rewritten to compute in `wide`: a `Cast` to it after each input and each constant
/// of `dtype`, and one back to `dtype` into `y`.
fn widen(
    nodes: Vec<NodeProto>,
    inputs: &[&str],
    dtype: DType,
    wide: DType,
    y: &str,
    names: &mut Names,
) -> Vec<NodeProto> {
    let cast = |from: &str, to: &str, dtype: DType| NodeProto {
        name: to.to_string(),
        op_type: "Cast".into(),
        input: vec![from.to_string()],
        output: vec![to.to_string()],
        attribute: vec![AttributeProto {
            name: "to".into(),
            r#type: AttributeType::Int as i32,
            i: dtype.onnx_code() as i64,
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut renamed: HashMap<String, String> = HashMap::new();
    let mut out = vec![];
    for &input in inputs {
        let wide_name = names.fresh(y);
        out.push(cast(input, &wide_name, wide));
        renamed.insert(input.to_string(), wide_name);
    }
    let y_wide = names.fresh(y);
    for mut node in nodes {
        for input in &mut node.input {
            if let Some(wide_name) = renamed.get(input.as_str()) {
                *input = wide_name.clone();
            }
        }
        let of_dtype = matches!(node.op_type.as_str(), "Constant" | "ConstantOfShape")
            && node
                .attribute
                .iter()
                .filter_map(|a| a.t.as_ref())
                .any(|t| t.data_type == dtype.onnx_code());
        let writes_y = node.output.iter().any(|o| o == y);
        if writes_y {
            for o in &mut node.output {
                if o == y {
                    *o = y_wide.clone();
                }
            }
        }
        let produced = node.output.first().cloned();
        out.push(node);
        if let (true, Some(name)) = (of_dtype, produced) {
            let wide_name = names.fresh(y);
            out.push(cast(&name, &wide_name, wide));
            renamed.insert(name, wide_name);
        }
    }
    out.push(cast(&y_wide, y, dtype));
    out
}
