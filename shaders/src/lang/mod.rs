//! The GLSL-like front end: source text to a verified CSIR [`Shader`].
//!
//! ```text
//! source ─lexer─▶ tokens ─parser─▶ ast ─blocks─▶ ast without interface blocks
//!        ─structs─▶ ast without structs
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
//! [`parser::MAX_NESTING`] ("nesting limit exceeded: ... the limit is 64") and chains of
//! binary operators at most [`parser::MAX_OPERATOR_CHAIN`] ("expression too long");
//! the lowering's recursion (nesting across inlined calls) at most
//! 400 levels (`lower::MAX_LOWER_NESTING`); at most `Limits::call_depth` nested user calls ("call
//! depth limit"); `Limits::unroll` iterations per loop; 200 000 statements and
//! expression nodes lowered per compile, unrolled and inlined copies included
//! ("shader exceeds the compile-time work limit"); and the IR pools of [`Limits`].

pub mod ast;
mod blocks;
pub mod builtin_vars;
mod consteval;
pub mod diagnostic;
pub mod dialect;
mod geometry;
mod implicit_size;
pub mod lexer;
mod lower;
pub mod parser;
mod preprocessor;
mod scope;
mod structs;
pub mod token;
pub mod types;
mod units;

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
    compile_units(&[Unit { name, source }], stage, limits)
}

/// One compilation unit of a stage: its text and the name its diagnostics carry.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a> {
    /// Shown as the file in diagnostics (`NAME:LINE:COL`).
    pub name: &'a str,
    /// The GLSL text.
    pub source: &'a str,
}

/// The most compilation units one stage is compiled from.
pub const MAX_UNITS: usize = 32;

