//! Decoding, once per shader: a verified fragment shader becomes a [`Plan`], its
//! instructions with NOPs dropped, every IF/ELSE/ENDIF pointed at its partners (from
//! the verifier's [`IfTable`](crate::ir::IfTable)), and for every instruction the exact
//! temporary components it reads and writes (what [`Plan::bind`] needs to hoist
//! uniform work soundly), as its opcode's description gives them
//! ([`Ir::sources`](crate::ir::Ir::sources), [`Ir::destination`](crate::ir::Ir::destination)).

use crate::ir::{
    Effect, Ir, Op, Profile, SECOND_SOURCE_AUX, Shader, Stage, TempSpan, VerifyError, verify,
};
use thiserror::Error;

/// Why a shader has no batch plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlanError {
    /// The shader does not verify; only verified shaders run.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// [`Plan::new`] takes fragment shaders, [`Plan::new_vertex`] vertex shaders and
    /// [`Plan::new_geometry`] geometry shaders; the shader was of another stage.
    #[error("the batch plan was asked for another shader stage")]
    Stage,
}

/// Components of a temporary as a bit set: bit `c` is component `c` (x = bit 0).
pub(super) type Comps = u8;

/// All four components.
pub(super) const XYZW: Comps = 0b1111;

/// `count` consecutive temporaries from `first`, of which components `comps` are
/// accessed in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    pub first: u16,
    pub count: u8,
    pub comps: Comps,
}

impl Span {
    /// A verified record's span (its indices are in range, so not negative).
    fn of(s: TempSpan) -> Span {
        Span {
            first: s.first as u16,
            count: s.count as u8,
            comps: s.lanes,
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

/// A verified shader decoded for the batch interpreter. Make one per shader (it does
/// not depend on uniforms), then [`Plan::bind`] it once per draw.
#[derive(Clone, Debug)]
pub struct Plan {
    pub(super) instrs: Vec<Instr>,
    pub(super) imm: Vec<f32>,
    pub(super) ntmp: usize,
    /// The shader's stage: a vertex plan has the outputs of
    /// [`BoundPlan::run_vertices`](super::BoundPlan::run_vertices) instead of a colour.
    pub(super) stage: Stage,
    /// The shader's profile, whose rules some instructions follow (MIN and MAX).
    pub(super) profile: Profile,
    /// A geometry shader's layout and input lanes (`run/geometry.rs`).
    pub(super) geometry: Option<super::GeometryShape>,
}

impl Plan {
    /// Verify and decode fragment shader `shader`.
    ///
    /// Errors: the first rule `shader` breaks ([`verify`]), or [`PlanError::Stage`] for
    /// a vertex shader.
    pub fn new(shader: &Shader) -> Result<Plan, PlanError> {
        Plan::decode(shader, Stage::Fragment)
    }

    /// Verify and decode vertex shader `shader`, to run many vertices at once with
    /// [`BoundPlan::run_vertices`](super::BoundPlan::run_vertices).
    ///
    /// Errors: the first rule `shader` breaks ([`verify`]), or [`PlanError::Stage`] for
    /// a fragment shader.
    pub fn new_vertex(shader: &Shader) -> Result<Plan, PlanError> {
        Plan::decode(shader, Stage::Vertex)
    }

    /// Verify and decode geometry shader `shader`, to run many input primitives at
    /// once with [`BoundPlan::run_geometry`](super::BoundPlan::run_geometry).
    ///
    /// Errors: the first rule `shader` breaks ([`verify`]), or [`PlanError::Stage`] for
    /// a shader of another stage.
    pub fn new_geometry(shader: &Shader) -> Result<Plan, PlanError> {
        Plan::decode(shader, Stage::Geometry)
    }

    fn decode(shader: &Shader, stage: Stage) -> Result<Plan, PlanError> {
        let info = verify(shader)?;
        if shader.stage != stage {
            return Err(PlanError::Stage);
        }
        // Where each kept record lands in `instrs`.
        let mut at = vec![usize::MAX; shader.ir.len()];
        let mut instrs: Vec<Instr> = Vec::with_capacity(shader.ir.len());
        for (index, ir) in shader.ir.iter().enumerate() {
            let op = ir.opcode().expect("verified opcode");
            if op == Op::Nop {
                continue;
            }
            at[index] = instrs.len();
            instrs.push(Instr {
                ir: *ir,
                op,
                reads: ir.sources().map(|s| s.map(Span::of)),
                writes: ir.destination().map(Span::of),
                next: 0,
                end: 0,
            });
        }
        for block in info.ifs.blocks() {
            let endif = at[block.endif_at];
            let if_ = &mut instrs[at[block.if_at]];
            if_.next = at[block.else_or_endif()];
            if_.end = endif;
            if let Some(else_at) = block.else_at {
                instrs[at[else_at]].next = endif;
            }
        }
        Ok(Plan {
            instrs,
            imm: shader.imm.clone(),
            ntmp: shader.ntmp as usize,
            stage,
            profile: shader.limits.profile,
            geometry: super::GeometryShape::of(shader),
        })
    }

    /// Whether the shader takes derivatives (DDX, DDY), so runs its fragments in 2×2
    /// quads ([`Shader::uses_derivatives`]).
    pub fn needs_quads(&self) -> bool {
        self.instrs.iter().any(|i| {
            i.ir.info()
                .is_some_and(|info| info.effect == Effect::Derivative)
        })
    }

    /// Whether the shader samples with an implicit level of detail (SAMPLE,
    /// SAMPLE_OFFSET, SAMPLE_BIAS: `OpInfo::implicit_lod`),
    /// which needs 2×2 quads when a bound sampler needs a level of detail
    /// ([`Plan::bind_lod`]).
    pub fn uses_implicit_lod(&self) -> bool {
        self.instrs
            .iter()
            .any(|i| i.ir.info().is_some_and(|info| info.implicit_lod))
    }

    /// Output registers of a bound plan: the colour of a fragment shader, then its
    /// second source colour if it stores one (STORE_COLOR `aux`
    /// [`SECOND_SOURCE_AUX`]); a vertex shader's position and vertex slots `0..=s`
    /// for the highest slot `s` it stores.
    pub(super) fn outputs(&self) -> usize {
        match self.stage {
            Stage::Vertex | Stage::Geometry => {
                let slots = self
                    .instrs
                    .iter()
                    .filter(|i| i.op == Op::StoreVar)
                    .map(|i| i.ir.aux as usize + 1)
                    .max()
                    .unwrap_or(0);
                1 + slots
            }
            _ => {
                let second = |i: &&Instr| i.op == Op::StoreColor && i.ir.aux == SECOND_SOURCE_AUX;
                1 + usize::from(self.instrs.iter().any(|i| second(&i)))
            }
        }
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
