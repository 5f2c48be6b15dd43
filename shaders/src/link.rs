//! Program linking: match fragment inputs to vertex outputs by name and type, build
//! `var_remap`, and lay out the uniforms of both stages (docs/csir.md "Varying remap";
//! docs/csir-original.md B §7.2, with uniform conflicts always reported).

use crate::ir::{InterfaceSymbol, Interpolation, MAX_VARYINGS, Shader, Stage, SymbolKind, Type};
use crate::layout::{IntLanes, Layout, UniformKey, UniformWrite};
use thiserror::Error;

pub use crate::layout::UniformError;

/// Why two shaders do not form a program. Messages follow docs/csir-original.md B §7.2.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LinkError {
    /// A geometry shader that samples a texture: the renderer binds textures to the
    /// vertex and fragment stages only so far.
    #[error("a geometry shader that samples a texture is not supported yet")]
    GeometrySampler,
    /// A shader was given for the wrong stage.
    #[error("program is missing a compiled {0} shader")]
    WrongStage(Stage),
    /// A shader has no named interface (loaded from CSI v1), so nothing can be
    /// matched by name.
    #[error(
        "the {0} shader has no named interface: CSI v1 carries no varying, attribute or \
         uniform names; recompile it or store it as CSI v2"
    )]
    NoInterfaceNames(Stage),
    /// The vertex shader never assigns `gl_Position`.
    #[error("vertex shader does not write gl_Position")]
    NoPosition,
    /// A fragment `in` has no vertex `out` of the same name.
    #[error("missing varying '{0}': the vertex shader has no output of that name")]
    MissingVarying(String),
    /// A fragment `in` and the vertex `out` of that name differ in type.
    #[error("type mismatch for varying '{name}': vertex {vertex}, fragment {fragment}")]
    VaryingType {
        /// The varying's name.
        name: String,
        /// The vertex output's type.
        vertex: Type,
        /// The fragment input's type.
        fragment: Type,
    },
    /// A fragment array `in` and the vertex array `out` of that name differ in length
    /// (GLSL 1.10 §4.3.6: a varying links by name, type and size). `gl_TexCoord`,
    /// implicitly sized in each shader, may be shorter in the fragment shader; a
    /// fragment shader that reads an element the vertex shader never writes fails here.
    #[error(
        "array length mismatch for varying '{name}': vertex {vertex} elements, fragment {fragment}"
    )]
    VaryingLength {
        /// The varying's name.
        name: String,
        /// Elements of the vertex output (0: not an array).
        vertex: u16,
        /// Elements of the fragment input (0: not an array).
        fragment: u16,
    },
    /// A fragment `in` and the vertex `out` it reads have different interpolation
    /// qualifiers (GLSL 1.30 §4.3.6: they must match; no qualifier is `smooth`).
    /// `gl_Color` / `gl_SecondaryColor` are checked against both the front and the
    /// back colour the vertex shader writes.
    #[error(
        "interpolation mismatch for varying '{name}': vertex '{vertex_name}' is {vertex}, \
         fragment is {fragment} (GLSL 1.30 §4.3.6: the qualifiers must match)"
    )]
    VaryingInterpolation {
        /// The fragment input's name.
        name: String,
        /// The vertex output compared (`gl_FrontColor`, `gl_BackColor`, or `name`).
        vertex_name: String,
        /// Its qualifier's keyword, or `unqualified`.
        vertex: &'static str,
        /// The fragment input's qualifier's keyword, or `unqualified`.
        fragment: &'static str,
    },
    /// The fragment shader reads more varying vec4 slots than a program may pass
    /// ([`MAX_VARYINGS`]); its limits allowed them, the rasterizer does not.
    #[error(
        "the fragment shader reads {count} varying vec4 slots ({} floats), more than the \
         limit of {max} ({} floats, GL_MAX_VARYING_COMPONENTS)",
        count * 4,
        max * 4
    )]
    TooManyVaryings {
        /// Slots the fragment shader reads: its highest varying slot + 1.
        count: usize,
        /// [`MAX_VARYINGS`].
        max: usize,
    },
    /// Both stages declare a uniform of this name with different types.
    #[error("uniform type mismatch for '{name}': vertex {vertex}, fragment {fragment}")]
    UniformType {
        /// The uniform's name.
        name: String,
        /// Its type as the vertex shader (or first declaration) writes it, e.g.
        /// `vec3[4]`, or `a non-sampler`.
        vertex: String,
        /// Its type as the fragment shader (or second declaration) writes it.
        fragment: String,
    },
}

