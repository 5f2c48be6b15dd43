//! [`DrawBuilder`]: one draw of a scene built in code, made by
//! [`Draw::new`](super::super::Draw::new). One method per draw key of
//! `docs/scene-format.md`; a new draw key is one more method here and one more line
//! in [`DrawBuilder::finish`].

use super::super::geometry_input::MODE_NAMES as GEOMETRY_MODE_NAMES;
use super::super::obj::{ObjError, parse_obj};
use super::super::{
    Attribute, AttributeType, Draw, DrawState, GeometryDraw, NamedTexture, Primitive,
    ProvokingVertex, SamplerBinding, ShaderSource, UniformValue, assemble_primitives,
    integer_carrier, rules,
};
use crate::texture::Sampler;
use crate::texture::gl33::GlSampler;

/// A draw being built: shaders, vertex arrays, indices, uniforms, samplers and state,
/// with the bookkeeping (`index`, `vertex_count`, the assembled triangle list, shader
/// names, texture indexes) left to [`SceneBuilder::build`](super::SceneBuilder::build).
///
/// Misuse is not a panic: a value that breaks a rule of the scene format is kept and
/// reported by `build` (through [`Scene::validate`](super::super::Scene::validate)) as
/// the same error a scene file gets, on the field's scene path.
#[derive(Clone, Debug)]
pub struct DrawBuilder {
    vertex: String,
    fragment: String,
    geometry: Option<(String, String)>,
    attributes: Vec<Attribute>,
    indices: Option<Vec<u32>>,
    primitive: Primitive,
    restart: Option<u32>,
    instances: u32,
    uniforms: Vec<UniformValue>,
    /// (sampler uniform, texture name, sampler, GL 3.3 sampler state)
    samplers: Vec<(String, String, Sampler, Option<GlSampler>)>,
    state: DrawState,
    /// (plane, equation) in call order
    clip_planes: Vec<(usize, [f32; 4])>,
    /// (name, OBJ text) of `mesh`
    mesh: Option<(std::path::PathBuf, String)>,
}

impl Draw {
    /// A draw of the GLSL `vertex_glsl` and `fragment_glsl` sources (the scene
    /// format's `vertex` and `fragment`, given as text), to be given vertices with
    /// [`DrawBuilder::attribute`] and added with
    /// [`SceneBuilder::draw`](super::SceneBuilder::draw). Everything else starts at
    /// the scene format's default: triangles, 1 instance, the default [`DrawState`].
    // `Draw::new` names what it starts (a draw), as the builder's users spell it
    #[allow(clippy::new_ret_no_self)]
    pub fn new(vertex_glsl: impl Into<String>, fragment_glsl: impl Into<String>) -> DrawBuilder {
        DrawBuilder {
            vertex: vertex_glsl.into(),
            fragment: fragment_glsl.into(),
            geometry: None,
            attributes: Vec::new(),
            indices: None,
            primitive: Primitive::Triangles,
            restart: None,
            instances: 1,
            uniforms: Vec::new(),
            samplers: Vec::new(),
            state: DrawState::default(),
            clip_planes: Vec::new(),
            mesh: None,
        }
    }
}

impl DrawBuilder {
    /// A float attribute array (`attributes[]` with `type` `float`): `size` (1..=4)
    /// floats per vertex at `location` (0..=15), vertex after vertex. All per-vertex
    /// arrays of a draw hold the same number of vertices, which is the draw's vertex
    /// count.
    pub fn attribute(self, location: u32, size: u32, data: &[f32]) -> DrawBuilder {
        self.attribute_array(Attribute {
            location,
            size,
            data: data.to_vec(),
            ..Attribute::default()
        })
    }

    /// A signed integer array (`type: "int"`, `glVertexAttribIPointer`), exact.
    pub fn int_attribute(self, location: u32, size: u32, data: &[i32]) -> DrawBuilder {
        self.attribute_array(Attribute {
            location,
            size,
            data: data
                .iter()
                .map(|&v| integer_carrier(i64::from(v)))
                .collect(),
            ty: AttributeType::Int,
            divisor: 0,
        })
    }

