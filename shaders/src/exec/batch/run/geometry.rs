//! The geometry stage on the batch interpreter (GLSL 1.50 §8.10, GL 3.2 §2.12.4):
//! the lanes of a batch are input primitives, one geometry-shader invocation each.
//!
//! - The input vertices and `gl_PrimitiveIDIn` come in as lane arrays, like a vertex
//!   batch's attributes: [`BoundPlan::run_geometry`] copies each lane's
//!   [`PrimitiveInput::load`] values (and the primitive id's bits) into the arrays
//!   [`GeometryShape::input_lane`] numbers, and LOAD_VTX and LOAD_PRIMID bind to the
//!   same step as LOAD_VAR, so every lane reads exactly what the scalar interpreter's
//!   LOAD_VTX reads.
//! - The outputs start at [`Outputs::INITIAL`](crate::exec::Outputs::INITIAL) in
//!   registers, as in a vertex batch. EMIT ([`Step::Emit`]) copies them, for each
//!   running lane (a lane masked off by a divergent IF does not emit), into that
//!   lane's [`Emitted`], through the same [`Emitted::emit`] the scalar interpreter
//!   calls; ENDPRIM and the end of the invocation call [`Emitted::end_primitive`].
//!   So each lane's emitted vertices, strips and their bits are the scalar
//!   interpreter's (`tests/geometry.rs` checks it on random programs with divergent
//!   emit counts).
//!
//! [`Step::Emit`]: super::Step::Emit

use super::{Chunk, FragmentLanes, NO_FRAG_COORD};
use crate::exec::batch::step::Reg;
use crate::exec::batch::{BoundPlan, LANE_GROUP, LaneArray, MAX_LANES, Registers};
use crate::exec::{Emitted, PrimitiveInput, Samplers};
use crate::ir::{GeometryLayout, Op, Shader, Stage};
use std::cell::{Cell, RefCell};
use wide::f32x8;

/// What a geometry plan needs to know besides its steps: the layout, the stride of
/// its emitted vertices, and how many input vertices and slots it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::exec::batch) struct GeometryShape {
    /// The shader's layout (output primitive, `max_vertices`).
    pub layout: GeometryLayout,
    /// Varying slots per emitted vertex: the shader's `var_hi + 1`, as
    /// [`Machine::run_geometry`](crate::exec::Machine::run_geometry) sets
    /// [`Emitted::stride`].
    pub stride: usize,
    /// Input vertices read: one more than the highest LOAD_VTX vertex.
    vertices: usize,
    /// Varying slots read per input vertex: one more than the highest LOAD_VTX slot.
    slots: usize,
}

impl GeometryShape {
    /// The shape of verified shader `shader`; `None` unless it is a geometry shader.
    pub fn of(shader: &Shader) -> Option<GeometryShape> {
        if shader.stage != Stage::Geometry {
            return None;
        }
        let layout = shader.interface.geometry?;
        let (mut vertices, mut slots) = (0, 0);
        for ir in shader
            .ir
            .iter()
            .filter(|ir| ir.opcode() == Some(Op::LoadVtx))
        {
            vertices = vertices.max(ir.aux2.max(0) as usize + 1);
            slots = slots.max((ir.aux + 1).max(0) as usize);
        }
        Some(GeometryShape {
            layout,
            stride: (shader.interface.var_hi.max(-1) + 1) as usize,
            vertices,
            slots,
        })
    }

    /// Lane arrays per input vertex / 4: the varying slots plus `gl_PointSize` (−2)
    /// and `gl_Position` (−1).
    fn per_vertex(&self) -> usize {
        self.slots + 2
    }

    /// The first of the four lane arrays LOAD_VTX of `vertex`, `slot` reads (`op` =
    /// LOAD_VTX), or the one lane array of `gl_PrimitiveIDIn`'s bits (`op` =
    /// LOAD_PRIMID, whose other components read arrays past the end: 0, never
    /// loaded as only component x is written).
    pub fn input_lane(&self, op: Op, slot: i16, vertex: i16) -> usize {
        match op {
            Op::LoadPrimId => self.vertices * self.per_vertex() * 4,
            _ => (vertex.max(0) as usize * self.per_vertex() + (slot + 2).max(0) as usize) * 4,
        }
    }

    /// Lane arrays of a batch's inputs.
    fn lane_arrays(&self) -> usize {
        self.vertices * self.per_vertex() * 4 + 1
    }
}

/// Working memory of [`BoundPlan::run_geometry`] for one worker thread (the input
/// primitives as lane arrays); reusable for any draw.
#[derive(Clone, Debug, Default)]
pub struct GeometryLanes {
    arrays: Vec<LaneArray>,
    /// Per-lane gather buffer of EMIT.
    gather: Vec<[f32; 4]>,
}

/// Where a geometry batch's EMIT and ENDPRIM steps go: batch lane `i`'s vertices.
pub(in crate::exec::batch) struct Sink<'a> {
    layout: GeometryLayout,
    emitted: &'a [Cell<Emitted>],
    gather: RefCell<Vec<[f32; 4]>>,
}

impl Sink<'_> {
    /// `f` on batch lane `lane`'s emitted vertices.
    fn with(&self, lane: usize, f: impl FnOnce(&mut Emitted)) {
        let cell = &self.emitted[lane];
        let mut e = cell.take();
        f(&mut e);
        cell.set(e);
    }
}