/// One vertex attribute of a linked program.
#[derive(Clone, Debug, PartialEq)]
pub struct AttributeRecord {
    /// Source name.
    pub name: String,
    /// Declared type (float or vecN; its width is the component count read).
    pub ty: Type,
    /// Attribute location 0..Limits::attributes.
    pub location: u16,
}

/// One varying of a linked program (named by the vertex output).
#[derive(Clone, Debug, PartialEq)]
pub struct VaryingRecord {
    /// Source name, the same in both stages.
    pub name: String,
    /// Type, the same in both stages.
    pub ty: Type,
    /// Vertex-stage slot (what LOAD_VAR reads after remapping).
    pub vertex_slot: u16,
    /// Fragment-local slot.
    pub fragment_slot: u16,
    /// The interpolation qualifier both stages declare (`None`: none, which is
    /// `smooth`, or for the built-in colours the shade model's choice; see
    /// [`Interpolation`]).
    pub interpolation: Option<Interpolation>,
}

/// One non-sampler uniform, with its vec4 slot in each stage that declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformRecord {
    /// Source name.
    pub name: String,
    /// Element type.
    pub ty: Type,
    /// `Some(n)` for arrays of `n` elements.
    pub array_len: Option<u16>,
    /// First vec4 slot in the vertex stage, if declared there.
    pub vertex_slot: Option<u16>,
    /// First vec4 slot in the fragment stage, if declared there.
    pub fragment_slot: Option<u16>,
    /// First vec4 slot in the geometry stage, if the program has one that declares it.
    pub geometry_slot: Option<u16>,
}

impl UniformRecord {
    /// How the uniform lies in vec4 slots.
    pub fn layout(&self) -> Layout {
        Layout::new(self.ty, self.array_len)
    }

    /// Type as written in source, e.g. `vec3` or `vec3[4]`.
    pub fn type_name(&self) -> String {
        self.layout().type_name()
    }

    /// Floats one element takes (float 1, vecN N, mat3 9, mat4 16).
    pub fn element_floats(&self) -> usize {
        self.ty.float_count()
    }
}

/// One sampler uniform, with its sampler slot in each stage that declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerRecord {
    /// Source name.
    pub name: String,
    /// Sampler slot in the vertex stage.
    pub vertex_slot: Option<u16>,
    /// Sampler slot in the fragment stage.
    pub fragment_slot: Option<u16>,
}

/// Uniform values laid out as each stage's vec4 slots (`uni_hi + 1` slots each),
/// ready for the interpreters' `uniforms` input. Unset slots are zero.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct UniformStorage {
    /// Vertex-stage vec4 slots.
    pub vertex: Vec<[f32; 4]>,
    /// Fragment-stage vec4 slots.
    pub fragment: Vec<[f32; 4]>,
    /// Geometry-stage vec4 slots (empty without a geometry shader).
    pub geometry: Vec<[f32; 4]>,
}

/// A linked vertex + fragment pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The vertex shader (verified).
    pub vertex: Shader,
    /// The fragment shader (verified).
    pub fragment: Shader,
    /// Fragment-local varying slot → vertex slot, indexed by fragment slot; −1 where
    /// the fragment shader has no input at that slot.
    pub var_remap: Vec<i16>,
    /// Vertex inputs in declaration order.
    pub attributes: Vec<AttributeRecord>,
    /// Varyings in fragment declaration order.
    pub varyings: Vec<VaryingRecord>,
    /// Uniforms, vertex declarations first, then fragment-only ones.
    pub uniforms: Vec<UniformRecord>,
    /// Samplers, vertex first, then fragment-only ones.
    pub samplers: Vec<SamplerRecord>,
    /// The geometry shader between the two, if any ([`Program::link_geometry`]): then
    /// [`Program::var_remap`] and [`Program::varyings`] link the fragment shader to
    /// the geometry shader's outputs instead of the vertex shader's.
    pub geometry: Option<crate::link_geometry::GeometryLink>,
}

