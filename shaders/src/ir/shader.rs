//! A compiled shader: IR, immediates, temporary count and the interface metadata
//! that the dump, the linker, the verifier and CSI need.

use super::{Ir, Limits, Stage, Type};
use crate::sampler_type::SamplerType;

/// What an interface symbol is, with its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A non-sampler uniform starting at vec4 slot `slot` (mat3 takes 3 slots, mat4 4,
    /// arrays one element after another).
    Uniform {
        /// First vec4 uniform slot, `0..Limits::uniform_slots`.
        slot: u16,
    },
    /// A sampler uniform bound to sampler slot `slot`, of type `sampler` (its
    /// texture target and kind, [`SamplerType`]; `sampler2D` in the seed profile).
    Sampler {
        /// Sampler slot, `0..Limits::samplers`.
        slot: u16,
        /// The sampler's GLSL type.
        sampler: SamplerType,
    },
    /// A vertex `in` at attribute location `location`.
    Attribute {
        /// Attribute location, `0..Limits::attributes` (`layout(location = N)`).
        location: u16,
    },
    /// A fragment `in` at fragment-local varying slot `slot` (remapped at link).
    VaryingIn {
        /// Fragment-local varying slot, `0..Limits::varyings`.
        slot: u16,
    },
    /// A vertex `out` at varying slot `slot`.
    VaryingOut {
        /// Varying slot, `0..Limits::varyings`.
        slot: u16,
    },
    /// A fragment shader colour output (the seed's single `out vec4`; under the
    /// extended profile one per draw buffer, GLSL 3.30 §4.3.8.2), written by STORE_COLOR
    /// with `aux` = [`SymbolKind::color_store_aux`]`(location, index)`.
    ColorOut {
        /// Its `layout(location)`, the draw buffer it writes, `0..8`.
        location: u16,
        /// Its `layout(index)`: 0, or 1 for the second source colour of dual-source
        /// blending (GL 3.3 §4.1.8, GLSL 3.30 §4.3.8.2), which only location 0 has
        /// (`GL_MAX_DUAL_SOURCE_DRAW_BUFFERS` is 1).
        index: u16,
    },
}

/// STORE_COLOR's `aux` for the second source colour of dual-source blending
/// (`layout(location = 0, index = 1)`, GL 3.3 §4.1.8): [`SymbolKind::color_store_aux`]
/// of location 0, index 1. The interpreters keep it beside the colour of location 0
/// (`Outputs::color1`, docs/csir.md "Interface stores").
pub const SECOND_SOURCE_AUX: i16 = 8;

impl SymbolKind {
    /// STORE_COLOR's `aux` (and CSI v2's slot field) of the colour output at
    /// `location` (`0..8`) and `index` (0 or 1): `location + 8 · index`.
    pub const fn color_store_aux(location: u16, index: u16) -> i16 {
        (location + 8 * index) as i16
    }

    /// A colour output of index 0 at `location`.
    pub const fn color_out(location: u16) -> SymbolKind {
        SymbolKind::ColorOut { location, index: 0 }
    }
}

impl SymbolKind {
    /// A `sampler2D` at sampler slot `slot`.
    pub const fn sampler_2d(slot: u16) -> SymbolKind {
        SymbolKind::Sampler {
            slot,
            sampler: SamplerType::SAMPLER_2D,
        }
    }
}

/// An interpolation qualifier (GLSL 1.30 §4.3.6): how a varying's value at a fragment
/// follows from its values at the primitive's vertices. A varying without one
/// (`InterfaceSymbol::interpolation` = `None`) is interpolated smoothly, except the
/// built-in colours (`gl_Color`, `gl_SecondaryColor` and the vertex outputs they read),
/// which then follow the shade model (GL 3.0 §2.14.7: FLAT gives them the provoking
/// vertex's value). Carried by CSI v2; CSI v1 has no place for it
/// (`SaveError::V1Interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// `smooth`: perspective-correct (GL 3.0 §3.5.1).
    Smooth,
    /// `flat`: the provoking vertex's value, unchanged (GL 3.0 §2.14.7: the last vertex
    /// of the primitive).
    Flat,
    /// `noperspective`: linear in window space (GL 3.0 §3.5.1).
    NoPerspective,
}

impl Interpolation {
    /// Every qualifier, in CSI code order (code = index + 1; 0 is "none").
    pub const ALL: [Interpolation; 3] = [
        Interpolation::Smooth,
        Interpolation::Flat,
        Interpolation::NoPerspective,
    ];

    /// The qualifier's GLSL keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Interpolation::Smooth => "smooth",
            Interpolation::Flat => "flat",
            Interpolation::NoPerspective => "noperspective",
        }
    }

    /// The qualifier of `keyword`, if it is one.
    pub fn from_keyword(keyword: &str) -> Option<Interpolation> {
        Self::ALL.into_iter().find(|q| q.keyword() == keyword)
    }

    /// Whether two declarations' qualifiers agree for linking (GLSL 1.30 §4.3.6: the
    /// interpolation of a varying must match between the stages; no qualifier means
    /// `smooth`).
    pub fn same(a: Option<Interpolation>, b: Option<Interpolation>) -> bool {
        a.unwrap_or(Interpolation::Smooth) == b.unwrap_or(Interpolation::Smooth)
    }
}

/// One user-declared interface variable, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceSymbol {
    /// Source name, at most the front end's identifier limit.
    pub name: String,
    /// Element type.
    pub ty: Type,
    /// `Some(n)` for an array of `n` elements (uniform arrays), else `None`.
    pub array_len: Option<u16>,
    /// Kind and slot.
    pub kind: SymbolKind,
    /// The declared interpolation qualifier of a varying (`VaryingIn`/`VaryingOut`);
    /// `None` when it has none, and always for other kinds.
    pub interpolation: Option<Interpolation>,
}

