//! CSIR → TGSI: one CSIR record becomes zero or more TGSI instructions
//! (docs/csir-original.md B §5, the mapping table, with the A5 fixes and the changes listed
//! below).
//!
//! Every lowering writes exactly the lanes the interpreter writes and reads only what
//! it reads, so that the TGSI computes the interpreter's values except where the two
//! back ends define an operation differently on exceptional inputs (see
//! [`parity`](super::parity)). Beyond the original mapping:
//! - `SWZ` with fewer than four lanes also zeroes the remaining lanes, and a 3-column
//!   `MULMV` zeroes lane w, as the interpreter does (the original left them stale);
//! - `ABS` is `MOV d<mask>, |a|` and `SUB` is `ADD d<mask>, a, -b` (valid for every
//!   TGSI parser; docs/tgsi-text.md §1 "Opcodes that come and go"); ABS keeps its mask;
//! - a `MULMV`/`MULMM` whose destination overlaps one of its sources computes into
//!   scratch temporaries above the CSIR ones and then copies, since the MUL/MAD chain
//!   would otherwise read columns it has already overwritten;
//! - an interface load (`LOAD_*`) whose destination no instruction reads is dropped,
//!   so only the inputs, uniforms and fragment position a shader really reads are
//!   declared (A5);
//! - the fragment position is `IN[p]` with `p` the lowest index no varying input
//!   uses (A5), not the original's fixed `IN[7]`;
//! - temporaries that CSIR may read before writing (where the interpreter reads
//!   zero) are zeroed first, since GLSL temporaries on the host start undefined
//!   (see [`lanes`](super::lanes));
//! - outputs that some run may leave unwritten start with the interpreter's
//!   initial values: position (0, 0, 0, 1), colour and varyings (0, 0, 0, 0), and
//!   so does every varying a vertex shader declares but never writes;
//! - `IF` reads `TEMP[n].xxxx` (A5), and `DOT` of width 2 is `DP2`;
//! - `RSQ` keeps the interpreter's meaning, 0 for x ≤ 0 and NaN, with a selection
//!   around TGSI's RSQ (`lower_rsq`): CSIR's `sqrt` is `x · rsq(x)`, and a GPU's
//!   RSQ(0) = inf made `sqrt(0.0)` NaN on the host (found by rendering the shader
//!   corpus through virglrenderer);
//! - `RCP` keeps the interpreter's meaning too, 0 for ±0 (`lower_rcp`): CSIR's
//!   `length` is `rcp(rsq(x))`, and the host's RCP(0) = inf made the length of a zero
//!   vector inf (corpus `sdf_box` and `rotated_grid` through virglrenderer);
//! - `LOAD_FACE` (`gl_FrontFacing`, beyond the seed) reads a `FACE` input, positive for
//!   a front-facing primitive and negative for a back-facing one (Gallium's
//!   `TGSI_SEMANTIC_FACE`), as `SLT d.x, 0, face.x`: 1.0 in front, 0.0 behind, the
//!   interpreter's boolean. The input is the lowest index after the position's that
//!   no varying uses.
//! - `gl_ClipVertex` is declared `CLIPVERTEX` (GL 3.0 §2.17); `gl_ClipDistance`'s
//!   elements, one float per varying slot in CSIR, stay `GENERIC` outputs (TGSI's
//!   `CLIPDIST[k]` packs four distances per register, a layout the emitter does not
//!   build; docs/tgsi-text.md);
//! - a fragment input's interpolation qualifier (GLSL 1.30 §4.3.6) is its declaration's
//!   TGSI interpolation: `flat` is `CONSTANT`, `noperspective` `LINEAR`, `smooth` and
//!   none `PERSPECTIVE` (the shade model of unqualified built-in colours is
//!   rasterizer state, not TGSI).
//! - `gl_VertexID`, `gl_InstanceID`, `gl_PrimitiveID`, `gl_PointCoord` and
//!   `gl_PointSize` are declared with the semantics the host computes them by
//!   (`SV[k]` system values, `PRIM_ID`, a sprite-replaced `GENERIC`, `PSIZE`; see
//!   [`builtins`](super::builtins)), not as ordinary attributes and varyings.

use super::builtins::Builtins;
use super::decl::{self, HeaderInfo, Immediates};
use super::error::TgsiError;
use super::inst::{Inst, Opcode};
use super::lanes::unwritten;
use super::listing::{Line, Listing};
use super::operand::{Dst, File, Register, Src, Swizzle, WriteMask};
use super::texture::TgsiTexture;
use crate::ir::{
    CmpCode, Effect, IfTable, Input, Ir, Op, Shader, Stage, SymbolKind, count_uses, verify,
};
use crate::sampler_type::{SampleKind, SamplerType, TexLookup, TexMode, TexTarget};
use std::collections::BTreeSet;