impl Program {
    /// Link `vertex` and `fragment` (both verified shaders of the named stages).
    ///
    /// Errors: wrong stage, a shader without a named interface (CSI v1), no
    /// `gl_Position` write, a fragment shader reading more than [`MAX_VARYINGS`]
    /// varying slots, a fragment input
    /// without a same-named vertex output, a varying or uniform declared with two
    /// different types. Unused vertex outputs are allowed.
    pub fn link(vertex: Shader, fragment: Shader) -> Result<Program, LinkError> {
        check_stages(&vertex, &fragment)?;
        check_varying_count(&fragment)?;
        let (var_remap, varyings) = link_varyings(&vertex, &fragment)?;
        let attributes = attribute_records(&vertex);
        let (uniforms, samplers) = link_uniforms(&vertex, &fragment, None)?;
        Ok(Program {
            vertex,
            fragment,
            var_remap,
            attributes,
            varyings,
            uniforms,
            samplers,
            geometry: None,
        })
    }

    /// Uniform storage sized for both stages, holding every uniform's value before it
    /// is set ([`Interface::new_uniforms`](crate::ir::Interface::new_uniforms): its
    /// initializer's value in either stage, else zero, except the compatibility
    /// built-in matrices, which are identity as in GL).
    pub fn new_uniforms(&self) -> UniformStorage {
        let mut storage = UniformStorage {
            vertex: self.vertex.interface.new_uniforms(),
            fragment: self.fragment.interface.new_uniforms(),
            geometry: self
                .geometry
                .as_ref()
                .map_or_else(Vec::new, |g| g.shader.interface.new_uniforms()),
        };
        // A uniform is one variable of the program (GLSL 1.20 §4.3.5): an initializer
        // in either stage gives its value in both.
        let geometry = self.geometry.as_ref().map(|g| &g.shader);
        for shader in [&self.vertex, &self.fragment].into_iter().chain(geometry) {
            for (name, values) in &shader.interface.uniform_initializers {
                // Checked against this stage's declaration; the link checked the other
                // stage declares it the same way.
                let _ = self.set_uniform_lanes(&mut storage, name, values, IntLanes::AsStored);
            }
        }
        storage
    }

    /// Find a uniform record by plain name (no `[i]`).
    pub fn uniform(&self, name: &str) -> Option<&UniformRecord> {
        self.uniforms.iter().find(|u| u.name == name)
    }

    /// Set uniform `name` in every stage that declares it, as
    /// `glUniform*fv`/`glUniformMatrix*fv(transpose = false)` would.
    ///
    /// `name` is a plain name (all elements of an array, element after element) or
    /// `name[i]` (one element). `values` holds, per element, 1 float for
    /// float/int/bool, N for vecN/ivecN, 9 for mat3 and 16 for mat4, column-major.
    /// int and ivecN values are truncated toward zero, bool values become 1.0 when
    /// nonzero (as GL converts them). A mat3 column fills lanes xyz of its slot, w = 0.
    ///
    /// Under the extended profile an int/uint uniform's lanes hold 32-bit patterns:
    /// the values given here are truncated and stored as patterns (exact within
    /// ±(2^24 − 1)); [`Program::set_uniform_ints`] takes any 32-bit value exactly.
    pub fn set_uniform(
        &self,
        storage: &mut UniformStorage,
        name: &str,
        values: &[f32],
    ) -> Result<(), UniformError> {
        let ints = match self.vertex.limits.extended_ops() {
            true => IntLanes::Patterns,
            false => IntLanes::Values,
        };
        self.set_uniform_lanes(storage, name, values, ints)
    }

    /// Set uniform `name` from integer values (`glUniform*i`, `glUniform*ui`, scene
    /// JSON integers; one per float [`Program::set_uniform`] takes): an int/uint
    /// uniform gets each value exactly (−2^31..=2^32 − 1 under the extended profile,
    /// ±(2^24 − 1) under the seed's), a float one the nearest float, a bool one
    /// 1.0 when nonzero ([`crate::layout::uniform_lanes_from_ints`]).
    pub fn set_uniform_ints(
        &self,
        storage: &mut UniformStorage,
        name: &str,
        ints: &[i64],
    ) -> Result<(), UniformError> {
        let key = UniformKey::parse(name).ok_or_else(|| UniformError::Unknown(name.into()))?;
        let ty = self
            .uniform(key.name)
            .map(|r| r.layout().ty)
            .ok_or_else(|| UniformError::Unknown(key.name.to_string()))?;
        let patterns = self.vertex.limits.extended_ops();
        let lanes = crate::layout::uniform_lanes_from_ints(name, ty, ints, patterns)?;
        self.set_uniform_lanes(storage, name, &lanes, IntLanes::AsStored)
    }

