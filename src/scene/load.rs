//! Loading and validating a `csir-scene/1` file (`docs/scene-format.md`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::builder::{TextureGrowth, complete_textures, plain_triangles, triangle_lists};
use super::geometry_input::{GeometryDraw, MODE_NAMES as GS_MODES};
use super::json::{self, Json, get};
use super::model::{
    Attribute, ClipPlanes, Draw, DrawState, NamedTexture, PointLineState, PolygonMode,
    SamplerBinding, Scene, ShadeModel, ShaderSource, UniformValue,
};
use super::obj::{ObjError, parse_obj};
use super::rules::{self, FRAME_SIDE, INSTANCES};
use super::vertex_input::{AttributeType, integer_carrier};
use super::{Primitive, ProvokingVertex, SceneError, SceneErrorKind};
use crate::budget::{Bytes, FrameUse, MemoryEstimate, default_max_memory};
use crate::compare::ToleranceRule;
use crate::file_read::{
    MAX_OBJ_BYTES, MAX_PNG_BYTES, MAX_SCENE_BYTES, MAX_SCENE_SHADER_BYTES, read_bounded, too_large,
    utf8_text,
};
use crate::image_io::{decode_png, png_dimensions};
use crate::texture::{Filter, MinFilter, Sampler, Texture, Wrap};
use csir_raster::{CullMode, DepthTest, RasterState};

mod fragment_ops;

mod seamless;
mod targets;

mod gl33;
mod multisample;
mod stencil_state;

/// The only format string this loader reads.
pub const SCENE_FORMAT: &str = "csir-scene/1";

/// The keys of a scene's `expect` block (its own tolerance rule, see
/// [`ToleranceRule`]).
pub const EXPECT_KEYS: [&str; 3] = ["tolerance", "max_over_percent", "max_mean_abs_error"];

/// The keys of a scene's top-level object (docs/scene-format.md).
const ROOT_KEYS: &[&str] = &[
    "format",
    "width",
    "height",
    "clear",
    "textures",
    "draws",
    "expect",
    "targets",
    "framebuffer_srgb",
    "seamless_cube_map",
    "samples",
];

/// The keys of a draw.
const DRAW_KEYS: &[&str] = &[
    "vertex",
    "fragment",
    "geometry",
    "mesh",
    "attributes",
    "indices",
    "primitive",
    "primitive_restart_index",
    "instances",
    "uniforms",
    "samplers",
    "state",
];

/// The keys of an attribute.
const ATTRIBUTE_KEYS: &[&str] = &["location", "size", "type", "divisor", "data"];

/// The most instances a draw may ask for: far above any real scene, low enough that
/// a typo cannot ask for billions of draws.
pub const MAX_INSTANCES: u32 = 1 << 20;

/// The keys of a draw's `state`.
const STATE_KEYS: &[&str] = &[
    "depth_test",
    "depth_write",
    "cull",
    "blend",
    "two_sided_color",
    "shade_model",
    "clip_planes",
    "provoking_vertex",
    "color_mask",
    "scissor",
    "viewport",
    "depth_range",
    "polygon_offset",
    "point_size",
    "program_point_size",
    "line_width",
    "polygon_mode",
    "stencil",
    "depth_clamp",
    "alpha_to_coverage",
    "sample_coverage",
];

/// Highest vertex attribute location.
pub const MAX_ATTRIBUTE_LOCATION: u32 = 15;

/// Where a scene's files come from: the file system, or the built-in default scene's
/// embedded copies.
pub(crate) trait SceneFiles {
    /// The bytes of the file at `path` (already joined with the scene's folder), at
    /// most `limit` of them (see [`read_bounded`]).
    fn read(&self, path: &Path, limit: u64) -> std::io::Result<Vec<u8>>;
}

/// Reads files from the file system, bounded ([`read_bounded`]).
pub(crate) struct FileSystem;

impl SceneFiles for FileSystem {
    fn read(&self, path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
        read_bounded(path, limit)
    }
}

impl Scene {
    /// Loads a scene file: reads the JSON, resolves every path against the scene file's
    /// folder, reads the shader sources, loads the PNG textures and OBJ meshes, and checks
    /// everything the scene format requires that does not need the compiled program.
    ///
    /// Every file is read with a size limit ([`crate::file_read`]: 256 MiB of scene
    /// JSON, 512 MiB per PNG or OBJ file, 16 MiB per shader source), and only regular
    /// files and pipes are read, so a path such as `/dev/zero` is an error, not a hang.
    ///
    /// # Errors
    /// A [`SceneError`] naming `path`, the JSON field (`draws[1].attributes[0].data`, …)
    /// and what is wrong; JSON syntax errors carry the line and column.
    pub fn load(path: impl AsRef<Path>) -> Result<Scene, SceneError> {
        Self::load_within(path, default_max_memory())
    }

    /// [`Scene::load`] with a memory limit of `max_memory` bytes for the render's
    /// framebuffer, read-back, textures and geometry ([`crate::budget`]; `load` uses
    /// this machine's default, [`default_max_memory`]). The framebuffer is estimated from `width` and `height`,
    /// each texture from its PNG header before it is decoded, and an OBJ mesh while it
    /// is read, so nothing far over the limit is ever allocated.
    ///
    /// # Errors
    /// As [`Scene::load`]; over the limit, an error on `height` (the frame alone) or on
    /// `textures.NAME.path` (the texture that would pass it) giving the need, its parts
    /// and the limit.
    pub fn load_within(path: impl AsRef<Path>, max_memory: u64) -> Result<Scene, SceneError> {
        Self::load_for(path, max_memory, FrameUse::Render)
    }

