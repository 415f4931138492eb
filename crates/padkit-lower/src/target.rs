//! The runtime a lowering is for, and its rule: which Pads that runtime's own `Pad`
//! computes exactly as padkit's core does, so that the lowering leaves them as they are.
//!
//! Each rule states what the runtime's Pad kernel does (read from its source, cited at the
//! rule) and is checked case by case against the graded reports of padkit's suite
//! (`crates/padkit-lower/tests/targets.rs`): every case a rule keeps is one its runtime
//! passes. A rule decides only from what is known when the model is read; where what it
//! needs is known only at run time (pads or axes computed in the graph, an extent it reads),
//! the Pad is lowered.

use std::fmt;
use std::str::FromStr;

use padkit::spec::AxisPad;
use padkit::{DType, Data, PadMode};

/// The runtime a lowering is for ([`crate::Options::with_target`]): the Pads its own `Pad`
/// runs as padkit's core computes them are kept, every other Pad is lowered.
///
/// ```
/// use padkit_lower::Target;
/// let target: Target = "onnxruntime".parse().unwrap();
/// assert_eq!(target, Target::OnnxRuntime);
/// assert_eq!(target.to_string(), "onnxruntime");
/// let unknown = "nnapi".parse::<Target>().unwrap_err();
/// assert!(unknown.to_string().contains("portable, onnxruntime, tract, candle-onnx, tract-gpu, openvino, rten, tinygrad, tvm, onnx2torch"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Target {
    /// Any runtime: every Pad lowered into [`crate::PORTABLE_OPS`] (the default).
    #[default]
    Portable,
    /// ONNX Runtime (1.32, its CPU provider).
    OnnxRuntime,
    /// Stock tract-onnx (0.23.9, `tract_onnx::onnx()`).
    Tract,
    /// candle-onnx (0.11.1, `simple_eval`).
    CandleOnnx,
    /// Stock tract-onnx with tract's GPU runtimes (tract-cuda and tract-metal 0.23.9),
    /// which move to the device only the core ops they have translators for: the Pads
    /// stock tract runs right in constant mode are kept (tract's core `Pad` in constant
    /// mode is one of them), every other Pad is lowered into `Slice`s of ascending runs
    /// and `Concat`s (a `Gather` only where a border needs more than 64 slices).
    TractGpu,
    /// OpenVINO (2026.4.1, `compile_model(…, "CPU")`).
    OpenVino,
    /// rten (0.27, `Model::load` and `run`).
    Rten,
    /// tinygrad (0.14.0, `tinygrad.nn.onnx.OnnxRunner`).
    Tinygrad,
    /// TVM (0.27, Relax's `from_onnx`, compiled for `llvm`).
    Tvm,
    /// onnx2torch (1.5.15, `convert`, run by PyTorch on the CPU), which converts each op
    /// only at the versions it has a converter for: the lowering for it writes no other,
    /// and refuses a Pad that needs one.
    Onnx2Torch,
}

impl Target {
    /// Every target, as [`Target::name`] lists them.
    pub const ALL: [Target; 10] = [
        Target::Portable,
        Target::OnnxRuntime,
        Target::Tract,
        Target::CandleOnnx,
        Target::TractGpu,
        Target::OpenVino,
        Target::Rten,
        Target::Tinygrad,
        Target::Tvm,
        Target::Onnx2Torch,
    ];

