//! The verifier: structural and range checks that every consumer of CSIR relies on
//! (docs/csir.md "Verification stage" to "Matrix validation";
//! docs/csir-original.md B §2.6).
//!
//! A shader that passes [`verify`] can be run by the interpreters and emitted as TGSI
//! without any further index checks: every temporary an instruction reads or writes
//! (including every column of a matrix operation and both ends of a LOAD_UNI span) is
//! below `ntmp`, every immediate range is inside the pool, every slot is inside its
//! limit, every opcode is known, stage-specific operations appear only in their stage,
//! and IF/ELSE/ENDIF are balanced and at most `Limits::if_depth` deep.
//!
//! Beyond the original (B §10.19) it also checks the LOAD_UNI upper slot bound, MULMV
//! spans, SETLANE lanes, DOT widths, CMP codes, `ncomp` ranges, that every operand an
//! opcode reads is present, and that LOAD_ATTR / STORE_VAR are vertex-only and
//! LOAD_VAR / LOAD_FCOORD / LOAD_FACE fragment-only.

use super::if_table::{IfMatcher, IfTable};
use super::op_info::{Aux, Control, Effect, Ncomp, OpInfo, Temps};
use super::{CmpCode, Ir, Op, Shader, Stage};
use thiserror::Error;

/// Which rule an instruction (or the shader as a whole) broke. Messages follow the
/// seed's wording where the original has the same check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum VerifyRule {
    /// The shader's stage is not vertex or fragment, or it is a geometry shader of the
    /// seed profile or without its [`GeometryLayout`](super::GeometryLayout).
    #[error("invalid shader stage")]
    Stage,
    /// The limits fail [`Limits::validate`](super::Limits::validate), or the shader has more
    /// instructions, immediates or temporaries than they allow (whole shader).
    #[error("IR size is invalid")]
    Size,
    /// The opcode byte names no CSIR instruction.
    #[error("invalid IR opcode")]
    Opcode,
    /// The opcode exists only in the extended profile and the shader's limits are the
    /// seed's.
    #[error("opcode needs the extended profile")]
    Profile,
    /// An IF whose condition is not a temporary, or nested deeper than `Limits::if_depth`.
    #[error("invalid if")]
    If,
    /// An ELSE without an open IF, or a second ELSE for the same IF.
    #[error("invalid else")]
    Else,
    /// An ENDIF without an open IF.
    #[error("invalid endif")]
    EndIf,
    /// STORE_POS in a fragment shader.
    #[error("position store in a non-vertex shader")]
    PositionStage,
    /// STORE_COLOR in a vertex shader.
    #[error("color store in a non-fragment shader")]
    ColorStage,
    /// DISCARD in a vertex shader.
    #[error("discard in a non-fragment shader")]
    DiscardStage,
    /// LOAD_ATTR in a fragment shader.
    #[error("attribute load in a non-vertex shader")]
    AttributeStage,
    /// STORE_VAR in a fragment shader.
    #[error("varying store in a non-vertex shader")]
    VaryingStoreStage,
    /// LOAD_VAR in a vertex shader.
    #[error("varying load in a non-fragment shader")]
    VaryingLoadStage,
    /// LOAD_FCOORD in a vertex shader.
    #[error("fragment coordinate load in a non-fragment shader")]
    FragCoordStage,
    /// LOAD_FACE in a vertex shader.
    #[error("front-facing load in a non-fragment shader")]
    FrontFacingStage,
    /// DDX or DDY in a vertex shader: derivatives exist only across a fragment quad.
    #[error("derivative in a non-fragment shader")]
    DerivativeStage,
    /// LOAD_VTX, LOAD_PRIMID, EMIT or ENDPRIM outside a geometry shader.
    #[error("geometry instruction in a non-geometry shader")]
    GeometryStage,
    /// A LOAD_VTX whose slot is neither a varying below `Limits::varyings` nor a
    /// built-in input, or whose vertex is not one of the input primitive's.
    #[error("invalid vertex input")]
    VertexInput,
    /// A sampler slot outside `0..Limits::samplers` or past the interface's `samp_hi`.
    #[error("invalid sampler")]
    Sampler,
    /// An attribute location outside `0..Limits::attributes` or past the interface's
    /// `attr_hi`.
    #[error("invalid attribute")]
    Attribute,
    /// A varying slot outside `0..Limits::varyings`.
    #[error("invalid varying")]
    Varying,
    /// A uniform load of no slots, or whose slots run past `Limits::uniform_slots`, or
    /// whose destination span runs past the temporaries.
    #[error("invalid uniform load")]
    UniformLoad,
    /// A matrix multiply with a width other than 3 or 4, or whose column registers run
    /// past the temporaries.
    #[error("invalid matrix multiply")]
    MatrixMultiply,
    /// A LOAD_IMM whose immediates run past the shader's, whose component count is
    /// outside `1..=4`, or whose destination is not a temporary.
    #[error("invalid constant")]
    Constant,
    /// The destination is not a temporary of the shader (or its span runs past them).
    #[error("invalid destination")]
    Destination,
    /// A source operand is not a temporary of the shader (or its span runs past them).
    #[error("invalid operand")]
    Operand,
    /// A component count outside `1..=4` where the instruction takes one.
    #[error("invalid component count")]
    ComponentCount,
    /// A lane selector (swizzle or SET_LANE lane) outside `0..4`.
    #[error("invalid lane selector")]
    Lane,
    /// A dot product width outside `2..=4`.
    #[error("invalid dot product width")]
    DotWidth,
    /// A CMP code outside `1..=6` ([`CmpCode`]).
    #[error("invalid comparison code")]
    CompareCode,
    /// A TEX whose `aux2` is not a [`TexLookup`](crate::sampler_type::TexLookup).
    #[error("invalid texture lookup mode")]
    TexLookup,
    /// The shader ends with an IF still open (whole shader).
    #[error("unbalanced control flow")]
    Unbalanced,
}

