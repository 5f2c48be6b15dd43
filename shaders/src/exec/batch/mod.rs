//! The SIMD batch interpreter: one fragment shader over up to [`MAX_LANES`] (64)
//! pixels (or one vertex shader over up to 64 vertices) at a time, with the
//! temporaries stored lane-wise in [`wide::f32x8`] vectors.
//! It gives, in every lane, the same bits as the scalar [`Machine`](super::Machine)
//! (architecture.md: "the batch interpreter must produce the same bits for every
//! lane"); the property test in `tests.rs` checks that on random verified programs.
//!
//! ```text
//! Shader ──Plan::new (verify, decode: NOPs dropped, IF/ELSE/ENDIF matched)──▶ Plan
//!          per shader, once
//! Plan ──Plan::bind(uniforms, var_remap)──▶ BoundPlan
//!          per draw: uniform loads and everything computed only from uniforms and
//!          constants evaluated once (by the scalar interpreter's own code), IFs on
//!          uniform conditions resolved, the rest specialised into compact steps
//! BoundPlan ──BoundPlan::registers()──▶ Registers          per worker thread
//! BoundPlan::run(&mut Registers, &FragmentLanes, &mut colour) ──▶ discard bits
//!          per batch: every step runs over all lanes (8 per f32x8, up to 8 f32x8)
//! ```
//!
//! Why it is built this way (tiny-skia's and wasmi's lesson, docs/architecture.md
//! "Anchors worth reading for style"): decoding and
//! dispatch cost the same whether a step covers 1 or 64 pixels, so the interpreter
//! decodes once and then makes every dispatch do a whole batch's work; uniform work
//! is done once per draw instead of once per pixel. The cost is a register file of
//! 1 KiB per register (4 components × 64 lanes) per worker; binding keeps the number
//! of registers small (the stock procedural shader needs 21). Measurements:
//! `benches/README.md`.
//!
//! Semantics (the scalar interpreter's, docs/csir-original.md A1/A2 and B §4):
//! - Arithmetic uses the shared [`math`](super::math) functions, written once for
//!   both interpreters, here over `W` groups of `f32x8` at a time (each lane sees the
//!   same operations as an `f32`), with the same component counts and summation order
//!   as the scalar opcode rules. NaN payloads are the one thing not promised equal:
//!   Rust leaves the payload of an arithmetic NaN result unspecified. The long
//!   per-lane functions (SIN, COS, POW with an integral exponent) run two groups at a
//!   time (`pairs.rs`: over all `W` their chains do not fit the 16 AVX2 registers),
//!   NORMALIZE and DOT one group at a time; the grouping changes no lane's bits.
//! - Divergent control flow runs under lane masks: IF takes, per lane, lane 0 of its
//!   condition (non-zero or NaN is true); a write inside a branch changes only the
//!   lanes running that branch (a per-lane select), so the other lanes keep their
//!   temporaries exactly; a branch no lane takes is skipped (jump to its ELSE/ENDIF).
//! - DISCARD masks its lanes off for the rest of the shader; their colour keeps what
//!   was stored before, as in the scalar interpreter.
//! - SAMPLE calls [`Samplers::sample_group`](super::Samplers::sample_group) once per
//!   group of 8 lanes with a running lane; the renderer's textures compute the group's
//!   addresses, wraps and weights as vectors (`src/texture/lanes.rs`), with the same
//!   bits as `Samplers::sample` per lane.
//!
//! Vertex shaders run here too ([`Plan::new_vertex`], [`BoundPlan::run_vertices`]):
//! attributes come in as lane arrays where a fragment batch has its varyings
//! (LOAD_ATTR binds to the same step as LOAD_VAR), and STORE_POS and STORE_VAR are
//! moves into output registers that start at the scalar interpreter's
//! [`Outputs::INITIAL`](super::Outputs::INITIAL) values; the renderer shades up to
//! 64 vertices per dispatch this way (the scalar [`Machine`](super::Machine) stays
//! the definition, `tests.rs` checks the bits).
//!
//! Geometry shaders run here too ([`Plan::new_geometry`], [`BoundPlan::run_geometry`],
//! `run/geometry.rs`): the lanes are input primitives, whose vertices come in as lane
//! arrays (LOAD_VTX and LOAD_PRIMID bind to the LOAD_VAR step), and EMIT/ENDPRIM
//! append each running lane's outputs to that lane's
//! [`Emitted`](super::Emitted) by the scalar interpreter's own rules
//! (`tests/geometry.rs` checks the bits on random programs).

mod bind;
mod mask;
mod pack;
mod pairs;
mod plan;
mod regs;
mod run;
pub(in crate::exec) mod step;
mod tidy;

pub use bind::BoundPlan;
pub use plan::{Plan, PlanError};
pub use regs::Registers;
use run::GeometryShape;
pub use run::{FragmentLanes, GeometryLanes};

/// Most fragments in one batch: 64 lanes, eight [`wide::f32x8`] groups.
pub const MAX_LANES: usize = 64;

/// Lanes in one SIMD group (one `f32x8`, one 256-bit register).
pub const LANE_GROUP: usize = 8;

/// One `f32` per lane: the unit in which fragment coordinates, varyings and colours
/// come in and go out (the same shape as `csir_raster::LaneArray`, so a rasterizer's
/// batch can be passed without copying).
pub type LaneArray = [f32; MAX_LANES];

#[cfg(test)]
mod tests;
