//! The Rust snippets of the README and of `docs/`, compiled and run by `cargo test` as
//! doctests of this crate, whose directory is the repository's root, where the snippets'
//! paths lead.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;

#[cfg(doctest)]
#[doc = include_str!("../docs/conformance.md")]
pub struct Conformance;

#[cfg(doctest)]
#[doc = include_str!("../docs/tract.md")]
pub struct Tract;

#[cfg(doctest)]
#[doc = include_str!("../docs/burn.md")]
pub struct Burn;

#[cfg(doctest)]
#[doc = include_str!("../docs/candle.md")]
pub struct Candle;
