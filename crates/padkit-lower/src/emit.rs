//! The standard ONNX nodes a Pad becomes, written at the model's opset: constants as
//! `Constant` nodes (valid in subgraphs and at every IR version) where the opset and the
//! target's runtime take them, else initializers, `Slice` from opset 10
//! (a `Gather` before), fill blocks from `ConstantOfShape` where the opset and element
//! type allow it, or `Expand` of a fill fed at run time.

use std::collections::HashSet;

use padkit::{DType, Data, PadSpec, Tensor};
use padkit_onnx::pb::attribute_proto::AttributeType;
use padkit_onnx::pb::{AttributeProto, NodeProto, TensorProto};
use padkit_onnx::proto::tensor_to_proto;

use crate::Target;
use crate::read::Fill;
use crate::target::{BorderReads, EmptyOutputs};
use padkit::axis_map::SourceRun;
use padkit::onnx::Given;

/// The names a model uses, and fresh ones for the values a lowering adds.
pub(crate) struct Names {
    used: HashSet<String>,
    /// The number the next fresh name tries first: it only grows, so that a model which
    /// already uses a long run of the names a lowering makes costs each run once, not once
    /// per fresh name (time linear in the model).
    next: usize,
}

impl Names {
    pub(crate) fn new(used: HashSet<String>) -> Names {
        let next = used.len();
        Names { used, next }
    }

    /// A name not yet used, made from `base`.
    pub(crate) fn fresh(&mut self, base: &str) -> String {
        loop {
            let name = format!("{base}__padkit_lower_{}", self.next);
            self.next += 1;
            if self.used.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// The bytes of constants a model's lowering may still write (index maps, fill blocks,
/// border positions, slice bounds: every `Constant` it adds), against
/// [`crate::Options::max_constant_bytes`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub(crate) limit: u64,
    pub(crate) spent: u64,
}

impl Budget {
    /// Whether the constants written so far are more than the limit.
    pub(crate) fn overdrawn(&self) -> bool {
        self.spent > self.limit
    }
}

/// The nodes one Pad becomes, in order.
pub(crate) struct Emitter<'n> {
    opset: i64,
    /// The runtime the nodes are for: how borders are read (as it runs them fastest, or
    /// on its device) and how an empty output is written.
    target: Target,
    base: String,
    names: &'n mut Names,
    budget: &'n mut Budget,
    initializers: &'n mut Vec<TensorProto>,
    pub(crate) nodes: Vec<NodeProto>,
}

impl<'n> Emitter<'n> {
    /// Nodes at `opset`, their values named after `base` (the Pad's output), borders read
    /// as `target` reads them.
    pub(crate) fn new(
        (opset, target): (i64, Target),
        base: &str,
        names: &'n mut Names,
        budget: &'n mut Budget,
        initializers: &'n mut Vec<TensorProto>,
    ) -> Self {
        Emitter {
            opset,
            target,
            base: base.to_string(),
            names,
            budget,
            initializers,
            nodes: vec![],
        }
    }

    /// The opset the nodes are written at.
    pub(crate) fn opset(&self) -> i64 {
        self.opset
    }

    /// Whether the target's runtime runs `op` at this opset ([`Target::converts`]).
    pub(crate) fn converts(&self, op: &str) -> bool {
        self.target.converts(op, self.opset)
    }

    /// Whether the target's runtime takes a shape computed in the graph
    /// ([`Target::takes_computed_shapes`]).
    pub(crate) fn takes_computed_shapes(&self) -> bool {
        self.target.takes_computed_shapes()
    }

    /// How borders are read.
    pub(crate) fn border_reads(&self) -> BorderReads {
        self.target.border_reads()
    }

    /// How an output known to be empty is written.
    pub(crate) fn empty_outputs(&self) -> EmptyOutputs {
        self.target.empty_outputs()
    }

