//! The vocabulary of an opcode's description ([`OpInfo`]): what its operand fields
//! name, which lanes it reads and writes as a function of `ncomp`, `aux` and `aux2`,
//! what `aux` holds and how the verifier checks it, whether the optimizer may remove
//! it, and how the dump prints it. The entries themselves are in `ir/op.rs`;
//! the questions every consumer asks of a record ([`Ir::sources`],
//! [`Ir::destination`], [`Ir::reads`], ...) are answered here, from the entry.
//!
//! Lane masks are `u8` bit sets: bit `i` is lane `i` (x = bit 0).

use super::{Ir, Op, Profile, Stage, VerifyRule};

/// The mask of lanes `0..n` (`n` above 4 counts as 4).
pub const fn first_lanes(n: u8) -> u8 {
    let n = if n > 4 { 4 } else { n };
    ((1u16 << n) - 1) as u8
}

/// How many consecutive temporaries an operand field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Temps {
    /// One temporary.
    One,
    /// The columns of a matrix: [`Ir::matrix_width`] temporaries (MULMV, MULMM).
    Columns,
    /// The vec4 slots of a uniform load: `aux2` temporaries, at least one (LOAD_UNI).
    Slots,
    /// TEX's `b`: [`TexMode::b_temps`](crate::sampler_type::TexMode::b_temps) of the
    /// [`TexLookup`](crate::sampler_type::TexLookup) in `aux2` (two for the gradients
    /// of a 3D or cube `textureGrad`), one for an `aux2` that is no lookup.
    Lookup,
}

/// Which lanes of each temporary an operand reads, or the destination writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Lane x only (scalar operations; an IF's condition).
    X,
    /// Lanes x and y (a texture coordinate).
    Xy,
    /// All four lanes (for a destination: lanes not computed are zeroed).
    All,
    /// Lanes `0..ncomp`, with `ncomp` 0 meaning `zero_means` ([`Ir::ncomp_lanes`]).
    Ncomp {
        /// What `ncomp` 0 stands for (4 for MOV and the arithmetic family, 1 for SWZ,
        /// RCP, SIN and COS: the original's defaults).
        zero_means: u8,
    },
    /// Lanes `0..`[`Ir::dot_width`].
    DotWidth,
    /// Lanes `0..`[`Ir::matrix_width`] (a matrix column or the vector it multiplies).
    MatrixWidth,
    /// Lane `aux & 3` (SETLANE's destination lane).
    AuxLane,
    /// Lane `aux2 & 3` (SETLANE's source lane).
    Aux2Lane,
    /// The lanes the first `ncomp` (0 meaning 1) two-bit selectors of `aux` name (SWZ).
    Swizzled,
}

impl Lanes {
    /// The lanes of `ir` this describes, as a mask.
    pub fn mask(self, ir: &Ir) -> u8 {
        match self {
            Lanes::X => 0b0001,
            Lanes::Xy => 0b0011,
            Lanes::All => 0b1111,
            Lanes::Ncomp { zero_means } => first_lanes(ir.ncomp_lanes(zero_means)),
            Lanes::DotWidth => first_lanes(ir.dot_width()),
            Lanes::MatrixWidth => first_lanes(ir.matrix_width()),
            Lanes::AuxLane => 1 << (ir.aux & 3),
            Lanes::Aux2Lane => 1 << (ir.aux2 & 3),
            Lanes::Swizzled => (0..ir.ncomp_lanes(1))
                .map(|k| 1 << ir.swizzle_selector(k))
                .fold(0, |mask, lane| mask | lane),
        }
    }
}

/// One operand field (`dst`, `a` or `b`) of an opcode: how many temporaries it names
/// and which lanes of each it reads (sources) or writes (destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// How many consecutive temporaries.
    pub temps: Temps,
    /// Which lanes of each.
    pub lanes: Lanes,
}

