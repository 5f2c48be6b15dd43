//! Fixed-function state objects and how each packs into the dwords of its
//! `CREATE_OBJECT` command (virglrenderer's `virgl_protocol.h`: `VIRGL_OBJ_BLEND_*`,
//! `VIRGL_OBJ_DSA_*`, `VIRGL_OBJ_RS_*`; the sampler state is `sampler.rs`'s; docs/virgl.md
//! restates the layouts).

use crate::pipe::{BlendFactor, BlendFunc, CompareFunc, CullFace, Format, StencilOp};

/// Blending and the colour mask of colour attachment 0 (`pipe_blend_state`'s
/// `rt[0]`; the blend colour is not state of this object: `set_blend_color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlendState {
    /// `None`: the fragment colour replaces the stored one.
    pub function: Option<RtBlend>,
    /// The channels written, R, G, B, A (`glColorMask`).
    pub color_mask: [bool; 4],
    /// `GL_SAMPLE_ALPHA_TO_COVERAGE` (S0 bit 3): the fragment's alpha picks the
    /// samples it covers on a multisampled target (GL 3.3 §4.1.3).
    pub alpha_to_coverage: bool,
}

/// One colour buffer's blend function: equation and factors of RGB and of alpha
/// (`glBlendFuncSeparate`, `glBlendEquationSeparate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RtBlend {
    /// Equation of R, G and B.
    pub rgb_func: BlendFunc,
    /// Source factor of R, G and B.
    pub rgb_src: BlendFactor,
    /// Destination factor of R, G and B.
    pub rgb_dst: BlendFactor,
    /// Equation of A.
    pub alpha_func: BlendFunc,
    /// Source factor of A.
    pub alpha_src: BlendFactor,
    /// Destination factor of A.
    pub alpha_dst: BlendFactor,
}

impl RtBlend {
    /// `src · src_factor + dst · dst_factor` for RGB and alpha alike
    /// (`glBlendFunc`).
    pub const fn add(src: BlendFactor, dst: BlendFactor) -> RtBlend {
        RtBlend {
            rgb_func: BlendFunc::Add,
            rgb_src: src,
            rgb_dst: dst,
            alpha_func: BlendFunc::Add,
            alpha_src: src,
            alpha_dst: dst,
        }
    }
}

impl BlendState {
    /// No blending, every channel written.
    pub const REPLACE: BlendState = BlendState {
        function: None,
        color_mask: [true; 4],
        alpha_to_coverage: false,
    };

    /// The 10 dwords after the handle: S0 (alpha-to-coverage bit 3; no independent
    /// blend, logic op or dither), S1 (logic op function 0), then S2 for each of the 8
    /// colour buffers (enable bit, RGB function/factors at bits 1/4/9, alpha at
    /// 14/17/22, colour mask at 27: R bit 0, G 1, B 2, A 3); every buffer gets the
    /// same state.
    pub fn dwords(&self) -> [u32; 10] {
        let rt = match self.function {
            None => 0,
            Some(f) => {
                1 | f.rgb_func.code() << 1
                    | f.rgb_src.code() << 4
                    | f.rgb_dst.code() << 9
                    | f.alpha_func.code() << 14
                    | f.alpha_src.code() << 17
                    | f.alpha_dst.code() << 22
            }
        };
        let mask = (0..4).fold(0, |m, c| m | u32::from(self.color_mask[c]) << c);
        let mut words = [rt | mask << 27; 10];
        words[0] = u32::from(self.alpha_to_coverage) << 3;
        words[1] = 0;
        words
    }
}

/// The depth test and depth writes, the stencil test of each face; no alpha test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthState {
    /// `None`: the test is off (every fragment passes, nothing is written).
    pub func: Option<CompareFunc>,
    /// Whether passing fragments write their depth (only with a test).
    pub write: bool,
    /// The stencil test of front (0) and back (1) faces, `None` when off. The
    /// reference values are not state of this object (`set_stencil_ref`).
    pub stencil: [Option<StencilFaceState>; 2],
}

/// One face's stencil test (`pipe_stencil_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilFaceState {
    /// `(ref & value_mask) func (stored & value_mask)`.
    pub func: CompareFunc,
    /// Op when the stencil test fails.
    pub fail: StencilOp,
    /// Op when the stencil test passes and the depth test fails.
    pub depth_fail: StencilOp,
    /// Op when both pass.
    pub pass: StencilOp,
    /// The bits compared.
    pub value_mask: u8,
    /// The bits written.
    pub write_mask: u8,
}

