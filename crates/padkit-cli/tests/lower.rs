//! `padkit lower` from the command line: on a model that keeps a weight as external data
//! (the lowered model refers to the same file, runs on stock tract-onnx as the original
//! runs on padkit's tract, and is refused where it would be written away from its data or
//! over its input), and its options (`--max-constant-bytes`, `--target`).

use std::path::{Path, PathBuf};

use padkit::Tensor;
use padkit_onnx::pb::{ModelProto, NodeProto, StringStringEntryProto};
use padkit_onnx::proto::tensor_to_proto;
use padkit_onnx_tools::model::{Feed, PadModel};
use prost::Message;

mod common;
use common::{padkit, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("padkit-lower-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `y = reflect-pad(x, (1, 1)) + w` with `w` ([1, 6] f32) stored in `dir/w.bin`.
fn model(dir: &Path) -> ModelProto {
    let x = Tensor::from_slice(&[1, 4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let mut m = PadModel::new(19, "reflect", x, vec![0, 1, 0, 1], Feed::Initializer).proto();
    let g = m.graph.as_mut().unwrap();
    g.node[0].output = vec!["p".into()];
    g.node.push(NodeProto {
        name: "add".into(),
        op_type: "Add".into(),
        input: vec!["p".into(), "w".into()],
        output: vec!["y".into()],
        ..Default::default()
    });
    let w: Vec<f32> = (0..6).map(|v| 10.0 * v as f32).collect();
    let bytes: Vec<u8> = w.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("w.bin"), &bytes).unwrap();
    let mut w = tensor_to_proto(&Tensor::from_slice(&[1, 6], &w).unwrap(), "w");
    w.raw_data.clear();
    w.data_location = 1;
    let entry = |k: &str, v: &str| StringStringEntryProto {
        key: k.into(),
        value: v.into(),
    };
    w.external_data = vec![entry("location", "w.bin"), entry("length", "24")];
    g.initializer.push(w);
    m
}

#[test]
fn external_data_stays_external() {
    let dir = scratch("external");
    let original = dir.join("model.onnx");
    std::fs::write(&original, model(&dir).encode_to_vec()).unwrap();
    let x = dir.join("x.pb");
    let xt = Tensor::from_slice(&[1, 4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    std::fs::write(&x, tensor_to_proto(&xt, "x").encode_to_vec()).unwrap();
    let lowered = dir.join("lowered.onnx");
    let out = padkit(&[
        "lower",
        original.to_str().unwrap(),
        lowered.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let m = ModelProto::decode(&*std::fs::read(&lowered).unwrap()).unwrap();
    let g = m.graph.unwrap();
    let w = g.initializer.iter().find(|t| t.name == "w").unwrap();
    assert_eq!((w.data_location, w.raw_data.len()), (1, 0));
    assert!(g.node.iter().all(|n| n.op_type != "Pad"));
    let run = |model: &Path, engine: &str, out: &str| {
        let out_dir = dir.join(out);
        let x_arg = format!("x={}", x.display());
        let args = [
            "run",
            model.to_str().unwrap(),
            "--engine",
            engine,
            "--input",
            &x_arg,
            "--output-dir",
            out_dir.to_str().unwrap(),
        ];
        let done = padkit(&args);
        assert!(done.status.success(), "{}", text(&done.stderr));
        std::fs::read(out_dir.join("y.pb")).unwrap()
    };
    assert_eq!(
        run(&lowered, "stock-tract", "lowered"),
        run(&original, "tract", "original")
    );
    // [2, 1, 2, 3, 4, 3] + [0, 10, …, 50]
    let y = padkit_onnx::proto::decode_tensor(&run(&lowered, "stock-tract", "again"), "y").unwrap();
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        [2.0, 11.0, 22.0, 33.0, 44.0, 53.0]
    );

    let elsewhere = scratch("external-elsewhere").join("lowered.onnx");
    let out = padkit(&[
        "lower",
        original.to_str().unwrap(),
        elsewhere.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("keeps tensors as external data"), "{err}");
    assert!(!elsewhere.exists());
}

/// OUT may not be a file the lowering reads: the model itself, or its external data, by
/// whatever name (a hard link is the same file). Both stay as they were.
#[test]
fn out_never_aliases_an_input() {
    let dir = scratch("aliases");
    let original = dir.join("model.onnx");
    let bytes = model(&dir).encode_to_vec();
    std::fs::write(&original, &bytes).unwrap();
    let weights = std::fs::read(dir.join("w.bin")).unwrap();
    std::fs::hard_link(dir.join("w.bin"), dir.join("w-link.bin")).unwrap();
    for out in ["model.onnx", "w.bin", "w-link.bin"] {
        let done = padkit(&[
            "lower",
            original.to_str().unwrap(),
            dir.join(out).to_str().unwrap(),
        ]);
        assert_eq!(done.status.code(), Some(1), "{out}");
        let err = text(&done.stderr);
        assert!(err.contains("which the lowering reads"), "{out}: {err}");
    }
    assert_eq!(std::fs::read(&original).unwrap(), bytes);
    assert_eq!(std::fs::read(dir.join("w.bin")).unwrap(), weights);
}

/// `--max-constant-bytes` reaches the lowering: the reflect Pad's border positions (a
/// `Gather` of 20 000 int64, 160 000 bytes) fit the default budget and not one of 100 000
/// bytes, which the refusal names; nothing is written then.
#[test]
fn the_constant_budget_is_set_on_the_command_line() {
    let dir = scratch("budget");
    let x = Tensor::from_slice(&[1000], &vec![1.0f32; 1000]).unwrap();
    let m = PadModel::new(18, "reflect", x, vec![0, 20_000], Feed::Initializer).proto();
    let original = dir.join("model.onnx");
    std::fs::write(&original, m.encode_to_vec()).unwrap();
    let out = dir.join("lowered.onnx");
    let lower = |extra: &[&str]| {
        let mut args = vec!["lower", original.to_str().unwrap(), out.to_str().unwrap()];
        args.extend(extra);
        padkit(&args)
    };
    let refused = lower(&["--max-constant-bytes", "100000"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = text(&refused.stderr);
    assert!(err.contains("more than 100000 bytes of constants"), "{err}");
    assert!(!out.exists());
    let done = lower(&[]);
    assert!(done.status.success(), "{}", text(&done.stderr));
    assert!(std::fs::metadata(&out).unwrap().len() > 160_000);
}

/// `--target` reaches the lowering: for ONNX Runtime a reflect Pad within its axis is kept
/// as it is, for stock tract a wrap Pad (which it does not run) is lowered; a target padkit
/// does not know is refused with the list of targets, and nothing is written.
#[test]
fn the_target_is_set_on_the_command_line() {
    let dir = scratch("target");
    let x = Tensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let out = dir.join("lowered.onnx");
    let lower = |mode: &str, target: &str| {
        let m = PadModel::new(19, mode, x.clone(), vec![0, 1, 0, 1], Feed::Initializer).proto();
        let original = dir.join("model.onnx");
        std::fs::write(&original, m.encode_to_vec()).unwrap();
        let (original, out) = (original.to_str().unwrap(), out.to_str().unwrap());
        let done = padkit(&["lower", "--target", target, original, out]);
        (m, done)
    };
    let ops = |path: &Path| -> Vec<String> {
        let m = ModelProto::decode(std::fs::read(path).unwrap().as_slice()).unwrap();
        m.graph
            .unwrap()
            .node
            .into_iter()
            .map(|n| n.op_type)
            .collect()
    };
    let (original, done) = lower("reflect", "onnxruntime");
    assert!(done.status.success(), "{}", text(&done.stderr));
    let kept = ModelProto::decode(std::fs::read(&out).unwrap().as_slice()).unwrap();
    assert_eq!(kept.graph, original.graph);
    let (_, done) = lower("wrap", "tract");
    assert!(done.status.success(), "{}", text(&done.stderr));
    assert!(!ops(&out).contains(&"Pad".to_string()), "{:?}", ops(&out));
    std::fs::remove_file(&out).unwrap();
    let (_, refused) = lower("reflect", "nnapi");
    assert_eq!(refused.status.code(), Some(2));
    let err = text(&refused.stderr);
    assert!(
        err.contains("the targets are portable, onnxruntime, tract, candle-onnx, tract-gpu"),
        "{err}"
    );
    assert!(!out.exists());
}

/// `padkit lower` run on `model` into `out` with `--target target`, in this process's
/// environment or, where `elsewhere`, in another one: an address-space limit of 8 GiB, one
/// thread and a locale of its own. The written bytes (empty where it refused) and what it
/// said on stderr.
fn lower_once(model: &Path, out: &Path, target: &str, elsewhere: bool) -> (Vec<u8>, String) {
    use std::os::unix::process::CommandExt;
    let _ = std::fs::remove_file(out);
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("padkit"));
    command
        .args(["lower", "--target", target])
        .arg(model)
        .arg(out);
    if elsewhere {
        command
            .env("RAYON_NUM_THREADS", "1")
            .env("LC_ALL", "C")
            .env("TZ", "Pacific/Kiritimati");
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls are allowed: setrlimit is one, and it allocates nothing.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 8 << 30,
                    rlim_max: 8 << 30,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let done = command.output().unwrap();
    let bytes = std::fs::read(out).unwrap_or_default();
    assert_eq!(
        done.status.success(),
        !bytes.is_empty(),
        "{}",
        text(&done.stderr)
    );
    (bytes, text(&done.stderr))
}

/// `padkit lower` writes a function of the model and the options alone, never a reading of
/// the machine (its free memory was once the run-time guard's limit): each case of the
/// small suite (each mode × feature at the versions that changed Pad's signature) lowered
/// twice, the second time in another environment ([`lower_once`]) and with 256 MiB less
/// memory available, gives the same bytes or the same error: for every target where its
/// pads, axes or fill are fed at run time (where the run-time guard is written), for the
/// portable target, which lowers every Pad, otherwise. (The full suite through the binary
/// would spawn it 13 000 times, two and a half minutes here.)
#[test]
fn lowering_gives_the_same_bytes_on_any_machine() {
    use padkit_conformance::{Feed, Size, cases};
    let dir = scratch("reproducible");
    let mut jobs = vec![];
    for (i, case) in cases(Size::Small).iter().enumerate() {
        let fed = [&case.feeds.pads, &case.feeds.axes, &case.feeds.value]
            .iter()
            .any(|f| matches!(f, Feed::Input));
        let model = dir.join(format!("{i}.onnx"));
        std::fs::write(&model, PadModel::from_case(case).proto().encode_to_vec()).unwrap();
        for target in padkit_lower::Target::ALL {
            if fed || target == padkit_lower::Target::Portable {
                jobs.push((case.name.clone(), model.clone(), target.name()));
            }
        }
    }
    // 256 MiB less available while the second runs go: written, so that they are held.
    let mut held = vec![0u8; 256 << 20];
    for page in held.chunks_mut(4096) {
        page[0] = 1;
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = jobs.len().div_ceil(threads);
    let differ: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (jobs.chunks(chunk).enumerate())
            .map(|(t, jobs)| {
                let dir = &dir;
                s.spawn(move || {
                    let out = dir.join(format!("out-{t}.onnx"));
                    jobs.iter()
                        .filter(|(_, model, target)| {
                            lower_once(model, &out, target, false)
                                != lower_once(model, &out, target, true)
                        })
                        .map(|(name, _, target)| format!("{name} --target {target}"))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    std::hint::black_box(&held);
    assert!(jobs.len() > 1000, "{} lowerings", jobs.len());
    assert!(
        differ.is_empty(),
        "{} of {} differ: {differ:?}",
        differ.len(),
        jobs.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
