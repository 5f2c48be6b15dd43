//! The geometry stage of a draw (GL 3.2 §2.12): the vertex shader runs on the draw's
//! vertices, the draw's input primitives ([`GeometryDraw`], assembled by the scene
//! loader in `gl_in[]` order) go through the geometry shader one by one, and what it
//! emits becomes the rasterizer's input: a vertex buffer in the fragment stage's
//! varying layout ([`EmittedVertexStage`]) and a triangle list made of the emitted
//! `triangle_strip`s in GL's order (GL 3.2 §2.6.1: triangle `i` of a strip is `(i, i+1,
//! i+2)` for even `i`, `(i+1, i, i+2)` for odd `i`), each rotated so that its
//! provoking vertex (the strip's `i+2`, or `i` in the first-vertex convention; GL 3.2
//! table 2.12) comes last, where the rasterizer takes flat values from.
//!
//! The vertex shader runs on the scalar interpreter ([`Machine`]); the geometry
//! shader on the batch interpreter ([`BoundPlan::run_geometry`], the same bits as the
//! scalar one), 64 input primitives per batch, the batches on the render pool's
//! threads. The batches' results are joined in primitive order, so the emitted
//! vertices and triangles, and so the image, do not depend on the thread count.
//!
//! [`BoundPlan::run_geometry`]: csir::exec::batch::BoundPlan::run_geometry
//!
//! The `points` and `line_strip` outputs are the same [`EmittedPrimitives`] list (the
//! vertices and which of them each primitive joins); drawing them waits for a point
//! and line rasterizer, so a draw with such an output is refused by name
//! ([`output_error`]).

use crate::scene::{Draw, GeometryDraw, ProvokingVertex};
use csir::Program;
use csir::exec::batch::{GeometryLanes, MAX_LANES, Plan};
use csir::exec::{
    DEFAULT_ATTRIBUTE, Emitted, Inputs, Machine, NoSamplers, Outputs, PrimitiveInput, Samplers,
};
use csir::ir::OutputPrimitive;
use csir_raster::{Interpolation, VertexStage};
use rayon::prelude::*;

/// What a draw's geometry stage emitted, for every input primitive in order: each
/// emitted vertex's clip position and varyings (in the fragment stage's slot layout,
/// 4 floats per slot), and the output primitives as vertex indices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EmittedPrimitives {
    /// The output primitive type.
    pub output: Option<OutputPrimitive>,
    /// Floats of varyings per vertex.
    pub varying_count: usize,
    /// Per emitted vertex: its clip position, then `varying_count` floats.
    pub records: Vec<f32>,
    /// The output primitives: 1, 2 or 3 vertex indices each (points, lines,
    /// triangles), the triangles' provoking vertex last.
    pub primitives: Vec<u32>,
    /// For each emitted vertex, the input primitive (`gl_PrimitiveIDIn`) that emitted
    /// it and its place in that invocation's emission order.
    pub sources: Vec<(u32, u32)>,
}

impl EmittedPrimitives {
    /// Number of emitted vertices.
    pub fn vertex_count(&self) -> usize {
        self.records.len() / (4 + self.varying_count)
    }
}

