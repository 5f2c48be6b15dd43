//! `csir-render render [SCENE.json] [-o OUT.png] [--threads N] [--frames N]
//! [--backend cpu|virgl|gl] [--gl-device N]`.

use super::fail;
use clap::{Args, ValueEnum};
use csir_raster::{Framebuffer, Renderer};
use csir_render::cpu_time::{ms_per_frame_since, process_cpu_ns};
use csir_render::file_write::{check_writable, refuse_inputs};
use csir_render::gl::render_scene_gl;
use csir_render::image_io::write_png;
use csir_render::pipeline::{Frame, PreparedScene, RenderError, with_threads};
use csir_render::scene::Scene;
use csir_render::virgl::{VirglOptions, render_scene_virgl};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Scene file (`csir-scene/1` JSON). Without it, the built-in lit textured cube.
    pub scene: Option<PathBuf>,
    /// Output PNG; default: the scene's file name with `.png`, in the current folder
    /// (`default_cube.png` for the built-in scene).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Worker threads (default: one per CPU). The image does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// After the first frame, render N more and print the median time per frame
    /// (clear + draws into one reused framebuffer, as peer-render times llvmpipe:
    /// reading the pixels back and the PNG are not timed).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frames: Option<u32>,
    /// Who draws: `cpu` (this renderer), `virgl`, a private virgl_test_server
    /// (Debian's virgl-server) fed our TGSI over its socket, or `gl`, the system's
    /// OpenGL driver (Mesa's llvmpipe without a GPU) drawing the scene as written.
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    #[command(flatten)]
    pub gl: super::GlDeviceArgs,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
    #[command(flatten)]
    pub memory: super::MemoryArgs,
}

/// The renderer that draws the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The CPU rasterizer and the CSIR interpreter.
    Cpu,
    /// A VirGL host: `virgl_test_server --use-egl-surfaceless`, started for the render
    /// on a temporary socket and stopped after it.
    Virgl,
    /// The system's OpenGL 3.3 through EGL, with no window (docs/gl-backend.md).
    Gl,
}

