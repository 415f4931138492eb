//! # padkit-onnx-tools: the ONNX files and models padkit's tools and tests work with
//!
//! What the `padkit` CLI, the engines, the conformance suite, the adapters' tests and the
//! fuzz targets read and write beyond the published [`padkit_onnx`]: `.npy` files
//! ([`npy`]), the ONNX backend-test layout ([`data`]) with tensors stored as external data
//! read from beside the model, confined to its directory ([`external`]), messages encoded
//! as onnx's own writer encodes them ([`wire`]), printable names ([`names`]), the ONNX Pad
//! models of padkit-conformance's cases ([`model`]) and the suite of them exported in the
//! backend-test layout ([`suite`]), and panics turned into errors
//! ([`isolate`]). Each refusal names the file, tensor or input and the numbers.
//!
//! Not published: padkit's published crates need only [`padkit_onnx`]; these are the
//! tools' own, and return `anyhow` errors as the tools do.

pub mod data;
pub mod external;
pub mod isolate;
pub mod model;
pub mod names;
pub mod npy;
pub mod suite;
pub mod wire;
