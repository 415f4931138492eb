//! The command line: `padkit` (the built-in self-check), `run`, `lower`, `conformance` and
//! `suite export`, parsed with clap. The maintainers' tools (the bench, the reports' table
//! and comparison) are `cargo xtask`'s.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::LazyLock;

use crate::{conformance, run, selfcheck};
use clap::{Parser, Subcommand};
use padkit_conformance::Size;
use padkit_conformance::compare::Tolerance;
use padkit_engines::verdict;
use padkit_engines::{Engine, RunSettings};
use padkit_onnx_tools::isolate;
use padkit_onnx_tools::suite;

/// The complete ONNX Pad: run models with it, check it against the ONNX backend tests.
#[derive(Parser)]
#[command(name = "padkit", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run an ONNX model and print (and optionally write) its outputs.
    Run {
        /// The model file.
        model: PathBuf,
        /// The engine.
        #[arg(long, value_enum, default_value = "tract")]
        engine: Engine,
        /// NAME=FILE: feed graph input NAME from a serialized TensorProto (.pb) or a .npy.
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// Feed DIR/input_K.pb to the K-th graph input (the ONNX backend-test layout).
        #[arg(long)]
        data_set: Option<PathBuf>,
        /// Write each output to DIR/NAME.pb (NAME escaped to stay inside DIR).
        #[arg(long)]
        output_dir: Option<PathBuf>,
        /// Refuse outputs larger than this many bytes (default: the memory available).
        #[arg(long)]
        max_output_bytes: Option<u64>,
        #[arg(long, help = STRICT_ONNX)]
        strict_onnx: bool,
    },
    /// Rewrite a model's Pads into standard ONNX ops (Slice, Concat, Gather, …) that
    /// runtimes without a complete Pad run, at the model's own opset.
    Lower {
        /// The model file.
        model: PathBuf,
        /// Where to write the lowered model (a new file, or one to replace).
        output: PathBuf,
        /// Refuse Pads whose output would be larger than this many bytes, when the model
        /// is read or, for extents known only then, at run time (a fixed default, so
        /// that the lowered bytes do not depend on the machine that lowers).
        #[arg(long, default_value_t = padkit_lower::DEFAULT_MAX_OUTPUT_BYTES)]
        max_output_bytes: u64,
        /// The most bytes of constants (index maps, fill blocks, border positions) the
        /// lowering may write into the model, over all its Pads.
        #[arg(long, default_value_t = padkit_lower::DEFAULT_MAX_CONSTANT_BYTES)]
        max_constant_bytes: u64,
        /// The runtime the lowered model is for: `portable` (any: every Pad lowered),
        /// `onnxruntime`, `tract`, `candle-onnx`, `openvino`, `rten`, `tinygrad`, `tvm` or `onnx2torch` (the
        /// Pads that runtime's own Pad runs right are kept as they are, the others lowered
        /// into ops it runs right), or `tract-gpu` (tract-cuda and tract-metal: only ops they
        /// run on the device).
        #[arg(long, default_value_t = padkit_lower::Target::Portable)]
        target: padkit_lower::Target,
        #[arg(long, help = STRICT_ONNX_LOWER)]
        strict_onnx: bool,
    },
    /// Run every ONNX backend-test case below the given directories and compare exactly.
    Conformance {
        /// The engines, comma-separated; `all` is padkit's (core, tract, burn).
        #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
        engine: Vec<EngineChoice>,
        /// Directories to search for cases (folders with model.onnx).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Relative tolerance for float outputs of whole models (Pad graphs compare exactly).
        #[arg(long, default_value_t = Tolerance::ONNX_BACKEND.rtol)]
        rtol: f64,
        /// Absolute tolerance for float outputs of whole models.
        #[arg(long, default_value_t = Tolerance::ONNX_BACKEND.atol)]
        atol: f64,
        /// Refuse outputs larger than this many bytes (default: the memory available).
        #[arg(long)]
        max_output_bytes: Option<u64>,
        /// Seconds an engine may take on one case before it counts as hung (a crash).
        #[arg(long, default_value = "60", value_parser = seconds)]
        timeout: std::time::Duration,
        /// Print a feature × engine report instead of a line per case.
        #[arg(long, value_enum)]
        report: Option<ReportFormat>,
        /// Exit with success whatever the verdicts (to measure other engines).
        #[arg(long)]
        exit_zero: bool,
        #[arg(long, help = STRICT_ONNX)]
        strict_onnx: bool,
    },
    /// padkit's conformance suite.
    #[command(subcommand)]
    Suite(SuiteCommand),
}

#[derive(Subcommand)]
enum SuiteCommand {
    /// Write the catalogue in the ONNX backend-test layout, with a manifest.json.
    Export {
        /// The directory (absent, empty, or a previous export).
        dir: PathBuf,
        /// The quick subset (several hundred cases instead of several thousand).
        #[arg(long)]
        small: bool,
        /// Only cases with this tag (e.g. mode:reflect, or reflect); repeat to narrow.
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
    },
}

/// `--strict-onnx`, on padkit's engines.
const STRICT_ONNX: &str = "ONNX's refusal where padkit answers beyond ONNX with numpy's result \
     (reflect wider than an axis, or of an axis shorter than 2, after crops), on padkit's engines";

