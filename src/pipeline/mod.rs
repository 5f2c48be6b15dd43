//! The pipeline: a scene's draws through linked CSIR programs and the rasterizer.
//!
//! ```text
//! Draw ──program.rs──▶ compiled + linked csir::Program (cached per shader pair)
//!      ──bindings.rs─▶ uniform vec4 slots per stage, textures per sampler slot
//!      ──vertex_stage.rs / fragment_stage.rs──▶ csir_raster::{VertexStage, FragmentStage}
//!      ──render.rs──▶ csir_raster::Renderer over a Framebuffer ──▶ RGBA8, top row first
//!                     (each draw through a draw_runner.rs DrawRunner: plain or traced;
//!                     a scene with `targets`: one pass per target, targets.rs)
//! ```
//!
//! The adapters keep raster and csir apart (architecture.md: "the root wires them"):
//! raster sees floats and batches, csir sees one invocation at a time.

mod bindings;
mod draw_runner;
mod dual_source;
mod fragment_stage;
mod geometry_stage;
mod multisample;
mod notes;
mod program;
mod render;
mod targets;
mod vertex_source;
mod vertex_stage;

pub use bindings::{DrawBindings, SlotSamplers};
pub use draw_runner::{DrawParts, DrawRunner, PlainDraw};
pub use fragment_stage::CsirFragmentStage;
pub(crate) use fragment_stage::primitive_id_input;
pub use geometry_stage::{EmittedPrimitives, EmittedVertexStage, draw_error, run_geometry};
pub(crate) use multisample::sample_framebuffer;
pub use program::{ProgramCache, compile_program};
pub use render::{
    DrawSummary, Frame, PreparedScene, RenderError, RenderOptions, render_scene, with_threads,
};
pub use targets::{TargetImage, check_outputs, select_output};
pub use vertex_stage::CsirVertexStage;
