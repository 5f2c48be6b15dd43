//! The parity dump: every CSIR instruction beside the TGSI it became, with the
//! instructions whose two back ends disagree on exceptional values marked.
//!
//! The interpreter defines CSIR (architecture.md; docs/csir-original.md A1); TGSI is
//! defined by tgsi.rst, softpipe's `tgsi_exec` and virglrenderer's GLSL (docs/tgsi-text.md
//! §2). For ordinary values the emitted TGSI computes what the interpreter computes (within
//! rounding of the transcendental functions). For these operations and inputs it does not,
//! and the dump marks them with `!`:
//!
//! | CSIR | inputs | interpreter | TGSI |
//! |---|---|---|---|
//! | POW | x < 0; x = 0 with y ≤ 0 | C `powf` (pow(−2, 2) = 4, pow(0, 0) = 1, pow(0, −1) = +inf) | NaN (GLSL leaves them undefined; llvmpipe gives NaN) |
//! | MIN, MAX (seed profile only) | b NaN, a not | b (NaN): `a < b ? a : b` | a: a NaN operand is ignored (`fminf`/`fmaxf`, tgsi_exec); the extended profile's MIN and MAX ignore it too (IEEE minNum/maxNum), so agree |
//! | IDIV, UDIV, IMOD, UMOD | b = 0 (IDIV: also `INT_MIN / -1`) | `exec::math::int`'s rules (llvmpipe's: 0, ~0, ~0, ~0) | undefined |
//! | IMOD | a negative operand | the sign of `a`, truncating as C (`-17 % 3 = -2`) | undefined (GLSL 1.30 §5.9; a virgl host gave 2) |
//! | F2I, F2U | NaN, out of range | saturated, NaN 0 | undefined (x86 llvmpipe gives 0x80000000) |
//!
//! Everything else agrees exactly on every input, NaN and infinities included:
//! comparisons (NaN is false except for `!=`), IF (NaN is true), TRUNC, ABS, the
//! MUL/MAD chains of matrix products (IEEE: 0·inf = NaN on both sides; the emitter
//! never asks for `LEGACY_MATH_RULES`), SIN/COS (NaN for ±inf on both sides), and RSQ
//! and RCP, which the emitter guards so that RSQ of x ≤ 0 or NaN and RCP of ±0 give the
//! interpreter's 0 (TGSI's own RSQ and RCP give ±inf or NaN there; see `emit`).

use super::emit::emit_listing;
use super::error::TgsiError;
use crate::ir::{Op, Profile, Shader, dump_instruction};
use std::fmt::Write;

/// How the two back ends define `op` differently on exceptional inputs in a shader of
/// `profile`, or `None` when they agree on every input (the table in the module docs).
pub fn divergence(op: Op, profile: Profile) -> Option<&'static str> {
    match op {
        Op::Min | Op::Max if profile == Profile::Extended => None,
        Op::Pow => {
            Some("POW(x < 0, y) and POW(0, y <= 0): interpreter powf, TGSI NaN (undefined in GLSL)")
        }
        Op::Min => Some("MIN(a, NaN): interpreter NaN (a < b ? a : b), TGSI a (NaN ignored)"),
        Op::Max => Some("MAX(a, NaN): interpreter NaN (a > b ? a : b), TGSI a (NaN ignored)"),
        Op::IDiv | Op::UDiv | Op::UMod => {
            Some("division by 0: interpreter exec::math::int's rule (as llvmpipe), TGSI undefined")
        }
        Op::IMod => Some(
            "division by 0: interpreter exec::math::int's rule (as llvmpipe), TGSI undefined; \
             a negative operand: interpreter the sign of a (-17 % 3 = -2, as C), TGSI undefined \
             (GLSL 1.30 §5.9)",
        ),
        Op::F2I | Op::F2U => {
            Some("NaN or out of range: interpreter saturates (NaN 0), TGSI undefined")
        }
        _ => None,
    }
}

/// Both back ends side by side: the TGSI header, then one block per live CSIR
/// instruction — its IR dump line on the left, the numbered TGSI lines it produced on
/// the right — and a summary.
///
/// A line starting with `!` is an instruction whose semantics differ on exceptional
/// values ([`divergence`]), followed by a `!` note saying how. A load whose result
/// nothing reads shows `(not emitted: ...)`. A seed-profile shader:
///
/// ```text
///   %8 = dot %6 %7 aux 3          |  20: DP3 TEMP[8].x, TEMP[6], TEMP[7]
/// ! %10 = max %8 %9               |  21: MAX TEMP[10].x, TEMP[8], TEMP[9]
/// !     MAX(a, NaN): interpreter NaN (a > b ? a : b), TGSI a (NaN ignored)
/// ```
///
/// Errors: as [`emit_tgsi`](super::emit_tgsi) without a budget.
pub fn parity_dump(shader: &Shader, var_remap: Option<&[i16]>) -> Result<String, TgsiError> {
    let listing = emit_listing(shader, var_remap)?;
    let numbered: Vec<_> = listing.numbered().collect();
    let left: Vec<String> = shader.ir.iter().map(dump_instruction).collect();
    let width = left.iter().map(String::len).max().unwrap_or(0).max(20) + 2;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "parity {} ({}): CSIR | TGSI",
        shader.name, shader.stage
    );
    for line in &listing.header {
        let _ = writeln!(out, "  {:width$}| {line}", "");
    }
    let mut marked = 0;
    let mut live = 0;
    let mut rows = numbered.iter().peekable();
    while let Some((_, text)) = rows.next_if(|(l, _)| l.ir_index.is_none()) {
        let _ = writeln!(out, "  {:width$}| {text}", "(emitter prologue)");
    }
    for (index, ir) in shader.ir.iter().enumerate() {
        let Some(op) = ir.opcode().filter(|&op| op != Op::Nop) else {
            continue;
        };
        live += 1;
        let note = divergence(op, shader.limits.profile);
        let flag = if note.is_some() { '!' } else { ' ' };
        marked += usize::from(note.is_some());
        let mut first = true;
        while let Some((_, text)) = rows.next_if(|(l, _)| l.ir_index == Some(index)) {
            let lhs = if first { left[index].as_str() } else { "" };
            let _ = writeln!(out, "{flag} {lhs:width$}| {text}");
            first = false;
        }
        if first {
            let reason = format!("(not emitted: nothing reads %{})", ir.dst);
            let _ = writeln!(out, "{flag} {:width$}| {reason}", left[index]);
        }
        if let Some(note) = note {
            let _ = writeln!(out, "!     {note}");
        }
    }
    for (_, text) in rows {
        let _ = writeln!(out, "  {:width$}| {text}", "");
    }
    let _ = writeln!(
        out,
        "{marked} of {live} CSIR instructions differ from TGSI on exceptional values (marked !)"
    );
    Ok(out)
}
