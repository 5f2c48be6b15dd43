//! The vertex program as a [`csir_raster::VertexStage`].

use super::vertex_source::VertexSource;
use crate::scene::{Draw, PolygonMode, PrimitiveKind, ShadeModel};
use csir::Program;
use csir::exec::batch::{BoundPlan, LaneArray, MAX_LANES, Plan, Registers};
use csir::exec::{DEFAULT_ATTRIBUTE, Inputs, Machine, Outputs, Samplers};
use csir::ir::Interpolation as Qualifier;
use csir::link::VaryingRecord;
use csir_raster::{BackFaceVarying, Interpolation, LineRaster, PointRaster, Topology, VertexStage};

/// Back colours a two-sided draw outputs after the fragment slots: at most one each for
/// `gl_Color` and `gl_SecondaryColor`.
const MAX_BACK_COLOR_SLOTS: usize = 2;

// A linked program's varyings (Program::link allows csir::MAX_VARYINGS slots), its back
// colours and its clip distances always fit the rasterizer, so the link is the one
// varying check and a draw never fails on the count.
const _: () = assert!(
    csir::MAX_VARYINGS * 4 + MAX_BACK_COLOR_SLOTS * 4 + csir_raster::MAX_CLIP_DISTANCES
        <= csir_raster::MAX_VARYINGS
);

/// Runs a linked program's vertex shader, up to 64 vertices at a time through the
/// batch interpreter ([`BoundPlan::run_vertices`], bit-identical to the scalar
/// interpreter, which stays the definition and serves
/// [`VertexStage::shade_vertex`]); uniform-only work is done once per draw.
///
/// Attributes come from the draw by location, widened with (0, 0, 0, 1) as OpenGL
/// does; a location the draw does not supply reads (0, 0, 0, 1). The varyings handed
/// to the rasterizer are laid out by **fragment** slot: 4 floats for each slot
/// `0..=fragment.var_hi`, taken from the vertex slot the link mapped it to (zeros for
/// an unused slot), so the fragment stage reads them with an identity remap.
///
/// A draw with two-sided colour (`state.two_sided_color`; GL 2.1 §2.14.1) outputs,
/// after those, one more slot per colour input the fragment shader reads
/// (`gl_Color`, `gl_SecondaryColor`) whose back colour (`gl_BackColor`,
/// `gl_BackSecondaryColor`) the vertex shader writes, and names them as the
/// rasterizer's [`BackFaceVarying`]s: back-facing triangles interpolate those
/// instead. A colour whose back colour the vertex shader does not write stays the
/// front colour on both faces (GL leaves it undefined).
///
/// Each varying's interpolation qualifier (GLSL 1.30 §4.3.6, from the linked
/// program's [`VaryingRecord`]s) becomes the rasterizer's [`Interpolation`] of its
/// floats, the back colours' taking their colour input's; a built-in colour without
/// a qualifier is flat when the draw's shade model is (GL 2.1 §2.14.7).
///
/// A draw with user clip planes (`state.clip_planes`, GL 3.0 §2.17) outputs, last, one
/// clip distance per enabled plane, in plane order ([`VertexStage::clip_distance_count`]):
/// `gl_ClipDistance[i]` when the vertex shader writes `gl_ClipDistance`, else the plane
/// equation times `gl_ClipVertex` when it writes that, else times `gl_Position` (GLSL
/// 1.30 §7.1). `clip_plane_error` names a plane `gl_ClipDistance` has no element for.
pub struct CsirVertexStage<'a> {
    program: &'a Program,
    uniforms: &'a [[f32; 4]],
    samplers: &'a dyn Samplers,
    /// Each attribute the program reads that fits the machine's attribute registers:
    /// its location and where its values come from (the draw's array there, none:
    /// (0, 0, 0, 1), or `gl_VertexID` / `gl_InstanceID`). Looked up once per draw, not
    /// once per vertex.
    attributes: Vec<(usize, VertexSource<'a>)>,
    /// The instance being drawn (`gl_InstanceID`; the element of an instanced array).
    instance: u32,
    /// The vertex shader bound to this draw's uniforms for the batch interpreter, and
    /// the attribute lane arrays it reads: per location, the draw's array there (or
    /// none: (0, 0, 0, 1)) and the components loaded, as bits.
    batch: Option<(BoundPlan, Vec<LaneAttribute<'a>>)>,
    /// Vertex slot for each fragment slot (−1: none), then the back colours' vertex
    /// slots of a two-sided draw.
    slots: Vec<i16>,
    /// Two-sided colour: fragment-slot components read from the back-colour slots.
    back_face: Vec<BackFaceVarying>,
    /// Interpolation of each varying float (as many as `slots` give).
    interpolation: Vec<Interpolation>,
    /// Where the clip distances come from.
    clip_source: ClipSource,
    /// The enabled clip planes: number and equation, in increasing order.
    clip_planes: Vec<(usize, [f32; 4])>,
    /// The vertex slot of `gl_PointSize`, output after the fragment slots (before the
    /// clip distances) in a points draw with `GL_PROGRAM_POINT_SIZE`.
    point_size_slot: Option<u16>,
}

/// An attribute location the batch vertex shader reads: the location, where its
/// values come from and the components loaded, as bits.
type LaneAttribute<'a> = (usize, VertexSource<'a>, u8);

