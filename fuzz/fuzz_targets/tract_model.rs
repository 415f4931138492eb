//! Arbitrary model bytes through the checks and `padkit_tract::onnx()`: load, optimise
//! and run on small inputs. Errors are fine; panics and aborts are not.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| padkit_engines::fuzz::tract_model(data));
