//! Linking a program with a geometry shader (GL 3.2 §2.12, GLSL 1.50 §4.3.4): vertex
//! outputs feed the geometry shader's per-vertex inputs, and the geometry shader's
//! outputs feed the fragment shader's inputs. The rules of each link are
//! `link.rs`'s (names, types, interpolation qualifiers, array lengths), applied
//! twice; uniforms are one variable of the program across the three stages.

use crate::ir::{Shader, Stage, SymbolKind};
use crate::link::{
    LinkError, Program, attribute_records, check_stages, check_varying_count, link_uniforms,
    link_varyings, vertex_slot_for,
};

/// The geometry stage of a linked [`Program`].
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryLink {
    /// The geometry shader (verified, with its
    /// [`GeometryLayout`](crate::ir::GeometryLayout)).
    pub shader: Shader,
    /// Geometry-local input slot (LOAD_VTX's `aux`) → the vertex shader's output
    /// slot, indexed by geometry slot; −1 where the geometry shader has no input.
    pub input_remap: Vec<i16>,
}

impl GeometryLink {
    /// The input primitive, output primitive and `max_vertices`.
    pub fn layout(&self) -> crate::ir::GeometryLayout {
        self.shader
            .interface
            .geometry
            .expect("a linked geometry shader has its layout (verified)")
    }
}

impl Program {
    /// Link `vertex`, `geometry` and `fragment` (verified shaders of those stages).
    ///
    /// Errors: those of [`Program::link`], with the fragment shader's inputs matched
    /// against the geometry shader's outputs; a geometry input without a vertex output
    /// of its name and type ([`LinkError::MissingVarying`], ...); a geometry shader
    /// that is not one, has no layout, or samples a texture
    /// ([`LinkError::GeometrySampler`]).
    pub fn link_geometry(
        vertex: Shader,
        geometry: Shader,
        fragment: Shader,
    ) -> Result<Program, LinkError> {
        // The geometry shader writes gl_Position; the vertex shader need not.
        let mut checked = vertex.clone();
        checked.interface.writes_position = geometry.interface.writes_position;
        check_stages(&checked, &fragment)?;
        if geometry.stage != Stage::Geometry || geometry.interface.geometry.is_none() {
            return Err(LinkError::WrongStage(Stage::Geometry));
        }
        if !geometry.interface.named {
            return Err(LinkError::NoInterfaceNames(Stage::Geometry));
        }
        check_varying_count(&fragment)?;
        let (var_remap, varyings) = link_varyings(&geometry, &fragment)?;
        let mut input_remap = vec![-1i16; geometry.limits.varyings];
        for sym in &geometry.interface.symbols {
            let SymbolKind::VaryingIn { slot } = sym.kind else {
                continue;
            };
            let vslot = vertex_slot_for(&vertex, sym)?;
            for k in 0..sym.array_len.unwrap_or(1) {
                if let Some(entry) = input_remap.get_mut((slot + k) as usize) {
                    *entry = (vslot + k) as i16;
                }
            }
        }
        let attributes = attribute_records(&vertex);
        let (uniforms, samplers) = link_uniforms(&vertex, &fragment, Some(&geometry))?;
        if geometry.interface.samp_hi >= 0 {
            return Err(LinkError::GeometrySampler);
        }
        Ok(Program {
            vertex,
            fragment,
            var_remap,
            attributes,
            varyings,
            uniforms,
            samplers,
            geometry: Some(GeometryLink {
                shader: geometry,
                input_remap,
            }),
        })
    }
}
