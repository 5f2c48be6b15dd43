//! Multisampled frames ([`FrameDesc::samples`](crate::FrameDesc) > 1): the frame's
//! renderbuffers get that many samples (`glRenderbufferStorageMultisample`), the
//! draws run with `GL_MULTISAMPLE` on (GL's default) and each draw's
//! `GL_SAMPLE_ALPHA_TO_COVERAGE` and `glSampleCoverage` (GL 3.3 §4.1.3), and after the
//! last draw every colour attachment is resolved with `glBlitFramebuffer` into a
//! single-sampled framebuffer of the same formats (GL 3.3 §4.3.2), from which the
//! frame is read back.

use glow::HasContext;

/// `glRenderbufferStorage`, or `glRenderbufferStorageMultisample` for `samples` > 1,
/// on the bound renderbuffer.
///
/// # Safety
/// A renderbuffer must be bound to `GL_RENDERBUFFER`; the size must be valid.
pub(crate) unsafe fn storage(
    gl: &glow::Context,
    format: u32,
    width: u32,
    height: u32,
    samples: u32,
) {
    // SAFETY: the caller's renderbuffer is bound and the size valid.
    unsafe {
        if samples > 1 {
            gl.renderbuffer_storage_multisample(
                glow::RENDERBUFFER,
                samples as i32,
                format,
                width as i32,
                height as i32,
            );
        } else {
            gl.renderbuffer_storage(glow::RENDERBUFFER, format, width as i32, height as i32);
        }
    }
}

/// The single-sampled framebuffer a multisampled frame resolves into.
#[derive(Debug)]
pub(crate) struct Resolve {
    pub framebuffer: glow::Framebuffer,
    pub renderbuffers: Vec<glow::Renderbuffer>,
}

/// Makes the resolve framebuffer: one single-sampled renderbuffer of each format of
/// `formats` at `GL_COLOR_ATTACHMENT0 + k`, no depth or stencil. Leaves
/// `GL_FRAMEBUFFER` bound to it.
///
/// # Safety
/// A current context; `width` and `height` valid renderbuffer sizes.
pub(crate) unsafe fn make_resolve(
    gl: &glow::Context,
    formats: &[u32],
    width: u32,
    height: u32,
) -> Result<Resolve, String> {
    // SAFETY: every object is new on the current context and returned to the caller,
    // who deletes it; the sizes are valid.
    unsafe {
        let framebuffer = gl
            .create_framebuffer()
            .map_err(|e| format!("glGenFramebuffers: {e}"))?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        let mut renderbuffers = Vec::with_capacity(formats.len());
        for (k, &format) in formats.iter().enumerate() {
            let rb = gl
                .create_renderbuffer()
                .map_err(|e| format!("glGenRenderbuffers: {e}"))?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
            storage(gl, format, width, height, 1);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0 + k as u32,
                glow::RENDERBUFFER,
                Some(rb),
            );
            renderbuffers.push(rb);
        }
        gl.bind_renderbuffer(glow::RENDERBUFFER, None);
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            return Err(format!(
                "the resolve framebuffer is incomplete: status 0x{status:04X}"
            ));
        }
        Ok(Resolve {
            framebuffer,
            renderbuffers,
        })
    }
}

/// Resolves colour attachments `0..count` of `from` into `to`'s, one
/// `glBlitFramebuffer(GL_COLOR_BUFFER_BIT, GL_NEAREST)` each over the whole
/// `width × height` (the scissor test off and every channel written, which the
/// blit would otherwise obey); the draw buffers of `from` are set back to all
/// `count` attachments.
///
/// # Safety
/// `from` and `to` are framebuffers of this context with `count` colour attachments
/// of the same formats and size, `to` single-sampled.
pub(crate) unsafe fn blit(
    gl: &glow::Context,
    from: glow::Framebuffer,
    to: &Resolve,
    count: usize,
    width: u32,
    height: u32,
) {
    let (w, h) = (width as i32, height as i32);
    // SAFETY: the caller's framebuffers match in size and formats.
    unsafe {
        gl.disable(glow::SCISSOR_TEST);
        gl.color_mask(true, true, true, true);
        for k in 0..count as u32 {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(from));
            gl.read_buffer(glow::COLOR_ATTACHMENT0 + k);
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, Some(to.framebuffer));
            gl.draw_buffers(&[glow::COLOR_ATTACHMENT0 + k]);
            gl.blit_framebuffer(
                0,
                0,
                w,
                h,
                0,
                0,
                w,
                h,
                glow::COLOR_BUFFER_BIT,
                glow::NEAREST,
            );
        }
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
    }
}

/// A draw's multisample state: `GL_SAMPLE_ALPHA_TO_COVERAGE` and, with `Some((value,
/// invert))`, `GL_SAMPLE_COVERAGE` + `glSampleCoverage(value, invert)`.
///
/// # Safety
/// A current context.
pub(crate) unsafe fn apply(
    gl: &glow::Context,
    alpha_to_coverage: bool,
    coverage: Option<(f32, bool)>,
) {
    // SAFETY: capability enums of GL 1.3 and a call taking a clamped float and a bool.
    unsafe {
        if alpha_to_coverage {
            gl.enable(glow::SAMPLE_ALPHA_TO_COVERAGE);
        } else {
            gl.disable(glow::SAMPLE_ALPHA_TO_COVERAGE);
        }
        match coverage {
            Some((value, invert)) => {
                gl.enable(glow::SAMPLE_COVERAGE);
                gl.sample_coverage(value, invert);
            }
            None => gl.disable(glow::SAMPLE_COVERAGE),
        }
    }
}
