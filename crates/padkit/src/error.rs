//! The one error type of padkit: every variant names the offending input, axis and numbers.

use crate::{DType, PadMode};

/// Why a pad could not be planned or run.
///
/// Every message names what is wrong (which input, which axis, which numbers), so that an
/// adapter can pass it to its user unchanged.
///
/// ```
/// use padkit::{PadSpec, PadMode, output_shape};
/// let spec = PadSpec::new(vec![0, -5, 0, 1]).with_mode(PadMode::Constant);
/// let err = output_shape(&[3usize, 2], &spec).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "axis 1: output extent would be -2 (extent 2, begin -5, end 1, interior 0)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PadError {
    /// `pads` does not hold two values per padded axis.
    #[error(
        "pads has {got} values but {axes} axes are padded, so it needs 2 × {axes} = {expected}"
    )]
    PadsLength {
        /// Number of values given.
        got: usize,
        /// Number of padded axes.
        axes: usize,
        /// `2 * axes`.
        expected: usize,
    },
    /// `interior` does not hold one value per padded axis.
    #[error("interior has {got} values but {expected} axes are padded")]
    InteriorLength {
        /// Number of values given.
        got: usize,
        /// Number of padded axes.
        expected: usize,
    },
    /// An `axes` entry is outside `[-rank, rank-1]`.
    #[error("axes: axis {axis} is out of range for a tensor of rank {rank} (allowed {min}..={max})", min = -(*rank as i64), max = *rank as i64 - 1)]
    AxisOutOfRange {
        /// The axis as given.
        axis: i64,
        /// The input rank.
        rank: usize,
    },
    /// Two `axes` entries name the same axis once negative axes are normalised.
    #[error("axes: axis {axis} names axis {normalized}, which is already listed")]
    DuplicateAxis {
        /// The axis as given.
        axis: i64,
        /// The axis after normalisation.
        normalized: usize,
    },
    /// An interior padding is negative.
    #[error("axis {axis}: interior padding {interior} is negative")]
    NegativeInterior {
        /// The axis.
        axis: usize,
        /// The interior padding given.
        interior: i64,
    },
    /// Interior padding was asked for in a mode other than constant.
    #[error("axis {axis}: interior padding {interior} needs mode constant, not {mode}")]
    InteriorMode {
        /// The axis.
        axis: usize,
        /// The mode.
        mode: PadMode,
        /// The interior padding given.
        interior: i64,
    },
    /// The output extent of an axis would be negative.
    #[error(
        "axis {axis}: output extent would be {output} (extent {extent}, begin {begin}, end {end}, interior {interior})"
    )]
    NegativeOutput {
        /// The axis.
        axis: usize,
        /// Input extent.
        extent: i64,
        /// Begin pad.
        begin: i64,
        /// End pad.
        end: i64,
        /// Interior padding.
        interior: i64,
        /// The (negative) output extent.
        output: i128,
    },
    /// Arithmetic on an axis' extent and pads overflowed.
    #[error(
        "axis {axis}: output extent overflows (extent {extent}, begin {begin}, end {end}, interior {interior})"
    )]
    Overflow {
        /// The axis.
        axis: usize,
        /// Input extent.
        extent: String,
        /// Begin pad.
        begin: i64,
        /// End pad.
        end: i64,
        /// Interior padding.
        interior: i64,
    },
    /// The crops of an axis remove more than the axis holds (modes other than constant).
    #[error(
        "axis {axis}: mode {mode} crops {cropped} of {extent} elements (begin {begin}, end {end}), leaving {window}"
    )]
    CropTooLarge {
        /// The axis.
        axis: usize,
        /// The mode.
        mode: PadMode,
        /// Input extent.
        extent: i64,
        /// Begin pad.
        begin: i64,
        /// End pad.
        end: i64,
        /// Elements cropped.
        cropped: i64,
        /// What is left (negative).
        window: i64,
    },
    /// A mode other than constant must pad an axis that has no element left to copy from.
    #[error(
        "axis {axis}: mode {mode} cannot pad (begin {begin}, end {end}) an axis with no element left (extent {extent} after crops)"
    )]
    EmptyWindow {
        /// The axis.
        axis: usize,
        /// The mode.
        mode: PadMode,
        /// Input extent after crops.
        extent: i64,
        /// Begin pad.
        begin: i64,
        /// End pad.
        end: i64,
    },
    /// A reflect pad ONNX's reference refuses, under strict ONNX semantics
    /// ([`PadSpec::with_strict_onnx`](crate::PadSpec::with_strict_onnx)): a pad above the
    /// axis length − 1 after its crops, or an axis shorter than 2 after its crops padded.
    #[error(
        "axis {axis}: reflect pads (begin {begin}, end {end}) an axis of {extent} elements after crops: strict ONNX semantics refuse a pad above the axis length - 1 and an axis shorter than 2 (padkit's default gives numpy's result)"
    )]
    BeyondOnnx {
        /// The axis.
        axis: usize,
        /// Its extent after crops.
        extent: i64,
        /// Begin pad.
        begin: i64,
        /// End pad.
        end: i64,
    },
    /// The output would not fit in memory, or is above the caller's limit.
    #[error(
        "output of shape {shape:?} would take {}, above the limit of {}",
        show_bytes(*bytes),
        show_bytes(*limit)
    )]
    TooLarge {
        /// Output shape.
        shape: Vec<usize>,
        /// Output size in bytes (`u128::MAX` when it overflows even that).
        bytes: u128,
        /// The limit in force.
        limit: u128,
    },
    /// The input's extents multiply past what any buffer can hold.
    #[error("input of shape {shape:?} has more elements than memory can address")]
    InputTooLarge {
        /// Input shape.
        shape: Vec<usize>,
    },
    /// Allocating the output failed.
    #[error("could not allocate {bytes} bytes for the output")]
    Alloc {
        /// Bytes asked for.
        bytes: usize,
    },
    /// The data buffer does not match the shape.
    #[error("{what} holds {got} elements but shape {shape:?} needs {expected}")]
    DataLength {
        /// Which buffer (input data, output buffer).
        what: &'static str,
        /// The shape.
        shape: Vec<usize>,
        /// Elements the shape needs.
        expected: usize,
        /// Elements present.
        got: usize,
    },
    /// A byte buffer does not match the shape and element type.
    #[error("{what} holds {got} bytes but shape {shape:?} needs {expected} bytes")]
    ByteLength {
        /// Which buffer (tensor data, input bytes, output bytes).
        what: &'static str,
        /// The shape.
        shape: Vec<usize>,
        /// Bytes the shape needs.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// An output shape whose trailing dims multiply past `isize`: frameworks compute such
    /// strides for every tensor, empty ones too.
    #[error(
        "output of shape {shape:?} cannot be a framework tensor: the product of its trailing dims overflows"
    )]
    Strides {
        /// The output shape.
        shape: Vec<usize>,
    },
    /// A bool element stored as a byte other than 0 or 1.
    #[error("bool element {at} is stored as byte {byte}; bool bytes must be 0 or 1")]
    BoolByte {
        /// The element's index.
        at: usize,
        /// The byte found.
        byte: u8,
    },
    /// The fill value's element type differs from the data's.
    #[error("constant value has type {got} but the data has type {expected}")]
    ValueType {
        /// The data's type.
        expected: DType,
        /// The value's type.
        got: DType,
    },
    /// The fill value of a byte-level pad is not one element's bytes.
    #[error("constant value has {got} bytes but elements take {element_bytes}")]
    ValueBytes {
        /// Bytes given.
        got: usize,
        /// Bytes per element.
        element_bytes: usize,
    },
    /// The fill value is not a single element.
    #[error("constant value must hold one element, it holds {elements}")]
    ValueNotScalar {
        /// Elements in the value.
        elements: usize,
    },
    /// The fill value cannot be represented exactly in the data's element type.
    #[error("constant value {value} does not fit element type {dtype}")]
    ValueOutOfRange {
        /// The value as given.
        value: String,
        /// The data's element type, as the framework names it.
        dtype: String,
    },
    /// A framework element type padkit cannot pad (quantized storage, for instance).
    #[error("element type {0} is not supported")]
    UnsupportedType(String),
    /// A mode name that padkit does not know.
    #[error("unknown pad mode {0:?} (expected constant, reflect, edge, wrap or symmetric)")]
    UnknownMode(String),
    /// A `mode` attribute ONNX Pad does not define.
    #[error(
        "attribute 'mode' is {0:?}; ONNX Pad knows constant, reflect, edge and (opset 19+) wrap"
    )]
    UnknownOnnxMode(String),
    /// A mode used before the ONNX opset that introduced it.
    #[error("mode \"{mode}\" needs opset 19 or later, the model uses opset {opset}")]
    ModeNeedsOpset {
        /// The mode.
        mode: PadMode,
        /// The model's opset.
        opset: i64,
    },
    /// An input of ONNX Pad used before the opset that introduced it.
    #[error("input '{input}' needs opset {since} or later, the model uses opset {opset}")]
    InputNeedsOpset {
        /// The input's name in the ONNX spec.
        input: &'static str,
        /// The first opset that has it.
        since: i64,
        /// The model's opset.
        opset: i64,
    },
    /// A Pad node with more inputs than its version takes, or none.
    #[error("{op} takes {} input{}, the node has {got}", if *max == 1 { "1".to_string() } else { format!("1 to {max}") }, if *max == 1 { "" } else { "s" })]
    InputCount {
        /// The op (`Pad-13`, `ai.padkit Pad-1`).
        op: String,
        /// The most inputs it takes.
        max: usize,
        /// The node's inputs.
        got: usize,
    },
    /// A model importing a version of padkit's domain that does not exist.
    #[error(
        "the model imports {domain} at version {opset} (0: not at all); its Pad is version {version}"
    )]
    DomainVersion {
        /// The domain.
        domain: &'static str,
        /// Its only version.
        version: i64,
        /// The version the model imports.
        opset: i64,
    },
    /// An element type the model's version of ONNX Pad does not take.
    #[error("Pad-{version} does not take element type {dtype} (Pad-{since} does)")]
    TypeNeedsOpset {
        /// The data's type.
        dtype: DType,
        /// The Pad version of the model's opset.
        version: i64,
        /// The first Pad version that takes it.
        since: i64,
    },
    /// An ONNX Pad operand read from an input (`pads`, `axes`) of a type ONNX does not
    /// allow for it.
    #[error("input '{input}' has type {got}; Pad takes {}", type_list(allowed))]
    OperandType {
        /// The input's name in the ONNX spec.
        input: &'static str,
        /// Its element type.
        got: DType,
        /// The types ONNX allows for it.
        allowed: &'static [DType],
    },
    /// An ONNX Pad operand read from an input (`pads`, `axes`) that is not 1-D.
    #[error("input '{input}' must be 1-D, it has rank {rank}")]
    OperandRank {
        /// The input's name in the ONNX spec.
        input: &'static str,
        /// Its rank.
        rank: usize,
    },
    /// An ONNX element type code that padkit does not know.
    #[error("unknown ONNX element type code {0}")]
    UnknownDType(i32),
    /// Bytes given for a string tensor, or strings for a numeric one.
    #[error("tensor data of type {dtype} must be {}", if *dtype == DType::String { "strings" } else { "bytes" })]
    WrongStorage {
        /// The tensor's type.
        dtype: DType,
    },
    /// A typed call whose Rust type does not match the tensor's element type.
    #[error("tensor has element type {actual}, not {requested}")]
    WrongType {
        /// Type asked for.
        requested: DType,
        /// Type held.
        actual: DType,
    },
}

/// `int32 or int64`.
fn type_list(types: &[DType]) -> String {
    types
        .iter()
        .map(|d| d.name())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// `bytes` for people: the exact count, and in GiB or MiB when large.
fn show_bytes(bytes: u128) -> String {
    const MIB: u128 = 1 << 20;
    const GIB: u128 = 1 << 30;
    match bytes {
        u128::MAX => "more than 2^128 bytes".to_string(),
        b if b >= GIB => format!("{b} bytes ({:.1} GiB)", b as f64 / GIB as f64),
        b if b >= MIB => format!("{b} bytes ({:.1} MiB)", b as f64 / MIB as f64),
        b => format!("{b} bytes"),
    }
}

/// Result alias used across padkit.
pub type Result<T, E = PadError> = std::result::Result<T, E>;