/// A verification failure: the rule, and for per-instruction rules the instruction
/// index and opcode byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{}", describe(self))]
pub struct VerifyError {
    /// Index of the offending record, `None` for whole-shader rules.
    pub index: Option<usize>,
    /// Opcode byte of the offending record.
    pub op: Option<u8>,
    /// The rule broken.
    pub rule: VerifyRule,
}

fn describe(e: &VerifyError) -> String {
    match (e.index, e.op) {
        (Some(i), Some(op)) => match Op::from_code(op) {
            Some(o) => format!("{} (instruction {i}: {})", e.rule, o.mnemonic()),
            None => format!("{} (instruction {i}: opcode {op})", e.rule),
        },
        _ => e.rule.to_string(),
    }
}

/// What the verifier learnt about a shader it accepted, for the consumers that trust
/// it (naga's validator returns its analysis the same way).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderInfo {
    /// The IF/ELSE/ENDIF partners.
    pub ifs: IfTable,
}

/// Check `shader` against its own `limits` and interface high-water marks; on
/// success, return what the consumers need to know about its structure.
///
/// Errors: the first rule broken, in the seed's order (stage, sizes, then each
/// instruction in order, then final IF balance).
pub fn verify(shader: &Shader) -> Result<ShaderInfo, VerifyError> {
    let whole = |rule| VerifyError {
        index: None,
        op: None,
        rule,
    };
    let lim = &shader.limits;
    if lim.validate().is_err() {
        return Err(whole(VerifyRule::Size));
    }
    if shader.stage == Stage::Geometry
        && (lim.profile < super::Profile::Extended || shader.interface.geometry.is_none())
    {
        return Err(whole(VerifyRule::Stage));
    }
    let ntmp = shader.ntmp as usize;
    if ntmp > lim.temporaries
        || shader.ir.len() > lim.instructions
        || shader.imm.len() > lim.immediates
    {
        return Err(whole(VerifyRule::Size));
    }
    let mut ifs = IfMatcher::new(shader.ir.len(), lim.if_depth);
    for (index, ir) in shader.ir.iter().enumerate() {
        check_instruction(shader, index, ir, &mut ifs).map_err(|rule| VerifyError {
            index: Some(index),
            op: Some(ir.op),
            rule,
        })?;
    }
    let ifs = ifs.finish().map_err(whole)?;
    Ok(ShaderInfo { ifs })
}

