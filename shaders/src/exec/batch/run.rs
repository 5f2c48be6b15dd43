//! Execution: a [`BoundPlan`]'s steps over one batch of fragments.
//!
//! The batch's lanes are cut into chunks of `W` groups of 8 lanes (`W` = 1, 2, 4 or 8,
//! the smallest that holds the batch, at most 8 = 64 lanes); every step runs over a
//! whole chunk, as one [`Pack<W>`], before the next step starts, so one dispatch does
//! the work of up to 64 pixels. Groups of a chunk past the batch's last lane compute
//! values nobody reads; they are kept out of SAMPLE, of branch decisions and of the
//! outputs.
//!
//! Per chunk there is a mask of running lanes: writes go through `select` when some
//! lane is masked off, an IF pushes the mask and narrows it, ELSE and ENDIF derive the
//! next mask from the pushed one, and DISCARD moves lanes into the discarded mask. A
//! branch no lane runs is jumped over.
//!
//! Per-opcode rules are the scalar interpreter's (docs/csir-original.md B §4, `exec::alu`):
//! arithmetic through the shared [`math`](crate::exec::math) functions, DOT and matrix
//! products summed in the same order (MULMV/MULMM through `alu`'s own `mat_vec`), SWZ
//! zeroing components from `n` on, comparisons giving 1.0/0.0.

use super::mask::{Mask, low_bits};
use super::pack::{Pack, each};
use super::pairs::{Cos, PowInt, Sin, in_pairs};
use super::regs::GROUPS;
use super::step::{CONSTANT, LodMode, Reg, Step};
use super::{BoundPlan, LANE_GROUP, LaneArray, MAX_LANES, Registers};
use crate::exec::Samplers;
use crate::exec::alu::mat_vec;
use crate::exec::math::{self, Lane, MinMax};
use crate::exec::quad::{difference, lod_gradients, pair, sample_in_quad};
use crate::ir::{CmpCode, Op};
use std::cell::Cell;
use wide::f32x8;

mod geometry;
pub use geometry::GeometryLanes;
pub(super) use geometry::GeometryShape;

/// One batch of up to [`MAX_LANES`] fragments of one draw, as lane arrays.
#[derive(Clone, Copy)]
pub struct FragmentLanes<'a> {
    /// Fragments in the batch, `0..=MAX_LANES`. Lanes from `len` up to the next
    /// multiple of 8 are computed too (their inputs may hold anything; raster pads them
    /// with copies of the last fragment) and their results are unspecified. When the
    /// plan [needs quads](BoundPlan::needs_quads), lanes `4q .. 4q + 4` are one 2×2
    /// quad in [`QUAD_LANES`](crate::exec::QUAD_LANES) order, and the lanes of the last
    /// quad past `len` run like real ones (their results are not reported).
    pub len: usize,
    /// `gl_FragCoord` as four lane arrays (x, y, z, w) (LOAD_FCOORD).
    pub frag_coord: &'a [LaneArray; 4],
    /// `gl_FrontFacing` of the batch's primitive (LOAD_FACE): every fragment of a batch
    /// comes from one triangle.
    pub front_facing: bool,
    /// Interpolated varyings as lane arrays, component `c` of **vertex** slot `s` at
    /// index `4·s + c` (LOAD_VAR, after the remap given to [`Plan::bind`](super::Plan::bind)).
    /// Missing arrays read 0.
    pub varyings: &'a [LaneArray],
    /// Textures by sampler slot (SAMPLE, TEXSIZE, TEXFETCH).
    pub samplers: &'a dyn Samplers,
}

impl BoundPlan {
    /// Shade one batch: for every lane `i < lanes.len`, `color[c][i]` gets component `c`
    /// of the colour the shader stored (0 if it stored none; for a discarded lane,
    /// what it stored before the DISCARD), exactly as
    /// [`Machine::run`](crate::exec::Machine::run) would for that lane. Returns the
    /// discarded lanes as bits (bit `i` = lane `i`). Lanes from `lanes.len` up to the
    /// next multiple of 8 of `color` are overwritten with unspecified values.
    ///
    /// `regs` may come from any draw's [`BoundPlan::registers`].
    ///
    /// # Panics
    /// If `lanes.len > MAX_LANES`.
    pub fn run(
        &self,
        regs: &mut Registers,
        lanes: &FragmentLanes<'_>,
        color: &mut [LaneArray; 4],
    ) -> u64 {
        // The smallest chunk that holds the batch: one dispatch per step, little waste.
        match lanes.len.div_ceil(LANE_GROUP) {
            0 | 1 => self.run_width::<1>(regs, lanes, color),
            2 => self.run_width::<2>(regs, lanes, color),
            3 | 4 => self.run_width::<4>(regs, lanes, color),
            _ => self.run_width::<8>(regs, lanes, color),
        }
    }

    /// [`BoundPlan::run`] that also gives the second source colour of dual-source
    /// blending (the output of `layout(location = 0, index = 1)`, GL 3.3 §4.1.8):
    /// `color1[c][i]` gets component `c` of what lane `i` stored there, (0, 0, 0, 0)
    /// if it stored none ([`Outputs::color1`](crate::exec::Outputs::color1)), as
    /// [`Machine::run`](crate::exec::Machine::run) would. A plan whose shader has no
    /// such output writes zeros into `color1`.
    ///
    /// # Panics
    /// If `lanes.len > MAX_LANES`.
    pub fn run_dual(
        &self,
        regs: &mut Registers,
        lanes: &FragmentLanes<'_>,
        color: &mut [LaneArray; 4],
        color1: &mut [LaneArray; 4],
    ) -> u64 {
        let out = Some(color1);
        match lanes.len.div_ceil(LANE_GROUP) {
            0 | 1 => self.run_outputs::<1>(regs, lanes, color, out),
            2 => self.run_outputs::<2>(regs, lanes, color, out),
            3 | 4 => self.run_outputs::<4>(regs, lanes, color, out),
            _ => self.run_outputs::<8>(regs, lanes, color, out),
        }
    }

