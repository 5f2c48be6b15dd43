//! # csir-raster: geometry and pixels
//!
//! A CPU triangle rasterizer with OpenGL's rules, as `shared/spec/scene-format.md`
//! ("Conventions") fixes them, matching Mesa llvmpipe. It knows nothing about
//! shaders: the programmable stages are the [`VertexStage`] and [`FragmentStage`]
//! traits.
//!
//! ```text
//! indices ─▶ vertex.rs      assembly; one VertexStage call per distinct vertex (parallel)
//!         ─▶ clip.rs        near/far planes exactly, x/y against a guard band
//!         ─▶ viewport.rs    divide by w, NDC → window (y up), snap to 1/256 pixel
//!         ─▶ setup.rs       winding, culling, edge.rs edge functions + fill rule,
//!                           depth.rs depth plane
//!         ─▶ bin.rs         per-tile triangle lists in submission order (tile.rs)
//!         ─▶ rasterize.rs   per tile, in parallel: coverage.rs 8×8 blocks, early depth,
//!                           FragmentBatch (batch.rs) with barycentric.rs inputs,
//!                           FragmentStage, late depth write, blend.rs
//!         ─▶ framebuffer.rs RGBA8 + 24-bit depth; top-row-first read-out
//! ```
//!
//! ```ignore
//! let mut fb = Framebuffer::new(320, 240)?;
//! fb.clear([0.1, 0.1, 0.12, 1.0], 1.0);
//! let mut renderer = Renderer::new();
//! let stats = renderer.draw(&mut fb, &DrawCall {
//!     vertex_stage: &my_vs, fragment_stage: &my_fs,
//!     vertex_count: 3, indices: None, state: RasterState::default(),
//! })?;
//! let png_rows: Vec<u8> = fb.to_rgba8_top_down();
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod barycentric;
mod batch;
mod bin;
mod blend;
mod clip;
mod coverage;
mod depth;
mod draw;
mod edge;
mod error;
mod framebuffer;
mod primitive;
mod rasterize;
mod setup;
mod stage;
mod state;
mod tile;
mod trace;
mod vertex;
mod viewport;

pub use batch::{FragmentBatch, FragmentOutput, LANE_GROUP, LaneArray, LaneMask, MAX_LANES};
pub use depth::{DEPTH_MAX, quantize_depth};
pub use draw::{DrawCall, DrawStats, Renderer};
pub use edge::SUBPIXEL_BITS;
pub use error::{DrawError, FramebufferError, MAX_FRAMEBUFFER_SIZE};
pub use framebuffer::Framebuffer;
pub use stage::{FragmentStage, Triangle, VertexStage};
pub use state::{BlendMode, CullMode, DepthTest, RasterState};
pub use tile::TILE_SIZE;
pub use trace::{BlendTrace, DepthTrace, TraceEvent};
pub use vertex::MAX_VARYINGS;
