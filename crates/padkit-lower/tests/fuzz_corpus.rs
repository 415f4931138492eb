//! Replays the `lower_verdict` fuzz target's committed inputs on the stable toolchain: the
//! corpus cargo-fuzz kept for its coverage (`fuzz/corpus/lower_verdict`, minimized) and
//! every crash it found, kept as a regression case (`fuzz/regressions/lower_verdict`, when
//! there is one). Each input is a Pad lowered and run on stock tract-onnx against the
//! reference (`padkit_testkit::lowered::check`).

use std::path::Path;

#[test]
fn lower_verdict_corpus_replays_cleanly() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = vec![];
    for dir in ["corpus/lower_verdict", "regressions/lower_verdict"] {
        if let Ok(entries) = std::fs::read_dir(fuzz.join(dir)) {
            files.extend(entries.map(|e| e.unwrap().path()));
        }
    }
    files.sort();
    assert!(files.len() > 10, "the corpus is committed");
    for file in files {
        let data = std::fs::read(&file).unwrap();
        let run = std::panic::catch_unwind(|| padkit_testkit::fuzz::lower_verdict(&data));
        assert!(run.is_ok(), "{} fails", file.display());
    }
}