    /// The target as `padkit lower --target` names it.
    pub fn name(self) -> &'static str {
        match self {
            Target::Portable => "portable",
            Target::OnnxRuntime => "onnxruntime",
            Target::Tract => "tract",
            Target::CandleOnnx => "candle-onnx",
            Target::TractGpu => "tract-gpu",
            Target::OpenVino => "openvino",
            Target::Rten => "rten",
            Target::Tinygrad => "tinygrad",
            Target::Tvm => "tvm",
            Target::Onnx2Torch => "onnx2torch",
        }
    }

    /// How the lowering for this target reads the positions of a Pad's borders.
    pub(crate) fn border_reads(self) -> BorderReads {
        match self {
            Target::Portable
            | Target::Tract
            | Target::CandleOnnx
            | Target::OpenVino
            | Target::Rten
            | Target::Tinygrad
            | Target::Tvm
            | Target::Onnx2Torch => BorderReads::Gathered,
            Target::OnnxRuntime => BorderReads::SlicedRuns,
            Target::TractGpu => BorderReads::AscendingSlices,
        }
    }

    /// Why this target's runtime cannot give `fill`, the constant value of a constant-mode
    /// Pad of `dtype`, in its output whatever ops compute it (the lowering refuses the
    /// Pad), or `None`.
    pub(crate) fn unheld_fill(self, dtype: DType, fill: &Data) -> Option<String> {
        match self {
            Target::OpenVino => openvino_unheld(dtype, fill),
            Target::Rten => rten_unheld(dtype, fill),
            _ => None,
        }
    }

    /// Why this target's runtime cannot run index maps computed in the graph (a Pad whose
    /// pads or axes come at run time), or `None`.
    pub(crate) fn refuses_computed_maps(self) -> Option<&'static str> {
        match self {
            // (measured: 128 of the suite's lowered models, each of such a Pad, gave an
            // output of another shape)
            Target::Tvm => Some(
                "TVM's Relax frontend fixes the shapes of index maps computed in the graph \
                 when it imports the model",
            ),
            _ => None,
        }
    }

    /// Whether this target's runtime takes a shape computed in the graph (`Reshape` to
    /// one), so that an output found empty at run time is that shape with no index map
    /// computed. Stock tract 0.23.9 takes none (the portable lowering runs there, as does
    /// tract's GPU runtimes'); candle-onnx's `Reshape` of an empty tensor is not graded;
    /// TVM's target computes no map at run time.
    pub(crate) fn takes_computed_shapes(self) -> bool {
        matches!(
            self,
            Target::OnnxRuntime
                | Target::OpenVino
                | Target::Rten
                | Target::Tinygrad
                | Target::Onnx2Torch
        )
    }

    /// How the lowering for this target writes an output known to be empty.
    pub(crate) fn empty_outputs(self) -> EmptyOutputs {
        match self {
            Target::OpenVino | Target::Tinygrad => EmptyOutputs::SlicedData,
            _ => EmptyOutputs::Block,
        }
    }

    /// Whether this target's own Pad computes `pad` exactly as padkit's core does.
    pub(crate) fn keeps(self, pad: &KnownPad) -> bool {
        // padkit's own domain, CenterCropPad and interior padding are no runtime's Pad
        if !pad.onnx_pad || pad.axes.iter().any(|a| a.interior != 0) {
            return false;
        }
        match self {
            Target::Portable => false,
            Target::OnnxRuntime => onnxruntime(pad),
            Target::Tract => tract(pad),
            Target::CandleOnnx => candle_onnx(pad),
            Target::TractGpu => pad.mode == PadMode::Constant && tract(pad),
            Target::OpenVino => openvino(pad),
            Target::Rten => rten(pad),
            Target::Tinygrad => tinygrad(pad),
            Target::Tvm => tvm(pad),
            Target::Onnx2Torch => onnx2torch(pad),
        }
    }

    /// Whether this target's runtime runs `op` (of the default domain) in a model of
    /// default opset `opset`. The lowering writes no other op: it holds its constants as
    /// initializers where `Constant` is not run, and a Pad whose lowering needs an op the
    /// runtime does not run at that opset is refused, naming the op.
    pub(crate) fn converts(self, op: &str, opset: i64) -> bool {
        match self {
            Target::Onnx2Torch => ONNX2TORCH_OPS
                .iter()
                .any(|&(name, first, last)| name == op && (first..=last).contains(&opset)),
            _ => true,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a lowering reads the positions of a border (the part of a padded axis that is not
/// the data): a `Slice` where they are one ascending run, else as below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BorderReads {
    /// A `Gather` of the positions: the portable form (candle-onnx's `Slice` takes no
    /// negative step).
    Gathered,
    /// A `Slice` per run where the positions are one or two runs, descending ones by a
    /// step of -1, else a `Gather`: for ONNX Runtime, whose `Gather` copies element by
    /// element along the last axis (a symmetric pad by 4 of [1, 64, 128, 128] on H and W:
    /// ×2.3 its reflect Pad sliced, ×3.7 gathered; docs/lower.md).
    SlicedRuns,
    /// A `Slice` of step 1 per ascending run, one position wide where the positions
    /// descend, up to [`MAX_BORDER_SLICES`] of them (a `Gather` beyond), in `Slice`'s
    /// attribute form before opset 10; and `Concat` at every opset: tract's GPU
    /// translators take core `Slice` and `TypedConcat` of every type, `Gather` of f32 and
    /// f16 only, and no strided slice.
    AscendingSlices,
}

/// How a lowering writes an output known to be empty when the model is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EmptyOutputs {
    /// A block of that shape, which holds nothing: a `ConstantOfShape` of zero, or an
    /// empty constant ([`crate::known_map`]).
    Block,
    /// The data sliced to nothing and reshaped to the output's shape: for OpenVINO
    /// 2026.4.1, which reads an empty `Constant` or initializer as a scalar (measured:
    /// dims [0, 5] give an output of shape []), and tinygrad 0.14, whose parser refuses a
    /// tensor without a data field ("only 1 data field is allowed"), as an empty one is
    /// written.
    SlicedData,
}

/// The most `Slice`s a border is read by ([`BorderReads::AscendingSlices`]).
pub(crate) const MAX_BORDER_SLICES: usize = 64;

/// A target name padkit-lower does not know.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown target {name:?}: the targets are {}",
    Target::ALL.map(Target::name).join(", ")
)]
pub struct UnknownTarget {
    /// The name given.
    pub name: String,
}

