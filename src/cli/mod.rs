//! The command line: one file per subcommand; each returns the process exit code
//! (0 success, 1 failure of the job, 2 bad usage — clap's own convention).

#[macro_use]
mod out;
mod check;
mod compile;
mod diff;
mod inspect;
mod render;
mod report;
mod run;
mod shader_test;
mod trace;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// CPU reference renderer built around CSIR (Chris Shader IR).
#[derive(Parser, Debug)]
#[command(name = "csir-render", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile one shader; print errors as FILE:LINE:COL: error: MESSAGE and exit 1 on failure.
    Compile(compile::CompileArgs),
    /// Show what a CSI file (v1 or v2) holds: header, checksum status, profile, flags,
    /// limits, interface and the IR dump; a file the loader rejects gives its error
    /// (byte offset and reason) and exit 1.
    Inspect(inspect::InspectArgs),
    /// Render a scene (or the built-in cube) to PNG and print a one-line summary.
    Render(render::RenderArgs),
    /// Compare two PNGs: max difference, mean abs error, PSNR, pixels over tolerance,
    /// the project's tolerance rule's verdict (exit 0 when every pixel is within
    /// --tolerance, 1 over it, 2 when they cannot be compared).
    Diff(diff::DiffArgs),
    /// Run one shader invocation on given inputs; print its outputs (and, with --trace,
    /// every executed instruction).
    Run(run::RunArgs),
    /// Render every scene of a suite and compare each with its reference image by the
    /// tolerance rule; report as text, JSON, JUnit XML and an HTML page (exit 0 all
    /// passed, 1 some failed, 2 some could not be checked).
    Check(check::CheckArgs),
    /// Explain one pixel of a scene: the triangles covering it, depth test, varyings,
    /// the fragment shader's instruction trace, discard and blending.
    Trace(trace::TraceArgs),
    /// Run piglit shader_runner tests (.shader_test files or folders of them): pass,
    /// fail (first wrong pixel), skip (what is missing) or error, and a summary line
    /// (exit 1 when a test failed or errored).
    ShaderTest(shader_test::ShaderTestArgs),
}

/// Parse the arguments and run the chosen subcommand.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    // SIGINT, SIGTERM or SIGHUP: remove the hidden temporaries of outputs being written
    // (`file_write`) and stop a private VirGL server (its socket and process), then exit
    // as a shell reports an interrupted command (128 + SIGINT).
    let _ = ctrlc::set_handler(|| {
        csir_render::file_write::remove_temporaries();
        csir_virgl::stop_all_servers();
        std::process::exit(130);
    });
    let status = match cli.command {
        Command::Compile(args) => compile::run(&args),
        Command::Inspect(args) => inspect::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Check(args) => check::run(&args),
        Command::ShaderTest(args) => shader_test::run(&args),
    };
    out::exit_status(status)
}

/// The scene at `path`, or the built-in default scene (the lit textured cube) when no
/// path is given — what `render` and `trace` draw — within `memory`'s limit for a frame
/// drawn as `frame_use` says ([`csir_render::budget`]: checked before the framebuffer
/// or a texture is allocated).
pub(crate) fn load_scene(
    path: Option<&std::path::Path>,
    memory: &MemoryArgs,
    frame_use: csir_render::budget::FrameUse,
) -> Result<csir_render::scene::Scene, csir_render::scene::SceneError> {
    use csir_render::budget::MemoryEstimate;
    use csir_render::scene::{DEFAULT_CUBE_START_ANGLE, Scene};
    match path {
        Some(path) => Scene::load_for(path, memory.limit(), frame_use),
        None => {
            let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
            let mut need = MemoryEstimate::frame_for(scene.width, scene.height, frame_use);
            need.textures = scene
                .textures
                .iter()
                .map(|t| MemoryEstimate::texture_bytes(t.texture.width(), t.texture.height()))
                .sum();
            need.geometry = scene
                .draws
                .iter()
                .map(|d| {
                    let triangles = d.indices.len() as u64 / 3;
                    MemoryEstimate::geometry_bytes(triangles, u64::from(d.vertex_count))
                })
                .sum();
            need.check(memory.limit())
                .map_err(|e| scene.error("", e.to_string()))?;
            Ok(scene)
        }
    }
}

/// `--max-memory`: the memory limit of a render (framebuffer, read-back, textures and
/// geometry; [`csir_render::budget`]).
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct MemoryArgs {
    /// Largest memory the render may take for its framebuffer, read-back image,
    /// textures and geometry (160 bytes per triangle, 96 per vertex), estimated before
    /// allocating: bytes, or with a unit K, M, G, T (binary). The default is 4G (a
    /// 16384x16384 frame, 3 GiB, and 1 GiB of textures and geometry), or less on a
    /// machine that gives the process less: 7/8 of its cgroup's memory limit and of
    /// MemAvailable, 3/4 of RLIMIT_AS, whichever is smallest. Over it: an error naming
    /// the need and the limit (render and trace write nothing; check reports the scene
    /// as an error).
    #[arg(long, value_name = "BYTES", value_parser = csir_render::budget::parse_bytes)]
    pub max_memory: Option<u64>,
}