/// What `aux` (and `aux2`) hold for an opcode, and so which rule the verifier applies
/// to them.
///
/// The verifier checks the slot and span rules ([`Aux::Immediates`] to
/// [`Aux::UniformSlots`], which also cover the operands they size) before the
/// operand fields, and the value rules ([`Aux::Lanes`], [`Aux::DotWidth`],
/// [`Aux::Compare`]) after them: the original's order, which decides the error
/// reported for a record with several faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aux {
    /// Nothing (`aux` is ignored).
    None,
    /// First index of `ncomp` (1..=4) immediates: the destination must be a
    /// temporary and the range inside the pool ([`VerifyRule::Constant`]).
    Immediates,
    /// The matrix width, 3 or 4, and every [`Temps::Columns`] operand's columns
    /// inside the temporary file ([`VerifyRule::MatrixMultiply`]).
    MatrixWidth,
    /// A sampler slot: at most the interface's highest and below
    /// `Limits::samplers` ([`VerifyRule::Sampler`]).
    Sampler,
    /// An attribute location: at most the interface's highest and below
    /// `Limits::attributes` ([`VerifyRule::Attribute`]).
    Attribute,
    /// A varying slot below `Limits::varyings` ([`VerifyRule::Varying`]).
    Varying,
    /// The first uniform vec4 slot, with `aux2` the slot count (at least 1): the slots
    /// below `Limits::uniform_slots` and the destination span inside the temporary
    /// file ([`VerifyRule::UniformLoad`]).
    UniformSlots,
    /// Two-bit lane selectors (not checked: every value selects lanes).
    Swizzle,
    /// `aux` the destination lane and `aux2` the source lane, each 0..=3
    /// ([`VerifyRule::Lane`]).
    Lanes,
    /// The dot product width, 2..=4 ([`VerifyRule::DotWidth`]).
    DotWidth,
    /// A comparison code ([`CmpCode`](super::CmpCode), [`VerifyRule::CompareCode`]).
    Compare,
    /// A per-vertex input of the geometry stage: `aux` a varying slot below
    /// `Limits::varyings` or one of the built-ins of
    /// [`vertex_input`](super::geometry::vertex_input), `aux2` the vertex, below the
    /// input primitive's vertex count ([`VerifyRule::VertexInput`]).
    VertexInput,
}

/// The verifier's rule for `ncomp` (CONST's is part of [`Aux::Immediates`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ncomp {
    /// Not checked (the opcode ignores it or only clamps it).
    Unchecked,
    /// At most 4 ([`VerifyRule::ComponentCount`]).
    AtMost4,
}

/// What an opcode reads from outside the temporaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A vertex attribute (LOAD_ATTR).
    Attribute,
    /// A varying (LOAD_VAR).
    Varying,
    /// Uniform vec4 slots (LOAD_UNI).
    Uniform,
    /// The fragment coordinate (LOAD_FCOORD).
    FragCoord,
    /// Whether the fragment's primitive is front-facing (LOAD_FACE).
    FrontFacing,
    /// A texture, through a sampler (SAMPLE).
    Texture,
    /// A vertex of the geometry stage's input primitive (LOAD_VTX).
    Vertex,
    /// The index of the geometry stage's input primitive (LOAD_PRIMID).
    PrimitiveId,
}

/// Which output a store writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// `gl_Position` (STORE_POS).
    Position,
    /// Varying slot `aux` (STORE_VAR).
    Varying,
    /// The fragment colour (STORE_COLOR).
    Color,
}

/// Structured control flow and DISCARD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Opens a conditional on lane x of `a` (see [`IfTable`](super::IfTable)).
    If,
    /// Switches to the other branch of the innermost IF.
    Else,
    /// Closes the innermost IF.
    EndIf,
    /// Ends the invocation and discards the fragment.
    Discard,
}

/// What an instruction does besides writing its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing at all (NOP).
    None,
    /// Computes its destination from temporaries and immediates only.
    Compute,
    /// Computes its destination from a temporary of all four invocations of the 2×2
    /// quad it runs in (DDX, DDY; docs/csir.md "Derivatives"): not a function of one
    /// invocation's registers, so it is never evaluated ahead of time for a draw.
    Derivative,
    /// Loads its destination from an input.
    Load(Input),
    /// Stores `a` to an output.
    Store(Output),
    /// Control flow.
    Control(Control),
    /// Geometry stage: appends a vertex to the output or ends the output primitive.
    Emit(Emission),
}