impl FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(s: &str) -> Result<Target, UnknownTarget> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTarget {
                name: s.to_string(),
            })
    }
}

/// What is known of one Pad when its model is read, all a target's rule decides on. Built
/// only for Pads whose pads and axes are known and that padkit's core accepts.
#[derive(Debug)]
pub(crate) struct KnownPad {
    /// ONNX's `Pad` (the default domain), not padkit's own nor `CenterCropPad`.
    pub(crate) onnx_pad: bool,
    /// The node's opset.
    pub(crate) node_opset: i64,
    pub(crate) mode: PadMode,
    pub(crate) dtype: DType,
    /// The data's extents, `None` where known only at run time.
    pub(crate) shape: Vec<Option<usize>>,
    /// What each axis of the data gets.
    pub(crate) axes: Vec<AxisPad>,
    /// The node's inputs, empty names of skipped optional inputs included.
    pub(crate) inputs: usize,
    /// The fill value's one element where it is known when the model is read (an attribute
    /// or a constant), `None` where it is fed at run time.
    pub(crate) fill: Option<Data>,
    /// The node has a `constant_value` input (opset 11 on), and whether it is declared or
    /// known as a scalar (rank 0; ONNX also allows one element of rank 1).
    pub(crate) value_input: Option<bool>,
    /// The node carries a `value` attribute (Pad's before opset 11; a stray one after).
    pub(crate) value_attribute: bool,
}

impl KnownPad {
    /// The axes a pad or a crop touches, with their extents.
    fn touched(&self) -> impl Iterator<Item = (Option<usize>, &AxisPad)> {
        self.shape
            .iter()
            .copied()
            .zip(&self.axes)
            .filter(|(_, a)| a.begin != 0 || a.end != 0)
    }

    /// Every extent of the data known and not 0.
    fn all_known_not_empty(&self) -> bool {
        self.shape.iter().all(|d| d.is_some_and(|d| d > 0))
    }

    /// The output is empty, known so when the model is read: an axis cropped to nothing
    /// (the data's extents all known).
    fn output_empty(&self) -> bool {
        let out = |(d, a): (&Option<usize>, &AxisPad)| {
            d.map(|d| d as i128 + i128::from(a.begin) + i128::from(a.end))
        };
        let out: Option<Vec<i128>> = self.shape.iter().zip(&self.axes).map(out).collect();
        out.is_some_and(|out| out.contains(&0))
    }

    /// No pad is negative.
    fn no_crop(&self) -> bool {
        self.axes.iter().all(|a| a.begin >= 0 && a.end >= 0)
    }
}

/// Whether `dtype` is an integer of 8 to 64 bits, float16, float or double: the numbers
/// the runtimes graded hold (rten but a few of them).
pub(crate) fn plain_number(dtype: DType) -> bool {
    use DType::*;
    matches!(
        dtype,
        Float16
            | Float32
            | Float64
            | Int8
            | Int16
            | Int32
            | Int64
            | UInt8
            | UInt16
            | UInt32
            | UInt64
    )
}

/// The extent of an axis of extent `d` after `a`'s crops (the core has checked it fits).
fn cropped(d: usize, a: &AxisPad) -> usize {
    let crop = a.begin.min(0).unsigned_abs() + a.end.min(0).unsigned_abs();
    d.saturating_sub(usize::try_from(crop).unwrap_or(usize::MAX))
}

/// Reflect's pads on an axis of `d` positions read only inside it (numpy's reflect with
/// one mirror per side: each pad at most `d - 1`).
fn reflect_inside(d: usize, a: &AxisPad) -> bool {
    let width = |p: i64| usize::try_from(p.max(0)).unwrap_or(usize::MAX);
    d >= 2 && width(a.begin) < d && width(a.end) < d
}