/// The error for a draw with a geometry shader the renderer cannot draw, with the
/// field of the draw it belongs on: a draw mode that does not make the shader's input
/// type (GL 3.2 §2.12.1: `GL_INVALID_OPERATION`; `primitive`), an output type other
/// than `triangle_strip` (`geometry`), user clip planes or two-sided colour, which
/// the geometry stage does not pass on yet (`state.clip_planes`,
/// `state.two_sided_color`).
pub fn draw_error(program: &Program, draw: &Draw) -> Option<(&'static str, String)> {
    let geometry = draw.geometry.as_ref()?;
    let link = program.geometry.as_ref()?;
    if draw.state.clip_planes.enabled_planes().next().is_some() {
        return Some((
            "state.clip_planes",
            "user clip planes with a geometry shader are not supported yet".to_string(),
        ));
    }
    if draw.state.two_sided_color {
        return Some((
            "state.two_sided_color",
            "two-sided colour with a geometry shader is not supported yet".to_string(),
        ));
    }
    // The geometry path shades vertices on its own (run_geometry), without the
    // instancing and per-vertex inputs of the triangle path yet.
    if draw.instances != 1 {
        return Some((
            "instances",
            "instanced drawing with a geometry shader is not supported yet".to_string(),
        ));
    }
    if let Some(a) = draw
        .attributes
        .iter()
        .find(|a| a.divisor != 0 || a.ty != crate::scene::AttributeType::Float)
    {
        return Some((
            "attributes",
            format!(
                "the attribute at location {} is instanced or integer, which a draw with a \
                 geometry shader does not read yet",
                a.location
            ),
        ));
    }
    if let Some(input) = program
        .attributes
        .iter()
        .find(|a| a.name == "gl_VertexID" || a.name == "gl_InstanceID")
    {
        return Some((
            "vertex",
            format!("{} with a geometry shader is not supported yet", input.name),
        ));
    }
    let fragment_reads_primitive_id = program
        .fragment
        .interface
        .symbols
        .iter()
        .any(|s| s.name == "gl_PrimitiveID");
    if fragment_reads_primitive_id {
        return Some((
            "fragment",
            "gl_PrimitiveID in the fragment shader of a draw with a geometry shader (the \
             value the geometry shader writes, GLSL 1.50 §7.1) is not supported yet"
                .to_string(),
        ));
    }
    let layout = link.layout();
    if let Some(message) = emitted_budget_error(program, geometry, layout.max_vertices) {
        return Some(("geometry", message));
    }
    if layout.input != geometry.input {
        return Some((
            "primitive",
            format!(
                "draw mode `{}` makes {} but the geometry shader takes {} (layout({}) in; \
                 GL 3.2 §2.12.1)",
                geometry.mode, geometry.input, layout.input, layout.input
            ),
        ));
    }
    if layout.output != OutputPrimitive::TriangleStrip {
        return Some((
            "geometry",
            format!(
                "the geometry shader emits {}, which csir-render does not rasterize yet \
                 (only triangle_strip output is drawn)",
                layout.output
            ),
        ));
    }
    None
}

/// The error for a draw whose geometry shader could emit more than the memory budget
/// holds: every input primitive may emit `max_vertices` vertices (GL 3.2 §2.12.4),
/// each kept as a record (its position and the fragment stage's varyings) plus what
/// [`crate::budget`] counts per vertex and per output primitive. The limit is this
/// machine's default ([`default_max_memory`](crate::budget::default_max_memory)); the
/// scene's own geometry was checked against `--max-memory` when it was loaded.
fn emitted_budget_error(
    program: &Program,
    geometry: &GeometryDraw,
    max_vertices: u16,
) -> Option<String> {
    use crate::budget::{Bytes, GEOMETRY_BYTES_PER_TRIANGLE, GEOMETRY_BYTES_PER_VERTEX};
    let primitives = (geometry.primitives.len() / geometry.input.vertices()) as u64;
    let vertices = primitives.saturating_mul(u64::from(max_vertices));
    let floats = 4 + 4 * (program.fragment.interface.var_hi + 1).max(0) as u64;
    let per_vertex = floats * 4 + GEOMETRY_BYTES_PER_VERTEX + GEOMETRY_BYTES_PER_TRIANGLE;
    let bytes = vertices.saturating_mul(per_vertex);
    let limit = crate::budget::default_max_memory();
    (bytes > limit).then(|| {
        format!(
            "the geometry shader can emit up to {vertices} vertices ({primitives} input \
             primitives × max_vertices {max_vertices}), about {}, above the memory limit \
             of {}",
            Bytes(bytes),
            Bytes(limit)
        )
    })
}

