//! `padkit`: the built-in self-check (no arguments), `run`, and `conformance`.

mod bench;
mod burn_engine;
mod conformance;
mod engine;
mod report;
mod run;
mod selfcheck;
mod verdict;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::engine::Engine;

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
        /// Write each output to DIR/NAME.pb.
        #[arg(long)]
        output_dir: Option<PathBuf>,
    },
    /// Time the workloads W1–W8 for every implementation against a memcpy floor.
    Bench {
        /// Skip the largest workloads and run fewer rounds.
        #[arg(long)]
        quick: bool,
        /// One JSON object per (workload, implementation).
        #[arg(long)]
        json: bool,
        /// Only the workloads whose name starts with this (e.g. W1, W3-edge).
        #[arg(long)]
        only: Option<String>,
    },
    /// Run every ONNX backend-test case below the given directories and compare exactly.
    Conformance {
        /// The engine, or all of them.
        #[arg(long, default_value = "all")]
        engine: String,
        /// Directories to search for cases (folders with model.onnx).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
}

fn engines(choice: &str) -> anyhow::Result<Vec<Engine>> {
    if choice == "all" {
        return Ok(Engine::ALL.to_vec());
    }
    <Engine as clap::ValueEnum>::from_str(choice, true)
        .map(|e| vec![e])
        .map_err(|_| {
            anyhow::anyhow!("unknown engine {choice:?} (expected core, tract, burn or all)")
        })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let tally = selfcheck::run(&Engine::ALL);
            Ok(summary(&tally))
        }
        Some(Command::Bench { quick, json, only }) => {
            bench::run(quick, json, only.as_deref()).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Conformance { engine, dirs }) => engines(&engine)
            .and_then(|e| conformance::run(&dirs, &e))
            .map(|t| summary(&t)),
        Some(Command::Run {
            model,
            engine,
            inputs,
            data_set,
            output_dir,
        }) => run::run(
            &model,
            engine,
            &inputs,
            data_set.as_deref(),
            output_dir.as_deref(),
        )
        .map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|e| {
        eprintln!("padkit: {e:#}");
        ExitCode::FAILURE
    })
}

fn summary(t: &verdict::Tally) -> ExitCode {
    println!(
        "{} passed, {} failed, {} skipped",
        t.passed, t.failed, t.skipped
    );
    if t.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