/// What a vertex's user clip distances are computed from (GLSL 1.30 §7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClipSource {
    /// `gl_ClipDistance`: element `i` in the x lane of vertex slot `slot + i`, for
    /// `i < len`.
    Distances { slot: u16, len: u16 },
    /// `gl_ClipVertex` in this vertex slot.
    ClipVertex(u16),
    /// Neither is written: `gl_Position`.
    Position,
}

impl ClipSource {
    fn of(program: &Program) -> ClipSource {
        let output = |name: &str| {
            let s = program.vertex.varying_output(name)?;
            match s.kind {
                csir::ir::SymbolKind::VaryingOut { slot } => Some((slot, s.array_len)),
                _ => None,
            }
        };
        if let Some((slot, len)) = output("gl_ClipDistance") {
            ClipSource::Distances {
                slot,
                len: len.unwrap_or(1),
            }
        } else if let Some((slot, _)) = output("gl_ClipVertex") {
            ClipSource::ClipVertex(slot)
        } else {
            ClipSource::Position
        }
    }
}

/// The error for a draw that enables a clip plane its vertex shader's
/// `gl_ClipDistance` has no element for (GL leaves the result undefined; csir-render
/// refuses it), if any: "clip plane 3 is enabled but the vertex shader's
/// gl_ClipDistance has 2 elements (...)".
pub fn clip_plane_error(program: &Program, draw: &Draw) -> Option<String> {
    let ClipSource::Distances { len, .. } = ClipSource::of(program) else {
        return None;
    };
    let plane = draw
        .state
        .clip_planes
        .enabled_planes()
        .find(|&i| i >= usize::from(len))?;
    Some(format!(
        "clip plane {plane} is enabled but the vertex shader's gl_ClipDistance has {len} \
         element{} (declare it larger, e.g. 'out float gl_ClipDistance[{}];', or write \
         gl_ClipDistance[{plane}])",
        if len == 1 { "" } else { "s" },
        plane + 1
    ))
}

impl<'a> CsirVertexStage<'a> {
    /// The vertex stage of `program` for `draw`, with this stage's uniform slots and
    /// textures.
    pub fn new(
        program: &'a Program,
        draw: &'a Draw,
        uniforms: &'a [[f32; 4]],
        samplers: &'a dyn Samplers,
    ) -> Self {
        let count = (program.fragment.interface.var_hi + 1).max(0) as usize;
        let mut slots: Vec<i16> = (0..count)
            .map(|f| program.var_remap.get(f).copied().unwrap_or(-1))
            .collect();
        let mut interpolation = vec![Interpolation::Smooth; count * 4];
        for rec in &program.varyings {
            let mode = varying_interpolation(rec, draw.state.shade_model);
            let slot_count = program
                .fragment
                .interface
                .find(&rec.name)
                .map_or(1, |s| usize::from(s.slot_count()));
            let first = usize::from(rec.fragment_slot) * 4;
            let end = (first + slot_count * 4).min(interpolation.len());
            interpolation[first.min(end)..end].fill(mode);
        }
        let mut back_face = Vec::new();
        if draw.state.two_sided_color {
            for (input, back_slot) in back_colors(program) {
                let extra = slots.len() as u16;
                slots.push(back_slot as i16);
                back_face.extend((0..4).map(|c| BackFaceVarying {
                    varying: input * 4 + c,
                    back: extra * 4 + c,
                }));
                // Clipping blends the back colour as its input is interpolated.
                let mode = interpolation[usize::from(input) * 4];
                interpolation.extend([mode; 4]);
            }
        }
        let planes = &draw.state.clip_planes;
        let extended = program.vertex.limits.extended_ops();
        let attributes: Vec<(usize, VertexSource)> = program
            .attributes
            .iter()
            .filter(|rec| usize::from(rec.location) < program.vertex.limits.attributes)
            .map(|rec| {
                let location = usize::from(rec.location);
                let array = draw.attribute(location as u32);
                (location, VertexSource::of(&rec.name, array, extended))
            })
            .collect();
        // The same arrays as the scalar path: a location the program's attribute list
        // does not name reads (0, 0, 0, 1).
        let batch = Plan::new_vertex(&program.vertex).ok().map(|plan| {
            let plan = plan.bind(uniforms, &[]);
            let read = plan.varyings_read();
            let lanes = (0..program.vertex.limits.attributes.min(16))
                .map(|location| (location, (read >> (4 * location)) as u8 & 0xf))
                .filter(|&(_, comps)| comps != 0)
                .map(|(location, comps)| {
                    let source = attributes
                        .iter()
                        .find(|&&(l, _)| l == location)
                        .map_or(VertexSource::NONE, |&(_, s)| s);
                    (location, source, comps)
                })
                .collect();
            (plan, lanes)
        });
        CsirVertexStage {
            program,
            uniforms,
            samplers,
            attributes,
            instance: 0,
            batch,
            slots,
            back_face,
            interpolation,
            clip_source: ClipSource::of(program),
            point_size_slot: program_point_size_slot(program, draw),
            clip_planes: planes
                .enabled_planes()
                .map(|i| (i, planes.equations[i]))
                .collect(),
        }
    }
}