/// What a geometry-stage emission does (GLSL 1.50 §8.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emission {
    /// `EmitVertex()`: the current outputs become the next vertex of the current
    /// output primitive.
    Vertex,
    /// `EndPrimitive()`: the current output primitive ends; the next vertex starts a
    /// new one.
    EndPrimitive,
}

/// Everything the verifier, optimizer, dump, batch decoder, TGSI lane analysis and
/// tracer need to know about one opcode. One entry per opcode, in
/// `ir/op.rs`; the semantics (what the instruction computes) live with the
/// interpreters and the TGSI emitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// The opcode.
    pub op: Op,
    /// The name the IR dump prints.
    pub mnemonic: &'static str,
    /// The first profile whose instruction set has it ([`Profile::Seed`] for the
    /// seed's 33 opcodes, [`Profile::Extended`] for those numbered from 33 on); the
    /// verifier rejects it in a shader whose `limits.profile` is lower
    /// ([`VerifyRule::Profile`]).
    pub profile: Profile,
    /// What it does besides writing its destination.
    pub effect: Effect,
    /// The destination temporaries and the lanes written in each (lanes outside keep
    /// their value); `None` when it writes no temporary.
    pub dst: Option<Operand>,
    /// The first source and the lanes of it that reach the result.
    pub a: Option<Operand>,
    /// The second source.
    pub b: Option<Operand>,
    /// What `aux` and `aux2` hold.
    pub aux: Aux,
    /// The verifier's `ncomp` rule.
    pub ncomp: Ncomp,
    /// The only stage it may appear in, with the rule broken elsewhere.
    pub stage: Option<(Stage, VerifyRule)>,
    /// The geometry stage may use it too, besides [`OpInfo::stage`] (the vertex
    /// outputs STORE_POS and STORE_VAR, which the geometry stage writes before each
    /// EMIT).
    pub geometry_too: bool,
    /// The optimizer may remove it when no instruction reads its destination (the
    /// seed's removable set: instructions whose only effect is one destination
    /// temporary).
    pub removable: bool,
    /// The optimizer counts the destination as read: the instruction keeps lanes of
    /// it that an earlier write set (SETLANE, the seed's rule).
    pub dst_counts_as_read: bool,
    /// The verifier requires every operand field it does not use to be −1 or a valid
    /// temporary (the original's generic rule; not for NOP, and not for CONST, whose
    /// records from the original hold 0 in `a` and `b`).
    pub unused_fields_checked: bool,
    /// The dump prints ` aux X` even when `aux` is 0 (LOAD_ATTR, LOAD_UNI, SAMPLE: the
    /// original's dump).
    pub dump_aux_always: bool,
    /// A texture lookup whose level of detail is implicit (SAMPLE, SAMPLE_OFFSET,
    /// SAMPLE_BIAS): in a fragment shader run in 2×2 quads it comes from the quad's
    /// derivatives of the coordinate `a.xy`, so the instruction reads operand `a` of
    /// all four invocations, as a derivative does (docs/csir.md "Level of detail").
    pub implicit_lod: bool,
    /// A seed instruction whose meaning the extended profile changes (MIN and MAX with
    /// a NaN operand: docs/csir.md "MIN and MAX"), so an extended-profile shader that
    /// uses it cannot be saved as CSI v1, which a loader reads as the seed profile.
    pub by_profile: bool,
}

/// One temporary with `lanes`.
const fn one(lanes: Lanes) -> Option<Operand> {
    Some(Operand {
        temps: Temps::One,
        lanes,
    })
}

/// `temps` temporaries with `lanes` each.
const fn many(temps: Temps, lanes: Lanes) -> Option<Operand> {
    Some(Operand { temps, lanes })
}

