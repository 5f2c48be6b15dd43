//! A scene draw's fixed-function state as VirGL state objects (scene-format.md
//! `state`; the samplers' are `textures.rs`'s): the same meaning the CPU rasterizer gives it.

use csir_raster::{BlendMode, CullMode, DepthTest, RasterState, StencilFace, StencilOp};
use csir_virgl::pipe::{self, BlendFactor, CompareFunc, CullFace};
use csir_virgl::state::{BlendState, DepthState, RasterizerState, StencilFaceState};

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

/// The draw's blending: alpha is `src·a + dst·(1−a)` on RGB and on A, additive is
/// `src + dst`.
pub fn blend_state(state: &RasterState) -> BlendState {
    let factors = match state.blend {
        BlendMode::Replace => None,
        BlendMode::Alpha => Some((BlendFactor::SrcAlpha, BlendFactor::InvSrcAlpha)),
        BlendMode::Additive => Some((BlendFactor::One, BlendFactor::One)),
        // refused before encoding (`fragment_ops.rs`); no factor pair expresses it
        BlendMode::Function(_) => None,
    };
    BlendState { factors }
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
        assert_eq!(blend_state(&state), BlendState::REPLACE);
        state.blend = BlendMode::Alpha;
        assert_eq!(
            blend_state(&state).factors,
            Some((BlendFactor::SrcAlpha, BlendFactor::InvSrcAlpha))
        );
        state.blend = BlendMode::Additive;
        assert_eq!(
            blend_state(&state).factors,
            Some((BlendFactor::One, BlendFactor::One))
        );
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
