//! Decoding, once per shader: a verified fragment shader becomes a [`Plan`], its
//! instructions with NOPs dropped, every IF/ELSE/ENDIF matched to its partners, and
//! for every instruction the exact temporary components it reads and writes (what
//! [`Plan::bind`] needs to hoist uniform work soundly).
//!
//! Component sets follow the scalar opcode rules (`exec::alu`, reference B §4): MOV,
//! the arithmetic family and ABS touch `ncomp` lanes (0 meaning 4), SWZ / RCP / SIN /
//! COS `ncomp` (0 meaning 1), RSQ, TRUNC, POW, DOT and CMP write lane 0 only, SETLANE
//! one lane, and CONST, SWZ, MULMV, SAMPLE and the loads all four.

use super::super::alu::matrix_width;
use crate::ir::{Ir, Op, Shader, Stage, VerifyError, verify};
use thiserror::Error;

/// Why a shader has no batch plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlanError {
    /// The shader does not verify; only verified shaders run.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// The batch interpreter runs fragment shaders only (vertex shaders use
    /// [`Machine`](crate::exec::Machine)).
    #[error("the batch interpreter runs fragment shaders only")]
    Stage,
}

/// Components of a temporary as a bit set: bit `c` is component `c` (x = bit 0).
pub(super) type Comps = u8;

/// All four components.
pub(super) const XYZW: Comps = 0b1111;

/// The first `n` components.
#[inline]
pub(super) fn first(n: usize) -> Comps {
    ((1u32 << n.min(4)) - 1) as Comps
}

/// `count` consecutive temporaries from `first`, of which components `comps` are
/// accessed in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    pub first: u16,
    pub count: u8,
    pub comps: Comps,
}

impl Span {
    fn one(t: i16, comps: Comps) -> Span {
        Span::many(t, 1, comps)
    }

    fn many(t: i16, count: usize, comps: Comps) -> Span {
        Span {
            first: t as u16,
            count: count as u8,
            comps,
        }
    }

    /// The temporaries of the span.
    pub fn temps(self) -> impl Iterator<Item = usize> {
        let first = self.first as usize;
        first..first + self.count as usize
    }
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub(super) struct Instr {
    /// The record itself (its opcode is valid: the shader verified).
    pub ir: Ir,
    pub op: Op,
    /// Temporaries and components read (second entry: operand `b`).
    pub reads: [Option<Span>; 2],
    /// Temporaries and components written.
    pub writes: Option<Span>,
    /// IF: index (in [`Plan`]'s instruction list) of its ELSE, or of its ENDIF when it
    /// has none. ELSE: index of its ENDIF. Otherwise unused.
    pub next: usize,
    /// IF: index of its ENDIF. Otherwise unused.
    pub end: usize,
}

/// A verified fragment shader decoded for the batch interpreter. Make one per shader
/// (it does not depend on uniforms), then [`Plan::bind`] it once per draw.
#[derive(Clone, Debug)]
pub struct Plan {
    pub(super) instrs: Vec<Instr>,
    pub(super) imm: Vec<f32>,
    pub(super) ntmp: usize,
}

impl Plan {
    /// Verify and decode `shader`.
    ///
    /// Errors: the first rule `shader` breaks ([`verify`]), or [`PlanError::Stage`] for
    /// a vertex shader.
    pub fn new(shader: &Shader) -> Result<Plan, PlanError> {
        verify(shader)?;
        if shader.stage != Stage::Fragment {
            return Err(PlanError::Stage);
        }
        let mut instrs: Vec<Instr> = Vec::with_capacity(shader.ir.len());
        let mut open: Vec<usize> = Vec::new();
        for ir in &shader.ir {
            let op = ir.opcode().expect("verified opcode");
            if op == Op::Nop {
                continue;
            }
            let at = instrs.len();
            match op {
                Op::If => open.push(at),
                Op::Else => {
                    let i = *open.last().expect("verified: ELSE inside an IF");
                    instrs[i].next = at;
                }
                Op::EndIf => {
                    let i = open.pop().expect("verified: ENDIF closes an IF");
                    instrs[i].end = at;
                    let from_else = instrs[i].next;
                    if from_else != 0 {
                        instrs[from_else].next = at;
                    } else {
                        instrs[i].next = at;
                    }
                }
                _ => {}
            }
            let (reads, writes) = access(op, ir);
            instrs.push(Instr {
                ir: *ir,
                op,
                reads,
                writes,
                next: 0,
                end: 0,
            });
        }
        Ok(Plan {
            instrs,
            imm: shader.imm.clone(),
            ntmp: shader.ntmp as usize,
        })
    }

