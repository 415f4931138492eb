//! The bodies of the core fuzz target and (feature `lower`) the `lower_verdict` target:
//! arbitrary bytes as a [`Case`], checked on every run path of the core, or lowered by
//! padkit-lower and run by stock tract-onnx.
//!
//! `fuzz/fuzz_targets/core.rs` calls [`core()`] under `cargo fuzz`; padkit's corpus test
//! replays the committed corpus through it on the stable toolchain.

use arbitrary::{Arbitrary, Unstructured};
use padkit::PadMode;

use crate::{Case, check_core};

/// Largest output the fuzzed runs allocate, in elements.
const LIMIT: usize = 1 << 12;

/// A pad value: mostly small, often at the edges of `i64`.
#[derive(Debug, Clone, Copy, Arbitrary)]
enum Amount {
    Small(i8),
    Edge(Edge),
    Any(i64),
}

#[derive(Debug, Clone, Copy, Arbitrary)]
enum Edge {
    Min,
    MinPlusOne,
    Max,
    MaxMinusOne,
    TwoPow(u8),
    MinusTwoPow(u8),
}

impl Amount {
    fn value(self) -> i64 {
        match self {
            Amount::Small(v) => i64::from(v),
            Amount::Any(v) => v,
            Amount::Edge(e) => match e {
                Edge::Min => i64::MIN,
                Edge::MinPlusOne => i64::MIN + 1,
                Edge::Max => i64::MAX,
                Edge::MaxMinusOne => i64::MAX - 1,
                Edge::TwoPow(k) => 1i64 << (k % 63),
                Edge::MinusTwoPow(k) => -(1i64 << (k % 63)),
            },
        }
    }
}

/// An extent: small, or (next to an empty axis only) enormous.
#[derive(Debug, Clone, Copy, Arbitrary)]
enum Extent {
    Small(u8),
    Huge(u64),
}

#[derive(Debug, Arbitrary)]
struct Input {
    shape: Vec<Extent>,
    pads: Vec<Amount>,
    axes: Option<Vec<i8>>,
    interior: Option<Vec<Amount>>,
    mode: u8,
    width: u8,
}

impl Input {
    fn case(self) -> Case {
        let mut shape: Vec<usize> = self
            .shape
            .iter()
            .take(5)
            .map(|e| match e {
                Extent::Small(d) => usize::from(d % 7),
                Extent::Huge(d) => *d as usize,
            })
            .collect();
        // Enormous extents only where another axis is empty: the input must fit in memory.
        if !shape.contains(&0) {
            for d in &mut shape {
                *d = (*d).min(6);
            }
        }
        Case {
            shape,
            pads: self.pads.iter().take(12).map(|a| a.value()).collect(),
            axes: self
                .axes
                .map(|a| a.iter().take(6).map(|&x| i64::from(x)).collect()),
            interior: self
                .interior
                .map(|r| r.iter().take(6).map(|a| a.value()).collect()),
            mode: PadMode::ALL[usize::from(self.mode) % PadMode::ALL.len()],
        }
    }

    fn width(&self) -> usize {
        [1, 2, 4, 8, 16, 3][usize::from(self.width) % 6]
    }
}

/// Decodes `data` as a case and checks it on every run path; panics with the difference
/// when a path disagrees with the reference (what the fuzzer reports as a crash).
///
/// ```
/// padkit_testkit::fuzz::core(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
/// ```
pub fn core(data: &[u8]) {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let width = input.width();
    let case = input.case();
    if let Err(failure) = check_core(&case, width, LIMIT) {
        panic!("{failure}");
    }
}

/// Decodes `data` as a case (its first extent known only at run time or not, its pads and
/// axes fed at run time or constants), lowers it and runs it on stock tract-onnx; panics
/// where the lowered model's verdict differs from the reference's
/// ([`crate::lowered::check`]).
///
/// ```
/// padkit_testkit::fuzz::lower_verdict(&[1, 0, 2, 3, 4, 5, 6, 7, 8, 9]);
/// ```
#[cfg(feature = "lower")]
pub fn lower_verdict(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let (Ok(symbolic), Ok(fed)) = (bool::arbitrary(&mut u), bool::arbitrary(&mut u)) else {
        return;
    };
    let Ok(input) = Input::arbitrary_take_rest(u) else {
        return;
    };
    if let Err(failure) = crate::lowered::check(&input.case(), symbolic, fed, LIMIT) {
        panic!("{failure}");
    }
}