/// ONNX Runtime 1.32's CPU `Pad` (`onnxruntime/core/providers/cpu/tensor/pad.cc`): from
/// opset 2 for float and double, from 11 for the 8-, 32- and 64-bit integers and float16,
/// bool from 13, bfloat16 from 21 (as 1.32 runs them on the suite: the source at hand is
/// newer); constant, reflect and edge, wrap from 19. It crops first, then pads: a mode
/// other than constant fails where a cropped extent is 0, reflect where a reflected axis
/// keeps fewer than 2 positions or a pad is above its extent less one; wrap repeats
/// periodically, as numpy's does, but fails on empty data. Rank 0 is refused. Extents are
/// needed only where a non-constant mode pads or where anything crops.
fn onnxruntime(p: &KnownPad) -> bool {
    use DType::*;
    let from_11 = [Float16, Int8, Int32, Int64, UInt8, UInt32, UInt64];
    let typed = match p.node_opset {
        2..=10 => matches!(p.dtype, Float32 | Float64),
        11.. => {
            matches!(p.dtype, Float32 | Float64)
                || from_11.contains(&p.dtype)
                || (p.node_opset >= 13 && p.dtype == Bool)
                || (p.node_opset >= 21 && p.dtype == BFloat16)
        }
        _ => false,
    };
    let moded = match p.mode {
        PadMode::Constant | PadMode::Reflect | PadMode::Edge => true,
        PadMode::Wrap => p.node_opset >= 19,
        PadMode::Symmetric => false,
    };
    // wrap fails on empty data ("Unexpected mode of 3": its empty-input path has no wrap)
    let not_empty = p.all_known_not_empty();
    if !typed || !moded || p.shape.is_empty() || (p.mode == PadMode::Wrap && !not_empty) {
        return false;
    }
    p.touched().all(|(d, a)| {
        let crops = a.begin < 0 || a.end < 0;
        let Some(d) = d else {
            return p.mode == PadMode::Constant && !crops;
        };
        let left = cropped(d, a);
        match p.mode {
            PadMode::Constant => true,
            _ if left == 0 => false,
            PadMode::Reflect => reflect_inside(left, a),
            _ => true,
        }
    })
}

/// Stock tract-onnx's `Pad` (`tract-onnx-0.23.9/src/ops/array/pad.rs` and tract-core's
/// `ops/array/pad.rs`): opsets 2–10 by attributes, 11 on by inputs; constant, reflect and
/// edge (wrap is refused). From opset 11 a `constant_value` input must be a constant
/// scalar, and tract pads with it whatever the mode (`Pad18::wire`); it reads a `value`
/// attribute at every opset. tract adds negative pads to unsigned extents (it overflows),
/// and reflect reads outside the axis where a pad reaches its extent. Its `Pad` takes every
/// numeric type tract holds but not bool.
fn tract(p: &KnownPad) -> bool {
    let typed = plain_number(p.dtype);
    let moded = matches!(p.mode, PadMode::Constant | PadMode::Reflect | PadMode::Edge);
    // Pad-11 on: a `constant_value` input makes tract pad with it whatever the mode, and
    // it must be a scalar; tract reads a `value` attribute at every opset
    let value = match p.value_input {
        Some(scalar) => scalar && p.mode == PadMode::Constant && p.fill.is_some(),
        None => p.node_opset < 11 || !p.value_attribute,
    };
    if p.node_opset < 2 || !typed || !moded || !value || !p.no_crop() {
        return false;
    }
    p.touched().all(|(d, a)| match p.mode {
        PadMode::Reflect => d.is_some_and(|d| reflect_inside(d, a)),
        _ => true,
    })
}

/// candle-onnx's `Pad` (`candle-onnx-0.11.1/src/eval.rs`, the `"Pad"` arm): reflect only,
/// pads read from input 1 (so from opset 11; the attributes of opsets 1–10 are not read),
/// no third input (even an empty one), pads cast to `usize` (negative ones go wrong), an
/// axis of one position keeps its size, and so does an empty one (reflect of it is an
/// error in padkit's core). Its
/// reflect repeats periodically where pads are wider than the axis, as numpy's does. Types
/// are those candle-onnx holds (bool as uint8).
fn candle_onnx(p: &KnownPad) -> bool {
    use DType::*;
    let typed = matches!(
        p.dtype,
        UInt8 | UInt32 | Int64 | Float16 | Float32 | Float64 | Bool
    );
    if p.node_opset < 11 || p.inputs != 2 || p.mode != PadMode::Reflect || !typed || !p.no_crop() {
        return false;
    }
    p.touched().all(|(d, _)| d.is_some_and(|d| d >= 2))
}

