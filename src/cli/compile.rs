//! `csir-render compile FILE [--stage vert|frag] [--ir]`.

use super::fail;
use clap::{Args, ValueEnum};
use csir::{Limits, Stage};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    /// Shader source file (`.vert` or `.frag`, or give --stage).
    pub file: PathBuf,
    /// Shader stage; default: from the file extension.
    #[arg(long, value_enum)]
    pub stage: Option<StageArg>,
    /// Print the CSIR dump (seed "IR dump").
    #[arg(long)]
    pub ir: bool,
}

/// `--stage` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StageArg {
    Vert,
    Frag,
}

/// The stage named by `--stage`, else by the extension `.vert` / `.frag`.
pub fn stage_of(file: &std::path::Path, arg: Option<StageArg>) -> Result<Stage, String> {
    match arg {
        Some(StageArg::Vert) => Ok(Stage::Vertex),
        Some(StageArg::Frag) => Ok(Stage::Fragment),
        None => match file.extension().and_then(|e| e.to_str()) {
            Some("vert") => Ok(Stage::Vertex),
            Some("frag") => Ok(Stage::Fragment),
            _ => Err(format!(
                "{}: cannot tell the stage from the extension; use --stage vert|frag",
                file.display()
            )),
        },
    }
}

/// Run `compile`: exit 0 and print the requested dumps, or print the diagnostics and exit 1.
pub fn run(args: &CompileArgs) -> ExitCode {
    let stage = match stage_of(&args.file, args.stage) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let source = match std::fs::read_to_string(&args.file) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.file.display())),
    };
    let name = args.file.display().to_string();
    match csir::compile(&source, &name, stage, &Limits::default()) {
        Ok(shader) => {
            if args.ir {
                print!("{}", csir::ir::dump(&shader));
            } else {
                println!(
                    "{name}: {} shader OK: {} instructions ({} live), {} immediates, {} temporaries",
                    shader.stage,
                    shader.ir.len(),
                    shader.live_instructions(),
                    shader.imm.len(),
                    shader.ntmp
                );
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            eprint!("{errors}");
            ExitCode::from(1)
        }
    }
}