/// Run `draw`'s vertex shader on its vertices and its geometry shader on each input
/// primitive, with the uniform slots `vertex_uniforms` / `geometry_uniforms` and
/// the vertex stage's textures; the fragment layout and provoking vertex as the
/// module docs say.
pub fn run_geometry(
    program: &Program,
    draw: &Draw,
    geometry: &GeometryDraw,
    vertex_uniforms: &[[f32; 4]],
    geometry_uniforms: &[[f32; 4]],
    vertex_samplers: &dyn Samplers,
) -> EmittedPrimitives {
    let Some(link) = program.geometry.as_ref() else {
        return EmittedPrimitives::default();
    };
    let layout = link.layout();
    // The vertex shader, by vertex slot.
    let vs_stride = (program.vertex.interface.var_hi + 1).max(0) as usize;
    let mut vs = Machine::new(&program.vertex).expect("linked shaders are verified");
    let mut attributes = vec![DEFAULT_ATTRIBUTE; program.vertex.limits.attributes];
    let locations: Vec<(usize, Option<&crate::scene::Attribute>)> = program
        .attributes
        .iter()
        .map(|rec| usize::from(rec.location))
        .filter(|&l| l < attributes.len())
        .map(|l| (l, draw.attribute(l as u32)))
        .collect();
    let count = draw.vertex_count as usize;
    let mut positions = Vec::with_capacity(count);
    let mut varyings = Vec::with_capacity(count * vs_stride);
    let mut outputs = Box::new(Outputs::INITIAL);
    for index in 0..draw.vertex_count {
        for &(location, attribute) in &locations {
            attributes[location] = attribute.map_or(DEFAULT_ATTRIBUTE, |a| a.fetch(index));
        }
        let inputs = Inputs {
            uniforms: vertex_uniforms,
            attributes: &attributes,
            samplers: vertex_samplers,
            ..Inputs::default()
        };
        // A verified shader cannot fault; the outputs stored so far stand if it did.
        let _ = vs.run(&inputs, &mut outputs);
        positions.push(outputs.position);
        varyings.extend_from_slice(&outputs.varyings[..vs_stride]);
    }
    // The geometry shader's inputs, by geometry slot.
    let gs_stride = link
        .input_remap
        .iter()
        .rposition(|&v| v >= 0)
        .map_or(0, |last| last + 1);
    let fragment_slots: Vec<i16> = (0..(program.fragment.interface.var_hi + 1).max(0) as usize)
        .map(|f| program.var_remap.get(f).copied().unwrap_or(-1))
        .collect();
    let varying_count = fragment_slots.len() * 4;
    let n = layout.input.vertices();
    // Every input primitive's vertices, in the geometry shader's slot layout.
    let count = geometry.primitives.len() / n;
    let mut in_positions = Vec::with_capacity(count * n);
    let mut in_varyings = Vec::with_capacity(count * n * gs_stride);
    for &index in &geometry.primitives[..count * n] {
        let index = index as usize;
        in_positions.push(
            positions
                .get(index)
                .copied()
                .unwrap_or([0.0, 0.0, 0.0, 1.0]),
        );
        for &vslot in &link.input_remap[..gs_stride] {
            in_varyings.push(match usize::try_from(vslot) {
                Ok(vslot) if vslot < vs_stride => varyings
                    .get(index * vs_stride + vslot)
                    .copied()
                    .unwrap_or([0.0; 4]),
                _ => [0.0; 4],
            });
        }
    }
    let primitives: Vec<PrimitiveInput<'_>> = (0..count)
        .map(|id| PrimitiveInput {
            positions: &in_positions[id * n..(id + 1) * n],
            varyings: &in_varyings[id * n * gs_stride..(id + 1) * n * gs_stride],
            stride: gs_stride,
            primitive_id: id as u32,
        })
        .collect();
    let plan = Plan::new_geometry(&link.shader)
        .expect("linked shaders are verified")
        .bind(geometry_uniforms, &[]);
    let first = draw.state.provoking_vertex == ProvokingVertex::First;
    let assemble = Assemble {
        output: layout.output,
        first,
        fragment_slots: &fragment_slots,
    };
    // Batches of 64 primitives on the pool's threads; `collect` keeps them in order,
    // so the result does not depend on the thread count.
    let parts: Vec<EmittedPrimitives> = primitives
        .par_chunks(MAX_LANES)
        .enumerate()
        .map_init(
            || (plan.registers(), GeometryLanes::default(), Vec::new()),
            |(regs, lanes, emitted), (batch, chunk)| {
                emitted.resize_with(chunk.len(), Emitted::default);
                plan.run_geometry(regs, lanes, chunk, &NoSamplers, emitted);
                let mut part = EmittedPrimitives::default();
                for (k, e) in emitted.iter().enumerate() {
                    assemble.append(&mut part, (batch * MAX_LANES + k) as u32, e);
                }
                part
            },
        )
        .collect();
    let mut out = EmittedPrimitives {
        output: Some(layout.output),
        varying_count,
        ..EmittedPrimitives::default()
    };
    for part in parts {
        let base = out.vertex_count() as u32;
        out.records.extend_from_slice(&part.records);
        out.primitives
            .extend(part.primitives.iter().map(|&v| base + v));
        out.sources.extend_from_slice(&part.sources);
    }
    out
}

