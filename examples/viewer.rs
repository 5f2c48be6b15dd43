//! The renderer live in a window: the built-in lit cube spinning, or a scene file with
//! its matrices turned about y.
//!
//! ```text
//! cargo run --release --example viewer --features window [-- SCENE.json]
//! ```
//!
//! Each frame goes through the library as any program would call it: the scene is
//! prepared once ([`PreparedScene::new`]), then per frame the animated uniforms are set
//! ([`PreparedScene::set_uniform`]) and the frame is drawn into a framebuffer of the
//! window's size ([`PreparedScene::render_into`]). This file only adds the window
//! (winit 0.30 + pixels 0.17, which copies the RGBA8 frame to the screen).
//!
//! Animated, in every draw whose program declares them: `uMVP`, `uModel` (mat4) and
//! `uNormalMat` (mat3) as the scene gives them, turned about the model's y axis;
//! `uTime` (float) = seconds since start. The built-in cube uses
//! [`default_cube_uniforms`] instead, spinning about the world's y axis.
//!
//! Esc or closing the window quits; every frame is rendered at the window's current size;
//! the title shows frames per second and milliseconds per frame. `VIEWER_SECS=N` quits
//! after N seconds.

use std::error::Error;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use csir::Limits;
use csir_raster::{Framebuffer, Renderer};
use csir_render::pipeline::PreparedScene;
use csir_render::scene::{
    DEFAULT_CUBE_START_ANGLE, DEFAULT_SCENE_NAME, Scene, UniformValue, default_cube_uniforms,
};
use glam::{Mat3, Mat4, Vec3};
use pixels::{Pixels, SurfaceTexture};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

/// How fast the model turns about y, in radians per second.
const SPIN: f32 = 0.8;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("viewer: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let scene = match std::env::args_os().nth(1) {
        Some(path) => Scene::load(path)?,
        None => Scene::default_cube(DEFAULT_CUBE_START_ANGLE),
    };
    let quit_after = match std::env::var("VIEWER_SECS") {
        Ok(secs) => Some(Duration::from_secs_f64(
            secs.parse()
                .map_err(|e| format!("VIEWER_SECS={secs}: {e}"))?,
        )),
        Err(_) => None,
    };
    let mut viewer = Viewer {
        prepared: PreparedScene::new(&scene, &Limits::default())?,
        renderer: Renderer::new(),
        shown: None,
        start: Instant::now(),
        quit_after,
        rate: Rate::new(),
        error: None,
    };
    EventLoop::new()?.run_app(&mut viewer)?;
    viewer.error.map_or(Ok(()), Err)
}

/// The uniforms the viewer animates in draw `draw`, `seconds` after the start, for a
/// framebuffer of aspect ratio `aspect` (width / height).
fn animated(scene: &Scene, draw: usize, seconds: f32, aspect: f32) -> Vec<UniformValue> {
    let time = UniformValue::floats("uTime", vec![seconds]);
    if scene.path.starts_with(DEFAULT_SCENE_NAME) {
        let angle = DEFAULT_CUBE_START_ANGLE + SPIN * seconds;
        return [default_cube_uniforms(angle, aspect).as_slice(), &[time]].concat();
    }
    let spin = Mat4::from_rotation_y(SPIN * seconds);
    // Keep the scene's vertical field of view when the window's shape differs.
    let scene_aspect = scene.width as f32 / scene.height as f32;
    let fit = Mat4::from_scale(Vec3::new(scene_aspect / aspect, 1.0, 1.0));
    let turned = |u: &UniformValue| {
        let v = &u.values;
        let values = match (u.key.as_str(), v.len()) {
            ("uMVP", 16) => (fit * Mat4::from_cols_slice(v) * spin)
                .to_cols_array()
                .to_vec(),
            ("uModel", 16) => (Mat4::from_cols_slice(v) * spin).to_cols_array().to_vec(),
            ("uNormalMat", 9) => (Mat3::from_cols_slice(v) * Mat3::from_mat4(spin))
                .to_cols_array()
                .to_vec(),
            _ => return None,
        };
        Some(UniformValue::floats(u.key.clone(), values))
    };
    let given = &scene.draws[draw].uniforms;
    given.iter().filter_map(turned).chain([time]).collect()
}

/// The viewer: a prepared scene and, once the event loop has started, its window.
struct Viewer<'s> {
    prepared: PreparedScene<'s>,
    renderer: Renderer,
    shown: Option<Shown>,
    start: Instant,
    quit_after: Option<Duration>,
    rate: Rate,
    /// Why the viewer stopped early; `main` returns it.
    error: Option<Box<dyn Error>>,
}

