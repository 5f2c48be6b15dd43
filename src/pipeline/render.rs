//! Rendering a whole scene: prepare every draw once (compile, link, bind), then
//! render frames into a framebuffer on a rayon pool of the requested size.

use super::bindings::DrawBindings;
use super::draw_runner::{DrawParts, DrawRunner, PlainDraw};
use super::fragment_stage::CsirFragmentStage;
use super::program::ProgramCache;
use super::vertex_source::attribute_type_error;
use super::vertex_stage::{CsirVertexStage, clip_plane_error};
use crate::image_io::Rgba8Image;
use crate::scene::{Draw, Scene, SceneError};
use csir::exec::Samplers as _;
use csir::exec::batch::{BoundPlan, Plan};
use csir::{Limits, Program};
use csir_raster::{
    DrawCall, DrawError, DrawStats, FragmentStage, Framebuffer, FramebufferError, Indices,
    RasterState, Renderer, SampleMaskStage, SamplePattern,
};
use std::sync::Arc;
use thiserror::Error;

/// How to render.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Worker threads for vertex shading and tiles; `None` = rayon's default (one per
    /// CPU). The image does not depend on it.
    pub threads: Option<usize>,
    /// Shader limits; default: the renderer's profile, the extended one
    /// ([`csir::Profile::default`]).
    pub limits: Limits,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            threads: None,
            limits: csir::Profile::default().limits(),
        }
    }
}

/// Why a scene could not be rendered. Nothing is written when this is returned.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The scene is wrong (a shader does not compile or link, a uniform or sampler
    /// does not match the program, ...); the error names the file and the JSON field.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The rasterizer refused a draw.
    #[error("{scene}: draws[{draw}]: {source}")]
    Draw {
        /// Scene file.
        scene: String,
        /// Draw index.
        draw: usize,
        /// What the rasterizer said.
        source: DrawError,
    },
    /// The framebuffer size is not allowed.
    #[error("{0}")]
    Framebuffer(#[from] FramebufferError),
    /// The worker thread pool could not be created.
    #[error("cannot start {threads} render threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The reason.
        message: String,
    },
}

/// One draw's statistics in a rendered frame.
#[derive(Clone, Debug, Default)]
pub struct DrawSummary {
    /// The rasterizer's counts (vertices shaded, triangles in/culled/clipped,
    /// fragments shaded/written ...).
    pub stats: DrawStats,
}

/// A rendered frame: the image and what each draw did.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The colour buffer read back: the scene's size, RGBA8, top row first (as the PNG
    /// is written).
    pub image: Rgba8Image,
    /// Per-draw statistics, in draw order.
    pub draws: Vec<DrawSummary>,
    /// Every colour target read back, in attachment order, for a scene with
    /// `targets` or `framebuffer_srgb` (`pipeline/targets.rs`); empty otherwise,
    /// where `image` is the one RGBA8 target.
    pub targets: Vec<super::targets::TargetImage>,
}

impl Frame {
    /// Triangles submitted by all draws.
    pub fn triangles(&self) -> u64 {
        self.draws.iter().map(|d| d.stats.triangles_in).sum()
    }
}

/// A scene with every draw compiled, linked and bound, ready to render any number
/// of frames (the work done once per scene, not per frame).
pub struct PreparedScene<'s> {
    scene: &'s Scene,
    draws: Vec<PreparedDraw<'s>>,
    limits: Limits,
}

struct PreparedDraw<'s> {
    draw: &'s Draw,
    program: Arc<Program>,
    bindings: DrawBindings<'s>,
    /// The fragment shader's batch plan (shared by the draws of one program) ...
    plan: Arc<Plan>,
    /// ... bound to the draw's fragment uniforms (again after each `set_uniform`).
    fragment: BoundPlan,
    /// The draw's indices, scanned once here rather than in every frame.
    indices: Indices<'s>,
}

impl<'s> PreparedScene<'s> {
    /// Compile, link and bind every draw of `scene`.
    ///
    /// Errors: the first [`SceneError`] in draw order.
    pub fn new(scene: &'s Scene, limits: &Limits) -> Result<Self, SceneError> {
        Self::with_cache(scene, limits, &mut ProgramCache::new())
    }

