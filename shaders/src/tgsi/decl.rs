//! The TGSI header: the stage line, properties, and one declaration for every
//! register the instructions use (docs/csir-original.md B §5 header order;
//! docs/tgsi-text.md §1 "Declarations", "Immediates", "Properties").
//!
//! Declarations are derived from the instructions themselves, so every register an
//! instruction names is declared exactly once and nothing else is (tgsi_sanity:
//! "Undeclared ... register", "declared twice"). Every output a stage has is written
//! somewhere (by a store, or by the emitter's prologue with its initial value), so it
//! is declared too.

use super::builtins::Builtins;
use super::inst::Inst;
use super::operand::{File, HexF32};
use super::texture::TgsiTexture;
use crate::ir::{Interpolation, Stage};
use std::collections::{BTreeMap, BTreeSet};

/// The immediate vectors: four f32 each, deduplicated by bit pattern and numbered in
/// order of first use, so `IMM[n]` lines come out sorted from 0 ("Immediates must be
/// sorted") with exactly four values each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Immediates {
    bits: Vec<[u32; 4]>,
}

impl Immediates {
    /// The index of the immediate holding exactly `values` (by bits), adding it if new.
    pub fn intern(&mut self, values: [f32; 4]) -> u16 {
        let bits = values.map(f32::to_bits);
        let index = match self.bits.iter().position(|b| *b == bits) {
            Some(i) => i,
            None => {
                self.bits.push(bits);
                self.bits.len() - 1
            }
        };
        index as u16
    }

    /// The index of `{0, 0, 0, 0}`.
    pub fn zero(&mut self) -> u16 {
        self.intern([0.0; 4])
    }
}

/// What the header needs beyond the instructions.
#[derive(Clone, Debug)]
pub struct HeaderInfo {
    /// Vertex or fragment.
    pub stage: Stage,
    /// Fragment stage: the `IN` index of the fragment position.
    pub position_input: u16,
    /// Fragment stage: the `IN` index of the front-facing input (`FACE`).
    pub face_input: u16,
    /// Fragment stage: the interpolation qualifier of each varying `IN` index that has
    /// one (others are `PERSPECTIVE`).
    pub interpolation: BTreeMap<u16, Interpolation>,
    /// Vertex stage: the `OUT` index of `gl_ClipVertex` (GL 3.0 §2.17), declared
    /// `CLIPVERTEX` instead of `GENERIC`.
    pub clip_vertex_output: Option<u16>,
    /// The system values (vertex), rasterizer-made inputs (fragment) and `PSIZE`
    /// output (vertex) and their declarations.
    pub builtins: Builtins,
}

/// Registers named by a list of instructions, per file.
#[derive(Default)]
struct Used {
    inputs: BTreeSet<u16>,
    outputs: BTreeSet<u16>,
    system_values: BTreeSet<u16>,
    /// Sampler index → its view's declaration (from the texture instruction).
    samplers: BTreeMap<u16, TgsiTexture>,
    consts: Option<u16>,
    temps: Option<u16>,
}

impl Used {
    fn scan<'a>(body: impl IntoIterator<Item = &'a Inst>) -> Used {
        let mut used = Used::default();
        for inst in body {
            let regs = inst.dst.iter().map(|d| d.reg);
            for reg in regs.chain(inst.src.iter().map(|s| s.reg)) {
                match reg.file {
                    File::In => {
                        used.inputs.insert(reg.index);
                    }
                    File::Out => {
                        used.outputs.insert(reg.index);
                    }
                    File::Samp => {
                        used.samplers.insert(reg.index, inst.texture());
                    }
                    File::Const => used.consts = used.consts.max(Some(reg.index)),
                    File::Temp => used.temps = used.temps.max(Some(reg.index)),
                    File::SystemValue => {
                        used.system_values.insert(reg.index);
                    }
                    File::Imm => {}
                }
            }
        }
        used
    }
}

/// `DCL FILE[0..last]`, or `DCL FILE[0]` for a single register (`file_prefix` is
/// `TEMP` or `CONST[0]`).
fn range_decl(file_prefix: &str, last: u16) -> String {
    if last == 0 {
        format!("DCL {file_prefix}[0]")
    } else {
        format!("DCL {file_prefix}[0..{last}]")
    }
}