    /// [`Scene::load_within`] for a frame drawn as `frame_use` says: a pixel trace
    /// counts one tile of framebuffer and no read-back ([`MemoryEstimate::frame_for`]),
    /// so tracing a pixel of a frame larger than the limit allows is not refused.
    ///
    /// # Errors
    /// As [`Scene::load_within`].
    pub fn load_for(
        path: impl AsRef<Path>,
        max_memory: u64,
        frame_use: FrameUse,
    ) -> Result<Scene, SceneError> {
        let path = path.as_ref();
        let bytes = read_bounded(path, MAX_SCENE_BYTES).map_err(|e| SceneError::read(path, e))?;
        let text =
            utf8_text(bytes).map_err(|e| SceneError::new(path, "", format!("the scene is {e}")))?;
        parse_with(&text, path, &FileSystem, max_memory, frame_use)
    }

    /// Parses and validates scene JSON `text` as if it had been read from `scene_path`:
    /// files are resolved against `scene_path`'s folder and read from the file system,
    /// and errors name `scene_path`. See [`Scene::load`].
    ///
    /// # Errors
    /// As [`Scene::load`].
    pub fn parse(text: &str, scene_path: &Path) -> Result<Scene, SceneError> {
        parse_with(
            text,
            scene_path,
            &FileSystem,
            default_max_memory(),
            FrameUse::Render,
        )
    }
}

/// Parses and validates scene JSON, reading the files it names through `files`, within
/// a memory limit of `max_memory` bytes for a frame drawn as `frame_use` says (see
/// [`Scene::load_for`]).
pub(crate) fn parse_with(
    text: &str,
    scene_path: &Path,
    files: &dyn SceneFiles,
    max_memory: u64,
    frame_use: FrameUse,
) -> Result<Scene, SceneError> {
    // A byte order mark, which some editors write, is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (doc, json_bytes) = json::parse_within(text, max_memory).map_err(|e| match e {
        json::ParseError::Syntax(e) => SceneError {
            path: scene_path.to_path_buf(),
            field: String::new(),
            kind: SceneErrorKind::Syntax {
                line: e.line,
                column: e.column,
                message: e.message,
            },
        },
        json::ParseError::OverLimit { held, limit } => SceneError::new(
            scene_path,
            "",
            format!(
                "reading the scene file would go above the memory limit of {} \
                 (--max-memory): its text is {}, and the lists, objects and strings read \
                 from it held {} when the next one would have passed the limit",
                Bytes(limit),
                Bytes(text.len() as u64),
                Bytes(held.saturating_sub(text.len() as u64)),
            ),
        ),
    })?;
    let folder = match scene_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut loader = Loader {
        scene_path,
        folder,
        files,
        cache: HashMap::new(),
        max_memory,
        frame_use,
        memory: MemoryEstimate::default(),
        json_bytes,
    };
    loader.scene(&doc)
}

/// Validation state: the scene's identity for errors, and a cache of files read.
struct Loader<'a> {
    scene_path: &'a Path,
    folder: PathBuf,
    files: &'a dyn SceneFiles,
    cache: HashMap<PathBuf, Vec<u8>>,
    /// The memory limit, and the estimate so far (frame, then each texture kept).
    max_memory: u64,
    /// What the frame is drawn for: a render or a pixel trace.
    frame_use: FrameUse,
    memory: MemoryEstimate,
    /// The scene's text and JSON tree, held until the scene is loaded.
    json_bytes: u64,
}

type Entries = [(String, Json)];

