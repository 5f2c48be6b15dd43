//! Binding, once per draw: a [`Plan`] and the draw's uniforms become a [`BoundPlan`], the
//! steps that still have per-pixel work.
//!
//! Uniforms are constant across a draw (architecture.md), so binding walks the plan
//! like an interpreter that knows every uniform but no per-pixel input. For each
//! component of each temporary it tracks whether the value is *known* for the whole
//! draw (and then which value), starting from the zeroed temporaries every invocation
//! begins with:
//! - LOAD_UNI, and every temp-to-temp instruction whose inputs are all known, is
//!   evaluated here, once, by the scalar interpreter's own code (`exec::alu` over
//!   `f32`), so its bits are the scalar interpreter's by construction. No step is
//!   emitted for it.
//! - An IF whose condition is known keeps only the branch every lane takes.
//! - Everything else becomes a [`Step`]. A known operand is read from the draw's
//!   constant table (broadcast to every lane).
//! - A temporary that is known but read together with per-pixel components, or
//!   written under a lane mask (inside an IF on a per-pixel condition, where lanes
//!   that do not take the branch keep the old value), is first copied from the
//!   constant table into the batch register file (*materialised*). Inside such an
//!   IF an instruction with known inputs is still evaluated here, and its result is
//!   also materialised under the branch's lane mask; every component written anywhere
//!   in the IF is per-pixel after its ENDIF.
//! - A DISCARD outside every per-pixel IF discards every fragment: binding stops there.
//!
//! Finally the steps are tidied ([`tidy`](super::tidy): dead steps, copies and scalar
//! broadcasts folded away) and the registers still used are renumbered densely, so
//! that the per-worker register file (1 KiB per register) stays small.

use super::super::alu;
use super::super::math;
use super::plan::{Comps, Instr, Plan, Span, XYZW};
use super::step::{Access, CONSTANT, LodMode, Reg, Step};
use super::tidy::tidy;
use crate::ir::first_lanes;
use crate::ir::{Effect, Op, SECOND_SOURCE_AUX};
use std::collections::HashMap;

/// A [`Plan`] bound to one draw's uniforms: what [`BoundPlan::run`] executes per batch.
///
/// Create it once per draw with [`Plan::bind`]; it is immutable and `Sync`, so every
/// worker thread shares it (each with its own [`Registers`](super::Registers)).
#[derive(Clone, Debug)]
pub struct BoundPlan {
    pub(super) steps: Vec<Step>,
    /// Batch registers the steps use (the outputs among them).
    pub(super) registers: usize,
    /// The first output register: a fragment shader's colour, or a vertex shader's
    /// position, followed by its varyings (vertex slot `s` in `color + 1 + s`).
    pub(super) color: Reg,
    /// Output registers from `color` on: 1 for a fragment shader, 2 when it stores a
    /// second source colour (in `color + 1`); for a vertex shader the position and
    /// vertex slots `0..outputs - 1`.
    pub(super) outputs: usize,
    /// A vertex or geometry shader's plan ([`BoundPlan::run_vertices`],
    /// [`BoundPlan::run_geometry`]): outputs start at `Outputs::INITIAL`.
    pub(super) vertex: bool,
    /// A geometry shader's layout and input lanes.
    pub(super) geometry: Option<super::GeometryShape>,
    /// The constant table: the four components of each constant operand.
    pub(super) constants: Vec<[f32; 4]>,
    /// Deepest nesting of per-pixel IFs.
    pub(super) depth: usize,
    /// The shader takes derivatives: lanes come in 2×2 quads and DISCARD demotes a
    /// lane instead of stopping it (`QuadMachine`'s rules).
    pub(super) quads: bool,
    /// The colour register must be zeroed before each chunk: some output component
    /// (or a read, or a DISCARD) can see it before every lane wrote it.
    pub(super) zero_color: bool,
}