/// `lower --strict-onnx`.
const STRICT_ONNX_LOWER: &str = "ONNX's refusal where padkit answers beyond ONNX with numpy's \
     result (reflect wider than an axis, or of an axis shorter than 2, after crops): refused \
     when the model is read, or by the lowered model at run time";

/// How `conformance --report` prints.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ReportFormat {
    /// The feature × engine matrix with the first failing cases.
    Md,
    /// Every verdict, as padkit_conformance::Report reads it.
    Json,
    /// JUnit XML, for CI systems.
    Junit,
}

/// A positive, finite number of seconds.
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    match std::time::Duration::try_from_secs_f64(s) {
        Ok(d) if s > 0.0 => Ok(d),
        _ => Err(format!("{text} s: the timeout must be positive and finite")),
    }
}

/// An engine `conformance` runs, or all of padkit's: [`Engine`]'s values and `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EngineChoice {
    /// padkit's engines: core, tract and burn.
    All,
    /// One engine.
    One(Engine),
}

impl clap::ValueEnum for EngineChoice {
    fn value_variants<'a>() -> &'a [Self] {
        // `all`, then every engine as Engine lists them
        static CHOICES: LazyLock<Vec<EngineChoice>> = LazyLock::new(|| {
            let each = Engine::value_variants()
                .iter()
                .copied()
                .map(EngineChoice::One);
            std::iter::once(EngineChoice::All).chain(each).collect()
        });
        &CHOICES
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            EngineChoice::All => Some(
                clap::builder::PossibleValue::new("all")
                    .help("padkit's engines: core, tract and burn"),
            ),
            EngineChoice::One(e) => e.to_possible_value(),
        }
    }
}

/// The engines `choices` name, each once, in the order first named.
fn engines(choices: &[EngineChoice]) -> Vec<Engine> {
    let mut out = vec![];
    for choice in choices {
        let named = match *choice {
            EngineChoice::All => Engine::ALL.to_vec(),
            EngineChoice::One(e) => vec![e],
        };
        for e in named {
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

/// Parses the command line, runs the command and says how it went.
pub fn main() -> ExitCode {
    isolate::install_hook();
    let cli = Cli::parse();
    let limit = |given: Option<u64>| given.unwrap_or_else(padkit::memory::default_max_output_bytes);
    let result = match cli.command {
        None => {
            let tally = selfcheck::run(&Engine::ALL);
            Ok(summary(&tally, false, false))
        }
        Some(Command::Conformance {
            engine,
            dirs,
            rtol,
            atol,
            max_output_bytes,
            timeout,
            report,
            exit_zero,
            strict_onnx,
        }) => {
            let settings = conformance::Settings {
                tolerance: Tolerance { rtol, atol },
                run: RunSettings {
                    max_output_bytes: limit(max_output_bytes),
                    strict_onnx,
                },
                timeout,
            };
            let e = engines(&engine);
            let tally = match report {
                None => conformance::run(&dirs, &e, settings),
                Some(format) => conformance::report(&dirs, &e, settings).map(|(tally, r)| {
                    print!(
                        "{}",
                        match format {
                            ReportFormat::Md => r.markdown(&[], 5),
                            ReportFormat::Json => r.to_json(),
                            ReportFormat::Junit => r.junit(),
                        }
                    );
                    tally
                }),
            };
            tally.map(|t| summary(&t, report.is_some(), exit_zero))
        }
        Some(Command::Suite(SuiteCommand::Export { dir, small, tags })) => {
            let size = if small { Size::Small } else { Size::Full };
            let picked = suite::select(size, &tags);
            suite::export(&dir, &picked).map(|n| {
                println!("{n} cases written to {}", dir.display());
                ExitCode::SUCCESS
            })
        }
        Some(Command::Lower {
            model,
            output,
            max_output_bytes,
            max_constant_bytes,
            target,
            strict_onnx,
        }) => {
            let options = padkit_lower::Options::default()
                .with_max_output_bytes(max_output_bytes)
                .with_max_constant_bytes(max_constant_bytes)
                .with_target(target)
                .with_strict_onnx(strict_onnx);
            run::lower(&model, &output, &options).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Run {
            model,
            engine,
            inputs,
            data_set,
            output_dir,
            max_output_bytes,
            strict_onnx,
        }) => run::run(&run::Request {
            model: &model,
            engine,
            inputs: &inputs,
            data_set: data_set.as_deref(),
            output_dir: output_dir.as_deref(),
            settings: RunSettings {
                max_output_bytes: limit(max_output_bytes),
                strict_onnx,
            },
        })
        .map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|e| {
        eprintln!("padkit: {e:#}");
        ExitCode::FAILURE
    })
}

/// Prints the tally (to stderr when stdout holds a report) and the exit code it means:
/// failure where a case failed, or where none passed or failed (every case skipped or
/// untested, or no data set at all: nothing was tested), unless `exit_zero`.
fn summary(t: &verdict::Tally, to_stderr: bool, exit_zero: bool) -> ExitCode {
    let line = t.line();
    if to_stderr {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
    if exit_zero {
        return ExitCode::SUCCESS;
    }
    if t.failed > 0 {
        return ExitCode::FAILURE;
    }
    if t.tested_nothing() {
        if t.skipped + t.untested == 0 {
            eprintln!("padkit: nothing was tested: the cases hold no data set (test_data_set_*)");
        } else {
            eprintln!(
                "padkit: nothing was tested: no case passed or failed ({} skipped, {} untested)",
                t.skipped, t.untested
            );
        }
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
