//! `csir-render compile FILE [--stage vert|frag] [--ir] [--tgsi] [--parity]
//! [--csi OUT [--csi-version 1|2]] [--csi-v1 OUT] [--profile seed|extended]`.

use super::fail;
use clap::{Args, ValueEnum};
use csir::Stage;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    /// Shader source file (`.vert`, `.frag` or `.geom`, or give --stage).
    pub file: PathBuf,
    /// Shader stage; default: from the file extension.
    #[arg(long, value_enum)]
    pub stage: Option<StageArg>,
    /// Print the CSIR dump (docs/csir.md "IR dump").
    #[arg(long)]
    pub ir: bool,
    /// Print the TGSI text for VirGL (no varying remap: the shader alone).
    #[arg(long)]
    pub tgsi: bool,
    /// Print CSIR and TGSI side by side, marking instructions whose TGSI semantics
    /// differ from the interpreter's on exceptional values (RCP(0), POW, MIN/MAX with NaN).
    #[arg(long)]
    pub parity: bool,
    /// Check the TGSI against VirGL's command budget (the original's 3600 bytes).
    #[arg(long, requires = "tgsi")]
    pub budget: Option<usize>,
    /// Also save the compiled shader as CSI to this file, in the format --csi-version
    /// names (default 2, the hardened binary that `render` and `inspect` load whole).
    #[arg(long, value_name = "OUT.csi")]
    pub csi: Option<PathBuf>,
    /// CSI format of --csi: 2 (default: the whole shader, interface names included,
    /// CRC-32 over every byte) or 1 (the seed's format: records, immediates and
    /// temporary count only, so a scene cannot link it; an error for a shader with
    /// extended-profile instructions).
    #[arg(long, value_name = "1|2", requires = "csi",
          value_parser = clap::value_parser!(u32).range(1..=2), default_value_t = 2)]
    pub csi_version: u32,
    /// Also save it as CSI v1 to this file (the same as `--csi OUT --csi-version 1`;
    /// kept so that one run can write both versions).
    #[arg(long, value_name = "OUT.csi")]
    pub csi_v1: Option<PathBuf>,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
}

/// `--stage` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StageArg {
    Vert,
    Frag,
    Geom,
}

/// The stage named by `--stage`, else by the extension `.vert` / `.frag` / `.geom`.
pub fn stage_of(file: &std::path::Path, arg: Option<StageArg>) -> Result<Stage, String> {
    match arg {
        Some(StageArg::Vert) => Ok(Stage::Vertex),
        Some(StageArg::Frag) => Ok(Stage::Fragment),
        Some(StageArg::Geom) => Ok(Stage::Geometry),
        None => match file
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("vert") => Ok(Stage::Vertex),
            Some("frag") => Ok(Stage::Fragment),
            Some("geom") => Ok(Stage::Geometry),
            Some("csi") => Err(format!(
                "{}: a compiled shader (CSI), not GLSL source: `csir-render inspect` shows \
                 what a CSI file holds",
                file.display()
            )),
            _ => Err(format!(
                "{}: cannot tell the stage from the extension; use --stage vert|frag|geom",
                file.display()
            )),
        },
    }
}

/// Whether two output paths are one file: the same name in the same folder (however
/// the folder is spelled), or an existing file reached both ways (a link,
/// `file_write::same_file`).
fn same_output(a: &std::path::Path, b: &std::path::Path) -> bool {
    let place = |p: &std::path::Path| {
        let folder = p.parent().filter(|f| !f.as_os_str().is_empty());
        let folder = folder
            .unwrap_or(std::path::Path::new("."))
            .canonicalize()
            .ok()?;
        Some(folder.join(p.file_name()?))
    };
    a == b
        || place(a).is_some_and(|x| Some(x) == place(b))
        || csir_render::file_write::same_file(a, b)
}

/// Run `compile`: exit 0 and print the requested dumps, or print the diagnostics and exit 1.
pub fn run(args: &CompileArgs) -> ExitCode {
    let stage = match stage_of(&args.file, args.stage) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let limits = args.profile.limits();
    if let Err(e) = super::out::reserve_stdout(
        &[
            ("--csi", args.csi.as_deref()),
            ("--csi-v1", args.csi_v1.as_deref()),
        ],
        &[
            ("--ir", args.ir),
            ("--tgsi", args.tgsi),
            ("--parity", args.parity),
        ],
    ) {
        return fail(e);
    }
    if let (Some(v2), Some(v1)) = (&args.csi, &args.csi_v1)
        && same_output(v2, v1)
    {
        return fail(format!(
            "--csi {} and --csi-v1 {} name the same file: one would replace the other",
            v2.display(),
            v1.display()
        ));
    }
    for csi in [&args.csi, &args.csi_v1].into_iter().flatten() {
        if let Err(e) =
            csir_render::file_write::refuse_inputs(csi, &[(&args.file, "the shader source")])
        {
            return fail(e);
        }
    }
    let source = match super::read_shader_source(&args.file, &limits) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let name = args.file.display().to_string();
    match csir::compile(&source, &name, stage, &limits) {
        Ok(shader) => {
            let save_csi: fn(&csir::Shader) -> _ = match args.csi_version {
                1 => csir::save_csi_v1,
                _ => csir::save_csi,
            };
            let saves: [(_, fn(&csir::Shader) -> _); 2] =
                [(&args.csi, save_csi), (&args.csi_v1, csir::save_csi_v1)];
            for (path, save) in saves {
                let Some(path) = path else { continue };
                let written = save(&shader)
                    .map_err(|e| format!("{}: {e}", path.display()))
                    .and_then(|bytes| {
                        csir_render::file_write::write_file(path, &bytes).map_err(|e| e.to_string())
                    });
                if let Err(e) = written {
                    return fail(e);
                }
            }
            let mut printed = false;
            if args.ir {
                out!("{}", csir::ir::dump(&shader));
                printed = true;
            }
            if args.tgsi {
                match csir::emit_tgsi(&shader, None, args.budget) {
                    Ok(text) => out!("{text}"),
                    Err(e) => return fail(format!("{name}: {e}")),
                }
                printed = true;
            }
            if args.parity {
                match csir::parity_dump(&shader, None) {
                    Ok(text) => out!("{text}"),
                    Err(e) => return fail(format!("{name}: {e}")),
                }
                printed = true;
            }
            if !printed {
                outln!(
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
            err!("{errors}");
            ExitCode::from(1)
        }
    }
}
