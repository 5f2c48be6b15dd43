//! The vertex program as a [`csir_raster::VertexStage`].

use crate::scene::Draw;
use csir::Program;
use csir::exec::{DEFAULT_ATTRIBUTE, Inputs, Machine, Outputs, Samplers};
use csir_raster::VertexStage;

/// Runs a linked program's vertex shader through the scalar interpreter, once per
/// vertex index.
///
/// Attributes come from the draw by location, widened with (0, 0, 0, 1) as OpenGL
/// does; a location the draw does not supply reads (0, 0, 0, 1). The varyings handed
/// to the rasterizer are laid out by **fragment** slot: 4 floats for each slot
/// `0..=fragment.var_hi`, taken from the vertex slot the link mapped it to (zeros for
/// an unused slot), so the fragment stage reads them with an identity remap.
pub struct CsirVertexStage<'a> {
    program: &'a Program,
    draw: &'a Draw,
    uniforms: &'a [[f32; 4]],
    samplers: &'a dyn Samplers,
    /// Vertex slot for each fragment slot (−1: none).
    slots: Vec<i16>,
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
        let slots = (0..count)
            .map(|f| program.var_remap.get(f).copied().unwrap_or(-1))
            .collect();
        CsirVertexStage {
            program,
            draw,
            uniforms,
            samplers,
            slots,
        }
    }
}

/// Per-thread state of [`CsirVertexStage`].
pub struct VertexScratch<'a> {
    machine: Machine<'a>,
    attributes: Vec<[f32; 4]>,
    outputs: Box<Outputs>,
}

impl<'a> VertexStage for CsirVertexStage<'a> {
    type Scratch = VertexScratch<'a>;

    fn new_scratch(&self) -> VertexScratch<'a> {
        VertexScratch {
            machine: Machine::new(&self.program.vertex)
                .expect("csir::compile and Program::link only give verified shaders"),
            attributes: vec![DEFAULT_ATTRIBUTE; self.program.vertex.limits.attributes],
            outputs: Box::new(Outputs::INITIAL),
        }
    }

    fn varying_count(&self) -> usize {
        self.slots.len() * 4
    }

    fn shade_vertex(
        &self,
        scratch: &mut VertexScratch<'a>,
        index: u32,
        position: &mut [f32; 4],
        varyings: &mut [f32],
    ) {
        for rec in &self.program.attributes {
            if let Some(slot) = scratch.attributes.get_mut(rec.location as usize) {
                *slot = self
                    .draw
                    .attribute(rec.location as u32)
                    .map_or(DEFAULT_ATTRIBUTE, |a| a.fetch(index));
            }
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
        *position = scratch.outputs.position;
        for (f, &v) in self.slots.iter().enumerate() {
            let value = usize::try_from(v)
                .ok()
                .and_then(|v| scratch.outputs.varyings.get(v))
                .copied()
                .unwrap_or([0.0; 4]);
            varyings[f * 4..f * 4 + 4].copy_from_slice(&value);
        }
    }
}
