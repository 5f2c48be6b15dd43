//! The fragment program as a [`csir_raster::FragmentStage`].

use csir::exec::{Inputs, Machine, Outputs, Samplers};
use csir::{Op, Program};
use csir_raster::{FragmentBatch, FragmentOutput, FragmentStage, LaneArray, MAX_LANES, Triangle};

/// Runs a linked program's fragment shader through the scalar interpreter, one lane
/// of each batch at a time.
///
/// Varyings arrive from [`CsirVertexStage`](super::CsirVertexStage) laid out by
/// fragment slot and are interpolated perspective-correctly by the rasterizer's
/// barycentrics; `gl_FragCoord` is the batch's (window-space pixel centre, depth in
/// [0, 1], 1/w).
pub struct CsirFragmentStage<'a> {
    program: &'a Program,
    uniforms: &'a [[f32; 4]],
    samplers: &'a dyn Samplers,
    may_discard: bool,
}

impl<'a> CsirFragmentStage<'a> {
    /// The fragment stage of `program` with this stage's uniform slots and textures.
    pub fn new(program: &'a Program, uniforms: &'a [[f32; 4]], samplers: &'a dyn Samplers) -> Self {
        let may_discard = program
            .fragment
            .ir
            .iter()
            .any(|i| i.op == Op::Discard.code());
        CsirFragmentStage {
            program,
            uniforms,
            samplers,
            may_discard,
        }
    }
}

/// Per-thread state of [`CsirFragmentStage`].
pub struct FragmentScratch<'a> {
    machine: Machine<'a>,
    interpolated: Vec<LaneArray>,
    varyings: Vec<[f32; 4]>,
    outputs: Box<Outputs>,
}

impl<'a> FragmentStage for CsirFragmentStage<'a> {
    type Scratch = FragmentScratch<'a>;

    fn new_scratch(&self) -> FragmentScratch<'a> {
        let slots = (self.program.fragment.interface.var_hi + 1).max(0) as usize;
        FragmentScratch {
            machine: Machine::new(&self.program.fragment)
                .expect("csir::compile and Program::link only give verified shaders"),
            interpolated: vec![[0.0; MAX_LANES]; slots * 4],
            varyings: vec![[0.0; 4]; slots],
            outputs: Box::new(Outputs::INITIAL),
        }
    }

    fn may_discard(&self) -> bool {
        self.may_discard
    }

    fn shade(
        &self,
        scratch: &mut FragmentScratch<'a>,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        let count = triangle.varying_count().min(scratch.interpolated.len());
        triangle.interpolate(batch, &mut scratch.interpolated[..count]);
        for lane in 0..batch.len {
            for (k, v) in scratch.interpolated[..count].iter().enumerate() {
                scratch.varyings[k / 4][k % 4] = v[lane];
            }
            let inputs = Inputs {
                uniforms: self.uniforms,
                varyings: &scratch.varyings,
                frag_coord: std::array::from_fn(|c| batch.frag_coord[c][lane]),
                samplers: self.samplers,
                ..Inputs::default()
            };
            let _ = scratch.machine.run(&inputs, &mut scratch.outputs);
            if scratch.outputs.discarded {
                out.discard.insert(lane);
            }
            for c in 0..4 {
                out.color[c][lane] = scratch.outputs.color[c];
            }
        }
    }
}