    /// An unsigned integer array (`type: "uint"`), exact.
    pub fn uint_attribute(self, location: u32, size: u32, data: &[u32]) -> DrawBuilder {
        self.attribute_array(Attribute {
            location,
            size,
            data: data
                .iter()
                .map(|&v| integer_carrier(i64::from(v)))
                .collect(),
            ty: AttributeType::Uint,
            divisor: 0,
        })
    }

    /// Any attribute array as the model holds it (another `type`, a `divisor`).
    pub fn attribute_array(mut self, attribute: Attribute) -> DrawBuilder {
        self.attributes.push(attribute);
        self
    }

    /// The `divisor` of the array at `location` (`glVertexAttribDivisor`, GL 3.3 core
    /// §2.8.2: 0 per vertex, `d` one element per `d` instances). Give the array
    /// first; without one at `location`, `build` reports it.
    pub fn divisor(mut self, location: u32, divisor: u32) -> DrawBuilder {
        match self.attributes.iter_mut().find(|a| a.location == location) {
            Some(a) => a.divisor = divisor,
            // an empty array at `location` records the divisor; `build` reports it
            None => self.attributes.push(Attribute {
                location,
                size: 1,
                divisor,
                ..Attribute::default()
            }),
        }
        self
    }

    /// `indices`: the vertex list of the draw's primitive (`glDrawElements`); each
    /// below the vertex count or the restart index. Without it: every vertex in order.
    pub fn indices(mut self, indices: &[u32]) -> DrawBuilder {
        self.indices = Some(indices.to_vec());
        self
    }

    /// `primitive` (default [`Primitive::Triangles`]).
    pub fn primitive(mut self, primitive: Primitive) -> DrawBuilder {
        self.primitive = primitive;
        self
    }

    /// `primitive_restart_index` (GL 3.1 §2.8.1); needs [`DrawBuilder::indices`].
    pub fn primitive_restart_index(mut self, index: u32) -> DrawBuilder {
        self.restart = Some(index);
        self
    }

    /// `instances` (0..=2^20, default 1).
    pub fn instances(mut self, instances: u32) -> DrawBuilder {
        self.instances = instances;
        self
    }

    /// `geometry`: a geometry shader (GLSL text) and the draw mode that feeds it,
    /// one of [`GEOMETRY_MODES`](super::super::GEOMETRY_MODES) by name (`"triangles"`, `"lines_adjacency"`, …).
    pub fn geometry(mut self, geometry_glsl: impl Into<String>, mode: &str) -> DrawBuilder {
        self.geometry = Some((geometry_glsl.into(), mode.to_string()));
        self
    }

    /// A `uniforms` entry: `key` (`NAME` or `NAME[INDEX]`) → floats (column-major for
    /// matrices). The pipeline checks the name and count against the program.
    pub fn uniform(mut self, key: impl Into<String>, values: &[f32]) -> DrawBuilder {
        self.uniforms
            .push(UniformValue::floats(key, values.to_vec()));
        self
    }

    /// A `uniforms` entry of exact integers, for an `int`/`uint` uniform (a value past
    /// 2^24 is not rounded through a float).
    pub fn uniform_ints(mut self, key: impl Into<String>, values: &[i64]) -> DrawBuilder {
        self.uniforms.push(UniformValue {
            key: key.into(),
            values: values.iter().map(|&v| v as f32).collect(),
            ints: Some(values.to_vec()),
        });
        self
    }

    /// A `samplers` entry: sampler uniform `name` reads the scene's texture `texture`
    /// (by name) with `sampler`'s filters and wrap; its texture unit is its position.
    pub fn sampler(
        mut self,
        name: impl Into<String>,
        texture: &str,
        sampler: Sampler,
    ) -> DrawBuilder {
        self.samplers
            .push((name.into(), texture.to_string(), sampler, None));
        self
    }

