//! A scene draw's fixed-function state as VirGL state objects (scene-format.md
//! `state`; the samplers' are `textures.rs`'s): the same meaning the CPU rasterizer gives it.

use csir_raster::{
    BlendEquation, BlendMode, CullMode, DepthTest, RasterState, StencilFace, StencilOp,
};
use csir_virgl::pipe::{self, BlendFactor, BlendFunc, CompareFunc, CullFace};
use csir_virgl::state::{BlendState, DepthState, RasterizerState, RtBlend, StencilFaceState};

/// The draw's depth test and depth writes (no test: nothing is written, as in GL).
/// With `state.stencil`, the stencil test of each face too (its reference values are
/// [`stencil_ref`]'s).
pub fn depth_state(state: &RasterState) -> DepthState {
    DepthState {
        func: compare(state.depth_test),
        write: state.writes_depth(),
        stencil: match state.stencil {
            None => [None; 2],
            Some(s) => [Some(stencil_face(&s.front)), Some(stencil_face(&s.back))],
        },
    }
}

/// The stencil reference values `[front, back]` (`set_stencil_ref`), 0 without a test.
pub fn stencil_ref(state: &RasterState) -> [u8; 2] {
    state
        .stencil
        .map_or([0; 2], |s| [s.front.reference, s.back.reference])
}

/// A depth test's function, `None` for `Disabled`.
fn compare(test: DepthTest) -> Option<CompareFunc> {
    match test {
        DepthTest::Disabled => None,
        DepthTest::Less => Some(CompareFunc::Less),
        DepthTest::LessEqual => Some(CompareFunc::LessEqual),
        DepthTest::Greater => Some(CompareFunc::Greater),
        DepthTest::GreaterEqual => Some(CompareFunc::GreaterEqual),
        DepthTest::Equal => Some(CompareFunc::Equal),
        DepthTest::NotEqual => Some(CompareFunc::NotEqual),
        DepthTest::Always => Some(CompareFunc::Always),
        DepthTest::Never => Some(CompareFunc::Never),
    }
}

/// One face's stencil state on the wire (GL 3.3 §4.1.4; `Disabled`, which the
/// loader never gives a face, as `always`).
fn stencil_face(f: &StencilFace) -> StencilFaceState {
    let op = |op: StencilOp| match op {
        StencilOp::Keep => pipe::StencilOp::Keep,
        StencilOp::Zero => pipe::StencilOp::Zero,
        StencilOp::Replace => pipe::StencilOp::Replace,
        StencilOp::Incr => pipe::StencilOp::Incr,
        StencilOp::IncrWrap => pipe::StencilOp::IncrWrap,
        StencilOp::Decr => pipe::StencilOp::Decr,
        StencilOp::DecrWrap => pipe::StencilOp::DecrWrap,
        StencilOp::Invert => pipe::StencilOp::Invert,
    };
    StencilFaceState {
        func: compare(f.func).unwrap_or(CompareFunc::Always),
        fail: op(f.fail),
        depth_fail: op(f.depth_fail),
        pass: op(f.pass),
        value_mask: f.value_mask,
        write_mask: f.write_mask,
    }
}

/// The draw's blending, colour mask and alpha-to-coverage: the named modes' and a
/// blend object's factors and equations (GL 3.3 §4.1.8; alpha is
/// `src·a + dst·(1−a)` on RGB and on A, additive `src + dst`), the `src1_*` factors
/// of dual-source blending among them (the host binds the fragment shader's
/// `COLOR[1]` to the second source when a factor of colour buffer 0 reads it).
/// The blend colour is [`blend_color`]'s; `alpha_to_coverage` is the draw's
/// `state.alpha_to_coverage` (GL 3.3 §4.1.3), which acts on a multisampled target
/// only.
pub fn blend_state(state: &RasterState, alpha_to_coverage: bool) -> BlendState {
    let function = match state.blend {
        BlendMode::Replace => None,
        mode => {
            let f = mode.function();
            Some(RtBlend {
                rgb_func: blend_func(f.equation_rgb),
                rgb_src: blend_factor(f.src_rgb),
                rgb_dst: blend_factor(f.dst_rgb),
                alpha_func: blend_func(f.equation_alpha),
                alpha_src: blend_factor(f.src_alpha),
                alpha_dst: blend_factor(f.dst_alpha),
            })
        }
    };
    BlendState {
        function,
        color_mask: state.color_mask,
        alpha_to_coverage,
    }
}

