//! Arbitrary model bytes through `padkit lower`'s rewrite (padkit-lower) and the writer of
//! onnx's encoding. Errors are fine; panics and aborts are not.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| padkit_engines::fuzz::lower(data));
