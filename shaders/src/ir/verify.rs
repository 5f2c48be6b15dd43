//! The verifier: structural and range checks that every consumer of CSIR relies on
//! (seed "Verification stage" to "Matrix validation"; reference B §2.6).
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
//! LOAD_VAR / LOAD_FCOORD fragment-only.

use super::{CmpCode, Ir, Op, Shader, Stage};
use thiserror::Error;

/// Which rule an instruction (or the shader as a whole) broke. Messages follow the
/// seed's wording where the original has the same check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum VerifyRule {
    #[error("invalid shader stage")]
    Stage,
    #[error("IR size is invalid")]
    Size,
    #[error("invalid IR opcode")]
    Opcode,
    #[error("invalid if")]
    If,
    #[error("invalid else")]
    Else,
    #[error("invalid endif")]
    EndIf,
    #[error("position store in a non-vertex shader")]
    PositionStage,
    #[error("color store in a non-fragment shader")]
    ColorStage,
    #[error("discard in a non-fragment shader")]
    DiscardStage,
    #[error("attribute load in a non-vertex shader")]
    AttributeStage,
    #[error("varying store in a non-vertex shader")]
    VaryingStoreStage,
    #[error("varying load in a non-fragment shader")]
    VaryingLoadStage,
    #[error("fragment coordinate load in a non-fragment shader")]
    FragCoordStage,
    #[error("invalid sampler")]
    Sampler,
    #[error("invalid attribute")]
    Attribute,
    #[error("invalid varying")]
    Varying,
    #[error("invalid uniform load")]
    UniformLoad,
    #[error("invalid matrix multiply")]
    MatrixMultiply,
    #[error("invalid constant")]
    Constant,
    #[error("invalid destination")]
    Destination,
    #[error("invalid operand")]
    Operand,
    #[error("invalid component count")]
    ComponentCount,
    #[error("invalid lane selector")]
    Lane,
    #[error("invalid dot product width")]
    DotWidth,
    #[error("invalid comparison code")]
    CompareCode,
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

/// Check `shader` against its own `limits` and interface high-water marks.
///
/// Errors: the first rule broken, in the seed's order (stage, sizes, then each
/// instruction in order, then final IF balance).
pub fn verify(shader: &Shader) -> Result<(), VerifyError> {
    let whole = |rule| VerifyError {
        index: None,
        op: None,
        rule,
    };
    let lim = &shader.limits;
    if lim.validate().is_err() {
        return Err(whole(VerifyRule::Size));
    }
    let ntmp = shader.ntmp as usize;
    if ntmp > lim.temporaries
        || shader.ir.len() > lim.instructions
        || shader.imm.len() > lim.immediates
    {
        return Err(whole(VerifyRule::Size));
    }
    let mut cf = ControlFlow::default();
    for (index, ir) in shader.ir.iter().enumerate() {
        check_instruction(shader, ir, &mut cf).map_err(|rule| VerifyError {
            index: Some(index),
            op: Some(ir.op),
            rule,
        })?;
    }
    if !cf.open.is_empty() {
        return Err(whole(VerifyRule::Unbalanced));
    }
    Ok(())
}

/// Open IFs; each entry records whether its ELSE was seen.
#[derive(Default)]
struct ControlFlow {
    open: Vec<bool>,
}

