//! Small integer tensors computed from constants, as exporters write a Pad's `pads`:
//! PyTorch's `F.pad` becomes `Concat` of a constant and a `ConstantOfShape`, `Reshape`,
//! a reversing `Slice`, `Transpose`, `Reshape` and `Cast`. The walk folds such chains
//! (int32 and int64 tensors of at most [`MAX_ELEMENTS`] elements, through `Identity`,
//! `Cast`, `ConstantOfShape`, `Concat`, `Reshape`, `Slice`, `Transpose`, `Unsqueeze`,
//! `Squeeze`, `Gather`, `Add`, `Sub`, `Mul`, and `Shape` of a value whose shape is known) so that the Pads they feed count as having constant operands. The nodes stay
//! in the model; only what the walk knows grows.

use padkit::{DType, Tensor};
use padkit_onnx::pb::NodeProto;

use crate::scope::{MAX_ELEMENTS, Scope};

/// An integer tensor: its shape and its elements in row-major order.
struct Ints {
    shape: Vec<usize>,
    data: Vec<i64>,
}

impl Ints {
    fn of(t: &Tensor) -> Option<Ints> {
        elements(t.shape())?;
        let data = match t.dtype() {
            DType::Int64 => t.to_vec::<i64>().ok()?,
            DType::Int32 => t.to_vec::<i32>().ok()?.into_iter().map(i64::from).collect(),
            _ => return None,
        };
        Some(Ints {
            shape: t.shape().to_vec(),
            data,
        })
    }

    fn tensor(self, dtype: DType) -> Option<Tensor> {
        match dtype {
            DType::Int64 => Tensor::from_slice(&self.shape, &self.data).ok(),
            DType::Int32 => {
                let data: Vec<i32> = self
                    .data
                    .iter()
                    .map(|&v| i32::try_from(v).ok())
                    .collect::<Option<_>>()?;
                Tensor::from_slice(&self.shape, &data).ok()
            }
            _ => None,
        }
    }

    /// The tensor as a list of extents or axes (1-D, each entry an i64).
    fn list(&self) -> Option<&[i64]> {
        (self.shape.len() == 1).then_some(&self.data[..])
    }
}