impl BoundPlan {
    /// Whether some fragment can be discarded (the shader has a reachable DISCARD).
    pub fn may_discard(&self) -> bool {
        self.steps.contains(&Step::Discard)
    }

    /// Whether the shader takes derivatives (DDX, DDY): [`BoundPlan::run`] then treats
    /// lanes `4q .. 4q + 4` as one 2×2 quad in
    /// [`QUAD_LANES`](crate::exec::QUAD_LANES) order, with
    /// [`QuadMachine`](crate::exec::QuadMachine)'s rules.
    pub fn needs_quads(&self) -> bool {
        self.quads
    }

    /// Whether [`BoundPlan::run`] reads `gl_FragCoord`
    /// ([`FragmentLanes::frag_coord`](super::FragmentLanes::frag_coord)): a bound
    /// LOAD_FCOORD step is left.
    pub fn reads_frag_coord(&self) -> bool {
        self.steps
            .iter()
            .any(|s| matches!(s, Step::LoadFcoord { .. }))
    }

    /// Steps run per batch: the instructions left after binding.
    pub fn steps(&self) -> usize {
        self.steps.len()
    }

    /// The varying lane arrays [`BoundPlan::run`] reads, as bits (bit `i` = index `i` of
    /// [`FragmentLanes::varyings`](super::FragmentLanes::varyings), below 64): the
    /// components of the remapped vertex slots the shader loads and uses. The others
    /// may hold anything (a caller need not interpolate them).
    pub fn varyings_read(&self) -> u64 {
        let mut bits = 0u64;
        for step in &self.steps {
            if let Step::LoadVar { first, comps, .. } = *step {
                for c in 0..4 {
                    let index = first as usize + c;
                    if comps & (1 << c) != 0 && index < 64 {
                        bits |= 1 << index;
                    }
                }
            }
        }
        bits
    }
}

impl Plan {
    /// Bind this plan to a draw: `uniforms` are the stage's vec4 uniform slots (missing
    /// slots read 0, as in [`Inputs::uniform`](crate::exec::Inputs::uniform)) and
    /// `var_remap` the program's varying remap (fragment slot → vertex slot; negative or
    /// missing entries map a slot to itself, as in
    /// [`Inputs::var_remap`](crate::exec::Inputs::var_remap)).
    pub fn bind(&self, uniforms: &[[f32; 4]], var_remap: &[i16]) -> BoundPlan {
        self.bind_lod(uniforms, var_remap, false)
    }

    /// [`Plan::bind`] for a draw whose textures need a level of detail
    /// (`implicit_lod`: some bound sampler is mipmapped or minifies with another
    /// filter than it magnifies with): if the shader then samples with an implicit
    /// level of detail ([`Plan::uses_implicit_lod`]), its lanes run in 2×2 quads and
    /// those lookups take λ from each quad's coordinate gradients, as in
    /// [`QuadMachine`](crate::exec::QuadMachine) (docs/csir.md "Level of detail").
    /// `implicit_lod = false` is [`Plan::bind`].
    pub fn bind_lod(
        &self,
        uniforms: &[[f32; 4]],
        var_remap: &[i16],
        implicit_lod: bool,
    ) -> BoundPlan {
        let quads = self.needs_quads() || (implicit_lod && self.uses_implicit_lod());
        let ntmp = self.ntmp;
        let mut binder = StepBinder {
            plan: self,
            uniforms,
            var_remap,
            state: State {
                values: vec![[0.0; 4]; ntmp],
                known: vec![XYZW; ntmp],
                phys: vec![0; ntmp],
            },
            steps: Vec::new(),
            constants: Vec::new(),
            constant_regs: HashMap::new(),
            frames: Vec::new(),
            depth: 0,
            max_depth: 0,
            quads,
        };
        binder.walk();
        let mut steps = binder.steps;
        specialize_pow(&mut steps, &binder.constants);
        let outputs = self.outputs();
        tidy(&mut steps, ntmp as Reg, outputs as Reg);
        let (registers, color) = renumber(&mut steps, ntmp as Reg, outputs as Reg);
        let vertex = self.stage != crate::ir::Stage::Fragment;
        BoundPlan {
            quads,
            zero_color: !vertex && color_needs_zero(&steps, color),
            steps,
            registers,
            color,
            outputs,
            vertex,
            geometry: self.geometry,
            constants: binder.constants,
            depth: binder.max_depth,
        }
    }
}