/// The rules for one record, all read from its opcode's [`OpInfo`]: stage, control
/// flow, the `aux` slot and span rules, the operand fields, `ncomp`, the `aux` value
/// rules, then the original's generic rule for the fields the opcode does not use.
fn check_instruction(
    s: &Shader,
    index: usize,
    ir: &Ir,
    ifs: &mut IfMatcher,
) -> Result<(), VerifyRule> {
    let info = ir.info().ok_or(VerifyRule::Opcode)?;
    if info.profile > s.limits.profile {
        return Err(VerifyRule::Profile);
    }
    let temps = TempFile(s.ntmp as i32);
    if let Some((_, rule)) = info.stage
        && !info.allowed_in(s.stage)
    {
        return Err(rule);
    }
    match info.effect {
        Effect::Control(Control::If) => {
            if !temps.holds(ir.a) {
                return Err(VerifyRule::If);
            }
            ifs.open(index)?;
        }
        Effect::Control(Control::Else) => ifs.flip(index)?,
        Effect::Control(Control::EndIf) => ifs.close(index)?,
        _ => {}
    }
    check_slots(s, ir, info, temps)?;
    let fields = [
        (ir.dst, info.dst, VerifyRule::Destination),
        (ir.a, info.a, VerifyRule::Operand),
        (ir.b, info.b, VerifyRule::Operand),
    ];
    for (field, operand, rule) in fields {
        if let Some(operand) = operand
            && !temps.holds_span(field, span_len(ir, operand.temps))
        {
            return Err(rule);
        }
    }
    if info.ncomp == Ncomp::AtMost4 && ir.ncomp > 4 {
        return Err(VerifyRule::ComponentCount);
    }
    check_values(ir, info)?;
    if ir.op == Op::Tex.code() && crate::sampler_type::TexLookup::decode(ir.aux2).is_none() {
        return Err(VerifyRule::TexLookup);
    }
    if info.unused_fields_checked {
        // The original's generic operand rule: any field that names a temporary must
        // be valid.
        if ir.dst >= 0 && !temps.holds(ir.dst) {
            return Err(VerifyRule::Destination);
        }
        if (ir.a >= 0 && !temps.holds(ir.a)) || (ir.b >= 0 && !temps.holds(ir.b)) {
            return Err(VerifyRule::Operand);
        }
    }
    Ok(())
}

/// The temporaries `0..ntmp`.
#[derive(Clone, Copy)]
struct TempFile(i32);

impl TempFile {
    fn holds(self, t: i16) -> bool {
        (0..self.0).contains(&(t as i32))
    }

    /// `n >= 1` temporaries from `t`, all in the file.
    fn holds_span(self, t: i16, n: i16) -> bool {
        n >= 1 && self.holds(t) && (t as i32 + n as i32 - 1) < self.0
    }
}

/// How many temporaries `temps` names in `ir`, before any clamping.
fn span_len(ir: &Ir, temps: Temps) -> i16 {
    match temps {
        Temps::One => 1,
        Temps::Columns => ir.aux,
        Temps::Slots => ir.aux2,
        Temps::Lookup => ir.lookup_temps(),
    }
}