/// How one invocation's [`Emitted`] vertices join the draw's [`EmittedPrimitives`].
struct Assemble<'a> {
    output: OutputPrimitive,
    /// The first-vertex provoking convention.
    first: bool,
    /// Per fragment slot, the geometry shader's output slot that feeds it (negative:
    /// none, zeros).
    fragment_slots: &'a [i16],
}

impl Assemble<'_> {
    /// Append input primitive `id`'s emitted vertices and their primitives to `out`
    /// (indices relative to `out`'s own vertices).
    fn append(&self, out: &mut EmittedPrimitives, id: u32, emitted: &Emitted) {
        let base = out.sources.len() as u32;
        for v in 0..emitted.len() {
            out.records.extend_from_slice(&emitted.positions[v]);
            let slots = emitted.vertex_varyings(v);
            for &s in self.fragment_slots {
                let value = usize::try_from(s)
                    .ok()
                    .and_then(|s| slots.get(s).copied())
                    .unwrap_or([0.0; 4]);
                out.records.extend_from_slice(&value);
            }
            out.sources.push((id, v as u32));
        }
        for strip in &emitted.strips {
            for (i, t) in Emitted::primitives(self.output, strip.clone()).enumerate() {
                let t = t.map(|v| base + v);
                match self.output {
                    OutputPrimitive::TriangleStrip => {
                        // The provoking vertex: the strip's i+2 (last convention) is
                        // t[2]; its i (first convention) is t[0] for even i, t[1] for odd.
                        let p = match (self.first, i % 2) {
                            (false, _) => 2,
                            (true, 0) => 0,
                            (true, _) => 1,
                        };
                        out.primitives
                            .extend([t[(p + 1) % 3], t[(p + 2) % 3], t[p]]);
                    }
                    OutputPrimitive::LineStrip => out.primitives.extend(&t[..2]),
                    OutputPrimitive::Points => out.primitives.push(t[0]),
                }
            }
        }
    }
}

/// The emitted vertices as a [`VertexStage`]: vertex `k` is emitted vertex `k`,
/// copied from its record.
pub struct EmittedVertexStage<'a> {
    emitted: &'a EmittedPrimitives,
    interpolation: Vec<Interpolation>,
}

impl<'a> EmittedVertexStage<'a> {
    /// The stage over `emitted`, each varying float interpolated as `program`'s
    /// fragment inputs are qualified (as [`CsirVertexStage`](super::CsirVertexStage)
    /// does for a draw without a geometry shader).
    pub fn new(program: &Program, draw: &Draw, emitted: &'a EmittedPrimitives) -> Self {
        let mut interpolation = vec![Interpolation::Smooth; emitted.varying_count];
        for rec in &program.varyings {
            let mode = super::vertex_stage::varying_interpolation(rec, draw.state.shade_model);
            let slot_count = program
                .fragment
                .interface
                .find(&rec.name)
                .map_or(1, |s| usize::from(s.slot_count()));
            let start = usize::from(rec.fragment_slot) * 4;
            let end = (start + slot_count * 4).min(interpolation.len());
            interpolation[start.min(end)..end].fill(mode);
        }
        EmittedVertexStage {
            emitted,
            interpolation,
        }
    }
}

impl VertexStage for EmittedVertexStage<'_> {
    type Scratch = ();

    fn new_scratch(&self) {}

    fn varying_count(&self) -> usize {
        self.emitted.varying_count
    }

    fn interpolation(&self) -> &[Interpolation] {
        &self.interpolation
    }

    fn shade_vertex(
        &self,
        _scratch: &mut (),
        index: u32,
        position: &mut [f32; 4],
        varyings: &mut [f32],
    ) {
        let stride = 4 + self.emitted.varying_count;
        let start = index as usize * stride;
        match self.emitted.records.get(start..start + stride) {
            Some(record) => {
                position.copy_from_slice(&record[..4]);
                varyings.copy_from_slice(&record[4..]);
            }
            None => {
                *position = [0.0, 0.0, 0.0, 1.0];
                varyings.fill(0.0);
            }
        }
    }
}
