//! The stencil test and depth clamp of a draw as GL calls (OpenGL 3.3 core §4.1.4,
//! §2.20): `glStencilFuncSeparate`, `glStencilMaskSeparate`, `glStencilOpSeparate`,
//! `glEnable(GL_STENCIL_TEST)` and `glEnable(GL_DEPTH_CLAMP)`.

use glow::HasContext;

/// One face's stencil state, GL enums and values as the calls take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilFaceDesc {
    /// `glStencilFuncSeparate`'s `func` (`GL_NEVER` … `GL_ALWAYS`).
    pub func: u32,
    /// `glStencilFuncSeparate`'s `ref`, 0..=255.
    pub reference: i32,
    /// `glStencilFuncSeparate`'s `mask`.
    pub value_mask: u32,
    /// `glStencilMaskSeparate`'s `mask`.
    pub write_mask: u32,
    /// `glStencilOpSeparate`'s `sfail` (`GL_KEEP`, `GL_ZERO`, `GL_REPLACE`, `GL_INCR`,
    /// `GL_INCR_WRAP`, `GL_DECR`, `GL_DECR_WRAP`, `GL_INVERT`).
    pub fail: u32,
    /// `glStencilOpSeparate`'s `dpfail`.
    pub depth_fail: u32,
    /// `glStencilOpSeparate`'s `dppass`.
    pub pass: u32,
}

/// Sets the stencil test (`[front, back]`, or disabled for `None`) and depth clamp
/// on the current context.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn apply(gl: &glow::Context, stencil: Option<[StencilFaceDesc; 2]>, clamp: bool) {
    // SAFETY: the caller guarantees the context is current; the enums come from the
    // documented sets (StencilFaceDesc's fields).
    unsafe {
        if clamp {
            gl.enable(glow::DEPTH_CLAMP);
        } else {
            gl.disable(glow::DEPTH_CLAMP);
        }
        match stencil {
            None => gl.disable(glow::STENCIL_TEST),
            Some(faces) => {
                gl.enable(glow::STENCIL_TEST);
                for (face, s) in [glow::FRONT, glow::BACK].into_iter().zip(faces) {
                    gl.stencil_func_separate(face, s.func, s.reference, s.value_mask);
                    gl.stencil_mask_separate(face, s.write_mask);
                    gl.stencil_op_separate(face, s.fail, s.depth_fail, s.pass);
                }
            }
        }
    }
}
