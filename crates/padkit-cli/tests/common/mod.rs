//! What the CLI's integration tests share: running the `padkit` binary.

use std::process::Output;

use assert_cmd::Command;

/// `padkit ARGS`, run to its end.
pub fn padkit(args: &[&str]) -> Output {
    Command::cargo_bin("padkit")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
