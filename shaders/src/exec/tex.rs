//! TEX, the extended profile's GL 3.3 lookup family ([`Op::Tex`](crate::ir::Op::Tex)):
//! what one invocation's lookup, fetch or size query computes ([`tex_lane`]), the one
//! definition both interpreters call per lane, so they agree bit for bit. The
//! texture's target, format and sampler state are the [`Samplers`] implementation's
//! ([`Samplers::lookup`], [`Samplers::fetch`], [`Samplers::size_of`]); the rules the
//! renderer's textures follow are docs/csir.md "Texture targets".

use super::Samplers;
use crate::sampler_type::{TexLookup, TexMode};

/// Where a lookup's level of detail comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TexLod {
    /// λ itself (`textureLod`; an implicit lookup's bias in a lone invocation, whose
    /// implicit λ is 0).
    Level(f32),
    /// The coordinate derivatives in window x and y (the quad's, for an implicit
    /// lookup; `textureGrad`'s), plus `bias` after λ is computed from them.
    Derivatives {
        /// ∂P/∂x for the coordinates (layer excluded; unused components 0).
        dx: [f32; 3],
        /// ∂P/∂y.
        dy: [f32; 3],
        /// Added to λ (GL 3.3 §3.8.11 `bias_shader`).
        bias: f32,
    },
}

/// One filtered lookup of the TEX family, for [`Samplers::lookup`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexRequest {
    /// The coordinates as the shader gave them (`textureProj` already divided): the
    /// target's coordinates, then the shadow reference (GLSL 3.30 §8.7).
    pub coord: [f32; 4],
    /// The level of detail.
    pub lod: TexLod,
    /// Constant texel offset added to the integer texel coordinates before wrapping
    /// (`textureOffset`), -8..=7 each.
    pub offset: [i8; 3],
}

/// TEX for one invocation: `a` its first operand, `b` the temporaries of its second
/// (the second read only by [`TexMode::Grad3`], `dPdy`), `quad` operand `a` of the four
/// invocations of its 2×2 quad (in [`QUAD_LANES`](super::QUAD_LANES) order) when it
/// runs in one, `None` alone. An implicit lookup in a quad takes its derivatives from
/// the quad's lane 0 row and column (coarse, as SAMPLE's `lod_gradients`); alone its
/// λ is 0 (plus the bias).
pub fn tex_lane(
    samplers: &dyn Samplers,
    slot: usize,
    lookup: TexLookup,
    a: [f32; 4],
    [b, b_next]: [[f32; 4]; 2],
    quad: Option<&[[f32; 4]; 4]>,
) -> [f32; 4] {
    let request = |lod| TexRequest {
        coord: a,
        lod,
        offset: lookup.offset,
    };
    match lookup.mode {
        TexMode::Implicit | TexMode::Bias => {
            let bias = if lookup.mode == TexMode::Bias {
                b[0]
            } else {
                0.0
            };
            let lod = match quad {
                Some(q) => TexLod::Derivatives {
                    dx: std::array::from_fn(|c| super::quad::difference(q[1][c], q[0][c])),
                    dy: std::array::from_fn(|c| super::quad::difference(q[2][c], q[0][c])),
                    bias,
                },
                None => TexLod::Level(bias),
            };
            samplers.lookup(slot, &request(lod))
        }
        TexMode::Lod => samplers.lookup(slot, &request(TexLod::Level(b[0]))),
        TexMode::Grad => samplers.lookup(
            slot,
            &request(TexLod::Derivatives {
                dx: [b[0], b[1], 0.0],
                dy: [b[2], b[3], 0.0],
                bias: 0.0,
            }),
        ),
        TexMode::Grad3 => samplers.lookup(
            slot,
            &request(TexLod::Derivatives {
                dx: [b[0], b[1], b[2]],
                dy: [b_next[0], b_next[1], b_next[2]],
                bias: 0.0,
            }),
        ),
        TexMode::Fetch => {
            let p = a.map(|v| v.to_bits() as i32);
            let o = lookup.offset.map(i32::from);
            let p = [
                p[0].wrapping_add(o[0]),
                p[1].wrapping_add(o[1]),
                p[2].wrapping_add(o[2]),
            ];
            samplers.fetch(slot, p, b[0].to_bits() as i32)
        }
        TexMode::Size => {
            let size = samplers.size_of(slot, a[0].to_bits() as i32);
            [size[0], size[1], size[2], 0].map(|v| f32::from_bits(v as u32))
        }
    }
}
