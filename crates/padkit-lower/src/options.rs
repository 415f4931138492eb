//! How a model is lowered: the output limit, the budget of constant bytes, the target.

use crate::Target;

/// The output limit `padkit lower` lowers with unless `--max-output-bytes` says otherwise:
/// 16 GiB. A fixed number, never a reading of the machine that lowers, so that a lowering
/// is a function of the model and the options alone (the same bytes on every machine): a
/// Pad whose output is larger is refused when the model is read where its extents are
/// known then, and by the lowered model's run-time guard where they are known only at run
/// time. A runtime on a machine with less memory refuses smaller outputs through its own
/// allocator.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 16 << 30;

/// The budget of constant bytes a lowering writes into a model unless
/// [`Options::max_constant_bytes`] says otherwise: 1 GiB, half of the 2 GiB that protobuf
/// allows a model held in one file.
pub const DEFAULT_MAX_CONSTANT_BYTES: u64 = 1 << 30;

/// How [`crate::lower_with`] lowers.
///
/// ```
/// use padkit_lower::Target;
/// let options = padkit_lower::Options::default()
///     .with_max_output_bytes(1 << 30)
///     .with_max_constant_bytes(1 << 20)
///     .with_target(Target::OnnxRuntime);
/// assert_eq!(options.max_output_bytes, Some(1 << 30));
/// assert_eq!(options.max_constant_bytes, Some(1 << 20));
/// assert_eq!(options.target, Target::OnnxRuntime);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// Refuse Pads whose output would take more bytes than this (as padkit's engines
    /// refuse to run them), with [`padkit::PadError::TooLarge`], when the model is read or,
    /// for extents known only at run time, by a guard written into the lowered model.
    /// `padkit lower` sets [`DEFAULT_MAX_OUTPUT_BYTES`] unless told otherwise; where `None`,
    /// only outputs above `isize::MAX` bytes, which no runtime can hold, are refused.
    pub max_output_bytes: Option<u64>,
    /// The most bytes of constants (index maps, fill blocks, border positions, slice
    /// bounds) a lowering writes into the model, over all its Pads:
    /// [`DEFAULT_MAX_CONSTANT_BYTES`] where `None`. Past it, [`crate::LowerError::Budget`].
    /// Each constant is also bounded alone ([`crate::MAX_MAP_LEN`], [`crate::MAX_BLOCK_BYTES`]), so what
    /// a lowering holds in memory is the model, the constants it writes and one constant
    /// more.
    pub max_constant_bytes: Option<u64>,
    /// The runtime the lowered model is for: the Pads its own `Pad` computes as padkit's
    /// core does are left as they are ([`Target`]; every Pad is lowered for the default,
    /// [`Target::Portable`]).
    pub target: Target,
    /// ONNX's refusals where padkit answers beyond ONNX ([`Options::with_strict_onnx`]).
    pub strict_onnx: bool,
}

impl Options {
    /// These options with the budget of constant bytes `bytes`.
    pub fn with_max_constant_bytes(mut self, bytes: u64) -> Options {
        self.max_constant_bytes = Some(bytes);
        self
    }

    /// These options for runtime `target`.
    pub fn with_target(mut self, target: Target) -> Options {
        self.target = target;
        self
    }

    /// These options with ONNX's refusals (`true`) or numpy's results (`false`, the
    /// default) where padkit answers beyond ONNX ([`padkit::PadSpec::with_strict_onnx`]):
    /// with `true`, a reflect Pad that pads wider than an axis after its crops (or an axis
    /// shorter than 2) is refused when the model is read where its pads and extents are
    /// known then ([`padkit::PadError::BeyondOnnx`]), and by the lowered model's run-time
    /// guard where they are known only at run time; a target keeps no reflect Pad it cannot
    /// check so.
    ///
    /// ```
    /// let options = padkit_lower::Options::default().with_strict_onnx(true);
    /// assert!(options.strict_onnx);
    /// ```
    pub fn with_strict_onnx(mut self, strict: bool) -> Options {
        self.strict_onnx = strict;
        self
    }

    /// These options with the output limit `bytes`.
    pub fn with_max_output_bytes(mut self, bytes: u64) -> Options {
        self.max_output_bytes = Some(bytes);
        self
    }
}