impl CsirVertexStage<'_> {
    /// Draw instance `instance` from now on: `gl_InstanceID`, and the element each
    /// instanced array reads (GL 3.3 core §2.8.2). A new stage draws instance 0.
    pub fn set_instance(&mut self, instance: u32) {
        self.instance = instance;
    }
}

/// The vertex slot of `gl_PointSize` when `draw` sizes its points by it: a points
/// draw with `program_point_size` whose vertex shader writes it (GL 3.3 core §3.4;
/// one that does not leaves the size undefined, and it is then `point_size`).
fn program_point_size_slot(program: &Program, draw: &Draw) -> Option<u16> {
    let state = &draw.state.points_lines;
    let points = match draw.primitive.kind() {
        PrimitiveKind::Points => true,
        PrimitiveKind::Triangles => state.polygon_mode == PolygonMode::Point,
        PrimitiveKind::Lines => false,
    };
    if !points || !state.program_point_size {
        return None;
    }
    match program.vertex.varying_output("gl_PointSize")?.kind {
        csir::ir::SymbolKind::VaryingOut { slot } => Some(slot),
        _ => None,
    }
}

impl CsirVertexStage<'_> {
    /// How the rasterizer draws `draw`'s index triples with this stage's varying
    /// layout: triangles, lines of `state.line_width`, or points sized by
    /// `state.point_size` or `gl_PointSize`, with `gl_PointCoord` written where the
    /// fragment shader reads it.
    pub fn topology(&self, draw: &Draw) -> Topology {
        let state = &draw.state.points_lines;
        let lines = LineRaster {
            width: state.line_width,
        };
        let points = PointRaster {
            size: state.point_size,
            size_varying: self.point_size_slot.map(|_| self.slots.len() * 4),
            coord_varying: point_coord_slot(self.program).map(|slot| 4 * usize::from(slot)),
        };
        match (draw.primitive.kind(), state.polygon_mode) {
            (PrimitiveKind::Triangles, PolygonMode::Fill) => Topology::Triangles,
            (PrimitiveKind::Triangles, PolygonMode::Line) => Topology::PolygonEdges(lines),
            (PrimitiveKind::Triangles, PolygonMode::Point) => Topology::PolygonVertices(points),
            (PrimitiveKind::Lines, _) => Topology::Lines(lines),
            (PrimitiveKind::Points, _) => Topology::Points(points),
        }
    }
}

/// The fragment slot of `gl_PointCoord`, if the fragment shader reads it.
fn point_coord_slot(program: &Program) -> Option<u16> {
    program
        .fragment
        .interface
        .symbols
        .iter()
        .find_map(|s| match s.kind {
            csir::ir::SymbolKind::VaryingIn { slot } if s.name == "gl_PointCoord" => Some(slot),
            _ => None,
        })
}

