//! # padkit-burn-onnx: burn-onnx's `ModelGen` with padkit's complete Pad
//!
//! burn-onnx imports ONNX models into Burn code at build time, but its Pad knows constant,
//! reflect and edge only, refuses negative pads, carries constants through `f32` and
//! cannot pad Bool tensors. [`ModelGen`] is a drop-in for `burn_onnx::ModelGen` with
//! which every Pad of every opset (1–25: wrap, negative pads, axes, runtime pads, values
//! and axes, every kind Burn holds, exact constants) generates code that calls
//! `padkit_burn`.
//!
//! How: before burn-onnx sees a model, its top-level Pad nodes move to the domain
//! [`PAD_DOMAIN`] (with the model's opset), where burn-onnx's parser does not know them;
//! a custom op registered for that domain checks each at build time and generates a
//! call to `padkit_burn::import::pad_node`. burn-onnx's hooks do not reach subgraphs
//! (`If`, `Loop`, `Scan` bodies): Pads there stay burn-onnx's, and one that burn-onnx
//! cannot import (mode wrap, negative pads) is a build error naming the node.
//!
//! In `build.rs` (the user's crate depends on `padkit-burn` and `burn-store` too):
//!
//! ```no_run
//! padkit_burn_onnx::ModelGen::new()
//!     .input("src/model/my_model.onnx")
//!     .out_dir("model/")
//!     .run_from_script();
//! ```

mod pad_op;
mod rewrite;

use std::path::{Path, PathBuf};

pub use pad_op::PadOp;
pub use rewrite::{NAME_ATTRIBUTE, PAD_DOMAIN, rewrite_model};

/// Why a model could not be imported.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(String);

impl Error {
    fn new(message: impl Into<String>) -> Error {
        Error(message.into())
    }
}

/// burn-onnx's `ModelGen` with padkit's Pad: the same builder calls, then
/// [`ModelGen::run_from_script`] in a build script.
pub struct ModelGen {
    inner: burn_onnx::ModelGen,
    /// Each model and the name of its generated file (and module).
    inputs: Vec<(PathBuf, String)>,
}

impl Default for ModelGen {
    fn default() -> Self {
        ModelGen::new()
    }
}

impl ModelGen {
    /// A generator with padkit's Pad registered.
    ///
    /// ```
    /// let mut generator = padkit_burn_onnx::ModelGen::new();
    /// generator.input("model.onnx").out_dir("model/");
    /// ```
    pub fn new() -> ModelGen {
        let mut inner = burn_onnx::ModelGen::new();
        inner.register_custom_op(PadOp);
        ModelGen {
            inner,
            inputs: vec![],
        }
    }

    /// Adds an ONNX model to import (the generated file is named after it).
    pub fn input(&mut self, path: &str) -> &mut Self {
        let path = PathBuf::from(path);
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        self.inputs.push((path, name));
        self
    }

    /// Adds an ONNX model whose generated file is `name.rs` (models in folders of their
    /// own are often all called `model.onnx`).
    ///
    /// ```
    /// let mut generator = padkit_burn_onnx::ModelGen::new();
    /// generator.input_named("tests/test_wrap_pad/model.onnx", "wrap_pad");
    /// ```
    pub fn input_named(&mut self, path: &str, name: &str) -> &mut Self {
        self.inputs.push((PathBuf::from(path), name.to_string()));
        self
    }

    /// The directory, below `OUT_DIR`, that receives the generated code.
    pub fn out_dir(&mut self, dir: &str) -> &mut Self {
        self.inner.out_dir(dir);
        self
    }

    /// Makes burn-onnx write its development files (the graph it parsed) too.
    pub fn development(&mut self, development: bool) -> &mut Self {
        self.inner.development(development);
        self
    }

    /// Lets burn-onnx simplify the graph (its default) or not.
    pub fn simplify(&mut self, simplify: bool) -> &mut Self {
        self.inner.simplify(simplify);
        self
    }

    /// Registers another custom op with burn-onnx.
    pub fn register_custom_op(&mut self, op: impl burn_onnx::ext::CustomOp) -> &mut Self {
        self.inner.register_custom_op(op);
        self
    }

    /// Registers an override of a built-in op's generated code with burn-onnx.
    pub fn register_op_override(&mut self, over: impl burn_onnx::ext::OpOverride) -> &mut Self {
        self.inner.register_op_override(over);
        self
    }

    /// Imports the models from a build script; on an error, prints it (naming the model
    /// and the node) and ends the build script with exit code 1.
    pub fn run_from_script(&mut self) {
        if let Err(e) = self.try_run_from_script() {
            eprintln!("padkit-burn-onnx: {e}");
            std::process::exit(1);
        }
    }

    /// [`ModelGen::run_from_script`], returning the error instead. Each model is
    /// rewritten (see [`rewrite_model`]) into `$OUT_DIR/padkit-burn-onnx/NAME.onnx`, which
    /// burn-onnx then imports into the `out_dir` below `OUT_DIR`.
    ///
    /// # Errors
    ///
    /// When `OUT_DIR` is not set (not a build script), and the errors of
    /// [`ModelGen::try_run_from_cli`].
    pub fn try_run_from_script(&mut self) -> Result<(), Error> {
        let out = std::env::var_os("OUT_DIR")
            .ok_or_else(|| Error::new("OUT_DIR is not set: call this from a build script"))?;
        self.run(&Path::new(&out).join("padkit-burn-onnx"), true)
    }

    /// Imports the models outside a build script, into the `out_dir` given as is; the
    /// rewritten models go to `scratch`.
    ///
    /// # Errors
    ///
    /// - the scratch directory cannot be created, a model cannot be read, or its rewritten
    ///   copy cannot be written;
    /// - a model cannot be rewritten (the errors of [`rewrite_model`], after the model's
    ///   path);
    /// - burn-onnx refuses a model (with burn-onnx's message), or padkit's Pad op refuses
    ///   a Pad node while burn-onnx parses it: a mode, element type, pads, axes or
    ///   constant value that Pad at the node's opset, or Burn, does not allow (the message
    ///   names the node).
    pub fn try_run_from_cli(&mut self, scratch: &Path) -> Result<(), Error> {
        self.run(scratch, false)
    }

    fn run(&mut self, scratch: &Path, from_script: bool) -> Result<(), Error> {
        std::fs::create_dir_all(scratch)
            .map_err(|e| Error::new(format!("cannot create {}: {e}", scratch.display())))?;
        for (path, name) in &self.inputs {
            if from_script {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            let bytes = std::fs::read(path)
                .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
            let rewritten = rewrite_model(&bytes)
                .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
            let target = scratch.join(format!("{name}.onnx"));
            // Written only when it changes, so that cargo does not rerun the script for it.
            if std::fs::read(&target).ok().as_deref() != Some(&rewritten[..]) {
                std::fs::write(&target, &rewritten)
                    .map_err(|e| Error::new(format!("cannot write {}: {e}", target.display())))?;
            }
            self.inner.input(&target.to_string_lossy());
        }
        // burn-onnx reports what it refuses (and what padkit's op refuses while it parses)
        // by panicking: turn that into this error, printed once.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let inner = &self.inner;
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if from_script {
                inner.run_from_script()
            } else {
                inner.run_from_cli()
            }
        }));
        std::panic::set_hook(previous);
        run.map_err(|payload| {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "burn-onnx failed without a message".into());
            Error::new(message)
        })
    }
}

/// The crate's README, whose snippets run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