    fn set_uniform_lanes(
        &self,
        storage: &mut UniformStorage,
        name: &str,
        values: &[f32],
        ints: IntLanes,
    ) -> Result<(), UniformError> {
        let key = UniformKey::parse(name).ok_or_else(|| UniformError::Unknown(name.into()))?;
        if self.samplers.iter().any(|s| s.name == key.name) {
            return Err(UniformError::Sampler(key.name.to_string()));
        }
        let rec = self
            .uniform(key.name)
            .ok_or_else(|| UniformError::Unknown(key.name.to_string()))?;
        let value = UniformWrite::with_ints(name, key, rec.layout(), values, ints)?;
        for (stage_slot, slots) in [
            (rec.vertex_slot, &mut storage.vertex),
            (rec.fragment_slot, &mut storage.fragment),
            (rec.geometry_slot, &mut storage.geometry),
        ] {
            if let Some(first_slot) = stage_slot {
                value.store(slots, first_slot);
            }
        }
        Ok(())
    }
}

/// Each shader is of its stage and has a named interface, and the vertex shader writes
/// `gl_Position`.
pub(crate) fn check_stages(vertex: &Shader, fragment: &Shader) -> Result<(), LinkError> {
    if vertex.stage != Stage::Vertex {
        return Err(LinkError::WrongStage(Stage::Vertex));
    }
    if fragment.stage != Stage::Fragment {
        return Err(LinkError::WrongStage(Stage::Fragment));
    }
    for shader in [vertex, fragment] {
        if !shader.interface.named {
            return Err(LinkError::NoInterfaceNames(shader.stage));
        }
    }
    if !vertex.interface.writes_position {
        return Err(LinkError::NoPosition);
    }
    Ok(())
}

/// The fragment shader reads at most [`MAX_VARYINGS`] varying slots (`var_hi + 1`, the
/// slots the rasterizer interpolates for it).
pub(crate) fn check_varying_count(fragment: &Shader) -> Result<(), LinkError> {
    let count = usize::try_from(fragment.interface.var_hi + 1).unwrap_or(0);
    if count > MAX_VARYINGS {
        return Err(LinkError::TooManyVaryings {
            count,
            max: MAX_VARYINGS,
        });
    }
    Ok(())
}

/// Every fragment input matched to its vertex output: `var_remap` (fragment slot →
/// vertex slot, −1 where the fragment shader has no input) and the varying records in
/// fragment declaration order.
pub(crate) fn link_varyings(
    vertex: &Shader,
    fragment: &Shader,
) -> Result<(Vec<i16>, Vec<VaryingRecord>), LinkError> {
    let mut var_remap = vec![-1i16; fragment.limits.varyings];
    let mut varyings = Vec::new();
    for sym in &fragment.interface.symbols {
        let SymbolKind::VaryingIn { slot } = sym.kind else {
            continue;
        };
        if crate::lang::builtin_vars::rasterizer_input(&sym.name) {
            continue;
        }
        let vslot = vertex_slot_for(vertex, sym)?;
        // An array (or matrix) varying: each of its slots reads the same one of the
        // vertex output's.
        for k in 0..sym.array_len.unwrap_or(1) {
            if let Some(entry) = var_remap.get_mut((slot + k) as usize) {
                *entry = (vslot + k) as i16;
            }
        }
        varyings.push(VaryingRecord {
            name: sym.name.clone(),
            ty: sym.ty,
            vertex_slot: vslot,
            fragment_slot: slot,
            interpolation: sym.interpolation,
        });
    }
    Ok((var_remap, varyings))
}

