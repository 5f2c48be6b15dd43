//! One invocation of one shader, from values given by name (`csir-render run`).
//!
//! **What is required.** Nothing: every declared input that is not given reads what
//! OpenGL gives an input nobody set — a uniform 0 (GL initialises uniforms to zero),
//! an attribute (0, 0, 0, 1) (GL's default generic attribute), a varying 0, a sampler
//! with no texture (0, 0, 0, 0) — and `gl_FragCoord`, when the shader reads it,
//! [`DEFAULT_FRAG_COORD`]. Each such input is listed in [`Invocation::defaulted`]
//! (the command line prints a `note:` line per input on stderr), so a forgotten matrix
//! is visible rather than silent. With [`InvocationRequest::strict`], a missing input is
//! an error instead. Names the shader does not declare, a wrong float count, the same
//! input given twice, or an option for the other stage are always errors.
//!
//! The invocation runs through the scalar interpreter with the instruction trace on
//! ([`run_recorded`]); the outputs are exactly what [`csir::exec::Machine::run`] gives.

use super::assignment::Assignment;
use super::input_binding::InputBinder;
use super::instruction_trace::{TracedInstruction, record_run, run_recorded};
use super::invocation_error::{InputKind, InvocationError};
use super::named_value::NamedValue;
use crate::texture::Texture;
use csir::exec::{Inputs, Machine};
use csir::ir::SymbolKind;
use csir::{Shader, Stage};
use serde::Serialize;

/// `gl_FragCoord` when `--fragcoord` is not given: the centre of pixel (0, 0), depth
/// 0.5, 1/w = 1 — a value a real fragment can have.
pub const DEFAULT_FRAG_COORD: [f32; 4] = [0.5, 0.5, 0.5, 1.0];

/// The values one invocation reads, by name.
#[derive(Clone, Debug, Default)]
pub struct InvocationRequest {
    /// `NAME=floats` or `NAME[i]=floats` per uniform, column-major for matrices.
    pub uniforms: Vec<Assignment>,
    /// `LOCATION=floats` or `NAME=floats` per vertex input: 1 to the input's width
    /// floats; missing lanes come from (0, 0, 0, 1) as in OpenGL.
    pub attributes: Vec<Assignment>,
    /// `NAME=floats` per fragment input (exactly its float count).
    pub varyings: Vec<Assignment>,
    /// `gl_FragCoord` (exactly 4 floats: window x, y, depth, 1/w).
    pub frag_coord: Option<Vec<f32>>,
    /// Sampler name → texture, sampled nearest / clamp-to-edge.
    pub textures: Vec<(String, Texture)>,
    /// Every declared input must be given.
    pub strict: bool,
}

/// A declared input that was not given, and the value it read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DefaultedInput {
    /// What kind of input.
    pub kind: InputKind,
    /// Its name (`uL[2]` for one element of an array).
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: String,
    /// What it read (empty for a sampler, which samples (0, 0, 0, 0)).
    #[serde(serialize_with = "super::json_float::floats")]
    pub value: Vec<f32>,
}

/// What one invocation produced.
///
/// Serialized (`run --json`), floats are exact JSON numbers, except NaN and the
/// infinities, written as the strings `"NaN"`, `"inf"` and `"-inf"`; in
/// [`Invocation::instructions`], a lane an instruction did not write is `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Invocation {
    /// The shader's name.
    pub shader: String,
    /// `vertex` or `fragment`.
    pub stage: String,
    /// Declared inputs that were not given (see the module docs).
    pub defaulted: Vec<DefaultedInput>,
    /// Vertex: `gl_Position`, then every `out` in declaration order. Fragment: the
    /// colour output.
    pub outputs: Vec<NamedValue>,
    /// Fragment: whether a `discard` ran (the colour is then what was stored before
    /// it). Absent for a vertex shader.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discarded: Option<bool>,
    /// How many instructions ran (IF/ELSE/ENDIF on the running path included).
    pub executed: usize,
    /// Every executed instruction (a caller that does not want the listing may
    /// clear it; the text form prints it when it is not empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub instructions: Vec<TracedInstruction>,
    /// Why the interpreter stopped early (never for a compiled shader).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}

