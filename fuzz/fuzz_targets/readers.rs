//! padkit-onnx's and padkit-onnx-tools' readers on arbitrary bytes: TensorProto, .npy,
//! and a model evaluated by the core engine. They must return an error or a value, never panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| padkit_engines::fuzz::readers(data));
