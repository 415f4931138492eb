//! Replays the core fuzz target's committed corpus (`fuzz/corpus/core`: the inputs
//! cargo-fuzz kept for their coverage, and every crash it found) on the stable toolchain.

use std::path::Path;

#[test]
fn core_corpus_replays_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/core");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds the corpus", dir.display());
    for file in files {
        let data = std::fs::read(&file).unwrap();
        let run = std::panic::catch_unwind(|| padkit_testkit::fuzz::core(&data));
        assert!(run.is_ok(), "{} fails", file.display());
    }
}