    /// Adds a node; returns its output's name.
    fn node(&mut self, op: &str, inputs: Vec<String>, attribute: Vec<AttributeProto>) -> String {
        let out = self.names.fresh(&self.base);
        self.nodes.push(NodeProto {
            name: out.clone(),
            op_type: op.to_string(),
            input: inputs,
            output: vec![out.clone()],
            attribute,
            ..Default::default()
        });
        out
    }

    /// A node of `op` on `inputs` without attributes; returns its output's name.
    pub(crate) fn op(&mut self, op: &str, inputs: &[&str]) -> String {
        self.op_with(op, inputs, &[])
    }

    /// A node of `op` on `inputs` with integer attributes `ints`; returns its output's name.
    pub(crate) fn op_with(&mut self, op: &str, inputs: &[&str], ints: &[(&str, i64)]) -> String {
        let inputs = inputs.iter().map(|s| s.to_string()).collect();
        let attrs = ints.iter().map(|&(name, v)| int(name, v)).collect();
        self.node(op, inputs, attrs)
    }

    /// `x` gathered on `axis` by the graph value `indices`.
    pub(crate) fn gather_by(&mut self, x: &str, axis: usize, indices: &str) -> String {
        let inputs = vec![x.to_string(), indices.to_string()];
        self.node("Gather", inputs, vec![int("axis", axis as i64)])
    }

    /// A `Constant` node holding `t`. Before opset 9 `Constant` holds float16, float and
    /// double only: at opsets 6 to 8 a tensor of integers (index maps, slice bounds) is held
    /// as doubles, exact below 2^53, and cast to its type; before opset 6, whose `Cast`
    /// names its type by a string (which stock tract 0.23.9 and candle-onnx 0.11.1 do not
    /// read), and for the other types before 9, it becomes an initializer of the graph
    /// instead, which takes every type at every opset. So does every constant for a target
    /// whose runtime does not run `Constant` at the opset ([`Target::converts`]).
    pub(crate) fn constant(&mut self, t: &Tensor) -> String {
        let float = matches!(t.dtype(), DType::Float16 | DType::Float32 | DType::Float64);
        let nodes = self.converts("Constant");
        if nodes && (self.opset >= 9 || float) {
            return self.constant_node(t);
        }
        if nodes
            && self.opset >= 6
            && let Some(doubles) = as_doubles(t)
        {
            let doubles = self.constant_node(&doubles);
            let to = int("to", t.dtype().onnx_code() as i64);
            return self.node("Cast", vec![doubles], vec![to]);
        }
        let name = self.names.fresh(&self.base);
        if self.charge(t) {
            self.initializers.push(tensor_to_proto(t, &name));
        }
        name
    }

    /// Charges `t`'s bytes to the budget, a string by what the process holds for it
    /// ([`STRING_HELD`]); false once it is overdrawn, when no constant is copied into the
    /// model any more: the caller refuses the Pad ([`Budget::overdrawn`]).
    fn charge(&mut self, t: &Tensor) -> bool {
        let bytes = match t.data() {
            Data::Strings(s) => s.iter().map(|s| s.len() as u64 + STRING_HELD).sum(),
            Data::Bytes(b) => b.len() as u64,
        };
        self.budget.spent = self.budget.spent.saturating_add(bytes);
        !self.budget.overdrawn()
    }

    /// A `Constant` node holding `t` as it is, its bytes charged to the budget.
    fn constant_node(&mut self, t: &Tensor) -> String {
        let held = self.charge(t);
        let value = AttributeProto {
            name: "value".into(),
            r#type: AttributeType::Tensor as i32,
            t: held.then(|| tensor_to_proto(t, "")),
            ..Default::default()
        };
        self.node("Constant", vec![], vec![value])
    }

    /// `x[.., start..end, ..]` on `axis` (`end` at most the axis' extent).
    pub(crate) fn slice(&mut self, x: &str, axis: usize, start: usize, end: usize) -> String {
        self.run(x, axis, end, SourceRun::up(start, end - start))
    }