/// The value of `node`'s one output, when every input is a known small integer constant
/// and the op is one this module folds.
pub(crate) fn fold(node: &NodeProto, scope: &Scope) -> Option<Tensor> {
    if node.output.len() != 1 || !padkit::onnx::is_default_domain(&node.domain) {
        return None;
    }
    if node.op_type == "Shape" && node.attribute.is_empty() {
        // a value's shape, known before run time in whole (start and end not handled)
        let (_, shape) = scope.type_of(node.input.first()?)?;
        let dims: Vec<i64> = shape
            .iter()
            .map(|d| d.map(|d| d as i64))
            .collect::<Option<_>>()?;
        return Tensor::from_slice(&[dims.len()], &dims).ok();
    }
    let inputs: Vec<&Tensor> = node
        .input
        .iter()
        .map(|i| (!i.is_empty()).then(|| scope.constant(i)).flatten())
        .collect::<Option<_>>()?;
    let dtype = inputs.first().map_or(DType::Int64, |t| t.dtype());
    let ints: Vec<Ints> = inputs.iter().map(|t| Ints::of(t)).collect::<Option<_>>()?;
    let attr_int = |name: &str| node.attribute.iter().find(|a| a.name == name).map(|a| a.i);
    let attr_ints = |name: &str| {
        node.attribute
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.ints.clone())
    };
    let (out, dtype) = match (node.op_type.as_str(), &ints[..]) {
        ("Identity", [x]) => (copy(x), dtype),
        ("Cast", [x]) => match attr_int("to")? {
            7 => (copy(x), DType::Int64),
            6 => (copy(x), DType::Int32),
            _ => return None,
        },
        ("ConstantOfShape", [shape]) => {
            let value = node.attribute.iter().find(|a| a.name == "value");
            let value = match value.and_then(|a| a.t.as_ref()) {
                Some(t) => padkit_onnx::proto::tensor_from_proto(t).ok()?,
                None => return None, // a float zero: not an integer tensor
            };
            let v = Ints::of(&value)?;
            let shape = extents(shape.list()?)?;
            let n = elements(&shape)?;
            (
                Ints {
                    shape,
                    data: vec![*v.data.first()?; n],
                },
                value.dtype(),
            )
        }
        ("Concat", parts) if !parts.is_empty() => (concat(parts, attr_int("axis")?)?, dtype),
        // allowzero 1 reads a 0 as an extent of 0: not folded
        ("Reshape", [x, shape]) if attr_int("allowzero").unwrap_or(0) == 0 => {
            (reshape(x, shape.list()?)?, dtype)
        }
        ("Slice", [x, starts, ends, rest @ ..]) if rest.len() <= 2 => {
            let axes = rest.first().map(Ints::list);
            let steps = rest.get(1).map(Ints::list);
            (
                slice(
                    x,
                    starts.list()?,
                    ends.list()?,
                    axes.flatten(),
                    steps.flatten(),
                )?,
                dtype,
            )
        }
        ("Transpose", [x]) => (transpose(x, attr_ints("perm"))?, dtype),
        ("Gather", [x, indices]) => (gather(x, indices, attr_int("axis").unwrap_or(0))?, dtype),
        ("Add", [a, b]) => (elementwise(a, b, i64::checked_add)?, dtype),
        ("Sub", [a, b]) => (elementwise(a, b, i64::checked_sub)?, dtype),
        ("Mul", [a, b]) => (elementwise(a, b, i64::checked_mul)?, dtype),
        ("Unsqueeze", [x, axes]) => (unsqueeze(x, axes.list()?)?, dtype),
        ("Unsqueeze", [x]) => (unsqueeze(x, &attr_ints("axes")?)?, dtype),
        ("Squeeze", [x, axes]) => (squeeze(x, Some(axes.list()?))?, dtype),
        ("Squeeze", [x]) => (squeeze(x, attr_ints("axes").as_deref())?, dtype),
        _ => return None,
    };
    out.tensor(dtype)
}

fn copy(x: &Ints) -> Ints {
    Ints {
        shape: x.shape.clone(),
        data: x.data.clone(),
    }
}

/// `dims` as extents, when none is negative.
fn extents(dims: &[i64]) -> Option<Vec<usize>> {
    dims.iter().map(|&d| usize::try_from(d).ok()).collect()
}

/// The element count of `shape`, when the product of its extents, an empty one counted
/// as 1, is at most [`MAX_ELEMENTS`] (so that no product of extents, strides included,
/// can overflow).
fn elements(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d.max(1)))
        .filter(|&n| n <= MAX_ELEMENTS)?;
    Some(shape.iter().product())
}

/// `axis` (negative counts from the back) of a tensor of `rank`.
fn axis_of(axis: i64, rank: usize) -> Option<usize> {
    let a = if axis < 0 { axis + rank as i64 } else { axis };
    usize::try_from(a).ok().filter(|&a| a < rank)
}

fn concat(parts: &[Ints], axis: i64) -> Option<Ints> {
    let rank = parts[0].shape.len();
    let axis = axis_of(axis, rank)?;
    let same = |p: &Ints| {
        p.shape.len() == rank && (0..rank).all(|k| k == axis || p.shape[k] == parts[0].shape[k])
    };
    if !parts.iter().all(same) {
        return None;
    }
    let mut shape = parts[0].shape.clone();
    shape[axis] = parts.iter().map(|p| p.shape[axis]).sum();
    elements(&shape)?;
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let mut data = vec![];
    for o in 0..outer {
        for p in parts {
            let block = p.shape[axis] * inner;
            data.extend_from_slice(&p.data[o * block..(o + 1) * block]);
        }
    }
    Some(Ints { shape, data })
}

