//! padkit against `numpy.pad`: 1 500 seeded random cases (every mode, seven element
//! types, axes subsets with negative axes, crops, pads wider than the axis, empty axes)
//! whose answers numpy computed, vendored in `tests/data/numpy` with the script that made
//! them. Every case must give numpy's shape and values, or fail where numpy fails.

use std::path::Path;

use padkit::bytemuck::Pod;
use padkit::{PadMode, PadSpec};
use serde_json::Value;

/// What one case's line says numpy gave.
enum Expected {
    Output {
        shape: Vec<usize>,
        values: Vec<Value>,
    },
    Error(String),
}

fn cases() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/numpy/pad_cases.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn list<T>(v: &Value, f: impl Fn(&Value) -> Option<T>) -> Vec<T> {
    v.as_array()
        .expect("a JSON array")
        .iter()
        .map(|x| f(x).unwrap_or_else(|| panic!("unexpected element {x}")))
        .collect()
}

/// A shape: a JSON array of extents.
fn dims(v: &Value) -> Vec<usize> {
    list(v, |d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
}

fn spec(c: &Value) -> PadSpec {
    let s = &c["spec"];
    let mode: PadMode = s["mode"]
        .as_str()
        .expect("a mode")
        .parse()
        .expect("a known mode");
    let spec = PadSpec::new(list(&s["pads"], Value::as_i64)).with_mode(mode);
    match &s["axes"] {
        Value::Null => spec,
        axes => spec.with_axes(list(axes, Value::as_i64)),
    }
}

fn expected(c: &Value) -> Expected {
    let n = &c["numpy"];
    match n.get("error") {
        Some(e) => Expected::Error(e.to_string()),
        None => Expected::Output {
            shape: dims(&n["shape"]),
            values: list(&n["values"], |v| Some(v.clone())),
        },
    }
}

/// Pads case `c` as `T` (read from JSON by `read`) and compares with numpy; the error
/// names the case.
fn check<T: Pod + Send + Sync + PartialEq + std::fmt::Debug>(
    c: &Value,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<(), String> {
    let shape = dims(&c["shape"]);
    let input = list(&c["values"], &read);
    let value = read(&c["value"]).expect("a fill value of the case's type");
    let got = padkit::pad(&input, &shape, &spec(c), value);
    match (got, expected(c)) {
        (Ok((s, out)), Expected::Output { shape, values }) => {
            let values = values
                .iter()
                .map(|v| read(v).expect("a value"))
                .collect::<Vec<T>>();
            if s != shape || out != values {
                return Err(format!("got {s:?} {out:?}, numpy {shape:?} {values:?}"));
            }
        }
        (Err(_), Expected::Error(_)) => {}
        (Ok((s, _)), Expected::Error(e)) => return Err(format!("got shape {s:?}, numpy: {e}")),
        (Err(e), Expected::Output { shape, .. }) => {
            return Err(format!("error {e}, numpy gives shape {shape:?}"));
        }
    }
    Ok(())
}

#[test]
fn every_case_gives_numpys_answer() {
    let cases = cases();
    assert_eq!(cases.len(), 1500, "the vendored file holds 1 500 cases");
    let int = |v: &Value| v.as_i64();
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let r = match c["type"].as_str().expect("a type") {
                "i8" => check(c, |v| int(v).and_then(|x| i8::try_from(x).ok())),
                "u8" => check(c, |v| int(v).and_then(|x| u8::try_from(x).ok())),
                "i16" => check(c, |v| int(v).and_then(|x| i16::try_from(x).ok())),
                "i32" => check(c, |v| int(v).and_then(|x| i32::try_from(x).ok())),
                "i64" => check(c, int),
                "f32" => check(c, |v| v.as_f64().map(|x| x as f32)),
                "f64" => check(c, Value::as_f64),
                other => Err(format!("unknown type {other}")),
            };
            r.err()
                .map(|e| format!("case {i} ({}, {}): {e}", c["type"], c["spec"]))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