    /// The elements of `run` along `axis` of `x` (of extent `d` there), in the run's
    /// order: a `Slice` from opset 10, with step -1 for a descending run; before, a
    /// `Gather` of its positions (candle-onnx 0.11 reads Slice's inputs only, and panics
    /// on the attribute form of opsets 1–9), or for tract's GPU runtimes the attribute
    /// form.
    pub(crate) fn run(&mut self, x: &str, axis: usize, d: usize, run: SourceRun) -> String {
        let (axis, start, len) = (axis as i64, run.start as i64, run.len as i64);
        let (end, step) = match run.descending {
            // A run down to index 0 ends "before index 0": ONNX reads a negative end from
            // the back (-1 is the last element), and clamps -d-1 to before the first.
            true if start - len < 0 => (-(d as i64) - 1, -1),
            true => (start - len, -1),
            false => (start + len, 1),
        };
        if self.opset < 10 && self.border_reads() == BorderReads::AscendingSlices && !run.descending
        {
            // Slice's attribute form, which tract reads
            return self.sliced(x, &[axis], &[start], &[end]);
        }
        if self.opset < 10 {
            // Slice's attribute form, which candle-onnx 0.11 does not read: a Gather
            let positions: Vec<i64> = (0..len)
                .map(|k| if run.descending { start - k } else { start + k })
                .collect();
            return self.gather(x, axis as usize, &positions);
        }
        let one = |v: i64| Tensor::from_slice(&[1], &[v]).expect("one int64");
        let mut inputs = vec![x.to_string()];
        inputs.push(self.constant(&one(start)));
        inputs.push(self.constant(&one(end)));
        inputs.push(self.constant(&one(axis)));
        if step != 1 {
            inputs.push(self.constant(&one(step)));
        }
        self.node("Slice", inputs, vec![])
    }

    /// Whether a `ConstantOfShape` of a `dtype` value is written for the target: where the
    /// opset takes the type ([`constant_of_shape_takes`]), the runtime runs it at the opset
    /// ([`Target::converts`]) and, for OpenVINO 2026.4.1, the
    /// type is of a byte or more (its `ConstantOfShape` and `Expand` of a 4-bit value
    /// repeat the value's byte, so every other element reads 0: measured).
    fn constant_of_shape_takes(&self, dtype: DType) -> bool {
        let sub_byte = dtype.element_bits() < 8;
        constant_of_shape_takes(dtype, self.opset)
            && self.converts("ConstantOfShape")
            && !(self.target == Target::OpenVino && sub_byte)
    }

    /// `x[starts..ends]` on `axes`, by a `Slice` of step 1: its attribute form before
    /// opset 10, its inputs from 10.
    fn sliced(&mut self, x: &str, axes: &[i64], starts: &[i64], ends: &[i64]) -> String {
        let ones = [("starts", starts), ("ends", ends), ("axes", axes)];
        if self.opset < 10 {
            let attributes = ones.map(|(name, v)| ints(name, v)).to_vec();
            return self.node("Slice", vec![x.to_string()], attributes);
        }
        let mut inputs = vec![x.to_string()];
        for (_, v) in ones {
            inputs.push(self.constant(&ints_tensor(v)));
        }
        self.node("Slice", inputs, vec![])
    }

    /// Nothing of `x`'s type, shaped `out` (which holds a 0): `x` sliced to nothing on the
    /// axes where `out` is 0, then reshaped to `out`; `Reshape` reads a 0 of its shape as
    /// the input's extent there, which is 0 ([`EmptyOutputs::SlicedData`]).
    pub(crate) fn nothing_of(&mut self, x: &str, out: &[usize]) -> String {
        let empty: Vec<i64> = (0..out.len() as i64)
            .filter(|&axis| out[axis as usize] == 0)
            .collect();
        let zeros = vec![0; empty.len()];
        let none = self.sliced(x, &empty, &zeros, &zeros);
        let dims: Vec<i64> = out.iter().map(|&d| d as i64).collect();
        if self.opset < 5 {
            // Reshape's attribute form
            return self.node("Reshape", vec![none], vec![ints("shape", &dims)]);
        }
        let dims = self.constant(&ints_tensor(&dims));
        self.node("Reshape", vec![none, dims], vec![])
    }

