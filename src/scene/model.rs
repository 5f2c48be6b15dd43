//! The scene as plain data after loading: framebuffer size and clear values, textures,
//! and draws with their shaders, attributes, indices, uniforms, samplers and
//! fixed-function state, with the invariants loading guarantees stated on each type
//! (`docs/scene-format.md`).

use std::path::{Path, PathBuf};

pub use super::point_line_state::{PointLineState, PolygonMode};
use super::vertex_input::{AttributeType, attribute_element};
use super::{Primitive, ProvokingVertex, SceneError};
use crate::compare::ToleranceRule;
use crate::texture::gl33::{GlSampler, GlTexture};
use crate::texture::{Sampler, Texture};
use csir_raster::RasterState;

/// A loaded and validated `csir-scene/1` scene: one frame's framebuffer, textures and
/// draws, with every file it names already read.
///
/// What loading guarantees (so consumers need not re-check): the size is 1..=16384 on
/// each side; every draw has at least one attribute, all attributes hold
/// `vertex_count` vertices, every index is `< vertex_count`, the index count is a multiple
/// of 3; every sampler names an existing texture; all numbers are finite f32. What it
/// cannot check without the compiled program (uniform names, types and float counts,
/// samplers the program declares) is left to the pipeline, which reports it with
/// [`Scene::error`] / [`Draw::uniform_field`] and friends.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The scene file as the caller named it (used in error messages).
    pub path: PathBuf,
    /// Framebuffer width in pixels, 1..=16384.
    pub width: u32,
    /// Framebuffer height in pixels, 1..=16384.
    pub height: u32,
    /// Clear colour, RGBA, default (0, 0, 0, 1); stored as given (the RGBA8
    /// framebuffer clamps it to 0..=1 when it converts).
    pub clear_color: [f32; 4],
    /// Clear depth, default 1.0, clamped to [0, 1] as `glClearDepth` does.
    pub clear_depth: f32,
    /// Clear stencil value (`clear.stencil`), 0..=255, default 0
    /// (`glClearStencil`; the stencil buffer is 8 bits, `depth24_stencil8`).
    pub clear_stencil: u8,
    /// Textures in document order; draws refer to them by index.
    pub textures: Vec<NamedTexture>,
    /// Draws, in the order they are drawn.
    pub draws: Vec<Draw>,
    /// The scene's own bound for matching its reference image (its `expect` block),
    /// or `None` for the project's rule; see [`Scene::tolerance_rule`].
    pub expect: Option<ToleranceRule>,
    /// The colour targets (`targets`, `framebuffer_srgb`; docs/scene-format.md
    /// "Render targets"); by default the one RGBA8 target.
    pub targets: super::targets::Targets,
    /// `seamless_cube_map` (`GL_TEXTURE_CUBE_MAP_SEAMLESS`, default false): linear
    /// lookups on cube maps filter across face edges (docs/csir.md "Seamless cube
    /// maps").
    pub seamless_cube_map: bool,

    /// Samples per pixel (`samples`): 1 (default) or 4 (docs/scene-format.md
    /// "Multisampling").
    pub samples: u32,
}

/// A texture with its scene name.
#[derive(Clone, Debug)]
pub struct NamedTexture {
    /// The key under `textures`.
    pub name: String,
    /// The PNG file it was loaded from (resolved against the scene's folder).
    pub path: PathBuf,
    /// The texels, row 0 = the PNG's bottom row (a 1×1 stand-in when `gl33` holds
    /// the texture).
    pub texture: Texture,
    /// The texture as GL 3.3 has it (`texture::gl33`), when the scene gives it a key
    /// the RGBA8 2D texture has not (`target`, `paths`, `format`, `data`) or a
    /// sampler reads it with GL 3.3 sampler state; `None` keeps the RGBA8 path.
    pub gl33: Option<GlTexture>,
}