/// Lower `shader` to a [`Listing`] (header and instructions).
///
/// `var_remap` (fragment stage) maps a fragment-local varying slot to the vertex slot
/// it was linked to (−1 or a missing entry: unchanged), as [`crate::Program`] builds it.
///
/// Errors: the shader fails [`verify`] ([`TgsiError::Invalid`]), or a remap entry is
/// neither −1 nor a varying slot ([`TgsiError::Remap`]).
pub fn emit_listing(shader: &Shader, var_remap: Option<&[i16]>) -> Result<Listing, TgsiError> {
    let info = verify(shader)?;
    refuse_tex(shader)?;
    let colors = |aux: i16| {
        shader
            .ir
            .iter()
            .any(|ir| ir.opcode() == Some(Op::StoreColor) && ir.aux == aux)
    };
    if colors(1) && colors(crate::ir::SECOND_SOURCE_AUX) {
        return Err(TgsiError::ColorOutputs);
    }

    if shader.stage == Stage::Geometry {
        return Err(TgsiError::GeometryStage);
    }
    let remap = var_remap.unwrap_or(&[]);
    check_remap(remap, shader.limits.varyings)?;
    let mut lowering = Lowering::new(shader, &info.ifs, remap);
    let mut body: Vec<Line> = lines(None, lowering.prologue());
    for (index, ir) in shader.ir.iter().enumerate() {
        let mut insts = Vec::new();
        lowering.lower(ir, &mut insts);
        body.extend(lines(Some(index), insts));
    }
    body.extend(lines(None, vec![Inst::bare(Opcode::End)]));
    let mut interpolation = std::collections::BTreeMap::new();
    for sym in &shader.interface.symbols {
        if let (SymbolKind::VaryingIn { slot }, Some(q)) = (sym.kind, sym.interpolation) {
            for k in 0..sym.slot_count() {
                let input = lowering.varying_slot((slot + k) as i16);
                interpolation.insert(input, q);
            }
        }
    }
    let clip_vertex_output = match shader.varying_output("gl_ClipVertex") {
        Some(sym) if shader.stage == Stage::Vertex => match sym.kind {
            SymbolKind::VaryingOut { slot } => Some(slot + 1),
            _ => None,
        },
        _ => None,
    };
    let info = HeaderInfo {
        stage: shader.stage,
        position_input: lowering.position_input,
        face_input: lowering.face_input,
        interpolation,
        clip_vertex_output,
        builtins: lowering.builtins.clone(),
    };
    let header = decl::header(&info, body.iter().map(|l| &l.inst), &lowering.imms);
    Ok(Listing { header, body })
}

/// [`TgsiError::TextureTarget`] for the first TEX instruction the emitter cannot
/// express: `textureGrad` on a target of three gradient components (3D, cube), whose
/// gradients TXD reads from `ddx.xyz` and `ddy.xyz` but CSIR's TEX packs two per
/// direction.
fn refuse_tex(shader: &Shader) -> Result<(), TgsiError> {
    let unsupported = |ir: &&Ir| {
        ir.op == Op::Tex.code()
            && TexLookup::decode(ir.aux2).is_some_and(|l| l.mode == TexMode::Grad)
            && matches!(
                sampler_type(shader, ir.aux).target,
                TexTarget::D3 | TexTarget::Cube
            )
    };
    let Some(ir) = shader.ir.iter().find(unsupported) else {
        return Ok(());
    };
    let sym = shader.interface.symbols.iter().find(|s| {
        matches!(s.kind, SymbolKind::Sampler { slot, .. } if i32::from(slot) == i32::from(ir.aux))
    });
    Err(TgsiError::TextureTarget {
        name: sym.map_or_else(|| format!("unit {}", ir.aux), |s| s.name.clone()),
        ty: sampler_type(shader, ir.aux).keyword().to_string(),
    })
}

/// The type of the sampler at slot `slot` (its interface entry's; `sampler2D` for a
/// slot without one, which the verifier does not let a TEX instruction name).
fn sampler_type(shader: &Shader, slot: i16) -> SamplerType {
    shader
        .interface
        .symbols
        .iter()
        .find_map(|s| match s.kind {
            SymbolKind::Sampler { slot: k, sampler } if i32::from(k) == i32::from(slot) => {
                Some(sampler)
            }
            _ => None,
        })
        .unwrap_or(SamplerType::SAMPLER_2D)
}

/// Every remap entry is −1 or a varying slot.
fn check_remap(remap: &[i16], varyings: usize) -> Result<(), TgsiError> {
    match remap
        .iter()
        .enumerate()
        .find(|&(_, &t)| t < -1 || t >= 0 && t as usize >= varyings)
    {
        Some((slot, &target)) => Err(TgsiError::Remap {
            slot,
            target,
            varyings,
        }),
        None => Ok(()),
    }
}

/// The TGSI instruction of an extended-profile integer opcode (the same name, per lane
/// on 32-bit patterns; `IMOD` is TGSI's `MOD`), and whether it is a comparison
/// (TGSI gives ~0 for true where CSIR has 1.0). `None` for every other opcode.
fn integer_opcode(op: Op) -> Option<(Opcode, bool)> {
    Some(match op {
        Op::UAdd => (Opcode::UAdd, false),
        Op::UMul => (Opcode::UMul, false),
        Op::IDiv => (Opcode::IDiv, false),
        Op::UDiv => (Opcode::UDiv, false),
        Op::IMod => (Opcode::Mod, false),
        Op::UMod => (Opcode::UMod, false),
        Op::Shl => (Opcode::Shl, false),
        Op::IShr => (Opcode::IShr, false),
        Op::UShr => (Opcode::UShr, false),
        Op::And => (Opcode::And, false),
        Op::Or => (Opcode::Or, false),
        Op::Xor => (Opcode::Xor, false),
        Op::IMin => (Opcode::IMin, false),
        Op::IMax => (Opcode::IMax, false),
        Op::UMin => (Opcode::UMin, false),
        Op::UMax => (Opcode::UMax, false),
        Op::ISlt => (Opcode::ISlt, true),
        Op::ISge => (Opcode::ISge, true),
        Op::USlt => (Opcode::USlt, true),
        Op::USge => (Opcode::USge, true),
        Op::USeq => (Opcode::USeq, true),
        Op::USne => (Opcode::USne, true),
        Op::Not => (Opcode::Not, false),
        Op::INeg => (Opcode::INeg, false),
        Op::IAbs => (Opcode::IAbs, false),
        Op::ISsg => (Opcode::ISsg, false),
        Op::I2F => (Opcode::I2F, false),
        Op::U2F => (Opcode::U2F, false),
        Op::F2I => (Opcode::F2I, false),
        Op::F2U => (Opcode::F2U, false),
        _ => return None,
    })
}