    /// `x` gathered along `axis` at `indices`.
    pub(crate) fn gather(&mut self, x: &str, axis: usize, indices: &[i64]) -> String {
        let indices = Tensor::from_slice(&[indices.len()], indices).expect("a 1-D int64 map");
        let indices = self.constant(&indices);
        self.gather_by(x, axis, &indices)
    }

    /// `parts` joined along `axis`.
    pub(crate) fn concat(&mut self, parts: Vec<String>, axis: usize) -> String {
        self.node("Concat", parts, vec![int("axis", axis as i64)])
    }

    /// A tensor of `shape` filled with `fill` (one element of the data's type): a
    /// `ConstantOfShape` where the opset takes the type, else a constant of that shape.
    ///
    /// # Errors
    ///
    /// [`padkit::PadError::TooLarge`] for a constant above [`MAX_BLOCK_BYTES`], and when it
    /// cannot be allocated.
    pub(crate) fn fill_block(&mut self, fill: &Fill, shape: &[usize]) -> padkit::Result<String> {
        let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        let dims = Tensor::from_slice(&[dims.len()], &dims).expect("a 1-D int64 shape");
        let fill = match fill {
            Given::Fed(name) => {
                if let Some(axis) = shape.iter().position(|&d| d == 0) {
                    return Ok(self.empty_block(name, &dims, axis));
                }
                let dims = self.constant(&dims);
                return Ok(self.expand(name, dims));
            }
            Given::Known(t) => t,
        };
        if self.constant_of_shape_takes(fill.dtype()) {
            let dims = self.constant(&dims);
            let value = AttributeProto {
                name: "value".into(),
                r#type: AttributeType::Tensor as i32,
                t: Some(tensor_to_proto(fill, "")),
                ..Default::default()
            };
            return Ok(self.node("ConstantOfShape", vec![dims], vec![value]));
        }
        let n = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        let bytes = n.and_then(|n| fill.dtype().storage_bytes(n));
        if bytes.is_none_or(|b| b > MAX_BLOCK_BYTES) {
            return Err(padkit::PadError::TooLarge {
                shape: shape.to_vec(),
                bytes: bytes.map_or(u128::MAX, |b| b as u128),
                limit: MAX_BLOCK_BYTES as u128,
            });
        }
        Ok(self.constant(&filled(fill, shape)?))
    }

    /// An empty block (the shape `dims`, 0 on `axis`) of the graph value `name`'s type:
    /// `name` reshaped to ones (which fails at run time on a value of other than one
    /// element, as the Pad must), sliced to nothing on `axis`, then expanded. Expanding the
    /// one element straight to `shape` would ask a runtime to broadcast a 1 to a 0, which
    /// candle-onnx 0.11.1 gets wrong (its `Expand` keeps the 1); from the slice, every
    /// extent broadcast is a 1 to any or a 0 to a 0.
    fn empty_block(&mut self, name: &str, dims: &Tensor, axis: usize) -> String {
        let rank = dims.len();
        let ones = Tensor::from_slice(&[rank], &vec![1i64; rank]).expect("a 1-D int64 shape");
        let ones = self.constant(&ones);
        let value = self.node("Reshape", vec![name.to_string(), ones], vec![]);
        let none = self.slice(&value, axis, 0, 0);
        let dims = self.constant(dims);
        self.node("Expand", vec![none, dims], vec![])
    }

