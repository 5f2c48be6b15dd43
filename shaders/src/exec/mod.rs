//! Execution of CSIR on the CPU: the scalar interpreter ([`Machine`], the executable
//! reference for CSIR semantics), the texture interface it samples through
//! ([`Samplers`]) and the math shared with the SIMD batch interpreter ([`math`]).
//!
//! ```text
//! Shader ──Machine::new (verify, allocate once)──▶ Machine
//!            per vertex / pixel: Machine::run(&Inputs, &mut Outputs)
//! ```
//!
//! Semantics: the seed's interpreter (docs/csir-original.md B §4) with A1/A2: float4
//! temporaries with scalars in lane 0; comparisons give 1.0/0.0 (NaN compares false
//! except `!=`); IF tests lane 0 against zero (NaN is true); RCP(0) = 0; RSQ(x) = 0 for
//! x <= 0 or NaN; CONST zeroes unused lanes; MIN is `a<b?a:b`, MAX `a>b?a:b`; accurate
//! RSQ/RCP/SIN/COS/POW; SAMPLE honours its sampler slot. The per-opcode rules are on
//! the `alu` module (temp-to-temp opcodes) and [`Machine`] (interface, control flow).

mod alu;
pub mod batch;
mod control;
mod error;
pub mod geometry;
mod io;
mod lod;
pub mod math;
mod observer;
pub(crate) mod quad;
mod sampler;
mod scalar;
mod temps;
mod tex;

pub use error::{ExecError, Fault};
pub use geometry::{Emitted, PrimitiveInput};
pub use io::{DEFAULT_ATTRIBUTE, DEFAULT_INT_ATTRIBUTE, Inputs, Outputs};
pub use lod::{fast_log2, lod_from_gradients};
pub use observer::{NoObserver, Observer, Step};
pub use quad::QUAD_LANES;
pub use sampler::{
    NearestClampTexture, NoSamplers, Samplers, TextureSizeError, level_size,
    sample_groups_one_by_one, texel_fetch, texture_size,
};
pub use scalar::{Machine, QuadMachine};
pub use tex::{TexLod, TexRequest, tex_lane};

#[cfg(test)]
mod tests;