    /// A `samplers` entry with GL 3.3 sampler state (`wrap_s`, `border_color`,
    /// `compare`, the λ and level keys, …).
    pub fn gl_sampler(
        mut self,
        name: impl Into<String>,
        texture: &str,
        state: GlSampler,
    ) -> DrawBuilder {
        let sampler = Sampler {
            mag_filter: state.mag_filter,
            min_filter: state.min_filter,
            wrap: crate::texture::Wrap::Clamp,
        };
        self.samplers
            .push((name.into(), texture.to_string(), sampler, Some(state)));
        self
    }

    /// `mesh`: the vertices and triangles of an OBJ file's text `obj` (the subset
    /// `docs/scene-format.md` "OBJ meshes" reads: location 0 position, 1 normal, 2
    /// texture coordinate), named `name` in errors and [`Draw::mesh`]. Not with
    /// attributes, indices, another primitive or a restart index, as in a file.
    pub fn mesh(
        mut self,
        name: impl Into<std::path::PathBuf>,
        obj: impl Into<String>,
    ) -> DrawBuilder {
        self.mesh = Some((name.into(), obj.into()));
        self
    }

    /// `state`: the fixed-function state ([`DrawState`] and its helpers).
    pub fn state(mut self, state: DrawState) -> DrawBuilder {
        self.state = state;
        self
    }

    /// `state.clip_planes[plane]`: enable user clip plane `plane` (0..8) with equation
    /// `(a, b, c, d)` (GL 3.0 §2.17).
    pub fn clip_plane(mut self, plane: usize, equation: [f32; 4]) -> DrawBuilder {
        self.clip_planes.push((plane, equation));
        self
    }

