//! Answers to "why is this pixel this colour?" and "what does this shader compute for
//! these inputs?": the library behind `csir-render trace` and `csir-render run`.
//!
//! ```text
//! trace_pixel(scene, [x, y]) ─▶ PreparedScene::render_with(PixelTracer)
//!     each draw: Renderer::draw_traced (raster: triangles, barycentrics, depth, blend)
//!                with TracingFragmentStage (the pipeline's stage + one observed
//!                scalar run for the watched pixel: varyings, instruction trace)
//!     ─▶ PixelTrace (Serialize; Display for text)
//! run_invocation(shader, request) ─▶ values bound by name ─▶ run_recorded ─▶ Invocation
//! ```
//!
//! Tracing costs nothing when it is off: the instruction trace is an
//! [`Observer`](csir::exec::Observer) on the scalar interpreter
//! ([`Machine::run_observed`](csir::exec::Machine::run_observed)), not a second
//! interpreter, and the rasterizer's trace hooks are compiled out of
//! [`Renderer::draw`](csir_raster::Renderer::draw); a plain render never builds any of
//! these types.
//!
//! ```no_run
//! # use csir_render::scene::{Scene, DEFAULT_CUBE_START_ANGLE};
//! let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
//! let trace = csir_render::debug::trace_pixel(&scene, [160, 120])?;
//! println!("{trace}"); // or serde_json::to_string(&trace)
//! # Ok::<(), csir_render::debug::TraceError>(())
//! ```

mod assignment;
mod input_binding;
mod instruction_trace;
mod invocation;
mod invocation_error;
mod json_float;
mod named_value;
mod pixel_trace;
mod sample_trace;
mod text;
mod trace_error;
mod trace_pixel;
mod tracing_stage;

pub use assignment::{Assignment, AssignmentError, parse_floats};
pub use instruction_trace::{
    Branch, Flow, InstructionRecorder, RecordedRun, TracedInstruction, record_run, run_recorded,
};
pub use invocation::{
    DEFAULT_FRAG_COORD, DefaultedInput, Invocation, InvocationRequest, run_invocation,
};
pub use invocation_error::{InputKind, InvocationError};
pub use named_value::{LaneValue, NamedValue};
pub use pixel_trace::{
    DrawTrace, FragmentTrace, PixelTrace, QuadPixels, SampleStep, SampleValue, ShaderTrace,
    StateTrace, VertexTrace,
};
pub use text::instruction_listing;
pub use trace_error::TraceError;
pub use trace_pixel::{TraceOptions, trace_pixel, trace_pixel_with};
