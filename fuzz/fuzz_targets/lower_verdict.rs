//! Arbitrary Pads (shapes, pads and axes to the ends of i64, interior, every mode; the
//! first extent known only at run time or not; pads and axes fed at run time or
//! constants) lowered by padkit-lower and run by stock tract-onnx: the lowered model must
//! answer what the naive reference answers and fail where it refuses
//! (padkit-testkit's `lowered::check`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| padkit_testkit::fuzz::lower_verdict(data));