/// Run `render`: write the PNG and print a one-line summary, or print the error and
/// exit 1 without writing anything.
pub fn run(args: &RenderArgs) -> ExitCode {
    let load_start = Instant::now();
    let scene = match super::load_scene(
        args.scene.as_deref(),
        &args.memory,
        csir_render::budget::FrameUse::Render,
    ) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let load = load_start.elapsed();
    let output = output_path(args);
    if let Err(e) =
        refuse_inputs(&output, &scene.input_files()).and_then(|()| check_writable(&output))
    {
        return fail(e);
    }
    if args.gl.gl_device.is_some() && args.backend != Backend::Gl {
        errln!("error: --gl-device applies to --backend gl only");
        return ExitCode::from(2);
    }
    match args.backend {
        Backend::Virgl => return render_virgl(args, &scene, &output),
        Backend::Gl => return render_gl(args, &scene, &output, load),
        Backend::Cpu => {}
    }
    let prepare_start = Instant::now();
    let prepared = match PreparedScene::new(&scene, &args.profile.limits()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let prepare = prepare_start.elapsed();
    for note in prepared.vertex_input_notes() {
        errln!("note: {}: {note}", shown_scene(args));
    }
    let threads = args.threads.map(|t| t as usize);
    let frames = args.frames.unwrap_or(0) as usize;
    let (frame, mut timing) =
        match with_threads(threads, || render_timed(&prepared, frames)).and_then(|r| r) {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
    timing.load = load;
    timing.prepare = prepare;
    write_and_summarize(args, &output, &frame, &timing)
}

/// Write the frame's PNG to `output`, then print the summary line (and the timed
/// frames' line after `--frames`).
fn write_and_summarize(
    args: &RenderArgs,
    output: &Path,
    frame: &Frame,
    timing: &Timing,
) -> ExitCode {
    let image = &frame.image;
    if let Err(e) = write_png(output, image.width(), image.height(), image.pixels()) {
        return fail(e);
    }
    if let Err(e) = write_target_files(output, &frame.targets) {
        return fail(e);
    }
    summary(
        output,
        format_args!(
            "{}: {}x{}, {}, {:.2} ms (load {:.2} ms, prepare {:.2} ms) -> {}",
            shown_scene(args),
            image.width(),
            image.height(),
            counts(frame.draws.len(), frame.triangles()),
            timing.first.as_secs_f64() * 1e3,
            timing.load.as_secs_f64() * 1e3,
            timing.prepare.as_secs_f64() * 1e3,
            output.display()
        ),
    );
    if !timing.frames_ms.is_empty() {
        let threads = args.threads.map(|t| t as usize);
        summary(output, format_args!("{}", timing.frames_line(threads)));
    }
    ExitCode::SUCCESS
}

/// Writes each target of a scene with `targets` beside `output` (`OUT.png`): target
/// `k` ≥ 1 as `OUT.k.png`, a float or integer target (also target 0) as OpenEXR,
/// `OUT.exr` / `OUT.k.exr` (docs/scene-format.md "Render targets"). `OUT.png`
/// itself holds target 0 as RGBA8. Nothing more for a scene without targets; with
/// `-o -` only target 0 is written.
fn write_target_files(
    output: &Path,
    targets: &[csir_render::pipeline::TargetImage],
) -> Result<(), csir_render::image_io::ImageIoError> {
    use csir_render::image_io::{target_file_path, write_exr};
    if output.as_os_str() == "-" {
        return Ok(());
    }
    for (k, t) in targets.iter().enumerate() {
        let class = t.target.format.class();
        let path = target_file_path(output, k, class);
        if class == csir_raster::TargetClass::Unorm {
            if k > 0 {
                write_png(&path, t.width, t.height, &t.to_rgba8())?;
            }
        } else {
            write_exr(&path, t)?;
        }
    }
    Ok(())
}

/// `-o`, or the scene's file name with `.png` in the current folder
/// (`default_cube.png` for the built-in scene).
fn output_path(args: &RenderArgs) -> PathBuf {
    args.output.clone().unwrap_or_else(|| {
        let stem = args
            .scene
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "default_cube".into());
        PathBuf::from(format!("{stem}.png"))
    })
}

/// How long the scene's loading and the frames of one `render` took.
struct Timing {
    /// Reading the scene: the JSON, its OBJ meshes, textures and shader sources
    /// (`Scene::load_within`).
    load: Duration,
    /// Compiling and linking the programs, binding uniforms and building the batch
    /// plans (`PreparedScene::new`).
    prepare: Duration,
    /// The first frame, pixels read back included.
    first: Duration,
    /// Each of the `--frames` timed frames, in milliseconds (empty without `--frames`).
    frames_ms: Vec<f64>,
    /// CPU time of every thread of the process per timed frame, in milliseconds
    /// (Linux only).
    cpu_ms: Option<f64>,
}

impl Timing {
    /// `frames: N, median M ms/frame, min m ms, threads: T[, cpu C ms/frame]` (for a
    /// non-empty `frames_ms`).
    fn frames_line(&self, threads: Option<usize>) -> String {
        let threads = threads.map_or_else(
            || rayon::current_num_threads().to_string(),
            |t| t.to_string(),
        );
        self.frames_line_with(&threads)
    }

    /// [`Timing::frames_line`] with the threads as given (`threads: 2`).
    fn frames_line_with(&self, threads: &str) -> String {
        let mut times = self.frames_ms.clone();
        times.sort_by(f64::total_cmp);
        let median = if times.len() % 2 == 1 {
            times[times.len() / 2]
        } else {
            (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
        };
        format!(
            "frames: {}, median {:.3} ms/frame, min {:.3} ms, threads: {}{}",
            times.len(),
            median,
            times[0],
            threads,
            self.cpu_ms
                .map_or_else(String::new, |c| format!(", cpu {c:.3} ms/frame"))
        )
    }
}

/// Render the frame to write, then `frames` more into one reused framebuffer, timing
/// each (a progress line on a terminal's stderr for more than one).
fn render_timed(
    prepared: &PreparedScene<'_>,
    frames: usize,
) -> Result<(Frame, Timing), RenderError> {
    let mut renderer = Renderer::new();
    let start = Instant::now();
    let frame = prepared.render(&mut renderer)?;
    let first = start.elapsed();
    let mut frames_ms = Vec::with_capacity(frames);
    let progress = frames > 1 && std::io::stderr().is_terminal();
    let mut framebuffer = Framebuffer::new(frame.image.width(), frame.image.height())?;
    let cpu_start = process_cpu_ns();
    for i in 0..frames {
        let t = Instant::now();
        prepared.render_into(&mut renderer, &mut framebuffer)?;
        frames_ms.push(t.elapsed().as_secs_f64() * 1e3);
        if progress {
            err!("\rframe {}/{frames}", i + 1);
        }
    }
    // CPU time of every thread of the process over the timed frames (Linux).
    let cpu_ms = ms_per_frame_since(cpu_start, frames);
    if progress {
        err!("\r\x1b[K");
    }
    let timing = Timing {
        load: Duration::ZERO,
        prepare: Duration::ZERO,
        first,
        frames_ms,
        cpu_ms,
    };
    Ok((frame, timing))
}

/// `render --backend virgl`: the frame drawn by a private VirGL host, the same
/// summary line with the host named.
fn render_virgl(args: &RenderArgs, scene: &Scene, output: &Path) -> ExitCode {
    if args.frames.is_some() || args.threads.is_some() {
        errln!("error: --frames and --threads apply to --backend cpu only");
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let options = VirglOptions {
        limits: args.profile.limits(),
        ..VirglOptions::default()
    };
    let frame = match render_scene_virgl(scene, &options) {
        Ok(frame) => frame,
        Err(e) => return fail(e),
    };
    let elapsed = start.elapsed();
    let image = &frame.image;
    if let Err(e) = write_png(output, image.width(), image.height(), image.pixels()) {
        return fail(e);
    }
    if let Err(e) = write_target_files(output, &frame.targets) {
        return fail(e);
    }
    summary(
        output,
        format_args!(
            "{}: {}x{}, {}, virgl ({} shader packet{}), {:.2} ms -> {}",
            shown_scene(args),
            image.width(),
            image.height(),
            counts(frame.draws, frame.triangles),
            frame.shader_packets,
            if frame.shader_packets == 1 { "" } else { "s" },
            elapsed.as_secs_f64() * 1e3,
            output.display()
        ),
    );
    ExitCode::SUCCESS
}

/// `render --backend gl`: the frame drawn by the system's OpenGL driver, the summary
/// line naming it (`GL_RENDERER`, `GL_VERSION`), and the timed frames' line after
/// `--frames` (each frame ended by `glFinish`).
fn render_gl(args: &RenderArgs, scene: &Scene, output: &Path, load: Duration) -> ExitCode {
    if args.threads.is_some() {
        errln!(
            "error: --threads applies to --backend cpu; a GL driver picks its own threads \
             (llvmpipe: LP_NUM_THREADS=N)"
        );
        return ExitCode::from(2);
    }
    if let Some(e) = args.profile.gl_refusal() {
        errln!("error: {e}");
        return ExitCode::from(2);
    }
    let options = args.gl.options(args.frames.unwrap_or(0) as usize);
    let render = match render_scene_gl(scene, &options) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let image = &render.image;
    if let Err(e) = write_png(output, image.width(), image.height(), image.pixels()) {
        return fail(e);
    }
    if let Err(e) = write_target_files(output, &render.targets) {
        return fail(e);
    }
    let triangles: u64 = scene.draws.iter().map(|d| d.indices.len() as u64 / 3).sum();
    summary(
        output,
        format_args!(
            "{}: {}x{}, {}, {} ({}), {:.2} ms (load {:.2} ms, open driver {:.2} ms, prepare {:.2} ms) -> {}",
            shown_scene(args),
            image.width(),
            image.height(),
            counts(scene.draws.len(), triangles),
            render.driver.renderer,
            render.driver.version,
            render.first.as_secs_f64() * 1e3,
            load.as_secs_f64() * 1e3,
            render.open.as_secs_f64() * 1e3,
            render.prepare.as_secs_f64() * 1e3,
            output.display()
        ),
    );
    if !render.frames_ms.is_empty() {
        let timing = Timing {
            load,
            prepare: render.prepare,
            first: render.first,
            frames_ms: render.frames_ms,
            cpu_ms: render.cpu_ms,
        };
        let threads = std::env::var("LP_NUM_THREADS").unwrap_or_else(|_| "the driver's".into());
        summary(
            output,
            format_args!("{}", timing.frames_line_with(&threads)),
        );
    }
    ExitCode::SUCCESS
}

/// The scene as the summary line names it.
fn shown_scene(args: &RenderArgs) -> String {
    match &args.scene {
        Some(path) => path.display().to_string(),
        None => "built-in default scene (lit textured cube)".to_string(),
    }
}

/// `N draw(s), M triangle(s)`.
fn counts(draws: usize, triangles: u64) -> String {
    format!(
        "{draws} draw{}, {triangles} triangle{}",
        if draws == 1 { "" } else { "s" },
        if triangles == 1 { "" } else { "s" }
    )
}

/// Print a summary line: to stdout, or to stderr when the image itself goes to stdout
/// (`-o -`), so that the PNG stream stays a PNG.
fn summary(output: &Path, line: std::fmt::Arguments<'_>) {
    if output.as_os_str() == "-" {
        errln!("{line}");
    } else {
        outln!("{line}");
    }
}
