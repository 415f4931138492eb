//! The conformance table is what the committed reports say: the table between the markers
//! of `docs/conformance.md` is exactly what
//!
//! ```sh
//! cargo xtask suite table docs/conformance/padkit.json docs/conformance/peers.json \
//!     docs/conformance/openvino.json docs/conformance/tinygrad.json docs/conformance/tvm.json \
//!     docs/conformance/onnx2torch.json docs/conformance/rten.json --update docs/conformance.md
//! ```
//!
//! makes of them (the command that page gives to regenerate it), and the README's row of it
//! is the table's first three lines; the catalogue's sizes the README and that page quote
//! are the catalogue's.

use padkit_conformance::Report;
use xtask::table_splice::{spaced, splice};

/// The reports, in column order: padkit's engines and the stock Rust engines (`padkit
/// conformance --report json`), then the peers (`tests/peers/run.py`), then the wider
/// matrix (`tests/peers/run.py --engine RUNTIME`, `tools/rten-peer`).
/// The page that holds the whole table.
const TABLE: &str = "docs/conformance.md";

const REPORTS: [&str; 7] = [
    "docs/conformance/padkit.json",
    "docs/conformance/peers.json",
    "docs/conformance/openvino.json",
    "docs/conformance/tinygrad.json",
    "docs/conformance/tvm.json",
    "docs/conformance/onnx2torch.json",
    "docs/conformance/rten.json",
];

fn read(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_table_is_generated_from_the_reports_beside_it() {
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
        "openvino",
        "tinygrad",
        "tvm",
        "onnx2torch",
        "rten",
    ] {
        assert!(
            merged.engines.iter().any(|e| e == engine),
            "no report of {engine}"
        );
    }
    let table = merged.table();
    let page = read(TABLE);
    let regenerated = splice(&page, &table).expect("the page has the table's markers");
    assert!(
        regenerated == page,
        "{TABLE}'s conformance table differs from the reports; regenerate it with \
         `cargo xtask suite table {} --update {TABLE}`",
        REPORTS.join(" ")
    );
    let row: String = table.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert!(
        read("README.md").contains(&row),
        "README.md's row of the conformance table differs from the reports; copy the first \
         three lines of {TABLE}'s table there:\n{row}"
    );
}

#[test]
fn the_readme_quotes_the_catalogues_sizes() {
    use padkit_conformance::{Size, cases};
    let (full, small) = (
        spaced(cases(Size::Full).len()),
        spaced(cases(Size::Small).len()),
    );
    for (doc, quote) in [
        (
            "README.md",
            format!("small conformance suite ({small} ONNX Pad models"),
        ),
        ("README.md", format!("the full {full}-case suite")),
        (
            TABLE,
            format!("catalogue: {full} deterministic cases (`--small`: {small})"),
        ),
    ] {
        assert!(
            read(doc).replace('\n', " ").contains(&quote),
            "{doc} does not say {quote:?}: update its counts"
        );
    }
}
