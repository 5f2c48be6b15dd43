//! [`DrawState`] helpers: the common states by name (`DrawState::alpha_blend()`, …)
//! and one setter per `state` key of `docs/scene-format.md`, each taking the typed
//! value the key names. A new state key is one more setter here.

use super::super::{DrawState, PolygonMode, ProvokingVertex, ShadeModel};
use csir_raster::{
    BlendFunction, BlendMode, CullMode, DepthTest, PolygonOffset, StencilFace, StencilState,
};

impl DrawState {
    /// `alpha_to_coverage` (`GL_SAMPLE_ALPHA_TO_COVERAGE`, GL 3.3 §4.1.3).
    pub fn alpha_to_coverage(mut self, on: bool) -> DrawState {
        self.multisample.alpha_to_coverage = on;
        self
    }

    /// `sample_coverage`: `glSampleCoverage(value, invert)` with
    /// `GL_SAMPLE_COVERAGE` (GL 3.3 §4.1.3); `value` in 0..=1.
    pub fn sample_coverage(mut self, value: f32, invert: bool) -> DrawState {
        self.multisample.sample_coverage = Some(super::super::SampleCoverage { value, invert });
        self
    }

    /// `blend: "alpha"` (`glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)`), the
    /// rest the default state (depth test `less`, depth write on).
    pub fn alpha_blend() -> DrawState {
        DrawState::default().blend(BlendMode::Alpha)
    }

    /// `blend: "additive"` (`glBlendFunc(GL_ONE, GL_ONE)`), the rest the default.
    pub fn additive_blend() -> DrawState {
        DrawState::default().blend(BlendMode::Additive)
    }

    /// `depth_test: "none"`: no depth test and so no depth writes, the rest the
    /// default (a 2D overlay, a full-screen pass).
    pub fn no_depth() -> DrawState {
        DrawState::default().depth_test(DepthTest::Disabled)
    }

    /// `cull: "back"`: back faces culled (counter-clockwise front faces), the rest
    /// the default.
    pub fn cull_back() -> DrawState {
        DrawState::default().cull(CullMode::Back)
    }

    /// `depth_test` (GL 3.3 §4.1.6; [`DepthTest::Disabled`] is `"none"`).
    pub fn depth_test(mut self, test: DepthTest) -> DrawState {
        self.raster.depth_test = test;
        self
    }

    /// `depth_write` (`glDepthMask`).
    pub fn depth_write(mut self, write: bool) -> DrawState {
        self.raster.depth_write = write;
        self
    }

    /// `cull` (`glCullFace`; counter-clockwise front faces).
    pub fn cull(mut self, cull: CullMode) -> DrawState {
        self.raster.cull = cull;
        self
    }

    /// `blend` by mode (`"none"`, `"alpha"`, `"additive"`) or as a
    /// [`BlendMode::Function`].
    pub fn blend(mut self, blend: BlendMode) -> DrawState {
        self.raster.blend = blend;
        self
    }

    /// `blend` as an object of factors, equations and colour (GL 3.3 §4.1.8), made a
    /// named mode when it is one, as the loader does ([`BlendMode::from_function`]).
    pub fn blend_function(self, function: BlendFunction) -> DrawState {
        self.blend(BlendMode::from_function(function))
    }

    /// `color_mask` `[r, g, b, a]` (`glColorMask`).
    pub fn color_mask(mut self, mask: [bool; 4]) -> DrawState {
        self.raster.color_mask = mask;
        self
    }

    /// `scissor` `[x, y, width, height]` in pixels from the bottom-left corner; it must
    /// lie inside the framebuffer ([`Scene::validate`](super::super::Scene::validate)).
    pub fn scissor(mut self, rect: [u32; 4]) -> DrawState {
        self.raster.scissor = Some(rect);
        self
    }

    /// `viewport` `[x, y, width, height]` (`glViewport`), width and height at least 1.
    pub fn viewport(mut self, rect: [i32; 4]) -> DrawState {
        self.raster.viewport = Some(rect);
        self
    }

    /// `depth_range` `[near, far]`, each clamped to [0, 1] as `glDepthRange` does
    /// (GL 3.3 §2.13.1); NaN stays NaN and is refused by `validate`.
    pub fn depth_range(mut self, near: f32, far: f32) -> DrawState {
        self.raster.depth_range = [near.clamp(0.0, 1.0), far.clamp(0.0, 1.0)];
        self
    }

    /// `polygon_offset` `{ factor, units }` (`glPolygonOffset`, GL 3.3 §3.6.5).
    pub fn polygon_offset(mut self, factor: f32, units: f32) -> DrawState {
        self.raster.polygon_offset = Some(PolygonOffset { factor, units });
        self
    }

    /// `stencil` with one face state for front and back (`glStencilFunc`,
    /// `glStencilOp`, `glStencilMask`; GL 3.3 §4.1.4).
    pub fn stencil(self, face: StencilFace) -> DrawState {
        self.stencil_separate(face, face)
    }

    /// `stencil` `{ "front": …, "back": … }` (`glStencilFuncSeparate`, …): back faces
    /// are back-facing triangles; points and lines are front.
    pub fn stencil_separate(mut self, front: StencilFace, back: StencilFace) -> DrawState {
        self.raster.stencil = Some(StencilState { front, back });
        self
    }

    /// `depth_clamp` (`GL_DEPTH_CLAMP`, GL 3.3 §2.20): no near/far clipping, depth
    /// clamped to the depth range.
    pub fn depth_clamp(mut self, on: bool) -> DrawState {
        self.raster.depth_clamp = on;
        self
    }

    /// `two_sided_color` (`GL_VERTEX_PROGRAM_TWO_SIDE`).
    pub fn two_sided_color(mut self, on: bool) -> DrawState {
        self.two_sided_color = on;
        self
    }

    /// `shade_model` (`glShadeModel`).
    pub fn shade_model(mut self, model: ShadeModel) -> DrawState {
        self.shade_model = model;
        self
    }

    /// `provoking_vertex` (`glProvokingVertex`).
    pub fn provoking_vertex(mut self, vertex: ProvokingVertex) -> DrawState {
        self.provoking_vertex = vertex;
        self
    }

    /// `point_size` (`glPointSize`, above 0).
    pub fn point_size(mut self, size: f32) -> DrawState {
        self.points_lines.point_size = size;
        self
    }

    /// `program_point_size` (`GL_PROGRAM_POINT_SIZE`: the shader's `gl_PointSize`).
    pub fn program_point_size(mut self, on: bool) -> DrawState {
        self.points_lines.program_point_size = on;
        self
    }

    /// `line_width` (`glLineWidth`, above 0).
    pub fn line_width(mut self, width: f32) -> DrawState {
        self.points_lines.line_width = width;
        self
    }

    /// `polygon_mode` (`glPolygonMode(GL_FRONT_AND_BACK, mode)`).
    pub fn polygon_mode(mut self, mode: PolygonMode) -> DrawState {
        self.points_lines.polygon_mode = mode;
        self
    }
}
