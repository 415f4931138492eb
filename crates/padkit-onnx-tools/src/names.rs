//! Names from a model, made safe where they go: file names that stay inside the output
//! directory, and text without control characters for the terminal.

use std::borrow::Cow;

/// A file name for the output called `name`: letters, digits, `_`, `-` and `.` stay,
/// every other byte (`/`, `\`, `%`, control characters, …) becomes `%XX`, and a leading
/// `.` too, so the name can neither leave the directory nor hide in it, and different
/// names stay different.
///
/// ```
/// use padkit_onnx_tools::names::file_name;
/// assert_eq!(file_name("y"), "y");
/// assert_eq!(file_name("../../x"), "%2E.%2F..%2Fx");
/// assert_eq!(file_name("/model/conv:0"), "%2Fmodel%2Fconv%3A0");
/// ```
pub fn file_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, b) in name.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || (b == b'.' && i > 0);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.is_empty() {
        out.push('%'); // the empty name: '%' alone is never an escape
    }
    out
}

/// `name` for the terminal: unchanged when every character prints, else escaped as Rust
/// escapes strings (`\u{1b}`), so a model cannot send escape sequences to the terminal.
///
/// ```
/// use padkit_onnx_tools::names::printable;
/// assert_eq!(printable("y"), "y");
/// assert_eq!(printable("a\u{1b}[2J"), "\"a\\u{1b}[2J\"");
/// ```
pub fn printable(name: &str) -> Cow<'_, str> {
    if name.chars().any(char::is_control) {
        Cow::Owned(format!("{name:?}"))
    } else {
        Cow::Borrowed(name)
    }
}
