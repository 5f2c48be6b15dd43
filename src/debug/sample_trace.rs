//! Tracing a pixel of a multisampled scene (`samples` 4, docs/scene-format.md
//! "Multisampling").
//!
//! `render` draws such a scene once per sample of llvmpipe's pattern, each pass into
//! a single-sampled buffer of its own (`pipeline/multisample.rs`), and resolves the
//! four. The trace runs the same four passes with the pixel watched
//! ([`PixelTracer`] in each) and merges them fragment by fragment: a fragment of the
//! merged trace is one primitive at the pixel, with one [`SampleStep`] per sample
//! (covered or not, its depth and stencil tests, blending into that sample's value),
//! and its shader run shown once, as GL runs it once per pixel at the pixel centre
//! (every pass shades with the centre's inputs; a pass whose run differs from the
//! shown one is flagged as a disagreement). The final colour is the four sample
//! values resolved as `render` resolves them, so it is the rendered byte.

use super::TraceOptions;
use super::pixel_trace::stencil_json;
use super::pixel_trace::{DrawTrace, FragmentTrace, PixelTrace, blend_json, depth_json};
use super::trace_error::TraceError;
use super::trace_pixel::{PixelTracer, pixel_color};
use crate::pipeline::{PreparedScene, sample_framebuffer};
use csir_raster::{
    BlendTrace, DepthTrace, Renderer, SAMPLE_COUNT, SamplePattern, StencilTrace, resolve_unorm8,
};
use serde::Serialize;
use std::collections::BTreeSet;

/// One sample's final value in a multisampled trace.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SampleValue {
    /// The sample's index, 0..4.
    pub sample: usize,
    /// Its position in the pixel, (x, y) in pixels from the lower-left corner
    /// ([`SamplePattern::POSITIONS`]).
    pub position: [f32; 2],
    /// Its RGBA8 value after the last draw.
    pub color: [u8; 4],
}

/// What one sample went through for one fragment of a multisampled trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleStep {
    /// The sample's index, 0..4.
    pub sample: usize,
    /// Whether the primitive covers the sample's position (GL 3.3 §3.6.1's coverage
    /// rule at the sample, §3.3.1). Always `false` when `dropped_by` is
    /// `sample_coverage` (the sample is not rasterized for the draw).
    pub covered: bool,
    /// What dropped a covered sample before the per-sample tests: `sample_coverage`
    /// (the draw's coverage mask excludes it) or `alpha_to_coverage` (the shader's
    /// alpha does not keep it), GL 3.3 §4.1.3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_by: Option<&'static str>,
    /// The sample's depth test, when the draw tests depth.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "depth_json")]
    pub depth: Option<DepthTrace>,
    /// The sample's stencil test and update, when the draw has a stencil test.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "stencil_json"
    )]
    pub stencil: Option<StencilTrace>,
    /// Whether the shader discarded the fragment (for every sample alike).
    pub discarded: bool,
    /// Blending into the sample's value, when the colour was written.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "blend_json")]
    pub blend: Option<BlendTrace>,
}

/// One sample's pass: the tracer's draws and the pixel's value before and after.
struct Pass {
    cleared: [u8; 4],
    tracer: PixelTracer,
    color: [u8; 4],
}

