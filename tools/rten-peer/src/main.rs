//! rten 0.27 graded on padkit's exported suite, as tests/peers/run.py grades the Python
//! runtimes: each case in a child process (this program with `--case DIR`), killed after
//! 60 s and limited to 12 GiB of address space, so that a crash or a hang costs one case;
//! an output bit-equal to the expected one passes; an error where the case must fail
//! passes where rten passes the case's valid twin; element types rten holds no tensor of
//! are untested (the reader's limit, not the Pad's). rten holds `int64` as `int32` (its
//! model loader converts int64 weights): int64 data that `i32` holds is fed as `i32` and
//! its output read back as `int64`, wider data is untested.
//!
//!     rten-peer SUITE OUT.json
//!     rten-peer --run DIR OUT.pb    (DIR/model.onnx on DIR/input_K.pb: the output, or the
//!                                    error on stderr and exit status 1)

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use padkit::{DType, Data, Tensor};
use padkit_conformance::compare::first_difference;
use padkit_conformance::manifest::{ExpectedEntry, Manifest};
use padkit_conformance::{Report, Verdict, credit_error, credit_refusal};
use prost::Message;
use rten::{Model, Value};
use rten_tensor::prelude::*;
use sha2::{Digest, Sha256};

const TIMEOUT: Duration = Duration::from_secs(60);
const MEMORY_KIB: u64 = 12 << 20;
const ENGINE: &str = "rten";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--case") => {
            let out = one_case(Path::new(&args[2]));
            println!("{}", serde_json::to_string(&out).unwrap());
        }
        Some("--run") if args.len() == 4 => {
            if let Err(e) = run_to_file(Path::new(&args[2]), Path::new(&args[3])) {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
        Some(suite) if args.len() == 3 => grade_suite(Path::new(suite), Path::new(&args[2])),
        _ => {
            eprintln!("usage: rten-peer SUITE OUT.json");
            std::process::exit(2);
        }
    }
}

/// What rten does with one case: ["ok", "", ""] with the output compared, or
/// ["error"|"untested"|"wrong", detail].
fn one_case(dir: &Path) -> (String, String) {
    match run_case(dir) {
        Ok(outcome) => outcome,
        Err(e) => ("error".into(), e),
    }
}

fn read_tensor(path: &Path) -> Result<Tensor, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let proto =
        padkit_onnx::pb::TensorProto::decode(bytes.as_slice()).map_err(|e| e.to_string())?;
    padkit_onnx::proto::tensor_from_proto(&proto).map_err(|e| format!("{e:#}"))
}

/// `t` as an rten value, or why rten holds none.
fn to_rten(t: &Tensor) -> Result<Value, String> {
    let shape = t.shape().to_vec();
    let err = |e: &dyn std::fmt::Display| e.to_string();
    match (t.dtype(), t.data()) {
        (DType::Float32, Data::Bytes(b)) => {
            Value::from_shape(&shape, le::<4, f32>(b, f32::from_le_bytes)).map_err(|e| err(&e))
        }
        (DType::Int32, Data::Bytes(b)) => {
            Value::from_shape(&shape, le::<4, i32>(b, i32::from_le_bytes)).map_err(|e| err(&e))
        }
        (DType::Int8, Data::Bytes(b)) => {
            Value::from_shape(&shape, b.iter().map(|&v| v as i8).collect::<Vec<i8>>())
                .map_err(|e| err(&e))
        }
        (DType::UInt8, Data::Bytes(b)) => Value::from_shape(&shape, b.clone()).map_err(|e| err(&e)),
        (DType::Int64, Data::Bytes(b)) => {
            let wide = le::<8, i64>(b, i64::from_le_bytes);
            let narrow: Result<Vec<i32>, _> = wide.iter().map(|&v| i32::try_from(v)).collect();
            let narrow = narrow.map_err(|_| {
                "untested: rten holds int64 as int32, and these values do not fit".to_string()
            })?;
            Value::from_shape(&shape, narrow).map_err(|e| err(&e))
        }
        (dtype, _) => Err(format!("untested: rten holds no {dtype} tensor")),
    }
}

fn le<const N: usize, T>(b: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    b.chunks_exact(N)
        .map(|c| f(c.try_into().unwrap()))
        .collect()
}