impl MemoryArgs {
    /// The limit in bytes: `--max-memory`, else this machine's default
    /// ([`csir_render::budget::default_max_memory`]).
    pub(crate) fn limit(&self) -> u64 {
        self.max_memory
            .unwrap_or_else(csir_render::budget::default_max_memory)
    }
}

/// The text of the shader source file `path`, reading at most the compiler's source
/// limit (`limits.source_bytes`), or a `PATH: what is wrong` message (cannot be read,
/// not a regular file or pipe, larger than the limit, not UTF-8 text with the position
/// of the first invalid byte).
pub(crate) fn read_shader_source(
    path: &std::path::Path,
    limits: &csir::Limits,
) -> Result<String, String> {
    let limit = u64::try_from(limits.source_bytes).unwrap_or(u64::MAX);
    csir_render::file_read::read_text_bounded(path, limit)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `--profile`: which CSIR the shaders compile to (`docs/architecture.md`,
/// "Profiles"). Every command that compiles shaders takes it; the default is the
/// renderer's, the extended profile.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct ProfileArgs {
    /// CSIR profile: `extended` (32-bit integers and the larger GL 3.0-sized limits,
    /// the default) or `seed` (exactly the seed's CSIR and limits: 384 instructions,
    /// 8 varying and 32 uniform vec4s, integers as floats).
    #[arg(long, value_enum, default_value_t = ProfileArg::Extended)]
    pub profile: ProfileArg,
}

/// The `--profile` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ProfileArg {
    /// The seed's CSIR and limits.
    Seed,
    /// The extended profile (the default).
    Extended,
}

impl ProfileArgs {
    /// The chosen profile.
    pub fn profile(&self) -> csir::Profile {
        match self.profile {
            ProfileArg::Seed => csir::Profile::Seed,
            ProfileArg::Extended => csir::Profile::Extended,
        }
    }

    /// The chosen profile's limits.
    pub fn limits(&self) -> csir::Limits {
        self.profile().limits()
    }

    /// Why a GL driver cannot draw with this profile: the seed profile's rules
    /// (float-valued integers, its limits) are CSIR's, which a driver's compiler does
    /// not follow. `None` for the extended profile.
    pub fn gl_refusal(&self) -> Option<&'static str> {
        (self.profile == ProfileArg::Seed).then_some(
            "--profile seed: a GL driver compiles the GLSL by GLSL's own rules; the seed \
             profile's (float-valued integers, the seed's limits) are CSIR's alone",
        )
    }
}

/// `--gl-device`: which EGL device `--backend gl` draws on.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct GlDeviceArgs {
    /// With `--backend gl`: draw on device N of EGL's device list
    /// (eglQueryDevicesEXT; a GPU's DRM node, or Mesa's software device) instead of
    /// the driver EGL picks itself. A number past the list is an error that lists the
    /// devices.
    #[arg(long, value_name = "N")]
    pub gl_device: Option<usize>,
    /// With a GL driver: the longest it may take to draw a scene's frames, in seconds
    /// (a GL call cannot be interrupted: past it the program stops with an error naming
    /// the scene).
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0,
          value_parser = parse_seconds)]
    pub gl_timeout: f64,
}

impl GlDeviceArgs {
    /// The GL back end's options for these flags, timing `frames` frames.
    pub fn options(&self, frames: usize) -> csir_render::gl::GlOptions {
        csir_render::gl::GlOptions {
            device: self.gl_device,
            frames,
            timeout: Some(std::time::Duration::from_secs_f64(self.gl_timeout)),
        }
    }
}

/// A positive number of seconds, at most a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds in (0, 86400]")),
    }
}

/// Print `error: MESSAGE` to stderr and return exit code 1.
pub(crate) fn fail(message: impl std::fmt::Display) -> ExitCode {
    fail_with(1, message)
}

/// Exit status of `diff` and `check` when the job cannot be done at all (an image
/// that cannot be read, a scene that cannot be checked, an output that cannot be
/// written): 2, as for bad usage, apart from 1 = "the images differ".
pub(crate) const CANNOT_COMPARE: u8 = 2;

/// Print `error: MESSAGE` to stderr and return exit code `code`.
pub(crate) fn fail_with(code: u8, message: impl std::fmt::Display) -> ExitCode {
    errln!("error: {message}");
    ExitCode::from(code)
}
