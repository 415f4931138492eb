//! Arbitrary text as an NNEF `graph.nnef` through tract-nnef with padkit's extension
//! (hostile `padkit_pad` parameters), then run on small inputs. Errors are fine; panics
//! and aborts are not.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| padkit_engines::fuzz::nnef(data));
