//! `cargo xtask bench` as a maintainer runs it: every implementation timed, one JSON
//! object each.

use std::process::Command;

#[test]
fn bench_prints_one_json_object_per_implementation() {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["bench", "--quick", "--json", "--only", "W7"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let impls: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("\"implementation\":\"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(
        impls,
        [
            "floor",
            "padkit-core",
            "padkit-typed",
            "padkit-fresh",
            "row-loop",
            "padkit-tract",
            "tract-core",
            "padkit-burn",
            "burn-pad"
        ],
        "{text}"
    );
    assert!(
        text.lines()
            .all(|l| l.starts_with("{\"workload\":\"W7-constant\"")
                && l.contains("\"ratio_to_floor\":")),
        "{text}"
    );
}