/// The blend colour as `set_blend_color` sends it: the unorm8 bytes the CPU
/// renderer blends with, as floats the host converts back to the same bytes
/// (`k / 255`, as `--backend gl` passes it).
pub fn blend_color(state: &RasterState) -> [f32; 4] {
    state.blend.function().color.map(|c| f32::from(c) / 255.0)
}

/// A blend factor on the wire; `None` for the dual-source factors.
fn blend_factor(f: csir_raster::BlendFactor) -> BlendFactor {
    use csir_raster::BlendFactor as F;
    match f {
        F::Zero => BlendFactor::Zero,
        F::One => BlendFactor::One,
        F::SrcColor => BlendFactor::SrcColor,
        F::OneMinusSrcColor => BlendFactor::InvSrcColor,
        F::DstColor => BlendFactor::DstColor,
        F::OneMinusDstColor => BlendFactor::InvDstColor,
        F::SrcAlpha => BlendFactor::SrcAlpha,
        F::OneMinusSrcAlpha => BlendFactor::InvSrcAlpha,
        F::DstAlpha => BlendFactor::DstAlpha,
        F::OneMinusDstAlpha => BlendFactor::InvDstAlpha,
        F::ConstantColor => BlendFactor::ConstColor,
        F::OneMinusConstantColor => BlendFactor::InvConstColor,
        F::ConstantAlpha => BlendFactor::ConstAlpha,
        F::OneMinusConstantAlpha => BlendFactor::InvConstAlpha,
        F::SrcAlphaSaturate => BlendFactor::SrcAlphaSaturate,
        F::Src1Color => BlendFactor::Src1Color,
        F::OneMinusSrc1Color => BlendFactor::InvSrc1Color,
        F::Src1Alpha => BlendFactor::Src1Alpha,
        F::OneMinusSrc1Alpha => BlendFactor::InvSrc1Alpha,
    }
}

/// A blend equation on the wire.
fn blend_func(e: BlendEquation) -> BlendFunc {
    match e {
        BlendEquation::Add => BlendFunc::Add,
        BlendEquation::Subtract => BlendFunc::Subtract,
        BlendEquation::ReverseSubtract => BlendFunc::ReverseSubtract,
        BlendEquation::Min => BlendFunc::Min,
        BlendEquation::Max => BlendFunc::Max,
    }
}

/// Viewport 0 as `set_viewport`'s scale and translate: `state.viewport` (or the
/// whole `width`×`height` framebuffer) and `state.depth_range`, window = NDC · scale
/// + translate (GL 3.3 §2.13.1: `x_w = x_ndc · w/2 + x + w/2`, `z_w = z_ndc ·
/// (f − n)/2 + (n + f)/2`), NDC y = −1 on row 0, the framebuffer object's bottom row.
pub fn viewport(state: &RasterState, width: u32, height: u32) -> ([f32; 3], [f32; 3]) {
    let [x, y, w, h] = state
        .viewport
        .map_or([0.0, 0.0, width as f32, height as f32], |v| {
            v.map(|c| c as f32)
        });
    let [n, f] = state.depth_range;
    (
        [w / 2.0, h / 2.0, (f - n) / 2.0],
        [x + w / 2.0, y + h / 2.0, (n + f) / 2.0],
    )
}

/// The scissor rectangle `[min_x, min_y, max_x, max_y]` of `state.scissor`
/// (`[x, y, w, h]`, inside the framebuffer by the loader's rule), `None` without one.
pub fn scissor(state: &RasterState) -> Option<[u16; 4]> {
    state
        .scissor
        .map(|[x, y, w, h]| [x, y, x + w, y + h].map(|c| u16::try_from(c).unwrap_or(u16::MAX)))
}

