//! # padkit-cli: the `padkit` binary
//!
//! The binary's [`main`] is what it offers users; the rest (the self-check, the
//! conformance runner, the suite's export, `run` and `lower`) is private. The maintainers'
//! tools (the bench, the reports' table and comparison) are `cargo xtask`'s (`xtask/`).
//! The engines, the grading of their runs and the fuzz targets' bodies are
//! padkit-engines'; the ONNX I/O and the model checks padkit-onnx's; the files and models
//! of the tools padkit-onnx-tools'.
//!
//! Every command refuses malformed input with an error naming the file, tensor, node or
//! axis and the numbers involved; nothing a file holds can make it panic, abort or
//! allocate more than the data it describes.

mod cli;
mod conformance;
mod run;
mod selfcheck;

pub use cli::main;