/// One draw: a program (vertex + fragment source), its vertices and indices, its
/// uniform and sampler values and its fixed-function state.
#[derive(Clone, Debug)]
pub struct Draw {
    /// Position in the scene's `draws` list (for field paths: `draws[index]`).
    pub index: usize,
    /// The OBJ file of a `mesh` draw (resolved against the scene's folder), `None` when
    /// the scene gives the vertices inline.
    pub mesh: Option<PathBuf>,
    /// The vertex shader.
    pub vertex: ShaderSource,
    /// The fragment shader.
    pub fragment: ShaderSource,
    /// The geometry shader and the input primitives it runs on (`geometry`), if any;
    /// then [`Draw::indices`] is empty and [`Draw::elements`] holds the vertex list.
    pub geometry: Option<super::GeometryDraw>,
    /// Vertex attributes, sorted by location, locations unique. For a `mesh`: location
    /// 0 = position (size 3), 1 = normal (3) if the OBJ has normals, 2 = texcoord (2) if
    /// it has texture coordinates.
    pub attributes: Vec<Attribute>,
    /// Number of vertices every attribute holds (≥ 1).
    pub vertex_count: u32,
    /// Triangle-list indices, each `< vertex_count`, length a multiple of 3, the
    /// provoking vertex of each triangle last: what the rasterizer draws. When the
    /// scene gives none: 0, 1, 2, … up to the last complete triangle (trailing vertices
    /// are ignored, as `glDrawArrays(GL_TRIANGLES)` does). For a mesh: the OBJ's own.
    /// For another `primitive`, or a restart index, or the first-vertex convention: the
    /// triangles [`assemble_primitives`](super::assemble_primitives) makes of
    /// [`Draw::elements`].
    pub indices: Vec<u32>,
    /// The primitive type (`primitive`, default `triangles`).
    pub primitive: Primitive,
    /// `instances` (default 1): how many times the draw is drawn, with `gl_InstanceID`
    /// 0, 1, … (`glDrawArraysInstanced` / `glDrawElementsInstanced`, GL 3.3 core
    /// §2.8.2); 0 draws nothing.
    pub instances: u32,
    /// The vertex list as the scene gives it for `primitive` (its `indices`, or 0, 1,
    /// 2, … every vertex), when it is not `indices` itself: another primitive type, a
    /// restart index or the first-vertex convention. What a GL driver is given.
    pub elements: Option<Vec<u32>>,
    /// `primitive_restart_index` (GL 3.1 §2.8.1): this index value ends a primitive
    /// and starts the next; `None` disables restart.
    pub primitive_restart_index: Option<u32>,
    /// Uniform values in document order, as given (names are checked by the pipeline).
    pub uniforms: Vec<UniformValue>,
    /// Sampler bindings in document order; a sampler's texture unit is its position.
    pub samplers: Vec<SamplerBinding>,
    /// Depth, cull and blend state.
    pub state: DrawState,
}

/// A shader file: GLSL source text, or a compiled CSI blob (a path ending in `.csi`,
/// any case; docs/scene-format.md "Shaders").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderSource {
    /// The file, resolved against the scene's folder (a `<default scene>/…` name for the
    /// built-in scene). Use it as the source name in compiler diagnostics.
    pub path: PathBuf,
    /// The source text (UTF-8); empty for a CSI file.
    pub text: String,
    /// The file's bytes when it is a CSI file (`.csi`), still unchecked: the pipeline
    /// loads them with [`csir::load_csi`] under the render's limits, as untrusted
    /// input. `None` for GLSL.
    pub csi: Option<Vec<u8>>,
}

impl ShaderSource {
    /// A GLSL source named `path`.
    pub fn glsl(path: impl Into<PathBuf>, text: impl Into<String>) -> ShaderSource {
        ShaderSource {
            path: path.into(),
            text: text.into(),
            csi: None,
        }
    }

    /// Whether `path` names a CSI file: its extension is `csi`, in any case.
    pub fn is_csi_path(path: &std::path::Path) -> bool {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csi"))
    }
}

/// One vertex attribute array.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Attribute {
    /// Attribute location, 0..=15 (`layout(location = N)`).
    pub location: u32,
    /// Floats per vertex, 1..=4.
    pub size: u32,
    /// `vertex_count · size` values, vertex after vertex (for a `divisor` > 0, at
    /// least ⌈instances / divisor⌉ elements instead): floats, or for an integer
    /// `ty` the 32-bit patterns in `f32` carriers.
    pub data: Vec<f32>,
    /// The value type (`type`, default `float`).
    pub ty: AttributeType,
    /// `glVertexAttribDivisor` (`divisor`, default 0): 0 reads one element per vertex;
    /// `d > 0` one per `d` instances (GL 3.3 core §2.8.2).
    pub divisor: u32,
}

