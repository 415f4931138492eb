//! The README's conformance table is what the committed reports say: the table between
//! its markers is exactly what
//!
//! ```sh
//! cargo run -p padkit-cli -- suite table docs/conformance/padkit.json \
//!     docs/conformance/peers.json --update README.md
//! ```
//!
//! makes of them (the command the README gives to regenerate it).

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
    let merged = Report::merge(reports);
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
