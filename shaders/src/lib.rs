//! `csir`: the CSIR shader compiler and everything that reads CSIR.
//!
//! ```text
//! source ──lang──▶ CSIR (ir: Ir records, optimizer, verifier, dump)
//!                    ├──exec──▶ scalar interpreter (the reference) / SIMD batches
//!                    └──tgsi──▶ TGSI text for VirGL
//! ```
//!
//! See `shared/spec/architecture.md` for the picture and the seed document for the
//! semantics every module keeps.

pub mod csi;
pub mod exec;
pub mod ir;
pub mod lang;
pub mod layout;
pub mod link;
pub mod tgsi;

pub use csi::{CsiError, load_csi, save_csi, save_csi_v1};
pub use ir::{Ir, Limits, Op, Profile, Shader, Stage, Type};
pub use lang::{CompileErrors, Diagnostic, compile};
pub use layout::{Layout, UniformKey};
pub use link::{LinkError, Program, UniformError, UniformStorage};
pub use tgsi::{TgsiError, emit_tgsi, parity_dump};