    /// Instructions left after decoding (NOPs dropped).
    pub fn len(&self) -> usize {
        self.instrs.len()
    }

    /// No instruction at all.
    pub fn is_empty(&self) -> bool {
        self.instrs.is_empty()
    }

    /// Components of each temporary written anywhere strictly between instructions
    /// `from` and `to` (both branches of an IF, nested ones included).
    pub(super) fn written_between(&self, from: usize, to: usize) -> Vec<Comps> {
        let mut written = vec![0; self.ntmp];
        for instr in &self.instrs[from + 1..to] {
            if let Some(w) = instr.writes {
                for t in w.temps() {
                    written[t] |= w.comps;
                }
            }
        }
        written
    }
}

/// What `ir` reads and writes (reference B §4 component rules; see the module docs).
fn access(op: Op, ir: &Ir) -> ([Option<Span>; 2], Option<Span>) {
    let n4 = first(ir.ncomp_lanes(4) as usize);
    let n1 = first(ir.ncomp_lanes(1) as usize);
    let x: Comps = 1;
    let a = |comps| Some(Span::one(ir.a, comps));
    let b = |comps| Some(Span::one(ir.b, comps));
    let dst = |comps| Some(Span::one(ir.dst, comps));
    match op {
        Op::Const => ([None, None], dst(XYZW)),
        Op::Mov => ([a(n4), None], dst(n4)),
        Op::Swz => {
            let selected = (0..ir.ncomp_lanes(1))
                .map(|k| 1 << ((ir.aux as u16 >> (2 * k)) & 3))
                .fold(0, |s, bit| s | bit);
            ([a(selected), None], dst(XYZW))
        }
        Op::SetLane => ([a(1 << (ir.aux2 & 3)), None], dst(1 << (ir.aux & 3))),
        Op::Add | Op::Sub | Op::Mul | Op::Min | Op::Max => ([a(n4), b(n4)], dst(n4)),
        Op::Abs => ([a(n4), None], dst(n4)),
        Op::Rcp | Op::Sin | Op::Cos => ([a(n1), None], dst(n1)),
        Op::Rsq | Op::Trunc => ([a(x), None], dst(x)),
        Op::Pow | Op::Cmp => ([a(x), b(x)], dst(x)),
        Op::Dot => {
            let w = first(ir.aux as usize);
            ([a(w), b(w)], dst(x))
        }
        Op::MulMv => {
            let cols = matrix_width(ir.aux);
            let m = Some(Span::many(ir.a, cols, first(cols)));
            ([m, b(first(cols))], dst(XYZW))
        }
        Op::MulMm => {
            let cols = matrix_width(ir.aux);
            let span = |t| Some(Span::many(t, cols, first(cols)));
            (
                [span(ir.a), span(ir.b)],
                Some(Span::many(ir.dst, cols, XYZW)),
            )
        }
        Op::Sample => ([a(0b11), None], dst(XYZW)),
        Op::LoadVar | Op::LoadFcoord | Op::LoadAttr => ([None, None], dst(XYZW)),
        Op::LoadUni => (
            [None, None],
            Some(Span::many(ir.dst, ir.aux2.max(1) as usize, XYZW)),
        ),
        Op::StoreColor | Op::StorePos | Op::StoreVar => ([a(XYZW), None], None),
        Op::If => ([a(x), None], None),
        Op::Nop | Op::Else | Op::EndIf | Op::Discard => ([None, None], None),
    }
}