    /// The one-element graph value `name` broadcast to the shape held by `dims`: `Reshape`
    /// to `[1]` (which fails at run time on a value of other than one element), then
    /// `Expand`.
    fn expand(&mut self, name: &str, dims: String) -> String {
        let one = Tensor::from_slice(&[1], &[1i64]).expect("one int64");
        let one = self.constant(&one);
        let value = self.node("Reshape", vec![name.to_string(), one], vec![]);
        self.node("Expand", vec![value, dims], vec![])
    }

    /// A block of `fill` shaped as `x` (of rank `rank`, its shape known at run time) with
    /// `len` on `axis`: `ConstantOfShape` of `Shape(x)` with that entry replaced, or the
    /// fill's one element `Expand`ed to it where `ConstantOfShape` does not take its type.
    pub(crate) fn fill_like(
        &mut self,
        x: &str,
        rank: usize,
        axis: usize,
        len: usize,
        fill: &Fill,
    ) -> String {
        let shape = self.node("Shape", vec![x.to_string()], vec![]);
        let width = Tensor::from_slice(&[1], &[len as i64]).expect("one int64");
        let mut parts = vec![];
        if axis > 0 {
            parts.push(self.slice(&shape, 0, 0, axis));
        }
        parts.push(self.constant(&width));
        if axis + 1 < rank {
            parts.push(self.slice(&shape, 0, axis + 1, rank));
        }
        let dims = self.concat(parts, 0);
        let fill = match fill {
            Given::Fed(name) => return self.expand(name, dims),
            Given::Known(t) if !self.constant_of_shape_takes(t.dtype()) => {
                // a type ConstantOfShape does not take at this opset: its one element expanded
                let value = self.constant(t);
                return self.expand(&value, dims);
            }
            Given::Known(t) => t,
        };
        let value = AttributeProto {
            name: "value".into(),
            r#type: AttributeType::Tensor as i32,
            t: Some(tensor_to_proto(fill, "")),
            ..Default::default()
        };
        self.node("ConstantOfShape", vec![dims], vec![value])
    }

