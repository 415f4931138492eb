//! # padkit-cli: the `padkit` binary's library
//!
//! Everything `padkit` does, as functions (the ONNX I/O, the model checks and the Pad
//! graph evaluation are padkit-onnx's): running it on an engine ([`engine`]: padkit's core, tract with
//! padkit's Pad, or Burn with padkit-burn); comparing outputs ([`verdict`]);
//! the built-in self-check, the conformance runner, the suite's export and the benchmark.
//!
//! Every reader refuses malformed input with an error naming the file, tensor, node or
//! axis and the numbers involved; nothing a file holds can make it panic, abort or
//! allocate more than the data it describes.
//!
//! Not a published library: its functions serve the binary and its tests, which report
//! the error text itself, so they carry no `# Errors` sections.
#![allow(clippy::missing_errors_doc)]

pub mod bench;
pub mod burn_engine;
pub mod conformance;
pub mod engine;
pub mod limits;
pub mod run;
pub mod selfcheck;
pub mod stock_burn_engine;
pub mod suite;
pub mod verdict;