    /// [`new`](Self::new), taking programs from `cache` and adding the ones it compiles,
    /// so that scenes drawn one after another with the same shaders (the draws of a
    /// `.shader_test` script) compile them once.
    ///
    /// Errors: the first [`SceneError`] in draw order.
    pub fn with_cache(
        scene: &'s Scene,
        limits: &Limits,
        cache: &mut ProgramCache,
    ) -> Result<Self, SceneError> {
        Self::for_output(scene, limits, cache, 0)
    }

    /// [`with_cache`](Self::with_cache) with every fragment shader's output at
    /// `layout(location = output)` as its colour output: the draws of target
    /// `output`'s pass (`pipeline/targets.rs`).
    ///
    /// Errors: the first [`SceneError`] in draw order.
    pub fn for_output(
        scene: &'s Scene,
        limits: &Limits,
        cache: &mut ProgramCache,
        output: u16,
    ) -> Result<Self, SceneError> {
        let mut draws = Vec::with_capacity(scene.draws.len());
        for draw in &scene.draws {
            let (mut program, mut plan) = cache.get_with_plan(scene, draw, limits)?;
            super::targets::check_outputs(scene, draw, &program)?;
            if output != 0 {
                program = Arc::new(super::targets::select_output(&program, output));
                plan = Arc::new(super::fragment_stage::CsirFragmentStage::plan(&program));
            }
            if let Some(message) = clip_plane_error(&program, draw) {
                return Err(scene.error(format!("{}.state.clip_planes", draw.field()), message));
            }
            if let Some((field, message)) = attribute_type_error(&program, draw) {
                return Err(scene.error(field, message));
            }
            if let Some((key, message)) = super::geometry_stage::draw_error(&program, draw) {
                return Err(scene.error(format!("{}.{key}", draw.field()), message));
            }
            let bindings = DrawBindings::new(scene, draw, &program)?;
            let fragment = plan.bind_lod(
                &bindings.uniforms.fragment,
                &[],
                bindings.fragment_samplers.needs_lod(),
            );
            draws.push(PreparedDraw {
                draw,
                program,
                bindings,
                plan,
                fragment,
                indices: Indices::new(&draw.indices),
            });
        }
        Ok(PreparedScene {
            scene,
            draws,
            limits: *limits,
        })
    }

    /// The shader limits the scene was prepared under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Notes on the draws' vertex inputs, in draw order: a shader input no attribute
    /// feeds (it reads (0, 0, 0, 1)), an attribute no input reads. Each line starts with
    /// the draw's field (`draws[1]: …`). Neither is an error in OpenGL.
    pub fn vertex_input_notes(&self) -> Vec<String> {
        self.draws
            .iter()
            .flat_map(|d| super::notes::vertex_input_notes(d.draw, &d.program))
            .collect()
    }

