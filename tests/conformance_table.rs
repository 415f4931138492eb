//! The conformance table is what the committed reports say: the table between the markers
//! of `docs/conformance.md` is exactly what
//!
//! ```sh
//! cargo xtask suite table docs/conformance/padkit.json docs/conformance/peers.json \
//!     docs/conformance/onnx-reference-1.24.json docs/conformance/openvino.json \
//!     docs/conformance/tinygrad.json docs/conformance/tvm.json docs/conformance/onnx2torch.json \
//!     docs/conformance/rten.json --update docs/conformance.md
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

const REPORTS: [&str; 8] = [
    "docs/conformance/padkit.json",
    "docs/conformance/peers.json",
    REFERENCE_NEXT,
    "docs/conformance/openvino.json",
    "docs/conformance/tinygrad.json",
    "docs/conformance/tvm.json",
    "docs/conformance/onnx2torch.json",
    "docs/conformance/rten.json",
];

/// The report of the reference evaluator of onnx's next release
/// (`tests/peers/run.py --engine onnx-reference-1.24`), which padkit's classification of
/// the cases (`padkit_conformance::Standing`) is read from.
const REFERENCE_NEXT: &str = "docs/conformance/onnx-reference-1.24.json";

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
        "onnx-reference-1.24",
        "openvino",
        "openvino-targeted",
        "rten-targeted",
        "tinygrad-targeted",
        "tvm-targeted",
        "onnx2torch-targeted",
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

/// Every verdict of ONNX's reference evaluator is what the cases' classes say: it passes
/// exactly the cases ONNX decides (`onnx:required`, and `onnx:beyond`, where its refusal
/// passes) whose valid twin it decides too, and no other; and on those cases padkit's
/// engines give no other answer than the catalogue's.
#[test]
fn the_onnx_classes_account_for_every_verdict_of_the_onnx_reference() {
    use padkit_conformance::{Size, Standing, Verdict, cases};
    use std::collections::HashMap;
    let reference = Report::from_json(&read(REFERENCE_NEXT)).unwrap();
    let padkit = Report::from_json(&read("docs/conformance/padkit.json")).unwrap();
    let all = cases(Size::Full);
    let by_name: HashMap<&str, &padkit_conformance::Case> =
        all.iter().map(|c| (c.name.as_str(), c)).collect();
    let names = |r: &Report| r.cases.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&reference),
        all.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
        "{REFERENCE_NEXT} was not graded on today's suite: grade it again (docs/conformance.md)"
    );
    let decided = |name: &str| {
        let case = by_name[name];
        let decides = |c: &padkit_conformance::Case| {
            matches!(c.onnx, Standing::Required | Standing::Beyond(_))
        };
        decides(case) && case.twin.as_deref().is_none_or(|t| decides(by_name[t]))
    };
    let mut unexplained = vec![];
    for row in &reference.cases {
        let verdict = &row.results["onnx-reference-1.24"];
        if (*verdict == Verdict::Pass) != decided(&row.name) {
            let standing = by_name[row.name.as_str()].onnx.name();
            unexplained.push(format!(
                "{} (onnx:{standing}): {} {}",
                row.name,
                verdict.name(),
                verdict.detail()
            ));
        }
    }
    assert!(
        unexplained.is_empty(),
        "{} verdicts of the reference evaluator the cases' classes do not account for:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    let mut disagree = vec![];
    for row in padkit.cases.iter().filter(|r| decided(&r.name)) {
        for (engine, v) in &row.results {
            let padkits = !engine.starts_with("stock-");
            if padkits && matches!(v, Verdict::Wrong(_) | Verdict::Crash(_)) {
                disagree.push(format!("{} on {engine}: {}", row.name, v.detail()));
            }
        }
    }
    assert!(
        disagree.is_empty(),
        "padkit's engines disagree with ONNX:\n{}",
        disagree.join("\n")
    );
}