/// Builders for the entries of `ir/op.rs`: `OpInfo::compute("add").dst(..)...`.
impl OpInfo {
    /// An opcode with `effect` and nothing else: no operands, `aux` unused, not
    /// removable, in the seed profile.
    pub(super) const fn new(op: Op, mnemonic: &'static str, effect: Effect) -> OpInfo {
        OpInfo {
            op,
            mnemonic,
            profile: Profile::Seed,
            effect,
            dst: None,
            a: None,
            b: None,
            aux: Aux::None,
            ncomp: Ncomp::Unchecked,
            stage: None,
            geometry_too: false,
            removable: false,
            dst_counts_as_read: false,
            unused_fields_checked: true,
            dump_aux_always: false,
            implicit_lod: false,
            by_profile: false,
        }
    }

    /// A removable temp-to-temp computation.
    pub(super) const fn compute(op: Op, mnemonic: &'static str) -> OpInfo {
        let mut info = OpInfo::new(op, mnemonic, Effect::Compute);
        info.removable = true;
        info
    }

    /// A removable derivative across the quad ([`Effect::Derivative`]).
    pub(super) const fn derivative(op: Op, mnemonic: &'static str) -> OpInfo {
        let mut info = OpInfo::new(op, mnemonic, Effect::Derivative);
        info.removable = true;
        info
    }

    /// Writes `lanes` of one destination temporary.
    pub(super) const fn dst(mut self, lanes: Lanes) -> OpInfo {
        self.dst = one(lanes);
        self
    }

    /// Writes `lanes` of each of `temps` destination temporaries.
    pub(super) const fn dst_span(mut self, temps: Temps, lanes: Lanes) -> OpInfo {
        self.dst = many(temps, lanes);
        self
    }

    /// Reads `lanes` of temporary `a`.
    pub(super) const fn a(mut self, lanes: Lanes) -> OpInfo {
        self.a = one(lanes);
        self
    }

    /// Reads `lanes` of each of `temps` temporaries from `a`.
    pub(super) const fn a_span(mut self, temps: Temps, lanes: Lanes) -> OpInfo {
        self.a = many(temps, lanes);
        self
    }

    /// Reads `lanes` of temporary `b`.
    pub(super) const fn b(mut self, lanes: Lanes) -> OpInfo {
        self.b = one(lanes);
        self
    }

    /// Reads `lanes` of each of `temps` temporaries from `b`.
    pub(super) const fn b_span(mut self, temps: Temps, lanes: Lanes) -> OpInfo {
        self.b = many(temps, lanes);
        self
    }

    /// `aux` (and `aux2`) hold `aux`.
    pub(super) const fn aux(mut self, aux: Aux) -> OpInfo {
        self.aux = aux;
        self
    }

    /// Only in the extended profile.
    pub(super) const fn extended(mut self) -> OpInfo {
        self.profile = Profile::Extended;
        self
    }

    /// `ncomp` must be at most 4.
    pub(super) const fn ncomp_at_most_4(mut self) -> OpInfo {
        self.ncomp = Ncomp::AtMost4;
        self
    }

    /// Only in `stage`; `rule` elsewhere.
    pub(super) const fn only_in(mut self, stage: Stage, rule: VerifyRule) -> OpInfo {
        self.stage = Some((stage, rule));
        self
    }

    /// Allowed in the geometry stage as well ([`OpInfo::geometry_too`]).
    pub(super) const fn also_in_geometry(mut self) -> OpInfo {
        self.geometry_too = true;
        self
    }

    /// Whether a shader of `stage` may use it.
    pub fn allowed_in(&self, stage: Stage) -> bool {
        match self.stage {
            None => true,
            Some((only, _)) => only == stage || (self.geometry_too && stage == Stage::Geometry),
        }
    }

    /// Its meaning differs by profile ([`OpInfo::by_profile`]).
    pub(super) const fn by_profile(mut self) -> OpInfo {
        self.by_profile = true;
        self
    }

    /// Never removed by the optimizer.
    pub(super) const fn kept(mut self) -> OpInfo {
        self.removable = false;
        self
    }