/// [`trace_pixel_with`](super::trace_pixel_with) for a multisampled scene: the four
/// sample passes of target 0, merged (module docs).
///
/// # Errors
/// [`TraceError::Render`] when the scene does not render.
pub(super) fn trace_multisampled(
    prepared: &PreparedScene<'_>,
    pixel: [u32; 2],
    window: [u32; 2],
    options: &TraceOptions,
) -> Result<PixelTrace, TraceError> {
    let scene = prepared.scene();
    let mut passes = Vec::with_capacity(SAMPLE_COUNT);
    for s in 0..SAMPLE_COUNT {
        let mut fb = sample_framebuffer(scene, 0)?;
        let cleared = pixel_color(&fb, window);
        let mut tracer = PixelTracer::new(window, *options, Some(s));
        prepared.draw_sample_with(&mut Renderer::new(), &mut fb, &mut tracer, Some(s))?;
        passes.push(Pass {
            cleared,
            color: pixel_color(&fb, window),
            tracer,
        });
    }
    let colors: [[u8; 4]; SAMPLE_COUNT] = std::array::from_fn(|s| passes[s].color);
    let masks: Vec<u32> = scene
        .draws
        .iter()
        .map(|d| d.state.multisample.coverage_mask())
        .collect();
    Ok(PixelTrace {
        scene: scene.path.display().to_string(),
        width: scene.width,
        height: scene.height,
        pixel,
        window,
        color: resolve(colors),
        draws: merge_draws(&passes, &masks, options.max_fragments),
        draws_not_shown: passes
            .iter()
            .map(|p| p.tracer.draws_not_shown)
            .max()
            .unwrap_or(0),
        fragments_in_draws_not_shown: passes
            .iter()
            .map(|p| p.tracer.fragments_in_draws_not_shown)
            .max()
            .unwrap_or(0),
        samples: (0..SAMPLE_COUNT)
            .map(|s| SampleValue {
                sample: s,
                position: SamplePattern::POSITIONS[s],
                color: colors[s],
            })
            .collect(),
    })
}

/// The four sample values resolved as `render` resolves an RGBA8 target.
fn resolve(colors: [[u8; 4]; SAMPLE_COUNT]) -> [u8; 4] {
    let bytes = resolve_unorm8(colors.each_ref().map(|c| c.as_slice()));
    [bytes[0], bytes[1], bytes[2], bytes[3]]
}

/// A draw call's place: the scene draw's index and which of its runner calls
/// (instances) it is.
type DrawKey = (usize, usize);

/// Each pass's draws keyed by [`DrawKey`], in order.
fn keyed<T>(items: &[T], index: impl Fn(&T) -> usize) -> Vec<((usize, usize), &T)> {
    let mut seen: Vec<(usize, usize)> = Vec::new();
    items
        .iter()
        .map(|item| {
            let i = index(item);
            let nth = match seen.iter_mut().find(|(k, _)| *k == i) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    seen.push((i, 0));
                    0
                }
            };
            ((i, nth), item)
        })
        .collect()
}

/// The passes' draws merged by [`DrawKey`]; a draw a pass skipped (its
/// `sample_coverage` mask, in `masks` by draw index, drops the sample) leaves that
/// sample's value as it was.
fn merge_draws(passes: &[Pass], masks: &[u32], max_fragments: usize) -> Vec<DrawTrace> {
    let per_pass: Vec<Vec<(DrawKey, &DrawTrace)>> = passes
        .iter()
        .map(|p| keyed(&p.tracer.draws, |d| d.index))
        .collect();
    let keys: BTreeSet<DrawKey> = per_pass.iter().flatten().map(|(k, _)| *k).collect();
    let mut current: Vec<[u8; 4]> = passes.iter().map(|p| p.cleared).collect();
    keys.into_iter()
        .map(|key| {
            let draws: Vec<Option<&DrawTrace>> = per_pass
                .iter()
                .map(|p| p.iter().find(|(k, _)| *k == key).map(|(_, d)| *d))
                .collect();
            let before: [[u8; 4]; SAMPLE_COUNT] =
                std::array::from_fn(|s| draws[s].map_or(current[s], |d| d.before));
            let after: [[u8; 4]; SAMPLE_COUNT] =
                std::array::from_fn(|s| draws[s].map_or(current[s], |d| d.after));
            current = after.to_vec();
            let base = draws
                .iter()
                .flatten()
                .next()
                .expect("a key comes from some pass");
            let mask = masks.get(key.0).copied().unwrap_or(u32::MAX);
            let (fragments, total) = merge_fragments(&draws, mask);
            let shown: Vec<FragmentTrace> = fragments.into_iter().take(max_fragments).collect();
            DrawTrace {
                index: base.index,
                vertex_shader: base.vertex_shader.clone(),
                fragment_shader: base.fragment_shader.clone(),
                state: base.state.clone(),
                before: resolve(before),
                after: resolve(after),
                fragments_not_shown: total.saturating_sub(shown.len() as u64),
                fragments: shown,
            }
        })
        .collect()
}