/// ONNX's Reshape with `allowzero` 0: a 0 keeps the input's extent, one -1 is inferred.
fn reshape(x: &Ints, dims: &[i64]) -> Option<Ints> {
    let n = x.data.len();
    let mut shape = vec![];
    let mut infer = None;
    for (k, &d) in dims.iter().enumerate() {
        match d {
            -1 if infer.is_none() => {
                infer = Some(k);
                shape.push(1);
            }
            0 => shape.push(*x.shape.get(k)?),
            d => shape.push(usize::try_from(d).ok()?),
        }
    }
    let known = elements(&shape)?;
    if let Some(k) = infer {
        if known == 0 || !n.is_multiple_of(known) {
            return None;
        }
        shape[k] = n / known;
    }
    (elements(&shape)? == n).then_some(Ints {
        shape,
        data: x.data.clone(),
    })
}

/// ONNX's Slice: per axis, the positions from `start` towards `end` by `step`, clamped as
/// ONNX clamps them.
fn slice(
    x: &Ints,
    starts: &[i64],
    ends: &[i64],
    axes: Option<&[i64]>,
    steps: Option<&[i64]>,
) -> Option<Ints> {
    let rank = x.shape.len();
    let mut keep: Vec<Vec<usize>> = x.shape.iter().map(|&d| (0..d).collect()).collect();
    let default_axes: Vec<i64> = (0..starts.len() as i64).collect();
    let axes = axes.unwrap_or(&default_axes);
    if axes.len() != starts.len() || ends.len() != starts.len() {
        return None;
    }
    for (k, &a) in axes.iter().enumerate() {
        let axis = axis_of(a, rank)?;
        let d = x.shape[axis] as i64;
        let step = steps.map_or(Some(1), |s| s.get(k).copied())?;
        if step == 0 {
            return None;
        }
        let fix = |v: i64| if v < 0 { v.saturating_add(d) } else { v };
        let (start, end) = (fix(starts[k]), fix(ends[k]));
        let positions: Vec<usize> = if d == 0 {
            vec![]
        } else if step > 0 {
            let (s, e) = (start.clamp(0, d), end.clamp(0, d));
            (s..e).step_by(step as usize).map(|p| p as usize).collect()
        } else {
            let (s, e) = (start.clamp(0, d - 1), end.clamp(-1, d - 1));
            let mut p = s;
            let mut out = vec![];
            while p > e {
                out.push(p as usize);
                p += step;
            }
            out
        };
        keep[axis] = positions;
    }
    let shape: Vec<usize> = keep.iter().map(Vec::len).collect();
    elements(&shape)?;
    let strides = strides(&x.shape);
    Some(picked(x, shape, |k, i| keep[k][i] * strides[k]))
}

/// ONNX's Gather of `x` along `axis` at `indices` (negative ones count from the back).
fn gather(x: &Ints, indices: &Ints, axis: i64) -> Option<Ints> {
    let rank = x.shape.len();
    let axis = axis_of(axis, rank)?;
    let d = x.shape[axis] as i64;
    let at: Vec<usize> = indices
        .data
        .iter()
        .map(|&i| {
            usize::try_from(if i < 0 { i + d } else { i })
                .ok()
                .filter(|&i| (i as i64) < d)
        })
        .collect::<Option<_>>()?;
    let mut shape = x.shape[..axis].to_vec();
    shape.extend(&indices.shape);
    shape.extend(&x.shape[axis + 1..]);
    elements(&shape)?;
    let outer: usize = x.shape[..axis].iter().product();
    let inner: usize = x.shape[axis + 1..].iter().product();
    let mut data = vec![];
    for o in 0..outer {
        for &i in &at {
            let from = (o * x.shape[axis] + i) * inner;
            data.extend_from_slice(&x.data[from..from + inner]);
        }
    }
    Some(Ints { shape, data })
}

/// `op` on `a` and `b` element by element: of one shape, or one of them a single element.
fn elementwise(a: &Ints, b: &Ints, op: fn(i64, i64) -> Option<i64>) -> Option<Ints> {
    let (shape, n) = match (a.data.len(), b.data.len()) {
        (1, _) if b.shape.len() >= a.shape.len() => (b.shape.clone(), b.data.len()),
        (_, 1) if a.shape.len() >= b.shape.len() => (a.shape.clone(), a.data.len()),
        _ if a.shape == b.shape => (a.shape.clone(), a.data.len()),
        _ => return None,
    };
    let pick = |t: &Ints, k: usize| t.data[if t.data.len() == 1 { 0 } else { k }];
    let data = (0..n)
        .map(|k| op(pick(a, k), pick(b, k)))
        .collect::<Option<_>>()?;
    Some(Ints { shape, data })
}

