//! # padkit-cli: the `padkit` binary
//!
//! The binary's [`main`] is what it offers users. Three modules are public for the
//! repository's own tests and fuzz targets: the [`engine`]s (padkit's core, tract with
//! padkit's Pad, Burn with padkit-burn, stock tract and Burn, and the evaluation of Pad
//! graphs the one-node engines share), the fuzz targets' bodies ([`fuzz`]) and
//! [`table_splice`]. The rest (the grading, the self-check, the conformance runner, the
//! suite's export, the benchmark) is private. The ONNX I/O and the model checks are
//! padkit-onnx's.
//!
//! Every command refuses malformed input with an error naming the file, tensor, node or
//! axis and the numbers involved; nothing a file holds can make it panic, abort or
//! allocate more than the data it describes.

mod bench;
mod cli;
mod conformance;
pub mod engine;
pub mod fuzz;
mod run;
mod selfcheck;
mod suite;
pub mod table_splice;
mod verdict;

pub use cli::main;
