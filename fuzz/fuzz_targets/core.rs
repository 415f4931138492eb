//! The core on arbitrary shapes, pads (to the ends of i64), axes, interior, modes and
//! widths: every run path against the naive reference (padkit-testkit).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| padkit_testkit::fuzz::core(data));