    /// The scene this was prepared from.
    pub fn scene(&self) -> &'s Scene {
        self.scene
    }

    /// Draw `draw`'s linked program, or `None` past the scene's draw count.
    pub fn program(&self, draw: usize) -> Option<&Program> {
        self.draws.get(draw).map(|d| d.program.as_ref())
    }

    /// Whether draw `draw`'s linked program declares the non-sampler uniform `name`
    /// (a plain name, without `[INDEX]`), in either stage.
    ///
    /// Panics if `draw` is not below the scene's draw count.
    pub fn declares_uniform(&self, draw: usize, name: &str) -> bool {
        self.draws[draw].program.uniform(name).is_some()
    }

    /// Set uniform `key` of draw `draw` to `values` for every frame rendered from now
    /// on, exactly as the scene's `draws[draw].uniforms.KEY` entry would (same key
    /// syntax, float counts and conversions); the [`Scene`] itself is not changed.
    /// This is how to animate a prepared scene between frames without preparing it
    /// again.
    ///
    /// Errors: those of a scene's uniform entry (a key the program does not declare, a
    /// sampler, a wrong float count, an index past the end of an array), naming
    /// `draws[draw].uniforms.KEY`. Panics if `draw` is not below the scene's draw count.
    pub fn set_uniform(
        &mut self,
        draw: usize,
        key: &str,
        values: &[f32],
    ) -> Result<(), SceneError> {
        let d = &mut self.draws[draw];
        d.bindings
            .set_uniform(self.scene, d.draw, &d.program, key, values)?;
        d.fragment = d.plan.bind_lod(
            &d.bindings.uniforms.fragment,
            &[],
            d.bindings.fragment_samplers.needs_lod(),
        );
        Ok(())
    }

    /// Clear `framebuffer` and run every draw into it, in order. The framebuffer may
    /// have any size: the viewport is the whole framebuffer, and the scene's `width` and
    /// `height` only size the one [`render`](Self::render) makes.
    pub fn render_into(
        &self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
    ) -> Result<Vec<DrawSummary>, RenderError> {
        self.render_with(renderer, framebuffer, &mut PlainDraw)
    }

    /// [`render_into`](Self::render_into), handing each draw's call to `runner`
    /// instead of straight to [`Renderer::draw`] (a pixel tracer uses it to call
    /// [`Renderer::draw_traced`] with the same stages and bindings).
    pub fn render_with<R: DrawRunner>(
        &self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        runner: &mut R,
    ) -> Result<Vec<DrawSummary>, RenderError> {
        framebuffer.clear(self.scene.clear_color, self.scene.clear_depth);
        framebuffer.clear_stencil(self.scene.clear_stencil);
        self.draw_with(renderer, framebuffer, runner)
    }

    /// Run every draw into `framebuffer`, in order, on top of what it holds: no clear
    /// (the scene's `clear_color` and `clear_depth` are not used). Each draw's call goes
    /// to `runner`, as in [`render_with`](Self::render_with).
    pub fn draw_with<R: DrawRunner>(
        &self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        runner: &mut R,
    ) -> Result<Vec<DrawSummary>, RenderError> {
        self.draw_sample_with(renderer, framebuffer, runner, None)
    }

    /// [`draw_with`](Self::draw_with) as the pass of sample `sample` (0..4) of a
    /// multisampled scene (`pipeline/multisample.rs`), or single-sampled for `None`:
    /// each draw rasterizes that sample ([`csir_raster::RasterState::sample_offset`]),
    /// through [`SampleMaskStage`] when it has `alpha_to_coverage`, and a draw whose
    /// `sample_coverage` drops the sample is skipped (its summary is empty).
    pub fn draw_sample_with<R: DrawRunner>(
        &self,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        runner: &mut R,
        sample: Option<usize>,
    ) -> Result<Vec<DrawSummary>, RenderError> {
        let mut summaries = Vec::with_capacity(self.draws.len());
        for d in &self.draws {
            let mut state = d.draw.state.raster;
            let mut alpha_to_coverage = None;
            if let Some(s) = sample {
                let multisample = &d.draw.state.multisample;
                if multisample.coverage_mask() >> s & 1 == 0 {
                    summaries.push(DrawSummary::default());
                    continue;
                }
                state.sample_offset = SamplePattern::offset(s);
                alpha_to_coverage = multisample.alpha_to_coverage.then_some(s);
            }
            let program: &Program = &d.program;
            let fs = CsirFragmentStage::bound(program, &d.fragment, &d.bindings.fragment_samplers);
            let stats = match alpha_to_coverage {
                None => self.run_draw(d, state, &fs, renderer, framebuffer, runner)?,
                Some(s) => {
                    let masked = SampleMaskStage::new(&fs, s);
                    self.run_draw(d, state, &masked, renderer, framebuffer, runner)?
                }
            };
            summaries.push(DrawSummary { stats });
        }
        Ok(summaries)
    }

    /// Draw `d` with `state` and fragment stage `fs`: its geometry shader's output, or
    /// each of its instances.
    fn run_draw<R: DrawRunner, F: FragmentStage>(
        &self,
        d: &PreparedDraw<'s>,
        state: RasterState,
        fs: &F,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        runner: &mut R,
    ) -> Result<DrawStats, RenderError> {
        let program: &Program = &d.program;
        if let Some(geometry) = &d.draw.geometry {
            return self.draw_geometry(d, geometry, state, fs, renderer, framebuffer, runner);
        }
        let mut vs = CsirVertexStage::new(
            program,
            d.draw,
            &d.bindings.uniforms.vertex,
            &d.bindings.vertex_samplers,
        );
        let parts = DrawParts {
            draw: d.draw,
            program,
            bindings: &d.bindings,
        };
        // An instanced draw is its instances drawn one after another, each complete
        // before the next (GL 3.3 core §2.8.2 defines it as that loop).
        let mut stats = DrawStats::default();
        for instance in 0..d.draw.instances {
            vs.set_instance(instance);
            let call = DrawCall {
                vertex_stage: &vs,
                fragment_stage: fs,
                vertex_count: d.draw.vertex_count,
                indices: Some(d.indices),
                state,
                topology: vs.topology(d.draw),
            };
            let one = runner
                .run_draw(renderer, framebuffer, parts, &call)
                .map_err(|source| RenderError::Draw {
                    scene: self.scene.path.display().to_string(),
                    draw: d.draw.index,
                    source,
                })?;
            stats = add_stats(stats, one);
        }
        Ok(stats)
    }

    /// Draw `d`, which has a geometry shader (`geometry_stage.rs`): the emitted
    /// triangles through `runner`.
    #[allow(clippy::too_many_arguments)]
    fn draw_geometry<R: DrawRunner, F: FragmentStage>(
        &self,
        d: &PreparedDraw<'s>,
        geometry: &crate::scene::GeometryDraw,
        state: RasterState,
        fs: &F,
        renderer: &mut Renderer,
        framebuffer: &mut Framebuffer,
        runner: &mut R,
    ) -> Result<csir_raster::DrawStats, RenderError> {
        let program: &Program = &d.program;
        let emitted = super::run_geometry(
            program,
            d.draw,
            geometry,
            &d.bindings.uniforms.vertex,
            &d.bindings.uniforms.geometry,
            &d.bindings.vertex_samplers,
        );
        let vs = super::EmittedVertexStage::new(program, d.draw, &emitted);
        let call = DrawCall {
            vertex_stage: &vs,
            fragment_stage: fs,
            vertex_count: emitted.vertex_count() as u32,
            indices: Some(Indices::new(&emitted.primitives)),
            state,
            // the emitted triangle strips' triangles (points and line strips are refused
            // when the draw is prepared)
            topology: csir_raster::Topology::Triangles,
        };
        let parts = DrawParts {
            draw: d.draw,
            program,
            bindings: &d.bindings,
        };
        runner
            .run_draw(renderer, framebuffer, parts, &call)
            .map_err(|source| RenderError::Draw {
                scene: self.scene.path.display().to_string(),
                draw: d.draw.index,
                source,
            })
    }

    /// Render one frame into a new framebuffer.
    pub fn render(&self, renderer: &mut Renderer) -> Result<Frame, RenderError> {
        if self.scene.samples > 1 {
            return super::multisample::render_multisampled(self, renderer);
        }
        if self.scene.targets.given {
            return super::targets::render_targets(self, renderer);
        }
        let mut fb = Framebuffer::new(self.scene.width, self.scene.height)?;
        let draws = self.render_into(renderer, &mut fb)?;
        let image = Rgba8Image::new(fb.width(), fb.height(), fb.to_rgba8_top_down())
            .expect("a framebuffer is at least 1x1 and reads back all its pixels");
        Ok(Frame {
            image,
            draws,
            targets: Vec::new(),
        })
    }
}

