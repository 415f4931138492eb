//! Replays the committed inputs of the ONNX fuzz targets on the stable toolchain: the
//! corpora cargo-fuzz kept for their coverage (`fuzz/corpus/readers`,
//! `fuzz/corpus/tract_model`, `fuzz/corpus/lower`, `fuzz/corpus/nnef`) and every crash
//! found, kept as a regression case under `fuzz/regressions/<target>`.

use std::path::{Path, PathBuf};

/// The committed inputs of `target`: its corpus (which must be there) and its regressions.
fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let corpus = fuzz.join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap_or_else(|e| panic!("{}: {e}", corpus.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert!(files.len() > 1, "the {target} corpus is committed");
    if let Ok(regressions) = std::fs::read_dir(fuzz.join("regressions").join(target)) {
        files.extend(regressions.map(|e| e.unwrap().path()));
    }
    files.sort();
    files
}

fn replay(target: &str, run: fn(&[u8])) {
    for file in inputs(target) {
        let data = std::fs::read(&file).unwrap();
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{} fails", file.display());
    }
}

#[test]
fn readers_corpus_replays_cleanly() {
    replay("readers", padkit_engines::fuzz::readers);
}

#[test]
fn tract_model_corpus_replays_cleanly() {
    replay("tract_model", padkit_engines::fuzz::tract_model);
}

/// The lowering's own corpus, and tract_model's, whose models are its inputs too.
#[test]
fn lower_corpus_replays_cleanly() {
    replay("lower", padkit_engines::fuzz::lower);
    replay("tract_model", padkit_engines::fuzz::lower);
}

#[test]
fn nnef_corpus_replays_cleanly() {
    replay("nnef", padkit_engines::fuzz::nnef);
}
