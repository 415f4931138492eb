//! # padkit-cli: the `padkit` binary
//!
//! The binary's [`main`] is what it offers users; [`table_splice`] is public for the
//! repository's tests. The rest (the self-check, the conformance runner, the suite's
//! export, the benchmark) is private. The engines, the grading of their runs and the fuzz
//! targets' bodies are padkit-engines'; the ONNX I/O and the model checks padkit-onnx's.
//!
//! Every command refuses malformed input with an error naming the file, tensor, node or
//! axis and the numbers involved; nothing a file holds can make it panic, abort or
//! allocate more than the data it describes.

mod bench;
mod cli;
mod conformance;
mod run;
mod selfcheck;
mod suite;
pub mod table_splice;

pub use cli::main;