    /// The destination counts as read (a read-modify-write).
    pub(super) const fn dst_counts_as_read(mut self) -> OpInfo {
        self.dst_counts_as_read = true;
        self
    }

    /// Operand fields it does not use are not checked.
    pub(super) const fn unused_fields_unchecked(mut self) -> OpInfo {
        self.unused_fields_checked = false;
        self
    }

    /// The dump always prints `aux`.
    pub(super) const fn dump_aux_always(mut self) -> OpInfo {
        self.dump_aux_always = true;
        self
    }

    /// Its level of detail is implicit ([`OpInfo::implicit_lod`]).
    pub(super) const fn implicit_lod(mut self) -> OpInfo {
        self.implicit_lod = true;
        self
    }
}

/// Temporaries `first .. first + count`, and the lanes of each that an instruction
/// reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TempSpan {
    /// The first temporary (as stored in the record: may be negative or out of range
    /// in a record the verifier has not accepted).
    pub first: i16,
    /// How many (1 to 4).
    pub count: i16,
    /// The lanes of each, as a mask.
    pub lanes: u8,
}

impl TempSpan {
    /// The temporaries, `first + k` saturating (an unverified record may hold any
    /// value).
    pub fn temps(self) -> impl Iterator<Item = i16> {
        (0..self.count).map(move |k| self.first.saturating_add(k))
    }
}