fn check_instruction(s: &Shader, ir: &Ir, cf: &mut ControlFlow) -> Result<(), VerifyRule> {
    let op = ir.opcode().ok_or(VerifyRule::Opcode)?;
    let lim = &s.limits;
    let ntmp = s.ntmp as i32;
    let temp_ok = |t: i16| (0..ntmp).contains(&(t as i32));
    let span_ok =
        |t: i16, n: i16| n >= 1 && temp_ok(t) && temp_ok((t as i32 + n as i32 - 1) as i16);
    let need_dst = || {
        if temp_ok(ir.dst) {
            Ok(())
        } else {
            Err(VerifyRule::Destination)
        }
    };
    let need_a = || {
        if temp_ok(ir.a) {
            Ok(())
        } else {
            Err(VerifyRule::Operand)
        }
    };
    let need_b = || {
        if temp_ok(ir.b) {
            Ok(())
        } else {
            Err(VerifyRule::Operand)
        }
    };
    let ncomp_max = |max: u8| {
        if ir.ncomp <= max {
            Ok(())
        } else {
            Err(VerifyRule::ComponentCount)
        }
    };
    match op {
        Op::Nop => {}
        Op::If => {
            if !temp_ok(ir.a) || cf.open.len() >= lim.if_depth {
                return Err(VerifyRule::If);
            }
            cf.open.push(false);
        }
        Op::Else => match cf.open.last_mut() {
            Some(seen) if !*seen => *seen = true,
            _ => return Err(VerifyRule::Else),
        },
        Op::EndIf => {
            cf.open.pop().ok_or(VerifyRule::EndIf)?;
        }
        Op::StorePos => {
            if s.stage != Stage::Vertex {
                return Err(VerifyRule::PositionStage);
            }
            need_a()?;
        }
        Op::StoreColor => {
            if s.stage != Stage::Fragment {
                return Err(VerifyRule::ColorStage);
            }
            need_a()?;
        }
        Op::Discard => {
            if s.stage != Stage::Fragment {
                return Err(VerifyRule::DiscardStage);
            }
        }
        Op::Sample => {
            if ir.aux < 0 || ir.aux > s.interface.samp_hi || ir.aux as usize >= lim.samplers {
                return Err(VerifyRule::Sampler);
            }
            need_dst()?;
            need_a()?;
        }
        Op::LoadAttr => {
            if s.stage != Stage::Vertex {
                return Err(VerifyRule::AttributeStage);
            }
            if ir.aux < 0 || ir.aux > s.interface.attr_hi || ir.aux as usize >= lim.attributes {
                return Err(VerifyRule::Attribute);
            }
            need_dst()?;
        }
        Op::LoadVar | Op::StoreVar => {
            if op == Op::LoadVar && s.stage != Stage::Fragment {
                return Err(VerifyRule::VaryingLoadStage);
            }
            if op == Op::StoreVar && s.stage != Stage::Vertex {
                return Err(VerifyRule::VaryingStoreStage);
            }
            if ir.aux < 0 || ir.aux as usize >= lim.varyings {
                return Err(VerifyRule::Varying);
            }
            if op == Op::LoadVar {
                need_dst()?;
                ncomp_max(4)?;
            } else {
                need_a()?;
            }
        }
        Op::LoadFcoord => {
            if s.stage != Stage::Fragment {
                return Err(VerifyRule::FragCoordStage);
            }
            need_dst()?;
        }
        Op::LoadUni => {
            let end = ir.aux as i32 + ir.aux2 as i32;
            if ir.aux2 < 1
                || ir.aux < 0
                || end > lim.uniform_slots as i32
                || !span_ok(ir.dst, ir.aux2)
            {
                return Err(VerifyRule::UniformLoad);
            }
        }
        Op::MulMm => {
            if !(3..=4).contains(&ir.aux)
                || !span_ok(ir.dst, ir.aux)
                || !span_ok(ir.a, ir.aux)
                || !span_ok(ir.b, ir.aux)
            {
                return Err(VerifyRule::MatrixMultiply);
            }
        }
        Op::MulMv => {
            if !(3..=4).contains(&ir.aux) || !span_ok(ir.a, ir.aux) {
                return Err(VerifyRule::MatrixMultiply);
            }
            need_dst()?;
            need_b()?;
        }
        Op::Const => {
            if !temp_ok(ir.dst)
                || ir.aux < 0
                || !(1..=4).contains(&ir.ncomp)
                || ir.aux as usize + ir.ncomp as usize > s.imm.len()
            {
                return Err(VerifyRule::Constant);
            }
        }
        Op::Mov | Op::Swz | Op::Abs | Op::Sin | Op::Cos | Op::Rcp => {
            need_dst()?;
            need_a()?;
            ncomp_max(4)?;
        }
        Op::Rsq | Op::Trunc => {
            need_dst()?;
            need_a()?;
        }
        Op::SetLane => {
            need_dst()?;
            need_a()?;
            if !(0..4).contains(&ir.aux) || !(0..4).contains(&ir.aux2) {
                return Err(VerifyRule::Lane);
            }
        }
        Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Pow => {
            need_dst()?;
            need_a()?;
            need_b()?;
            ncomp_max(4)?;
        }
        Op::Dot => {
            need_dst()?;
            need_a()?;
            need_b()?;
            if !(2..=4).contains(&ir.aux) {
                return Err(VerifyRule::DotWidth);
            }
        }
        Op::Cmp => {
            need_dst()?;
            need_a()?;
            need_b()?;
            if CmpCode::from_code(ir.aux).is_none() {
                return Err(VerifyRule::CompareCode);
            }
        }
    }
    // The original's generic operand rule: any field that names a temporary must be valid.
    if op != Op::Nop && op != Op::Const {
        if ir.dst >= 0 && !temp_ok(ir.dst) {
            return Err(VerifyRule::Destination);
        }
        if (ir.a >= 0 && !temp_ok(ir.a)) || (ir.b >= 0 && !temp_ok(ir.b)) {
            return Err(VerifyRule::Operand);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Interface, Limits, Type};
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
    fn rejects_bad_opcode_and_temps() {
        let mut bad = i(Op::Nop);
        bad.op = 33;
        assert_eq!(
            rule_of(Stage::Vertex, vec![bad]),
            Some((Some(0), VerifyRule::Opcode))
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
