//! The built-ins a VirGL host computes itself, declared with their TGSI semantics
//! instead of as ordinary registers (docs/tgsi-text.md §1 "Declarations";
//! docs/virgl.md "Points, lines and instancing"):
//!
//! - `gl_VertexID` and `gl_InstanceID`, which CSIR reads as attributes at the lowest
//!   free locations (`lang/builtin_vars.rs`), are the system values
//!   `DCL SV[k], VERTEXID` and `DCL SV[k], INSTANCEID` (k in location order).
//!   virglrenderer turns them into the host's `gl_VertexID` and `gl_InstanceID` as
//!   32-bit integer patterns (`intBitsToFloat`), CSIR's representation of an `int`;
//!   `VERTEXID` is GL's `gl_VertexID`, the index including the base vertex (GLSL 1.40
//!   §7.1), which is what the host's GLSL gives.
//! - `gl_PrimitiveID` (fragment) is the input `DCL IN[n], PRIM_ID, CONSTANT` (the
//!   host's `gl_PrimitiveID`, an integer pattern).
//! - `gl_PointCoord` (fragment) is the input `DCL IN[n], GENERIC[n], PERSPECTIVE`
//!   that a rasterizer state with `sprite_coord_enable` bit `n` replaces by the point
//!   sprite coordinate (`gl_PointCoord`, with 0 and 1 in z and w) in draws of points,
//!   the form Mesa's state tracker sends to a driver without `TEXCOORD` semantics
//!   such as virgl ([`point_coord_generic`] names `n`).
//! - `gl_PointSize` (vertex) is the output `DCL OUT[s+1], PSIZE`, which the host
//!   sizes points by when the rasterizer state says so (`GL_PROGRAM_POINT_SIZE`).
//!
//! The fragment inputs are made by the rasterizer, so the link gives them no vertex
//! slot; their `IN` indices are the lowest that no linked varying uses, in
//! declaration order, before the fragment position's and the face's.

use crate::ir::{Shader, Stage, SymbolKind};
use std::collections::{BTreeMap, BTreeSet};

/// A fragment input the rasterizer makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RasterizerInput {
    /// `gl_PrimitiveID`.
    PrimitiveId,
    /// `gl_PointCoord`.
    PointCoord,
}

impl RasterizerInput {
    fn of(name: &str) -> Option<RasterizerInput> {
        match name {
            "gl_PrimitiveID" => Some(RasterizerInput::PrimitiveId),
            "gl_PointCoord" => Some(RasterizerInput::PointCoord),
            _ => None,
        }
    }
}

/// The system-value and rasterizer-made registers of one shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Builtins {
    /// Vertex stage: attribute location → (`SV` index, semantic name).
    system_values: BTreeMap<u16, (u16, &'static str)>,
    /// Fragment stage: fragment-local varying slot → (`IN` index, what it is).
    rasterizer_inputs: BTreeMap<u16, (u16, RasterizerInput)>,
    /// Vertex stage: the `OUT` index of `gl_PointSize`.
    point_size_output: Option<u16>,
}

