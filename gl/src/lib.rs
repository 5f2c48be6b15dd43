//! # `csir-gl`: a frame drawn by the system's OpenGL
//!
//! csir-render's reference driver: it draws a frame through OpenGL 3.3 (core, or
//! compatibility for GLSL 1.10/1.20 shaders) on whatever driver the machine's EGL
//! gives — Mesa's llvmpipe, the project's reference for pixels, or a GPU — with no
//! window: an EGL context with no surface, a framebuffer object with an RGBA8 colour
//! and a 24-bit depth attachment, `glReadPixels` at the end.
//!
//! ```text
//! FrameDesc (plain data: sizes, textures, draws with GLSL sources, vertex arrays,
//!            uniforms, samplers, state as GL enums)
//!   ──Driver::open──▶ EGL (libEGL.so.1, loaded at run time) ──▶ a current context
//!   ──Driver::prepare──▶ programs (the driver's compiler and info log), textures,
//!                       samplers, vertex arrays, uniform calls resolved once
//!   ──PreparedFrame::draw──▶ clear + draws ──read_rgba8──▶ RGBA8, top row first
//! ```
//!
//! The library is loaded when a driver is opened, so a program built with this crate
//! runs on machines without EGL, and only opening a driver fails there, with
//! [`GlError::NoLibrary`] naming the Debian packages to install.
//!
//! Which driver draws is the EGL implementation's choice ([`Platform::Default`]); with
//! Mesa, `LIBGL_ALWAYS_SOFTWARE=1`, `GALLIUM_DRIVER=llvmpipe|softpipe` and
//! `MESA_LOADER_DRIVER_OVERRIDE` pick it; [`Platform::Device`] names one of
//! `eglQueryDevicesEXT`'s devices. `docs/gl-backend.md` in the repository says how
//! csir-render uses it.
//!
//! This is the one crate of the workspace that uses `unsafe`: every GL and EGL call is
//! a call into C. Each block says why it is sound in a `// SAFETY:` comment (clippy's
//! `undocumented_unsafe_blocks` is denied here).
//!
//! ```no_run
//! use csir_gl::{Driver, DriverOptions, FrameDesc};
//! let driver = Driver::open(&DriverOptions::default())?;
//! println!("{}", driver.info().renderer); // "llvmpipe (LLVM 15.0.6, 256 bits)"
//! let frame = FrameDesc {
//!     width: 64,
//!     height: 32,
//!     clear_color: [0.0, 0.5, 1.0, 1.0],
//!     clear_depth: 1.0,
//!     clear_stencil: 0,
//!     textures: vec![],
//!     draws: vec![],
//!     targets: vec![],
//!     framebuffer_srgb: false,
//!     seamless_cube_map: false,

//!     samples: 0,
//! };
//! let prepared = driver.prepare(&frame)?;
//! prepared.draw(true)?;
//! let pixels = prepared.read_rgba8();
//! assert_eq!(&pixels[..4], &[0, 128, 255, 255]);
//! # Ok::<(), csir_gl::GlError>(())
//! ```

mod driver;
mod egl;
mod error;
mod frame;
mod multisample;
mod prepared;
mod program;
mod stencil;

mod targets;
mod texture33;
mod uniforms;

pub use driver::{Driver, DriverInfo, DriverOptions, ProfileChoice};
pub use egl::{LIBRARY, Platform};
pub use error::{GlError, Place, error_name};
pub use frame::{
    AttributeDesc, Blend, Conventional, DrawDesc, DrawState, FrameDesc, IDENTITY, SamplerDesc,
    ShaderDesc, Stage, TextureDesc, UniformDesc,
};
/// The GL enums the frame description takes (`glow::LINEAR`, `glow::LESS`, ...).
pub use glow;
pub use prepared::PreparedFrame;
pub use stencil::StencilFaceDesc;

pub use targets::{TargetDesc, TargetKind};
pub use texture33::{Gl33Image, Gl33SamplerState};
