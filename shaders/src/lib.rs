//! # `csir`: the CSIR shader compiler and everything that reads CSIR
//!
//! CSIR is a small, linear, bounded shader IR: 16-byte instruction records over a file
//! of four-float temporaries, with structured IF/ELSE/ENDIF as the only control flow
//! (`docs/csir.md` defines it). This crate compiles GLSL to CSIR, checks it, runs it,
//! translates it to TGSI text for a VirGL host, and saves and loads it as CSI blobs.
//!
//! ```text
//! source ──lang──▶ CSIR (ir: Ir records, optimizer, verifier, dump)
//!                    ├──exec──▶ scalar interpreter (the reference) / SIMD batches
//!                    ├──tgsi──▶ TGSI text for VirGL
//!                    └──csi───▶ CSI v1 / v2 bytes (and back)
//! ```
//!
//! ## Main types
//!
//! - [`compile`] turns GLSL into a verified [`Shader`] (its [`Ir`] records, immediates
//!   and interface), or [`CompileErrors`] with located [`Diagnostic`]s.
//! - [`Limits`] and [`Profile`]: every pool and interface size; `Profile::Seed` is the
//!   seed's CSIR exactly, `Profile::Extended` adds instructions from code 33 on.
//! - [`Op`]: one description per opcode (`ir/op.rs`), read by the verifier, optimizer,
//!   dump, interpreters and TGSI emitter alike.
//! - [`Program::link`] pairs a vertex and a fragment shader (varyings by name and
//!   type, `var_remap`, uniform records); [`Program::set_uniform`] fills its
//!   [`UniformStorage`] through the one interface [`Layout`].
//! - [`exec::Machine`] runs one invocation on the scalar interpreter, the executable
//!   definition of CSIR; [`exec::batch`] runs many fragments at once with the same bits.
//! - [`emit_tgsi`] writes TGSI text; [`parity_dump`] shows where its semantics differ
//!   from the interpreter's. [`save_csi`] / [`load_csi`] persist a shader.
//!
//! ## Where to start
//!
//! ```
//! use csir::exec::{Inputs, Machine, Outputs};
//! use csir::{Limits, Program, Stage, compile};
//!
//! let limits = Limits::EXTENDED;
//! let vs = compile(
//!     "#version 330\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }",
//!     "a.vert",
//!     Stage::Vertex,
//!     &limits,
//! )?;
//! let fs = compile(
//!     "#version 330\nuniform vec4 tint;\nout vec4 c;\nvoid main() { c = tint * 0.5; }",
//!     "a.frag",
//!     Stage::Fragment,
//!     &limits,
//! )?;
//! let program = Program::link(vs, fs)?;
//! let mut uniforms = program.new_uniforms();
//! program.set_uniform(&mut uniforms, "tint", &[1.0, 0.5, 0.0, 1.0])?;
//!
//! let mut machine = Machine::new(&program.fragment)?;
//! let mut out = Outputs::default();
//! let inputs = Inputs { uniforms: &uniforms.fragment, ..Inputs::default() };
//! machine.run(&inputs, &mut out)?;
//! assert_eq!(out.color, [0.5, 0.25, 0.0, 0.5]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Documents
//!
//! `docs/architecture.md` (the modules, the profiles, where an instruction is defined
//! and how to add one), `docs/csir.md` (CSIR's definition), `docs/csir-original.md`
//! (what is kept from the original ChrisOS compiler and where GLSL 3.30 wins),
//! `docs/tgsi-text.md` (the TGSI text rules), `docs/glsl-dialects.md` (the GLSL
//! versions accepted) and `docs/conformance.md` (piglit's tests, run natively).

pub mod csi;
pub mod exec;
pub mod ir;
pub mod sampler_type;
// The front end's `lang::types::Type` still has 13 undocumented variants (Void, Bool,
// Int, Float, Vec2..4, IVec2..4, Mat3, Mat4, Sampler2D); lang/ is being changed in
// parallel, so their docs land there. `expect` turns into a warning (an error under
// CI's -D warnings) once they are documented: then delete this attribute.
#[expect(
    missing_docs,
    reason = "lang::types::Type's variants are documented with the front end's next change"
)]
pub mod lang;
pub mod layout;
pub mod link;
pub mod link_geometry;
pub mod tgsi;

pub use csi::{CsiError, load_csi, save_csi, save_csi_v1};
pub use ir::{Ir, Limits, MAX_SHADER_VARYINGS, MAX_VARYINGS, Op, Profile, Shader, Stage, Type};
pub use lang::{
    CompileErrors, Diagnostic, MAX_UNITS, Unit, compile, compile_unit_alone, compile_units,
    compile_vertex_for_geometry,
};
pub use layout::{IntLanes, Layout, UniformKey, uniform_lanes_from_ints};
pub use link::{LinkError, Program, UniformError, UniformStorage};
pub use tgsi::{TgsiError, emit_tgsi, parity_dump};