impl Attribute {
    /// Element `vertex`'s value widened to 4 components, missing ones from (0, 0, 0, 1)
    /// (as integers for an integer array) as OpenGL fills a shader input wider than
    /// the attribute. An element past the array's end reads (0, 0, 0, 1).
    pub fn fetch(&self, vertex: u32) -> [f32; 4] {
        let mut v = self.ty.default_value();
        let size = (self.size as usize).min(4);
        let start = vertex as usize * size;
        if let Some(src) = self.data.get(start..start + size) {
            v[..size].copy_from_slice(src);
        }
        v
    }

    /// What vertex `vertex` of instance `instance` reads: [`Attribute::fetch`] of the
    /// element its divisor picks ([`attribute_element`]).
    pub fn fetch_instanced(&self, vertex: u32, instance: u32) -> [f32; 4] {
        self.fetch(attribute_element(self.divisor, vertex, instance))
    }
}

/// A uniform value as the scene gives it: `key` → floats.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformValue {
    /// The key under `uniforms`: `NAME`, or `NAME[INDEX]` for one element of an array.
    pub key: String,
    /// The floats, in order (column-major for matrices; all elements for a whole
    /// array). A single JSON number gives one float. May be empty: the pipeline checks
    /// the count against the uniform's type.
    pub values: Vec<f32>,
    /// The same values as exact integers, when every one given is an integer (a JSON
    /// integer, a shader_test `uniform int`/`uint` value): an int/uint uniform takes
    /// these, so that a value past 2^24 is not rounded (`docs/scene-format.md`).
    pub ints: Option<Vec<i64>>,
}

impl UniformValue {
    /// A value given as floats only (`ints` is `None`), as a caller that animates or
    /// computes uniforms makes it: `values` in the order [`UniformValue::values`]
    /// describes.
    pub fn floats(key: impl Into<String>, values: Vec<f32>) -> Self {
        UniformValue {
            key: key.into(),
            values,
            ints: None,
        }
    }

    /// The uniform's name: the key without a trailing `[INDEX]`.
    pub fn name(&self) -> &str {
        csir::UniformKey::parse(&self.key).map_or(&self.key, |k| k.name)
    }

    /// The array element the key selects (`uL[1]` → `Some(1)`), `None` for a plain
    /// name. Loading guarantees the key is `NAME` or `NAME[DIGITS]`
    /// ([`csir::UniformKey`]).
    pub fn element(&self) -> Option<usize> {
        csir::UniformKey::parse(&self.key)?.element
    }
}

/// A sampler uniform bound to a texture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerBindingRef<'a> {
    /// The sampler uniform's name.
    pub name: &'a str,
    /// The texture.
    pub texture: &'a Texture,
    /// Filter and wrap.
    pub sampler: Sampler,
    /// The GL 3.3 texture and sampler state, when the binding has them
    /// ([`NamedTexture::gl33`], [`SamplerBinding::gl33`]).
    pub gl33: Option<(&'a GlTexture, GlSampler)>,
    /// The texture's scene name.
    pub texture_name: &'a str,
}

/// A sampler uniform's binding: which texture, with which filter and wrap.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerBinding {
    /// The sampler uniform's name (key under `samplers`).
    pub name: String,
    /// Index into [`Scene::textures`].
    pub texture: usize,
    /// Filter (default nearest) and wrap (default clamp).
    pub sampler: Sampler,
    /// The GL 3.3 sampler state (`wrap_s`, `wrap_t`, `wrap_r`, `clamp_to_border`,
    /// `border_color`, `compare`, the λ and level keys), when the binding gives one
    /// of those keys or its texture is a GL 3.3 texture; `None` keeps the RGBA8 path.
    pub gl33: Option<GlSampler>,
}

