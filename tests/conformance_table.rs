//! The README's conformance table is what the committed reports say: the table between
//! its markers is exactly what
//!
//! ```sh
//! cargo run -p padkit-cli -- suite table docs/conformance/padkit.json \
//!     docs/conformance/peers.json --update README.md
//! ```
//!
//! makes of them (the command the README gives to regenerate it); and the catalogue's
//! sizes the README quotes are the catalogue's.

use padkit_conformance::Report;
use padkit_conformance::report::splice;

/// The reports, in column order: padkit's engines and the stock Rust engines (`padkit
/// conformance --report json`), then the peers (`tests/peers/run.py`).
const REPORTS: [&str; 2] = [
    "docs/conformance/padkit.json",
    "docs/conformance/peers.json",
];

fn read(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_readme_table_is_generated_from_the_reports_beside_it() {
    let reports = REPORTS.map(|r| Report::from_json(&read(r)).unwrap());
    let merged = Report::try_merge(reports).expect("the reports do not overlap");
    for engine in [
        "core",
        "tract",
        "burn",
        "stock-tract",
        "stock-burn",
        "onnxruntime",
        "onnx-reference",
    ] {
        assert!(
            merged.engines.iter().any(|e| e == engine),
            "no report of {engine}"
        );
    }
    let readme = read("README.md");
    let regenerated = splice(&readme, &merged.table()).expect("the README has the table's markers");
    assert!(
        regenerated == readme,
        "README.md's conformance table differs from the reports; regenerate it with \
         `cargo run -p padkit-cli -- suite table {} --update README.md`",
        REPORTS.join(" ")
    );
}

/// `n` as the README writes counts: thousands set apart by a space (`5 468`).
fn spaced(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_readme_quotes_the_catalogues_sizes() {
    use padkit_conformance::{Size, cases};
    let (full, small) = (
        spaced(cases(Size::Full).len()),
        spaced(cases(Size::Small).len()),
    );
    let readme = read("README.md").replace('\n', " ");
    for quote in [
        format!("small conformance suite ({small} ONNX Pad models"),
        format!("the full {full}-case suite"),
        format!("catalogue: {full} deterministic cases (`--small`: {small})"),
    ] {
        assert!(
            readme.contains(&quote),
            "README.md does not say {quote:?}: update its counts"
        );
    }
}