/// The slot and span rules of `aux` (checked before the operand fields).
fn check_slots(s: &Shader, ir: &Ir, info: &OpInfo, temps: TempFile) -> Result<(), VerifyRule> {
    let lim = &s.limits;
    let slot = |hi: i16, limit: usize| ir.aux >= 0 && ir.aux <= hi && (ir.aux as usize) < limit;
    let ok = match info.aux {
        Aux::Immediates => {
            temps.holds(ir.dst)
                && ir.aux >= 0
                && (1..=4).contains(&ir.ncomp)
                && ir.aux as usize + ir.ncomp as usize <= s.imm.len()
        }
        Aux::MatrixWidth => {
            let columns = [(ir.dst, info.dst), (ir.a, info.a), (ir.b, info.b)];
            (3..=4).contains(&ir.aux)
                && columns.iter().all(|&(field, operand)| {
                    operand.is_none_or(|o| o.temps != Temps::Columns)
                        || temps.holds_span(field, ir.aux)
                })
        }
        Aux::Sampler => slot(s.interface.samp_hi, lim.samplers),
        Aux::Attribute => slot(s.interface.attr_hi, lim.attributes),
        Aux::Varying => slot(i16::MAX, lim.varyings),
        Aux::UniformSlots => {
            ir.aux2 >= 1
                && ir.aux >= 0
                && ir.aux as i32 + ir.aux2 as i32 <= lim.uniform_slots as i32
                && temps.holds_span(ir.dst, ir.aux2)
        }
        Aux::VertexInput => {
            let vertices = s.interface.geometry.map_or(0, |g| g.input.vertices());
            (ir.aux >= super::geometry::vertex_input::POINT_SIZE
                && (ir.aux < 0 || (ir.aux as usize) < lim.varyings))
                && ir.aux2 >= 0
                && (ir.aux2 as usize) < vertices
        }
        Aux::None | Aux::Swizzle | Aux::Lanes | Aux::DotWidth | Aux::Compare => true,
    };
    if ok { Ok(()) } else { Err(aux_rule(info.aux)) }
}

/// The value rules of `aux` (checked after the operand fields).
fn check_values(ir: &Ir, info: &OpInfo) -> Result<(), VerifyRule> {
    let ok = match info.aux {
        Aux::Lanes => (0..4).contains(&ir.aux) && (0..4).contains(&ir.aux2),
        Aux::DotWidth => (2..=4).contains(&ir.aux),
        Aux::Compare => CmpCode::from_code(ir.aux).is_some(),
        _ => true,
    };
    if ok { Ok(()) } else { Err(aux_rule(info.aux)) }
}