/// The vertex slot of the output fragment input `input` reads, once their types,
/// interpolation qualifiers and array lengths match. Built-in inputs such as
/// `gl_Color` read their vertex output (`gl_FrontColor`, or `gl_BackColor` when that is
/// the only one written).
pub(crate) fn vertex_slot_for(vertex: &Shader, input: &InterfaceSymbol) -> Result<u16, LinkError> {
    let out = crate::lang::builtin_vars::link_names(&input.name)
        .into_iter()
        .find_map(|source| vertex.varying_output(source))
        .ok_or_else(|| LinkError::MissingVarying(input.name.clone()))?;
    let SymbolKind::VaryingOut { slot } = out.kind else {
        unreachable!("varying_output returns varying outputs only")
    };
    if out.ty != input.ty {
        return Err(LinkError::VaryingType {
            name: input.name.clone(),
            vertex: out.ty,
            fragment: input.ty,
        });
    }
    check_interpolation(vertex, out, input)?;
    let (vertex_len, fragment_len) = (out.array_len.unwrap_or(0), input.array_len.unwrap_or(0));
    let implicitly_sized = input.name == "gl_TexCoord" && fragment_len <= vertex_len;
    if vertex_len != fragment_len && !implicitly_sized {
        return Err(LinkError::VaryingLength {
            name: input.name.clone(),
            vertex: vertex_len,
            fragment: fragment_len,
        });
    }
    Ok(slot)
}

/// Fragment input `input` has the interpolation qualifier of the vertex output `out`
/// it reads and, for `gl_Color` / `gl_SecondaryColor`, of the back colour the vertex
/// shader writes too (GLSL 1.30 §4.3.6).
fn check_interpolation(
    vertex: &Shader,
    out: &InterfaceSymbol,
    input: &InterfaceSymbol,
) -> Result<(), LinkError> {
    let back = crate::lang::builtin_vars::back_face_source(&input.name)
        .and_then(|b| vertex.varying_output(b));
    for source in std::iter::once(out).chain(back) {
        if !Interpolation::same(source.interpolation, input.interpolation) {
            let word = |q: Option<Interpolation>| q.map_or("unqualified", |q| q.keyword());
            return Err(LinkError::VaryingInterpolation {
                name: input.name.clone(),
                vertex_name: source.name.clone(),
                vertex: word(source.interpolation),
                fragment: word(input.interpolation),
            });
        }
    }
    Ok(())
}

/// The vertex shader's attributes, in declaration order.
pub(crate) fn attribute_records(vertex: &Shader) -> Vec<AttributeRecord> {
    vertex
        .interface
        .symbols
        .iter()
        .filter_map(|s| match s.kind {
            SymbolKind::Attribute { location } => Some(AttributeRecord {
                name: s.name.clone(),
                ty: s.ty,
                location,
            }),
            _ => None,
        })
        .collect()
}

/// The uniforms and samplers of both stages, vertex declarations first, a name
/// declared in both stages once with both slots. Errors: a name declared with two
/// types, or as a sampler and as a non-sampler.
pub(crate) fn link_uniforms(
    vertex: &Shader,
    fragment: &Shader,
    geometry: Option<&Shader>,
) -> Result<(Vec<UniformRecord>, Vec<SamplerRecord>), LinkError> {
    let mut uniforms: Vec<UniformRecord> = Vec::new();
    let mut samplers: Vec<SamplerRecord> = Vec::new();
    let stages = [(Stage::Vertex, vertex), (Stage::Fragment, fragment)];
    for (stage, shader) in stages
        .into_iter()
        .chain(geometry.map(|g| (Stage::Geometry, g)))
    {
        for sym in &shader.interface.symbols {
            match sym.kind {
                SymbolKind::Uniform { slot } => {
                    add_uniform(&mut uniforms, sym, stage, slot)?;
                }
                SymbolKind::Sampler { slot, .. } => {
                    if uniforms.iter().any(|u| u.name == sym.name) {
                        return Err(sampler_conflict(&sym.name, "a non-sampler".into()));
                    }
                    add_sampler(&mut samplers, sym, stage, slot);
                }
                _ => {}
            }
        }
    }
    if let Some(u) = uniforms
        .iter()
        .find(|u| samplers.iter().any(|s| s.name == u.name))
    {
        return Err(sampler_conflict(&u.name, u.type_name()));
    }
    Ok((uniforms, samplers))
}