impl Ir {
    /// The description of this record's opcode; `None` for an invalid opcode byte.
    pub fn info(&self) -> Option<&'static OpInfo> {
        self.opcode().map(Op::info)
    }

    /// How many lanes an `ncomp`-driven opcode covers: `ncomp` (at most 4), with 0
    /// meaning `zero_means` — 4 for MOV, ADD, SUB, MUL, MIN, MAX and ABS, 1 for SWZ,
    /// RCP, SIN and COS (the original's component-count defaults, stated per opcode in
    /// `ir/op.rs`). Never more than 4, whatever the record or `zero_means`.
    pub const fn ncomp_lanes(&self, zero_means: u8) -> u8 {
        let n = if self.ncomp == 0 {
            zero_means
        } else {
            self.ncomp
        };
        if n > 4 { 4 } else { n }
    }

    /// DOT's width: `aux` (verified 2..=4), 0 meaning 3, clamped to 1..=4.
    pub const fn dot_width(&self) -> u8 {
        match self.aux {
            0 => 3,
            w if w < 1 => 1,
            w if w > 4 => 4,
            w => w as u8,
        }
    }

    /// The matrix width of MULMV and MULMM: `aux` (verified 3 or 4), 0 meaning 4,
    /// clamped to 1..=4. Both the column count and the rows used of each column.
    pub const fn matrix_width(&self) -> u8 {
        match self.aux {
            0 => 4,
            w if w < 1 => 1,
            w if w > 4 => 4,
            w => w as u8,
        }
    }

    /// SWZ's selector for destination lane `k`: the source lane `(aux >> 2k) & 3`.
    pub const fn swizzle_selector(&self, k: u8) -> u8 {
        ((self.aux as u16 >> (2 * (k & 3))) & 3) as u8
    }

    /// How many temporaries TEX's `b` names ([`Temps::Lookup`]).
    pub fn lookup_temps(&self) -> i16 {
        crate::sampler_type::TexLookup::decode(self.aux2).map_or(1, |l| l.mode.b_temps())
    }

    /// The span an operand field describes.
    fn span(&self, field: i16, operand: Operand) -> TempSpan {
        let count = match operand.temps {
            Temps::One => 1,
            Temps::Columns => self.matrix_width() as i16,
            Temps::Slots => self.aux2.max(1),
            Temps::Lookup => self.lookup_temps(),
        };
        TempSpan {
            first: field,
            count,
            lanes: operand.lanes.mask(self),
        }
    }

    /// What the sources `a` and `b` read: the temporaries and only the lanes that
    /// reach the result (a destination's kept lanes are not reads). `None` for a
    /// source the opcode does not have, or whose field is negative.
    pub fn sources(&self) -> [Option<TempSpan>; 2] {
        let Some(info) = self.info() else {
            return [None, None];
        };
        let source = |field: i16, operand: Option<Operand>| {
            operand
                .filter(|_| field >= 0)
                .map(|operand| self.span(field, operand))
        };
        [source(self.a, info.a), source(self.b, info.b)]
    }

    /// What the instruction writes: its destination temporaries and the lanes written
    /// in each (the same for each: LOAD_UNI's slots, MULMM's columns); `None` when it
    /// writes no temporary or its opcode byte is invalid. Lanes outside keep their
    /// value.
    pub fn destination(&self) -> Option<TempSpan> {
        let operand = self.info()?.dst?;
        Some(self.span(self.dst, operand))
    }

    /// Every temporary this instruction reads, including all matrix columns of
    /// MULMV/MULMM and the destination of SETLANE (which keeps its other lanes): the
    /// optimizer's use counts (every column counts: [`optimize`](super::optimize)).
    ///
    /// An unverified record may name negative or huge temporaries, which callers must
    /// range-check.
    pub fn reads(&self) -> impl Iterator<Item = i16> + '_ {
        let kept = self
            .info()
            .filter(|info| info.dst_counts_as_read && self.dst >= 0)
            .map(|_| TempSpan {
                first: self.dst,
                count: 1,
                lanes: 0b1111,
            });
        let [a, b] = self.sources();
        a.into_iter().chain(kept).chain(b).flat_map(TempSpan::temps)
    }

    /// The temporaries this instruction writes as `(first, count)`: LOAD_UNI writes
    /// `aux2` consecutive temps and MULMM `aux`; stores and control flow write none.
    pub fn writes(&self) -> Option<(i16, i16)> {
        self.destination().map(|d| (d.first, d.count))
    }

    /// The lanes of its destination this instruction writes, as a mask, the same for
    /// each destination temporary when it writes several; 0 when it has no
    /// destination or its opcode byte is invalid. Lanes outside the mask keep their
    /// value. The entries of `ir/op.rs` say which, per opcode.
    pub fn written_lanes(&self) -> u8 {
        self.destination().map_or(0, |d| d.lanes)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Type;
    use super::*;

    #[test]
    fn reads_cover_matrix_columns_and_setlane_destination() {
        let mv = Ir::new(Op::MulMv, Type::Vec4).dst(9).a(4).b(8).aux(4);
        assert_eq!(mv.reads().collect::<Vec<_>>(), vec![4, 5, 6, 7, 8]);
        let mm = Ir::new(Op::MulMm, Type::Mat3).dst(20).a(1).b(10).aux(3);
        assert_eq!(mm.reads().collect::<Vec<_>>(), vec![1, 2, 3, 10, 11, 12]);
        assert_eq!(mm.writes(), Some((20, 3)));
        let sl = Ir::new(Op::SetLane, Type::Vec4).dst(3).a(2).aux(1);
        assert_eq!(sl.reads().collect::<Vec<_>>(), vec![2, 3]);
        let c = Ir::new(Op::Const, Type::Float).dst(1).aux(0).ncomp(1);
        assert_eq!(c.reads().count(), 0);
        let uni = Ir::new(Op::LoadUni, Type::Mat4).dst(2).aux(5).aux2(4);
        assert_eq!(uni.writes(), Some((2, 4)));
        assert_eq!(Ir::new(Op::StoreColor, Type::Vec4).a(1).writes(), None);
    }

    #[test]
    fn sources_give_the_lanes_that_reach_the_result() {
        let span = |first, count, lanes| {
            Some(TempSpan {
                first,
                count,
                lanes,
            })
        };
        // SWZ reads only the lanes its selectors name: .zx (ncomp 2).
        let swz = Ir::new(Op::Swz, Type::Vec2)
            .dst(0)
            .a(1)
            .aux(0b00_10)
            .ncomp(2);
        assert_eq!(swz.sources(), [span(1, 1, 0b0101), None]);
        let dot = Ir::new(Op::Dot, Type::Float).dst(0).a(1).b(2).aux(3);
        assert_eq!(dot.sources(), [span(1, 1, 0b0111), span(2, 1, 0b0111)]);
        let mv = Ir::new(Op::MulMv, Type::Vec3).dst(0).a(4).b(8).aux(3);
        assert_eq!(mv.sources(), [span(4, 3, 0b0111), span(8, 1, 0b0111)]);
        // SETLANE's kept destination lanes are not a source.
        let sl = Ir::new(Op::SetLane, Type::Vec4).dst(3).a(2).aux(1).aux2(2);
        assert_eq!(sl.sources(), [span(2, 1, 0b0100), None]);
        assert_eq!(sl.destination(), span(3, 1, 0b0010));
        let sample = Ir::new(Op::Sample, Type::Vec4).dst(0).a(5);
        assert_eq!(sample.sources(), [span(5, 1, 0b0011), None]);
        // A missing (negative) source field is no source.
        assert_eq!(
            Ir::new(Op::Add, Type::Vec4).dst(0).a(-1).b(2).sources()[0],
            None
        );
    }

    #[test]
    fn written_lanes_follow_the_interpreter() {
        let ir = |op| Ir::new(op, Type::Vec4).dst(0).a(1).b(2);
        // ncomp 0 means 4 for the copy/arithmetic family, 1 for RCP/SIN/COS.
        for op in [
            Op::Mov,
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Min,
            Op::Max,
            Op::Abs,
        ] {
            assert_eq!(ir(op).written_lanes(), 0b1111, "{op:?}");
            assert_eq!(ir(op).ncomp(2).written_lanes(), 0b0011, "{op:?}");
            assert_eq!(ir(op).ncomp(9).written_lanes(), 0b1111, "{op:?}");
        }
        for op in [Op::Rcp, Op::Sin, Op::Cos] {
            assert_eq!(ir(op).written_lanes(), 0b0001, "{op:?}");
            assert_eq!(ir(op).ncomp(3).written_lanes(), 0b0111, "{op:?}");
        }
        for op in [Op::Dot, Op::Rsq, Op::Pow, Op::Trunc, Op::Cmp] {
            assert_eq!(ir(op).ncomp(4).aux(4).written_lanes(), 0b0001, "{op:?}");
        }
        assert_eq!(ir(Op::SetLane).aux(2).aux2(0).written_lanes(), 0b0100);
        assert_eq!(ir(Op::SetLane).aux(7).written_lanes(), 0b1000);
        // These zero what they do not fill, or load whole slots.
        for op in [
            Op::Const,
            Op::Swz,
            Op::MulMv,
            Op::MulMm,
            Op::Sample,
            Op::LoadAttr,
            Op::LoadVar,
            Op::LoadUni,
            Op::LoadFcoord,
        ] {
            assert_eq!(ir(op).ncomp(1).aux(3).written_lanes(), 0b1111, "{op:?}");
        }
        for op in [Op::Nop, Op::StoreColor, Op::If, Op::EndIf, Op::Discard] {
            assert_eq!(ir(op).written_lanes(), 0, "{op:?}");
        }
        let mut invalid = ir(Op::Mov);
        invalid.op = 200;
        assert_eq!(invalid.written_lanes(), 0);
        assert_eq!(invalid.sources(), [None, None]);
    }

    #[test]
    fn widths_follow_the_originals_defaults() {
        let ir = |aux| Ir::new(Op::Dot, Type::Float).aux(aux);
        assert_eq!(
            [ir(0), ir(2), ir(4), ir(9), ir(-2)].map(|i| i.dot_width()),
            [3, 2, 4, 4, 1]
        );
        assert_eq!(
            [ir(0), ir(3), ir(9), ir(-2)].map(|i| i.matrix_width()),
            [4, 3, 4, 1]
        );
        assert_eq!(first_lanes(0), 0);
        assert_eq!(first_lanes(3), 0b0111);
        assert_eq!(first_lanes(200), 0b1111);
    }
}
