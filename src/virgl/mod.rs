//! The second back end, on its real consumer: a scene rendered by a VirGL host
//! (`virgl_test_server`, which parses our TGSI text, translates it to GLSL and draws
//! with the host's OpenGL) instead of the CPU rasterizer.
//!
//! ```text
//! Scene ──prepare.rs──▶ programs (compiled, linked: the CPU renderer's checks),
//!                       TGSI text per program, constants, textures per slot
//!       ──encode.rs───▶ csir_virgl: resources, state objects, shaders, draws
//!                       over vtest ──▶ RGBA8 read back, top row first
//! ```
//!
//! The host draws as OpenGL draws into a framebuffer object: the viewport maps NDC
//! y = −1 to row 0, counter-clockwise triangles are front faces, texel row 0 is
//! t = 0. docs/virgl.md explains the protocol and lists where the host's results may
//! differ from the CPU renderer's.
//!
//! ```no_run
//! use csir_render::scene::Scene;
//! use csir_render::virgl::{VirglOptions, render_scene_virgl};
//! let scene = Scene::load("reference-images/lit_cube.json")?;
//! let frame = render_scene_virgl(&scene, &VirglOptions::default())?;
//! let image = &frame.image;
//! csir_render::image_io::write_png("cube.png".as_ref(), image.width(), image.height(), image.pixels())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod encode;
mod points_lines;
mod prepare;
mod state;
mod targets;
mod textures;
mod vertex_pipeline;

use crate::image_io::Rgba8Image;
use crate::scene::{Scene, SceneError};
use csir::Limits;
use csir_virgl::{VirglError, VtestServer};
use std::time::Duration;
use thiserror::Error;

/// How to render through VirGL.
#[derive(Clone, Debug)]
pub struct VirglOptions {
    /// Shader limits for compiling the scene's shaders (default: the renderer's
    /// profile, the extended one).
    pub limits: Limits,
    /// The longest the client waits for any one reply of the host.
    pub timeout: Duration,
    /// At most this many bytes of TGSI text per shader packet; longer shaders go in
    /// continuations. Default [`SHADER_PACKET_BYTES`].
    pub shader_packet_bytes: usize,
}

/// Default bytes of TGSI text per shader packet: with its 6-dword header (24 bytes)
/// a packet fits in the ChrisOS guest's [`csir::tgsi::VIRGL_BUDGET`] of 3600 bytes,
/// so a guest with that buffer sends any shader in pieces of this size.
pub const SHADER_PACKET_BYTES: usize = csir::tgsi::VIRGL_BUDGET - 24;

impl Default for VirglOptions {
    fn default() -> Self {
        VirglOptions {
            limits: csir::Profile::default().limits(),
            timeout: Duration::from_secs(120),
            shader_packet_bytes: SHADER_PACKET_BYTES,
        }
    }
}

/// A frame the VirGL host rendered.
#[derive(Clone, Debug)]
pub struct VirglFrame {
    /// The host's colour buffer: the scene's size, RGBA8, top row first (as the PNG is
    /// written).
    pub image: Rgba8Image,
    /// Draws submitted.
    pub draws: usize,
    /// Triangles submitted.
    pub triangles: u64,
    /// Shader packets sent (more than two per program when shaders went in
    /// continuations).
    pub shader_packets: usize,
    /// Every colour target read back, in attachment order, for a scene with
    /// `targets` or `framebuffer_srgb` (as the CPU renderer's `Frame::targets`);
    /// empty otherwise, where `image` is the one RGBA8 target.
    pub targets: Vec<crate::pipeline::TargetImage>,
}

/// Why a scene could not be rendered through VirGL. Nothing is written when this is
/// returned.
#[derive(Debug, Error)]
pub enum VirglRenderError {
    /// The scene is wrong (a shader does not compile or link, a uniform or sampler
    /// does not match the program, TGSI cannot be emitted): the CPU renderer's error.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The host refused a command: `field` names the draw or shader it was part of;
    /// the error quotes the server's own explanation.
    #[error("{scene}: {field}{}{source}", if field.is_empty() { "" } else { ": " })]
    Host {
        /// The scene file.
        scene: String,
        /// `draws[i]`, `draws[i].vertex` or `draws[i].fragment` (empty: the frame
        /// set-up).
        field: String,
        /// What happened, with the server's output.
        source: VirglError,
    },
    /// The server is missing or failed, or the connection broke.
    #[error(transparent)]
    Virgl(#[from] VirglError),
}

impl VirglRenderError {
    /// The error with the server's output attached, where it carries one.
    fn explained(self, server: &VtestServer) -> VirglRenderError {
        match self {
            VirglRenderError::Host {
                scene,
                field,
                source,
            } => VirglRenderError::Host {
                scene,
                field,
                source: server.explain(source),
            },
            VirglRenderError::Virgl(e) => VirglRenderError::Virgl(server.explain(e)),
            other => other,
        }
    }
}

/// Render `scene` through a private `virgl_test_server`: check it
/// ([`Scene::validate`]) and prepare every draw (any scene error comes first, before a
/// server is started), start the server on a temporary
/// socket, send the frame, read it back, stop the server.
///
/// Errors: [`VirglRenderError`]; a missing server says how to install it.
pub fn render_scene_virgl(
    scene: &Scene,
    options: &VirglOptions,
) -> Result<VirglFrame, VirglRenderError> {
    scene.validate()?;
    let draws = prepare::prepare(scene, &options.limits)?;
    let server = VtestServer::start()?;
    let name = format!("csir-render {}", scene.path.display());
    let mut connection = server
        .connect(&name, options.timeout)
        .map_err(|e| server.explain(e))?;
    encode::render(scene, &draws, &mut connection, options).map_err(|e| e.explained(&server))
}
