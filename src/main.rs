//! `csir-render`: compile shaders, render scenes to PNG, compare images.
//!
//! Run `csir-render --help` for the commands; README.md shows examples.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
