//! [`trace_pixel`]: render a scene with one pixel watched and explain it.
//!
//! The scene is prepared and drawn exactly as `render` draws it
//! ([`PreparedScene::render_with`], same stages, uniforms and textures); only the draw
//! runner differs: it calls [`Renderer::draw_traced_tile`] (the rasterizer's
//! per-fragment report: triangle, barycentrics, depth test, discard, blend) with the
//! fragment stage wrapped in a [`TracingFragmentStage`] (the shader's inputs and
//! instruction trace). Only the tile holding the pixel is rasterized (tiles are
//! independent, so the pixel gets the colour `render` gives it) and only its storage is
//! allocated: a trace needs one tile's memory at any frame size. The plain render path
//! never sees any of it.

use super::instruction_trace::RecordedRun;
use super::named_value::{NamedValue, format_values, slots_of};
use super::pixel_trace::{
    DrawTrace, FragmentTrace, PixelTrace, QuadPixels, ShaderTrace, StateTrace, VertexTrace,
};
use super::trace_error::TraceError;
use super::tracing_stage::{ShadedFragment, TracingFragmentStage};
use crate::pipeline::{DrawParts, DrawRunner, PreparedScene};
use crate::scene::Scene;
use csir::Program;
use csir::link::VaryingRecord;
use csir_raster::{
    DrawCall, DrawError, DrawStats, FragmentStage, Framebuffer, RasterState, Renderer, TraceEvent,
    VertexStage, alpha_coverage_mask,
};

/// How much of a pixel's story [`trace_pixel_with`] keeps. Everything is still drawn
/// (the colour is the one `render` writes); only the details kept are bounded, so the
/// report's size (and memory) stays bounded under any number of draws or covering
/// triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// Draws shown, the scene's first ones (default [`Self::DEFAULT_DRAWS`]); the rest
    /// are counted in [`PixelTrace::draws_not_shown`].
    pub max_draws: usize,
    /// Fragments shown per draw, the first to reach the pixel (default
    /// [`Self::DEFAULT_FRAGMENTS`]); the rest are counted in
    /// [`DrawTrace::fragments_not_shown`].
    pub max_fragments: usize,
    /// The CSIR profile the scene's shaders are compiled for (default extended, as
    /// `render`'s): trace it as it was rendered.
    pub profile: csir::Profile,
}

impl TraceOptions {
    /// Default draws shown: 64.
    pub const DEFAULT_DRAWS: usize = 64;
    /// Default fragments shown per draw: 16 (a fragment with a 300-instruction shader
    /// prints about 30 KB of text).
    pub const DEFAULT_FRAGMENTS: usize = 16;
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            max_draws: Self::DEFAULT_DRAWS,
            max_fragments: Self::DEFAULT_FRAGMENTS,
            profile: csir::Profile::default(),
        }
    }
}

/// Render `scene` and explain image pixel `pixel = [x, y]` (x right, y down from the
/// top row: the PNG's own coordinates): every draw, every triangle that covered it,
/// the depth test, the fragment shader's inputs and instruction trace, discard and
/// blending, and the final colour, which is the byte `render` writes. Shows at most
/// the [`TraceOptions::default`] draws and fragments per draw; see
/// [`trace_pixel_with`].
///
/// # Errors
/// [`TraceError::PixelOutside`] for a pixel outside the image; [`TraceError::Render`]
/// when the scene does not render.
pub fn trace_pixel(scene: &Scene, pixel: [u32; 2]) -> Result<PixelTrace, TraceError> {
    trace_pixel_with(scene, pixel, &TraceOptions::default())
}

