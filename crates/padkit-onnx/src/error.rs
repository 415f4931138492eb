//! padkit-onnx's error: a message that names the model, tensor, file or input refused and
//! the numbers, each outer step of the reading prefixed to it ("initializer: tensor \"w\":
//! dimension -1 is negative").

use std::fmt::Display;

/// Why padkit-onnx refused a model, a tensor, a file or a model's inputs.
///
/// ```
/// use padkit_onnx::pb::TensorProto;
/// let tp = TensorProto { name: "w".into(), data_type: 1, dims: vec![-1], ..Default::default() };
/// let err = padkit_onnx::proto::tensor_from_proto(&tp).unwrap_err();
/// assert_eq!(err.to_string(), "tensor \"w\": dimension -1 is negative");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(String);

impl Error {
    /// An error of message `message`.
    pub(crate) fn msg(message: impl Display) -> Error {
        Error(message.to_string())
    }
}

impl From<padkit::PadError> for Error {
    fn from(e: padkit::PadError) -> Error {
        Error::msg(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::msg(e)
    }
}

/// A result of padkit-onnx.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What was being read, prefixed to an error's message (or made the message, for an
/// absent value).
pub(crate) trait Context<T> {
    /// The error, its message prefixed by `what`.
    fn context(self, what: impl Display) -> Result<T>;
    /// As [`Context::context`], `what` made only on an error.
    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T>;
}

impl<T, E: Display> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl Display) -> Result<T> {
        self.map_err(|e| Error(format!("{what}: {e}")))
    }

    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| Error(format!("{}: {e}", what())))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: impl Display) -> Result<T> {
        self.ok_or_else(|| Error::msg(what))
    }

    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| Error::msg(what()))
    }
}

/// Returns an [`Error`] of the formatted message.
macro_rules! bail {
    ($($message:tt)*) => {
        return Err($crate::error::Error::msg(format!($($message)*)))
    };
}

/// Returns an [`Error`] of the formatted message unless `condition` holds.
macro_rules! ensure {
    ($condition:expr, $($message:tt)*) => {
        if !$condition {
            $crate::error::bail!($($message)*);
        }
    };
}

pub(crate) use {bail, ensure};