impl StencilFaceState {
    /// `VIRGL_OBJ_DSA_S1`/`S2`: enabled bit 0, func bits 1..3, fail op 4..6, depth
    /// pass op 7..9, depth fail op 10..12, value mask 13..20, write mask 21..28.
    pub fn dword(&self) -> u32 {
        1 | self.func.code() << 1
            | self.fail.code() << 4
            | self.pass.code() << 7
            | self.depth_fail.code() << 10
            | u32::from(self.value_mask) << 13
            | u32::from(self.write_mask) << 21
    }
}

impl DepthState {
    /// The 4 dwords after the handle: S0 (depth enable bit 0, write mask bit 1,
    /// function bits 2..4; alpha test off), front and back stencil
    /// ([`StencilFaceState::dword`], 0 when off), alpha reference 0.
    pub fn dwords(&self) -> [u32; 4] {
        let s0 = match self.func {
            None => 0,
            Some(func) => 1 | u32::from(self.write) << 1 | func.code() << 2,
        };
        let [front, back] = self.stencil.map(|s| s.map_or(0, |s| s.dword()));
        [s0, front, back, 0]
    }
}

/// Rasterization as OpenGL draws into a framebuffer object: triangles that are
/// counter-clockwise in OpenGL's window space (y up) are front faces, pixel centres at
/// half-integers, near and far clipping on, depth range [−1, 1] in clip space, filled
/// polygons, no scissor, no multisampling.
///
/// Gallium counts windings with window y pointing down (row 0 first), so OpenGL's
/// counter-clockwise is Gallium's clockwise: the front-CCW bit stays clear, as Mesa's
/// own virgl driver sends it for a framebuffer object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RasterizerState {
    /// Which faces to cull.
    pub cull: CullFace,
    /// Near and far clipping (`depth_clip`); off for GL's `GL_DEPTH_CLAMP`, which
    /// the host then enables.
    pub depth_clip: bool,
    /// The scissor test (`glEnable(GL_SCISSOR_TEST)`; the rectangle is
    /// `set_scissor`'s).
    pub scissor: bool,
    /// Polygon offset of filled triangles (`GL_POLYGON_OFFSET_FILL`), the bits of
    /// `glPolygonOffset`'s `(factor, units)` as `f32` (`offset_scale`,
    /// `offset_units`), `None` when off.
    pub offset: Option<(u32, u32)>,
    /// Multisample rasterization (S0 bit 25, `GL_MULTISAMPLE`; on a multisampled
    /// framebuffer, as GL enables it by default): the host also applies the sample
    /// mask only while it is set.
    pub multisample: bool,
}

impl RasterizerState {
    /// The 8 dwords after the handle: S0 (depth clip bit 1, cull bits 8..9, scissor
    /// bit 14, front CCW bit 15 clear, offset-tri bit 20, half-pixel centre bit 29),
    /// point size 1.0, sprite coordinate enable 0, S3 (no stipple, no user clip
    /// planes), line width 1.0, polygon offset units, scale and clamp (0 without an
    /// offset; clamp 0 is GL 3.3's unclamped offset).
    pub fn dwords(&self) -> [u32; 8] {
        const DEPTH_CLIP: u32 = 1 << 1;
        const SCISSOR: u32 = 1 << 14;
        const OFFSET_TRI: u32 = 1 << 20;
        const HALF_PIXEL_CENTER: u32 = 1 << 29;
        let clip = if self.depth_clip { DEPTH_CLIP } else { 0 };
        let scissor = if self.scissor { SCISSOR } else { 0 };
        let offset = if self.offset.is_some() { OFFSET_TRI } else { 0 };
        const MULTISAMPLE: u32 = 1 << 25;
        let multisample = if self.multisample { MULTISAMPLE } else { 0 };
        let s0 = clip | self.cull.code() << 8 | scissor | offset | multisample | HALF_PIXEL_CENTER;
        let (scale, units) = self.offset.unwrap_or((0, 0));
        [s0, 1f32.to_bits(), 0, 0, 1f32.to_bits(), units, scale, 0]
    }
}

/// One vertex attribute: where its data comes from and its format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement {
    /// Byte offset of the attribute inside a vertex.
    pub offset: u32,
    /// Index of the vertex buffer binding it reads.
    pub buffer: u32,
    /// The attribute's format (32-bit floats).
    pub format: Format,
}