/// For each colour input of `program`'s fragment shader that has a back colour the
/// vertex shader writes (other than the one the input links to): its fragment slot
/// and the back colour's vertex slot.
fn back_colors(program: &Program) -> Vec<(u16, u16)> {
    program
        .varyings
        .iter()
        .filter_map(|v| {
            let back = csir::lang::builtin_vars::back_face_source(&v.name)?;
            let csir::ir::SymbolKind::VaryingOut { slot } =
                program.vertex.varying_output(back)?.kind
            else {
                return None;
            };
            (slot != v.vertex_slot).then_some((v.fragment_slot, slot))
        })
        .collect()
}

/// The rasterizer's interpolation of a linked varying: its qualifier, or for a
/// built-in colour without one the shade model's (GL 2.1 §2.14.7), else smooth.
pub(super) fn varying_interpolation(rec: &VaryingRecord, shade_model: ShadeModel) -> Interpolation {
    match rec.interpolation {
        Some(Qualifier::Flat) => Interpolation::Flat,
        Some(Qualifier::NoPerspective) => Interpolation::NoPerspective,
        Some(Qualifier::Smooth) => Interpolation::Smooth,
        None if shade_model == ShadeModel::Flat
            && csir::lang::builtin_vars::follows_shade_model(&rec.name) =>
        {
            Interpolation::Flat
        }
        None => Interpolation::Smooth,
    }
}

/// Per-thread state of [`CsirVertexStage`].
pub struct VertexScratch<'a> {
    machine: Machine<'a>,
    attributes: Vec<[f32; 4]>,
    outputs: Box<Outputs>,
    /// The batch interpreter's registers, its attribute lane arrays (location `l`
    /// component `c` at `4·l + c`) and its outputs (position, then vertex slots).
    regs: Registers,
    lane_attributes: Vec<LaneArray>,
    lane_outputs: Vec<LaneArray>,
}

impl CsirVertexStage<'_> {
    /// Writes one vertex's `position` and `varyings` from the shader's position and
    /// vertex-slot outputs (`vary`: zeros for a slot never stored): the fragment-slot
    /// layout, then the clip distances (the rules in the type's docs).
    fn write_vertex(
        &self,
        out_position: [f32; 4],
        vary: impl Fn(usize) -> [f32; 4],
        position: &mut [f32; 4],
        varyings: &mut [f32],
    ) {
        *position = out_position;
        for (f, &v) in self.slots.iter().enumerate() {
            let value = usize::try_from(v).map_or([0.0; 4], &vary);
            varyings[f * 4..f * 4 + 4].copy_from_slice(&value);
        }
        let mut first_distance = self.slots.len() * 4;
        if let Some(slot) = self.point_size_slot {
            varyings[first_distance] = vary(usize::from(slot))[0];
            first_distance += 1;
        }
        let distances = &mut varyings[first_distance..];
        let dot = |e: [f32; 4], v: [f32; 4]| e[0] * v[0] + e[1] * v[1] + e[2] * v[2] + e[3] * v[3];
        for (d, &(plane, equation)) in distances.iter_mut().zip(&self.clip_planes) {
            *d = match self.clip_source {
                // clip_plane_error refuses planes past the array's end before a draw.
                ClipSource::Distances { slot, len } if plane < usize::from(len) => {
                    vary(usize::from(slot) + plane)[0]
                }
                ClipSource::Distances { .. } => 0.0,
                ClipSource::ClipVertex(slot) => dot(equation, vary(usize::from(slot))),
                ClipSource::Position => dot(equation, out_position),
            };
        }
    }
}

impl<'a> VertexStage for CsirVertexStage<'a> {
    type Scratch = VertexScratch<'a>;