/// What binding knows about the temporaries at one point of the program.
#[derive(Clone, Debug)]
struct State {
    /// Values of the known components (other components hold stale values).
    values: Vec<[f32; 4]>,
    /// Known components per temporary: the same value in every lane of the draw.
    known: Vec<Comps>,
    /// Components whose batch register holds the value (always true for components
    /// that are not known).
    phys: Vec<Comps>,
}

/// An open IF while binding.
enum Frame {
    /// Its condition is known: only one branch exists for this draw.
    Known { taken: bool },
    /// Its condition is per-pixel: it was emitted as step `at`.
    PerPixel {
        at: usize,
        else_at: Option<usize>,
        entry: State,
        written: Vec<Comps>,
    },
}

/// Turns a [`Plan`]'s instructions into the steps of one draw (see the module docs).
struct StepBinder<'p> {
    plan: &'p Plan,
    uniforms: &'p [[f32; 4]],
    var_remap: &'p [i16],
    state: State,
    steps: Vec<Step>,
    /// The constant table.
    constants: Vec<[f32; 4]>,
    /// Deduplication of single constant entries by bits.
    constant_regs: HashMap<[u32; 4], usize>,
    frames: Vec<Frame>,
    /// Open per-pixel IFs.
    depth: usize,
    max_depth: usize,
    /// Lanes run in 2×2 quads ([`BoundPlan::needs_quads`]): implicit-LOD lookups take
    /// their level of detail from the quad.
    quads: bool,
}