impl InterfaceSymbol {
    /// Vec4 slots one element occupies (mat3 3, mat4 4, else 1).
    pub fn slots_per_element(&self) -> u16 {
        self.ty.columns() as u16
    }

    /// Total vec4 slots (all elements).
    pub fn slot_count(&self) -> u16 {
        self.slots_per_element() * self.array_len.unwrap_or(1)
    }
}

/// The interface of one shader: its symbols and the high-water marks the verifier
/// and the TGSI emitter use (−1 when nothing of that kind exists;
/// docs/csir-original.md B §1.6).
#[derive(Clone, Debug, PartialEq)]
pub struct Interface {
    /// User interface symbols in declaration order.
    pub symbols: Vec<InterfaceSymbol>,
    /// Highest attribute location used, or −1.
    pub attr_hi: i16,
    /// Highest varying slot used, or −1.
    pub var_hi: i16,
    /// Highest sampler slot, or −1.
    pub samp_hi: i16,
    /// Last uniform vec4 slot, or −1.
    pub uni_hi: i16,
    /// Vertex stage: `gl_Position` is assigned somewhere.
    pub writes_position: bool,
    /// `symbols` is the declared interface by source name (every compiled shader, and
    /// every CSI v2 load). `false` for a shader loaded from CSI v1, which carries no
    /// names: its high-water marks are reconstructed from the IR and `symbols` is
    /// empty, so it can run and be emitted by slot but cannot be linked by name.
    pub named: bool,
    /// The values uniform initializers give (`uniform vec3 k = vec3(1.0);`, GLSL 1.20
    /// §4.3.5): uniform name and its floats in the order
    /// [`Interface::set_uniform`] takes, in symbol order. A uniform holds this value
    /// until it is set ([`Interface::new_uniforms`]); one without an initializer
    /// starts at zero. Carried by CSI v2.
    pub uniform_initializers: Vec<(String, Vec<f32>)>,
    /// Geometry stage: its input and output primitive types and `max_vertices`
    /// (`layout(...) in;` / `layout(...) out;`); `None` in the other stages.
    pub geometry: Option<super::GeometryLayout>,
}

impl Default for Interface {
    fn default() -> Self {
        Interface {
            symbols: Vec::new(),
            attr_hi: -1,
            var_hi: -1,
            samp_hi: -1,
            uni_hi: -1,
            writes_position: false,
            named: true,
            uniform_initializers: Vec::new(),
            geometry: None,
        }
    }
}

impl Interface {
    /// Look a symbol up by name.
    pub fn find(&self, name: &str) -> Option<&InterfaceSymbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The fragment colour output at location 0, if declared.
    pub fn color_output(&self) -> Option<&InterfaceSymbol> {
        self.color_output_at(0)
    }

    /// The fragment colour output at `location`, if declared.
    pub fn color_output_at(&self, location: u16) -> Option<&InterfaceSymbol> {
        let wanted = SymbolKind::color_out(location);
        self.symbols.iter().find(|s| s.kind == wanted)
    }

    /// The second source colour of dual-source blending
    /// (`layout(location = 0, index = 1)`), if declared.
    pub fn second_color_output(&self) -> Option<&InterfaceSymbol> {
        let wanted = SymbolKind::ColorOut {
            location: 0,
            index: 1,
        };
        self.symbols.iter().find(|s| s.kind == wanted)
    }

    /// Every fragment colour output of index 0 with its location, in declaration
    /// order (the draw buffers' outputs; the second source colour is
    /// [`Interface::second_color_output`]).
    pub fn color_outputs(&self) -> impl Iterator<Item = (u16, &InterfaceSymbol)> {
        self.symbols.iter().filter_map(|s| match s.kind {
            SymbolKind::ColorOut { location, index: 0 } => Some((location, s)),
            _ => None,
        })
    }
}

/// A compiled (or loaded) shader. Only a shader that passed [`verify`](super::verify)
/// may be executed or emitted; [`crate::compile`] returns verified shaders.
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    /// Name used in diagnostics and the dump (usually the file name).
    pub name: String,
    /// Vertex or fragment.
    pub stage: Stage,
    /// Pool sizes the shader was built and verified against.
    pub limits: Limits,
    /// Instruction records, NOPs included (the optimizer never compacts).
    pub ir: Vec<Ir>,
    /// Immediate pool.
    pub imm: Vec<f32>,
    /// Temporaries allocated (each a float4 register).
    pub ntmp: u16,
    /// Interface symbols and high-water marks.
    pub interface: Interface,
}

impl Shader {
    /// Non-NOP instruction count (what actually executes, before control flow).
    pub fn live_instructions(&self) -> usize {
        self.ir.iter().filter(|i| i.op != 0).count()
    }

    /// Whether an instruction reads across the 2×2 quad (DDX, DDY:
    /// [`Effect::Derivative`](super::Effect::Derivative)): such a fragment shader must
    /// run its invocations as whole quads (docs/csir.md "Derivatives").
    pub fn uses_derivatives(&self) -> bool {
        self.ir.iter().any(|ir| {
            ir.info()
                .is_some_and(|i| i.effect == super::Effect::Derivative)
        })
    }

    /// The varying output (vertex stage) named `name`, if the interface declares one.
    pub fn varying_output(&self, name: &str) -> Option<&InterfaceSymbol> {
        self.interface
            .symbols
            .iter()
            .find(|s| s.name == name && matches!(s.kind, SymbolKind::VaryingOut { .. }))
    }
}
