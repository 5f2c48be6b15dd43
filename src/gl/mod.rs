//! The reference back end: a scene drawn by the system's OpenGL (`--backend gl`),
//! through [`csir_gl`]: Mesa's llvmpipe, the project's reference for pixels, or any
//! driver EGL offers (docs/gl-backend.md).
//!
//! ```text
//! Scene ──frame.rs──▶ csir_gl::FrameDesc (every key as the GL call it names)
//!       ──csir_gl───▶ the driver compiles the GLSL as written, draws, reads back
//!                     ──▶ RGBA8, top row first
//! ```
//!
//! ```no_run
//! use csir_render::gl::{GlOptions, render_scene_gl};
//! use csir_render::scene::Scene;
//! let scene = Scene::load("reference-images/lit_cube.json")?;
//! let render = render_scene_gl(&scene, &GlOptions::default())?;
//! println!("{}", render.driver.renderer); // "llvmpipe (LLVM 15.0.6, 256 bits)"
//! assert_eq!(render.image.width(), 320);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fragment_ops;
mod frame;
mod targets;
mod textures33;

pub use frame::{frame_desc, profile};

use crate::image_io::Rgba8Image;
use crate::pipeline::PreparedScene;
use crate::scene::{Scene, SceneError};
use csir_gl::{Driver, DriverInfo, DriverOptions, GlError, Place, Platform};
use std::time::{Duration, Instant};

/// How to draw through OpenGL.
#[derive(Clone, Debug, Default)]
pub struct GlOptions {
    /// `--gl-device N`: device `N` of EGL's device list, or `None` for the driver the
    /// EGL implementation picks itself (with Mesa: `LIBGL_ALWAYS_SOFTWARE`,
    /// `GALLIUM_DRIVER`, `MESA_LOADER_DRIVER_OVERRIDE`).
    pub device: Option<usize>,
    /// Frames to draw and time after the first (`render --frames N`), each the clear
    /// and every draw, ended by `glFinish`.
    pub frames: usize,
    /// The longest the driver may take to draw the frames (`--gl-timeout`), or `None`
    /// for no limit. A GL call cannot be interrupted, so past it **the process ends**,
    /// with exit status 1 and `error: SCENE: the GL driver has not finished ...` on
    /// stderr: a shader that never ends (a loop on a uniform that is 0) would
    /// otherwise hang the program, and a whole `check` run with it.
    pub timeout: Option<Duration>,
}

/// A frame a GL driver drew.
#[derive(Clone, Debug)]
pub struct GlRender {
    /// The colour buffer: the scene's size, RGBA8, top row first (target 0 of a
    /// scene with `targets`).
    pub image: Rgba8Image,
    /// Every target of a scene with `targets` or `framebuffer_srgb`, read back with
    /// its format (empty otherwise).
    pub targets: Vec<crate::pipeline::TargetImage>,
    /// What the driver says it is (`GL_RENDERER`, `GL_VERSION`).
    pub driver: DriverInfo,
    /// Opening the driver: loading EGL and the driver, creating the context.
    pub open: Duration,
    /// The scene's checks, then the driver compiling and linking the programs and
    /// the uploads of textures and vertex arrays.
    pub prepare: Duration,
    /// The first frame (with the driver's shader compile, for a JIT such as
    /// llvmpipe's), ended by `glFinish`.
    pub first: Duration,
    /// Each timed frame after it, in milliseconds.
    pub frames_ms: Vec<f64>,
    /// CPU time of every thread of the process (the driver's included) per timed
    /// frame, in milliseconds (Linux; `None` without timed frames).
    pub cpu_ms: Option<f64>,
}

/// Why a scene could not be drawn through OpenGL. Nothing is written when this is
/// returned.
#[derive(Debug, thiserror::Error)]
pub enum GlRenderError {
    /// Something about a field of the scene: a shader the driver does not compile
    /// (with its info log), a uniform the program does not declare, state the
    /// context cannot express, a GL error after a named call.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// No driver: no EGL library (the message names the Debian packages), no device,
    /// no OpenGL 3.3 context.
    #[error(transparent)]
    Driver(GlError),
}