    /// Whether the shader stores a second source colour ([`BoundPlan::run_dual`]).
    pub fn has_second_color(&self) -> bool {
        !self.vertex && self.outputs > 1
    }

    /// [`BoundPlan::run`] in chunks of `W` groups of 8 lanes (for tests and for measuring
    /// the width).
    #[doc(hidden)]
    pub fn run_width<const W: usize>(
        &self,
        regs: &mut Registers,
        lanes: &FragmentLanes<'_>,
        color: &mut [LaneArray; 4],
    ) -> u64 {
        self.run_outputs::<W>(regs, lanes, color, None)
    }

    /// [`BoundPlan::run_width`], with the second source colour into `color1` when
    /// given.
    fn run_outputs<const W: usize>(
        &self,
        regs: &mut Registers,
        lanes: &FragmentLanes<'_>,
        color: &mut [LaneArray; 4],
        mut color1: Option<&mut [LaneArray; 4]>,
    ) -> u64 {
        let second = self.has_second_color();
        if let (false, Some(c)) = (second, color1.as_deref_mut()) {
            *c = [[0.0; MAX_LANES]; 4];
        }
        const { assert!(W >= 1 && W * LANE_GROUP <= MAX_LANES) };
        assert!(lanes.len <= MAX_LANES, "a batch has at most 64 lanes");
        regs.prepare(self);
        let Registers {
            cells, masks, ends, ..
        } = regs;
        let cells = Cell::from_mut(&mut cells[..]).as_slice_of_cells();
        let groups = lanes.len.div_ceil(LANE_GROUP);
        // With quads, the last quad's lanes past `len` run like real ones: their
        // neighbours' derivatives read them.
        let shaded = if self.quads {
            lanes.len.next_multiple_of(4)
        } else {
            lanes.len
        };
        let mut discarded = 0;
        for first in (0..groups).step_by(W) {
            let mut chunk =
                Chunk::<W>::new(cells, &self.constants, lanes, first, shaded, self.quads);
            let lane0 = chunk.lane0;
            if self.zero_color {
                chunk.zero(self.color);
            }
            if second {
                chunk.zero(self.color + 1);
            }
            chunk.run(&self.steps, masks, ends);
            chunk.store_color(self.color, color);
            if let (true, Some(c)) = (second, color1.as_deref_mut()) {
                chunk.store_color(self.color + 1, c);
            }
            let gone = chunk.discarded.or(chunk.demoted);
            discarded |= (gone.bits() & low_bits(lanes.len - lane0)) << lane0;
        }
        discarded
    }
}

/// `gl_FragCoord` of a vertex batch: a vertex shader cannot read it (the verifier
/// keeps LOAD_FCOORD out of vertex shaders).
static NO_FRAG_COORD: [LaneArray; 4] = [[0.0; MAX_LANES]; 4];

impl BoundPlan {
    /// Shade a batch of up to [`MAX_LANES`] vertices with a vertex shader's plan
    /// ([`Plan::new_vertex`](super::Plan::new_vertex)): lane `i < len` has the
    /// attributes `attributes[4·l + c][i]` (component `c` of location `l`, every
    /// location below the shader's `limits.attributes` that it reads; a missing array
    /// reads 0, so the caller passes (0, 0, 0, 1) for an attribute the draw does not
    /// supply, as [`Inputs::attribute`](crate::exec::Inputs::attribute) gives).
    ///
    /// `out[4·k + c][i]` gets, for every lane `i < len`, component `c` of output `k`:
    /// `k = 0` is `gl_Position` (STORE_POS; (0, 0, 0, 1) if never stored), `k = 1 + s`
    /// vertex slot `s` (STORE_VAR; zeros if never stored), for `k <`
    /// [`BoundPlan::vertex_outputs`] — the same bits as
    /// [`Machine::run`](crate::exec::Machine::run)'s `Outputs` for that vertex. Lanes
    /// from `len` up to the next multiple of 8 are overwritten with unspecified values;
    /// arrays past `out.len()` are not written.
    ///
    /// # Panics
    /// If `len > MAX_LANES` or the plan is a fragment shader's.
    pub fn run_vertices(
        &self,
        regs: &mut Registers,
        len: usize,
        attributes: &[LaneArray],
        samplers: &dyn Samplers,
        out: &mut [LaneArray],
    ) {
        assert!(self.vertex, "run_vertices needs a vertex shader's plan");
        let lanes = FragmentLanes {
            len,
            frag_coord: &NO_FRAG_COORD,
            front_facing: false,
            varyings: attributes,
            samplers,
        };
        match len.div_ceil(LANE_GROUP) {
            0 | 1 => self.run_vertex_width::<1>(regs, &lanes, out),
            2 => self.run_vertex_width::<2>(regs, &lanes, out),
            3 | 4 => self.run_vertex_width::<4>(regs, &lanes, out),
            _ => self.run_vertex_width::<8>(regs, &lanes, out),
        }
    }

