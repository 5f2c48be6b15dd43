//! Scene files: the `csir-scene/1` format (`docs/scene-format.md`), loaded,
//! resolved and validated into plain data for the pipeline.
//!
//! [`Scene::load`] reads the JSON (with serde_json, keeping key order), resolves every
//! path against the scene file's folder, reads the shader sources (GLSL text, or the
//! bytes of a `.csi` file, which the pipeline loads as untrusted CSI: see
//! [`ShaderSource`]), loads PNG textures
//! (flipped: texel row 0 = the PNG's bottom row) and OBJ meshes (`obj`: the subset the reference tool reads), fills
//! in the defaults and checks every rule that does not need the compiled program. An
//! unknown key is an error at its field that suggests the closest valid key
//! (``draws[0].uniform: unknown key; did you mean `uniforms`?``). Errors are
//! [`SceneError`]s naming the scene, the JSON field and the problem; nothing panics,
//! whatever the input.
//!
//! A scene can also be built in code ([`Scene::builder`], `docs/scene-in-code.md`);
//! [`Scene::validate`] holds it to the same rules (one definition each, shared with the
//! loader), naming the field by its scene path (`draws[0].attributes[1].size`).
//!
//! What is left to the pipeline, because it needs the program: that each uniform key
//! names a uniform the program declares (and is not a sampler), that its float count
//! fits the uniform's type, and that every sampler the program uses has a `samplers`
//! entry. It reports those with the same error type:
//!
//! ```no_run
//! # use csir_render::scene::Scene;
//! let scene = Scene::load("reference-images/lit_cube.json")?;
//! for draw in &scene.draws {
//!     // compile draw.vertex.text / draw.fragment.text (draw.vertex.path names them),
//!     // or load draw.vertex.csi with csir::load_csi when it is Some
//!     for u in &draw.uniforms {
//!         let declared = false; // look up u.name() / u.element() in the program
//!         if !declared {
//!             return Err(scene.error(
//!                 draw.uniform_field(&u.key),
//!                 format!("the program does not declare uniform '{}'", u.key),
//!             ));
//!         }
//!     }
//!     for (unit, binding) in scene.sampler_bindings(draw).enumerate() {
//!         // bind binding.texture with binding.sampler to binding.name (unit = position)
//!     }
//!     // attributes: draw.attribute(location).map(|a| a.fetch(vertex)), vertex < vertex_count
//!     // triangles: draw.indices.chunks_exact(3); state: draw.state.raster (writes_depth(), ...)
//! }
//! # Ok::<(), csir_render::scene::SceneError>(())
//! ```
//!
//! [`Scene::default_cube`] builds the built-in scene (no files needed).

mod builder;
mod default;
mod error;
#[cfg(test)]
mod fragment_ops_tests;
#[cfg(test)]
mod fuzz_tests;
mod geometry_input;
pub(crate) mod json;
mod json_place;
mod load;
#[cfg(test)]
mod load_tests;
mod model;
mod multisample;
mod obj;
mod point_line_state;
mod primitive;
mod rules;
#[cfg(test)]
mod stencil_tests;
mod suggest;
mod validate;

mod targets;
mod vertex_input;

pub use builder::{BUILT_SCENE_NAME, DrawBuilder, SceneBuilder};
pub use default::{DEFAULT_CUBE_START_ANGLE, DEFAULT_SCENE_NAME, default_cube_uniforms};
pub use error::{SceneError, SceneErrorKind};
pub use geometry_input::{GeometryDraw, MODES as GEOMETRY_MODES};
pub use load::{EXPECT_KEYS, MAX_ATTRIBUTE_LOCATION, SCENE_FORMAT};
pub use model::{
    Attribute, ClipPlanes, Draw, DrawState, MAX_CLIP_PLANES, NamedTexture, PointLineState,
    PolygonMode, SamplerBinding, SamplerBindingRef, Scene, ShadeModel, ShaderSource, UniformValue,
};
pub use primitive::{Primitive, PrimitiveKind, ProvokingVertex, assemble_primitives};
pub(crate) use suggest::closest_name;

/// The texture and sampler types a scene's textures and samplers are made of.
pub use crate::texture::gl33::{CompareFunc, GlSampler, GlTexture, GlWrap, TexFormat};
/// The texture and sampler types a scene's textures and samplers are made of.
pub use crate::texture::{Filter, MinFilter, Sampler, Texture, Wrap};
/// A GL 3.3 texture's target (`target`: `2d`, `3d`, `cube`, …), from the compiler.
pub use csir::sampler_type::TexTarget;
/// The rasterizer's state types a scene's [`DrawState`] holds (depth test, culling,
/// blending, polygon offset, stencil), re-exported so a scene built in code needs only
/// this crate (`csir_raster`'s own docs give each one's GL rule).
pub use csir_raster::{
    BlendEquation, BlendFactor, BlendFunction, BlendMode, ColorTarget, CullMode, DepthTest,
    PolygonOffset, RasterState, StencilFace, StencilOp, StencilState, TargetFormat,
};

pub use multisample::{MultisampleState, SAMPLE_COUNTS, SampleCoverage};
pub use targets::{MAX_TARGETS, Targets};
pub use vertex_input::{AttributeType, attribute_element, instanced_elements, integer_carrier};
