//! Standard output for every command. `println!` panics when the reader has gone
//! (`photofinish render ... | head`); these end the process quietly instead.

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
