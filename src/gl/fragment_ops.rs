//! The per-fragment operation state of a draw as GL calls (`docs/scene-format.md`,
//! "Per-fragment operations"): the GL enum of each factor, equation and function.

use csir_gl::{Blend, glow};
use csir_raster::{BlendEquation, BlendFactor, BlendFunction};

/// `glBlendFuncSeparate`, `glBlendEquationSeparate` and `glBlendColor` of a blend
/// function; the colour is the unorm8 value the CPU renderer blends with, as a float
/// GL converts back to the same byte (`k / 255`).
pub(super) fn blend(f: &BlendFunction) -> Blend {
    Blend {
        equation_rgb: equation(f.equation_rgb),
        equation_alpha: equation(f.equation_alpha),
        src_rgb: factor(f.src_rgb),
        dst_rgb: factor(f.dst_rgb),
        src_alpha: factor(f.src_alpha),
        dst_alpha: factor(f.dst_alpha),
        color: f.color.map(|c| f32::from(c) / 255.0),
    }
}

/// The GL enum of a blend factor (GL 3.3 §4.1.8, Table 4.2).
fn factor(f: BlendFactor) -> u32 {
    match f {
        BlendFactor::Zero => glow::ZERO,
        BlendFactor::One => glow::ONE,
        BlendFactor::SrcColor => glow::SRC_COLOR,
        BlendFactor::OneMinusSrcColor => glow::ONE_MINUS_SRC_COLOR,
        BlendFactor::DstColor => glow::DST_COLOR,
        BlendFactor::OneMinusDstColor => glow::ONE_MINUS_DST_COLOR,
        BlendFactor::SrcAlpha => glow::SRC_ALPHA,
        BlendFactor::OneMinusSrcAlpha => glow::ONE_MINUS_SRC_ALPHA,
        BlendFactor::DstAlpha => glow::DST_ALPHA,
        BlendFactor::OneMinusDstAlpha => glow::ONE_MINUS_DST_ALPHA,
        BlendFactor::ConstantColor => glow::CONSTANT_COLOR,
        BlendFactor::OneMinusConstantColor => glow::ONE_MINUS_CONSTANT_COLOR,
        BlendFactor::ConstantAlpha => glow::CONSTANT_ALPHA,
        BlendFactor::OneMinusConstantAlpha => glow::ONE_MINUS_CONSTANT_ALPHA,
        BlendFactor::SrcAlphaSaturate => glow::SRC_ALPHA_SATURATE,
        BlendFactor::Src1Color => glow::SRC1_COLOR,
        BlendFactor::OneMinusSrc1Color => glow::ONE_MINUS_SRC1_COLOR,
        BlendFactor::Src1Alpha => glow::SRC1_ALPHA,
        BlendFactor::OneMinusSrc1Alpha => glow::ONE_MINUS_SRC1_ALPHA,
    }
}

/// The GL enum of a blend equation (GL 3.3 §4.1.8, Table 4.1).
fn equation(e: BlendEquation) -> u32 {
    match e {
        BlendEquation::Add => glow::FUNC_ADD,
        BlendEquation::Subtract => glow::FUNC_SUBTRACT,
        BlendEquation::ReverseSubtract => glow::FUNC_REVERSE_SUBTRACT,
        BlendEquation::Min => glow::MIN,
        BlendEquation::Max => glow::MAX,
    }
}

/// `glStencilFuncSeparate`, `glStencilMaskSeparate` and `glStencilOpSeparate` of both
/// faces (`[front, back]`; GL 3.3 §4.1.4).
pub(super) fn stencil(s: csir_raster::StencilState) -> [csir_gl::StencilFaceDesc; 2] {
    [s.front, s.back].map(|f| csir_gl::StencilFaceDesc {
        func: compare(f.func),
        reference: i32::from(f.reference),
        value_mask: u32::from(f.value_mask),
        write_mask: u32::from(f.write_mask),
        fail: stencil_op(f.fail),
        depth_fail: stencil_op(f.depth_fail),
        pass: stencil_op(f.pass),
    })
}

/// The GL enum of a comparison function (`glStencilFunc`; `Disabled`, which the loader
/// never gives a stencil face, as `GL_ALWAYS`).
fn compare(t: csir_raster::DepthTest) -> u32 {
    use csir_raster::DepthTest;
    match t {
        DepthTest::Disabled | DepthTest::Always => glow::ALWAYS,
        DepthTest::Less => glow::LESS,
        DepthTest::LessEqual => glow::LEQUAL,
        DepthTest::Greater => glow::GREATER,
        DepthTest::GreaterEqual => glow::GEQUAL,
        DepthTest::Equal => glow::EQUAL,
        DepthTest::NotEqual => glow::NOTEQUAL,
        DepthTest::Never => glow::NEVER,
    }
}

/// The GL enum of a stencil op (`glStencilOp`).
fn stencil_op(op: csir_raster::StencilOp) -> u32 {
    use csir_raster::StencilOp;
    match op {
        StencilOp::Keep => glow::KEEP,
        StencilOp::Zero => glow::ZERO,
        StencilOp::Replace => glow::REPLACE,
        StencilOp::Incr => glow::INCR,
        StencilOp::IncrWrap => glow::INCR_WRAP,
        StencilOp::Decr => glow::DECR,
        StencilOp::DecrWrap => glow::DECR_WRAP,
        StencilOp::Invert => glow::INVERT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_function_is_the_gl_calls_it_names() {
        let f = BlendFunction {
            src_rgb: BlendFactor::ConstantColor,
            dst_rgb: BlendFactor::OneMinusDstAlpha,
            src_alpha: BlendFactor::SrcAlphaSaturate,
            dst_alpha: BlendFactor::Zero,
            equation_rgb: BlendEquation::ReverseSubtract,
            equation_alpha: BlendEquation::Max,
            color: [0, 51, 255, 128],
        };
        let b = blend(&f);
        assert_eq!(
            [b.src_rgb, b.dst_rgb, b.src_alpha, b.dst_alpha],
            [0x8001, 0x0305, 0x0308, 0]
        );
        assert_eq!([b.equation_rgb, b.equation_alpha], [0x800B, 0x8008]);
        assert_eq!(b.color, [0.0, 0.2, 1.0, 128.0 / 255.0]);
        assert_eq!(b.color.map(csir_raster::to_unorm8), f.color);
    }
}