/// rten's output as a tensor of the expected type `dtype`.
fn from_rten(v: Value, dtype: DType) -> Result<Tensor, String> {
    let (shape, bytes): (Vec<usize>, Vec<u8>) = match v {
        Value::FloatTensor(t) => (
            t.shape().to_vec(),
            t.to_vec().iter().flat_map(|v| v.to_le_bytes()).collect(),
        ),
        Value::Int32Tensor(t) if dtype == DType::Int64 => (
            t.shape().to_vec(),
            t.to_vec()
                .iter()
                .flat_map(|&v| i64::from(v).to_le_bytes())
                .collect(),
        ),
        Value::Int32Tensor(t) => (
            t.shape().to_vec(),
            t.to_vec().iter().flat_map(|v| v.to_le_bytes()).collect(),
        ),
        Value::Int8Tensor(t) => (
            t.shape().to_vec(),
            t.to_vec().iter().map(|&v| v as u8).collect(),
        ),
        Value::UInt8Tensor(t) => (t.shape().to_vec(), t.to_vec()),
        _ => return Err("rten gave no tensor".into()),
    };
    // a Pad's output has its data's type, one `to_rten` fed (int64 as int32, widened above)
    Tensor::new(dtype, shape, Data::Bytes(bytes)).map_err(|e| format!("{e:#}"))
}

/// rten on `dir/model.onnx`, fed `dir/input_K.pb`, its first output written to `out` as a
/// TensorProto of the type the model declares (defects.py's runner).
fn run_to_file(dir: &Path, out: &Path) -> Result<(), String> {
    let bytes = std::fs::read(dir.join("model.onnx")).map_err(|e| e.to_string())?;
    let model = padkit_onnx::pb::ModelProto::decode(bytes.as_slice()).map_err(|e| e.to_string())?;
    let graph = model.graph.as_ref().ok_or("no graph")?;
    let output = &graph.output[0];
    let elem = match output.r#type.as_ref().and_then(|t| t.value.as_ref()) {
        Some(padkit_onnx::pb::type_proto::Value::TensorType(t)) => t.elem_type,
        _ => return Err("the output declares no tensor type".into()),
    };
    let dtype = DType::from_onnx(elem).map_err(|e| e.to_string())?;
    let rten = Model::load(bytes).map_err(|e| format!("rten cannot load the model: {e}"))?;
    let mut inputs = vec![];
    for (k, input) in graph.input.iter().enumerate() {
        let t = read_tensor(&dir.join(format!("input_{k}.pb")))?;
        let id = rten.node_id(&input.name).map_err(|e| e.to_string())?;
        inputs.push((id, to_rten(&t)?.into()));
    }
    let y = rten.node_id(&output.name).map_err(|e| e.to_string())?;
    let mut got = rten.run(inputs, &[y], None).map_err(|e| e.to_string())?;
    let t = from_rten(got.remove(0), dtype)?;
    let proto = padkit_onnx::proto::tensor_to_proto(&t, &output.name);
    std::fs::write(out, proto.encode_to_vec()).map_err(|e| e.to_string())
}

fn run_case(dir: &Path) -> Result<(String, String), String> {
    let bytes = std::fs::read(dir.join("model.onnx")).map_err(|e| e.to_string())?;
    let model = padkit_onnx::pb::ModelProto::decode(bytes.as_slice()).map_err(|e| e.to_string())?;
    let graph = model.graph.as_ref().ok_or("no graph")?;
    let mut feeds = vec![];
    for (k, input) in graph.input.iter().enumerate() {
        let t = read_tensor(&dir.join(format!("test_data_set_0/input_{k}.pb")))?;
        match to_rten(&t) {
            Ok(v) => feeds.push((input.name.clone(), v)),
            Err(why) if why.starts_with("untested: ") => {
                return Ok(("untested".into(), format!("not run: {}", &why[10..])));
            }
            Err(e) => return Err(e),
        }
    }
    let rten = Model::load(bytes).map_err(|e| format!("rten cannot load the model: {e}"))?;
    let mut inputs = vec![];
    for (name, v) in feeds {
        inputs.push((rten.node_id(&name).map_err(|e| e.to_string())?, v.into()));
    }
    let y = rten
        .node_id(&graph.output[0].name)
        .map_err(|e| e.to_string())?;
    let mut out = rten.run(inputs, &[y], None).map_err(|e| e.to_string())?;
    let expected = dir.join(padkit_conformance::manifest::OUTPUT_FILE);
    if !expected.exists() {
        let shape = match &out[0] {
            Value::FloatTensor(t) => format!("{:?}", t.shape()),
            _ => "an output".into(),
        };
        return Ok(("answered".into(), shape));
    }
    let want = read_tensor(&expected)?;
    let got = from_rten(out.remove(0), want.dtype())?;
    Ok(match first_difference(&got, &want, None) {
        None => ("pass".into(), String::new()),
        Some(d) => ("wrong".into(), d),
    })
}