    /// `x` under the name `y`: the last node's output renamed, or an `Identity` where no
    /// node was needed (a `Where` choosing `x` where the target's runtime does not run
    /// `Identity` at the opset: onnx2torch 1.5.15 from opset 19).
    pub(crate) fn finish(mut self, x: &str, y: &str) -> Vec<NodeProto> {
        let identity = self.converts("Identity");
        match self.nodes.last_mut() {
            Some(last) if last.output[0] == x => last.output[0] = y.to_string(),
            _ if !identity => {
                let yes = Tensor::new(DType::Bool, vec![], Data::Bytes(vec![1])).expect("true");
                let yes = self.constant(&yes);
                let chosen = self.node("Where", vec![yes, x.to_string(), x.to_string()], vec![]);
                return self.finish(&chosen, y);
            }
            _ => {
                self.nodes.push(NodeProto {
                    name: self.names.fresh(&self.base),
                    op_type: "Identity".into(),
                    input: vec![x.to_string()],
                    output: vec![y.to_string()],
                    ..Default::default()
                });
            }
        }
        self.nodes
    }
}

/// What a string of a constant costs the budget beside its bytes, so that the process
/// holds about three times the budget at most, for strings as for numbers (whose tensor,
/// `TensorProto` and encoding each hold their bytes once): the string and its
/// `TensorProto` copy each take a 24-byte header and an allocation rounded up by up to 16
/// bytes (none for an empty string), and its encoding a tag and a length, so three times
/// `len + 32` covers them. (Counted as 8, 81 M empty strings in 30 Pads took the process
/// to 2.07 GB for 648 MB charged.)
const STRING_HELD: u64 = 32;

/// The largest fill block written into a model as a constant (where `ConstantOfShape`
/// does not take the element type): 64 MiB.
pub const MAX_BLOCK_BYTES: usize = 64 << 20;

/// `t` as doubles, where it holds integers that doubles hold exactly (at most 2^53 from 0).
fn as_doubles(t: &Tensor) -> Option<Tensor> {
    fn exact<T: Copy + Into<i128>>(values: Vec<T>) -> Option<Vec<f64>> {
        values
            .into_iter()
            .map(|v| {
                let v: i128 = v.into();
                (v.abs() <= 1 << 53).then_some(v as f64)
            })
            .collect()
    }
    let doubles = match t.dtype() {
        DType::Int8 => exact(t.to_vec::<i8>().ok()?),
        DType::Int16 => exact(t.to_vec::<i16>().ok()?),
        DType::Int32 => exact(t.to_vec::<i32>().ok()?),
        DType::Int64 => exact(t.to_vec::<i64>().ok()?),
        DType::UInt8 => exact(t.to_vec::<u8>().ok()?),
        DType::UInt16 => exact(t.to_vec::<u16>().ok()?),
        DType::UInt32 => exact(t.to_vec::<u32>().ok()?),
        DType::UInt64 => exact(t.to_vec::<u64>().ok()?),
        _ => None,
    }?;
    Tensor::from_slice(t.shape(), &doubles).ok()
}

/// True when `ConstantOfShape` at `opset` takes `dtype` (numbers and bool from opset 9,
/// bfloat16 and the float8s from 20, the 4-bit ints from 21, float4e2m1 from 23,
/// float8e8m0 from 24, the 2-bit ints from 25; never strings or complex).
fn constant_of_shape_takes(dtype: DType, opset: i64) -> bool {
    use DType::*;
    let since = match dtype {
        Float16 | Float32 | Float64 | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32
        | UInt64 | Bool => 9,
        BFloat16 | Float8E4M3FN | Float8E4M3FNUZ | Float8E5M2 | Float8E5M2FNUZ => 20,
        Int4 | UInt4 => 21,
        Float4E2M1 => 23,
        Float8E8M0 => 24,
        Int2 | UInt2 => 25,
        String | Complex64 | Complex128 => return false,
    };
    opset >= since
}

/// A tensor of `shape` whose every element is `fill`'s one element: an empty tensor
/// padded up to `shape` by padkit's core, in any element type.
///
/// # Errors
///
/// When the block cannot be allocated.
pub(crate) fn filled(fill: &Tensor, shape: &[usize]) -> padkit::Result<Tensor> {
    let empty = match fill.data() {
        Data::Strings(_) => Data::Strings(vec![]),
        Data::Bytes(_) => Data::Bytes(vec![]),
    };
    let zeros = vec![0; shape.len()];
    let x = Tensor::new(fill.dtype(), zeros, empty)?;
    let pads: Vec<i64> = std::iter::repeat_n(0, shape.len())
        .chain(shape.iter().map(|&d| d as i64))
        .collect();
    padkit::pad_tensor(&x, &PadSpec::new(pads), Some(fill))
}

/// A 1-D int64 tensor of `v`.
fn ints_tensor(v: &[i64]) -> Tensor {
    Tensor::from_slice(&[v.len()], v).expect("a 1-D int64 tensor")
}

/// The attribute `name` holding the integers `v`.
pub(crate) fn ints(name: &str, v: &[i64]) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Ints as i32,
        ints: v.to_vec(),
        ..Default::default()
    }
}

/// The attribute `name` holding the integer `i`.
pub(crate) fn int(name: &str, i: i64) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Int as i32,
        i,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    /// A model that already uses a run of the names a lowering makes: the first fresh name
    /// skips the run once, the next ones start past it instead of probing it again.
    #[test]
    fn fresh_names_skip_a_used_run_once() {
        let used = (1000..2000)
            .map(|n| format!("x__padkit_lower_{n}"))
            .collect();
        let mut names = Names::new(used);
        assert_eq!(names.fresh("x"), "x__padkit_lower_2000");
        assert_eq!(names.next, 2001);
        assert_eq!(names.fresh("y"), "y__padkit_lower_2001");
        assert_eq!(names.fresh("x"), "x__padkit_lower_2002");
        assert_eq!(names.used.len(), 1003);
    }
}