/// Records non-sampler uniform `sym` of `stage` at vec4 slot `slot`: a new record, or
/// the other stage's one when it has the same type.
fn add_uniform(
    uniforms: &mut Vec<UniformRecord>,
    sym: &InterfaceSymbol,
    stage: Stage,
    slot: u16,
) -> Result<(), LinkError> {
    let rec = match uniforms.iter().position(|u| u.name == sym.name) {
        Some(i) => {
            let rec = &mut uniforms[i];
            if rec.ty != sym.ty || rec.array_len != sym.array_len {
                return Err(LinkError::UniformType {
                    name: sym.name.clone(),
                    vertex: rec.type_name(),
                    fragment: Layout::of(sym).type_name(),
                });
            }
            rec
        }
        None => {
            uniforms.push(UniformRecord {
                name: sym.name.clone(),
                ty: sym.ty,
                array_len: sym.array_len,
                vertex_slot: None,
                fragment_slot: None,
                geometry_slot: None,
            });
            uniforms.last_mut().expect("just pushed")
        }
    };
    set_stage_slot(
        [
            &mut rec.vertex_slot,
            &mut rec.fragment_slot,
            &mut rec.geometry_slot,
        ],
        stage,
        slot,
    );
    Ok(())
}

/// Records sampler `sym` of `stage` at sampler slot `slot` (a new record, or the other
/// stage's one).
fn add_sampler(samplers: &mut Vec<SamplerRecord>, sym: &InterfaceSymbol, stage: Stage, slot: u16) {
    let rec = match samplers.iter().position(|s| s.name == sym.name) {
        Some(i) => &mut samplers[i],
        None => {
            samplers.push(SamplerRecord {
                name: sym.name.clone(),
                vertex_slot: None,
                fragment_slot: None,
            });
            samplers.last_mut().expect("just pushed")
        }
    };
    let mut geometry = None;
    set_stage_slot(
        [&mut rec.vertex_slot, &mut rec.fragment_slot, &mut geometry],
        stage,
        slot,
    );
}

/// Sets `stage`'s entry of a record's `[vertex_slot, fragment_slot, geometry_slot]`
/// to `slot`.
fn set_stage_slot([vertex, fragment, geometry]: [&mut Option<u16>; 3], stage: Stage, slot: u16) {
    let entry = match stage {
        Stage::Vertex => vertex,
        Stage::Fragment => fragment,
        Stage::Geometry => geometry,
    };
    *entry = Some(slot);
}