fn transpose(x: &Ints, perm: Option<Vec<i64>>) -> Option<Ints> {
    let rank = x.shape.len();
    let perm: Vec<usize> = match perm {
        Some(p) => p
            .iter()
            .map(|&a| usize::try_from(a).ok())
            .collect::<Option<_>>()?,
        None => (0..rank).rev().collect(),
    };
    let mut seen = vec![false; rank];
    for &a in &perm {
        if a >= rank || std::mem::replace(&mut seen[a], true) {
            return None;
        }
    }
    if perm.len() != rank {
        return None;
    }
    let shape: Vec<usize> = perm.iter().map(|&a| x.shape[a]).collect();
    let strides = strides(&x.shape);
    Some(picked(x, shape, |k, i| i * strides[perm[k]]))
}

fn unsqueeze(x: &Ints, axes: &[i64]) -> Option<Ints> {
    let rank = x.shape.len() + axes.len();
    let mut ones: Vec<usize> = axes
        .iter()
        .map(|&a| axis_of(a, rank))
        .collect::<Option<_>>()?;
    ones.sort_unstable();
    ones.dedup();
    if ones.len() != axes.len() {
        return None;
    }
    let mut rest = x.shape.iter();
    let shape = (0..rank)
        .map(|k| match ones.contains(&k) {
            true => Some(1),
            false => rest.next().copied(),
        })
        .collect::<Option<_>>()?;
    Some(Ints {
        shape,
        data: x.data.clone(),
    })
}

fn squeeze(x: &Ints, axes: Option<&[i64]>) -> Option<Ints> {
    let rank = x.shape.len();
    let drop: Vec<usize> = match axes {
        Some(a) => a.iter().map(|&a| axis_of(a, rank)).collect::<Option<_>>()?,
        None => (0..rank).filter(|&k| x.shape[k] == 1).collect(),
    };
    if drop.iter().any(|&k| x.shape[k] != 1) {
        return None;
    }
    let shape = (0..rank)
        .filter(|k| !drop.contains(k))
        .map(|k| x.shape[k])
        .collect();
    Some(Ints {
        shape,
        data: x.data.clone(),
    })
}

/// The tensor of `shape` whose element at each index reads `x` at the sum over its axes
/// `k` of `offset(k, index[k])`.
fn picked(x: &Ints, shape: Vec<usize>, offset: impl Fn(usize, usize) -> usize) -> Ints {
    let mut data = vec![];
    for_each_index(&shape, |index| {
        let at: usize = index.iter().enumerate().map(|(k, &i)| offset(k, i)).sum();
        data.push(x.data[at]);
    });
    Ints { shape, data }
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1];
    }
    s
}