/// [`trace_pixel`] keeping at most `options.max_draws` draws and
/// `options.max_fragments` fragments per draw; what is left out is counted.
///
/// # Errors
/// As [`trace_pixel`].
pub fn trace_pixel_with(
    scene: &Scene,
    pixel: [u32; 2],
    options: &TraceOptions,
) -> Result<PixelTrace, TraceError> {
    let [x, y] = pixel;
    if x >= scene.width || y >= scene.height {
        return Err(TraceError::PixelOutside {
            scene: scene.path.display().to_string(),
            x,
            y,
            width: scene.width,
            height: scene.height,
        });
    }
    if let Some(target) = scene.targets.list.first().filter(|t| t.is_wide()) {
        return Err(TraceError::TargetNotTraced {
            scene: scene.path.display().to_string(),
            format: target.format.name(),
            srgb: if target.framebuffer_srgb {
                " with framebuffer_srgb"
            } else {
                ""
            },
        });
    }
    let window = [x, scene.height - 1 - y];
    let prepared = PreparedScene::new(scene, &options.profile.limits())?;
    if scene.samples > 1 {
        return super::sample_trace::trace_multisampled(&prepared, pixel, window, options);
    }
    let mut framebuffer =
        Framebuffer::new(scene.width, scene.height).map_err(crate::pipeline::RenderError::from)?;
    let mut runner = PixelTracer::new(window, *options, None);
    prepared.render_with(&mut Renderer::new(), &mut framebuffer, &mut runner)?;
    Ok(PixelTrace {
        scene: scene.path.display().to_string(),
        width: scene.width,
        height: scene.height,
        pixel,
        window,
        color: pixel_color(&framebuffer, window),
        draws: runner.draws,
        draws_not_shown: runner.draws_not_shown,
        fragments_in_draws_not_shown: runner.fragments_in_draws_not_shown,
        samples: Vec::new(),
    })
}

/// The draw runner that traces one window pixel through every draw (of one sample's
/// pass, for a multisampled scene).
pub(super) struct PixelTracer {
    window: [u32; 2],
    options: TraceOptions,
    /// The sample whose pass this is (`None`: single-sampled).
    sample: Option<usize>,
    pub(super) draws: Vec<DrawTrace>,
    pub(super) draws_not_shown: usize,
    pub(super) fragments_in_draws_not_shown: u64,
}

impl PixelTracer {
    /// Traces window pixel `window` (y up) in the pass of `sample`, or single-sampled.
    pub(super) fn new(window: [u32; 2], options: TraceOptions, sample: Option<usize>) -> Self {
        PixelTracer {
            window,
            options,
            sample,
            draws: Vec::new(),
            draws_not_shown: 0,
            fragments_in_draws_not_shown: 0,
        }
    }
}

impl DrawRunner for PixelTracer {
    fn run_draw<V: VertexStage, F: FragmentStage>(
        &mut self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        parts: DrawParts<'_>,
        call: &DrawCall<'_, V, F>,
    ) -> Result<DrawStats, DrawError> {
        let before = pixel_color(framebuffer, self.window);
        let shown = self.draws.len() < self.options.max_draws;
        let max_fragments = if shown { self.options.max_fragments } else { 0 };
        let stage = TracingFragmentStage::new(
            call.fragment_stage,
            &parts.program.fragment,
            &parts.bindings.uniforms.fragment,
            &parts.bindings.fragment_samplers,
            self.window,
            max_fragments,
        );
        let traced = DrawCall {
            vertex_stage: call.vertex_stage,
            fragment_stage: &stage,
            vertex_count: call.vertex_count,
            indices: call.indices,
            state: call.state,
            topology: call.topology,
        };
        let (stats, events) = renderer.draw_traced_tile(framebuffer, &traced, self.window)?;
        if !shown {
            self.draws_not_shown += 1;
            self.fragments_in_draws_not_shown += events.len() as u64;
            return Ok(stats);
        }
        let mut shaded = stage.into_shaded().into_iter();
        // In a pass with alpha_to_coverage, the stage drops the samples the alpha does
        // not keep as a discard drops them (raster `SampleMaskStage`).
        let coverage_sample = self
            .sample
            .filter(|_| parts.draw.state.multisample.alpha_to_coverage);
        let fragments = events
            .iter()
            .take(max_fragments)
            .map(|event| {
                let run = if event.shaded { shaded.next() } else { None };
                fragment_trace(parts, call, event, run, coverage_sample)
            })
            .collect();
        let draw = parts.draw;
        self.draws.push(DrawTrace {
            index: draw.index,
            vertex_shader: draw.vertex.path.display().to_string(),
            fragment_shader: draw.fragment.path.display().to_string(),
            state: state_trace(&draw.state.raster),
            before,
            after: pixel_color(framebuffer, self.window),
            fragments,
            fragments_not_shown: events.len().saturating_sub(max_fragments) as u64,
        });
        Ok(stats)
    }
}