impl BoundPlan {
    /// Run a geometry shader's plan ([`Plan::new_geometry`](super::super::Plan::new_geometry))
    /// on up to [`MAX_LANES`] input primitives, one invocation per lane: lane `i`
    /// reads `primitives[i]` (its vertices and `gl_PrimitiveIDIn`) and `samplers`,
    /// and `emitted[i]` is replaced by what it emitted, exactly (the same bits, the
    /// same strips) as [`Machine::run_geometry`](crate::exec::Machine::run_geometry)
    /// gives for that primitive.
    ///
    /// `regs` and `lanes` may come from any draw.
    ///
    /// # Panics
    /// If `primitives.len() > MAX_LANES`, `emitted` is shorter than `primitives`, or
    /// the plan is not a geometry shader's.
    pub fn run_geometry(
        &self,
        regs: &mut Registers,
        lanes: &mut GeometryLanes,
        primitives: &[PrimitiveInput<'_>],
        samplers: &dyn Samplers,
        emitted: &mut [Emitted],
    ) {
        let shape = self
            .geometry
            .expect("run_geometry needs a geometry shader's plan");
        let len = primitives.len();
        assert!(len <= MAX_LANES, "a batch has at most 64 lanes");
        let emitted = &mut emitted[..len];
        let GeometryLanes { arrays, gather } = lanes;
        arrays.resize(shape.lane_arrays(), [0.0; MAX_LANES]);
        for (lane, p) in primitives.iter().enumerate() {
            for v in 0..shape.vertices {
                for slot in -2..shape.slots as i16 {
                    let value = p.load(v, slot);
                    let at = shape.input_lane(Op::LoadVtx, slot, v as i16);
                    for (c, x) in value.into_iter().enumerate() {
                        arrays[at + c][lane] = x;
                    }
                }
            }
            let at = shape.input_lane(Op::LoadPrimId, 0, 0);
            arrays[at][lane] = f32::from_bits(p.primitive_id);
        }
        for e in emitted.iter_mut() {
            e.clear();
            e.stride = shape.stride;
        }
        let batch = FragmentLanes {
            len,
            frag_coord: &NO_FRAG_COORD,
            front_facing: false,
            varyings: arrays,
            samplers,
        };
        let sink = Sink {
            layout: shape.layout,
            emitted: Cell::from_mut(emitted).as_slice_of_cells(),
            gather: RefCell::new(std::mem::take(gather)),
        };
        match len.div_ceil(LANE_GROUP) {
            0 => {}
            1 => self.run_geometry_width::<1>(regs, &batch, &sink),
            2 => self.run_geometry_width::<2>(regs, &batch, &sink),
            3 | 4 => self.run_geometry_width::<4>(regs, &batch, &sink),
            _ => self.run_geometry_width::<8>(regs, &batch, &sink),
        }
        *gather = sink.gather.into_inner();
    }

    fn run_geometry_width<const W: usize>(
        &self,
        regs: &mut Registers,
        lanes: &FragmentLanes<'_>,
        sink: &Sink<'_>,
    ) {
        regs.prepare(self);
        let Registers {
            cells, masks, ends, ..
        } = regs;
        let cells = Cell::from_mut(&mut cells[..]).as_slice_of_cells();
        let groups = lanes.len.div_ceil(LANE_GROUP);
        for first in (0..groups).step_by(W) {
            let mut chunk = Chunk::<W>::new(cells, &self.constants, lanes, first, lanes.len, false);
            chunk.sink = Some(sink);
            // Every invocation starts from Outputs::INITIAL.
            for k in 0..self.outputs {
                let reg = self.color + k as Reg;
                chunk.zero(reg);
                if k == 0 {
                    chunk.comp(reg, 3).iter().for_each(|v| v.set(f32x8::ONE));
                }
            }
            chunk.run(&self.steps, masks, ends);
            // The end of the invocation ends its last strip, in every lane.
            for lane in bits(chunk.real & chunk.valid) {
                sink.with(chunk.lane0 + lane, |e| e.end_primitive(&sink.layout));
            }
        }
    }
}

/// The set bits of `x`, lowest first.
fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

impl<const W: usize> Chunk<'_, W> {
    /// EMIT: every running lane appends registers `first..first + count` (position,
    /// then vertex slots) to its emitted vertices.
    pub(super) fn emit_vertex(&self, first: Reg, count: u8) {
        let Some(sink) = self.sink else { return };
        let running = self.active.bits() & self.real;
        if running == 0 {
            return;
        }
        let count = count as usize;
        let mut gather = sink.gather.borrow_mut();
        gather.clear();
        gather.resize(W * LANE_GROUP * count, [0.0; 4]);
        for k in 0..count {
            for c in 0..4 {
                for (g, v) in self.comp(first + k as Reg, c).iter().enumerate() {
                    for (j, x) in v.get().to_array().into_iter().enumerate() {
                        gather[(g * LANE_GROUP + j) * count + k][c] = x;
                    }
                }
            }
        }
        for lane in bits(running) {
            let outputs = &gather[lane * count..(lane + 1) * count];
            sink.with(self.lane0 + lane, |e| {
                e.emit(&sink.layout, outputs[0], &outputs[1..]);
            });
        }
    }

    /// ENDPRIM: every running lane ends its current strip.
    pub(super) fn end_primitive(&self) {
        let Some(sink) = self.sink else { return };
        for lane in bits(self.active.bits() & self.real) {
            sink.with(self.lane0 + lane, |e| e.end_primitive(&sink.layout));
        }
    }
}