/// Draw `scene` on a GL driver: check it ([`Scene::validate`]), open a context (core, or compatibility when the
/// shaders are GLSL 1.10/1.20), prepare the frame, draw it once (checking for GL
/// errors after every draw), read it back, then draw and time `options.frames` more.
///
/// # Errors
/// [`GlRenderError`].
pub fn render_scene_gl(scene: &Scene, options: &GlOptions) -> Result<GlRender, GlRenderError> {
    // a scene built or changed in code is held to a scene file's rules first
    scene.validate()?;
    on_a_thread_of_its_own(|| render_on_this_thread(scene, options))
}

/// Run `job`, which uses EGL and GL, on a thread started for it and joined before this
/// returns. The driver keeps state per thread (EGL's thread info, the current
/// dispatch), which it frees in the thread's exit handlers: a thread that uses the
/// driver and lives on, a worker of a thread pool, would exit while the process exits,
/// its handlers freeing that state while the process's own exit handlers tear the
/// driver down (a `check --backend gl` run ended in "double free or corruption" so).
/// A thread of its own ends, handlers and all, before the caller goes on.
fn on_a_thread_of_its_own<T: Send>(job: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| match scope.spawn(job).join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// [`render_scene_gl`]'s work, on the calling thread.
fn render_on_this_thread(scene: &Scene, options: &GlOptions) -> Result<GlRender, GlRenderError> {
    let start = Instant::now();
    let checked_by_cpu = check_as_the_cpu_renderer(scene)?;
    let profile = profile(scene);
    let desc = frame_desc(scene, profile, checked_by_cpu.as_ref())?;
    let checked = start.elapsed();
    let _one_context = one_context();
    let start = Instant::now();
    let driver = Driver::open(&driver_options(options, profile)).map_err(GlRenderError::Driver)?;
    let open = start.elapsed();
    let start = Instant::now();
    let located = |e: GlError| located(scene, e);
    let prepared = driver.prepare(&desc).map_err(located)?;
    let prepare = checked + start.elapsed();
    let _watchdog = options.timeout.map(|t| Watchdog::start(scene, t));
    let start = Instant::now();
    prepared.draw(true).map_err(located)?;
    driver.finish();
    let first = start.elapsed();
    let (width, height) = prepared.size();
    let targets = targets::read_targets(scene, &prepared);
    let pixels = match targets.first() {
        Some(first) => target_rgba8(first),
        None => prepared.read_rgba8(),
    };
    let mut frames_ms = Vec::with_capacity(options.frames);
    let cpu_start = crate::cpu_time::process_cpu_ns();
    for _ in 0..options.frames {
        let t = Instant::now();
        prepared.draw(false).map_err(located)?;
        driver.finish();
        frames_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let cpu_ms = crate::cpu_time::ms_per_frame_since(cpu_start, options.frames);
    let image = Rgba8Image::new(width, height, pixels)
        .ok_or_else(|| scene.error("", "the driver read back an image of the wrong size"))?;
    Ok(GlRender {
        image,
        targets,
        driver: driver.info().clone(),
        open,
        prepare,
        first,
        frames_ms,
        cpu_ms,
    })
}

/// A target's values as RGBA8 bytes (`TargetImage::to_rgba8`).
fn target_rgba8(t: &crate::pipeline::TargetImage) -> Vec<u8> {
    t.to_rgba8()
}

/// The checks the CPU renderer makes of a scene (uniform and sampler names, types and
/// counts, the program's link, clip planes against `gl_ClipDistance`: what
/// [`PreparedScene::new`] refuses), made before the driver draws, so that a scene is
/// refused by both back ends alike and no reference is made from a frame OpenGL leaves
/// undefined. Returns the prepared scene (its linked programs locate the vertex
/// inputs), or `None` when this renderer cannot compile one of the shaders (a
/// construct it lacks): then the driver's compiler and checks decide alone.
///
/// # Errors
/// The CPU renderer's [`SceneError`] for the scene.
pub fn check_as_the_cpu_renderer(scene: &Scene) -> Result<Option<PreparedScene<'_>>, SceneError> {
    let limits = csir::Profile::Extended.limits();
    let error = match PreparedScene::new(scene, &limits) {
        Ok(prepared) => return Ok(Some(prepared)),
        Err(error) => error,
    };
    // Only a scene whose shaders all compile here is refused by this renderer's rules.
    let compiles = |s: &crate::scene::ShaderSource, stage| {
        s.csi.is_some()
            || csir::compile(&s.text, &s.path.display().to_string(), stage, &limits).is_ok()
    };
    let all_compile = scene.draws.iter().all(|d| {
        compiles(&d.vertex, csir::Stage::Vertex) && compiles(&d.fragment, csir::Stage::Fragment)
    });
    if all_compile { Err(error) } else { Ok(None) }
}

/// The driver `options` names, with a context of `profile`.
fn driver_options(options: &GlOptions, profile: csir_gl::ProfileChoice) -> DriverOptions {
    DriverOptions {
        platform: options.device.map_or(Platform::Default, Platform::Device),
        profile,
    }
}

/// What the driver `options` names says it is (a core context is opened and closed).
///
/// # Errors
/// [`GlError`]: no EGL library, no such device, no OpenGL 3.3 context.
pub fn driver_info(options: &GlOptions) -> Result<DriverInfo, GlError> {
    on_a_thread_of_its_own(|| {
        let _one_context = one_context();
        let driver = Driver::open(&driver_options(options, csir_gl::ProfileChoice::Core))?;
        Ok(driver.info().clone())
    })
}

/// Ends the process if it is not dropped within its time: see [`GlOptions::timeout`].
struct Watchdog {
    /// Dropped with the watchdog: its thread then sees the channel close and ends.
    _done: std::sync::mpsc::Sender<()>,
}

impl Watchdog {
    /// Start watching the frames of `scene` for `timeout`.
    fn start(scene: &Scene, timeout: Duration) -> Watchdog {
        let (done, watch) = std::sync::mpsc::channel::<()>();
        let name = scene.path.display().to_string();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = watch.recv_timeout(timeout) {
                eprintln!(
                    "error: {name}: the GL driver has not finished the frame after {} s (a \
                     shader that does not end?); stopping, since a GL call cannot be \
                     interrupted (--gl-timeout sets the limit)",
                    timeout.as_secs_f64()
                );
                std::process::exit(1);
            }
        });
        Watchdog { _done: done }
    }
}

/// Held while a context is open: one GL context at a time in the process, so that
/// scenes checked in parallel do not each start the driver's own render threads.
fn one_context() -> std::sync::MutexGuard<'static, ()> {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A driver error about a part of the frame, as an error at the scene's field.
fn located(scene: &Scene, error: GlError) -> GlRenderError {
    let Some(place) = error.place().cloned() else {
        return GlRenderError::Driver(error);
    };
    let draw = |i: usize| scene.draws.get(i);
    let field = match &place {
        Place::Frame => String::new(),
        Place::Texture(i) => scene
            .textures
            .get(*i)
            .map_or_else(|| "textures".into(), |t| format!("textures.{}", t.name)),
        Place::Draw(i) => format!("draws[{i}]"),
        Place::Shader(i, stage) => format!("draws[{i}].{}", stage.name()),
        Place::Uniform(i, key) => draw(*i).map_or_else(String::new, |d| d.uniform_field(key)),
        Place::Sampler(i, name) => draw(*i).map_or_else(String::new, |d| d.sampler_field(name)),
    };
    GlRenderError::Scene(scene.error(field, error.to_string()))
}
