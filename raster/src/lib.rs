//! # csir-raster: geometry and pixels
//!
//! A CPU triangle rasterizer with OpenGL's rules, as `docs/scene-format.md`
//! ("Conventions every renderer of this format follows") fixes them, matching Mesa
//! llvmpipe. It knows nothing about shaders: the programmable stages are the
//! [`VertexStage`] and [`FragmentStage`] traits.
//!
//! Main types: [`Renderer`] draws a [`DrawCall`] (the two stages, the vertex count,
//! optional indices and the fixed-function [`RasterState`]) into a [`Framebuffer`]
//! (RGBA8 plus 24-bit depth) and returns [`DrawStats`]; a [`FragmentStage`] shades a
//! [`FragmentBatch`] of up to [`MAX_LANES`] pixels of one [`Triangle`] at a time and
//! fills a [`FragmentOutput`]. Start with the example below, then `draw.rs`.
//! `docs/architecture.md` places the crate in the whole picture; the `csir-render`
//! crate's `pipeline` module is the real user of these traits.
//!
//! ```text
//! indices ─▶ vertex.rs      assembly; one VertexStage call per distinct vertex (parallel)
//!         ─▶ clip.rs        near/far planes exactly, x/y against a guard band
//!         ─▶ viewport.rs    divide by w, NDC → window (y up), snap to 1/256 pixel
//!         ─▶ setup.rs       winding, culling, edge.rs edge functions + fill rule,
//!                           depth.rs depth plane
//!         ─▶ bin.rs         per-tile triangle lists in submission order (tile.rs)
//!         ─▶ rasterize.rs   per tile, in parallel: coverage.rs 8×8 blocks, coarse depth
//!                           rejection per block (depth_bound.rs), early depth,
//!                           FragmentBatch (batch.rs) with barycentric.rs inputs,
//!                           FragmentStage, late depth write, blend.rs (a whole
//!                           block without depth test: one batch, rows blended
//!                           straight from the shader's colours)
//!         ─▶ framebuffer.rs RGBA8 + 24-bit depth; top-row-first read-out
//! ```
//!
//! A complete draw: a vertex stage reading positions and colours from arrays, a
//! fragment stage writing the interpolated colour.
//!
//! ```
//! use csir_raster::*;
//!
//! struct Vertices { clip: Vec<[f32; 4]>, rgb: Vec<[f32; 3]> }
//!
//! impl VertexStage for Vertices {
//!     type Scratch = ();
//!     fn new_scratch(&self) {}
//!     fn varying_count(&self) -> usize { 3 }
//!     fn shade_vertex(&self, _: &mut (), index: u32, position: &mut [f32; 4], varyings: &mut [f32]) {
//!         *position = self.clip[index as usize];
//!         varyings.copy_from_slice(&self.rgb[index as usize]);
//!     }
//! }
//!
//! struct Colour;
//!
//! impl FragmentStage for Colour {
//!     type Scratch = Vec<LaneArray>; // interpolated varyings, one lane array each
//!     fn new_scratch(&self) -> Self::Scratch { vec![[0.0; MAX_LANES]; 3] }
//!     fn may_discard(&self) -> bool { false }
//!     fn shade(&self, v: &mut Self::Scratch, tri: &Triangle<'_>, batch: &FragmentBatch, out: &mut FragmentOutput) {
//!         tri.interpolate(batch, v);
//!         for lane in 0..batch.len {
//!             out.color[0][lane] = v[0][lane];
//!             out.color[1][lane] = v[1][lane];
//!             out.color[2][lane] = v[2][lane];
//!             out.color[3][lane] = 1.0;
//!         }
//!     }
//! }
//!
//! let vertices = Vertices {
//!     clip: vec![[0.0, 0.8, 0.0, 1.0], [-0.8, -0.8, 0.0, 1.0], [0.8, -0.8, 0.0, 1.0]],
//!     rgb: vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
//! };
//! let mut fb = Framebuffer::new(32, 24)?;
//! fb.clear([0.1, 0.1, 0.12, 1.0], 1.0);
//! let mut renderer = Renderer::new(); // keep it: it reuses its buffers
//! let stats = renderer.draw(&mut fb, &DrawCall {
//!     vertex_stage: &vertices,
//!     fragment_stage: &Colour,
//!     vertex_count: 3,
//!     indices: None, // 0, 1, 2
//!     state: RasterState::default(), // depth less + write, no cull, no blend
//!     topology: Default::default(),
//! })?;
//! assert_eq!(stats.triangles_rasterized, 1);
//! let rgba: Vec<u8> = fb.to_rgba8_top_down(); // PNG row order
//! assert_eq!(rgba.len(), 32 * 24 * 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod barycentric;
mod batch;
mod bin;
mod blend;
mod blend_dual;
mod blend_func;
mod clip;
mod coverage;
mod depth;
mod depth_bound;
mod draw;
mod edge;
mod error;
mod framebuffer;
mod indices;
mod multisample;
mod point_line;
mod primitive;
mod rasterize;
mod setup;
mod stage;
mod state;
mod stencil;

mod target_format;
mod tile;
mod tile_queue;
mod trace;
mod vertex;
mod viewport;

#[cfg(test)]
mod test_rng;

pub use batch::{FragmentBatch, FragmentOutput, LANE_GROUP, LaneArray, LaneMask, MAX_LANES};
pub use blend::to_unorm8;
pub use clip::MAX_CLIP_DISTANCES;
pub use depth::{DEPTH_MAX, quantize_depth};
pub use draw::{DrawCall, DrawStats, Renderer};
pub use edge::SUBPIXEL_BITS;
pub use error::{DrawError, FramebufferError, MAX_FRAMEBUFFER_SIZE};
pub use framebuffer::Framebuffer;
pub use indices::Indices;
pub use multisample::{
    SAMPLE_COUNT, SampleMaskStage, SamplePattern, alpha_coverage_mask, resolve_float,
    resolve_unorm8, sample_coverage_mask,
};
pub use point_line::{LineRaster, MAX_POINT_SIZE, PointRaster, Topology};
pub use stage::{BackFaceVarying, FragmentStage, Interpolation, Triangle, VertexStage};
pub use state::{
    BlendEquation, BlendFactor, BlendFunction, BlendMode, CullMode, DepthTest, PolygonOffset,
    RasterState, StencilFace, StencilOp, StencilState,
};
pub use stencil::StencilTrace;

pub use target_format::{
    ColorTarget, TargetClass, TargetFormat, blend_f32, blend_f32_dual, srgb_decode, srgb_encode,
    srgb_to_linear,
};
pub use tile::TILE_SIZE;
pub use trace::{BlendTrace, DepthTrace, QuadTrace, TraceEvent};
pub use vertex::MAX_VARYINGS;