/// The draw's face culling (front faces are counter-clockwise in OpenGL's window
/// space; [`RasterizerState`] says how that reaches the host).
pub fn rasterizer_state(state: &RasterState) -> RasterizerState {
    let cull = match state.cull {
        CullMode::Disabled => CullFace::None,
        CullMode::Back => CullFace::Back,
        CullMode::Front => CullFace::Front,
    };
    RasterizerState {
        cull,
        depth_clip: !state.depth_clamp,
        scissor: state.scissor.is_some(),
        offset: state
            .polygon_offset
            .map(|o| (o.factor.to_bits(), o.units.to_bits())),
        ..RasterizerState::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_writes_need_a_depth_test() {
        let mut state = RasterState::default();
        assert_eq!(
            depth_state(&state),
            DepthState {
                func: Some(CompareFunc::Less),
                write: true,
                stencil: [None; 2]
            }
        );
        state.depth_test = DepthTest::Disabled;
        assert_eq!(depth_state(&state).func, None);
        assert!(!depth_state(&state).write);
        state.depth_test = DepthTest::Equal;
        state.depth_write = false;
        assert_eq!(
            depth_state(&state),
            DepthState {
                func: Some(CompareFunc::Equal),
                write: false,
                stencil: [None; 2]
            }
        );
    }

    #[test]
    fn blend_modes_map_to_their_factors() {
        let mut state = RasterState::default();
        assert_eq!(blend_state(&state, false), BlendState::REPLACE);
        state.blend = BlendMode::Alpha;
        assert_eq!(
            blend_state(&state, false).function,
            Some(RtBlend::add(
                BlendFactor::SrcAlpha,
                BlendFactor::InvSrcAlpha
            ))
        );
        state.blend = BlendMode::Additive;
        assert_eq!(
            blend_state(&state, false).function,
            Some(RtBlend::add(BlendFactor::One, BlendFactor::One))
        );
        state.blend = BlendMode::Function(csir_raster::BlendFunction {
            equation_alpha: BlendEquation::Min,
            color: [255, 0, 51, 0],
            ..csir_raster::BlendFunction::add(
                csir_raster::BlendFactor::OneMinusConstantColor,
                csir_raster::BlendFactor::DstAlpha,
            )
        });
        state.color_mask = [false, true, true, false];
        let b = blend_state(&state, false);
        assert_eq!(b.color_mask, [false, true, true, false]);
        let f = b.function.unwrap();
        assert_eq!(
            (f.rgb_src, f.rgb_dst, f.alpha_func),
            (
                BlendFactor::InvConstColor,
                BlendFactor::DstAlpha,
                BlendFunc::Min
            )
        );
        assert_eq!(blend_color(&state), [1.0, 0.0, 0.2, 0.0]);
        state.blend = BlendMode::Function(csir_raster::BlendFunction::add(
            csir_raster::BlendFactor::Src1Color,
            csir_raster::BlendFactor::OneMinusSrc1Alpha,
        ));
        let dual = blend_state(&state, true);
        assert_eq!(
            dual.function,
            Some(RtBlend::add(
                BlendFactor::Src1Color,
                BlendFactor::InvSrc1Alpha
            ))
        );
        assert!(dual.alpha_to_coverage);
        // PIPE_BLENDFACTOR_SRC1_COLOR 0x09 and INV_SRC1_ALPHA 0x1a at their bits.
        assert_eq!(dual.dwords()[2] >> 4 & 0x1f, 0x09);
        assert_eq!(dual.dwords()[2] >> 9 & 0x1f, 0x1a);
    }

    /// Viewport and depth range as scale and translate, GL 3.3 §2.13.1's formulas:
    /// viewport (10, 12, 100, 90), depth range [1, 0].
    #[test]
    fn viewport_and_depth_range_are_scale_and_translate() {
        let state = RasterState {
            viewport: Some([10, 12, 100, 90]),
            depth_range: [1.0, 0.0],
            scissor: Some([150, 140, 70, 90]),
            ..RasterState::default()
        };
        assert_eq!(
            viewport(&state, 256, 256),
            ([50.0, 45.0, -0.5], [60.0, 57.0, 0.5])
        );
        assert_eq!(
            viewport(&RasterState::default(), 64, 32),
            ([32.0, 16.0, 0.5], [32.0, 16.0, 0.5])
        );
        assert_eq!(scissor(&state), Some([150, 140, 220, 230]));
        assert!(rasterizer_state(&state).scissor);
    }

    #[test]
    fn front_culling_is_sent() {
        assert_eq!(
            rasterizer_state(&RasterState {
                cull: CullMode::Front,
                ..RasterState::default()
            })
            .cull,
            CullFace::Front
        );
    }
}