impl StepBinder<'_> {
    fn walk(&mut self) {
        let plan = self.plan;
        let instrs = &plan.instrs;
        let mut i = 0;
        while i < instrs.len() {
            let instr = &instrs[i];
            match instr.op {
                Op::If => {
                    let cond = instr.ir.a as usize;
                    if self.state.known[cond] & 1 != 0 {
                        let taken = self.state.values[cond][0] != 0.0;
                        self.frames.push(Frame::Known { taken });
                        if !taken {
                            // Continue in the ELSE branch, or after the ENDIF.
                            i = instr.next;
                            if instrs[i].op == Op::EndIf {
                                self.frames.pop();
                            }
                        }
                    } else {
                        self.open_per_pixel(i, instr);
                    }
                }
                Op::Else => match self.frames.last_mut().expect("verified IF nesting") {
                    Frame::Known { taken: true } => {
                        // The THEN branch ran: skip the ELSE branch and the ENDIF.
                        i = instr.next;
                        self.frames.pop();
                    }
                    Frame::Known { taken: false } => {}
                    Frame::PerPixel {
                        at, else_at, entry, ..
                    } => {
                        let here = self.steps.len();
                        set_next(&mut self.steps[*at], here);
                        *else_at = Some(here);
                        self.state = entry.clone();
                        self.steps.push(Step::Else { next: 0 });
                    }
                },
                Op::EndIf => match self.frames.pop().expect("verified IF nesting") {
                    Frame::Known { .. } => {}
                    Frame::PerPixel {
                        at,
                        else_at,
                        entry,
                        written,
                    } => {
                        let here = self.steps.len();
                        set_next(&mut self.steps[else_at.unwrap_or(at)], here);
                        self.steps.push(Step::EndIf);
                        self.state = entry;
                        for (t, &w) in written.iter().enumerate() {
                            self.state.known[t] &= !w;
                            self.state.phys[t] |= w;
                        }
                        self.depth -= 1;
                    }
                },
                Op::Discard => {
                    self.steps.push(Step::Discard);
                    if self.depth == 0 {
                        // Every fragment that reaches this point is discarded.
                        return;
                    }
                }
                _ => self.instruction(instr),
            }
            i += 1;
        }
    }

    /// An IF on a per-pixel condition: materialise what its branches write (lanes
    /// that skip a branch keep those values), then emit it.
    fn open_per_pixel(&mut self, i: usize, instr: &Instr) {
        let written = self.plan.written_between(i, instr.end);
        for (t, &w) in written.iter().enumerate() {
            self.materialize(t, w);
        }
        // A derivative inside reads its operand in lanes that skip the branch too:
        // they must hold the value every lane has here (see `derivative_operand`).
        for instr in &self.plan.instrs[i + 1..instr.end] {
            if instr.ir.info().is_some_and(|info| {
                info.effect == Effect::Derivative || (self.quads && info.implicit_lod)
            }) {
                let s = instr.reads[0].expect("a derivative reads a");
                for t in s.temps() {
                    self.materialize(t, s.comps);
                }
            }
        }
        let cond = self.operand(instr.reads[0].expect("IF reads its condition"));
        let at = self.steps.len();
        self.steps.push(Step::If { cond, next: 0 });
        self.frames.push(Frame::PerPixel {
            at,
            else_at: None,
            entry: self.state.clone(),
            written,
        });
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
    }

    /// Any instruction other than control flow and DISCARD.
    fn instruction(&mut self, instr: &Instr) {
        let ir = &instr.ir;
        let inputs_known = instr
            .reads
            .iter()
            .flatten()
            .all(|s| s.temps().all(|t| self.state.known[t] & s.comps == s.comps));
        match instr.op {
            Op::LoadUni => {
                let w = instr.writes.expect("LOAD_UNI writes");
                for (k, t) in w.temps().enumerate() {
                    let slot = ir.aux as usize + k;
                    self.state.values[t] = self.uniforms.get(slot).copied().unwrap_or([0.0; 4]);
                }
                self.define(w);
            }
            Op::LoadVar => {
                let slot = ir.aux as usize;
                let vertex_slot = match self.var_remap.get(slot) {
                    Some(&mapped) if mapped >= 0 => mapped as u32,
                    _ => slot as u32,
                };
                self.emit(instr, |_, d| Step::LoadVar {
                    d,
                    first: vertex_slot * 4,
                    comps: XYZW,
                });
            }
            Op::LoadFcoord => self.emit(instr, |_, d| Step::LoadFcoord { d }),
            Op::LoadFace => self.emit(instr, |_, d| Step::LoadFace { d }),
            Op::Tex => {
                let lookup = crate::sampler_type::TexLookup::decode(ir.aux2)
                    .expect("the verifier checks TEX's aux2");
                let reads = [instr.reads[0], instr.reads[1]].map(|r| r.expect("TEX reads a and b"));
                let a = if self.quads {
                    self.derivative_operand(reads[0])
                } else {
                    self.operand(reads[0])
                };
                let b = self.operand(reads[1]);
                // A span's temporaries (constant or not) sit in consecutive registers.
                let c = if reads[1].count == 2 { b + 1 } else { b };
                let w = instr.writes.expect("a lookup writes");
                self.steps.push(Step::Tex {
                    d: Reg::from(w.first),
                    a,
                    b,
                    c,
                    slot: ir.aux as u8,
                    lookup,
                    quads: self.quads,
                });
                self.clobber(w);
            }
            Op::Sample | Op::SampleOffset | Op::SampleBias if self.quads => {
                let a = self.derivative_operand(instr.reads[0].expect("a lookup reads a"));
                let bias = instr.op == Op::SampleBias;
                let b = match instr.reads[1] {
                    Some(s) if bias => self.operand(s),
                    _ => a,
                };
                let w = instr.writes.expect("a lookup writes");
                let offset = match instr.op {
                    Op::Sample => [0, 0],
                    _ => ir.texel_offset().map(|o| o as i8),
                };
                self.steps.push(Step::SampleLod {
                    d: Reg::from(w.first),
                    a,
                    b,
                    slot: ir.aux as u8,
                    offset,
                    mode: LodMode::Quad { bias },
                });
                self.clobber(w);
            }
            Op::Sample => self.emit(instr, |o, d| Step::Sample {
                d,
                a: o[0],
                slot: ir.aux as u8,
                offset: None,
            }),
            Op::SampleOffset => self.emit(instr, |o, d| Step::Sample {
                d,
                a: o[0],
                slot: ir.aux as u8,
                offset: Some(ir.texel_offset().map(|o| o as i8)),
            }),
            Op::SampleLod | Op::SampleBias | Op::SampleGrad => {
                self.emit(instr, |o, d| Step::SampleLod {
                    d,
                    a: o[0],
                    b: o[1],
                    slot: ir.aux as u8,
                    offset: ir.texel_offset().map(|o| o as i8),
                    mode: match instr.op {
                        Op::SampleGrad => LodMode::Grad,
                        _ => LodMode::Explicit,
                    },
                })
            }
            Op::TexSize => self.emit(instr, |o, d| Step::TexSize {
                d,
                a: o[0],
                slot: ir.aux as u8,
            }),
            Op::TexFetch => self.emit(instr, |o, d| Step::TexFetch {
                d,
                a: o[0],
                b: o[1],
                slot: ir.aux as u8,
            }),
            Op::Ddx | Op::Ddy => {
                let a = self.derivative_operand(instr.reads[0].expect("a derivative reads a"));
                let d = Reg::from(instr.writes.expect("a derivative writes").first);
                let n = ir.ncomp_lanes(4);
                self.steps.push(Step::Derivative {
                    d,
                    a,
                    n,
                    op: instr.op,
                });
                self.clobber(instr.writes.expect("a derivative writes"));
            }
            // Another draw buffer's output: the colour register holds location 0's
            // (docs/csir.md "Interface stores"; the renderer selects a target's
            // output into location 0 per pass).
            // The second source colour of dual-source blending: the register after
            // the colour (`BoundPlan::run_dual`).
            Op::StoreColor if ir.aux == SECOND_SOURCE_AUX => {
                let a = self.operand(instr.reads[0].expect("STORE_COLOR reads"));
                let d = self.color() + 1;
                self.steps.push(Step::Mov { d, a, n: 4 });
            }
            Op::StoreColor if ir.aux != 0 => {}
            Op::StoreColor => {
                let a = self.operand(instr.reads[0].expect("STORE_COLOR reads"));
                let d = self.color();
                self.steps.push(Step::Mov { d, a, n: 4 });
            }
            // A vertex plan's attributes come in as the lane arrays of
            // `FragmentLanes::varyings` (component `c` of location `l` at `4·l + c`).
            Op::LoadAttr => {
                let first = ir.aux as u32 * 4;
                self.emit(instr, |_, d| Step::LoadVar {
                    d,
                    first,
                    comps: XYZW,
                });
            }
            // A geometry plan's input vertices and primitive id come in as lane arrays
            // too (`GeometryShape::input_lane`).
            Op::LoadVtx | Op::LoadPrimId => {
                let shape = self.plan.geometry.expect("a geometry shader's plan");
                let first = shape.input_lane(instr.op, ir.aux, ir.aux2) as u32;
                let comps = instr.writes.expect("loads write").comps;
                self.emit(instr, |_, d| Step::LoadVar { d, first, comps });
            }
            Op::Emit => {
                let count = self.plan.outputs() as u8;
                self.steps.push(Step::Emit {
                    first: self.color(),
                    count,
                });
            }
            Op::EndPrim => self.steps.push(Step::EndPrim),
            Op::StorePos | Op::StoreVar => {
                let a = self.operand(instr.reads[0].expect("a store reads"));
                let d = match instr.op {
                    Op::StorePos => self.color(),
                    _ => self.color() + 1 + ir.aux as Reg,
                };
                self.steps.push(Step::Mov { d, a, n: 4 });
            }
            _ if inputs_known => self.evaluate(instr),
            _ => {
                let profile = self.plan.profile;
                self.emit(instr, |o, d| alu::batch_step(ir, d, o[0], o[1], profile))
            }
        }
    }

    /// A temp-to-temp instruction whose inputs are all known: compute it now with the
    /// scalar interpreter's code.
    fn evaluate(&mut self, instr: &Instr) {
        let w = instr.writes.expect("temp-to-temp instructions write");
        alu::execute(
            instr.op,
            &instr.ir,
            &mut self.state.values,
            &self.plan.imm,
            self.plan.profile,
        )
        .expect("verified instruction");
        self.define(w);
    }

    /// Emit the step `make(operands, destination)` for `instr`.
    fn emit(&mut self, instr: &Instr, make: impl FnOnce([Reg; 2], Reg) -> Step) {
        let mut o = [0; 2];
        for (reg, read) in o.iter_mut().zip(instr.reads) {
            if let Some(s) = read {
                *reg = self.operand(s);
            }
        }
        let w = instr
            .writes
            .expect("emitted instructions write a temporary");
        self.steps.push(make(o, Reg::from(w.first)));
        self.clobber(w);
    }

    /// The register a step reads for `span`: constant registers when every component
    /// read is known, else the temporaries (materialising their known components).
    fn operand(&mut self, s: Span) -> Reg {
        let st = &self.state;
        if s.temps().all(|t| st.known[t] & s.comps == s.comps) {
            let values: Vec<[f32; 4]> = s.temps().map(|t| masked(st.values[t], s.comps)).collect();
            return self.constant(&values);
        }
        for t in s.temps() {
            self.materialize(t, s.comps);
        }
        Reg::from(s.first)
    }

    /// The register a derivative (DDX, DDY) reads for `span`. It reads the operand in
    /// all four lanes of each quad, also in lanes that do not run the current branch:
    /// outside every per-pixel IF every lane holds a known value, so the constant
    /// table serves; inside one, the batch register, which `open_per_pixel`
    /// materialised for every lane before the outermost IF opened.
    fn derivative_operand(&mut self, s: Span) -> Reg {
        if self.depth == 0 {
            return self.operand(s);
        }
        for t in s.temps() {
            self.materialize(t, s.comps);
        }
        Reg::from(s.first)
    }

    /// Copy the known components of `comps` that temporary `t`'s register lacks from a
    /// constant register.
    fn materialize(&mut self, t: usize, comps: Comps) {
        let missing = comps & self.state.known[t] & !self.state.phys[t];
        if missing == 0 {
            return;
        }
        let a = self.constant(&[masked(self.state.values[t], missing)]);
        let d = t as Reg;
        let prefix = (1..=4).find(|&n| first_lanes(n) == missing);
        match prefix {
            Some(n) => self.steps.push(Step::Mov { d, a, n }),
            None => {
                for c in (0..4).filter(|c| missing & (1 << c) != 0) {
                    self.steps.push(Step::SetLane { d, a, dl: c, sl: c });
                }
            }
        }
        self.state.phys[t] |= missing;
    }

    /// Consecutive constant table entries holding `values`; returns the first. Single
    /// entries are shared between equal values.
    fn constant(&mut self, values: &[[f32; 4]]) -> Reg {
        let base = CONSTANT;
        if let [v] = values {
            let key = v.map(f32::to_bits);
            let next = self.constants.len();
            let k = *self.constant_regs.entry(key).or_insert(next);
            if k == next {
                self.constants.push(*v);
            }
            return base + k as Reg;
        }
        let k = self.constants.len();
        self.constants.extend_from_slice(values);
        base + k as Reg
    }

    fn color(&self) -> Reg {
        self.plan.ntmp as Reg
    }

    /// `w`'s components now hold known values (in `state.values`). Inside a per-pixel
    /// IF they are also copied into the batch registers, under the branch's lane mask:
    /// after the ENDIF they differ between lanes that took the branch and lanes that
    /// did not.
    fn define(&mut self, w: Span) {
        for t in w.temps() {
            self.state.known[t] |= w.comps;
            self.state.phys[t] &= !w.comps;
            if self.depth > 0 {
                self.materialize(t, w.comps);
            }
        }
    }

    /// `w`'s components were written per pixel.
    fn clobber(&mut self, w: Span) {
        for t in w.temps() {
            self.state.known[t] &= !w.comps;
            self.state.phys[t] |= w.comps;
        }
    }
}

