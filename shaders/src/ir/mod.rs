//! CSIR: the compact, linear, bounded IR shared by the interpreters and the TGSI
//! emitter (docs/csir-original.md B §2).
//!
//! Invariants every consumer relies on once [`verify`] has accepted a [`Shader`]:
//! - The program is one linear list of 16-byte [`Ir`] records with structured
//!   IF/ELSE/ENDIF and no jumps; NOPs may appear anywhere and are skipped.
//! - Temporaries are float4 registers `0..ntmp`; scalars live in lane 0; matrices are
//!   consecutive temporaries, one column each (column-major).
//! - Every index an instruction uses is in range (see [`verify`]'s module docs).
//! - The IR is not SSA: a temporary may be written many times, and SETLANE is a
//!   read-modify-write of its destination.

mod builder;
mod dump;
pub mod geometry;
mod if_table;
mod limits;
mod op;
mod op_info;
mod opt;
mod record;
mod shader;
mod types;
mod verify;

pub use builder::{IrBuilder, PoolError};
pub use dump::{dump, instruction as dump_instruction};
pub use geometry::{GeometryLayout, InputPrimitive, OutputPrimitive};
pub use if_table::{IfBlock, IfTable};
pub use limits::{Limits, MAX_SHADER_VARYINGS, MAX_VARYINGS, Profile};
pub use op::{ALL_OPS, Op};
pub use op_info::{
    Aux, Control, Effect, Emission, Input, Lanes, Ncomp, OpInfo, Operand, Output, TempSpan, Temps,
    first_lanes,
};
pub use opt::{PASSES, count_uses, optimize};
pub use record::Ir;
pub use shader::{
    Interface, InterfaceSymbol, Interpolation, SECOND_SOURCE_AUX, Shader, SymbolKind,
};
pub use types::{CmpCode, MAX_EXACT_INT, Stage, Type};
pub use verify::{ShaderInfo, VerifyError, VerifyRule, verify};