/// One draw's fragments of the four passes merged by primitive (and by occurrence, for
/// a primitive reaching the pixel more than once), with one [`SampleStep`] per sample;
/// and the most fragments any pass saw.
fn merge_fragments(draws: &[Option<&DrawTrace>], mask: u32) -> (Vec<FragmentTrace>, u64) {
    let per_pass: Vec<Vec<(DrawKey, &FragmentTrace)>> = draws
        .iter()
        .map(|d| d.map_or_else(Vec::new, |d| keyed(&d.fragments, |f| f.triangle as usize)))
        .collect();
    let total = draws
        .iter()
        .flatten()
        .map(|d| d.fragments.len() as u64 + d.fragments_not_shown)
        .max()
        .unwrap_or(0);
    let keys: BTreeSet<DrawKey> = per_pass.iter().flatten().map(|(k, _)| *k).collect();
    let fragments = keys
        .into_iter()
        .map(|key| {
            let found: Vec<Option<&FragmentTrace>> = per_pass
                .iter()
                .map(|p| p.iter().find(|(k, _)| *k == key).map(|(_, f)| *f))
                .collect();
            merge_fragment(&found, mask)
        })
        .collect();
    (fragments, total)
}

/// One primitive's fragment in each pass (`None`: it does not cover that sample)
/// merged into one [`FragmentTrace`] with per-sample steps.
fn merge_fragment(found: &[Option<&FragmentTrace>], mask: u32) -> FragmentTrace {
    // The shader run shown: the first pass's that shaded it, else the first pass's.
    let shaded = found.iter().flatten().find(|f| f.shader.is_some());
    let base = *shaded
        .or_else(|| found.iter().flatten().next())
        .expect("a key comes from some pass");
    let mut merged = base.clone();
    let shown_run = base.shader.as_ref();
    // Every pass shades with the pixel centre's inputs: a pass whose run differs is a
    // bug the trace must show, not hide.
    if let Some(shown) = shown_run
        && merged
            .shader
            .as_ref()
            .is_some_and(|s| s.disagreement.is_none())
    {
        let differing = found.iter().enumerate().find_map(|(s, f)| {
            let run = f.and_then(|f| f.shader.as_ref())?;
            (run.output != shown.output || run.discarded != shown.discarded).then_some(s)
        });
        if let (Some(s), Some(shader)) = (differing, merged.shader.as_mut()) {
            shader.disagreement = Some(format!(
                "sample {s}'s pass ran the shader to another result than the one shown"
            ));
        }
    }
    let shader_discarded = shown_run.is_some_and(|s| s.discarded);
    merged.samples = found
        .iter()
        .enumerate()
        .map(|(s, f)| sample_step(s, *f, mask >> s & 1 == 1, shader_discarded))
        .collect();
    merged.shaded = found.iter().flatten().any(|f| f.shaded);
    merged.discarded = shader_discarded;
    merged.depth = None;
    merged.stencil = None;
    merged.blend = None;
    merged
}

/// Sample `s`'s step for a fragment seen in its pass as `fragment`; `in_mask`: the
/// draw's `sample_coverage` keeps the sample.
fn sample_step(
    s: usize,
    fragment: Option<&FragmentTrace>,
    in_mask: bool,
    shader_discarded: bool,
) -> SampleStep {
    let Some(f) = fragment.filter(|_| in_mask) else {
        return SampleStep {
            sample: s,
            covered: false,
            dropped_by: (!in_mask).then_some("sample_coverage"),
            depth: None,
            stencil: None,
            discarded: false,
            blend: None,
        };
    };
    // The pass's stage drops a sample alpha_to_coverage does not keep as a discard.
    let dropped = f.discarded && f.shaded && !shader_discarded;
    SampleStep {
        sample: s,
        covered: true,
        dropped_by: dropped.then_some("alpha_to_coverage"),
        depth: f.depth,
        stencil: f.stencil,
        discarded: f.discarded && !dropped,
        blend: f.blend,
    }
}