/// The header lines, in order: `VERT`/`FRAG`; `DCL IN`; `DCL OUT`;
/// `DCL SAMP` + `DCL SVIEW ..., TARGET, RETURN` per sampler (the target and return
/// type of its texture instructions, [`TgsiTexture`]: `2D, FLOAT` for `sampler2D`); `DCL CONST[0][0..n]`;
/// `DCL TEMP[0..n]`; then `IMM[k] FLT32 {...}` in hex.
///
/// No `FS_COORD_ORIGIN` property: TGSI's default origin (UPPER_LEFT, half-integer
/// centres) counts the position's y from row 0 of the render target, and a guest that
/// draws as OpenGL draws into a framebuffer object (the viewport maps NDC y = −1 to
/// row 0) has OpenGL's bottom row there, so `gl_FragCoord.y` counts up from the
/// bottom as GLSL defines it. `LOWER_LEFT` counts from the last row instead:
/// virglrenderer turns it into `layout(origin_upper_left)` for such a target, and
/// Mesa's own virgl driver undoes it with `y' = height − y` (seen with virglrenderer
/// 0.10.4 and Mesa 22.3's virgl driver).
///
/// Semantics: vertex inputs carry none (docs/tgsi-text.md §1: they take no semantic and
/// no interpolation); a vertex shader writes `OUT[0], POSITION` and `OUT[s+1], GENERIC[s]`
/// for varying slot `s`, except `gl_ClipVertex`'s, which is `OUT[s+1], CLIPVERTEX`
/// ([`HeaderInfo::clip_vertex_output`]); a fragment shader reads `IN[s], GENERIC[s], PERSPECTIVE`
/// for (vertex) slot `s` (`CONSTANT` for a `flat` one, `LINEAR` for a `noperspective`
/// one), its position as `POSITION, LINEAR` at
/// [`HeaderInfo::position_input`], whether its primitive is front-facing as
/// `FACE, CONSTANT` at [`HeaderInfo::face_input`], and writes `OUT[0], COLOR` and
/// `OUT[k], COLOR[k]` for a further colour output `k`.
pub fn header<'a>(
    info: &HeaderInfo,
    body: impl IntoIterator<Item = &'a Inst>,
    imms: &Immediates,
) -> Vec<String> {
    let used = Used::scan(body);
    let mut lines = Vec::new();
    match info.stage {
        Stage::Vertex => lines.push("VERT".to_owned()),
        Stage::Fragment => lines.push("FRAG".to_owned()),
        Stage::Geometry => lines.push("GEOM".to_owned()),
    }
    for &i in &used.inputs {
        lines.push(match info.stage {
            Stage::Vertex | Stage::Geometry => format!("DCL IN[{i}]"),
            Stage::Fragment if i == info.position_input => {
                format!("DCL IN[{i}], POSITION, LINEAR")
            }
            Stage::Fragment if i == info.face_input => format!("DCL IN[{i}], FACE, CONSTANT"),
            Stage::Fragment if info.builtins.input_declaration(i).is_some() => {
                info.builtins.input_declaration(i).unwrap_or_default()
            }
            Stage::Fragment => {
                let mode = match info.interpolation.get(&i) {
                    Some(Interpolation::Flat) => "CONSTANT",
                    Some(Interpolation::NoPerspective) => "LINEAR",
                    Some(Interpolation::Smooth) | None => "PERSPECTIVE",
                };
                format!("DCL IN[{i}], GENERIC[{i}], {mode}")
            }
        });
    }
    for &o in &used.outputs {
        lines.push(match (info.stage, o) {
            (Stage::Vertex | Stage::Geometry, 0) => "DCL OUT[0], POSITION".to_owned(),
            (Stage::Vertex | Stage::Geometry, o) if info.clip_vertex_output == Some(o) => {
                format!("DCL OUT[{o}], CLIPVERTEX")
            }
            (Stage::Vertex, o) if info.builtins.output_declaration(o).is_some() => {
                info.builtins.output_declaration(o).unwrap_or_default()
            }
            (Stage::Vertex | Stage::Geometry, o) => format!("DCL OUT[{o}], GENERIC[{}]", o - 1),
            (Stage::Fragment, 0) => "DCL OUT[0], COLOR".to_owned(),
            (Stage::Fragment, o) => format!("DCL OUT[{o}], COLOR[{o}]"),
        });
    }
    lines.extend(info.builtins.system_value_declarations(&used.system_values));
    for (&s, texture) in &used.samplers {
        lines.push(format!("DCL SAMP[{s}]"));
        lines.push(format!(
            "DCL SVIEW[{s}], {}, {}",
            texture.target,
            texture.ret.name()
        ));
    }
    if let Some(last) = used.consts {
        lines.push(range_decl("CONST[0]", last));
    }
    if let Some(last) = used.temps {
        lines.push(range_decl("TEMP", last));
    }
    for (k, bits) in imms.bits.iter().enumerate() {
        let [a, b, c, d] = bits.map(|b| HexF32(f32::from_bits(b)));
        lines.push(format!("IMM[{k}] FLT32 {{{a}, {b}, {c}, {d}}}"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::inst::Opcode;
    use super::super::operand::{Dst, Register, Src};
    use super::*;

    #[test]
    fn immediates_are_deduplicated_by_bits() {
        let mut imms = Immediates::default();
        assert_eq!(imms.zero(), 0);
        assert_eq!(imms.intern([1.0, 0.0, 0.0, 0.0]), 1);
        assert_eq!(imms.intern([0.0; 4]), 0);
        assert_eq!(imms.intern([-0.0, 0.0, 0.0, 0.0]), 2);
        assert_eq!(imms.intern([1.0, 0.0, 0.0, 0.0]), 1);
    }

    #[test]
    fn fragment_header_declares_what_the_body_uses() {
        let body = vec![
            Inst::mov(Dst::temp(0), Src::reg(Register::new(File::In, 1))),
            Inst::mov(Dst::temp(1), Src::reg(Register::new(File::In, 0))),
            Inst::mov(Dst::temp(3), Src::reg(Register::new(File::In, 3))),
            Inst::mov(Dst::temp(4), Src::reg(Register::new(File::In, 4))),
            Inst::new(
                Opcode::Tex,
                Dst::temp(2),
                &[Src::temp(1), Src::reg(Register::new(File::Samp, 1))],
            ),
            Inst::new(
                Opcode::Mul,
                Dst::reg(Register::new(File::Out, 0)),
                &[Src::temp(2), Src::reg(Register::new(File::Const, 2))],
            ),
        ];
        let mut imms = Immediates::default();
        imms.intern([1.0, 0.5, f32::INFINITY, -0.0]);
        let info = HeaderInfo {
            stage: Stage::Fragment,
            position_input: 1,
            face_input: 2,
            clip_vertex_output: None,
            builtins: Builtins::default(),
            interpolation: BTreeMap::from([
                (3, Interpolation::Flat),
                (4, Interpolation::NoPerspective),
                (5, Interpolation::Smooth),
            ]),
        };
        assert_eq!(
            header(&info, &body, &imms).join("\n"),
            "FRAG\n\
             DCL IN[0], GENERIC[0], PERSPECTIVE\n\
             DCL IN[1], POSITION, LINEAR\n\
             DCL IN[3], GENERIC[3], CONSTANT\n\
             DCL IN[4], GENERIC[4], LINEAR\n\
             DCL OUT[0], COLOR\n\
             DCL SAMP[1]\n\
             DCL SVIEW[1], 2D, FLOAT\n\
             DCL CONST[0][0..2]\n\
             DCL TEMP[0..4]\n\
             IMM[0] FLT32 {0x3f800000, 0x3f000000, 0x7f800000, 0x80000000}"
        );
    }

    #[test]
    fn vertex_header_names_position_and_generic_outputs() {
        let out = |i| Dst::reg(Register::new(File::Out, i));
        let body = vec![
            Inst::mov(out(0), Src::reg(Register::new(File::Imm, 0))),
            Inst::mov(out(3), Src::reg(Register::new(File::In, 2))),
            Inst::mov(out(1), Src::reg(Register::new(File::Imm, 0))),
        ];
        let info = HeaderInfo {
            stage: Stage::Vertex,
            position_input: 0,
            face_input: 1,
            interpolation: BTreeMap::new(),
            clip_vertex_output: Some(3),
            builtins: Builtins::default(),
        };
        let mut imms = Immediates::default();
        imms.zero();
        assert_eq!(
            header(&info, &body, &imms).join("\n"),
            "VERT\nDCL IN[2]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
             DCL OUT[3], CLIPVERTEX\n\
             IMM[0] FLT32 {0x00000000, 0x00000000, 0x00000000, 0x00000000}"
        );
        let info = HeaderInfo {
            clip_vertex_output: None,
            ..info
        };
        assert!(
            header(&info, &body, &imms)
                .join("\n")
                .contains("DCL OUT[3], GENERIC[2]\n")
        );
    }
}
