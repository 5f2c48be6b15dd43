//! What one shader invocation reads ([`Inputs`]) and writes ([`Outputs`]).

use super::sampler::{NoSamplers, Samplers};
use crate::ir::MAX_SHADER_VARYINGS;

/// The value of an attribute location that is not supplied: OpenGL's default
/// generic vertex attribute (`scene-format.md`: missing components come from
/// (0, 0, 0, 1)).
pub const DEFAULT_ATTRIBUTE: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// [`DEFAULT_ATTRIBUTE`] for an `int`/`uint` attribute under the extended profile,
/// whose lanes hold 32-bit patterns: the integers (0, 0, 0, 1) (GL 3.0 §2.7: the
/// `VertexAttribI*` commands fill missing components with integer 0, 0, 0, 1).
pub const DEFAULT_INT_ATTRIBUTE: [f32; 4] = [0.0, 0.0, 0.0, f32::from_bits(1)];

/// Everything an invocation reads. Slices may be shorter than the shader's slots;
/// reads past their end give the documented defaults, never an error.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    /// Uniform vec4 slots of this stage (LOAD_UNI; a mat4 is 4 consecutive slots, one
    /// column each). Missing slots read (0, 0, 0, 0).
    pub uniforms: &'a [[f32; 4]],
    /// Vertex attributes by location (LOAD_ATTR, vertex stage). Missing locations read
    /// [`DEFAULT_ATTRIBUTE`] (0, 0, 0, 1).
    pub attributes: &'a [[f32; 4]],
    /// Interpolated varyings indexed by **vertex** slot (LOAD_VAR, fragment stage).
    /// Missing slots read (0, 0, 0, 0).
    pub varyings: &'a [[f32; 4]],
    /// Fragment-local varying slot → vertex slot, from linking (`Program::var_remap`);
    /// a negative entry or a slot past the end maps to itself, so an empty table is
    /// the identity (docs/csir.md "Varying remap").
    pub var_remap: &'a [i16],
    /// `gl_FragCoord` (LOAD_FCOORD, fragment stage).
    pub frag_coord: [f32; 4],
    /// `gl_FrontFacing` (LOAD_FACE, fragment stage): whether the fragment's primitive
    /// is front-facing.
    pub front_facing: bool,
    /// Textures by sampler slot (SAMPLE).
    pub samplers: &'a dyn Samplers,
}

impl Default for Inputs<'_> {
    /// No uniforms, attributes or varyings, the identity remap, fragment coordinate
    /// (0, 0, 0, 0), front-facing, and [`NoSamplers`].
    fn default() -> Self {
        Inputs {
            uniforms: &[],
            attributes: &[],
            varyings: &[],
            var_remap: &[],
            frag_coord: [0.0; 4],
            front_facing: true,
            samplers: &NoSamplers,
        }
    }
}

impl Inputs<'_> {
    /// Uniform slot `slot`, or zeros.
    #[inline]
    pub fn uniform(&self, slot: usize) -> [f32; 4] {
        self.uniforms.get(slot).copied().unwrap_or([0.0; 4])
    }

    /// Attribute location `location`, or [`DEFAULT_ATTRIBUTE`].
    #[inline]
    pub fn attribute(&self, location: usize) -> [f32; 4] {
        self.attributes
            .get(location)
            .copied()
            .unwrap_or(DEFAULT_ATTRIBUTE)
    }

    /// The varying a LOAD_VAR of fragment-local slot `slot` reads: remapped through
    /// [`Inputs::var_remap`], then looked up by vertex slot, or zeros.
    #[inline]
    pub fn varying(&self, slot: usize) -> [f32; 4] {
        let vertex_slot = match self.var_remap.get(slot) {
            Some(&mapped) if mapped >= 0 => mapped as usize,
            _ => slot,
        };
        self.varyings.get(vertex_slot).copied().unwrap_or([0.0; 4])
    }
}

/// Everything an invocation writes. The interpreter resets it at the start of every
/// run (docs/csir-original.md B §4, except that varyings are zeroed rather than left as
/// they were).
#[derive(Clone, Debug, PartialEq)]
pub struct Outputs {
    /// `gl_Position` (STORE_POS), initially (0, 0, 0, 1).
    pub position: [f32; 4],
    /// Varyings by vertex slot (STORE_VAR), initially zero.
    pub varyings: [[f32; 4]; MAX_SHADER_VARYINGS],
    /// The fragment colour (STORE_COLOR), initially (0, 0, 0, 0). After a discard it
    /// holds whatever was stored before the DISCARD.
    pub color: [f32; 4],
    /// The second source colour of dual-source blending (STORE_COLOR with `aux`
    /// [`SECOND_SOURCE_AUX`](crate::ir::SECOND_SOURCE_AUX), the output of
    /// `layout(location = 0, index = 1)`, GL 3.3 §4.1.8), initially (0, 0, 0, 0).
    pub color1: [f32; 4],
    /// A DISCARD was executed; execution stopped there.
    pub discarded: bool,
}

impl Outputs {
    /// The state at the start of an invocation.
    pub const INITIAL: Outputs = Outputs {
        position: [0.0, 0.0, 0.0, 1.0],
        varyings: [[0.0; 4]; MAX_SHADER_VARYINGS],
        color: [0.0; 4],
        color1: [0.0; 4],
        discarded: false,
    };
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs::INITIAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;

    #[test]
    fn max_varyings_covers_every_valid_profile() {
        let mut limits = Limits::SEED;
        limits.varyings = MAX_SHADER_VARYINGS;
        assert!(limits.validate().is_ok());
        limits.varyings = MAX_SHADER_VARYINGS + 1;
        assert!(limits.validate().is_err());
    }

    #[test]
    fn missing_inputs_read_their_defaults() {
        let remap = [2i16, -1];
        let varyings = [[1.0; 4], [2.0; 4], [3.0; 4]];
        let inputs = Inputs {
            varyings: &varyings,
            var_remap: &remap,
            ..Inputs::default()
        };
        assert_eq!(inputs.uniform(5), [0.0; 4]);
        assert_eq!(inputs.attribute(3), DEFAULT_ATTRIBUTE);
        assert_eq!(inputs.varying(0), [3.0; 4]); // remapped to vertex slot 2
        assert_eq!(inputs.varying(1), [2.0; 4]); // negative entry: identity
        assert_eq!(inputs.varying(2), [3.0; 4]); // past the table: identity
        assert_eq!(inputs.varying(7), [0.0; 4]); // past the varyings
    }
}