/// OpenVINO 2026.4.1's `Pad` on its CPU device: the ONNX frontend's
/// (`src/frontends/onnx/frontend/src/op/pad.cpp`) takes constant, reflect and edge (wrap is
/// refused at import: `get_pad_mode`), the `value` attribute before opset 11 and the
/// `constant_value` input after; the shape inference (`pad_shape_inference.hpp`) refuses
/// reflect where any axis is empty and edge where an empty axis is padded, and a `value`
/// attribute (before opset 11) of infinity or NaN ("wasn't fully converted"); the CPU node
/// (`src/plugins/intel_cpu/src/nodes/pad.cpp`) holds the fill as an `f32` (`padValue`),
/// writes a zero fill by `memset` (so -0.0 becomes +0.0), and reads a fill fed at run time
/// only where shapes are dynamic. The CPU plugin runs no 64-bit type: it computes double in
/// float32 and int64, uint64, uint32, int16 and uint16 in int32 (`ConvertPrecision`, which
/// saturates constants: a double infinity becomes float's largest) — in every op, so no
/// lowering keeps a double or a 64-bit integer that float32 or int32 cannot hold; bool
/// runs as uint8. Kept: no crop, every extent a mode other than constant reads known and
/// not empty, reflect inside each axis, and a fill known when the model is read that
/// reaches the output unchanged ([`openvino_fill`]).
fn openvino(p: &KnownPad) -> bool {
    use DType::*;
    let typed = plain_number(p.dtype)
        || matches!(
            p.dtype,
            Bool | BFloat16 | Float8E4M3FN | Float8E5M2 | Float8E8M0 | Float4E2M1 | Int4 | UInt4
        );
    if !typed || p.shape.is_empty() || !p.no_crop() {
        return false;
    }
    match p.mode {
        PadMode::Constant => p.fill.as_ref().is_some_and(|f| {
            openvino_fill(p.dtype, f) && (p.node_opset >= 11 || finite(p.dtype, f))
        }),
        PadMode::Reflect => {
            p.all_known_not_empty()
                && p.touched()
                    .all(|(d, a)| d.is_some_and(|d| reflect_inside(d, a)))
        }
        PadMode::Edge => p.touched().all(|(d, _)| d.is_some_and(|d| d > 0)),
        PadMode::Wrap | PadMode::Symmetric => false,
    }
}

/// One element of a fill, read from its little-endian bytes (the types OpenVINO holds).
#[derive(Debug, Clone, Copy)]
enum Number {
    Float(f64),
    Int(i128),
}

impl Number {
    /// The fill's one element, `None` for other types than the plain numbers and bool
    /// (float16 and bfloat16 among them).
    fn of(dtype: DType, fill: &Data) -> Option<Number> {
        use DType::*;
        let Data::Bytes(bytes) = fill else {
            return None;
        };
        let int = |signed: bool| {
            let mut wide = [0u8; 16];
            let n = bytes.len().min(16);
            wide[..n].copy_from_slice(&bytes[..n]);
            if signed && bytes.last().is_some_and(|b| b & 0x80 != 0) {
                wide[n..].fill(0xff);
            }
            Number::Int(i128::from_le_bytes(wide))
        };
        Some(match dtype {
            Float32 => Number::Float(f32::from_le_bytes(bytes.as_slice().try_into().ok()?).into()),
            Float64 => Number::Float(f64::from_le_bytes(bytes.as_slice().try_into().ok()?)),
            Int8 | Int16 | Int32 | Int64 => int(true),
            Bool | UInt8 | UInt16 | UInt32 | UInt64 => int(false),
            _ => return None,
        })
    }
}

/// Why OpenVINO's CPU device cannot give `fill` in an output of `dtype` whatever ops
/// compute it, or `None`: it computes double in float32 and int64, uint64, uint32, int16
/// and uint16 in int32, in every op (`ConvertPrecision` in the CPU plugin's
/// `transformation_pipeline.cpp`), saturating constants (a double infinity becomes
/// float's largest).
fn openvino_unheld(dtype: DType, fill: &Data) -> Option<String> {
    use DType::*;
    let held = match (dtype, Number::of(dtype, fill)?) {
        (Float64, Number::Float(v)) => v.is_nan() || (v.is_finite() && f64::from(v as f32) == v),
        (Int16 | Int64 | UInt16 | UInt32 | UInt64, Number::Int(v)) => i32::try_from(v).is_ok(),
        _ => true,
    };
    let computed = if dtype == Float64 { "float32" } else { "int32" };
    (!held).then(|| {
        format!(
            "OpenVINO's CPU device computes {} in {computed}, which does not hold its constant \
             value",
            dtype.name()
        )
    })
}