/// Run `shader` once on the values of `request`.
///
/// # Errors
/// [`InvocationError`]: an unknown name, a wrong float count, an input given twice, an
/// option for the other stage, a `--texture` on a non-sampler, or (strict) a missing
/// input.
pub fn run_invocation(
    shader: &Shader,
    request: &InvocationRequest,
) -> Result<Invocation, InvocationError> {
    if shader.stage == Stage::Geometry {
        return Err(InvocationError::GeometryStage(shader.name.clone()));
    }
    // Verified once: the machine runs the invocation, its IF table serves the binder.
    let machine = Machine::new(shader).ok();
    let ifs = machine
        .as_ref()
        .map(|m| m.info().ifs.clone())
        .unwrap_or_default();
    let binder = InputBinder::new(shader, &ifs);
    binder.check_stage(&request.attributes, InputKind::Attribute, Stage::Vertex)?;
    binder.check_stage(&request.varyings, InputKind::Varying, Stage::Fragment)?;
    if request.frag_coord.is_some() && shader.stage != Stage::Fragment {
        return Err(binder.wrong_stage(InputKind::FragCoord, Stage::Fragment));
    }
    let mut defaulted = Vec::new();
    let uniforms = binder.uniforms(&request.uniforms, &mut defaulted)?;
    let samplers = binder.samplers(&request.textures, &mut defaulted)?;
    let attributes = binder.attributes(&request.attributes, &mut defaulted)?;
    let varyings = binder.varyings(&request.varyings, &mut defaulted)?;
    let frag_coord = binder.frag_coord(request.frag_coord.as_deref(), &mut defaulted)?;
    // Report in declaration order, whatever order the kinds were bound in.
    defaulted.sort_by_key(|d: &DefaultedInput| binder.declaration_order(&d.name));
    if request.strict && !defaulted.is_empty() {
        let inputs = defaulted
            .iter()
            .map(|d| format!("{} '{}' ({}, {})", d.kind, d.name, d.ty, d.kind.option()))
            .collect();
        return Err(InvocationError::Missing { inputs });
    }

    let inputs = Inputs {
        uniforms: &uniforms,
        attributes: &attributes,
        varyings: &varyings,
        frag_coord,
        samplers: &samplers,
        ..Inputs::default()
    };
    let run = match machine {
        Some(mut machine) => record_run(&mut machine, &inputs),
        None => run_recorded(shader, &inputs),
    };
    let patterns = shader.limits.extended_ops();
    let (outputs, discarded) = match shader.stage {
        Stage::Vertex => {
            let mut outputs = vec![NamedValue::from_slots(
                "gl_Position",
                csir::Type::Vec4,
                None,
                &[run.outputs.position],
                0,
                patterns,
            )];
            let interface = &shader.interface;
            outputs.extend(interface.symbols.iter().filter_map(|s| match s.kind {
                SymbolKind::VaryingOut { slot } => Some(NamedValue::from_slots(
                    &s.name,
                    s.ty,
                    s.array_len,
                    &run.outputs.varyings,
                    slot as usize,
                    patterns,
                )),
                _ => None,
            }));
            (outputs, None)
        }
        Stage::Fragment => {
            let color = NamedValue::color_output(shader, run.outputs.color);
            (vec![color], Some(run.outputs.discarded))
        }
        Stage::Geometry => unreachable!("refused above"),
    };
    Ok(Invocation {
        shader: shader.name.clone(),
        stage: shader.stage.name().to_string(),
        defaulted,
        outputs,
        discarded,
        executed: run.instructions.len(),
        instructions: run.instructions,
        fault: run.fault,
    })
}

#[cfg(test)]
#[path = "invocation_tests.rs"]
mod tests;