/// Compile one stage from one or more compilation units linked together (GLSL 1.20
/// §2.1: the shaders of one stage attached to a program form one executable). Each
/// unit is preprocessed and parsed on its own (its own `#version`, `#define`s and
/// line numbers), then the units are joined as `units.rs` describes: globals of one
/// name are one variable, a function declared in one unit may be defined in another,
/// exactly one unit defines `main`. The result is what [`compile`] gives for one.
///
/// Errors: as [`compile`], each diagnostic naming its unit ([`Diagnostic::unit`]);
/// more than [`MAX_UNITS`] units, or none, is an error too.
pub fn compile_units(
    units: &[Unit<'_>],
    stage: Stage,
    limits: &Limits,
) -> Result<Shader, CompileErrors> {
    compile_with(units, stage, limits, true, true)
}

/// Compile the vertex shader of a program that has a geometry shader, from one or
/// more units: [`compile_units`] for [`Stage::Vertex`] without the rule that it write
/// `gl_Position`, which the geometry shader writes instead (GL 3.2 §2.12: the
/// vertex shader's `gl_Position` is only an input of the geometry shader, `gl_in[]`).
///
/// Errors: as [`compile_units`].
pub fn compile_vertex_for_geometry(
    units: &[Unit<'_>],
    limits: &Limits,
) -> Result<Shader, CompileErrors> {
    compile_with(units, Stage::Vertex, limits, true, false)
}

/// Compile one compilation unit on its own, as `glCompileShader` does: every rule of
/// [`compile`] except the two that belong to the whole stage, which only linking can
/// check. `main` need not be defined (GLSL 1.10 §6.1: "A shader need not contain a
/// function named main, but one shader in a set of shaders linked together to form a
/// single shader executable must"), and a vertex shader need not write `gl_Position`
/// (another unit of the stage may). Every function is still checked, called or not.
///
/// The returned shader runs the unit's `main` if it has one and nothing otherwise;
/// it serves to check a unit (piglit's compiler tests, docs/conformance.md), not
/// to draw with.
///
/// Errors: as [`compile`].
pub fn compile_unit_alone(
    source: &str,
    name: &str,
    stage: Stage,
    limits: &Limits,
) -> Result<Shader, CompileErrors> {
    compile_with(&[Unit { name, source }], stage, limits, false, false)
}

/// [`compile_units`], with the whole-stage rules (`main` defined, `gl_Position`
/// written) checked when `whole_stage`.
fn compile_with(
    units: &[Unit<'_>],
    stage: Stage,
    limits: &Limits,
    whole_stage: bool,
    needs_position: bool,
) -> Result<Shader, CompileErrors> {
    // CR LF and a lone CR end lines as LF does (GLSL 3.30 §3.1); positions count
    // lines the same way in every form.
    let texts: Vec<std::borrow::Cow<'_, str>> = units
        .iter()
        .map(|u| match u.source.contains('\r') {
            true => u.source.replace("\r\n", "\n").replace('\r', "\n").into(),
            false => u.source.into(),
        })
        .collect();
    let single = units.len() == 1;
    let fail = |d: Diagnostics| {
        Err(match single {
            true => d.into_errors(units[0].name, &texts[0]),
            false => d.into_unit_errors(
                units
                    .iter()
                    .zip(&texts)
                    .map(|(u, t)| (u.name.to_string(), t.to_string()))
                    .collect(),
            ),
        })
    };
    let mut diags = Diagnostics::new(limits.errors);
    if limits.validate().is_err() {
        diags.error(Pos::START, "invalid limits");
        return fail(diags);
    }
    if units.is_empty() || units.len() > MAX_UNITS {
        diags.error(
            Pos::START,
            format!(
                "a stage is compiled from 1 to {MAX_UNITS} compilation units, not {}",
                units.len()
            ),
        );
        return fail(diags);
    }
    let mut programs = Vec::with_capacity(units.len());
    for (k, text) in texts.iter().enumerate() {
        let line = |l: u32| match single {
            true => l,
            false => diagnostic::unit_line(k, l),
        };
        let start = Pos {
            line: line(1),
            col: 1,
        };
        if text.is_empty() {
            diags.error(start, "empty shader");
            continue;
        }
        if text.len() > limits.source_bytes {
            diags.error(
                start,
                format!(
                    "shader source exceeds the size limit ({} bytes, the limit is {})",
                    text.len(),
                    limits.source_bytes
                ),
            );
            continue;
        }
        let mut lexed = Diagnostics::new(limits.errors);
        let (mut tokens, dialect) = lexer::lex_with_dialect(text, &mut lexed);
        match single {
            true => diags = lexed,
            false => diags.absorb(lexed, k),
        }
        if !diags.is_empty() {
            continue;
        }
        for t in &mut tokens {
            t.pos.line = line(t.pos.line);
        }
        let program = parser::parse_in(&tokens, dialect, &mut diags);
        parser::report_missing_float_precision(&program, dialect, stage, &mut diags);
        programs.push(program);
    }
    if !diags.is_empty() {
        return fail(diags);
    }
    let mut program = match single {
        true => programs.pop().unwrap_or_default(),
        false => units::join(programs, &mut diags),
    };
    if !diags.is_empty() {
        return fail(diags);
    }
    let geometry = geometry::prepare(
        &mut program,
        stage,
        whole_stage,
        limits.extended_ops(),
        &mut diags,
    );
    if !diags.is_empty() {
        return fail(diags);
    }
    blocks::lower_blocks(&mut program, stage, &mut diags);
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
    let (lowered, mut diags) =
        lower::lower(&program, stage, limits, diags, whole_stage, needs_position);
    let Some(mut out) = lowered else {
        return fail(diags);
    };
    out.interface.geometry = geometry;
    if let Some(m) = geometry
        .as_ref()
        .and_then(|g| geometry::check_output_components(g, out.interface.var_hi))
    {
        let pos = program.geometry.max_vertices.map_or(Pos::START, |(_, p)| p);
        diags.error(pos, m);
        return fail(diags);
    }
    let mut shader = Shader {
        name: units[0].name.to_string(),
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