impl VertexElement {
    /// The 4 dwords of one element: source offset, instance divisor (0: per
    /// vertex), vertex buffer index, format.
    pub fn dwords(&self) -> [u32; 4] {
        [self.offset, 0, self.buffer, self.format.code()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_blending_packs_factors_for_rgb_and_alpha() {
        let words = BlendState {
            function: Some(RtBlend::add(
                BlendFactor::SrcAlpha,
                BlendFactor::InvSrcAlpha,
            )),
            color_mask: [true; 4],
            alpha_to_coverage: false,
        }
        .dwords();
        assert_eq!(words[..2], [0, 0]);
        let rt = words[2];
        assert_eq!(rt & 1, 1, "enabled");
        assert_eq!((rt >> 4) & 0x1f, 0x03, "rgb src = SRC_ALPHA");
        assert_eq!((rt >> 9) & 0x1f, 0x13, "rgb dst = INV_SRC_ALPHA");
        assert_eq!((rt >> 17) & 0x1f, 0x03, "alpha src");
        assert_eq!((rt >> 22) & 0x1f, 0x13, "alpha dst");
        assert_eq!(rt >> 27, 0xf, "colour mask RGBA");
        assert!(words[2..].iter().all(|&w| w == rt));
        assert_eq!(BlendState::REPLACE.dwords()[2], 0xf << 27);
    }

    /// Separate equations and factors and a colour mask: each field at its bits.
    #[test]
    fn blend_functions_and_colour_mask_pack_per_field() {
        let words = BlendState {
            function: Some(RtBlend {
                rgb_func: BlendFunc::ReverseSubtract,
                rgb_src: BlendFactor::ConstColor,
                rgb_dst: BlendFactor::InvDstAlpha,
                alpha_func: BlendFunc::Max,
                alpha_src: BlendFactor::SrcAlphaSaturate,
                alpha_dst: BlendFactor::Zero,
            }),
            color_mask: [true, false, true, false],
            alpha_to_coverage: true,
        }
        .dwords();
        assert_eq!(words[0], 1 << 3, "alpha to coverage");
        assert_eq!(
            words[2],
            1 | 2 << 1 | 0x07 << 4 | 0x14 << 9 | 4 << 14 | 0x06 << 17 | 0x11 << 22 | 0b0101 << 27
        );
    }

    #[test]
    fn depth_state_sets_enable_write_and_function_bits() {
        let less = DepthState {
            func: Some(CompareFunc::Less),
            write: true,
            stencil: [None; 2],
        };
        assert_eq!(less.dwords(), [1 | 2 | 1 << 2, 0, 0, 0]);
        let equal_no_write = DepthState {
            func: Some(CompareFunc::Equal),
            write: false,
            stencil: [None; 2],
        };
        assert_eq!(equal_no_write.dwords()[0], 1 | 2 << 2);
        let off = DepthState {
            func: None,
            write: true,
            stencil: [None; 2],
        };
        assert_eq!(off.dwords()[0], 0, "no test means no writes either");
    }

    #[test]
    fn stencil_faces_pack_func_ops_and_masks() {
        let front = StencilFaceState {
            func: CompareFunc::NotEqual,
            fail: StencilOp::Zero,
            depth_fail: StencilOp::DecrWrap,
            pass: StencilOp::IncrWrap,
            value_mask: 0x0f,
            write_mask: 0xf0,
        };
        let words = DepthState {
            func: None,
            write: false,
            stencil: [Some(front), None],
        }
        .dwords();
        // enabled 1, func 5 << 1, fail 1 << 4, zpass 5 << 7, zfail 6 << 10,
        // value mask 0x0f << 13, write mask 0xf0 << 21
        assert_eq!(
            words[1],
            1 | 5 << 1 | 1 << 4 | 5 << 7 | 6 << 10 | 0x0f << 13 | 0xf0 << 21
        );
        assert_eq!(words[2], 0, "back face off");
    }

    #[test]
    fn rasterizer_is_gl_like_with_the_cull_mode() {
        let words = RasterizerState {
            cull: CullFace::Back,
            depth_clip: true,
            scissor: false,
            offset: None,
            multisample: false,
        }
        .dwords();
        assert_eq!(words[0], 1 << 1 | 2 << 8 | 1 << 29, "front-CCW bit clear");
        assert_eq!(words[5..], [0, 0, 0], "no polygon offset");
        let clamped = RasterizerState {
            cull: CullFace::None,
            depth_clip: false,
            scissor: true,
            offset: Some(((-1.0f32).to_bits(), (-2.0f32).to_bits())),
            multisample: true,
        };
        let w = clamped.dwords();
        assert_eq!(
            w[0],
            1 << 14 | 1 << 20 | 1 << 25 | 1 << 29,
            "scissor, offset-tri, multisample, no clip"
        );
        assert_eq!(
            [w[5], w[6], w[7]].map(f32::from_bits),
            [-2.0, -1.0, 0.0],
            "units, scale, clamp"
        );
        assert_eq!(f32::from_bits(words[1]), 1.0, "point size");
        assert_eq!(f32::from_bits(words[4]), 1.0, "line width");
    }
}
