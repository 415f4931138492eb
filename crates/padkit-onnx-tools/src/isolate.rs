//! The last line of defence: a panic inside a dependency (or a bug of ours) becomes an
//! error naming what was being done, so that one bad case is one failure.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use anyhow::Result;
use padkit_conformance::grade::panic_message;

thread_local! {
    /// True while [`isolated`] runs on this thread: its panics are reported as errors,
    /// not printed by the panic hook.
    static ISOLATED: Cell<bool> = const { Cell::new(false) };
}

/// Installs a panic hook that stays quiet for panics [`isolated`] turns into errors and
/// prints the others as before. Call once, from `main`.
pub fn install_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !ISOLATED.with(Cell::get) {
            default(info);
        }
    }));
}

/// Runs `f`; a panic becomes an error `"{what}: internal error: {message}"`.
///
/// # Errors
///
/// `f`'s error, or its panic as an error naming `what`.
///
/// ```
/// let err = padkit_onnx_tools::isolate::isolated("running the model", || -> anyhow::Result<()> { panic!("boom") }).unwrap_err();
/// assert_eq!(err.to_string(), "running the model: internal error: boom");
/// ```
pub fn isolated<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let was = ISOLATED.with(|i| i.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    ISOLATED.with(|i| i.set(was));
    result.unwrap_or_else(|payload| {
        Err(anyhow::Error::new(Panicked(format!(
            "{what}: internal error: {}",
            panic_message(&*payload)
        ))))
    })
}

/// The error [`isolated`] makes of a panic: a bug (ours or a dependency's), never a
/// verdict on the input, which the fuzzers look for.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Panicked(String);
