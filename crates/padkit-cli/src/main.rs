//! `padkit`: the built-in self-check (no arguments), `run`, `conformance`, `suite`, `bench`.

fn main() -> std::process::ExitCode {
    padkit_cli::main()
}