/// The window, its pixel surface and a framebuffer of the same size.
struct Shown {
    window: Arc<Window>,
    pixels: Pixels<'static>,
    framebuffer: Framebuffer,
}

impl Shown {
    fn new(el: &ActiveEventLoop, scene: &Scene) -> Result<Shown, Box<dyn Error>> {
        let attributes = Window::default_attributes()
            .with_title("csir viewer")
            .with_inner_size(PhysicalSize::new(scene.width, scene.height));
        let window = Arc::new(el.create_window(attributes)?);
        let PhysicalSize { width, height } = window.inner_size();
        let surface = SurfaceTexture::new(width, height, window.clone());
        Ok(Shown {
            pixels: Pixels::new(width, height, surface)?,
            framebuffer: Framebuffer::new(width, height)?,
            window,
        })
    }

    /// The window's size now (on X11 this asks the server).
    fn window_size(&self) -> PhysicalSize<u32> {
        self.window.inner_size()
    }

    fn size(&self) -> PhysicalSize<u32> {
        PhysicalSize::new(self.framebuffer.width(), self.framebuffer.height())
    }

    /// Render and present at `size` from now on.
    fn resize(&mut self, size: PhysicalSize<u32>) -> Result<(), Box<dyn Error>> {
        self.pixels.resize_surface(size.width, size.height)?;
        self.pixels.resize_buffer(size.width, size.height)?;
        self.framebuffer = Framebuffer::new(size.width, size.height)?;
        Ok(())
    }
}

impl Viewer<'_> {
    /// Animate, render and present one frame.
    fn frame(&mut self) -> Result<(), Box<dyn Error>> {
        let Some(shown) = &mut self.shown else {
            return Ok(());
        };
        let size = shown.window_size();
        if size.width == 0 || size.height == 0 {
            return Ok(()); // minimised
        }
        if size != shown.size() {
            shown.resize(size)?;
        }
        let fb = &mut shown.framebuffer;
        let aspect = fb.width() as f32 / fb.height() as f32;
        let seconds = self.start.elapsed().as_secs_f32();
        let scene = self.prepared.scene();
        for draw in 0..scene.draws.len() {
            for u in animated(scene, draw, seconds, aspect) {
                if self.prepared.declares_uniform(draw, u.name()) {
                    self.prepared.set_uniform(draw, &u.key, &u.values)?;
                }
            }
        }
        self.prepared.render_into(&mut self.renderer, fb)?;
        let rgba = fb.to_rgba8_top_down();
        shown.pixels.frame_mut().copy_from_slice(&rgba);
        // Present only if the window still has the size rendered at: while the sizes
        // differ, Mesa's swapchain is "suboptimal" and pixels would re-create it at the
        // old size forever. The next frame renders at the new size.
        if shown.window_size() == size {
            shown.pixels.render()?;
        }
        if let Some((fps, ms)) = self.rate.tick() {
            let title = format!("csir viewer: {fps:.1} fps, {ms:.1} ms/frame");
            shown.window.set_title(&title);
        }
        Ok(())
    }

    /// Whether `VIEWER_SECS` have passed.
    fn time_is_up(&self) -> bool {
        self.quit_after.is_some_and(|t| self.start.elapsed() >= t)
    }

    fn fail(&mut self, el: &ActiveEventLoop, error: Box<dyn Error>) {
        self.error = Some(error);
        el.exit();
    }
}

impl ApplicationHandler for Viewer<'_> {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.shown.is_none() {
            match Shown::new(el, self.prepared.scene()) {
                Ok(shown) => self.shown = Some(shown),
                Err(e) => self.fail(el, e),
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested
            | WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        logical_key: Key::Named(NamedKey::Escape),
                        state: ElementState::Pressed,
                        ..
                    },
                ..
            } => el.exit(),
            WindowEvent::RedrawRequested if self.time_is_up() => el.exit(),
            WindowEvent::RedrawRequested => match self.frame() {
                Ok(()) => self.shown.iter().for_each(|s| s.window.request_redraw()),
                Err(e) => self.fail(el, e),
            },
            _ => {}
        }
    }
}

/// Frames per second and milliseconds per frame, measured over about half a second.
struct Rate {
    since: Instant,
    frames: u32,
}

impl Rate {
    fn new() -> Rate {
        Rate {
            since: Instant::now(),
            frames: 0,
        }
    }

    /// Count a frame; every half second or so, the rate since the last report.
    fn tick(&mut self) -> Option<(f64, f64)> {
        self.frames += 1;
        let elapsed = self.since.elapsed().as_secs_f64();
        if elapsed < 0.5 {
            return None;
        }
        let rate = (
            self.frames as f64 / elapsed,
            1000.0 * elapsed / self.frames as f64,
        );
        *self = Rate::new();
        Some(rate)
    }
}