/// One fragment: the rasterizer's event, the triangle's vertices and, when shaded, the
/// traced shader run.
fn fragment_trace<V: VertexStage, F>(
    parts: DrawParts<'_>,
    call: &DrawCall<'_, V, F>,
    event: &TraceEvent,
    shaded: Option<ShadedFragment>,
    coverage_sample: Option<usize>,
) -> FragmentTrace {
    let program = parts.program;
    let (varyings, shader) = match shaded {
        Some(s) => (
            named_varyings(program, &s.varyings),
            Some(shader_trace(parts, s, event, coverage_sample)),
        ),
        None => (Vec::new(), None),
    };
    FragmentTrace {
        triangle: event.primitive,
        vertices: triangle_vertices(program, call, event.primitive),
        front_facing: event.front_facing,
        frag_coord: event.frag_coord,
        barycentric: event.barycentric,
        depth: event.depth,
        stencil: event.stencil,
        shaded: event.shaded,
        varyings,
        shader,
        discarded: event.discarded,
        blend: event.blend,
        quad: event.quad.map(|q| QuadPixels {
            pixels: q.pixels,
            helpers: q.helpers,
            traced: q.lane,
        }),
        samples: Vec::new(),
    }
}

/// The traced fragment shader run, checked against what the pipeline's stage did. In
/// the pass of sample `coverage_sample` of a draw with `alpha_to_coverage`, the stage
/// also drops the fragment when its alpha does not keep that sample.
fn shader_trace(
    parts: DrawParts<'_>,
    s: ShadedFragment,
    event: &TraceEvent,
    coverage_sample: Option<usize>,
) -> ShaderTrace {
    let RecordedRun {
        outputs,
        instructions,
        fault,
    } = s.run;
    // A discarded lane of a quad keeps running, so its colour is unspecified.
    let same_color = outputs.color.map(f32::to_bits) == s.stage_color.map(f32::to_bits)
        || (s.quad && outputs.discarded);
    let dropped =
        coverage_sample.is_some_and(|k| alpha_coverage_mask(outputs.color[3]) >> k & 1 == 0);
    let disagreement = (!same_color
        || (outputs.discarded || dropped) != s.stage_discarded
        || s.primitive != event.primitive)
        .then(|| {
            format!(
                "the pipeline's fragment stage gave {} (discarded: {}) for triangle {}",
                format_values(&s.stage_color),
                s.stage_discarded,
                s.primitive
            )
        });
    ShaderTrace {
        shader: parts.draw.fragment.path.display().to_string(),
        output: NamedValue::color_output(&parts.program.fragment, outputs.color),
        discarded: outputs.discarded,
        instructions,
        fault,
        disagreement,
    }
}

/// The input triangle's vertices, shaded again by the draw's vertex stage (the same
/// deterministic computation the rasterizer used).
fn triangle_vertices<V: VertexStage, F>(
    program: &Program,
    call: &DrawCall<'_, V, F>,
    primitive: u32,
) -> Vec<VertexTrace> {
    let first = primitive as usize * 3;
    let indices: Vec<u32> = match call.indices {
        Some(indices) => indices.list().get(first..first + 3).unwrap_or(&[]).to_vec(),
        None => (0..3).map(|k| primitive * 3 + k).collect(),
    };
    let mut scratch = call.vertex_stage.new_scratch();
    let mut flat = vec![0.0; call.vertex_stage.varying_count()];
    indices
        .into_iter()
        .map(|index| {
            let mut position = [0.0; 4];
            call.vertex_stage
                .shade_vertex(&mut scratch, index, &mut position, &mut flat);
            VertexTrace {
                index,
                position,
                varyings: named_varyings(program, &slots_of(&flat)),
            }
        })
        .collect()
}

/// Varyings laid out by fragment slot (the pipeline's layout), by name.
fn named_varyings(program: &Program, slots: &[[f32; 4]]) -> Vec<NamedValue> {
    let patterns = program.fragment.limits.extended_ops();
    program
        .varyings
        .iter()
        .map(|v: &VaryingRecord| {
            let slot = v.fragment_slot as usize;
            NamedValue::from_slots(&v.name, v.ty, None, slots, slot, patterns)
        })
        .collect()
}

fn state_trace(state: &RasterState) -> StateTrace {
    StateTrace {
        depth_test: state.depth_test.name().to_string(),
        depth_write: state.depth_write,
        writes_depth: state.writes_depth(),
        cull: state.cull.name().to_string(),
        blend: state.blend.describe(),
    }
}

/// The RGBA8 colour of window pixel `window` (inside by construction).
pub(super) fn pixel_color(framebuffer: &Framebuffer, [x, y]: [u32; 2]) -> [u8; 4] {
    framebuffer.color(x, y).unwrap_or([0; 4])
}