/// The error for `name` declared both as a sampler and as the non-sampler `other`.
fn sampler_conflict(name: &str, other: String) -> LinkError {
    LinkError::UniformType {
        name: name.to_string(),
        vertex: other,
        fragment: Type::Sampler2D.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Interface, Limits};

    fn sym(name: &str, ty: Type, kind: SymbolKind) -> InterfaceSymbol {
        InterfaceSymbol {
            name: name.into(),
            ty,
            array_len: None,
            kind,
            interpolation: None,
        }
    }

    fn shader(stage: Stage, symbols: Vec<InterfaceSymbol>) -> Shader {
        Shader {
            name: "t".into(),
            stage,
            limits: Limits::SEED,
            ir: vec![],
            imm: vec![],
            ntmp: 0,
            interface: Interface {
                symbols,
                uni_hi: 7,
                writes_position: stage == Stage::Vertex,
                ..Interface::default()
            },
        }
    }

    fn pair() -> (Shader, Shader) {
        let vs = shader(
            Stage::Vertex,
            vec![
                sym("aPos", Type::Vec3, SymbolKind::Attribute { location: 0 }),
                sym("uMVP", Type::Mat4, SymbolKind::Uniform { slot: 0 }),
                sym("uN", Type::Mat3, SymbolKind::Uniform { slot: 4 }),
                sym("vA", Type::Vec2, SymbolKind::VaryingOut { slot: 0 }),
                sym("vB", Type::Vec3, SymbolKind::VaryingOut { slot: 1 }),
            ],
        );
        let fs = shader(
            Stage::Fragment,
            vec![
                sym("vB", Type::Vec3, SymbolKind::VaryingIn { slot: 0 }),
                sym("uFlag", Type::Bool, SymbolKind::Uniform { slot: 0 }),
                sym("uMVP", Type::Mat4, SymbolKind::Uniform { slot: 1 }),
                sym("uTex", Type::Sampler2D, SymbolKind::sampler_2d(0)),
                sym("color", Type::Vec4, SymbolKind::color_out(0)),
            ],
        );
        (vs, fs)
    }

    #[test]
    fn varyings_are_matched_by_name_into_var_remap() {
        let (vs, fs) = pair();
        let p = Program::link(vs, fs).unwrap();
        assert_eq!(p.var_remap[0], 1);
        assert_eq!(&p.var_remap[1..], &[-1; 7]);
        assert_eq!(p.uniforms.len(), 3);
        assert_eq!(p.uniform("uMVP").unwrap().fragment_slot, Some(1));
        assert_eq!(p.samplers[0].fragment_slot, Some(0));
    }

    #[test]
    fn missing_and_mistyped_varyings_are_named() {
        let (vs, mut fs) = pair();
        fs.interface.symbols[0].name = "vC".into();
        assert_eq!(
            Program::link(vs.clone(), fs).unwrap_err().to_string(),
            "missing varying 'vC': the vertex shader has no output of that name"
        );
        let (_, mut fs) = pair();
        fs.interface.symbols[0].ty = Type::Vec4;
        assert_eq!(
            Program::link(vs, fs).unwrap_err(),
            LinkError::VaryingType {
                name: "vB".into(),
                vertex: Type::Vec3,
                fragment: Type::Vec4
            }
        );
    }

    #[test]
    fn a_fragment_shader_reading_more_than_max_varyings_slots_fails_to_link() {
        let (vs, mut fs) = pair();
        fs.interface.var_hi = MAX_VARYINGS as i16; // slots 0..=16: one too many
        assert_eq!(
            Program::link(vs.clone(), fs.clone()).unwrap_err(),
            LinkError::TooManyVaryings { count: 17, max: 16 }
        );
        fs.interface.var_hi = MAX_VARYINGS as i16 - 1;
        assert!(Program::link(vs, fs).is_ok());
    }

    #[test]
    fn uniform_type_conflicts_fail() {
        let (vs, mut fs) = pair();
        fs.interface.symbols[2].ty = Type::Mat3;
        assert!(matches!(
            Program::link(vs, fs),
            Err(LinkError::UniformType { .. })
        ));
    }

    #[test]
    fn set_uniform_lays_out_columns_in_both_stages() {
        let (vs, fs) = pair();
        let p = Program::link(vs, fs).unwrap();
        let mut u = p.new_uniforms();
        let m: Vec<f32> = (0..16).map(|i| i as f32).collect();
        p.set_uniform(&mut u, "uMVP", &m).unwrap();
        assert_eq!(u.vertex[3], [12.0, 13.0, 14.0, 15.0]);
        assert_eq!(u.fragment[1], [0.0, 1.0, 2.0, 3.0]);
        let n: Vec<f32> = (1..=9).map(|i| i as f32).collect();
        p.set_uniform(&mut u, "uN", &n).unwrap();
        assert_eq!(u.vertex[5], [4.0, 5.0, 6.0, 0.0]);
        p.set_uniform(&mut u, "uFlag", &[0.5]).unwrap();
        assert_eq!(u.fragment[0], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(
            p.set_uniform(&mut u, "uNope", &[1.0]),
            Err(UniformError::Unknown("uNope".into()))
        );
        assert!(matches!(
            p.set_uniform(&mut u, "uN", &[1.0; 16]),
            Err(UniformError::Count {
                expected: 9,
                got: 16,
                ..
            })
        ));
        assert_eq!(
            p.set_uniform(&mut u, "uTex", &[0.0]),
            Err(UniformError::Sampler("uTex".into()))
        );
    }

    #[test]
    fn array_elements_can_be_set_one_by_one() {
        let (mut vs, fs) = pair();
        vs.interface.symbols.push(InterfaceSymbol {
            name: "uL".into(),
            ty: Type::Vec3,
            array_len: Some(3),
            kind: SymbolKind::Uniform { slot: 7 },
            interpolation: None,
        });
        vs.interface.uni_hi = 9;
        let p = Program::link(vs, fs).unwrap();
        let mut u = p.new_uniforms();
        p.set_uniform(&mut u, "uL[1]", &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(u.vertex[8], [1.0, 2.0, 3.0, 0.0]);
        p.set_uniform(&mut u, "uL", &[9.0; 9]).unwrap();
        assert_eq!(u.vertex[9], [9.0, 9.0, 9.0, 0.0]);
        assert!(matches!(
            p.set_uniform(&mut u, "uL[3]", &[0.0; 3]),
            Err(UniformError::Index { index: 3, .. })
        ));
    }
}