/// Fixed-function state of a draw. `Default` is the scene format's default state:
/// depth test `less`, depth write on, no culling, no blending, one-sided colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DrawState {
    /// Depth test, depth mask, face culling and blending, as the rasterizer takes them
    /// (the scene format's names are the enums' `NAMES` tables).
    pub raster: RasterState,
    /// Two-sided colour (`GL_VERTEX_PROGRAM_TWO_SIDE`, GL 2.1 §2.14.1); default off.
    /// When on, the fragments of back-facing triangles read `gl_Color` and
    /// `gl_SecondaryColor` from the vertex shader's `gl_BackColor` and
    /// `gl_BackSecondaryColor` (where it writes them) instead of the front colours.
    pub two_sided_color: bool,
    /// The shade model (`glShadeModel`, GL 2.1 §2.14.7); default smooth. Flat gives
    /// the built-in colours (`gl_Color`, `gl_SecondaryColor`) that are declared
    /// without an interpolation qualifier the provoking vertex's value.
    pub shade_model: ShadeModel,
    /// The enabled user clip planes (`GL_CLIP_PLANEi`, GL 3.0 §2.17); default none.
    pub clip_planes: ClipPlanes,
    /// Which vertex of a primitive gives its flat values (`glProvokingVertex`);
    /// default the last. [`Draw::indices`] already puts it last in each triangle.
    pub provoking_vertex: ProvokingVertex,
    /// Point size and line width (`glPointSize`, `GL_PROGRAM_POINT_SIZE`,
    /// `glLineWidth`).
    pub points_lines: PointLineState,
    /// `alpha_to_coverage` and `sample_coverage` (GL 3.3 §4.1.3).
    pub multisample: super::multisample::MultisampleState,
}

/// Most user clip planes: GL's `GL_MAX_CLIP_PLANES` (`gl_MaxClipDistances`), 8.
pub const MAX_CLIP_PLANES: usize = csir_raster::MAX_CLIP_DISTANCES;

/// The user clip planes of a draw (GL 3.0 §2.17): which of planes `0..8` are enabled,
/// and each one's equation `(a, b, c, d)` in eye coordinates (as `glClipPlane` stores
/// it: transformed by the inverse of the modelview matrix of the time, which
/// shader_runner and scenes leave at identity). A vertex is inside plane `i` where
///
/// - `gl_ClipDistance[i] ≥ 0`, if the vertex shader writes `gl_ClipDistance` (GLSL 1.30
///   §7.1; the equation is not used);
/// - else `(a, b, c, d) · gl_ClipVertex ≥ 0`, if it writes `gl_ClipVertex`;
/// - else `(a, b, c, d) · gl_Position ≥ 0` (GLSL 1.30 §7.1: with neither written, "the
///   coordinate written to gl_Position is used").
#[derive(Clone, Copy, Debug, Default)]
pub struct ClipPlanes {
    /// Plane `i` is enabled where bit `i` is set.
    pub enabled: u8,
    /// Plane `i`'s equation; `(0, 0, 0, 0)` (GL's initial value, which keeps every
    /// point) until set.
    pub equations: [[f32; 4]; MAX_CLIP_PLANES],
}

impl ClipPlanes {
    /// Whether plane `i` is enabled (`false` for `i ≥ 8`).
    pub fn is_enabled(&self, i: usize) -> bool {
        i < MAX_CLIP_PLANES && self.enabled & (1 << i) != 0
    }

    /// The enabled planes' numbers, in increasing order.
    pub fn enabled_planes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..MAX_CLIP_PLANES).filter(|&i| self.is_enabled(i))
    }

    /// Whether any plane is enabled.
    pub fn any(&self) -> bool {
        self.enabled != 0
    }
}

/// Equal when the same planes are enabled with the same equation bits.
impl PartialEq for ClipPlanes {
    fn eq(&self, other: &Self) -> bool {
        let bits = |e: &[[f32; 4]; MAX_CLIP_PLANES]| e.map(|p| p.map(f32::to_bits));
        self.enabled == other.enabled && bits(&self.equations) == bits(&other.equations)
    }
}

impl Eq for ClipPlanes {}

/// The shade model of the built-in colours (GL 2.1 §2.14.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ShadeModel {
    /// `GL_SMOOTH` (the default): interpolated like any varying.
    #[default]
    Smooth,
    /// `GL_FLAT`: the provoking vertex's colour (the last vertex of a triangle) over
    /// the whole triangle.
    Flat,
}