/// Whether `fill` is a negative zero of a float type.
fn negative_zero(dtype: DType, fill: &Data) -> bool {
    use DType::*;
    let Data::Bytes(bytes) = fill else {
        return false;
    };
    match dtype {
        Float4E2M1 => bytes.as_slice() == [0x08],
        Float16 | BFloat16 | Float32 | Float64 | Float8E4M3FN | Float8E5M2 => bytes
            .split_last()
            .is_some_and(|(&last, rest)| last == 0x80 && rest.iter().all(|&b| b == 0)),
        _ => false,
    }
}

/// Whether `fill`, a float16, float or double, is finite (an integer is).
fn finite(dtype: DType, fill: &Data) -> bool {
    let Data::Bytes(bytes) = fill else {
        return false;
    };
    let bits = |exponent: u64| {
        let mut wide = [0u8; 8];
        wide[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
        u64::from_le_bytes(wide) & exponent != exponent
    };
    match dtype {
        DType::Float16 => bits(0x7c00),
        DType::Float32 => bits(0x7f80_0000),
        DType::Float64 => bits(0x7ff0_0000_0000_0000),
        _ => true,
    }
}

/// Whether OpenVINO's CPU `Pad` writes `fill` into an output of `dtype` unchanged
/// ([`openvino`]): the value held ([`openvino_unheld`]) and exact through the `f32` the
/// node keeps it in, and not a negative zero (written by `memset`).
fn openvino_fill(dtype: DType, fill: &Data) -> bool {
    if negative_zero(dtype, fill) || openvino_unheld(dtype, fill).is_some() {
        return false;
    }
    match Number::of(dtype, fill) {
        Some(Number::Float(v)) => v.is_nan() || f64::from(v as f32) == v,
        Some(Number::Int(v)) => v as f32 as i128 == v,
        // float16, bfloat16, the float8s, float4e2m1 and the 4-bit integers: every value
        // is an f32's
        None => true,
    }
}

/// rten 0.27's `Pad` (`src/ops/pad.rs`; its ONNX loader, `src/op_registry/onnx_registry.rs`
/// and `src/model/onnx_loader.rs`): it holds float32, int32, int8 and uint8 tensors, and
/// loads int64 as int32 (saturating) and double and float16 as float32; it reads `pads`
/// and `value` attributes as inputs (`value` always as a float32, which an integer Pad
/// refuses) and no `paddings`, refuses an `axes` input, takes constant, reflect, edge and
/// wrap at every opset, pads a non-constant mode on the last two axes only and refuses it
/// where any axis is empty; its reflect repeats with the axis' period past one mirror
/// (`ReflectPad::src_index`), and a zero fill is written as +0 (`const_val ==
/// T::default()`). Kept: opset 11 on without an `axes` input, no crop, a fill known when
/// the model is read that is not a negative zero ([`rten_unheld`] refuses one it cannot
/// hold), and in the other modes every extent known and not empty, pads on the last two
/// axes only, reflect inside each axis and wrap from opset 19.
fn rten(p: &KnownPad) -> bool {
    use DType::*;
    let typed = matches!(p.dtype, Float32 | Int32 | Int8 | UInt8 | Int64);
    if p.node_opset < 11 || p.inputs > 3 || p.value_attribute || !typed {
        return false;
    }
    if p.shape.is_empty() || !p.no_crop() {
        return false;
    }
    let rank = p.shape.len();
    let moded = match p.mode {
        PadMode::Constant => {
            return p
                .fill
                .as_ref()
                .is_some_and(|f| !negative_zero(p.dtype, f) && rten_unheld(p.dtype, f).is_none());
        }
        PadMode::Reflect | PadMode::Edge => true,
        PadMode::Wrap => p.node_opset >= 19,
        PadMode::Symmetric => false,
    };
    let axes = p.shape.iter().zip(&p.axes).enumerate();
    let mut touched = axes.filter(|(_, (_, a))| a.begin != 0 || a.end != 0);
    moded
        && p.all_known_not_empty()
        && touched.all(|(axis, (d, a))| {
            let inside = p.mode != PadMode::Reflect || d.is_some_and(|d| reflect_inside(d, a));
            axis + 2 >= rank && inside
        })
}

/// Why rten cannot give `fill` in an output of `dtype` whatever ops compute it, or `None`:
/// it holds int64 as int32, saturating (`saturating_cast_i64_to_i32` in
/// `src/model/onnx_loader.rs`).
fn rten_unheld(dtype: DType, fill: &Data) -> Option<String> {
    let held = match (dtype, Number::of(dtype, fill)?) {
        (DType::Int64, Number::Int(v)) => i32::try_from(v).is_ok(),
        _ => true,
    };
    (!held).then(|| "rten holds int64 as int32, which does not hold its constant value".into())
}

/// tinygrad 0.14.0's `Pad` (`tinygrad/nn/onnx.py`, `OnnxRunner`'s `Pad` on
/// `Tensor.pad`): pads, `constant_value` and `axes` must be constants (its
/// `_resolve_const`); it reads no `paddings` (opset 1), holds no complex numbers, writes a
/// negative zero fill as +0, refuses reflect where an axis is empty and wrap of a pad that
/// reaches the extent, and reads an empty `axes` as every axis. Kept: a Pad that pads,
/// from opset 2, of every numeric type it holds and bool, without crops, with a fill
/// known when the model is read that is not a negative zero; reflect on known, non-empty
/// extents inside each axis; wrap from opset 19 of pads below the extent.
fn tinygrad(p: &KnownPad) -> bool {
    let typed = plain_number(p.dtype) || p.dtype == DType::Bool;
    if p.node_opset < 2
        || !typed
        || !p.no_crop()
        || p.fill.is_none()
        || p.touched().next().is_none()
    {
        return false;
    }
    let width = |v: i64| usize::try_from(v).unwrap_or(usize::MAX);
    match p.mode {
        PadMode::Constant => p.fill.as_ref().is_some_and(|f| !negative_zero(p.dtype, f)),
        PadMode::Reflect => {
            p.all_known_not_empty()
                && p.touched()
                    .all(|(d, a)| d.is_some_and(|d| reflect_inside(d, a)))
        }
        PadMode::Edge => true,
        PadMode::Wrap => {
            p.node_opset >= 19
                && p.touched()
                    .all(|(d, a)| d.is_some_and(|d| width(a.begin) < d && width(a.end) < d))
        }
        PadMode::Symmetric => false,
    }
}

/// The opsets at which onnx2torch 1.5.15 converts the ops the lowering writes (first,
/// last). It looks a converter up by the op's version at the model's opset
/// (`get_converter` in `onnx2torch/node_converters/registry.py`), and has converters
/// (`@add_converter`) for these versions only: `Cast` 9 and 13, `Constant` 9 to 13,
/// `ConstantOfShape` 9, `Equal` 7 to 13, `Identity` 1 to 16, `ReduceMax` 1 to 13,
/// `Reshape` 5 to 14, `Shape` 1 to 15, `Squeeze` 1 to 21, `Transpose` 1 and 13,
/// `Unsqueeze` 1 to 13, none of `CastLike`, and the other ops' every version from the
/// first listed; so from opset 19 it runs none of `Cast`, `Constant`, `Equal`, `Identity`,
/// `Reshape` or `Shape`.
const ONNX2TORCH_OPS: [(&str, i64, i64); 25] = [
    ("Abs", 6, i64::MAX),
    ("Add", 1, i64::MAX),
    ("Cast", 9, 18),
    ("Concat", 4, i64::MAX),
    ("Constant", 9, 18),
    ("ConstantOfShape", 9, 19),
    ("Div", 1, i64::MAX),
    ("Equal", 7, 18),
    ("Expand", 8, i64::MAX),
    ("Gather", 1, i64::MAX),
    ("Identity", 1, 18),
    ("Less", 7, i64::MAX),
    ("Mul", 1, i64::MAX),
    ("Neg", 1, i64::MAX),
    ("Range", 11, i64::MAX),
    ("ReduceMax", 1, 17),
    ("ReduceSum", 1, i64::MAX),
    ("Reshape", 5, 18),
    ("Shape", 1, 18),
    ("Slice", 10, i64::MAX),
    ("Squeeze", 1, 22),
    ("Sub", 1, i64::MAX),
    ("Transpose", 1, 20),
    ("Unsqueeze", 1, 20),
    ("Where", 9, i64::MAX),
];

/// onnx2torch 1.5.15's `Pad` (`onnx2torch/node_converters/pad.py`) on PyTorch's
/// `F.pad`: converters for versions 2, 11 and 13 only (so opsets 2 to 17); constant,
/// reflect and edge (`replicate`); version 2 reads a `constant_value` attribute, which
/// ONNX's Pad-2 does not have, so it pads with 0 whatever its `value`; versions 11 and 13
/// read pads and the fill at run time, the fill as a Python float (an int64's largest
/// overflows). Reflect and edge pad no axis of the first two
/// (`_torch_padding_to_mode_format`), and PyTorch pads 1 to 3 axes of a tensor of one or
/// two more (so ranks 3 to 5), reflect by less than the extent; constant mode crops by
/// negative pads, as padkit's core does. Kept: from opset 2 to 17, of the numbers, bool
/// and bfloat16 (without a `constant_value` input, which it would hold), with a fill known when the model is read (a zero that is not negative at opset 2
/// to 10, an integer a double holds from 11); constant mode with or without crops;
/// reflect and edge without crops on known, non-empty extents, ranks 3 to 5, the first
/// two axes not padded, reflect inside each axis.
fn onnx2torch(p: &KnownPad) -> bool {
    // (it converts no bfloat16 initializer: `torch.from_numpy` takes no ml_dtypes array)
    let bfloat16 = p.dtype == DType::BFloat16 && p.value_input.is_none();
    let typed = plain_number(p.dtype) || p.dtype == DType::Bool || bfloat16;
    if !(2..=17).contains(&p.node_opset) || !typed || p.fill.is_none() {
        return false;
    }
    if p.mode != PadMode::Constant && !p.no_crop() {
        return false;
    }
    match p.mode {
        PadMode::Constant => p.fill.as_ref().is_some_and(|f| match p.node_opset {
            11.. => {
                !matches!(Number::of(p.dtype, f), Some(Number::Int(v)) if v as f64 as i128 != v)
            }
            _ => !negative_zero(p.dtype, f) && zero(f),
        }),
        PadMode::Reflect | PadMode::Edge => {
            let rank = p.shape.len();
            let mut axes = p.shape.iter().zip(&p.axes).enumerate();
            (3..=5).contains(&rank)
                && p.all_known_not_empty()
                && axes.all(|(axis, (d, a))| {
                    let padded = a.begin != 0 || a.end != 0;
                    let inside =
                        p.mode != PadMode::Reflect || d.is_some_and(|d| reflect_inside(d, a));
                    !padded || (axis >= 2 && inside)
                })
        }
        PadMode::Wrap | PadMode::Symmetric => false,
    }
}

/// Whether every byte of `fill` is 0 (a zero, or false, in every type but a negative
/// zero's).
fn zero(fill: &Data) -> bool {
    matches!(fill, Data::Bytes(b) if b.iter().all(|&b| b == 0))
}

/// TVM 0.27's `Pad` through Relax's ONNX frontend (`python/tvm/relax/frontend/onnx/
/// onnx_frontend.py`, class `Pad`): from opset 2 (`_impl_v2`, so no opset-1 `paddings`),
/// pads, value and axes constants only (`_parse_pads_and_axes`: "Dynamic pads are not
/// supported yet"), constant by `topi.nn.pad`, edge by `topi.nn.replicate_pad`, reflect by
/// `topi.nn.mirror_pad` (one mirror), wrap from opset 19. Its report on the suite grades the
/// rest: reflect goes wrong where a pad reaches the extent, on rank 5, on an empty axis and
/// where `axes` comes from a `Constant` node; edge and wrap go wrong where an axis is empty
/// (wrap crashes there), wrap where it crops; rank 0 is refused before opset 11; every Pad
/// that crops data of known, non-empty extents to nothing passes, of every type TVM holds
/// (its tensors take bfloat16, the float8s and float8e8m0 as ml_dtypes arrays), where the
/// lowering's empty constant fails ("Invalid DLTensor"). Kept: from opset 2, every extent
/// known and none empty, with a fill known when the model is read: a Pad cropping to
/// nothing of those types; without crops, the numbers and bool in constant mode, edge,
/// reflect below rank 5 without an `axes` input, inside each axis, and wrap from opset 19.
fn tvm(p: &KnownPad) -> bool {
    use DType::*;
    let typed = plain_number(p.dtype) || p.dtype == Bool;
    let known = p.all_known_not_empty();
    let held = matches!(
        p.dtype,
        BFloat16 | Float8E4M3FN | Float8E4M3FNUZ | Float8E5M2 | Float8E5M2FNUZ | Float8E8M0
    );
    if p.node_opset >= 2 && known && p.fill.is_some() && p.output_empty() {
        return typed || held;
    }
    let scalar = p.shape.is_empty() && p.node_opset < 11;
    if p.node_opset < 2 || !typed || !p.no_crop() || !known || p.fill.is_none() || scalar {
        return false;
    }
    match p.mode {
        PadMode::Constant | PadMode::Edge => true,
        PadMode::Reflect => {
            p.shape.len() < 5
                && p.inputs <= 3
                && p.touched()
                    .all(|(d, a)| d.is_some_and(|d| reflect_inside(d, a)))
        }
        PadMode::Wrap => p.node_opset >= 19,
        PadMode::Symmetric => false,
    }
}
