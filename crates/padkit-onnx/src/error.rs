//! padkit-onnx's error: what names the model, tensor, file or input refused and the
//! numbers, under each outer step of the reading ("initializer: tensor \"w\": dimension -1
//! is negative", a layer each).

use std::fmt::Display;

/// Why padkit-onnx refused a model, a tensor, a file or a model's inputs: what was wrong,
/// under each outer step of the reading that met it ([`Error::Context`]), each a layer of
/// the error's [`source`](std::error::Error::source) chain. Its message is the chain's:
/// `{:#}` of an `anyhow::Error` prints it, as [`Error::message`] does.
///
/// ```
/// use padkit_onnx::pb::TensorProto;
/// let tp = TensorProto { name: "w".into(), data_type: 1, dims: vec![-1], ..Default::default() };
/// let err = padkit_onnx::proto::tensor_from_proto(&tp).unwrap_err();
/// assert_eq!(err.message(), "tensor \"w\": dimension -1 is negative");
/// // an unknown element type: padkit's own error, under the tensor's name
/// let tp = TensorProto { name: "w".into(), data_type: 99, ..Default::default() };
/// let err = padkit_onnx::proto::tensor_from_proto(&tp).unwrap_err();
/// let padkit_onnx::Error::Context { what, source } = &err else { panic!() };
/// assert!(what == "tensor \"w\"" && matches!(**source, padkit_onnx::Error::Pad(_)));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// What is wrong with the model, tensor, file or inputs, and the numbers.
    #[error("{0}")]
    Invalid(String),
    /// A value breaks a rule of Pad (its pads, axes, element type…).
    #[error(transparent)]
    Pad(#[from] padkit::PadError),
    /// A file could not be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Bytes are not the serialized ONNX message they should be.
    #[error(transparent)]
    Decode(#[from] prost::DecodeError),
    /// Bytes that must be UTF-8 are not.
    #[error(transparent)]
    Utf8(#[from] std::string::FromUtf8Error),
    /// What was being read (the model, a tensor, an attribute…) when its cause failed.
    #[error("{what}")]
    Context {
        /// What was being read.
        what: String,
        /// Why it failed.
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// An error of message `message`.
    pub(crate) fn msg(message: impl Display) -> Error {
        Error::Invalid(message.to_string())
    }

    /// The error's message, its whole chain ([`message`]).
    ///
    /// ```
    /// let err = padkit_onnx::proto::decode_tensor(b"\xff", "input 0").unwrap_err();
    /// assert!(err.message().starts_with("input 0 is not a serialized ONNX TensorProto: "));
    /// ```
    pub fn message(&self) -> String {
        message(self)
    }
}

/// The message of error `e` and its causes: each layer of its
/// [`source`](std::error::Error::source) chain, outermost first, joined by `: ` (what `{:#}`
/// of an `anyhow::Error` holding it prints), for padkit-onnx's and padkit-lower's errors,
/// whose layers each say their own part.
///
/// ```
/// let err = padkit_onnx::proto::decode_tensor(b"\xff", "input 0").unwrap_err();
/// assert_eq!(padkit_onnx::error::message(&err), err.message());
/// ```
pub fn message(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(e) = cause {
        out.push_str(": ");
        out.push_str(&e.to_string());
        cause = e.source();
    }
    out
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

impl<T, E: Into<Error>> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl Display) -> Result<T> {
        self.map_err(|e| Error::Context {
            what: what.to_string(),
            source: Box::new(e.into()),
        })
    }

    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| Error::Context {
            what: what().to_string(),
            source: Box::new(e.into()),
        })
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