    /// Outputs [`BoundPlan::run_vertices`] writes (in groups of 4 lane arrays): 1 for
    /// the position plus one per vertex slot up to the highest the shader stores; 1 for
    /// a fragment shader's plan.
    pub fn vertex_outputs(&self) -> usize {
        self.outputs
    }

    fn run_vertex_width<const W: usize>(
        &self,
        regs: &mut Registers,
        lanes: &FragmentLanes<'_>,
        out: &mut [LaneArray],
    ) {
        const { assert!(W >= 1 && W * LANE_GROUP <= MAX_LANES) };
        assert!(lanes.len <= MAX_LANES, "a batch has at most 64 lanes");
        regs.prepare(self);
        let Registers {
            cells, masks, ends, ..
        } = regs;
        let cells = Cell::from_mut(&mut cells[..]).as_slice_of_cells();
        let groups = lanes.len.div_ceil(LANE_GROUP);
        for first in (0..groups).step_by(W) {
            let mut chunk = Chunk::<W>::new(cells, &self.constants, lanes, first, lanes.len, false);
            // Every invocation starts from Outputs::INITIAL.
            for k in 0..self.outputs {
                let reg = self.color + k as Reg;
                chunk.zero(reg);
                if k == 0 {
                    chunk.comp(reg, 3).iter().for_each(|v| v.set(f32x8::ONE));
                }
            }
            chunk.run(&self.steps, masks, ends);
            for (k, out) in out.chunks_mut(4).take(self.outputs).enumerate() {
                chunk.store_output(self.color + k as Reg, out);
            }
        }
    }
}

/// `f` applied to each group of `x` on its own (a whole `f32x8` chain at a time).
#[inline(always)]
fn per_group<const W: usize>(x: Pack<W>, f: impl Fn(f32x8) -> f32x8) -> Pack<W> {
    Pack(each(|g| f(x.0[g])))
}

/// The lanes of one chunk and their masks while the steps run.
struct Chunk<'a, const W: usize> {
    cells: &'a [Cell<f32x8>],
    /// The draw's constant table.
    constants: &'a [[f32; 4]],
    /// Lanes running the current step.
    active: Mask<W>,
    /// Lanes that executed a DISCARD (and stopped).
    discarded: Mask<W>,
    /// Quads: lanes that executed a DISCARD and keep running for their neighbours'
    /// derivatives.
    demoted: Mask<W>,
    /// The plan takes derivatives ([`BoundPlan::needs_quads`]).
    quads: bool,
    /// `active` has every lane: writes need no select.
    full: bool,
    /// Lanes of the batch's groups (the rest of the chunk is never read), as bits.
    valid: u64,
    /// Lanes below `FragmentLanes::len` (with quads, below the end of the last quad),
    /// as bits: the lanes that sample textures.
    real: u64,
    /// Batch lane of the chunk's first lane.
    lane0: usize,
    lanes: &'a FragmentLanes<'a>,
    /// A geometry batch's emitted vertices (EMIT, ENDPRIM).
    sink: Option<&'a geometry::Sink<'a>>,
}

impl<'a, const W: usize> Chunk<'a, W> {
    /// The chunk of `W` groups from group `first` of the batch `lanes`, every lane
    /// running and none discarded: its `valid` lanes are those of the batch's groups,
    /// its `real` ones those below batch lane `real_len` (the batch's length, or with
    /// quads the end of its last quad).
    #[inline(always)]
    fn new(
        cells: &'a [Cell<f32x8>],
        constants: &'a [[f32; 4]],
        lanes: &'a FragmentLanes<'a>,
        first: usize,
        real_len: usize,
        quads: bool,
    ) -> Self {
        let groups = lanes.len.div_ceil(LANE_GROUP);
        let lane0 = first * LANE_GROUP;
        Self {
            cells,
            constants,
            active: Mask::all(),
            discarded: Mask::NONE,
            demoted: Mask::NONE,
            quads,
            full: true,
            valid: low_bits((groups - first).min(W) * LANE_GROUP),
            real: low_bits(real_len - lane0),
            lane0,
            lanes,
            sink: None,
        }
    }
}