/// One case in a child process, as a verdict.
fn in_child(dir: &Path, must_fail: Option<&str>) -> Verdict {
    let exe = std::env::current_exe().unwrap();
    let script = format!("ulimit -v {MEMORY_KIB}; exec \"$0\" --case \"$1\"");
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .arg(&exe)
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let Some(status) = status else {
        return Verdict::Crash(format!("hung for {} s", TIMEOUT.as_secs()));
    };
    let Ok((kind, detail)) = serde_json::from_str::<(String, String)>(stdout.trim()) else {
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Verdict::Crash(format!("rten died ({status}): {last}"));
    };
    match (kind.as_str(), must_fail) {
        ("untested", _) => Verdict::Untested(detail),
        ("error", Some(_)) => Verdict::Pass,
        ("error", None) => Verdict::Refused(detail),
        ("pass" | "wrong" | "answered", Some(class)) => {
            Verdict::Wrong(format!("gave an output where the case must fail ({class})"))
        }
        ("pass", None) => Verdict::Pass,
        (_, None) => Verdict::Wrong(detail),
        (k, _) => Verdict::Crash(format!("unknown outcome {k}")),
    }
}

/// The suite's identity as tests/peers/digest.py computes it.
fn suite_identity(manifest: &Manifest) -> serde_json::Value {
    let mut h = Sha256::new();
    for e in &manifest.cases {
        let s = |v: &str| serde_json::to_string(v).unwrap();
        let tags: Vec<String> = e.tags.iter().map(|t| s(t)).collect();
        h.update(format!("[{}, [{}]]\n", s(&e.name), tags.join(", ")).as_bytes());
    }
    let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    serde_json::json!({"generator": manifest.generator, "digest": digest})
}

fn grade_suite(suite: &Path, out: &Path) {
    let manifest =
        Manifest::from_json(&std::fs::read_to_string(suite.join("manifest.json")).unwrap())
            .unwrap();
    let mut verdicts = std::collections::HashMap::new();
    for (k, e) in manifest.cases.iter().enumerate() {
        let must_fail = match &e.expected {
            ExpectedEntry::Error { class, .. } => Some(class.as_str()),
            ExpectedEntry::Output { .. } => None,
        };
        let v = in_child(&PathBuf::from(suite).join(&e.name), must_fail);
        if k % 500 == 0 {
            eprintln!("{k} of {}", manifest.cases.len());
        }
        verdicts.insert(e.name.clone(), v);
    }
    let mut report = Report::new(&[ENGINE]);
    for e in &manifest.cases {
        let mut v = credit_refusal(verdicts[&e.name].clone(), &e.tags);
        if let Some(twin) = &e.twin {
            v = credit_error(v, twin, verdicts.get(twin));
        }
        report.record(&e.name, &e.tags, ENGINE, v);
    }
    let json = report.to_json();
    let identity = suite_identity(&manifest);
    let head = format!(
        "\"suite\": {},\n\"versions\": {{\"rten\":\"0.27.0\"}},\n",
        serde_json::to_string(&identity).unwrap()
    );
    let at = json.find("\"cases\"").unwrap();
    std::fs::write(out, format!("{}{head}{}", &json[..at], &json[at..])).unwrap();
    let n = |name: &str| {
        report
            .cases
            .iter()
            .filter(|c| c.results[ENGINE].name() == name)
            .count()
    };
    eprintln!(
        "rten: {} passed, {} refused, {} wrong, {} crash, {} untested",
        n("pass"),
        n("refused") + n("unsupported"),
        n("wrong"),
        n("crash"),
        n("untested")
    );
}
