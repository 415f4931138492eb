//! # padkit-cli: the `padkit` binary's library
//!
//! Everything `padkit` does, as functions (the ONNX I/O it reads and writes with is
//! padkit-onnx's): checking a model as ONNX Runtime does at load time ([`graph`]); running it on an engine ([`engine`]: padkit's core, tract with
//! padkit's Pad, or Burn with padkit-burn); comparing outputs ([`verdict`]);
//! the built-in self-check, the conformance runner, the suite's export and the benchmark.
//!
//! Every reader refuses malformed input with an error naming the file, tensor, node or
//! axis and the numbers involved; nothing a file holds can make it panic, abort or
//! allocate more than the data it describes.
//!
//! Not a published library: its functions serve the binary, its tests and the fuzz
//! targets, which all report the error text itself, so they carry no `# Errors` sections.
#![allow(clippy::missing_errors_doc)]

pub mod bench;
pub mod burn_engine;
pub mod conformance;
pub mod engine;
pub mod fuzzing;
pub mod graph;
pub mod isolate;
pub mod limits;
pub mod run;
pub mod selfcheck;
pub mod stock_burn_engine;
pub mod suite;
pub mod tract_engine;
pub mod verdict;