impl<const W: usize> Chunk<'_, W> {
    /// Component `c` of register `r`, all groups.
    #[inline(always)]
    fn comp(&self, r: Reg, c: usize) -> &[Cell<f32x8>; W] {
        let at = (r as usize * 4 + c) * GROUPS;
        self.cells[at..at + W].try_into().expect("W groups")
    }

    /// Component `c` of register or constant `r`.
    #[inline(always)]
    fn load(&self, r: Reg, c: usize) -> Pack<W> {
        if r & CONSTANT != 0 {
            return Pack([f32x8::splat(self.constants[(r & !CONSTANT) as usize][c]); W]);
        }
        let cells = self.comp(r, c);
        Pack(each(|g| cells[g].get()))
    }

    /// Components `0..4` of register `r`.
    #[inline(always)]
    fn load4(&self, r: Reg) -> [Pack<W>; 4] {
        each(|c| self.load(r, c))
    }

    /// Component `c` of register `r` ← `v`, in the running lanes only.
    #[inline(always)]
    fn store(&self, r: Reg, c: usize, v: Pack<W>) {
        let dst = self.comp(r, c);
        if self.full {
            for (t, v) in dst.iter().zip(v.0) {
                t.set(v);
            }
        } else {
            for ((t, v), m) in dst.iter().zip(v.0).zip(self.active.0) {
                t.set(m.select(v, t.get()));
            }
        }
    }

    /// `d[c] ← f(a[c])` for `c < n`.
    #[inline(always)]
    fn unary(&self, d: Reg, a: Reg, n: u8, f: impl Fn(Pack<W>) -> Pack<W>) {
        for c in 0..n as usize {
            self.store(d, c, f(self.load(a, c)));
        }
    }

    /// `d[c] ← f(a[c], b[c])` for `c < n`.
    #[inline(always)]
    fn binary(&self, d: Reg, a: Reg, b: Reg, n: u8, f: impl Fn(Pack<W>, Pack<W>) -> Pack<W>) {
        for c in 0..n as usize {
            self.store(d, c, f(self.load(a, c), self.load(b, c)));
        }
    }

    /// The extended profile's integer instruction `op` (and LG2, EX2): a function of
    /// each lane's bits, called per lane. Out of line: inlined into the step loop,
    /// its 8 × W calls per component changed how the loop was compiled and slowed
    /// the plain float steps (`benches/README.md`, "The extended profile").
    /// SAMPLE_OFFSET: `d ← textureOffset(slot, a.xy, offset)`, one
    /// [`Samplers::sample_offset`] call per lane. Out of line, like the integer steps,
    /// so that the step loop keeps the code size it had before texel offsets (a second
    /// inlined per-lane sampling loop made textured frames about 5% slower).
    #[inline(never)]
    fn sample_offset(&self, d: Reg, a: Reg, slot: usize, offset: [i8; 2]) {
        let samplers = self.lanes.samplers;
        let o = offset.map(i32::from);
        self.texel_per_lane(d, a, a, |[s, t], _| samplers.sample_offset(slot, s, t, o));
    }

    /// SAMPLE: `d ← texture(slot, a.xy)`, one [`Samplers::sample_groups`] call for
    /// the chunk's groups (the implementation may sample a group's lanes together and
    /// look the slot up once; the default calls `sample_group` per group with a
    /// running lane).
    #[inline(always)]
    fn sample(&self, d: Reg, a: Reg, slot: usize) {
        let lanes = self.active.bits() & self.real;
        // Read the coordinates first: `d` may be `a`.
        let (s, t) = (self.load(a, 0), self.load(a, 1));
        let dst: [&[Cell<f32x8>]; 4] = std::array::from_fn(|c| &self.comp(d, c)[..]);
        self.lanes
            .samplers
            .sample_groups(slot, &s.0, &t.0, lanes, dst);
    }

    /// SAMPLE_LOD, SAMPLE_BIAS and SAMPLE_GRAD: one [`Samplers::sample_lod`] (λ in
    /// `b.x`) or [`Samplers::sample_grad`] (gradients in `b`) call per lane. Out of
    /// line, as [`sample_offset`](Self::sample_offset).
    #[inline(never)]
    fn sample_lod(&self, d: Reg, a: Reg, b: Reg, slot: usize, offset: [i8; 2], mode: LodMode) {
        let samplers = self.lanes.samplers;
        let o = offset.map(i32::from);
        match mode {
            LodMode::Explicit => self.texel_per_lane(d, a, b, |[s, t], [lod, ..]| {
                samplers.sample_lod(slot, s, t, lod, o)
            }),
            LodMode::Grad => self.texel_per_lane(d, a, b, |[s, t], gradients| {
                samplers.sample_grad(slot, s, t, gradients, o)
            }),
            LodMode::Quad { bias } => self.sample_in_quads(d, a, b, slot, o, bias),
        }
    }

    /// An implicit-LOD lookup in 2×2 quads ([`LodMode::Quad`]): each quad's coarse
    /// gradients from the coordinates of all four of its lanes, running or not
    /// (`exec::quad::lod_gradients`), then one [`Samplers::sample_lod`] call per
    /// running lane through `exec::quad::sample_in_quad`, as `QuadMachine` does.
    fn sample_in_quads(&self, d: Reg, a: Reg, b: Reg, slot: usize, o: [i32; 2], bias: bool) {
        let samplers = self.lanes.samplers;
        self.texels_by_group::<1>(d, a, b, |group, [s, t], [b], texels| {
            for q in (0..LANE_GROUP).step_by(4) {
                let quad = |v: &[f32; LANE_GROUP]| [v[q], v[q + 1], v[q + 2], v[q + 3]];
                let gradients = lod_gradients(quad(s), quad(t));
                for i in (q..q + 4).filter(|i| group >> i & 1 != 0) {
                    let b = if bias { b[i] } else { 0.0 };
                    let texel = sample_in_quad(samplers, slot, [s[i], t[i]], gradients, b, o);
                    for (c, v) in texels.iter_mut().zip(texel) {
                        c[i] = v;
                    }
                }
            }
        });
    }

    /// TEX: [`tex_lane`](crate::exec::tex_lane) per running lane, with its quad's
    /// four values of `a` (running or not) when the lanes run in quads, as
    /// `QuadMachine` gives them. Out of line, as [`sample_offset`](Self::sample_offset).
    #[inline(never)]
    fn tex(
        &self,
        d: Reg,
        [a, b, c]: [Reg; 3],
        slot: usize,
        lookup: crate::sampler_type::TexLookup,
        quads: bool,
    ) {
        let samplers = self.lanes.samplers;
        let lanes = self.active.bits() & self.real;
        let av: [Pack<W>; 4] = std::array::from_fn(|c| self.load(a, c));
        let bv: [Pack<W>; 4] = std::array::from_fn(|k| self.load(b, k));
        let cv: [Pack<W>; 4] = std::array::from_fn(|k| self.load(c, k));
        let dst: [&[Cell<f32x8>; W]; 4] = std::array::from_fn(|c| self.comp(d, c));
        for g in 0..W {
            let group = (lanes >> (g * LANE_GROUP) & 0xff) as u8;
            if group == 0 {
                continue;
            }
            let ag = av.map(|p| p.0[g].to_array());
            let bg = bv.map(|p| p.0[g].to_array());
            let cg = cv.map(|p| p.0[g].to_array());
            let mut texels: [[f32; LANE_GROUP]; 4] =
                std::array::from_fn(|c| dst[c][g].get().to_array());
            for i in (0..LANE_GROUP).filter(|i| group >> i & 1 != 0) {
                let lane = |k: usize| ag.map(|c| c[k]);
                let q = i & !3;
                let quad = [lane(q), lane(q + 1), lane(q + 2), lane(q + 3)];
                let texel = crate::exec::tex_lane(
                    samplers,
                    slot,
                    lookup,
                    lane(i),
                    [bg.map(|c| c[i]), cg.map(|c| c[i])],
                    quads.then_some(&quad),
                );
                for (c, v) in texels.iter_mut().zip(texel) {
                    c[i] = v;
                }
            }
            for (c, v) in dst.iter().zip(texels) {
                c[g].set(f32x8::new(v));
            }
        }
    }

    /// DDX, DDY: lane `4q + k` gets `a[4q + hi] − a[4q + lo]` with `(hi, lo)` the
    /// quad pair of `k` (`exec::quad`), from every lane's register whether it runs
    /// or not. Out of line, like the integer steps: one shuffle per group.
    #[inline(never)]
    fn derivative(&self, d: Reg, a: Reg, n: u8, op: Op) {
        let pairs: [(usize, usize); LANE_GROUP] = std::array::from_fn(|i| {
            let (hi, lo) = pair(op, i & 3);
            ((i & !3) + hi, (i & !3) + lo)
        });
        self.unary(d, a, n, |x| {
            per_group(x, |v| {
                let v = v.to_array();
                f32x8::new(pairs.map(|(hi, lo)| difference(v[hi], v[lo])))
            })
        });
    }

    #[inline(never)]
    fn int_binary(&self, d: Reg, a: Reg, b: Reg, n: u8, op: Op) {
        let f = math::int::binary(op).expect("an integer binary opcode");
        self.binary(d, a, b, n, |x, y| x.zip_bits(y, f));
    }

    /// [`Chunk::int_binary`] for one operand.
    #[inline(never)]
    fn int_unary(&self, d: Reg, a: Reg, n: u8, op: Op) {
        let f = math::int::unary(op).expect("an integer unary opcode");
        self.unary(d, a, n, |x| x.map_bits(f));
    }

    /// MULADD: `d[c] ← add(a[c]·b[c or sb], e[c])` for `c < n`; a broadcast `b[sb]`
    /// is read before any write (`d` may be `b`).
    #[inline(always)]
    fn mul_add(
        &self,
        d: Reg,
        a: Reg,
        (b, sb): (Reg, Option<u8>),
        e: Reg,
        n: u8,
        add: impl Fn(Pack<W>, Pack<W>) -> Pack<W>,
    ) {
        match sb {
            Some(sb) => {
                let s = self.load(b, sb as usize);
                for c in 0..n as usize {
                    self.store(d, c, add(self.load(a, c) * s, self.load(e, c)));
                }
            }
            None => {
                for c in 0..n as usize {
                    let t = self.load(a, c) * self.load(b, c);
                    self.store(d, c, add(t, self.load(e, c)));
                }
            }
        }
    }

    fn run(&mut self, steps: &[Step], masks: &mut Vec<f32x8>, ends: &mut Vec<u32>) {
        let mut pc = 0;
        while let Some(&step) = steps.get(pc) {
            pc += 1;
            match step {
                Step::Mov { d, a, n } => self.unary(d, a, n, |x| x),
                Step::Add { d, a, b, n } => self.binary(d, a, b, n, |x, y| x + y),
                Step::Sub { d, a, b, n } => self.binary(d, a, b, n, |x, y| x - y),
                Step::Mul { d, a, b, n } => self.binary(d, a, b, n, |x, y| x * y),
                Step::Div { d, a, b, n } => self.binary(d, a, b, n, math::div),
                Step::MulSa { d, a, sa, b, n } => {
                    let s = self.load(a, sa as usize);
                    self.unary(d, b, n, |y| s * y);
                }
                Step::MulSb { d, a, b, sb, n } => {
                    let s = self.load(b, sb as usize);
                    self.unary(d, a, n, |x| x * s);
                }
                Step::MulAdd {
                    d,
                    a,
                    b,
                    sb,
                    e,
                    n,
                    rev,
                } => match (sb < 4, rev) {
                    (false, false) => self.mul_add(d, a, (b, None), e, n, |t, z| t + z),
                    (false, true) => self.mul_add(d, a, (b, None), e, n, |t, z| z + t),
                    (true, false) => self.mul_add(d, a, (b, Some(sb)), e, n, |t, z| t + z),
                    (true, true) => self.mul_add(d, a, (b, Some(sb)), e, n, |t, z| z + t),
                },
                Step::AddMul { d, a, b, m, n, rev } => {
                    for c in 0..n as usize {
                        let t = self.load(a, c) + self.load(b, c);
                        let s = self.load(m, c);
                        self.store(d, c, if rev { s * t } else { t * s });
                    }
                }
                Step::Clamp {
                    d,
                    a,
                    lo,
                    hi,
                    n,
                    rule,
                } => {
                    for c in 0..n as usize {
                        let t = rule.max(self.load(a, c), self.load(lo, c));
                        self.store(d, c, rule.min(t, self.load(hi, c)));
                    }
                }
                // One monomorphised loop per rule, no branch per lane.
                Step::Min { d, a, b, n, rule } => match rule {
                    MinMax::Seed => self.binary(d, a, b, n, math::min),
                    MinMax::Num => self.binary(d, a, b, n, math::min_num),
                },
                Step::Max { d, a, b, n, rule } => match rule {
                    MinMax::Seed => self.binary(d, a, b, n, math::max),
                    MinMax::Num => self.binary(d, a, b, n, math::max_num),
                },
                Step::Abs { d, a, n } => self.unary(d, a, n, math::abs),
                Step::Derivative { d, a, n, op } => self.derivative(d, a, n, op),
                Step::Rcp { d, a, n } => self.unary(d, a, n, |x| per_group(x, math::rcp)),
                Step::Sin { d, a, n } => self.unary(d, a, n, |x| in_pairs(x, &Sin)),
                Step::Cos { d, a, n } => self.unary(d, a, n, |x| in_pairs(x, &Cos)),
                Step::Rsq { d, a } => self.unary(d, a, 1, |x| per_group(x, math::rsq)),
                Step::Trunc { d, a } => self.unary(d, a, 1, math::trunc),
                Step::Pow { d, a, b } => self.binary(d, a, b, 1, math::pow),
                Step::PowInt { d, a, n } => self.unary(d, a, 1, |x| in_pairs(x, &PowInt(n.into()))),
                Step::Cmp { d, a, b, code } => self.compare(d, a, b, code),
                Step::IntBinary { d, a, b, n, op } => self.int_binary(d, a, b, n, op),
                Step::IntUnary { d, a, n, op } => self.int_unary(d, a, n, op),
                Step::Swz { d, a, sel, n } => self.swizzle(d, a, sel, n),
                Step::SetLane { d, a, dl, sl } => {
                    self.store(d, dl as usize, self.load(a, sl as usize))
                }
                Step::Dot { d, a, b, w } => self.dot_groups(d, a, b, w, None),
                Step::DotMax {
                    d,
                    a,
                    b,
                    w,
                    m,
                    rule,
                } => self.dot_groups(d, a, b, w, Some((m, rule))),
                Step::Normalize { d, a, w, n } => self.normalize(d, a, w, n),
                Step::MulMv { d, a, b, cols } => {
                    let cols = cols as usize;
                    let r = mat_vec(&self.columns(a, cols), cols, self.load4(b));
                    (0..4).for_each(|c| self.store(d, c, r[c]));
                }
                Step::MulMm { d, a, b, cols } => {
                    let cols = cols as usize;
                    let (m, rhs) = (self.columns(a, cols), self.columns(b, cols));
                    for (j, column) in rhs.iter().enumerate().take(cols) {
                        let r = mat_vec(&m, cols, *column);
                        (0..4).for_each(|c| self.store(d + j as Reg, c, r[c]));
                    }
                }
                Step::Sample { d, a, slot, offset } => {
                    let slot = slot as usize;
                    match offset {
                        None => self.sample(d, a, slot),
                        Some(o) => self.sample_offset(d, a, slot, o),
                    }
                }
                Step::SampleLod {
                    d,
                    a,
                    b,
                    slot,
                    offset,
                    mode,
                } => self.sample_lod(d, a, b, slot as usize, offset, mode),
                Step::TexFetch { d, a, b, slot } => {
                    let samplers = self.lanes.samplers;
                    self.texel_per_lane(d, a, b, |[x, y], [lod, ..]| {
                        let index = [x.to_bits(), y.to_bits()];
                        crate::exec::texel_fetch(samplers, slot as usize, index, lod.to_bits())
                    });
                }
                Step::Tex {
                    d,
                    a,
                    b,
                    c,
                    slot,
                    lookup,
                    quads,
                } => self.tex(d, [a, b, c], slot as usize, lookup, quads),
                Step::TexSize { d, a, slot } => {
                    let lod = self.load(a, 0);
                    let samplers = self.lanes.samplers;
                    for c in 0..2 {
                        let size = |l| crate::exec::texture_size(samplers, slot as usize, l)[c];
                        self.store(d, c, lod.map_bits(size));
                    }
                }
                Step::LoadVar { d, first, comps } => {
                    for c in (0..4).filter(|c| comps & (1 << c) != 0) {
                        let src = self.lanes.varyings.get(first as usize + c);
                        self.store(d, c, self.lane_pack(src));
                    }
                }
                Step::LoadFcoord { d } => {
                    for c in 0..4 {
                        self.store(d, c, self.lane_pack(Some(&self.lanes.frag_coord[c])));
                    }
                }
                Step::LoadFace { d } => {
                    let face = f32::from(u8::from(self.lanes.front_facing));
                    self.store(d, 0, Pack([f32x8::splat(face); W]));
                }
                Step::If { cond, next } => {
                    let c = self.load(cond, 0);
                    let taken = Mask(each(|g| self.active.0[g] & c.0[g].simd_ne(f32x8::ZERO)));
                    masks.extend_from_slice(&self.active.0);
                    masks.extend_from_slice(&taken.0);
                    ends.push(next);
                    self.set_active(taken);
                    if taken.bits() & self.valid == 0 {
                        pc = next as usize;
                    }
                }
                Step::Else { next } => {
                    let frame = masks.len() - 2 * W;
                    let parent = Mask::<W>(each(|g| masks[frame + g]));
                    let taken = Mask::<W>(each(|g| masks[frame + W + g]));
                    *ends.last_mut().expect("ELSE inside an IF") = next;
                    let running = parent.and_not(taken).and_not(self.discarded);
                    self.set_active(running);
                    if running.bits() & self.valid == 0 {
                        pc = next as usize;
                    }
                }
                Step::EndIf => {
                    let frame = masks.len() - 2 * W;
                    let parent = Mask::<W>(each(|g| masks[frame + g]));
                    masks.truncate(frame);
                    ends.pop();
                    self.set_active(parent.and_not(self.discarded));
                }
                Step::Emit { first, count } => self.emit_vertex(first, count),
                Step::EndPrim => self.end_primitive(),
                Step::Discard if self.quads => self.demoted = self.demoted.or(self.active),
                Step::Discard => {
                    self.discarded = self.discarded.or(self.active);
                    self.set_active(Mask::NONE);
                    match ends.last() {
                        Some(&end) => pc = end as usize,
                        None => break,
                    }
                }
            }
        }
        masks.clear();
        ends.clear();
    }

    /// NORMALIZE one group at a time (its DOT, square root and division stay in
    /// registers; the out-of-order core overlaps neighbouring groups). Every component
    /// of a group is read before any is written (`d` may be `a`).
    #[inline(always)]
    fn normalize(&self, d: Reg, a: Reg, w: u8, n: u8) {
        let (w, n) = (w as usize, n as usize);
        if a & CONSTANT != 0 {
            // A constant operand (not produced by binding, but valid): whole packs.
            let v = self.load4(a);
            let s = math::rsq(self.dot(a, a, w as u8));
            for (c, &x) in v.iter().enumerate().take(n) {
                self.store(d, c, x * s);
            }
            return;
        }
        let src: [&[Cell<f32x8>; W]; 4] = each(|c| self.comp(a, c));
        let dst: [&[Cell<f32x8>; W]; 4] = each(|c| self.comp(d, c));
        for g in 0..W {
            let x: [f32x8; 4] = each(|c| src[c][g].get());
            let mut sum = x[0] * x[0];
            for &v in x.iter().take(w).skip(1) {
                sum += v * v;
            }
            let s = math::rsq(sum);
            for c in 0..n {
                let t = &dst[c][g];
                let r = x[c] * s;
                t.set(if self.full {
                    r
                } else {
                    self.active.0[g].select(r, t.get())
                });
            }
        }
    }

    /// DOT (and DOTMAX with `m`) one group at a time when both vectors are
    /// registers, else over whole packs.
    #[inline(always)]
    fn dot_groups(&self, d: Reg, a: Reg, b: Reg, w: u8, m: Option<(Reg, MinMax)>) {
        if (a | b) & CONSTANT != 0 {
            let dot = self.dot(a, b, w);
            let r = match m {
                Some((m, rule)) => rule.max(dot, self.load(m, 0)),
                None => dot,
            };
            self.store(d, 0, r);
            return;
        }
        let w = w as usize;
        let x: [&[Cell<f32x8>; W]; 4] = each(|c| self.comp(a, c));
        let y: [&[Cell<f32x8>; W]; 4] = each(|c| self.comp(b, c));
        let m = m.map(|(m, rule)| (self.load(m, 0), rule));
        let dst = self.comp(d, 0);
        for g in 0..W {
            let mut sum = x[0][g].get() * y[0][g].get();
            for k in 1..w {
                sum += x[k][g].get() * y[k][g].get();
            }
            if let Some((m, rule)) = m {
                sum = rule.max(sum, m.0[g]);
            }
            let t = &dst[g];
            t.set(if self.full {
                sum
            } else {
                self.active.0[g].select(sum, t.get())
            });
        }
    }

    /// DOT: `a[0]·b[0] + a[1]·b[1] + …` over `w` components, summed in order.
    #[inline(always)]
    fn dot(&self, a: Reg, b: Reg, w: u8) -> Pack<W> {
        let (x, y) = (self.load4(a), self.load4(b));
        let mut sum = x[0] * y[0];
        for k in 1..w as usize {
            sum = sum + x[k] * y[k];
        }
        sum
    }

    /// SWZ: `d[k] ← a[sel[k]]` for `k < n`, other components 0. Every source component
    /// is read before any is written (`d` may be `a`).
    fn swizzle(&self, d: Reg, a: Reg, sel: [u8; 4], n: u8) {
        let zero = Pack([f32x8::ZERO; W]);
        if d != a {
            for (k, &s) in sel.iter().enumerate() {
                let v = if k < n as usize {
                    self.load(a, s as usize)
                } else {
                    zero
                };
                self.store(d, k, v);
            }
            return;
        }
        let src = self.load4(a);
        for (k, &s) in sel.iter().enumerate() {
            self.store(
                d,
                k,
                if k < n as usize {
                    src[s as usize]
                } else {
                    zero
                },
            );
        }
    }

    /// CMP: `d[0] ← 1.0` where `a[0] code b[0]`, else `0.0`.
    fn compare(&self, d: Reg, a: Reg, b: Reg, code: CmpCode) {
        let (x, y) = (self.load(a, 0), self.load(b, 0));
        let mask = match code {
            CmpCode::Lt => x.lt(y),
            CmpCode::Gt => x.gt(y),
            CmpCode::Le => x.le(y),
            CmpCode::Ge => x.ge(y),
            CmpCode::Eq => Lane::eq(x, y),
            CmpCode::Ne => Lane::ne(x, y),
        };
        self.store(d, 0, math::from_mask::<Pack<W>>(mask));
    }

    /// Registers `first..first + cols` as matrix columns (the rest zero).
    fn columns(&self, first: Reg, cols: usize) -> [[Pack<W>; 4]; 4] {
        std::array::from_fn(|k| {
            if k < cols {
                self.load4(first + k as Reg)
            } else {
                [Pack([f32x8::ZERO; W]); 4]
            }
        })
    }

    /// The chunk's lanes of `src` (0 without one).
    #[inline(always)]
    fn lane_pack(&self, src: Option<&LaneArray>) -> Pack<W> {
        Pack(each(|g| {
            src.map_or(f32x8::ZERO, |lanes| {
                let at = self.lane0 + g * LANE_GROUP;
                f32x8::new(lanes[at..at + LANE_GROUP].try_into().expect("8 lanes"))
            })
        }))
    }

    /// The texture functions (SAMPLE_OFFSET, SAMPLE_LOD/BIAS/GRAD, TEXFETCH): `d ←
    /// texel(a.xy, b)`, one call per running real lane with all four components of
    /// `b`; other lanes keep `d`.
    fn texel_per_lane(
        &self,
        d: Reg,
        a: Reg,
        b: Reg,
        texel: impl Fn([f32; 2], [f32; 4]) -> [f32; 4],
    ) {
        self.texels_by_group::<4>(d, a, b, |group, [s, t], b, texels| {
            let mut group = group;
            while group != 0 {
                let i = group.trailing_zeros() as usize;
                group &= group - 1;
                let texel = texel([s[i], t[i]], b.map(|c| c[i]));
                for (c, v) in texels.iter_mut().zip(texel) {
                    c[i] = v;
                }
            }
        });
    }

    /// The frame of every texture step: for each group of 8 lanes with a running real
    /// lane, `f(lanes, [s, t], b, texels)` with the lanes as bits, the group's `a.xy`,
    /// components `0..B` of `b` and `d`'s current values, which `f` overwrites in the
    /// lanes it computes; `d` then takes `texels`. The operands are read before any
    /// write: `d` may be `a` or `b`.
    #[inline(always)]
    fn texels_by_group<const B: usize>(
        &self,
        d: Reg,
        a: Reg,
        b: Reg,
        mut f: impl FnMut(
            u8,
            [&[f32; LANE_GROUP]; 2],
            [&[f32; LANE_GROUP]; B],
            &mut [[f32; LANE_GROUP]; 4],
        ),
    ) {
        let lanes = self.active.bits() & self.real;
        let (s, t) = (self.load(a, 0), self.load(a, 1));
        let b: [Pack<W>; B] = std::array::from_fn(|c| self.load(b, c));
        let dst: [&[Cell<f32x8>; W]; 4] = std::array::from_fn(|c| self.comp(d, c));
        for g in 0..W {
            let group = (lanes >> (g * LANE_GROUP) & 0xff) as u8;
            if group == 0 {
                continue;
            }
            let (s, t) = (s.0[g].to_array(), t.0[g].to_array());
            let b = b.map(|p| p.0[g].to_array());
            let mut texels: [[f32; LANE_GROUP]; 4] =
                std::array::from_fn(|c| dst[c][g].get().to_array());
            f(group, [&s, &t], std::array::from_fn(|c| &b[c]), &mut texels);
            for (c, v) in dst.iter().zip(texels) {
                c[g].set(f32x8::new(v));
            }
        }
    }

    fn set_active(&mut self, active: Mask<W>) {
        self.active = active;
        self.full = active.bits() == low_bits(W * LANE_GROUP);
    }

    /// Register `r` ← (0, 0, 0, 0) in every lane (the colour output's initial value).
    fn zero(&self, r: Reg) {
        for c in 0..4 {
            self.comp(r, c).iter().for_each(|v| v.set(f32x8::ZERO));
        }
    }

    /// Copy register `reg`'s lanes of the batch's groups to `out` (one lane array per
    /// component, at most 4).
    fn store_output(&self, reg: Reg, out: &mut [LaneArray]) {
        let groups = (self.valid.count_ones() as usize).div_ceil(LANE_GROUP);
        for (c, out) in out.iter_mut().enumerate().take(4) {
            for (g, v) in self.comp(reg, c).iter().enumerate().take(groups) {
                let at = self.lane0 + g * LANE_GROUP;
                out[at..at + LANE_GROUP].copy_from_slice(v.get().as_array());
            }
        }
    }

    /// Copy the colour register's lanes of the batch's groups to `color`. Out of line:
    /// inlined into `BoundPlan::run` it made the flat shader's batches slower
    /// (`benches/README.md`, "The extended profile").
    #[inline(never)]
    fn store_color(&self, reg: Reg, color: &mut [LaneArray; 4]) {
        let groups = (self.valid.count_ones() as usize).div_ceil(LANE_GROUP);
        for (c, out) in color.iter_mut().enumerate() {
            for (g, v) in self.comp(reg, c).iter().enumerate().take(groups) {
                let at = self.lane0 + g * LANE_GROUP;
                out[at..at + LANE_GROUP].copy_from_slice(v.get().as_array());
            }
        }
    }
}