impl Loader<'_> {
    fn error(&self, field: impl Into<String>, message: impl Into<String>) -> SceneError {
        SceneError::new(self.scene_path, field, message)
    }

    fn scene(&mut self, doc: &Json) -> Result<Scene, SceneError> {
        let root = self.record(doc, "", ROOT_KEYS)?;
        match get(root, "format") {
            Some(Json::String(s)) if s == SCENE_FORMAT => {}
            Some(other) => {
                return Err(self.error(
                    "format",
                    format!(
                        "unsupported format {} (expected \"{SCENE_FORMAT}\")",
                        other.brief()
                    ),
                ));
            }
            None => {
                return Err(self.error("format", format!("missing (expected \"{SCENE_FORMAT}\")")));
            }
        }
        let width = self.integer(get(root, "width"), "width", FRAME_SIDE, None)? as u32;
        let height = self.integer(get(root, "height"), "height", FRAME_SIDE, None)? as u32;
        self.memory = MemoryEstimate {
            scene_json: self.json_bytes,
            ..MemoryEstimate::frame_for(width, height, self.frame_use)
        };
        self.memory.check(self.max_memory).map_err(|e| {
            self.error(
                "height",
                format!("a {width}x{height} frame does not fit: {e}"),
            )
        })?;

        let clear_entries = match get(root, "clear") {
            Some(clear) => Some(self.record(clear, "clear", &["color", "depth", "stencil"])?),
            None => None,
        };
        let clear_stencil = self.clear_stencil(clear_entries.and_then(|c| get(c, "stencil")))?;
        let targets = self.targets(root, clear_entries)?;
        let samples = self.samples(root)?;
        self.reserve_samples(samples)?;
        rules::multisample_support(samples, &targets, None)
            .map_err(|(field, m)| self.error(field, m))?;
        let (clear_color, clear_depth) = match get(root, "clear") {
            None => ([0.0, 0.0, 0.0, 1.0], 1.0),
            Some(clear) => {
                let clear = self.record(clear, "clear", &["color", "depth", "stencil"])?;
                let color = match get(clear, "color") {
                    None => [0.0, 0.0, 0.0, 1.0],
                    Some(_) if targets.given => targets.clear[0].map(|c| c as f32),
                    Some(v) => {
                        let c = self.floats(v, "clear.color", Some(4))?;
                        [c[0], c[1], c[2], c[3]]
                    }
                };
                let depth = match get(clear, "depth") {
                    None => 1.0,
                    Some(v) => self.floats(v, "clear.depth", Some(1))?[0].clamp(0.0, 1.0),
                };
                (color, depth)
            }
        };

        let mut textures = Vec::new();
        if let Some(v) = get(root, "textures") {
            for (name, t) in self.object(v, "textures")? {
                textures.push(self.texture(name, t)?);
            }
        }

        let mut draws = Vec::new();
        if let Some(v) = get(root, "draws") {
            let Some(list) = v.items() else {
                return Err(self.error("draws", format!("expected a list, got {}", v.type_name())));
            };
            for (index, d) in list.iter().enumerate() {
                draws.push(self.draw(index, d, &textures)?);
                self.check_window_rects(&draws[index], width, height)?;
                self.check_integer_blending(&targets, &draws[index])?;
                rules::multisample_support(samples, &targets, Some(&draws[index]))
                    .map_err(|(key, m)| self.error(format!("draws[{index}].{key}"), m))?;
            }
        }

        // The mip chains and GL 3.3 textures the samplers need, each counted against
        // the memory budget like the texture itself.
        let scene_path = self.scene_path;
        complete_textures(
            scene_path,
            &mut textures,
            &draws,
            &mut |field, growth| match growth {
                TextureGrowth::MipChain {
                    texture,
                    width: w,
                    height: h,
                    bytes: chain,
                } => {
                    let with_chain = MemoryEstimate {
                        textures: self.memory.textures.saturating_add(chain),
                        ..self.memory
                    };
                    with_chain.check(self.max_memory).map_err(|e| {
                        self.error(
                            field,
                            format!(
                                "the mip chain of texture '{texture}' ({w}x{h}; {} more) does \
                                 not fit: {e}",
                                Bytes(chain)
                            ),
                        )
                    })?;
                    self.memory.textures = with_chain.textures;
                    Ok(())
                }
                TextureGrowth::Texels { bytes } => self.reserve_texels(field, bytes / 16),
            },
        )?;

        let expect = match get(root, "expect") {
            None => None,
            Some(v) => Some(self.expect(v)?),
        };
        let seamless_cube_map = self.seamless_cube_map(root)?;

        Ok(Scene {
            path: self.scene_path.to_path_buf(),
            width,
            height,
            clear_color,
            clear_depth,
            clear_stencil,
            textures,
            draws,
            expect,
            targets,
            seamless_cube_map,

            samples,
        })
    }

    fn texture(&mut self, name: &str, value: &Json) -> Result<NamedTexture, SceneError> {
        if Self::is_gl33_texture(value) {
            return self.gl33_texture(name, value);
        }
        let field = format!("textures.{name}.path");
        let entries = self.record(value, &format!("textures.{name}"), gl33::TEXTURE_KEYS)?;
        let rel = self.string(get(entries, "path"), &field, "a PNG file path")?;
        let (path, bytes) = self.read_file(rel, &field, MAX_PNG_BYTES)?;
        if let Some((w, h)) = png_dimensions(&bytes) {
            // Kept, plus the decoder's own copy while it is being decoded.
            let texels = MemoryEstimate::texture_bytes(w, h);
            let decoding = MemoryEstimate {
                textures: self
                    .memory
                    .textures
                    .saturating_add(texels.saturating_mul(2)),
                ..self.memory
            };
            decoding.check(self.max_memory).map_err(|e| {
                self.error(
                    &field,
                    format!(
                        "{} is {w}x{h} ({} of RGBA8 texels) and does not fit: {e}",
                        path.display(),
                        Bytes(texels)
                    ),
                )
            })?;
            self.memory.textures = self.memory.textures.saturating_add(texels);
        }
        let image = decode_png(&bytes, &path).map_err(|e| self.error(&field, e.to_string()))?;
        Ok(NamedTexture {
            name: name.to_owned(),
            path,
            texture: Texture::from_image(&image),
            gl33: None,
        })
    }

    /// The estimate so far with a draw of `triangles` and `vertices` added.
    fn with_geometry(&self, triangles: u64, vertices: u64) -> MemoryEstimate {
        let draw = MemoryEstimate::geometry_bytes(triangles, vertices);
        MemoryEstimate {
            geometry: self.memory.geometry.saturating_add(draw),
            ..self.memory
        }
    }

    /// The error for a draw whose `triangles` and `vertices` (`vertices` 0: not known
    /// yet) do not fit the memory budget with what the scene holds so far.
    fn geometry_over_budget(
        &self,
        field: &str,
        triangles: u64,
        vertices: u64,
        at_least: &str,
    ) -> SceneError {
        let need = self.with_geometry(triangles, vertices);
        let count =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let verb = if vertices == 0 && triangles <= 1 {
            "does"
        } else {
            "do"
        };
        let what = match (triangles, vertices) {
            (0, 0) => "vertex data".to_owned(),
            (_, 0) => format!("{at_least}{}", count(triangles, "triangle", "triangles")),
            _ => format!(
                "{} and {}",
                count(triangles, "triangle", "triangles"),
                count(vertices, "vertex", "vertices")
            ),
        };
        let beside = match self.memory.geometry {
            0 => "",
            _ => " beside the earlier draws' geometry",
        };
        let e = need
            .check(self.max_memory)
            .err()
            .map_or_else(String::new, |e| e.to_string());
        self.error(
            field,
            format!("the draw's {what} {verb} not fit{beside}: {e}"),
        )
    }

    fn draw(
        &mut self,
        index: usize,
        value: &Json,
        textures: &[NamedTexture],
    ) -> Result<Draw, SceneError> {
        let at = format!("draws[{index}]");
        let d = self.record(value, &at, DRAW_KEYS)?;
        let vertex = self.shader(d, &at, "vertex")?;
        let fragment = self.shader(d, &at, "fragment")?;
        // A geometry shader takes every draw mode (docs/scene-format.md `geometry`).
        let geometry = match get(d, "geometry") {
            None => None,
            Some(_) => Some((
                self.shader(d, &at, "geometry")?,
                self.choice(
                    get(d, "primitive"),
                    &format!("{at}.primitive"),
                    &GS_MODES,
                    "triangles",
                )?,
            )),
        };
        let primitive = match geometry {
            Some(_) => Primitive::Triangles,
            None => self.primitive(get(d, "primitive"), &format!("{at}.primitive"))?,
        };
        let restart = match get(d, "primitive_restart_index") {
            None | Some(Json::Null) => None,
            Some(v) => {
                let field = format!("{at}.primitive_restart_index");
                Some(self.integer(Some(v), &field, 0..=i64::from(u32::MAX), None)? as u32)
            }
        };
        // the state is read first: its provoking vertex decides how triangles assemble
        let state = match get(d, "state") {
            None => DrawState::default(),
            Some(v) => self.state(v, &format!("{at}.state"))?,
        };
        let provoking = state.provoking_vertex;
        // `triangles` in the last-vertex convention without restart is drawn from its
        // list as given (the bytes of every scene before these keys); anything else is
        // assembled into such a list.
        let plain = plain_triangles(primitive, restart, provoking, geometry.is_some());
        let instances = self.integer(
            get(d, "instances"),
            &format!("{at}.instances"),
            INSTANCES,
            Some(1),
        )? as u32;
        let mut mesh_path = None;
        let (attributes, vertex_count, indices) = match (get(d, "mesh"), get(d, "attributes")) {
            (Some(_), Some(_)) => {
                return Err(self.error(format!("{at}.mesh"), rules::MESH_OR_ATTRIBUTES));
            }
            (None, None) => return Err(self.error(&at, rules::NEEDS_VERTICES)),
            (Some(mesh), None) => {
                if get(d, "indices").is_some() {
                    return Err(self.error(format!("{at}.indices"), rules::MESH_HAS_INDICES));
                }
                if primitive != Primitive::Triangles || restart.is_some() {
                    let key = if restart.is_some() {
                        "primitive_restart_index"
                    } else {
                        "primitive"
                    };
                    return Err(self.error(format!("{at}.{key}"), rules::MESH_IS_TRIANGLES));
                }
                let field = format!("{at}.mesh");
                let rel = self.string(Some(mesh), &field, "an OBJ file path")?;
                // Read without the file cache (a mesh's text is parsed once, then
                // dropped) and counted while it is parsed.
                let path = self.folder.join(rel);
                let bytes = self.files.read(&path, MAX_OBJ_BYTES).map_err(|e| {
                    self.error(&field, format!("cannot read {}: {e}", path.display()))
                })?;
                self.memory.mesh_reading = bytes.len() as u64;
                let room = self.max_memory.saturating_sub(self.memory.total());
                let parsed = parse_obj(&bytes, room);
                drop(bytes);
                let mesh = match parsed {
                    Ok(mesh) => mesh,
                    Err(ObjError::Invalid(message)) => {
                        return Err(self.error(&field, format!("{}: {message}", path.display())));
                    }
                    Err(ObjError::OverBudget {
                        triangles,
                        data_bytes,
                    }) => {
                        self.memory.mesh_reading += data_bytes;
                        return Err(self.geometry_over_budget(&field, triangles, 0, "at least "));
                    }
                };
                self.memory.mesh_reading = 0;
                mesh_path = Some(path);
                (mesh.attributes, mesh.vertex_count, mesh.indices)
            }
            (None, Some(list)) => {
                let (attributes, vertex_count) = self.attributes(list, &at, instances)?;
                let field = format!("{at}.indices");
                if restart.is_some() && get(d, "indices").is_none() {
                    return Err(self.error(
                        format!("{at}.primitive_restart_index"),
                        rules::RESTART_NEEDS_INDICES,
                    ));
                }
                let indices = match get(d, "indices") {
                    Some(v) => self.indices(v, &field, vertex_count, plain, restart)?,
                    None if plain => (0..vertex_count / 3 * 3).collect(),
                    None => (0..vertex_count).collect(),
                };
                (attributes, vertex_count, indices)
            }
        };
        let (indices, elements) = triangle_lists(
            plain,
            geometry.is_some(),
            primitive,
            indices,
            restart,
            provoking,
        );
        let (triangles, vertices) = (indices.len() as u64 / 3, u64::from(vertex_count));
        let with_draw = self.with_geometry(triangles, vertices);
        if with_draw.check(self.max_memory).is_err() {
            let field = match (&mesh_path, get(d, "indices")) {
                (Some(_), _) => format!("{at}.mesh"),
                (None, Some(_)) => format!("{at}.indices"),
                (None, None) => format!("{at}.attributes"),
            };
            return Err(self.geometry_over_budget(&field, triangles, vertices, ""));
        }
        self.memory = with_draw;

        let mut uniforms = Vec::new();
        if let Some(v) = get(d, "uniforms") {
            for (key, values) in self.object(v, &format!("{at}.uniforms"))? {
                let field = format!("{at}.uniforms.{key}");
                rules::uniform_key(key).map_err(|m| self.error(&field, m))?;
                uniforms.push(UniformValue {
                    key: key.clone(),
                    values: self.floats(values, &field, None)?,
                    ints: json_integers(values),
                });
            }
        }

        let mut samplers = Vec::new();
        if let Some(v) = get(d, "samplers") {
            for (name, s) in self.object(v, &format!("{at}.samplers"))? {
                samplers.push(self.sampler(name, s, &format!("{at}.samplers.{name}"), textures)?);
            }
        }

        let geometry =
            geometry.map(|(shader, mode)| GeometryDraw::new(shader, mode, &elements, restart));
        Ok(Draw {
            index,
            mesh: mesh_path,
            vertex,
            fragment,
            geometry,
            attributes,
            vertex_count,
            indices,
            primitive,
            instances,
            elements,
            primitive_restart_index: restart,
            uniforms,
            samplers,
            state,
        })
    }

    fn shader(&mut self, d: &Entries, at: &str, key: &str) -> Result<ShaderSource, SceneError> {
        let field = format!("{at}.{key}");
        let rel = self.string(get(d, key), &field, "a shader file path")?;
        let (path, bytes) = self.read_file(rel, &field, MAX_SCENE_SHADER_BYTES)?;
        if ShaderSource::is_csi_path(&path) {
            return Ok(ShaderSource {
                path,
                text: String::new(),
                csi: Some(bytes),
            });
        }
        let text = utf8_text(bytes)
            .map_err(|e| self.error(&field, format!("{} is {e}", path.display())))?;
        Ok(ShaderSource::glsl(path, text))
    }

    fn attributes(
        &self,
        value: &Json,
        at: &str,
        instances: u32,
    ) -> Result<(Vec<Attribute>, u32), SceneError> {
        let field = format!("{at}.attributes");
        let list = match value.items() {
            Some(list) if list.is_empty() => {
                return Err(self.error(field, "must not be empty"));
            }
            Some(list) => list,
            None => {
                let got = value.type_name();
                return Err(self.error(field, format!("expected a list, got {got}")));
            }
        };
        let mut attributes: Vec<Attribute> = Vec::new();
        // (count, the attribute that set it) of the per-vertex arrays
        let mut vertex_count: Option<(u32, usize)> = None;
        for (i, a) in list.iter().enumerate() {
            let af = format!("{field}[{i}]");
            let entries = self.record(a, &af, ATTRIBUTE_KEYS)?;
            let location = self.integer(
                get(entries, "location"),
                &format!("{af}.location"),
                rules::ATTRIBUTE_LOCATION,
                None,
            )? as u32;
            let size = self.integer(
                get(entries, "size"),
                &format!("{af}.size"),
                rules::ATTRIBUTE_SIZE,
                None,
            )? as u32;
            let earlier: Vec<u32> = attributes.iter().map(|a| a.location).collect();
            rules::location_once(&earlier, location)
                .map_err(|m| self.error(format!("{af}.location"), m))?;
            let ty = self.choice(
                get(entries, "type"),
                &format!("{af}.type"),
                &AttributeType::NAMES,
                AttributeType::Float,
            )?;
            let divisor = self.integer(
                get(entries, "divisor"),
                &format!("{af}.divisor"),
                0..=i64::from(u32::MAX),
                Some(0),
            )? as u32;
            let data_field = format!("{af}.data");
            let data = match (get(entries, "data"), ty.integer_range()) {
                (Some(v), None) => self.floats(v, &data_field, None)?,
                (Some(v), Some(range)) => self.attribute_integers(v, &data_field, ty, range)?,
                (None, _) => return Err(self.error(data_field, "missing (a list of numbers)")),
            };
            let count =
                rules::whole_elements(data.len(), size).map_err(|m| self.error(&data_field, m))?;
            if divisor > 0 {
                rules::instanced_elements(count, divisor, instances)
                    .map_err(|m| self.error(&data_field, m))?;
            } else {
                match vertex_count {
                    None => vertex_count = Some((count, i)),
                    Some((n, first)) => rules::same_vertex_count(count, first, n)
                        .map_err(|m| self.error(&data_field, m))?,
                }
            }
            attributes.push(Attribute {
                location,
                size,
                data,
                ty,
                divisor,
            });
        }
        let Some((vertex_count, _)) = vertex_count else {
            return Err(self.error(field, rules::NEEDS_PER_VERTEX_ATTRIBUTE));
        };
        attributes.sort_by_key(|a| a.location);
        Ok((attributes, vertex_count))
    }

    /// The `data` of an integer attribute: JSON integers in `range`, each held as its
    /// 32-bit pattern ([`integer_carrier`]).
    fn attribute_integers(
        &self,
        value: &Json,
        field: &str,
        ty: AttributeType,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Vec<f32>, SceneError> {
        let Some(list) = value.as_list() else {
            return Err(self.error(
                field,
                format!("expected a list of integers, got {}", value.type_name()),
            ));
        };
        list.iter()
            .enumerate()
            .map(|(k, v)| match &*v {
                Json::Number(n) if n.fract() == 0.0 && range.contains(&(*n as i64)) => {
                    Ok(integer_carrier(*n as i64))
                }
                other => Err(self.error(
                    format!("{field}[{k}]"),
                    format!(
                        "expected an integer in {}..={} (type {}), got {}",
                        range.start(),
                        range.end(),
                        ty.name(),
                        other.brief()
                    ),
                )),
            })
            .collect()
    }

    /// `indices`: integers below the vertex count (or equal to the restart index),
    /// a multiple of 3 of them for a plain triangle list.
    fn indices(
        &self,
        value: &Json,
        field: &str,
        vertex_count: u32,
        triangle_list: bool,
        restart: Option<u32>,
    ) -> Result<Vec<u32>, SceneError> {
        let Some(list) = value.as_list() else {
            return Err(self.error(
                field,
                format!("expected a list of integers, got {}", value.type_name()),
            ));
        };
        if triangle_list {
            rules::whole_triangles(list.len()).map_err(|m| self.error(field, m))?;
        }
        let mut indices = Vec::with_capacity(list.len());
        for (k, v) in list.iter().enumerate() {
            // the field is named only in an error: formatting it for each of millions
            // of indices would cost more than reading them
            let at = || format!("{field}[{k}]");
            let index = match &*v {
                Json::Number(n) if n.fract() == 0.0 && *n >= 0.0 => *n,
                _ => {
                    return Err(self.error(
                        at(),
                        format!("expected a non-negative integer, got {}", v.brief()),
                    ));
                }
            };
            rules::index_in_range(index, vertex_count, restart).map_err(|m| self.error(at(), m))?;
            indices.push(index as u32);
        }
        Ok(indices)
    }

    fn sampler(
        &self,
        name: &str,
        value: &Json,
        field: &str,
        textures: &[NamedTexture],
    ) -> Result<SamplerBinding, SceneError> {
        let keys = ["texture", "filter", "min_filter", "mag_filter", "wrap"];
        let keys: Vec<&str> = keys
            .into_iter()
            .chain(gl33::SAMPLER_KEYS.iter().copied())
            .collect();
        let entries = self.record(value, field, &keys)?;
        let texture_field = format!("{field}.texture");
        let texture_name =
            self.string(get(entries, "texture"), &texture_field, "a texture name")?;
        let texture = rules::texture_named(textures, texture_name)
            .map_err(|m| self.error(&texture_field, m))?;
        // A mipmapped filter is a minification filter only: say where it goes.
        if let Some(Json::String(s)) = get(entries, "filter")
            && MinFilter::NAMES
                .iter()
                .any(|(n, f)| n == s && f.mip_filter().is_some())
        {
            return Err(self.error(
                format!("{field}.filter"),
                format!(
                    "\"{s}\" is a minification filter: give it as \"min_filter\" (\"filter\" \
                     sets magnification too, which has no mip levels: nearest or linear)"
                ),
            ));
        }
        let filter = self.choice(
            get(entries, "filter"),
            &format!("{field}.filter"),
            &Filter::NAMES,
            Filter::Nearest,
        )?;
        // `filter` sets both; `min_filter` and `mag_filter` override it (GL's
        // GL_TEXTURE_MIN_FILTER / GL_TEXTURE_MAG_FILTER).
        let min_filter = self.choice(
            get(entries, "min_filter"),
            &format!("{field}.min_filter"),
            &MinFilter::NAMES,
            MinFilter::from_filter(filter),
        )?;
        let mag_filter = self.choice(
            get(entries, "mag_filter"),
            &format!("{field}.mag_filter"),
            &Filter::NAMES,
            filter,
        )?;
        let wrap = match get(entries, "wrap") {
            // GL 3.3's border wrap has no RGBA8 sampler: `gl33_sampler` takes it.
            Some(Json::String(s)) if s == "clamp_to_border" => Wrap::Clamp,
            w => self.choice(w, &format!("{field}.wrap"), &Wrap::NAMES, Wrap::Clamp)?,
        };
        let sampler = Sampler {
            mag_filter,
            min_filter,
            wrap,
        };
        Ok(SamplerBinding {
            name: name.to_owned(),
            texture,
            sampler,
            gl33: self.gl33_sampler(entries, field, sampler)?,
        })
    }

    fn state(&self, value: &Json, field: &str) -> Result<DrawState, SceneError> {
        let entries = self.record(value, field, STATE_KEYS)?;
        let defaults = DrawState::default();
        let flag = |key: &str, default: bool| match get(entries, key) {
            None => Ok(default),
            Some(Json::Bool(b)) => Ok(*b),
            Some(v) => Err(self.error(
                format!("{field}.{key}"),
                format!("expected true or false, got {}", v.brief()),
            )),
        };
        let depth_write = flag("depth_write", defaults.raster.depth_write)?;
        let two_sided_color = flag("two_sided_color", defaults.two_sided_color)?;
        let (stencil, depth_clamp) = self.stencil_state(entries, field)?;
        Ok(DrawState {
            raster: RasterState {
                depth_test: self.choice(
                    get(entries, "depth_test"),
                    &format!("{field}.depth_test"),
                    &DepthTest::NAMES,
                    defaults.raster.depth_test,
                )?,
                depth_write,
                cull: self.choice(
                    get(entries, "cull"),
                    &format!("{field}.cull"),
                    &CullMode::NAMES,
                    defaults.raster.cull,
                )?,
                blend: self.blend(get(entries, "blend"), &format!("{field}.blend"))?,
                stencil,
                depth_clamp,
                ..self.window_state(entries, field)?
            },
            two_sided_color,
            shade_model: self.choice(
                get(entries, "shade_model"),
                &format!("{field}.shade_model"),
                &ShadeModel::NAMES,
                defaults.shade_model,
            )?,
            clip_planes: match get(entries, "clip_planes") {
                None => defaults.clip_planes,
                Some(v) => self.clip_planes(v, &format!("{field}.clip_planes"))?,
            },
            provoking_vertex: self.choice(
                get(entries, "provoking_vertex"),
                &format!("{field}.provoking_vertex"),
                &ProvokingVertex::NAMES,
                defaults.provoking_vertex,
            )?,
            points_lines: PointLineState {
                point_size: self.size(entries, field, "point_size")?,
                program_point_size: flag("program_point_size", false)?,
                line_width: self.size(entries, field, "line_width")?,
                polygon_mode: self.choice(
                    get(entries, "polygon_mode"),
                    &format!("{field}.polygon_mode"),
                    &PolygonMode::NAMES,
                    PolygonMode::Fill,
                )?,
            },
            multisample: self.multisample_state(entries, field)?,
        })
    }

    /// `state.point_size` or `state.line_width`: a number above 0 (`glPointSize`,
    /// `glLineWidth` refuse others with `GL_INVALID_VALUE`), default 1.
    fn size(&self, entries: &Entries, field: &str, key: &str) -> Result<f32, SceneError> {
        match get(entries, key) {
            None => Ok(1.0),
            Some(v) => {
                let (what, valid) = rules::POINT_LINE_SIZE;
                Ok(self.number_in(v, &format!("{field}.{key}"), what, valid)? as f32)
            }
        }
    }

    /// `state.clip_planes`: a list of at most [`MAX_CLIP_PLANES`](super::MAX_CLIP_PLANES) entries, entry `i`
    /// `null` (plane `i` disabled) or its equation `[a, b, c, d]` (enabled).
    fn clip_planes(&self, value: &Json, field: &str) -> Result<ClipPlanes, SceneError> {
        let Some(list) = value.items() else {
            return Err(self.error(
                field,
                format!(
                    "expected a list of clip planes (null or [a, b, c, d] each), got {}",
                    value.brief()
                ),
            ));
        };
        rules::clip_plane_count(list.len()).map_err(|m| self.error(field, m))?;
        let mut planes = ClipPlanes::default();
        for (i, entry) in list.iter().enumerate() {
            if matches!(entry, Json::Null) {
                continue;
            }
            let at = format!("{field}[{i}]");
            let v = self.floats(entry, &at, Some(4))?;
            planes.equations[i] = [v[0], v[1], v[2], v[3]];
            planes.enabled |= 1 << i;
        }
        Ok(planes)
    }

    /// The `expect` block: the scene's own tolerance rule; keys it does not give keep
    /// the project rule's value.
    fn expect(&self, value: &Json) -> Result<ToleranceRule, SceneError> {
        let entries = self.record(value, "expect", &EXPECT_KEYS)?;
        let project = ToleranceRule::PROJECT;
        let tolerance = self.integer(
            get(entries, "tolerance"),
            "expect.tolerance",
            0..=255,
            Some(i64::from(project.tolerance)),
        )? as u8;
        let max_over_percent = match get(entries, "max_over_percent") {
            None => project.max_over_percent,
            Some(v) => {
                let (what, valid) = rules::MAX_OVER_PERCENT;
                self.number_in(v, "expect.max_over_percent", what, valid)?
            }
        };
        let max_mean_abs_error = match get(entries, "max_mean_abs_error") {
            None => project.max_mean_abs_error,
            Some(v) => {
                let (what, valid) = rules::MAX_MEAN_ABS_ERROR;
                self.number_in(v, "expect.max_mean_abs_error", what, valid)?
            }
        };
        Ok(ToleranceRule {
            tolerance,
            max_over_percent,
            max_mean_abs_error,
        })
    }

    // ---- typed readers -------------------------------------------------------------

    /// [`Self::object`] for an object with a fixed set of keys: a key not in `keys` is
    /// an error at `FIELD.KEY` that suggests the closest valid key ("did you mean
    /// `uniforms`?") or lists them.
    fn record<'j>(
        &self,
        value: &'j Json,
        field: &str,
        keys: &[&str],
    ) -> Result<&'j Entries, SceneError> {
        let entries = self.object(value, field)?;
        if let Some((key, _)) = entries.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            let at = if field.is_empty() {
                key.clone()
            } else {
                format!("{field}.{key}")
            };
            let message = match super::closest_name(key, keys.iter().copied()) {
                Some(k) => format!("unknown key; did you mean `{k}`?"),
                None => format!("unknown key (expected one of {})", keys.join(", ")),
            };
            return Err(self.error(at, message));
        }
        Ok(entries)
    }

    fn object<'j>(&self, value: &'j Json, field: &str) -> Result<&'j Entries, SceneError> {
        match value {
            Json::Object(entries) => Ok(entries),
            other => Err(self.error(
                field,
                format!("expected an object, got {}", other.type_name()),
            )),
        }
    }

    fn string<'j>(
        &self,
        value: Option<&'j Json>,
        field: &str,
        what: &str,
    ) -> Result<&'j str, SceneError> {
        match value {
            Some(Json::String(s)) => Ok(s),
            Some(other) => {
                Err(self.error(field, format!("expected {what}, got {}", other.brief())))
            }
            None => Err(self.error(field, format!("missing ({what})"))),
        }
    }

    /// An integer in `range`; integral floats such as `3.0` count as integers.
    fn integer(
        &self,
        value: Option<&Json>,
        field: &str,
        range: std::ops::RangeInclusive<i64>,
        default: Option<i64>,
    ) -> Result<i64, SceneError> {
        let expected = rules::integer_in(&range);
        match value {
            None => default.ok_or_else(|| self.error(field, format!("missing ({expected})"))),
            // an integer JSON number (exact as an i64): the range rule
            Some(Json::Number(n)) if n.fract() == 0.0 && n.abs() < 1e15 => {
                rules::int_in(&range, *n as i64).map_err(|m| self.error(field, m))
            }
            Some(other) => Err(self.error(field, rules::expected(&expected, &other.brief()))),
        }
    }

    /// One JSON number for which `valid` holds; `what` describes the valid ones.
    fn number_in(
        &self,
        value: &Json,
        field: &str,
        what: &str,
        valid: impl Fn(f64) -> bool,
    ) -> Result<f64, SceneError> {
        match value {
            Json::Number(n) if valid(*n) => Ok(*n),
            other => Err(self.error(field, format!("expected {what}, got {}", other.brief()))),
        }
    }

    /// A number or a list of numbers, as finite f32; `count` demands an exact length.
    fn floats(
        &self,
        value: &Json,
        field: &str,
        count: Option<usize>,
    ) -> Result<Vec<f32>, SceneError> {
        // the field is named only in an error: formatting it for each of millions of
        // numbers would cost more than reading them
        let to_f32 = |v: &Json, at: &dyn Fn() -> String| match v {
            Json::Number(n) => rules::finite_f32(*n).map_err(|m| self.error(at(), m)),
            other => Err(self.error(at(), format!("expected a number, got {}", other.brief()))),
        };
        let values = match value.as_list() {
            Some(list) => list
                .iter()
                .enumerate()
                .map(|(k, v)| to_f32(&v, &|| format!("{field}[{k}]")))
                .collect::<Result<Vec<f32>, _>>()?,
            None if matches!(value, Json::Number(_)) => {
                vec![to_f32(value, &|| field.to_owned())?]
            }
            None => {
                let other = value;
                return Err(self.error(
                    field,
                    format!(
                        "expected a number or a list of numbers, got {}",
                        other.type_name()
                    ),
                ));
            }
        };
        match count {
            Some(n) => rules::number_count(n, values.len())
                .map(|()| values)
                .map_err(|m| self.error(field, m)),
            None => Ok(values),
        }
    }

    /// One of the named values, or `default` when absent.
    /// `primitive`: a name of [`Primitive::NAMES`].
    fn primitive(&self, value: Option<&Json>, field: &str) -> Result<Primitive, SceneError> {
        self.choice(value, field, &Primitive::NAMES, Primitive::Triangles)
    }

    fn choice<T: Copy>(
        &self,
        value: Option<&Json>,
        field: &str,
        names: &[(&str, T)],
        default: T,
    ) -> Result<T, SceneError> {
        let Some(value) = value else {
            return Ok(default);
        };
        let name = match value {
            Json::String(s) => s.as_str(),
            _ => "",
        };
        rules::one_of(names, name, &value.brief()).map_err(|m| self.error(field, m))
    }

    /// Reads a file named relative to the scene's folder (each file once), at most
    /// `limit` bytes.
    fn read_file(
        &mut self,
        rel: &str,
        field: &str,
        limit: u64,
    ) -> Result<(PathBuf, Vec<u8>), SceneError> {
        let path = self.folder.join(rel);
        let cannot_read =
            |e: std::io::Error| self.error(field, format!("cannot read {}: {e}", path.display()));
        if let Some(bytes) = self.cache.get(&path) {
            // Read before under another kind's limit: hold it to this one too.
            if bytes.len() as u64 > limit {
                return Err(cannot_read(too_large(limit, Some(bytes.len() as u64))));
            }
            return Ok((path, bytes.clone()));
        }
        let bytes = self.files.read(&path, limit).map_err(cannot_read)?;
        self.cache.insert(path.clone(), bytes.clone());
        Ok((path, bytes))
    }
}

/// The integers of a number or list of numbers, when every one is an integer that fits
/// an `i64` (JSON numbers are doubles, exact for every 32-bit int and uint).
fn json_integers(value: &Json) -> Option<Vec<i64>> {
    let one = |v: &Json| match v {
        Json::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e18 => Some(*n as i64),
        _ => None,
    };
    match value.as_list() {
        Some(list) => list.iter().map(|v| one(&v)).collect(),
        None => one(value).map(|k| vec![k]),
    }
}
