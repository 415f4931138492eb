//! The README's Rust snippets, compiled and run by `cargo test` as doctests of this crate,
//! whose directory is the repository's root, where the snippets' paths lead.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