/// The counts of two draws (two instances of one draw) added up.
fn add_stats(a: DrawStats, b: DrawStats) -> DrawStats {
    DrawStats {
        vertices_shaded: a.vertices_shaded + b.vertices_shaded,
        triangles_in: a.triangles_in + b.triangles_in,
        triangles_invalid: a.triangles_invalid + b.triangles_invalid,
        triangles_clipped_away: a.triangles_clipped_away + b.triangles_clipped_away,
        triangles_clipped: a.triangles_clipped + b.triangles_clipped,
        triangles_culled: a.triangles_culled + b.triangles_culled,
        triangles_empty: a.triangles_empty + b.triangles_empty,
        triangles_rasterized: a.triangles_rasterized + b.triangles_rasterized,
        fragments_covered: a.fragments_covered + b.fragments_covered,
        fragments_depth_failed: a.fragments_depth_failed + b.fragments_depth_failed,
        fragments_shaded: a.fragments_shaded + b.fragments_shaded,
        fragments_discarded: a.fragments_discarded + b.fragments_discarded,
        fragments_written: a.fragments_written + b.fragments_written,
    }
}

/// Run `f` on a rayon pool of `threads` workers (or the global pool for `None`).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, RenderError> {
    match threads {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()
                .map_err(|e| RenderError::Threads {
                    threads: n,
                    message: e.to_string(),
                })?;
            Ok(pool.install(f))
        }
    }
}

