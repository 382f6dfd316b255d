//! The `photofinish` binary: see `photofinish --help`.

fn main() -> std::process::ExitCode {
    photofinish::cli::main()
}
