//! Several colour attachments of any format, and `GL_FRAMEBUFFER_SRGB`: the
//! framebuffer a frame with [`FrameDesc::targets`](crate::FrameDesc) draws into,
//! its per-attachment clears (`glClearBuffer*`) and read-backs (`glReadPixels` with
//! the attachment's format and type).

use glow::HasContext;

/// How an attachment's values are cleared and read: GL's classes of colour buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// Unsigned normalized: cleared with `glClearBufferfv`, read as
    /// `GL_RGBA`/`GL_UNSIGNED_BYTE`.
    Unorm,
    /// Floating point: `glClearBufferfv`, read as `GL_RGBA`/`GL_FLOAT`.
    Float,
    /// Unsigned integer: `glClearBufferuiv`, read as `GL_RGBA_INTEGER`/`GL_UNSIGNED_INT`.
    Uint,
    /// Signed integer: `glClearBufferiv`, read as `GL_RGBA_INTEGER`/`GL_INT`.
    Int,
}

/// One colour attachment: `glRenderbufferStorage(internal_format)` at
/// `GL_COLOR_ATTACHMENT0 + k`, draw buffer `k`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetDesc {
    /// The sized internal format (`GL_RGBA8`, `GL_SRGB8_ALPHA8`, `GL_R8`, `GL_RG8`,
    /// `GL_RGBA16F`, `GL_RGBA32F`, `GL_R32F`, `GL_RGBA8UI`, `GL_RGBA32UI`,
    /// `GL_RGBA32I`).
    pub internal_format: u32,
    /// How it is cleared and read.
    pub kind: TargetKind,
    /// The clear value: floats for unorm and float targets; for integer targets
    /// each value's integer part (exact up to 2^32).
    pub clear: [f64; 4],
}

/// Creates the renderbuffers of `targets` at `GL_COLOR_ATTACHMENT0 + k` of the bound
/// draw framebuffer, of `width × height` with `samples` samples (0 or 1: single-sampled), and sets the draw buffers to all of them.
///
/// # Safety
/// A framebuffer object must be bound to `GL_FRAMEBUFFER` on `gl`'s current context;
/// `width` and `height` must be valid renderbuffer sizes.
pub(crate) unsafe fn attach(
    gl: &glow::Context,
    targets: &[TargetDesc],
    width: u32,
    height: u32,
    samples: u32,
) -> Result<Vec<glow::Renderbuffer>, String> {
    let mut buffers = Vec::with_capacity(targets.len());
    let mut draw_buffers = Vec::with_capacity(targets.len());
    for (k, t) in targets.iter().enumerate() {
        let attachment = glow::COLOR_ATTACHMENT0 + k as u32;
        // SAFETY: the caller's framebuffer is bound; the renderbuffer is new and
        // sized within the limits the caller checked.
        unsafe {
            let rb = gl
                .create_renderbuffer()
                .map_err(|e| format!("glGenRenderbuffers: {e}"))?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
            crate::multisample::storage(gl, t.internal_format, width, height, samples);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                attachment,
                glow::RENDERBUFFER,
                Some(rb),
            );
            buffers.push(rb);
        }
        draw_buffers.push(attachment);
    }
    // SAFETY: as above; every attachment named was just attached.
    unsafe {
        gl.bind_renderbuffer(glow::RENDERBUFFER, None);
        gl.draw_buffers(&draw_buffers);
    }
    Ok(buffers)
}

/// Clears every attachment to its value with `glClearBuffer*` (GL 3.3 §4.2.3: the
/// integer ones with `iv`/`uiv`), and `GL_FRAMEBUFFER_SRGB` set to `srgb`.
///
/// # Safety
/// The frame's framebuffer, made by [`attach`] with `targets`, must be bound.
pub(crate) unsafe fn clear(gl: &glow::Context, targets: &[TargetDesc], srgb: bool) {
    for (k, t) in targets.iter().enumerate() {
        let k = k as u32;
        // SAFETY: draw buffer `k` exists (one per target) and the slices hold four
        // values, what glClearBuffer*v reads for GL_COLOR.
        unsafe {
            match t.kind {
                TargetKind::Unorm | TargetKind::Float => {
                    let v = t.clear.map(|c| c as f32);
                    gl.clear_buffer_f32_slice(glow::COLOR, k, &v);
                }
                TargetKind::Uint => {
                    let v = t.clear.map(|c| c as i64 as u32);
                    gl.clear_buffer_u32_slice(glow::COLOR, k, &v);
                }
                TargetKind::Int => {
                    let v = t.clear.map(|c| c as i64 as i32);
                    gl.clear_buffer_i32_slice(glow::COLOR, k, &v);
                }
            }
        }
    }
    // SAFETY: a capability enum of GL 3.0.
    unsafe {
        if srgb {
            gl.enable(glow::FRAMEBUFFER_SRGB);
        } else {
            gl.disable(glow::FRAMEBUFFER_SRGB);
        }
    }
}

/// Attachment `k` read back, top row first: `width · height` pixels of four 32-bit
/// words (unorm channels 0..=255, float channels `f32` bits, integers as they are).
/// `GL_FRAMEBUFFER_SRGB` is disabled first, so an sRGB attachment reads its stored
/// (encoded) bytes.
///
/// # Safety
/// `framebuffer` must have been made by [`attach`] with `target` at attachment `k`,
/// of `width × height`.
pub(crate) unsafe fn read(
    gl: &glow::Context,
    framebuffer: glow::Framebuffer,
    k: usize,
    target: &TargetDesc,
    width: u32,
    height: u32,
) -> Vec<[u32; 4]> {
    let (w, h) = (width as usize, height as usize);
    let mut words = vec![[0u32; 4]; w * h];
    // SAFETY: the buffers hold exactly w × h pixels of the format and type read,
    // at a pack alignment of 1.
    unsafe {
        gl.disable(glow::FRAMEBUFFER_SRGB);
        gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(framebuffer));
        gl.read_buffer(glow::COLOR_ATTACHMENT0 + k as u32);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        match target.kind {
            TargetKind::Unorm => {
                let mut bytes = vec![0u8; w * h * 4];
                gl.read_pixels(
                    0,
                    0,
                    w as i32,
                    h as i32,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelPackData::Slice(Some(&mut bytes)),
                );
                for (d, s) in words.iter_mut().zip(bytes.chunks_exact(4)) {
                    *d = [0, 1, 2, 3].map(|c| u32::from(s[c]));
                }
            }
            kind => {
                let (format, ty) = match kind {
                    TargetKind::Float => (glow::RGBA, glow::FLOAT),
                    TargetKind::Uint => (glow::RGBA_INTEGER, glow::UNSIGNED_INT),
                    _ => (glow::RGBA_INTEGER, glow::INT),
                };
                let mut bytes = vec![0u8; w * h * 16];
                gl.read_pixels(
                    0,
                    0,
                    w as i32,
                    h as i32,
                    format,
                    ty,
                    glow::PixelPackData::Slice(Some(&mut bytes)),
                );
                for (d, s) in words.iter_mut().zip(bytes.chunks_exact(16)) {
                    *d = [0, 1, 2, 3].map(|c| {
                        u32::from_ne_bytes(s[4 * c..4 * c + 4].try_into().expect("4 bytes"))
                    });
                }
            }
        }
    }
    let mut flipped = Vec::with_capacity(words.len());
    for y in (0..h).rev() {
        flipped.extend_from_slice(&words[y * w..(y + 1) * w]);
    }
    flipped
}
