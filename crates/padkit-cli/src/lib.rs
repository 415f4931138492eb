//! # padkit-cli: the `padkit` binary
//!
//! Its modules are private: the binary's [`main`] is all it offers, with one piece of
//! repository tooling ([`table_splice`], which the repository's tests share). The ONNX I/O, the
//! model checks and the Pad-graph evaluation are padkit-onnx's; here are the engines
//! (padkit's core, tract with padkit's Pad, Burn with padkit-burn, and stock tract and
//! Burn), the grading, the self-check, the conformance runner, the suite's export and the
//! benchmark.
//!
//! Every command refuses malformed input with an error naming the file, tensor, node or
//! axis and the numbers involved; nothing a file holds can make it panic, abort or
//! allocate more than the data it describes.

mod bench;
mod burn_engine;
mod cli;
mod conformance;
mod engine;
mod limits;
mod run;
mod selfcheck;
mod stock_burn_engine;
mod suite;
pub mod table_splice;
mod verdict;

pub use cli::main;
