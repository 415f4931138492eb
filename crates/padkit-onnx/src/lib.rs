//! # padkit-onnx: ONNX I/O for padkit's tools and tests
//!
//! What the `padkit` CLI, the conformance suite, the adapters' tests and the fuzz targets
//! read and write: `TensorProto`s ([`proto`]) and `.npy` files ([`npy`]), strictly (each
//! refusal names the tensor or file and the numbers); ONNX Pad models built in code
//! ([`model`]); the ONNX backend-test layout ([`data`]), with tensors stored as external
//! data read from beside the model, confined to its directory ([`external`]); messages
//! encoded as onnx's own writer encodes them ([`wire`]); printable names ([`names`]). And
//! what running a model needs before any engine sees it: the checks ONNX Runtime makes at
//! load time and the checks of the inputs ([`graph`]), and panics turned into errors
//! ([`isolate`]). The engines themselves are the `padkit` CLI's.
//!
//! It depends on no padkit adapter: its protobuf types are tract-onnx's generated
//! `onnx.proto` (`tract_onnx::pb`), the one ONNX schema in the workspace.
//!
//! Not a published library: its callers report the error text itself, so its functions
//! carry no `# Errors` sections.
#![allow(clippy::missing_errors_doc)]

pub mod data;
pub mod external;
pub mod graph;
pub mod isolate;
pub mod model;
pub mod names;
pub mod npy;
pub mod proto;
pub mod wire;
