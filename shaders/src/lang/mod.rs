//! The GLSL-like front end: source text to a verified CSIR [`Shader`].
//!
//! ```text
//! source ─lexer─▶ tokens ─parser─▶ ast ─structs─▶ ast without structs
//!        ─lower─▶ Ir + immediates + interface
//!        ─ir::optimize─▶ ─ir::verify─▶ Shader
//! ```
//!
//! The language is the ChrisOS GLSL subset (docs/csir-original.md B §1) with the fixes of
//! docs/csir-original.md A2, grown towards the GLSL 3.30 people write, every construct
//! lowered to the existing opcodes: compound assignment, `++`/`--` statements, swizzle and
//! constant-index assignment targets, `stpq`, `?:`, `break`/`continue` in unrolled loops
//! (any constant-folding condition and step), `out`/`inout` parameters, `bvec2..4` and
//! `mat2` (front-end types, recorded as float vectors), arrays (`lower/arrays.rs`: locals,
//! consts, private globals and uniforms laid out one element per vec4 slot, constructors,
//! `.length()`, run-time indexes), the vector relational built-ins (`lower/logic.rs`),
//! `atan`/`asin`/`acos`/hyperbolics (`lower/trig.rs`) and the rest of the built-ins in
//! `lower/builtins.rs` and `lower/math.rs`.
//!
//! Compatibility with the original (docs/csir-original.md A1): an `int` or `float` scalar
//! is a condition (`if`, `?:`, loops, `&& || ^^ !`: nonzero is true), and a `bool` scalar
//! is the number 0 or 1 in arithmetic and assignments, as the original computes them; GLSL
//! rejects both, so no GLSL program changes meaning (`lower/logic.rs`).
//!
//! Phases stop at the first one that reports errors, so a syntax error is never
//! followed by semantic noise such as "missing main" (docs/csir-original.md A2).
//!
//! # Bounds (docs/csir-original.md A3)
//! The front end stays bounded whatever the input: source at most
//! `Limits::source_bytes` ("shader source exceeds the size limit"); identifiers at most
//! [`lexer::MAX_IDENT_LEN`] characters; expression plus statement nesting at most
//! [`parser::MAX_NESTING`] ("nesting limit exceeded"); the lowering's recursion
//! (nesting across inlined calls) at most 200; at most 8 nested user calls ("call
//! depth limit"); `Limits::unroll` iterations per loop; 200 000 statements and
//! expression nodes lowered per compile, unrolled and inlined copies included
//! ("shader exceeds the compile-time work limit"); and the IR pools of [`Limits`].

pub mod ast;
pub mod builtin_vars;
mod consteval;
pub mod diagnostic;
pub mod dialect;
mod implicit_size;
pub mod lexer;
mod lower;
pub mod parser;
mod preprocessor;
mod scope;
mod structs;
pub mod token;
pub mod types;

pub use diagnostic::{CompileErrors, Diagnostic};

use crate::ir::{Limits, Shader, Stage, optimize, verify};
use diagnostic::Diagnostics;
use token::Pos;

/// Compile `source` (shown as `name` in diagnostics and dumps) for `stage`.
///
/// Lexes, parses, checks and lowers to CSIR with the prologue
/// (docs/csir-original.md B §2.4), then runs [`optimize`] and [`verify`]. The returned
/// shader is verified and carries its interface (symbols in declaration order with
/// their slots, high-water marks, `writes_position`).
///
/// Errors: every problem found, as `NAME:LINE:COL: error: MESSAGE` diagnostics (at most
/// `limits.errors` logged; see [`CompileErrors`]). Never panics, whatever the input.
pub fn compile(
    source: &str,
    name: &str,
    stage: Stage,
    limits: &Limits,
) -> Result<Shader, CompileErrors> {
    // CR LF and a lone CR end lines as LF does (GLSL 3.30 §3.1); positions count
    // lines the same way in every form.
    let normalized;
    let source = if source.contains('\r') {
        normalized = source.replace("\r\n", "\n").replace('\r', "\n");
        normalized.as_str()
    } else {
        source
    };
    let mut diags = Diagnostics::new(limits.errors);
    let fail = |d: Diagnostics| Err(d.into_errors(name, source));
    if limits.validate().is_err() {
        diags.error(Pos::START, "invalid limits");
        return fail(diags);
    }
    if source.is_empty() {
        diags.error(Pos::START, "empty shader");
        return fail(diags);
    }
    if source.len() > limits.source_bytes {
        diags.error(Pos::START, "shader source exceeds the size limit");
        return fail(diags);
    }
    let (tokens, dialect) = lexer::lex_with_dialect(source, &mut diags);
    if !diags.is_empty() {
        return fail(diags);
    }
    let mut program = parser::parse(&tokens, &mut diags);
    program.dialect = dialect;
    if !diags.is_empty() {
        return fail(diags);
    }
    implicit_size::size_implicit_arrays(&mut program, &mut diags);
    if !diags.is_empty() {
        return fail(diags);
    }
    structs::flatten(&mut program, &mut diags);
    if !diags.is_empty() {
        return fail(diags);
    }
    let (lowered, mut diags) = lower::lower(&program, stage, limits, diags);
    let Some(out) = lowered else {
        return fail(diags);
    };
    let mut shader = Shader {
        name: name.to_string(),
        stage,
        limits: *limits,
        ir: out.ir,
        imm: out.imm,
        ntmp: out.ntmp,
        interface: out.interface,
    };
    optimize(&mut shader);
    if let Err(e) = verify(&shader) {
        diags.error(
            Pos::START,
            format!("internal error: the compiled IR does not verify: {e}"),
        );
        return fail(diags);
    }
    Ok(shader)
}