impl ShadeModel {
    /// Every shade model with its scene-format name.
    pub const NAMES: [(&'static str, ShadeModel); 2] =
        [("smooth", ShadeModel::Smooth), ("flat", ShadeModel::Flat)];
}

impl Scene {
    /// An error about `field` of this scene (see [`SceneError::new`]).
    pub fn error(&self, field: impl Into<String>, message: impl Into<String>) -> SceneError {
        SceneError::new(&self.path, field, message)
    }

    /// The rule its render must meet against its reference image: the scene's `expect`
    /// block, or else [`ToleranceRule::PROJECT`].
    pub fn tolerance_rule(&self) -> ToleranceRule {
        self.expect.unwrap_or(ToleranceRule::PROJECT)
    }

    /// The scene file's folder, against which its paths were resolved.
    pub fn folder(&self) -> &Path {
        match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        }
    }

    /// Every file the scene was read from, with what it is: the scene file itself, its
    /// textures, its shaders and its OBJ meshes (each once, in that order). A command
    /// must not write its output over any of them
    /// ([`refuse_inputs`](crate::file_write::refuse_inputs)).
    pub fn input_files(&self) -> Vec<(&Path, &'static str)> {
        let mut files: Vec<(&Path, &'static str)> = vec![(&self.path, "the scene")];
        files.extend(
            self.textures
                .iter()
                .map(|t| (t.path.as_path(), "a texture of the scene")),
        );
        for d in &self.draws {
            files.push((&d.vertex.path, "a shader of the scene"));
            files.push((&d.fragment.path, "a shader of the scene"));
            if let Some(mesh) = &d.mesh {
                files.push((mesh, "a mesh of the scene"));
            }
        }
        let mut seen = Vec::new();
        files.retain(|(p, _)| {
            let new = !seen.contains(p);
            seen.push(*p);
            new
        });
        files
    }

    /// A draw's sampler bindings with their textures resolved, in unit order.
    pub fn sampler_bindings<'a>(
        &'a self,
        draw: &'a Draw,
    ) -> impl Iterator<Item = SamplerBindingRef<'a>> + 'a {
        draw.samplers.iter().filter_map(|b| {
            let named = self.textures.get(b.texture)?;
            Some(SamplerBindingRef {
                name: &b.name,
                texture: &named.texture,
                sampler: b.sampler,
                gl33: named.gl33.as_ref().map(|t| {
                    let state = b.gl33.unwrap_or(GlSampler::from_sampler(b.sampler));
                    (t, state)
                }),
                texture_name: &named.name,
            })
        })
    }
}

impl Draw {
    /// This draw's field path: `draws[i]`.
    pub fn field(&self) -> String {
        format!("draws[{}]", self.index)
    }

    /// The field path of one of its uniforms: `draws[i].uniforms.KEY`.
    pub fn uniform_field(&self, key: &str) -> String {
        format!("draws[{}].uniforms.{key}", self.index)
    }

    /// The field path of one of its samplers: `draws[i].samplers.NAME`.
    pub fn sampler_field(&self, name: &str) -> String {
        format!("draws[{}].samplers.{name}", self.index)
    }

    /// The field path of its vertex shader: `draws[i].vertex`.
    pub fn vertex_field(&self) -> String {
        format!("draws[{}].vertex", self.index)
    }

    /// The field path of its fragment shader: `draws[i].fragment`.
    pub fn fragment_field(&self) -> String {
        format!("draws[{}].fragment", self.index)
    }

    /// The attribute at `location`, if the draw has one.
    pub fn attribute(&self, location: u32) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.location == location)
    }

    /// The uniform value given under `key`, if any.
    pub fn uniform(&self, key: &str) -> Option<&UniformValue> {
        self.uniforms.iter().find(|u| u.key == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csir_raster::{BlendMode, CullMode, DepthTest};

    #[test]
    fn fetch_widens_with_0_0_0_1() {
        let a = Attribute {
            location: 2,
            size: 2,
            data: vec![0.25, 0.5, 0.75, 1.0],
            ..Attribute::default()
        };
        assert_eq!(a.fetch(1), [0.75, 1.0, 0.0, 1.0]);
        assert_eq!(a.fetch(5), [0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn uniform_keys_split_into_name_and_element() {
        let u = |key: &str| UniformValue {
            key: key.into(),
            values: vec![],
            ints: None,
        };
        assert_eq!((u("uL").name(), u("uL").element()), ("uL", None));
        assert_eq!(
            (u("uL[12]").name(), u("uL[12]").element()),
            ("uL", Some(12))
        );
    }

    #[test]
    fn the_default_state_is_the_scene_formats() {
        let s = DrawState::default();
        let r = s.raster;
        assert_eq!(
            (r.depth_test, r.depth_write, r.cull, r.blend),
            (
                DepthTest::Less,
                true,
                CullMode::Disabled,
                BlendMode::Replace
            )
        );
        assert!(r.writes_depth());
        assert!(!s.two_sided_color && !s.clip_planes.any());
        assert_eq!(s.shade_model, ShadeModel::Smooth);
    }
}