/// `v` with the components outside `comps` zeroed (so equal constants share an entry).
fn masked(v: [f32; 4], comps: Comps) -> [f32; 4] {
    std::array::from_fn(|c| if comps & (1 << c) != 0 { v[c] } else { 0.0 })
}

/// Whether the colour register's initial zeros can be seen: true unless straight-line
/// steps outside every per-pixel IF write all four components before anything reads
/// a component not yet written and before any DISCARD (a discarded lane keeps the
/// colour stored before it).
fn color_needs_zero(steps: &[Step], color: Reg) -> bool {
    let reg = Access {
        first: color,
        count: 1,
        comps: XYZW,
    };
    let touches =
        |a: Access| a.first <= color && color < a.first + a.count as Reg && a.first & CONSTANT == 0;
    let mut written: Comps = 0;
    let mut depth = 0usize;
    for step in steps {
        match step {
            Step::If { .. } => depth += 1,
            Step::EndIf => depth -= 1,
            Step::Else { .. } => {}
            Step::Discard => return true,
            _ => {
                let mut early_read = false;
                step.reads(|a| early_read |= touches(a) && a.comps & !written != 0);
                if early_read {
                    return true;
                }
                if depth == 0
                    && let Some(w) = step.writes()
                    && touches(w)
                {
                    written |= w.comps & reg.comps;
                }
            }
        }
        if written == XYZW {
            return false;
        }
    }
    true
}