/// Calls `f` on every index of `shape`, in row-major order.
fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    if shape.contains(&0) {
        return;
    }
    let mut index = vec![0; shape.len()];
    loop {
        f(&index);
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each op the folder interprets, on values whose results ONNX's definitions give by
    //! hand, and its refusals (an input not known, a float, an attribute form it does not
    //! read, a result above [`MAX_ELEMENTS`]).

    use padkit::Tensor;
    use padkit_onnx::pb::attribute_proto::AttributeType;
    use padkit_onnx::pb::{AttributeProto, NodeProto};

    use super::fold;
    use crate::emit::{int as int_attr, ints as ints_attr};
    use crate::scope::{MAX_ELEMENTS, Scope};

    fn ints(shape: &[usize], v: &[i64]) -> Tensor {
        Tensor::from_slice(shape, v).unwrap()
    }

    /// `op` on the constants `inputs` (named a, b, c, …) with `attrs`, folded.
    fn run(op: &str, inputs: Vec<Tensor>, attrs: Vec<AttributeProto>) -> Option<Tensor> {
        let mut scope = Scope::default();
        let names: Vec<String> = (0..inputs.len())
            .map(|k| char::from(b'a' + k as u8).to_string())
            .collect();
        for (name, t) in names.iter().zip(inputs) {
            scope.constants.insert(name.clone(), t);
        }
        let node = NodeProto {
            op_type: op.into(),
            input: names,
            output: vec!["y".into()],
            attribute: attrs,
            ..Default::default()
        };
        fold(&node, &scope)
    }

    fn values(t: Option<Tensor>) -> (Vec<usize>, Vec<i64>) {
        let t = t.expect("folded");
        (t.shape().to_vec(), t.to_vec::<i64>().unwrap())
    }

    #[test]
    fn pytorch_f_pad_chain() {
        // F.pad(x, (1, 2)) on a 2-D x: [1, 2] padded with zeros to 4 entries, reshaped to
        // pairs, reversed by a Slice of step -1, transposed and flattened
        let pads = ints(&[2], &[1, 2]);
        let zeros = values(run(
            "ConstantOfShape",
            vec![ints(&[1], &[2])],
            vec![AttributeProto {
                name: "value".into(),
                r#type: AttributeType::Tensor as i32,
                t: Some(padkit_onnx::proto::tensor_to_proto(&ints(&[1], &[0]), "")),
                ..Default::default()
            }],
        ));
        assert_eq!(zeros, (vec![2], vec![0, 0]));
        let joined = run(
            "Concat",
            vec![pads, ints(&[2], &zeros.1)],
            vec![int_attr("axis", 0)],
        );
        assert_eq!(values(joined.clone()), (vec![4], vec![1, 2, 0, 0]));
        let pairs = run(
            "Reshape",
            vec![joined.unwrap(), ints(&[2], &[-1, 2])],
            vec![],
        );
        assert_eq!(values(pairs.clone()), (vec![2, 2], vec![1, 2, 0, 0]));
        let reversed = run(
            "Slice",
            vec![
                pairs.unwrap(),
                ints(&[1], &[-1]),
                ints(&[1], &[i64::MIN]),
                ints(&[1], &[0]),
                ints(&[1], &[-1]),
            ],
            vec![],
        );
        assert_eq!(values(reversed.clone()), (vec![2, 2], vec![0, 0, 1, 2]));
        let t = run("Transpose", vec![reversed.unwrap()], vec![]);
        assert_eq!(values(t.clone()), (vec![2, 2], vec![0, 1, 0, 2]));
        let flat = run("Reshape", vec![t.unwrap(), ints(&[1], &[-1])], vec![]);
        assert_eq!(values(flat), (vec![4], vec![0, 1, 0, 2]));
    }

    #[test]
    fn each_op() {
        let x = ints(&[2, 3], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(
            values(run("Identity", vec![x.clone()], vec![])).1,
            [1, 2, 3, 4, 5, 6]
        );
        let as_i32 = run("Cast", vec![x.clone()], vec![int_attr("to", 6)]).unwrap();
        assert_eq!(as_i32.to_vec::<i32>().unwrap(), [1, 2, 3, 4, 5, 6]);
        assert!(run("Cast", vec![x.clone()], vec![int_attr("to", 1)]).is_none());
        assert_eq!(
            values(run(
                "Concat",
                vec![x.clone(), x.clone()],
                vec![int_attr("axis", -1)]
            )),
            (vec![2, 6], vec![1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6])
        );
        // a 0 keeps the extent; allowzero 1 is not folded
        assert_eq!(
            values(run("Reshape", vec![x.clone(), ints(&[2], &[0, 3])], vec![])).0,
            [2, 3]
        );
        let zero_allowed = vec![int_attr("allowzero", 1)];
        assert!(
            run(
                "Reshape",
                vec![x.clone(), ints(&[2], &[0, 3])],
                zero_allowed
            )
            .is_none()
        );
        assert_eq!(
            values(run(
                "Transpose",
                vec![x.clone()],
                vec![ints_attr("perm", &[1, 0])]
            )),
            (vec![3, 2], vec![1, 4, 2, 5, 3, 6])
        );
        assert_eq!(
            values(run(
                "Gather",
                vec![x.clone(), ints(&[2], &[2, -3])],
                vec![int_attr("axis", 1)]
            )),
            (vec![2, 2], vec![3, 1, 6, 4])
        );
        // same shapes, or a one-element operand; other broadcasts are not folded
        let y = ints(&[2, 3], &[10, 20, 30, 40, 50, 60]);
        assert_eq!(
            values(run("Add", vec![x.clone(), y.clone()], vec![])).1,
            [11, 22, 33, 44, 55, 66]
        );
        assert_eq!(
            values(run("Sub", vec![x.clone(), y], vec![])).1,
            [-9, -18, -27, -36, -45, -54]
        );
        let two = ints(&[1], &[2]);
        assert_eq!(
            values(run("Mul", vec![two.clone(), x.clone()], vec![])).1,
            [2, 4, 6, 8, 10, 12]
        );
        assert!(run("Add", vec![x.clone(), ints(&[3], &[1, 2, 3])], vec![]).is_none());
        assert!(
            run(
                "Add",
                vec![ints(&[1], &[i64::MAX]), ints(&[1], &[1])],
                vec![]
            )
            .is_none()
        );
        assert_eq!(
            values(run(
                "Unsqueeze",
                vec![ints(&[2], &[7, 8]), ints(&[1], &[0])],
                vec![]
            ))
            .0,
            [1, 2]
        );
        assert_eq!(
            values(run(
                "Unsqueeze",
                vec![ints(&[2], &[7, 8])],
                vec![ints_attr("axes", &[-1])]
            ))
            .0,
            [2, 1]
        );
        assert_eq!(
            values(run("Squeeze", vec![ints(&[1, 2], &[7, 8])], vec![])).0,
            [2]
        );
        assert_eq!(
            values(run(
                "Squeeze",
                vec![ints(&[1, 2], &[7, 8]), ints(&[1], &[0])],
                vec![]
            ))
            .0,
            [2]
        );
    }

    #[test]
    fn shapes_known_when_read() {
        let mut scope = Scope::default();
        let shape_of = |scope: &Scope| {
            let node = NodeProto {
                op_type: "Shape".into(),
                input: vec!["x".into()],
                output: vec!["s".into()],
                ..Default::default()
            };
            fold(&node, scope)
        };
        scope
            .types
            .insert("x".into(), (padkit::DType::Float32, vec![Some(2), Some(5)]));
        assert_eq!(values(shape_of(&scope)), (vec![2], vec![2, 5]));
        scope
            .types
            .insert("x".into(), (padkit::DType::Float32, vec![None, Some(5)]));
        assert!(shape_of(&scope).is_none());
    }

    #[test]
    fn refusals() {
        // an input not known when the model is read
        let node = NodeProto {
            op_type: "Identity".into(),
            input: vec!["unknown".into()],
            output: vec!["y".into()],
            ..Default::default()
        };
        assert!(fold(&node, &Scope::default()).is_none());
        // floats, another domain, an op it does not read
        let f = Tensor::from_slice(&[1], &[1.0f32]).unwrap();
        assert!(run("Identity", vec![f], vec![]).is_none());
        let mut scope = Scope::default();
        scope.constants.insert("a".into(), ints(&[1], &[1]));
        let mut other = NodeProto {
            op_type: "Identity".into(),
            domain: "com.example".into(),
            input: vec!["a".into()],
            output: vec!["y".into()],
            ..Default::default()
        };
        assert!(fold(&other, &scope).is_none());
        other.domain.clear();
        other.op_type = "Neg".into();
        assert!(fold(&other, &scope).is_none());
        // a result above MAX_ELEMENTS
        let wide = ints(&[MAX_ELEMENTS], &vec![1; MAX_ELEMENTS]);
        assert!(
            run(
                "Concat",
                vec![wide.clone(), wide],
                vec![int_attr("axis", 0)]
            )
            .is_none()
        );
        // a ConstantOfShape without value is a float zero
        assert!(run("ConstantOfShape", vec![ints(&[1], &[2])], vec![]).is_none());
    }
}
