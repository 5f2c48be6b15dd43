//! A fragment stage that shades exactly as the pipeline's does and also records, for
//! one pixel, the fragment shader's inputs and its instruction trace.
//!
//! It wraps whatever stage the pipeline uses: every batch is shaded by that stage (so
//! the image is the one `render` makes), and for the lane that is the watched pixel the
//! fragment program runs once more through the scalar interpreter with an
//! [`InstructionRecorder`](super::instruction_trace::InstructionRecorder) watching, on
//! the same interpolated varyings, `gl_FragCoord`, uniforms and textures. The recorded
//! colour is checked against the stage's (the interpreters must agree bit for bit) by
//! the tests.

use super::instruction_trace::{RecordedRun, record_quad_run, run_recorded};
use super::named_value::slots_of;
use csir::Shader;
use csir::exec::{Inputs, QuadMachine, Samplers};
use csir_raster::{FragmentBatch, FragmentOutput, FragmentStage, Triangle};
use std::sync::{Mutex, PoisonError};

/// One shaded fragment of the watched pixel.
#[derive(Clone, Debug)]
pub(crate) struct ShadedFragment {
    /// Input triangle index.
    pub primitive: u32,
    /// Interpolated varyings by fragment slot, as the shader read them.
    pub varyings: Vec<[f32; 4]>,
    /// The traced run.
    pub run: RecordedRun,
    /// The colour the pipeline's stage produced for the same lane.
    pub stage_color: [f32; 4],
    /// Whether the pipeline's stage discarded the lane.
    pub stage_discarded: bool,
    /// The lane ran in a 2×2 quad (the shader takes derivatives), so a discarded
    /// lane's colour is unspecified.
    pub quad: bool,
}

/// The pipeline's fragment stage `F`, watching window pixel `pixel`.
pub(crate) struct TracingFragmentStage<'a, F> {
    inner: &'a F,
    shader: &'a Shader,
    uniforms: &'a [[f32; 4]],
    samplers: &'a dyn Samplers,
    pixel: [u32; 2],
    /// Fragments recorded at most (later ones are shaded but not recorded).
    max_recorded: usize,
    /// Filled from the one worker that rasterizes the pixel's tile, in the order its
    /// fragments are shaded; the lock is taken only for the watched lane.
    shaded: Mutex<Vec<ShadedFragment>>,
}

impl<'a, F: FragmentStage> TracingFragmentStage<'a, F> {
    /// Wrap `inner`, the stage that runs `shader` with these uniform slots and
    /// textures, watching window pixel `pixel` (y up) and recording its first
    /// `max_recorded` shaded fragments (the rest are shaded as usual, not recorded, so
    /// memory stays bounded under any number of covering triangles).
    pub fn new(
        inner: &'a F,
        shader: &'a Shader,
        uniforms: &'a [[f32; 4]],
        samplers: &'a dyn Samplers,
        pixel: [u32; 2],
        max_recorded: usize,
    ) -> Self {
        TracingFragmentStage {
            inner,
            shader,
            uniforms,
            samplers,
            pixel,
            max_recorded,
            shaded: Mutex::new(Vec::new()),
        }
    }

    /// The watched pixel's shaded fragments, in shading order.
    pub fn into_shaded(self) -> Vec<ShadedFragment> {
        self.shaded
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn record(
        &self,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        lane: usize,
        out: &FragmentOutput,
    ) {
        if self
            .shaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
            >= self.max_recorded
        {
            return;
        }
        let lane_inputs = |lane: usize| {
            let mut flat = vec![0.0; triangle.varying_count()];
            triangle.interpolate_lane(batch, lane, &mut flat);
            // gl_PrimitiveID is the primitive's index, not interpolated (as the
            // pipeline's fragment stage writes it)
            if let Some((k, pattern)) = crate::pipeline::primitive_id_input(self.shader)
                && let Some(value) = flat.get_mut(k)
            {
                *value = if pattern {
                    f32::from_bits(triangle.primitive)
                } else {
                    triangle.primitive as f32
                };
            }
            slots_of(&flat)
        };
        let inputs = |varyings, lane: usize| Inputs {
            uniforms: self.uniforms,
            varyings,
            frag_coord: std::array::from_fn(|c| batch.frag_coord[c][lane]),
            front_facing: triangle.front_facing,
            samplers: self.samplers,
            ..Inputs::default()
        };
        let quad = self.inner.needs_quads();
        let (varyings, run) = if quad {
            // The lane's quad: lanes `lane & !3 ..`, in quad order.
            let first = lane & !3;
            let all: [Vec<[f32; 4]>; 4] = std::array::from_fn(|k| lane_inputs(first + k));
            let quad_inputs: [Inputs; 4] = std::array::from_fn(|k| inputs(&all[k], first + k));
            let run = match QuadMachine::new(self.shader) {
                Ok(mut machine) => record_quad_run(&mut machine, &quad_inputs, lane - first),
                Err(_) => run_recorded(self.shader, &quad_inputs[lane - first]),
            };
            (all[lane - first].clone(), run)
        } else {
            let varyings = lane_inputs(lane);
            let run = run_recorded(self.shader, &inputs(&varyings, lane));
            (varyings, run)
        };
        let fragment = ShadedFragment {
            primitive: triangle.primitive,
            varyings,
            run,
            stage_color: std::array::from_fn(|c| out.color[c][lane]),
            stage_discarded: out.discard.contains(lane),
            quad,
        };
        self.shaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(fragment);
    }
}

impl<F: FragmentStage> FragmentStage for TracingFragmentStage<'_, F> {
    type Scratch = F::Scratch;

    fn new_scratch(&self) -> F::Scratch {
        self.inner.new_scratch()
    }

    fn may_discard(&self) -> bool {
        self.inner.may_discard()
    }

    fn needs_quads(&self) -> bool {
        self.inner.needs_quads()
    }

    fn shade(
        &self,
        scratch: &mut F::Scratch,
        triangle: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        self.inner.shade(scratch, triangle, batch, out);
        let [x, y] = self.pixel;
        for lane in 0..batch.len {
            // A helper lane at the pixel is not one of its fragments.
            if batch.pixel_x[lane] == x && batch.pixel_y[lane] == y && !batch.helpers.contains(lane)
            {
                self.record(triangle, batch, lane, out);
            }
        }
    }
}