    /// The model's draw `index` of a scene whose textures are `textures` (named in
    /// `scene`'s shader names `SCENE/draws[i].vertex`): bookkeeping filled in and the
    /// triangle list assembled as the loader does. The first rule a value breaks that
    /// the model cannot hold (a texture name, the geometry mode, a restart without
    /// indices, a clip plane past 7) is an `Err((field, message))`.
    pub(super) fn finish(
        self,
        index: usize,
        scene: &std::path::Path,
        textures: &[NamedTexture],
    ) -> Result<Draw, (String, String)> {
        let at = format!("draws[{index}]");
        let name = |key: &str| scene.join(format!("{at}.{key}"));
        let mut state = self.state;
        for (plane, equation) in &self.clip_planes {
            // as many entries as the JSON list would need to reach `plane`
            rules::clip_plane_count(plane.saturating_add(1))
                .map_err(|m| (format!("{at}.state.clip_planes"), m))?;
            state.clip_planes.equations[*plane] = *equation;
            state.clip_planes.enabled |= 1 << plane;
        }
        let geometry = match self.geometry {
            None => None,
            Some((text, mode)) => {
                let mode = rules::one_of(&GEOMETRY_MODE_NAMES, &mode, &format!("{mode:?}"))
                    .map_err(|m| (format!("{at}.primitive"), m))?;
                Some((ShaderSource::glsl(name("geometry"), text), mode))
            }
        };
        let primitive = if geometry.is_some() {
            Primitive::Triangles
        } else {
            self.primitive
        };
        let mut attributes = self.attributes;
        let mut mesh_path = None;
        let mut indices = self.indices;
        if let Some((path, obj)) = self.mesh {
            let fault = if !attributes.is_empty() {
                Some(("mesh", rules::MESH_OR_ATTRIBUTES))
            } else if indices.is_some() {
                Some(("indices", rules::MESH_HAS_INDICES))
            } else if self.restart.is_some() {
                Some(("primitive_restart_index", rules::MESH_IS_TRIANGLES))
            } else if primitive != Primitive::Triangles {
                Some(("primitive", rules::MESH_IS_TRIANGLES))
            } else {
                None
            };
            if let Some((key, message)) = fault {
                return Err((format!("{at}.{key}"), message.to_string()));
            }
            // the text is in memory already: no triangle budget
            let mesh = parse_obj(obj.as_bytes(), u64::MAX).map_err(|e| {
                let message = match e {
                    ObjError::Invalid(m) => m,
                    ObjError::OverBudget { triangles, .. } => {
                        format!("at least {triangles} triangles")
                    }
                };
                (
                    format!("{at}.mesh"),
                    format!("{}: {message}", path.display()),
                )
            })?;
            attributes = mesh.attributes;
            indices = Some(mesh.indices);
            mesh_path = Some(path);
        }
        if self.restart.is_some() && indices.is_none() {
            return Err((
                format!("{at}.primitive_restart_index"),
                rules::RESTART_NEEDS_INDICES.to_string(),
            ));
        }
        attributes.sort_by_key(|a| a.location);
        // the first per-vertex array sets the count (`validate` holds the others to it)
        let vertex_count = attributes
            .iter()
            .find(|a| a.divisor == 0 && a.size > 0)
            .map_or(0, |a| (a.data.len() / a.size as usize) as u32);
        let plain = plain_triangles(
            primitive,
            self.restart,
            state.provoking_vertex,
            geometry.is_some(),
        );
        let given = match indices {
            Some(list) => list,
            None if plain => (0..vertex_count / 3 * 3).collect(),
            None => (0..vertex_count).collect(),
        };
        let (indices, elements) = triangle_lists(
            plain,
            geometry.is_some(),
            primitive,
            given,
            self.restart,
            state.provoking_vertex,
        );
        let mut samplers = Vec::with_capacity(self.samplers.len());
        for (sampler_name, texture, sampler, gl33) in self.samplers {
            let texture = rules::texture_named(textures, &texture)
                .map_err(|m| (format!("{at}.samplers.{sampler_name}.texture"), m))?;
            samplers.push(SamplerBinding {
                name: sampler_name,
                texture,
                sampler,
                gl33,
            });
        }
        let restart = self.restart;
        let geometry =
            geometry.map(|(shader, mode)| GeometryDraw::new(shader, mode, &elements, restart));
        Ok(Draw {
            index,
            mesh: mesh_path,
            vertex: ShaderSource::glsl(name("vertex"), self.vertex),
            fragment: ShaderSource::glsl(name("fragment"), self.fragment),
            geometry,
            attributes,
            vertex_count,
            indices,
            primitive,
            instances: self.instances,
            elements,
            primitive_restart_index: restart,
            uniforms: self.uniforms,
            samplers,
            state,
        })
    }
}

/// Whether a draw's index list is drawn as given: `triangles` in the last-vertex
/// convention, no restart, no geometry shader (the bytes of every scene from before
/// those keys). Anything else is assembled ([`triangle_lists`]).
pub(crate) fn plain_triangles(
    primitive: Primitive,
    restart: Option<u32>,
    provoking: ProvokingVertex,
    geometry: bool,
) -> bool {
    primitive == Primitive::Triangles
        && restart.is_none()
        && provoking == ProvokingVertex::Last
        && !geometry
}

/// A draw's [`Draw::indices`] and [`Draw::elements`] from the vertex list it is given
/// (`given`): the list itself for a plain triangle list; none (the geometry stage
/// assembles its input) for a geometry draw; else the triangles
/// [`assemble_primitives`] makes, with the list kept as the elements.
pub(crate) fn triangle_lists(
    plain: bool,
    geometry: bool,
    primitive: Primitive,
    given: Vec<u32>,
    restart: Option<u32>,
    provoking: ProvokingVertex,
) -> (Vec<u32>, Option<Vec<u32>>) {
    if plain {
        (given, None)
    } else if geometry {
        (Vec::new(), Some(given))
    } else {
        let triangles = assemble_primitives(primitive, &given, restart, provoking);
        (triangles, Some(given))
    }
}
