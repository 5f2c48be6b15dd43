//! Fixed-function state objects and how each packs into the dwords of its
//! `CREATE_OBJECT` command (virglrenderer's `virgl_protocol.h`: `VIRGL_OBJ_BLEND_*`,
//! `VIRGL_OBJ_DSA_*`, `VIRGL_OBJ_RS_*`; the sampler state is `sampler.rs`'s; docs/virgl.md
//! restates the layouts).

use crate::pipe::{BlendFactor, BlendFunc, CompareFunc, CullFace, Format, PolygonFill, StencilOp};

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
/// half-integers, near and far clipping on, depth range [−1, 1] in clip space, no
/// multisampling, GL 3.3 core's point sprites (every point is rasterized as a
/// square, `gl_PointCoord` with its origin in the upper left, §3.4).
///
/// Gallium counts windings with window y pointing down (row 0 first), so OpenGL's
/// counter-clockwise is Gallium's clockwise: the front-CCW bit stays clear, as Mesa's
/// own virgl driver sends it for a framebuffer object. The bottom-edge rule bit stays
/// clear too (Mesa's state tracker sets it only for a window-system framebuffer, and
/// virglrenderer leaves the rule to the host's GL).
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
    /// The bits of `glPointSize` as `f32` (> 0; `point_size`).
    pub point_size: u32,
    /// `GL_PROGRAM_POINT_SIZE` (`point_size_per_vertex`): points take the vertex
    /// shader's `PSIZE` output instead of [`RasterizerState::point_size`].
    pub point_size_per_vertex: bool,
    /// The bits of `glLineWidth` as `f32` (> 0; `line_width`).
    pub line_width: u32,
    /// `glPolygonMode(GL_FRONT_AND_BACK, …)`: `fill_front` and `fill_back` alike
    /// (the host's core profile takes one mode for both).
    pub fill: PolygonFill,
    /// `glProvokingVertex(GL_FIRST_VERTEX_CONVENTION)` (`flatshade_first`): flat
    /// inputs take the first vertex's value instead of the last's (GL 3.3 core
    /// §2.18, table 2.12).
    pub flatshade_first: bool,
    /// `sprite_coord_enable`: bit `k` replaces the fragment input `GENERIC[k]` by
    /// the point sprite coordinate (`gl_PointCoord`) in draws of points.
    pub sprite_coord_enable: u32,
}

impl Default for RasterizerState {
    /// OpenGL's defaults: no culling, depth clipping on, no scissor, no offset,
    /// points of size 1, lines of width 1, filled polygons, the last vertex provoking.
    fn default() -> Self {
        RasterizerState {
            cull: CullFace::None,
            depth_clip: true,
            scissor: false,
            offset: None,
            point_size: 1f32.to_bits(),
            point_size_per_vertex: false,
            line_width: 1f32.to_bits(),
            fill: PolygonFill::Fill,
            flatshade_first: false,
            sprite_coord_enable: 0,
            multisample: false,
        }
    }
}

impl RasterizerState {
    /// The 8 dwords after the handle (`VIRGL_OBJ_RS_*`): S0 (depth clip bit 1,
    /// flatshade-first bit 4, sprite-coord mode bit 6 set (upper left: the host's
    /// `GL_POINT_SPRITE_COORD_ORIGIN` `GL_UPPER_LEFT`, GL 3.3 core's only origin),
    /// point quad rasterization bit 7 set (point sprites, always on in GL 3.3 core),
    /// cull bits 8..9, fill front bits 10..11 and back bits 12..13, scissor bit 14,
    /// front CCW bit 15 clear, offset-tri bit 20, point size per vertex bit 24,
    /// half-pixel centre bit 29; line last pixel bit 28 and bottom edge rule bit 30
    /// clear, as for OpenGL), the point size, the sprite coordinate enable bits, S3
    /// (no stipple, no user clip planes), the line width, polygon offset units, scale
    /// and clamp (0 without an offset; clamp 0 is GL 3.3's unclamped offset).
    pub fn dwords(&self) -> [u32; 8] {
        const DEPTH_CLIP: u32 = 1 << 1;
        const FLATSHADE_FIRST: u32 = 1 << 4;
        const SPRITE_COORD_UPPER_LEFT: u32 = 1 << 6;
        const POINT_QUAD_RASTERIZATION: u32 = 1 << 7;
        const SCISSOR: u32 = 1 << 14;
        const OFFSET_TRI: u32 = 1 << 20;
        const POINT_SIZE_PER_VERTEX: u32 = 1 << 24;
        const HALF_PIXEL_CENTER: u32 = 1 << 29;
        const MULTISAMPLE: u32 = 1 << 25;
        let bit = |on: bool, bit: u32| if on { bit } else { 0 };
        let s0 = bit(self.depth_clip, DEPTH_CLIP)
            | bit(self.flatshade_first, FLATSHADE_FIRST)
            | SPRITE_COORD_UPPER_LEFT
            | POINT_QUAD_RASTERIZATION
            | self.cull.code() << 8
            | self.fill.code() << 10
            | self.fill.code() << 12
            | bit(self.scissor, SCISSOR)
            | bit(self.offset.is_some(), OFFSET_TRI)
            | bit(self.point_size_per_vertex, POINT_SIZE_PER_VERTEX)
            | bit(self.multisample, MULTISAMPLE)
            | HALF_PIXEL_CENTER;
        let (scale, units) = self.offset.unwrap_or((0, 0));
        [
            s0,
            self.point_size,
            self.sprite_coord_enable,
            0,
            self.line_width,
            units,
            scale,
            0,
        ]
    }
}