/// Render `scene` once: check it ([`Scene::validate`], so a scene built or changed in
/// code is held to the rules of a scene file), compile, link, bind, draw, read back.
///
/// Errors: [`RenderError`]; the scene's errors name the file and the JSON field (the
/// scene path of the field, for [`Scene::validate`]'s).
pub fn render_scene(scene: &Scene, options: &RenderOptions) -> Result<Frame, RenderError> {
    scene.validate()?;
    let prepared = PreparedScene::new(scene, &options.limits)?;
    with_threads(options.threads, || prepared.render(&mut Renderer::new()))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{DEFAULT_CUBE_START_ANGLE, default_cube_uniforms};

    fn render(prepared: &PreparedScene) -> Rgba8Image {
        prepared.render(&mut Renderer::new()).unwrap().image
    }

    #[test]
    fn set_uniform_between_frames_matches_a_scene_prepared_with_those_values() {
        let start = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
        let turned = Scene::default_cube(1.0);
        let mut prepared = PreparedScene::new(&start, &Limits::default()).unwrap();
        let first = render(&prepared);
        for u in default_cube_uniforms(1.0, 320.0 / 240.0) {
            prepared.set_uniform(0, &u.key, &u.values).unwrap();
        }
        let expected = render(&PreparedScene::new(&turned, &Limits::default()).unwrap());
        let again = render(&prepared);
        assert_ne!(first, again, "the new matrices must move the cube");
        assert_eq!(again, expected);
        assert!(
            std::ptr::eq(prepared.scene(), &start),
            "the scene is untouched"
        );
    }

    #[test]
    fn set_uniform_reports_what_a_scene_entry_would() {
        let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
        let mut prepared = PreparedScene::new(&scene, &Limits::default()).unwrap();
        assert!(prepared.declares_uniform(0, "uMVP"));
        assert!(
            prepared.declares_uniform(0, "uColor"),
            "fragment-only uniform"
        );
        assert!(!prepared.declares_uniform(0, "uTime"));
        assert!(
            !prepared.declares_uniform(0, "uTex"),
            "a sampler is not a uniform"
        );
        let unknown = prepared.set_uniform(0, "uTime", &[1.0]).unwrap_err();
        assert_eq!(unknown.field, "draws[0].uniforms.uTime");
        let count = prepared.set_uniform(0, "uMVP", &[1.0; 9]).unwrap_err();
        assert_eq!(count.field, "draws[0].uniforms.uMVP");
        assert!(prepared.set_uniform(0, "uTex", &[0.0]).is_err());
    }

    #[test]
    fn render_into_fills_a_framebuffer_of_any_size() {
        let scene = Scene::default_cube(DEFAULT_CUBE_START_ANGLE);
        let prepared = PreparedScene::new(&scene, &Limits::default()).unwrap();
        let mut fb = Framebuffer::new(64, 200).unwrap();
        prepared.render_into(&mut Renderer::new(), &mut fb).unwrap();
        let clear = fb.color(0, 0).unwrap();
        let centre = fb.color(32, 100).unwrap();
        assert_eq!(clear, [26, 26, 31, 255]);
        assert_ne!(centre, clear, "the cube covers the centre");
    }
}
