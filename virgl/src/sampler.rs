//! Sampler states and sampler views: how a texture is sampled (`pipe_sampler_state`)
//! and which part of a texture resource a shader sees (`pipe_sampler_view`), and how
//! each packs into the dwords of its `CREATE_OBJECT` command (virglrenderer's
//! `virgl_protocol.h`: `VIRGL_OBJ_SAMPLER_STATE_*`, `VIRGL_OBJ_SAMPLER_VIEW_*`;
//! docs/virgl.md restates the layouts).

use crate::command::ResourceHandle;
use crate::pipe::{CompareFunc, Filter, Format, MipFilter, Target, Wrap};

/// How a texture is sampled (GL 3.3 §3.8.8's sampler parameters).
///
/// The float parameters are kept as their bit patterns so that equal states hash
/// alike (the encoder shares one object per distinct state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerState {
    /// Wrap modes for s, t and r.
    pub wrap: [Wrap; 3],
    /// Filter within a level when minifying.
    pub min_filter: Filter,
    /// How levels are chosen when minifying.
    pub mip_filter: MipFilter,
    /// Filter when magnifying.
    pub mag_filter: Filter,
    /// `GL_COMPARE_REF_TO_TEXTURE` with this function, or no comparison.
    pub compare: Option<CompareFunc>,
    /// `GL_TEXTURE_LOD_BIAS`, f32 bits.
    pub lod_bias: u32,
    /// `GL_TEXTURE_MIN_LOD`, f32 bits.
    pub min_lod: u32,
    /// `GL_TEXTURE_MAX_LOD`, f32 bits.
    pub max_lod: u32,
    /// `GL_TEXTURE_BORDER_COLOR`: four f32 bit patterns (integer textures: the
    /// integers' patterns).
    pub border_color: [u32; 4],
    /// `GL_TEXTURE_CUBE_MAP_SEAMLESS` (S0 bit 19): cube lookups filter across faces.
    pub seamless_cube_map: bool,
}

impl SamplerState {
    /// One filter for minification and magnification and one wrap for s, t and r,
    /// no mipmaps, no comparison, GL's λ defaults (bias 0, λ in [−1000, 1000]) and a
    /// (0, 0, 0, 0) border.
    pub fn simple(filter: Filter, wrap: Wrap) -> SamplerState {
        SamplerState {
            wrap: [wrap; 3],
            min_filter: filter,
            mip_filter: MipFilter::None,
            mag_filter: filter,
            compare: None,
            lod_bias: 0f32.to_bits(),
            min_lod: (-1000f32).to_bits(),
            max_lod: 1000f32.to_bits(),
            border_color: [0; 4],
            seamless_cube_map: false,
        }
    }

    /// The 8 dwords after the handle: S0 (wrap s/t/r at bits 0/3/6, min filter bits
    /// 9..10, mip filter bits 11..12, mag filter bits 13..14, compare mode bit 15,
    /// compare function bits 16..18, seamless cube maps bit 19; anisotropy off), LOD bias,
    /// min LOD, max LOD, border colour RGBA.
    pub fn dwords(&self) -> [u32; 8] {
        let [s, t, r] = self.wrap.map(Wrap::code);
        let compare = match self.compare {
            None => 0,
            Some(func) => 1 << 15 | func.code() << 16,
        };
        let s0 = s
            | t << 3
            | r << 6
            | self.min_filter.code() << 9
            | self.mip_filter.code() << 11
            | self.mag_filter.code() << 13
            | compare
            | u32::from(self.seamless_cube_map) << 19;
        let [br, bg, bb, ba] = self.border_color;
        [
            s0,
            self.lod_bias,
            self.min_lod,
            self.max_lod,
            br,
            bg,
            bb,
            ba,
        ]
    }
}

/// Which part of a resource a sampler view shows, in which format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerView {
    /// The texture (or buffer) resource.
    pub resource: ResourceHandle,
    /// The format it is read in.
    pub format: Format,
    /// The view's target ([`Target::Buffer`] for a texture buffer).
    pub target: Target,
    /// Textures: the first and last array layer (cube: 0 and 5). Buffers: the first
    /// and last element, in texels of `format`.
    pub layers: [u32; 2],
    /// Textures: the first and last mip level (`GL_TEXTURE_BASE_LEVEL` and the last
    /// level sampled). Unused for buffers.
    pub levels: [u32; 2],
}

impl SamplerView {
    /// The 5 dwords after the handle: resource, format with the target in bits
    /// 24..31, then for a texture the layers (first in bits 0..15, last in 16..31) and
    /// levels (first in bits 0..7, last in 8..15), for a buffer the first and last
    /// element; then the identity swizzle (R, G, B, A read channels 0, 1, 2, 3, 3 bits
    /// each).
    pub fn dwords(&self) -> [u32; 5] {
        const IDENTITY_SWIZZLE: u32 = 1 << 3 | 2 << 6 | 3 << 9;
        let [first, last] = self.layers;
        let (range, levels) = match self.target {
            Target::Buffer => (first, last),
            _ => (
                first | last << 16,
                self.levels[0] & 0xff | (self.levels[1] & 0xff) << 8,
            ),
        };
        [
            self.resource.0,
            self.format.code() | self.target.code() << 24,
            range,
            levels,
            IDENTITY_SWIZZLE,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampler_state_packs_three_wraps_filters_and_the_comparison() {
        let mut state = SamplerState::simple(Filter::Linear, Wrap::MirrorRepeat);
        let words = state.dwords();
        assert_eq!(words[0], 4 | 4 << 3 | 4 << 6 | 1 << 9 | 2 << 11 | 1 << 13);
        assert_eq!(f32::from_bits(words[2]), -1000.0);
        assert_eq!(f32::from_bits(words[3]), 1000.0);
        assert_eq!(words[4..], [0; 4]);
        state.wrap = [Wrap::ClampToBorder, Wrap::Repeat, Wrap::ClampToEdge];
        state.min_filter = Filter::Nearest;
        state.mip_filter = MipFilter::Linear;
        state.compare = Some(CompareFunc::LessEqual);
        state.border_color = [0.25f32.to_bits(), 0, 0, 1f32.to_bits()];
        let words = state.dwords();
        // wrap s = CLAMP_TO_BORDER 3, t = REPEAT 0, r = CLAMP_TO_EDGE 2; min nearest,
        // mip linear 1, mag linear, compare on with LEQUAL 3.
        assert_eq!(words[0], 3 | 2 << 6 | 1 << 11 | 1 << 13 | 1 << 15 | 3 << 16);
        assert_eq!(f32::from_bits(words[4]), 0.25);
        assert_eq!(f32::from_bits(words[7]), 1.0);
    }

    #[test]
    fn views_carry_target_layers_and_levels() {
        let view = SamplerView {
            resource: ResourceHandle(9),
            format: Format::R8G8B8A8Unorm,
            target: Target::Texture2dArray,
            layers: [0, 2],
            levels: [1, 3],
        };
        assert_eq!(
            view.dwords(),
            [
                9,
                67 | 7 << 24,
                2 << 16,
                1 | 3 << 8,
                1 << 3 | 2 << 6 | 3 << 9
            ]
        );
        let buffer = SamplerView {
            resource: ResourceHandle(4),
            format: Format::R32G32B32A32Float,
            target: Target::Buffer,
            layers: [0, 15],
            levels: [0, 0],
        };
        assert_eq!(buffer.dwords()[1..4], [31, 0, 15]);
    }
}
