//! Standard output and standard error for every command. `println!` and `eprintln!`
//! panic when the reader has gone (`photofinish render ... | head`); these end the process
//! quietly instead, or say nothing where nobody reads.

use std::io::Write;

/// Writes `args` to standard output and flushes it; a closed pipe ends the process with
/// exit code 0 (the reader chose to stop), any other write error with one line and 1.
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        gone(&e);
    }
}

/// Ends the process after standard output failed: `std::process::exit` runs no more
/// writes, so nothing after this can panic on the same pipe.
pub fn gone(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    // stderr may be closed too; a refusal to write there is not worth a panic.
    let _ = writeln!(std::io::stderr(), "cannot write to standard output: {e}");
    std::process::exit(1);
}

/// Writes `args` to standard error; a write that fails is dropped, since there is
/// nowhere left to say so (a refusal keeps its exit code).
pub fn write_err(args: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.flush());
}

/// `print!` that never panics on a closed standard output ([`write`]).
macro_rules! out {
    ($($t:tt)*) => {
        $crate::cli::output::write(format_args!($($t)*))
    };
}

/// `println!` that never panics on a closed standard output ([`write`]).
macro_rules! outln {
    () => {
        $crate::cli::output::write(format_args!("\n"))
    };
    ($($t:tt)*) => {
        $crate::cli::output::write(format_args!("{}\n", format_args!($($t)*)))
    };
}

/// `eprintln!` that never panics on a closed standard error ([`write_err`]).
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::cli::output::write_err(format_args!("{}\n", format_args!($($t)*)))
    };
}
