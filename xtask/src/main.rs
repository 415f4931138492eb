//! `cargo xtask`: padkit's maintainers' tools, apart from the `padkit` binary users get.
//!
//! - `bench`: the workloads W1–W8 timed for every implementation against a memcpy floor;
//! - `bench-models`: whole models, padkit-tract against stock tract-onnx;
//! - `api`: the published crates' public APIs listed in docs/api/, or checked against
//!   those listings;
//! - `suite table`: JSON conformance reports merged into the feature × engine table,
//!   printed or spliced into a Markdown file;
//! - `suite compare`: a JSON report compared verdict by verdict with another, or with runs
//!   of different engines merged (what CI checks the committed reports with).
//!
//! Time with a `--profile bench` build (`cargo run --profile bench -p xtask -- bench`):
//! the dev and release profiles build tract and Burn at lower optimisation levels.

mod api;
mod bench;
mod reports;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// padkit's maintainers' tools.
#[derive(Parser)]
#[command(name = "xtask")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        /// Independent measurements to summarise by their median and range.
        #[arg(long, default_value_t = 1)]
        runs: usize,
    },
    /// Time whole models (cases below DIRS): padkit-tract against stock tract-onnx.
    BenchModels {
        /// Directories to search for cases (folders with model.onnx and test_data_set_0).
        #[arg(default_value = "tests/data/models")]
        dirs: Vec<PathBuf>,
        /// Independent measurements to summarise by their median and range.
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// One JSON object per model.
        #[arg(long)]
        json: bool,
    },
    /// Write each published crate's public API to docs/api/CRATE.txt (from rustdoc's
    /// JSON, by the public-api crate), or check the committed listings.
    Api {
        /// Compare with docs/api/ instead of writing it: print the lines that differ and
        /// fail where any does.
        #[arg(long)]
        check: bool,
    },
    /// padkit's conformance reports: tabulate and compare them.
    #[command(subcommand)]
    Suite(SuiteCommand),
}

#[derive(Subcommand)]
enum SuiteCommand {
    /// Merge JSON reports into the feature × engine table, printed or spliced into a
    /// Markdown file between its conformance-table markers.
    Table {
        /// The JSON reports (`padkit conformance --report json`, tests/peers/run.py).
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Replace the table in this file instead of printing it.
        #[arg(long)]
        update: Option<PathBuf>,
    },
    /// Compare two JSON reports: each case or engine in one only, and each (case, engine)
    /// whose verdict differs in kind (pass, refused, unsupported, wrong, crash, untested),
    /// is printed, and the command fails. Details (messages, timings) are not compared.
    Compare {
        /// The report expected.
        expected: PathBuf,
        /// The report to check against it: one, or runs of different engines on the same
        /// cases, merged.
        #[arg(required = true)]
        actual: Vec<PathBuf>,
        /// Also require ACTUAL's cases to be the full catalogue's, in its order.
        #[arg(long)]
        cases_of_catalogue: bool,
    },
}

fn main() -> ExitCode {
    if let Some(code) = api::as_rustdoc() {
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    let result = match Cli::parse().command {
        Command::Bench {
            quick,
            json,
            only,
            runs,
        } => bench::run(&bench::Options {
            quick,
            json,
            only: only.as_deref(),
            runs,
        }),
        Command::BenchModels { dirs, runs, json } => bench::models(&dirs, runs, json),
        Command::Api { check } => api::run(check),
        Command::Suite(SuiteCommand::Table { reports, update }) => {
            reports::table(&reports, update.as_deref())
        }
        Command::Suite(SuiteCommand::Compare {
            expected,
            actual,
            cases_of_catalogue,
        }) => reports::compare(&expected, &actual, cases_of_catalogue),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}