/// The rule an `aux` of this kind breaks.
fn aux_rule(aux: Aux) -> VerifyRule {
    match aux {
        Aux::Immediates => VerifyRule::Constant,
        Aux::MatrixWidth => VerifyRule::MatrixMultiply,
        Aux::Sampler => VerifyRule::Sampler,
        Aux::Attribute => VerifyRule::Attribute,
        Aux::Varying => VerifyRule::Varying,
        Aux::UniformSlots => VerifyRule::UniformLoad,
        Aux::Lanes => VerifyRule::Lane,
        Aux::DotWidth => VerifyRule::DotWidth,
        Aux::Compare => VerifyRule::CompareCode,
        Aux::VertexInput => VerifyRule::VertexInput,
        Aux::None | Aux::Swizzle => unreachable!("no rule for {aux:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Interface, Limits, Stage, Type};
    use super::*;

    fn shader(stage: Stage, ir: Vec<Ir>) -> Shader {
        Shader {
            name: "t".into(),
            stage,
            limits: Limits::SEED,
            ir,
            imm: vec![1.0, 2.0, 3.0, 4.0],
            ntmp: 8,
            interface: Interface {
                attr_hi: 1,
                samp_hi: 0,
                ..Interface::default()
            },
        }
    }

    fn rule_of(stage: Stage, ir: Vec<Ir>) -> Option<(Option<usize>, VerifyRule)> {
        verify(&shader(stage, ir)).err().map(|e| (e.index, e.rule))
    }

    fn i(op: Op) -> Ir {
        Ir::new(op, Type::Vec4)
    }

    #[test]
    fn accepts_a_well_formed_shader() {
        let ir = vec![
            i(Op::Const).dst(0).aux(0).ncomp(4),
            i(Op::If).a(0),
            i(Op::Mov).dst(1).a(0).ncomp(4),
            i(Op::Else),
            i(Op::Discard),
            i(Op::EndIf),
            i(Op::StoreColor).a(1),
        ];
        assert_eq!(rule_of(Stage::Fragment, ir), None);
    }

    #[test]
    fn returns_the_if_partners() {
        let ir = vec![
            i(Op::Const).dst(0).aux(0).ncomp(4),
            i(Op::If).a(0),
            i(Op::Nop),
            i(Op::Else),
            i(Op::If).a(0),
            i(Op::EndIf),
            i(Op::EndIf),
        ];
        let info = verify(&shader(Stage::Fragment, ir)).unwrap();
        let spans: Vec<_> = info
            .ifs
            .blocks()
            .iter()
            .map(|b| (b.if_at, b.else_at, b.endif_at, b.depth))
            .collect();
        assert_eq!(spans, [(1, Some(3), 6, 0), (4, None, 5, 1)]);
    }

    #[test]
    fn a_record_with_several_faults_reports_them_in_the_originals_order() {
        // Slot rules before operands, operands before value rules.
        let rule = |ir: Ir| rule_of(Stage::Fragment, vec![ir]).map(|(_, r)| r);
        assert_eq!(
            rule(i(Op::Sample).dst(99).a(99).aux(7)),
            Some(VerifyRule::Sampler)
        );
        assert_eq!(
            rule(i(Op::SetLane).dst(99).a(0).aux(9)),
            Some(VerifyRule::Destination)
        );
        assert_eq!(
            rule(i(Op::Dot).dst(0).a(1).b(99).aux(9)),
            Some(VerifyRule::Operand)
        );
        assert_eq!(
            rule(i(Op::Mov).dst(0).a(1).b(99).ncomp(9)),
            Some(VerifyRule::ComponentCount)
        );
        assert_eq!(
            rule(i(Op::Cmp).dst(0).a(1).b(2).aux(0)),
            Some(VerifyRule::CompareCode)
        );
        // MULMV: width and matrix span first, then the destination and the vector.
        assert_eq!(
            rule(i(Op::MulMv).dst(99).a(0).b(1).aux(4)),
            Some(VerifyRule::Destination)
        );
        // CONST owns its destination check; its unused fields are not checked.
        assert_eq!(
            rule(i(Op::Const).dst(99).aux(0).ncomp(1)),
            Some(VerifyRule::Constant)
        );
        assert_eq!(rule(i(Op::Const).dst(0).a(99).b(99).aux(0).ncomp(1)), None);
        // Any other opcode: a field it does not use must still be −1 or valid.
        assert_eq!(
            rule(i(Op::StoreColor).dst(99).a(0)),
            Some(VerifyRule::Destination)
        );
        assert_eq!(rule(i(Op::If).a(99)), Some(VerifyRule::If));
    }

    #[test]
    fn rejects_bad_opcode_and_temps() {
        let mut bad = i(Op::Nop);
        bad.op = crate::ir::ALL_OPS.len() as u8;
        assert_eq!(
            rule_of(Stage::Vertex, vec![bad]),
            Some((Some(0), VerifyRule::Opcode))
        );
        // Opcode 33 (UADD) exists, in the extended profile only (the fixture's limits
        // are the seed's).
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::UAdd).dst(1).a(0).b(0)]),
            Some((Some(0), VerifyRule::Profile))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::Mov).dst(8).a(0)]),
            Some((Some(0), VerifyRule::Destination))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::Add).dst(1).a(0).b(-1)]),
            Some((Some(0), VerifyRule::Operand))
        );
    }

    #[test]
    fn rejects_the_last_temp_of_multi_temp_ops() {
        // ntmp = 8: a mat4 at 5..8 ends at 8, one past the file.
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::LoadUni).dst(5).aux(0).aux2(4)]),
            Some((Some(0), VerifyRule::UniformLoad))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::MulMm).dst(5).a(0).b(0).aux(4)]),
            Some((Some(0), VerifyRule::MatrixMultiply))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::MulMv).dst(0).a(5).b(0).aux(4)]),
            Some((Some(0), VerifyRule::MatrixMultiply))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::LoadUni).dst(0).aux(30).aux2(4)]),
            Some((Some(0), VerifyRule::UniformLoad))
        );
    }

    #[test]
    fn rejects_wrong_stage_operations() {
        assert_eq!(
            rule_of(Stage::Fragment, vec![i(Op::StorePos).a(0)]),
            Some((Some(0), VerifyRule::PositionStage))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::StoreColor).a(0)]),
            Some((Some(0), VerifyRule::ColorStage))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::Discard)]),
            Some((Some(0), VerifyRule::DiscardStage))
        );
    }

    #[test]
    fn rejects_bad_slots() {
        assert_eq!(
            rule_of(Stage::Fragment, vec![i(Op::Sample).dst(0).a(1).aux(1)]),
            Some((Some(0), VerifyRule::Sampler))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::LoadAttr).dst(0).aux(2)]),
            Some((Some(0), VerifyRule::Attribute))
        );
        assert_eq!(
            rule_of(Stage::Fragment, vec![i(Op::LoadVar).dst(0).aux(8)]),
            Some((Some(0), VerifyRule::Varying))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::StoreVar).a(0).aux(-1)]),
            Some((Some(0), VerifyRule::Varying))
        );
    }

    #[test]
    fn rejects_immediate_overflow_and_matrix_width() {
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::Const).dst(0).aux(2).ncomp(3)]),
            Some((Some(0), VerifyRule::Constant))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::MulMm).dst(0).a(0).b(0).aux(2)]),
            Some((Some(0), VerifyRule::MatrixMultiply))
        );
    }

    #[test]
    fn rejects_unbalanced_control_flow() {
        let iff = i(Op::If).a(0);
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::Else)]),
            Some((Some(0), VerifyRule::Else))
        );
        assert_eq!(
            rule_of(
                Stage::Vertex,
                vec![iff, i(Op::Else), i(Op::Else), i(Op::EndIf)]
            ),
            Some((Some(2), VerifyRule::Else))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![i(Op::EndIf)]),
            Some((Some(0), VerifyRule::EndIf))
        );
        assert_eq!(
            rule_of(Stage::Vertex, vec![iff]),
            Some((None, VerifyRule::Unbalanced))
        );
        let mut deep = vec![iff; 33];
        deep.extend(vec![i(Op::EndIf); 33]);
        assert_eq!(
            rule_of(Stage::Vertex, deep),
            Some((Some(32), VerifyRule::If))
        );
        let mut ok = vec![iff; 32];
        ok.extend(vec![i(Op::EndIf); 32]);
        assert_eq!(rule_of(Stage::Vertex, ok), None);
    }

    #[test]
    fn rejects_oversized_pools() {
        let mut s = shader(Stage::Vertex, vec![]);
        s.ntmp = 97;
        assert_eq!(verify(&s).unwrap_err().rule, VerifyRule::Size);
        let s = shader(Stage::Vertex, vec![i(Op::Nop); 385]);
        assert_eq!(verify(&s).unwrap_err().rule, VerifyRule::Size);
    }

    #[test]
    fn error_text_names_index_and_mnemonic() {
        let e = verify(&shader(Stage::Vertex, vec![i(Op::Discard)])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "discard in a non-fragment shader (instruction 0: discard)"
        );
    }
}