impl Builtins {
    /// The built-ins `shader` declares. `remap` is the fragment shader's `var_remap`
    /// (fragment slot → vertex slot, −1 none; empty for none).
    pub fn of(shader: &Shader, remap: &[i16]) -> Builtins {
        let mut builtins = Builtins::default();
        let symbols = &shader.interface.symbols;
        match shader.stage {
            Stage::Vertex => {
                let mut system: Vec<(u16, &'static str)> = symbols
                    .iter()
                    .filter_map(|s| match (s.kind, s.name.as_str()) {
                        (SymbolKind::Attribute { location }, "gl_VertexID") => {
                            Some((location, "VERTEXID"))
                        }
                        (SymbolKind::Attribute { location }, "gl_InstanceID") => {
                            Some((location, "INSTANCEID"))
                        }
                        _ => None,
                    })
                    .collect();
                system.sort_unstable();
                for (k, (location, name)) in system.into_iter().enumerate() {
                    builtins.system_values.insert(location, (k as u16, name));
                }
                builtins.point_size_output = match shader.varying_output("gl_PointSize") {
                    Some(s) => match s.kind {
                        SymbolKind::VaryingOut { slot } => Some(slot + 1),
                        _ => None,
                    },
                    None => None,
                };
            }
            Stage::Fragment => {
                let remapped = |slot: u16| match remap.get(slot as usize) {
                    Some(&target) if target >= 0 => target as u16,
                    _ => slot,
                };
                let mut linked = BTreeSet::new();
                let mut made = Vec::new();
                for s in symbols {
                    let SymbolKind::VaryingIn { slot } = s.kind else {
                        continue;
                    };
                    match RasterizerInput::of(&s.name) {
                        Some(input) => made.push((slot, input)),
                        None => linked.extend((slot..slot + s.slot_count()).map(remapped)),
                    }
                }
                let mut free = (0u16..).filter(|i| !linked.contains(i));
                for (slot, input) in made {
                    let index = free.next().unwrap_or(0);
                    builtins.rasterizer_inputs.insert(slot, (index, input));
                }
            }
            Stage::Geometry => {}
        }
        builtins
    }

    /// The `SV` index of the system value read as attribute `location`, if it is one.
    pub fn system_value(&self, location: u16) -> Option<u16> {
        self.system_values.get(&location).map(|&(k, _)| k)
    }

    /// The `IN` index of the rasterizer-made input at fragment-local slot `slot`, if
    /// it is one.
    pub fn rasterizer_input(&self, slot: u16) -> Option<u16> {
        self.rasterizer_inputs.get(&slot).map(|&(index, _)| index)
    }

    /// The declaration of input `IN[index]` when it is a rasterizer-made input:
    /// `DCL IN[n], PRIM_ID, CONSTANT` or `DCL IN[n], GENERIC[n], PERSPECTIVE`.
    pub fn input_declaration(&self, index: u16) -> Option<String> {
        let (_, input) = self.rasterizer_inputs.values().find(|(i, _)| *i == index)?;
        Some(match input {
            RasterizerInput::PrimitiveId => format!("DCL IN[{index}], PRIM_ID, CONSTANT"),
            RasterizerInput::PointCoord => {
                format!("DCL IN[{index}], GENERIC[{index}], PERSPECTIVE")
            }
        })
    }

    /// The declaration of output `OUT[index]` when it is `gl_PointSize`'s:
    /// `DCL OUT[n], PSIZE`.
    pub fn output_declaration(&self, index: u16) -> Option<String> {
        (self.point_size_output == Some(index)).then(|| format!("DCL OUT[{index}], PSIZE"))
    }

    /// The `DCL SV[k], NAME` lines of the system values `used` (by `SV` index).
    pub fn system_value_declarations(&self, used: &BTreeSet<u16>) -> Vec<String> {
        let mut lines: Vec<(u16, &str)> = self
            .system_values
            .values()
            .filter(|(k, _)| used.contains(k))
            .copied()
            .collect();
        lines.sort_unstable();
        lines
            .into_iter()
            .map(|(k, name)| format!("DCL SV[{k}], {name}"))
            .collect()
    }
}

/// The `GENERIC` index of a fragment shader's `gl_PointCoord` input, the bit a VirGL
/// client sets in the rasterizer state's `sprite_coord_enable` so that the host
/// replaces it by the point sprite coordinate; `None` when the shader has no
/// `gl_PointCoord`. `var_remap` is the linked program's (as for
/// [`emit_tgsi`](super::emit_tgsi)).
pub fn point_coord_generic(fragment: &Shader, var_remap: Option<&[i16]>) -> Option<u16> {
    let builtins = Builtins::of(fragment, var_remap.unwrap_or(&[]));
    builtins
        .rasterizer_inputs
        .values()
        .find(|(_, input)| *input == RasterizerInput::PointCoord)
        .map(|&(index, _)| index)
}
