//! `xtask api`: the public API of each published crate, one item a line as the
//! `public-api` crate renders it from rustdoc's JSON, written to `docs/api/CRATE.txt` or
//! checked against it (what CI does), so that a change to a public API shows in review as
//! a diff of those files.
//!
//! The JSON comes from the stable toolchain's rustdoc (`-Z unstable-options` allowed for
//! rustdoc alone: this binary stands in for it, see [`as_rustdoc`]), with the features CI
//! documents the workspace with, so that the dependencies' checks of CI's `cargo doc`
//! stage serve: cargo checks every dependency again where `RUSTC_BOOTSTRAP` is set for
//! the whole build.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The environment variable under which this binary runs as rustdoc.
const AS_RUSTDOC: &str = "PADKIT_XTASK_AS_RUSTDOC";

/// The features CI's `cargo doc` stage builds with (`lint_features` in `.ci/run`), with
/// its `--examples`, which bring the dev-dependencies' features (padkit-tract's `pulse`):
/// every optional item of the published crates.
const DOC_ARGS: [&str; 7] = [
    "--workspace",
    "--no-deps",
    "--locked",
    "--lib",
    "--examples",
    "--features",
    "padkit-burn/ndarray,padkit-burn/wgpu,padkit-burn/metal,padkit-cli/candle",
];

/// Where this process was started as rustdoc by [`run`]'s cargo: runs the real rustdoc
/// with its arguments, unstable options allowed, and returns its exit status.
pub fn as_rustdoc() -> Option<i32> {
    std::env::var_os(AS_RUSTDOC)?;
    let status = Command::new("rustdoc")
        .args(std::env::args_os().skip(1))
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove(AS_RUSTDOC)
        .status();
    Some(match status {
        Ok(status) => status.code().unwrap_or(1),
        Err(e) => {
            eprintln!("xtask (as rustdoc): cannot run rustdoc: {e}");
            1
        }
    })
}

/// The published crates' listings written to `docs/api/` or, with `check`, compared with
/// the committed ones (every line added or removed printed).
///
/// # Errors
///
/// When cargo or rustdoc fails, a JSON file cannot be read (or is of another format than
/// `public-api` reads: another toolchain's), or, with `check`, a listing differs.
pub fn run(check: bool) -> Result<()> {
    let metadata = metadata()?;
    let target = PathBuf::from(
        metadata["target_directory"]
            .as_str()
            .context("cargo metadata names no target directory")?,
    );
    let root = PathBuf::from(
        metadata["workspace_root"]
            .as_str()
            .context("cargo metadata names no workspace root")?,
    );
    let published = published(&metadata);
    document()?;
    let mut differ = vec![];
    for name in &published {
        let json = target
            .join("doc")
            .join(format!("{}.json", name.replace('-', "_")));
        let listing = listing(&json).with_context(|| format!("the public API of {name}"))?;
        let path = root.join("docs/api").join(format!("{name}.txt"));
        if check {
            let committed = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            if committed != listing {
                print_diff(name, &committed, &listing);
                differ.push(name.as_str());
            }
        } else {
            std::fs::create_dir_all(path.parent().expect("docs/api"))?;
            std::fs::write(&path, listing)
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    if !differ.is_empty() {
        bail!(
            "the public API of {} differs from docs/api/ (lines '-' committed, '+' now); \
             `cargo run -p xtask -- api` writes the listings anew",
            differ.join(", ")
        );
    }
    println!("{} public APIs as docs/api/ lists them", published.len());
    Ok(())
}

/// `cargo metadata` of the workspace, without its dependencies.
fn metadata() -> Result<serde_json::Value> {
    let out = Command::new(cargo())
        .args(["metadata", "--no-deps", "--format-version", "1", "--locked"])
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(serde_json::from_slice(&out.stdout)?)
}

/// The workspace's packages that publish (no `publish = false`) and have a library.
fn published(metadata: &serde_json::Value) -> Vec<String> {
    let mut names: Vec<String> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["publish"].is_null())
        .filter(|p| {
            p["targets"].as_array().into_iter().flatten().any(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "lib"))
            })
        })
        .filter_map(|p| p["name"].as_str().map(String::from))
        .collect();
    names.sort();
    names
}

/// rustdoc's JSON of every library of the workspace, under the target directory's `doc/`.
fn document() -> Result<()> {
    let me = std::env::current_exe().context("finding xtask's own path")?;
    let status = Command::new(cargo())
        .arg("doc")
        .args(DOC_ARGS)
        .env("RUSTDOC", me)
        .env(AS_RUSTDOC, "1")
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .status()
        .context("running cargo doc")?;
    if !status.success() {
        bail!("cargo doc (rustdoc's JSON) failed");
    }
    Ok(())
}

fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The listing of one crate's JSON: its items sorted, blanket implementations left out
/// (they follow from the items), one a line.
fn listing(json: &Path) -> Result<String> {
    let text =
        std::fs::read_to_string(json).with_context(|| format!("reading {}", json.display()))?;
    #[derive(serde::Deserialize)]
    struct Format {
        format_version: u32,
    }
    let Format { format_version } = serde_json::from_str(&text)?;
    if format_version != rustdoc_types::FORMAT_VERSION {
        bail!(
            "{} is rustdoc JSON of format {format_version}; public-api reads format {} (Rust \
             1.95's rustdoc): run with that toolchain",
            json.display(),
            rustdoc_types::FORMAT_VERSION
        );
    }
    let api = public_api::Builder::from_rustdoc_json(json)
        .omit_blanket_impls(true)
        .build()?;
    Ok(api.to_string())
}

/// The lines of `now` not in `committed` (`+`) and those gone (`-`).
fn print_diff(name: &str, committed: &str, now: &str) {
    let old: BTreeSet<&str> = committed.lines().collect();
    let new: BTreeSet<&str> = now.lines().collect();
    println!("docs/api/{name}.txt:");
    for line in old.difference(&new) {
        println!("- {line}");
    }
    for line in new.difference(&old) {
        println!("+ {line}");
    }
}
