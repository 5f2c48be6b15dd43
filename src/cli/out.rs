//! Standard output that cannot panic: the commands print through [`out!`] and
//! [`outln!`] instead of `print!`/`println!`, which panic ("failed printing to
//! stdout", exit 101) when stdout is a closed pipe (`csir-render trace ... | head`) or a
//! full disk.
//!
//! - A **closed pipe** (the reader went away) silences the rest of the output; the
//!   command carries on and exits with its own status, so `diff`'s 0/1/2 still says
//!   whether the images match.
//! - Messages to stderr go through [`errln!`], which drops them if stderr is gone.
//! - When a command writes its **artifact to standard output** (`-o -`, `--csi -`,
//!   `--heatmap -`, `--json -`, `--junit -`), [`reserve_stdout`] sends every other line
//!   (status, summaries) to stderr, so that stdout holds the artifact alone; two
//!   artifacts to `-`, or an artifact and a text dump asked for by a flag, are refused
//!   by name before any work.
//! - **Any other write error** (`/dev/full`, a full disk) prints one line,
//!   `error: cannot write to standard output: ...`, to stderr, silences the rest, and
//!   turns a successful exit into status 1 ([`exit_status`]): the output is incomplete.

/// `print!` that never panics (see the module docs).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` that never panics (see the module docs).
macro_rules! outln {
    () => {
        $crate::cli::out::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {{
        $crate::cli::out::write_stdout(format_args!($($arg)*));
        $crate::cli::out::write_stdout(format_args!("\n"));
    }};
}

/// `eprintln!` that never panics: a closed or failing stderr loses the message (there
/// is nowhere left to report it).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics (see [`errln!`]).
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

use std::fmt;
use std::io::{ErrorKind, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Set when an artifact goes to standard output: [`write_stdout`] then writes to stderr.
static RESERVED: AtomicBool = AtomicBool::new(false);

/// Claim standard output for the one artifact among `artifacts` (`(flag, path)`, e.g.
/// `("--json", Some("-"))`) whose path is `-`, if any: from then on the commands' other
/// output goes to stderr.
///
/// # Errors
/// A message naming the flags when two artifacts ask for standard output, or when one
/// does and a flag of `dumps` (`(flag, set)`, text the command prints to standard
/// output by request, e.g. `("--ir", true)`) is set; nothing is claimed then.
pub(crate) fn reserve_stdout(
    artifacts: &[(&str, Option<&Path>)],
    dumps: &[(&str, bool)],
) -> Result<(), String> {
    let to_stdout: Vec<&str> = artifacts
        .iter()
        .filter(|(_, path)| path.is_some_and(|p| p.as_os_str() == "-"))
        .map(|(flag, _)| *flag)
        .collect();
    match to_stdout.as_slice() {
        [] => Ok(()),
        [flag] => match dumps.iter().find(|(_, set)| *set) {
            Some((dump, _)) => Err(format!(
                "{flag} - writes to standard output, and {dump} prints there too: give {flag} \
                 a file, or leave out {dump}"
            )),
            None => {
                RESERVED.store(true, Ordering::Relaxed);
                Ok(())
            }
        },
        [first, second, ..] => Err(format!(
            "{first} - and {second} - both write to standard output: give one of them a file"
        )),
    }
}

/// Nothing has gone wrong.
const OPEN: u8 = 0;
/// The reader closed the pipe: output is dropped, the exit status is the command's.
const CLOSED: u8 = 1;
/// A write failed otherwise: output is dropped, the command fails.
const FAILED: u8 = 2;

static STATE: AtomicU8 = AtomicU8::new(OPEN);

/// Write `args` to stdout (line-buffered, as `print!`), unless an earlier write failed.
pub(crate) fn write_stdout(args: fmt::Arguments<'_>) {
    if RESERVED.load(Ordering::Relaxed) {
        let _ = std::io::stderr().lock().write_fmt(args);
        return;
    }
    if STATE.load(Ordering::Relaxed) != OPEN {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args) {
        record(&e);
    }
}

/// Flush stdout (what is buffered without a line end), recording a failure as a write
/// does.
pub(crate) fn flush_stdout() {
    if STATE.load(Ordering::Relaxed) != OPEN {
        return;
    }
    if let Err(e) = std::io::stdout().lock().flush() {
        record(&e);
    }
}

fn record(e: &std::io::Error) {
    if e.kind() == ErrorKind::BrokenPipe {
        STATE.store(CLOSED, Ordering::Relaxed);
    } else if STATE.swap(FAILED, Ordering::Relaxed) == OPEN {
        errln!("error: cannot write to standard output: {e}");
    }
}

/// The process exit status: `command`'s, except that a command that succeeded fails
/// (1) when its output could not be written (not for a closed pipe).
pub(crate) fn exit_status(command: ExitCode) -> ExitCode {
    flush_stdout();
    if STATE.load(Ordering::Relaxed) == FAILED && command == ExitCode::SUCCESS {
        ExitCode::from(1)
    } else {
        command
    }
}