/// POW steps whose exponent is a constant small integer become [`Step::PowInt`]
/// (exact squaring without per-lane selects; the same bits, see `math::pow`).
fn specialize_pow(steps: &mut [Step], constants: &[[f32; 4]]) {
    for step in steps {
        if let Step::Pow { d, a, b } = *step
            && b & CONSTANT != 0
        {
            let y = constants[(b & !CONSTANT) as usize][0];
            if y.trunc() == y && y.abs() <= math::POWI_MAX as f32 {
                *step = Step::PowInt { d, a, n: y as i16 };
            }
        }
    }
}

/// Point an IF or ELSE step at `next`.
fn set_next(step: &mut Step, target: usize) {
    match step {
        Step::If { next, .. } | Step::Else { next } => *next = target as u32,
        _ => unreachable!("only IF and ELSE jump"),
    }
}

/// Number the batch registers the steps use densely, in order of first use, the
/// `outputs` output registers from `color` on first (in order); returns the register
/// count and the first output's new number. Shaders with MULMV/MULMM keep their
/// numbering: those steps name spans of consecutive registers.
fn renumber(steps: &mut [Step], color: Reg, outputs: Reg) -> (usize, Reg) {
    let spans = steps
        .iter()
        .any(|s| matches!(s, Step::MulMv { .. } | Step::MulMm { .. }));
    if spans {
        return ((color + outputs) as usize, color);
    }
    let mut new: HashMap<Reg, Reg> = (0..outputs).map(|k| (color + k, k)).collect();
    for step in steps.iter_mut() {
        step.rename(|r| {
            if r & CONSTANT != 0 {
                return r;
            }
            let next = new.len() as Reg;
            *new.entry(r).or_insert(next)
        });
    }
    (new.len(), 0)
}