/// One vertex attribute: where its data comes from and its format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement {
    /// Byte offset of the attribute inside a vertex.
    pub offset: u32,
    /// Index of the vertex buffer binding it reads.
    pub buffer: u32,
    /// The attribute's format (32-bit floats, or 32-bit integers the shader reads
    /// exactly).
    pub format: Format,
    /// `glVertexAttribDivisor`: 0 reads one element per vertex, `d > 0` one per `d`
    /// instances (GL 3.3 core §2.8.2).
    pub instance_divisor: u32,
}

impl VertexElement {
    /// The 4 dwords of one element: source offset, instance divisor (0: per
    /// vertex), vertex buffer index, format.
    pub fn dwords(&self) -> [u32; 4] {
        [
            self.offset,
            self.instance_divisor,
            self.buffer,
            self.format.code(),
        ]
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
            ..RasterizerState::default()
        }
        .dwords();
        assert_eq!(
            words[0],
            1 << 1 | 1 << 6 | 1 << 7 | 2 << 8 | 1 << 29,
            "front-CCW bit clear, point sprites with the upper-left origin"
        );
        assert_eq!(words[5..], [0, 0, 0], "no polygon offset");
        let clamped = RasterizerState {
            depth_clip: false,
            scissor: true,
            offset: Some(((-1.0f32).to_bits(), (-2.0f32).to_bits())),
            multisample: true,
            ..RasterizerState::default()
        };
        let w = clamped.dwords();
        assert_eq!(
            w[0],
            1 << 6 | 1 << 7 | 1 << 14 | 1 << 20 | 1 << 25 | 1 << 29,
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

    /// Points, lines and polygon modes: each field at `VIRGL_OBJ_RS_*`'s place.
    #[test]
    fn points_lines_and_polygon_modes_pack_at_their_bits() {
        let w = RasterizerState {
            point_size: 7.5f32.to_bits(),
            point_size_per_vertex: true,
            line_width: 3f32.to_bits(),
            fill: PolygonFill::Line,
            flatshade_first: true,
            sprite_coord_enable: 1 << 2,
            ..RasterizerState::default()
        }
        .dwords();
        assert_eq!(
            w[0],
            1 << 1 | 1 << 4 | 1 << 6 | 1 << 7 | 1 << 10 | 1 << 12 | 1 << 24 | 1 << 29
        );
        assert_eq!(f32::from_bits(w[1]), 7.5, "point size");
        assert_eq!(w[2], 0b100, "sprite coordinate enable");
        assert_eq!(f32::from_bits(w[4]), 3.0, "line width");
        let point = RasterizerState {
            fill: PolygonFill::Point,
            ..RasterizerState::default()
        }
        .dwords();
        assert_eq!((point[0] >> 10) & 0xf, 2 | 2 << 2, "fill front and back");
    }

    #[test]
    fn a_vertex_element_carries_its_divisor() {
        let e = VertexElement {
            offset: 0,
            buffer: 3,
            format: Format::R32G32Sint,
            instance_divisor: 3,
        };
        assert_eq!(e.dwords(), [0, 3, 3, 198]);
    }
}