/// `insts` as listing lines produced by CSIR record `ir_index`.
fn lines(ir_index: Option<usize>, insts: Vec<Inst>) -> Vec<Line> {
    insts
        .into_iter()
        .map(|inst| Line { ir_index, inst })
        .collect()
}

/// A swizzle whose first lanes read `selectors` and whose remaining lanes read `x`
/// (their values are masked off; docs/csir-original.md B §5 "padded with `x`").
fn padded(selectors: impl IntoIterator<Item = u8>) -> Swizzle {
    let mut s = [0u8; 4];
    for (lane, sel) in s.iter_mut().zip(selectors) {
        *lane = sel & 3;
    }
    Swizzle(s)
}

/// A temporary index from a verified (non-negative) CSIR field.
fn t(index: i16) -> u16 {
    index as u16
}

/// The `OUT` index a store writes: position is `OUT[0]`, varying slot `s` is
/// `OUT[s+1]`, the colour output of `layout(location = k)` is `OUT[k]` (declared
/// `COLOR[k]`) and the second source colour of dual-source blending
/// (`layout(location = 0, index = 1)`) is `OUT[1]` (`COLOR[1]`, as Gallium declares
/// dual-source outputs: virglrenderer binds it to location 0, index 1 when the
/// blend state reads it).
fn output_of(ir: &Ir) -> Option<u16> {
    match ir.opcode()? {
        Op::StorePos => Some(0),
        Op::StoreColor => Some(color_output(ir.aux)),
        Op::StoreVar => Some(t(ir.aux) + 1),
        _ => None,
    }
}

/// The `OUT` index (and `COLOR` semantic index) of STORE_COLOR's `aux`
/// ([`SymbolKind::color_store_aux`]): the location, or 1 for the second source colour.
fn color_output(aux: i16) -> u16 {
    if aux == crate::ir::SECOND_SOURCE_AUX {
        1
    } else {
        t(aux)
    }
}

/// Register `index` of `file` as a source with the identity swizzle.
fn reg(file: File, index: u16) -> Src {
    Src::reg(Register::new(file, index))
}

/// Per-shader lowering state.
struct Lowering<'a> {
    shader: &'a Shader,
    /// The verifier's IF/ELSE/ENDIF partners.
    ifs: &'a IfTable,
    remap: &'a [i16],
    /// Reads of each temporary by live instructions.
    uses: Vec<u32>,
    /// Fragment stage: the `IN` index of the position.
    position_input: u16,
    /// Fragment stage: the `IN` index of the front-facing input (declared only if
    /// a LOAD_FACE is read).
    face_input: u16,
    /// First scratch temporary (above every CSIR temporary).
    scratch: u16,
    imms: Immediates,
    /// The built-ins declared with the host's semantics.
    builtins: Builtins,
}

