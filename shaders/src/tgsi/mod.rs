//! The TGSI text back end for VirGL, and the parity dump that shows it beside CSIR
//! (docs/csir.md "TGSI consumption"; docs/csir-original.md A5 and B §5; docs/tgsi-text.md).
//!
//! virglrenderer parses the guest's TGSI **text** with Mesa's `tgsi_text` parser and
//! then `tgsi_sanity_check`, so the text follows their rules, not merely tgsi.rst:
//! - the stage line (`VERT`/`FRAG`) first, then properties, declarations and
//!   immediates, then instructions, exactly one `END` last; lines end in `\n` only;
//! - every register used is declared once; every declared input is read;
//! - source swizzles have four letters (`IF TEMP[3].xxxx` too), write masks list their
//!   letters in `xyzw` order, and immediates are four hex-encoded floats
//!   (`0x3f800000`), so no locale, NaN or infinity can break them;
//! - only opcodes both Mesa and virglrenderer know (`ADD d, a, -b` rather than `SUB`,
//!   `MOV d, |a|` rather than `ABS`, `TEX` rather than `TEX_LZ`).
//!
//! The mapping is docs/csir-original.md B §5 with the A5 fixes; `emit.rs` lists every
//! change and why. Registers keep CSIR's numbering: `TEMP[n]` is temporary `n`,
//! `CONST[0][n]` uniform slot `n`, `IN[n]` attribute location `n` (vertex) or linked
//! varying slot `n` (fragment, declared `GENERIC[n]`), `OUT[n+1]` varying slot `n`
//! (vertex).
//!
//! Where the two back ends define an operation differently (POW outside GLSL's
//! domain, MIN/MAX with NaN), the TGSI keeps TGSI's meaning and [`parity_dump`] marks
//! the instruction; see `parity.rs` for the table. RSQ and RCP are the exceptions:
//! CSIR's `sqrt` and `length` rely on RSQ(0) = 0 and RCP(0) = 0, so the emitter keeps
//! the interpreter's meaning there (`emit.rs`).

mod builtins;
mod decl;
mod emit;
mod error;
mod inst;
mod lanes;
mod listing;
mod operand;
mod parity;
mod texture;

pub use builtins::point_coord_generic;
pub use emit::emit_listing;
pub use error::TgsiError;
pub use inst::{Inst, Opcode};
pub use listing::{Line, Listing};
pub use operand::{Dst, File, HexF32, Register, Src, Swizzle, WriteMask};
pub use parity::{divergence, parity_dump};
pub use texture::{ReturnType, TgsiTarget, TgsiTexture};

use crate::ir::Shader;

/// The original's TGSI buffer size in bytes (docs/csir-original.md B §1.1: 3600), the
/// budget the ChrisOS VirGL path allows for one shader's text and its NUL terminator.
pub const VIRGL_BUDGET: usize = 3600;

/// Emit `shader` as TGSI text for virglrenderer.
///
/// - `var_remap`: for a fragment shader of a linked [`Program`](crate::Program), its
///   `var_remap` (fragment slot → vertex slot, −1 none); `None` reads fragment-local
///   slots. Ignored for vertex shaders.
/// - `budget`: when `Some(n)`, the text plus its NUL terminator must fit in `n`
///   bytes ([`VIRGL_BUDGET`] for the original's limit), otherwise
///   [`TgsiError::Budget`]; the text is never cut.
///
/// Errors: [`TgsiError::Invalid`] when the shader fails the verifier,
/// [`TgsiError::Remap`] for a remap entry that is not a varying slot, and
/// [`TgsiError::Budget`].
pub fn emit_tgsi(
    shader: &Shader,
    var_remap: Option<&[i16]>,
    budget: Option<usize>,
) -> Result<String, TgsiError> {
    let text = emit_listing(shader, var_remap)?.text();
    match budget {
        Some(budget) if text.len() + 1 > budget => Err(TgsiError::Budget {
            len: text.len(),
            budget,
        }),
        _ => Ok(text),
    }
}
