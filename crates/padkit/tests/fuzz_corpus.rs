//! Replays the core fuzz target's committed inputs on the stable toolchain: the corpus
//! cargo-fuzz kept for its coverage (`fuzz/corpus/core`) and every crash it found, kept as
//! a regression case (`fuzz/regressions/core`).

use std::path::Path;

#[test]
fn core_corpus_and_regressions_replay_cleanly() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = vec![];
    for dir in ["corpus/core", "regressions/core"] {
        let dir = fuzz.join(dir);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        files.extend(entries.map(|e| e.unwrap().path()));
    }
    files.sort();
    assert!(
        files.len() > 1,
        "the corpus and the regressions are committed"
    );
    for file in files {
        let data = std::fs::read(&file).unwrap();
        let run = std::panic::catch_unwind(|| padkit_testkit::fuzz::core(&data));
        assert!(run.is_ok(), "{} fails", file.display());
    }
}