impl<'a> Lowering<'a> {
    fn new(shader: &'a Shader, ifs: &'a IfTable, remap: &'a [i16]) -> Lowering<'a> {
        let mut uses = vec![0; shader.ntmp as usize];
        count_uses(shader, &mut uses);
        let mut lowering = Lowering {
            shader,
            ifs,
            remap,
            uses,
            position_input: 0,
            face_input: 0,
            scratch: shader.ntmp,
            imms: Immediates::default(),
            builtins: Builtins::of(shader, remap),
        };
        let varyings: BTreeSet<u16> = shader
            .ir
            .iter()
            .filter(|ir| ir.opcode() == Some(Op::LoadVar) && lowering.is_read(ir.dst))
            .map(|ir| lowering.varying_slot(ir.aux))
            .collect();
        lowering.position_input = (0..).find(|i| !varyings.contains(i)).unwrap_or(0);
        let position = lowering.position_input;
        lowering.face_input = (position + 1..)
            .find(|i| !varyings.contains(i))
            .unwrap_or(position + 1);
        lowering
    }

    /// `tex` with the instruction's constant texel offset, when it has one (SAMPLE_OFFSET
    /// always; SAMPLE_LOD, SAMPLE_BIAS and SAMPLE_GRAD when `aux2` is not 0): an
    /// immediate of INT32 bit patterns (written as FLT32 hex, which keeps the bits),
    /// TGSI's texture offset register.
    fn with_texel_offset(&mut self, mut tex: Inst, ir: &Ir) -> Inst {
        if ir.opcode() == Some(Op::SampleOffset) || ir.aux2 != 0 {
            let [dx, dy] = ir.texel_offset();
            let bits = [dx, dy, 0, 0].map(|o| f32::from_bits(o as u32));
            let k = self.imms.intern(bits);
            tex.tex_offset = Some(Register::new(File::Imm, k));
        }
        tex
    }

    fn is_read(&self, temp: i16) -> bool {
        usize::try_from(temp)
            .ok()
            .and_then(|t| self.uses.get(t))
            .is_some_and(|&n| n > 0)
    }

    /// The instructions before the first CSIR record: the interpreter's initial
    /// value (`exec::Outputs::INITIAL`: position (0, 0, 0, 1), colour and varyings
    /// zero) for every output some run may not write, then zero for every temporary
    /// that may be read before it is written ([`unwritten`]).
    ///
    /// A vertex shader's outputs are `OUT[0]`, one per varying its interface declares
    /// (so the host can link a fragment input the vertex shader never writes) and one
    /// per varying it stores; a fragment shader's are `OUT[0]` up to its highest
    /// colour output, every one of them (so `COLOR[k]` is declared in order of `k`
    /// without gaps: virglrenderer binds `COLOR[0]` and `COLOR[1]` to their
    /// locations and leaves the others to the host's linker, which gives each the
    /// lowest free location in declaration order).
    fn prologue(&mut self) -> Vec<Inst> {
        let shader = self.shader;
        let mut outputs = vec![0u16];
        if shader.stage == Stage::Fragment {
            let highest = shader
                .interface
                .symbols
                .iter()
                .filter_map(|s| match s.kind {
                    SymbolKind::ColorOut { location, index } => {
                        Some(color_output(SymbolKind::color_store_aux(location, index)))
                    }
                    _ => None,
                })
                .chain(shader.ir.iter().filter_map(output_of))
                .max()
                .unwrap_or(0);
            outputs.extend(1..=highest);
        }
        if shader.stage == Stage::Vertex {
            outputs.extend(
                shader
                    .interface
                    .symbols
                    .iter()
                    .filter_map(|s| match s.kind {
                        SymbolKind::VaryingOut { slot } => Some(slot + 1),
                        _ => None,
                    }),
            );
        }
        outputs.extend(shader.ir.iter().filter_map(output_of));
        outputs.sort_unstable();
        outputs.dedup();
        let unwritten = unwritten(shader, self.ifs, |ir| self.emits(ir), output_of, &outputs);
        let mut insts = Vec::new();
        for out in unwritten.outputs {
            let value = match (shader.stage, out) {
                (Stage::Vertex, 0) => [0.0, 0.0, 0.0, 1.0],
                _ => [0.0; 4],
            };
            let k = self.imms.intern(value);
            insts.push(Inst::mov(
                Dst::reg(Register::new(File::Out, out)),
                reg(File::Imm, k),
            ));
        }
        for temp in unwritten.temps {
            let zero = self.imms.zero();
            insts.push(Inst::mov(Dst::temp(temp), reg(File::Imm, zero)));
        }
        insts
    }

    /// Whether `ir` produces any TGSI: interface loads whose destination nothing
    /// reads are dropped (a texture sample is not an interface load).
    fn emits(&self, ir: &Ir) -> bool {
        match ir.info().map(|info| info.effect) {
            Some(Effect::Load(Input::Texture)) => true,
            Some(Effect::Load(_)) => ir
                .destination()
                .is_some_and(|d| d.temps().any(|t| self.is_read(t))),
            Some(Effect::None) | None => false,
            Some(_) => true,
        }
    }

    /// The vertex slot a fragment-local varying slot reads after linking.
    fn varying_slot(&self, slot: i16) -> u16 {
        if let Some(index) = self.builtins.rasterizer_input(slot as u16) {
            return index;
        }
        match self.remap.get(slot as usize) {
            Some(&target) if target >= 0 => target as u16,
            _ => slot as u16,
        }
    }

    /// Append the TGSI for one CSIR record (nothing for NOP and dead loads).
    fn lower(&mut self, ir: &Ir, out: &mut Vec<Inst>) {
        let Some(op) = ir.opcode() else { return };
        let (d, a, b) = (Dst::temp(t(ir.dst)), Src::temp(t(ir.a)), Src::temp(t(ir.b)));
        if let Some((opcode, compare)) = integer_opcode(op) {
            // Same-named TGSI instruction on the first `ncomp` lanes; a comparison's
            // ~0 / 0 becomes CSIR's 1.0 / 0.0 with `AND d, d, 1.0`.
            let mask = WriteMask::first(ir.ncomp_lanes(4));
            let sources = if op.info().b.is_some() {
                vec![a, b]
            } else {
                vec![a]
            };
            out.push(Inst::new(opcode, d.masked(mask), &sources));
            if compare {
                let one = self.imms.intern([1.0; 4]);
                out.push(Inst::new(
                    Opcode::And,
                    d.masked(mask),
                    &[Src::temp(t(ir.dst)), reg(File::Imm, one)],
                ));
            }
            return;
        }
        match op {
            // A geometry shader is refused by `emit_listing`.
            Op::Nop | Op::LoadVtx | Op::LoadPrimId | Op::Emit | Op::EndPrim => {}
            Op::Const => {
                let first = ir.aux as usize;
                let mut values = [0.0f32; 4];
                let n = (ir.ncomp as usize).min(4);
                values[..n].copy_from_slice(&self.shader.imm[first..first + n]);
                let k = self.imms.intern(values);
                out.push(Inst::mov(d, reg(File::Imm, k)));
            }
            Op::Mov => {
                let n = ir.ncomp_lanes(4);
                out.push(Inst::mov(
                    d.masked(WriteMask::first(n)),
                    a.swizzled(padded(0..n)),
                ));
            }
            Op::Swz => {
                let n = ir.ncomp_lanes(1);
                let selectors = (0..n).map(|i| (ir.aux >> (2 * i)) as u8);
                out.push(Inst::mov(
                    d.masked(WriteMask::first(n)),
                    a.swizzled(padded(selectors)),
                ));
                self.zero_lanes_from(d, n, out);
            }
            Op::SetLane => out.push(Inst::mov(
                d.masked(WriteMask::lane(ir.aux as u8)),
                a.lane(ir.aux2 as u8),
            )),
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Min | Op::Max => {
                let (opcode, b) = match op {
                    Op::Add => (Opcode::Add, b),
                    Op::Sub => (Opcode::Add, b.negated()),
                    Op::Mul => (Opcode::Mul, b),
                    Op::Div => (Opcode::Div, b),
                    Op::Min => (Opcode::Min, b),
                    _ => (Opcode::Max, b),
                };
                let mask = WriteMask::first(ir.ncomp_lanes(4));
                out.push(Inst::new(opcode, d.masked(mask), &[a, b]));
            }
            Op::Abs => {
                let mask = WriteMask::first(ir.ncomp_lanes(4));
                out.push(Inst::mov(d.masked(mask), a.absolute()));
            }
            Op::Ddx | Op::Ddy => {
                let opcode = if op == Op::Ddx {
                    Opcode::Ddx
                } else {
                    Opcode::Ddy
                };
                let mask = WriteMask::first(ir.ncomp_lanes(4));
                out.push(Inst::new(opcode, d.masked(mask), &[a]));
            }
            Op::Dot => {
                let opcode = match ir.aux {
                    2 => Opcode::Dp2,
                    3 => Opcode::Dp3,
                    _ => Opcode::Dp4,
                };
                out.push(Inst::new(opcode, d.masked(WriteMask::lane(0)), &[a, b]));
            }
            Op::Rsq => self.lower_rsq(d, a, out),
            Op::Trunc => out.push(Inst::new(
                Opcode::Trunc,
                d.masked(WriteMask::lane(0)),
                &[a.lane(0)],
            )),
            Op::Rcp => self.lower_rcp(d, a, ir.ncomp_lanes(1), out),
            Op::Sin | Op::Cos => {
                let opcode = match op {
                    Op::Sin => Opcode::Sin,
                    _ => Opcode::Cos,
                };
                // TGSI computes these from `.x` only and replicates: one line per lane.
                for lane in 0..ir.ncomp_lanes(1) {
                    out.push(Inst::new(
                        opcode,
                        d.masked(WriteMask::lane(lane)),
                        &[a.lane(lane)],
                    ));
                }
            }
            Op::Pow => out.push(Inst::new(
                Opcode::Pow,
                d.masked(WriteMask::lane(0)),
                &[a.lane(0), b.lane(0)],
            )),
            Op::Cmp => {
                let (opcode, x, y) = match CmpCode::from_code(ir.aux) {
                    Some(CmpCode::Lt) => (Opcode::Slt, a, b),
                    Some(CmpCode::Gt) => (Opcode::Slt, b, a),
                    Some(CmpCode::Le) => (Opcode::Sge, b, a),
                    Some(CmpCode::Ge) => (Opcode::Sge, a, b),
                    Some(CmpCode::Eq) => (Opcode::Seq, a, b),
                    Some(CmpCode::Ne) | None => (Opcode::Sne, a, b),
                };
                out.push(Inst::new(
                    opcode,
                    d.masked(WriteMask::lane(0)),
                    &[x.lane(0), y.lane(0)],
                ));
            }
            Op::MulMv => self.lower_mul_mv(ir, out),
            Op::MulMm => self.lower_mul_mm(ir, out),
            Op::Sample => out.push(Inst::new(Opcode::Tex, d, &[a, reg(File::Samp, t(ir.aux))])),
            Op::SampleOffset => {
                let tex = Inst::new(Opcode::Tex, d, &[a, reg(File::Samp, t(ir.aux))]);
                out.push(self.with_texel_offset(tex, ir));
            }
            Op::SampleLod | Op::SampleBias => {
                // TXL and TXB take the coordinate and the level (or bias) in one
                // register (xy and w), built in a scratch temporary.
                let s = self.scratch;
                out.push(Inst::mov(Dst::temp(s).masked(WriteMask::first(2)), a));
                out.push(Inst::mov(
                    Dst::temp(s).masked(WriteMask::lane(3)),
                    b.lane(0),
                ));
                let opcode = if op == Op::SampleLod {
                    Opcode::Txl
                } else {
                    Opcode::Txb
                };
                let tex = Inst::new(opcode, d, &[Src::temp(s), reg(File::Samp, t(ir.aux))]);
                out.push(self.with_texel_offset(tex, ir));
            }
            Op::SampleGrad => {
                // b = (ds/dx, dt/dx, ds/dy, dt/dy): TXD's ddx is b.xy, its ddy b.zw.
                let ddx = b.swizzled(Swizzle([0, 1, 1, 1]));
                let ddy = b.swizzled(Swizzle([2, 3, 3, 3]));
                let tex = Inst::new(Opcode::Txd, d, &[a, ddx, ddy, reg(File::Samp, t(ir.aux))]);
                out.push(self.with_texel_offset(tex, ir));
            }
            Op::Tex => self.lower_tex(ir, out),
            Op::TexSize => out.push(Inst::new(
                Opcode::Txq,
                d.masked(WriteMask::first(2)),
                &[a.lane(0), reg(File::Samp, t(ir.aux))],
            )),
            Op::TexFetch => {
                // TXF takes the index and the level in one register (xy and w): built
                // in a scratch temporary, with MOVs that keep the integer patterns.
                let s = self.scratch;
                out.push(Inst::mov(Dst::temp(s).masked(WriteMask::first(2)), a));
                out.push(Inst::mov(
                    Dst::temp(s).masked(WriteMask::lane(3)),
                    b.lane(0),
                ));
                out.push(Inst::new(
                    Opcode::Txf,
                    d,
                    &[Src::temp(s), reg(File::Samp, t(ir.aux))],
                ));
            }
            Op::LoadAttr if self.is_read(ir.dst) => {
                let source = match self.builtins.system_value(t(ir.aux)) {
                    Some(k) => reg(File::SystemValue, k),
                    None => reg(File::In, t(ir.aux)),
                };
                out.push(Inst::mov(d, source))
            }
            Op::LoadVar if self.is_read(ir.dst) => {
                out.push(Inst::mov(d, reg(File::In, self.varying_slot(ir.aux))))
            }
            Op::LoadFcoord if self.is_read(ir.dst) => {
                out.push(Inst::mov(d, reg(File::In, self.position_input)))
            }
            Op::LoadFace if self.is_read(ir.dst) => {
                let zero = reg(File::Imm, self.imms.zero()).lane(0);
                let face = reg(File::In, self.face_input).lane(0);
                out.push(Inst::new(
                    Opcode::Slt,
                    d.masked(WriteMask::lane(0)),
                    &[zero, face],
                ));
            }
            Op::LoadAttr | Op::LoadVar | Op::LoadFcoord | Op::LoadFace => {}
            Op::LoadUni => {
                for k in 0..ir.aux2 {
                    if self.is_read(ir.dst + k) {
                        out.push(Inst::mov(
                            Dst::temp(t(ir.dst + k)),
                            reg(File::Const, t(ir.aux + k)),
                        ));
                    }
                }
            }
            Op::StorePos | Op::StoreColor | Op::StoreVar => {
                let index = output_of(ir).unwrap_or(0);
                out.push(Inst::mov(Dst::reg(Register::new(File::Out, index)), a))
            }
            Op::If => out.push(Inst {
                opcode: Opcode::If,
                dst: None,
                src: vec![a.lane(0)],
                tex_offset: None,
                texture: None,
            }),
            Op::Else => out.push(Inst::bare(Opcode::Else)),
            Op::EndIf => out.push(Inst::bare(Opcode::EndIf)),
            Op::Discard => out.push(Inst::bare(Opcode::Kill)),
            // Lowered above (`integer_opcode`).
            Op::UAdd
            | Op::UMul
            | Op::IDiv
            | Op::UDiv
            | Op::IMod
            | Op::UMod
            | Op::Shl
            | Op::IShr
            | Op::UShr
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::IMin
            | Op::IMax
            | Op::UMin
            | Op::UMax
            | Op::ISlt
            | Op::ISge
            | Op::USlt
            | Op::USge
            | Op::USeq
            | Op::USne
            | Op::Not
            | Op::INeg
            | Op::IAbs
            | Op::ISsg
            | Op::I2F
            | Op::U2F
            | Op::F2I
            | Op::F2U => {}
            Op::Lg2 | Op::Ex2 => {
                // TGSI's LG2 and EX2 read `.x` and replicate, like SIN: one line per
                // lane.
                let opcode = if op == Op::Lg2 {
                    Opcode::Lg2
                } else {
                    Opcode::Ex2
                };
                for lane in 0..ir.ncomp_lanes(4) {
                    out.push(Inst::new(
                        opcode,
                        d.masked(WriteMask::lane(lane)),
                        &[a.lane(lane)],
                    ));
                }
            }
        }
    }

    /// TEX, the GL 3.3 lookup family, on the sampler at slot `aux` whose type
    /// ([`sampler_type`]) gives the TGSI target and return type ([`TgsiTexture`]).
    /// Operand `a` already has TGSI's coordinate layout (coordinates, layer, then the
    /// shadow reference in `z` or `w`), so it is the coordinate source wherever the
    /// instruction needs nothing else in that register:
    ///
    /// | mode | TGSI |
    /// |---|---|
    /// | implicit | `TEX d, a` |
    /// | bias, λ | `TXB`/`TXL d, s` with `s` = `a`'s lookup lanes and `b.x` in `s.w`; `TXB2`/`TXL2 d, a, b.xxxx` when the reference is in `w` |
    /// | gradients | `TXD d, a, b.xyyy, b.zwww` (1D, 2D, rectangle and array targets) |
    /// | 3D and cube gradients | `TXD d, a, b.xyzz, b'.xyzz`, `b'` the temporary after `b` |
    /// | texelFetch | `TXF d, s` with `s` = `a`'s coordinates and the level `b.x` in `s.w` (a buffer: `TXF d, a`) |
    /// | textureSize | `TXQ d.<size lanes>, a.xxxx`, then the lanes past the size zeroed |
    ///
    /// A texel offset (`aux2`'s u, v, w) is an `INT32` immediate as TGSI's texture
    /// offset register. `textureProj` needs no `TXP`: the front end divides first.
    fn lower_tex(&mut self, ir: &Ir, out: &mut Vec<Inst>) {
        let Some(lookup) = TexLookup::decode(ir.aux2) else {
            return; // rejected by the verifier
        };
        let ty = sampler_type(self.shader, ir.aux);
        let texture = TgsiTexture::of(ty);
        let (d, a, b) = (Dst::temp(t(ir.dst)), Src::temp(t(ir.a)), Src::temp(t(ir.b)));
        let samp = reg(File::Samp, t(ir.aux));
        let s = self.scratch;
        // `s` ← the first `lanes` lanes of `a` and `b.x` in `w`.
        let packed = |lanes: u8, out: &mut Vec<Inst>| {
            out.push(Inst::mov(
                Dst::temp(s).masked(WriteMask::first(lanes.min(3))),
                a,
            ));
            out.push(Inst::mov(
                Dst::temp(s).masked(WriteMask::lane(3)),
                b.lane(0),
            ));
            Src::temp(s)
        };
        let inst = match lookup.mode {
            TexMode::Implicit => Inst::new(Opcode::Tex, d, &[a, samp]),
            TexMode::Bias | TexMode::Lod => {
                let (one, two) = match lookup.mode {
                    TexMode::Bias => (Opcode::Txb, Opcode::Txb2),
                    _ => (Opcode::Txl, Opcode::Txl2),
                };
                if texture.target.reference_in_w() {
                    Inst::new(two, d, &[a, b.lane(0), samp])
                } else {
                    // the coordinates and a reference in `z`
                    let lanes = match ty.kind {
                        SampleKind::Shadow => ty.target.coords().max(2) + 1,
                        _ => ty.target.coords(),
                    };
                    let coord = packed(lanes, out);
                    Inst::new(one, d, &[coord, samp])
                }
            }
            TexMode::Grad => {
                let ddx = b.swizzled(Swizzle([0, 1, 1, 1]));
                let ddy = b.swizzled(Swizzle([2, 3, 3, 3]));
                Inst::new(Opcode::Txd, d, &[a, ddx, ddy, samp])
            }
            TexMode::Grad3 => {
                // dPdx in `b.xyz`, dPdy in the temporary after `b` (TexMode::b_temps).
                let next = Src::temp(t(ir.b + 1));
                let ddx = b.swizzled(Swizzle([0, 1, 2, 2]));
                let ddy = next.swizzled(Swizzle([0, 1, 2, 2]));
                Inst::new(Opcode::Txd, d, &[a, ddx, ddy, samp])
            }
            TexMode::Fetch if ty.target == TexTarget::Buffer => {
                Inst::new(Opcode::Txf, d, &[a, samp])
            }
            TexMode::Fetch => {
                let coord = packed(ty.target.coords(), out);
                Inst::new(Opcode::Txf, d, &[coord, samp])
            }
            TexMode::Size => {
                let n = ty.target.size_components();
                let txq = Inst::new(
                    Opcode::Txq,
                    d.masked(WriteMask::first(n)),
                    &[a.lane(0), samp],
                );
                out.push(txq.with_texture(texture));
                self.zero_lanes_from(d, n, out);
                return;
            }
        };
        let mut inst = inst.with_texture(texture);
        if lookup.offset != [0; 3] {
            let bits = [lookup.offset[0], lookup.offset[1], lookup.offset[2], 0]
                .map(|o| f32::from_bits(i32::from(o) as u32));
            let k = self.imms.intern(bits);
            inst.tex_offset = Some(Register::new(File::Imm, k));
        }
        out.push(inst);
        // A shadow lookup's result is the comparison in every lane on the host
        // (`vec4(texture(...))`); the interpreter's is (r, r, r, 1).
        if ty.kind == SampleKind::Shadow {
            let one = self.imms.intern([1.0, 0.0, 0.0, 0.0]);
            out.push(Inst::mov(
                d.masked(WriteMask::lane(3)),
                reg(File::Imm, one).lane(0),
            ));
        }
    }

    /// `d.x ← RSQ a.x` with the interpreter's meaning: `1/sqrt(x)` for x > 0, and 0
    /// for x ≤ 0 and NaN, where TGSI's RSQ gives ±inf or NaN. CSIR builds `sqrt(x)`
    /// as `x · rsq(x)`, which is 0 at 0 only with that meaning (GLSL's `sqrt(0.0)` is
    /// 0; TGSI's would be 0 · inf = NaN), and `length(v)` as `rcp(rsq(x))` (with
    /// [`lower_rcp`](Self::lower_rcp)). In a scratch temporary `s`:
    ///
    /// ```text
    /// SLT s.y, IMM[0].xxxx, a.xxxx       s.y = 0 < x (0 for NaN)
    /// CMP s.x, -s.yyyy, a.xxxx, IMM[1]   s.x = x where x > 0, else 1 (a selection)
    /// RSQ s.x, s.xxxx                    finite, or 0 for +inf: no exceptional input
    /// MUL d.x, s.xxxx, s.yyyy            0 where x ≤ 0 or NaN
    /// ```
    fn lower_rsq(&mut self, d: Dst, a: Src, out: &mut Vec<Inst>) {
        let s = self.scratch;
        let zero = reg(File::Imm, self.imms.zero()).lane(0);
        let one = reg(File::Imm, self.imms.intern([1.0, 0.0, 0.0, 0.0])).lane(0);
        let (s_x, s_y) = (
            Dst::temp(s).masked(WriteMask::lane(0)),
            Dst::temp(s).masked(WriteMask::lane(1)),
        );
        out.push(Inst::new(Opcode::Slt, s_y, &[zero, a.lane(0)]));
        out.push(Inst::new(
            Opcode::Cmp,
            s_x,
            &[Src::temp(s).lane(1).negated(), a.lane(0), one],
        ));
        out.push(Inst::new(Opcode::Rsq, s_x, &[Src::temp(s).lane(0)]));
        out.push(Inst::new(
            Opcode::Mul,
            d.masked(WriteMask::lane(0)),
            &[Src::temp(s).lane(0), Src::temp(s).lane(1)],
        ));
    }

    /// `d ← RCP a` on the first `lanes` lanes with the interpreter's meaning: `1/x`,
    /// and 0 for ±0 where TGSI's RCP gives ±inf. CSIR builds `length(v)` as
    /// `rcp(rsq(dot(v, v)))`, which is 0 for a zero vector only with that meaning
    /// (the host drew `length(max(d, 0.0))` as inf inside corpus `sdf_box`). With
    /// scratch temporaries `e` and `s`, and one RCP per lane since TGSI's reads `.x`:
    ///
    /// ```text
    /// SEQ e<mask>, a, IMM[0].xxxx         1 where x = ±0 (0 for NaN)
    /// ADD s<mask>, a, e                   x, or 1 where x = ±0: no exceptional input
    /// RCP s.x, s.xxxx                     (and s.y, s.yyyy, ... per lane)
    /// CMP d<mask>, -e, IMM[0].xxxx, s     0 where x = ±0, else 1/x
    /// ```
    fn lower_rcp(&mut self, d: Dst, a: Src, lanes: u8, out: &mut Vec<Inst>) {
        let (e, s) = (self.scratch, self.scratch + 1);
        let zero = reg(File::Imm, self.imms.zero()).lane(0);
        let mask = WriteMask::first(lanes);
        out.push(Inst::new(
            Opcode::Seq,
            Dst::temp(e).masked(mask),
            &[a, zero],
        ));
        out.push(Inst::new(
            Opcode::Add,
            Dst::temp(s).masked(mask),
            &[a, Src::temp(e)],
        ));
        for lane in 0..lanes {
            out.push(Inst::new(
                Opcode::Rcp,
                Dst::temp(s).masked(WriteMask::lane(lane)),
                &[Src::temp(s).lane(lane)],
            ));
        }
        out.push(Inst::new(
            Opcode::Cmp,
            d.masked(mask),
            &[Src::temp(e).negated(), zero, Src::temp(s)],
        ));
    }

    /// `MOV d.<lanes from..4>, IMM[zero]` when `from < 4`.
    fn zero_lanes_from(&mut self, d: Dst, from: u8, out: &mut Vec<Inst>) {
        if from < 4 {
            let zero = self.imms.zero();
            out.push(Inst::mov(
                d.masked(WriteMask::from_lane(from)),
                reg(File::Imm, zero),
            ));
        }
    }

    /// `dst ← M·v` for the `cols` columns of M at `mat..`: a MUL and `cols − 1` MADs
    /// on the first `cols` lanes, summing columns in order, then lanes ≥ `cols`
    /// zeroed. `dst` must not be `vec` or a column of M.
    fn mat_vec(&mut self, dst: u16, mat: u16, vec: u16, cols: u8, out: &mut Vec<Inst>) {
        let d = Dst::temp(dst).masked(WriteMask::first(cols));
        let v = Src::temp(vec);
        out.push(Inst::new(Opcode::Mul, d, &[v.lane(0), Src::temp(mat)]));
        for k in 1..cols {
            out.push(Inst::new(
                Opcode::Mad,
                d,
                &[v.lane(k), Src::temp(mat + k as u16), Src::temp(dst)],
            ));
        }
        self.zero_lanes_from(Dst::temp(dst), cols, out);
    }

    fn lower_mul_mv(&mut self, ir: &Ir, out: &mut Vec<Inst>) {
        let cols = ir.aux as u8;
        let (dst, mat, vec) = (t(ir.dst), t(ir.a), t(ir.b));
        let aliased = dst == vec || (mat..mat + cols as u16).contains(&dst);
        let target = if aliased { self.scratch } else { dst };
        self.mat_vec(target, mat, vec, cols, out);
        if aliased {
            out.push(Inst::mov(Dst::temp(dst), Src::temp(target)));
        }
    }

    fn lower_mul_mm(&mut self, ir: &Ir, out: &mut Vec<Inst>) {
        let cols = ir.aux as u8;
        let n = cols as u16;
        let (dst, a, b) = (t(ir.dst), t(ir.a), t(ir.b));
        let overlaps = |x: u16| dst < x + n && x < dst + n;
        let aliased = overlaps(a) || overlaps(b);
        let target = if aliased { self.scratch } else { dst };
        for j in 0..n {
            self.mat_vec(target + j, a, b + j, cols, out);
        }
        if aliased {
            for j in 0..n {
                out.push(Inst::mov(Dst::temp(dst + j), Src::temp(target + j)));
            }
        }
    }
}