    fn new_scratch(&self) -> VertexScratch<'a> {
        VertexScratch {
            machine: Machine::new(&self.program.vertex)
                .expect("csir::compile and Program::link only give verified shaders"),
            attributes: vec![DEFAULT_ATTRIBUTE; self.program.vertex.limits.attributes],
            outputs: Box::new(Outputs::INITIAL),
            regs: self
                .batch
                .as_ref()
                .map_or_else(Registers::default, |(plan, _)| plan.registers()),
            lane_attributes: vec![
                [0.0; MAX_LANES];
                4 * self.program.vertex.limits.attributes.min(16)
            ],
            lane_outputs: vec![
                [0.0; MAX_LANES];
                4 * self
                    .batch
                    .as_ref()
                    .map_or(0, |(plan, _)| plan.vertex_outputs())
            ],
        }
    }

    fn varying_count(&self) -> usize {
        self.slots.len() * 4 + usize::from(self.point_size_slot.is_some()) + self.clip_planes.len()
    }

    fn clip_distance_count(&self) -> usize {
        self.clip_planes.len()
    }

    fn back_face_varyings(&self) -> &[BackFaceVarying] {
        &self.back_face
    }

    fn interpolation(&self) -> &[Interpolation] {
        &self.interpolation
    }

    fn shade_vertex(
        &self,
        scratch: &mut VertexScratch<'a>,
        index: u32,
        position: &mut [f32; 4],
        varyings: &mut [f32],
    ) {
        for &(location, source) in &self.attributes {
            scratch.attributes[location] = source.fetch(index, self.instance);
        }
        let inputs = Inputs {
            uniforms: self.uniforms,
            attributes: &scratch.attributes,
            samplers: self.samplers,
            ..Inputs::default()
        };
        // A verified shader cannot fault; if it ever did, the outputs written so far
        // stand (the interpreter keeps them), which is the most useful picture.
        let _ = scratch.machine.run(&inputs, &mut scratch.outputs);
        let outputs = &scratch.outputs;
        let vary = |slot: usize| outputs.varyings.get(slot).copied().unwrap_or([0.0; 4]);
        self.write_vertex(outputs.position, vary, position, varyings);
    }

    fn shade_vertices(
        &self,
        scratch: &mut VertexScratch<'a>,
        indices: &[u32],
        records: &mut [f32],
    ) {
        let stride = 4 + self.varying_count();
        let Some((plan, lanes)) = &self.batch else {
            for (&index, record) in indices.iter().zip(records.chunks_exact_mut(stride)) {
                let (position, varyings) = record.split_first_chunk_mut::<4>().expect("stride ≥ 4");
                self.shade_vertex(scratch, index, position, varyings);
            }
            return;
        };
        for &(location, source, comps) in lanes {
            let arrays = &mut scratch.lane_attributes[4 * location..4 * location + 4];
            for (lane, &index) in indices.iter().enumerate() {
                let value = source.fetch(index, self.instance);
                for c in (0..4).filter(|c| comps & (1 << c) != 0) {
                    arrays[c][lane] = value[c];
                }
            }
        }
        let out = &mut scratch.lane_outputs;
        plan.run_vertices(
            &mut scratch.regs,
            indices.len(),
            &scratch.lane_attributes,
            self.samplers,
            out,
        );
        let slots = out.len() / 4 - 1;
        for (lane, record) in records
            .chunks_exact_mut(stride)
            .take(indices.len())
            .enumerate()
        {
            let (position, varyings) = record.split_first_chunk_mut::<4>().expect("stride ≥ 4");
            let vary = |slot: usize| -> [f32; 4] {
                if slot < slots {
                    std::array::from_fn(|c| out[4 * (1 + slot) + c][lane])
                } else {
                    [0.0; 4]
                }
            };
            let p = std::array::from_fn(|c| out[c][lane]);
            self.write_vertex(p, vary, position, varyings);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, interpolation: Option<Qualifier>) -> VaryingRecord {
        VaryingRecord {
            name: name.into(),
            ty: csir::Type::Vec4,
            vertex_slot: 0,
            fragment_slot: 0,
            interpolation,
        }
    }

    #[test]
    fn qualifiers_decide_and_the_shade_model_governs_only_unqualified_colours() {
        use Interpolation::{Flat, NoPerspective, Smooth};
        let cases = [
            ("v", None, ShadeModel::Flat, Smooth),
            ("v", Some(Qualifier::Flat), ShadeModel::Smooth, Flat),
            (
                "v",
                Some(Qualifier::NoPerspective),
                ShadeModel::Flat,
                NoPerspective,
            ),
            ("gl_Color", None, ShadeModel::Smooth, Smooth),
            ("gl_Color", None, ShadeModel::Flat, Flat),
            ("gl_SecondaryColor", None, ShadeModel::Flat, Flat),
            (
                "gl_Color",
                Some(Qualifier::Smooth),
                ShadeModel::Flat,
                Smooth,
            ),
            (
                "gl_Color",
                Some(Qualifier::NoPerspective),
                ShadeModel::Flat,
                NoPerspective,
            ),
            ("gl_TexCoord", None, ShadeModel::Flat, Smooth),
        ];
        for (name, q, model, want) in cases {
            assert_eq!(
                varying_interpolation(&record(name, q), model),
                want,
                "{name} {q:?} {model:?}"
            );
        }
    }
}
