//! GL 3.3 textures and sampler state beyond the 2D RGBA8 texture (`frame.rs`): the
//! upload of every target (`glTexImage1D/2D/3D`, the six cube faces, a buffer
//! texture's `glTexBuffer`) in any internal format, and the sampler parameters
//! `GL_TEXTURE_BORDER_COLOR`, `GL_TEXTURE_COMPARE_MODE`/`_FUNC`, `GL_TEXTURE_MIN_LOD`,
//! `_MAX_LOD`, `_LOD_BIAS` and the texture's `GL_TEXTURE_BASE_LEVEL`/`_MAX_LEVEL`.

use glow::HasContext;

/// A texture image of any GL 3.3 target and format: what `glTexImage*` is given.
#[derive(Clone, Copy, Debug)]
pub struct Gl33Image<'a> {
    /// `GL_TEXTURE_1D`, `GL_TEXTURE_2D`, `GL_TEXTURE_3D`, `GL_TEXTURE_CUBE_MAP`,
    /// `GL_TEXTURE_1D_ARRAY`, `GL_TEXTURE_2D_ARRAY`, `GL_TEXTURE_RECTANGLE` or
    /// `GL_TEXTURE_BUFFER`.
    pub target: u32,
    /// The internal format (`GL_RGBA8`, `GL_DEPTH_COMPONENT32F`, …).
    pub internal_format: u32,
    /// The data's format (`GL_RGBA`, `GL_RED`, `GL_RGBA_INTEGER`, …).
    pub format: u32,
    /// The data's type (`GL_UNSIGNED_BYTE`, `GL_FLOAT`, `GL_INT`, `GL_UNSIGNED_INT`).
    pub ty: u32,
    /// Width, height and depth (a 1D array's layers are its height, a 2D array's its
    /// depth, a cube's 6 faces its depth).
    pub size: [u32; 3],
    /// Level 0, x fastest, then y, then z (a cube's faces +x, −x, +y, −y, +z, −z).
    pub data: &'a [u8],
    /// `glGenerateMipmap` after the upload.
    pub mipmapped: bool,
    /// `GL_TEXTURE_BASE_LEVEL` and `GL_TEXTURE_MAX_LEVEL` (texture state in GL 3.3).
    pub levels: [i32; 2],
}

/// Sampler-object state beyond filters and wraps.
#[derive(Clone, Copy, Debug)]
pub struct Gl33SamplerState {
    /// `GL_TEXTURE_BORDER_COLOR`.
    pub border_color: [f32; 4],
    /// `GL_TEXTURE_COMPARE_FUNC` with `GL_COMPARE_REF_TO_TEXTURE`, or none.
    pub compare: Option<u32>,
    /// `GL_TEXTURE_MIN_LOD`, `GL_TEXTURE_MAX_LOD`, `GL_TEXTURE_LOD_BIAS`.
    pub lod: [f32; 3],
}

/// Upload `image` into a new texture object, left unbound; its buffer object for a
/// buffer texture.
///
/// # Errors
/// The data's length does not match the size.
pub(crate) fn upload(
    gl: &glow::Context,
    image: &Gl33Image<'_>,
) -> Result<(glow::Texture, Option<glow::Buffer>), String> {
    let [w, h, d] = image.size.map(|v| v as i32);
    let texels = image.size.iter().map(|&v| v as usize).product::<usize>();
    if texels == 0 || !image.data.len().is_multiple_of(texels) {
        return Err(format!(
            "{} bytes for a {w}x{h}x{d} texture",
            image.data.len()
        ));
    }
    let (ifmt, fmt, ty) = (image.internal_format as i32, image.format, image.ty);
    // SAFETY: every upload reads exactly the texels of its size (the data length was
    // checked to be a whole number of texels of that many), unpack alignment 1; the
    // texture and buffer are created on the current context and returned to the frame,
    // which deletes them.
    unsafe {
        let object = gl
            .create_texture()
            .map_err(|e| format!("glGenTextures: {e}"))?;
        gl.active_texture(glow::TEXTURE0);
        gl.bind_texture(image.target, Some(object));
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        let mut buffer = None;
        match image.target {
            glow::TEXTURE_1D => gl.tex_image_1d(
                image.target,
                0,
                ifmt,
                w,
                0,
                fmt,
                ty,
                glow::PixelUnpackData::Slice(Some(image.data)),
            ),
            glow::TEXTURE_2D | glow::TEXTURE_RECTANGLE | glow::TEXTURE_1D_ARRAY => gl.tex_image_2d(
                image.target,
                0,
                ifmt,
                w,
                h,
                0,
                fmt,
                ty,
                glow::PixelUnpackData::Slice(Some(image.data)),
            ),
            glow::TEXTURE_3D | glow::TEXTURE_2D_ARRAY => gl.tex_image_3d(
                image.target,
                0,
                ifmt,
                w,
                h,
                d,
                0,
                fmt,
                ty,
                glow::PixelUnpackData::Slice(Some(image.data)),
            ),
            glow::TEXTURE_CUBE_MAP => {
                let face = image.data.len() / 6;
                for (k, bytes) in image.data.chunks_exact(face).enumerate() {
                    let target = glow::TEXTURE_CUBE_MAP_POSITIVE_X + k as u32;
                    gl.tex_image_2d(
                        target,
                        0,
                        ifmt,
                        w,
                        h,
                        0,
                        fmt,
                        ty,
                        glow::PixelUnpackData::Slice(Some(bytes)),
                    );
                }
            }
            glow::TEXTURE_BUFFER => {
                let b = gl
                    .create_buffer()
                    .map_err(|e| format!("glGenBuffers: {e}"))?;
                gl.bind_buffer(glow::TEXTURE_BUFFER, Some(b));
                gl.buffer_data_u8_slice(glow::TEXTURE_BUFFER, image.data, glow::STATIC_DRAW);
                gl.tex_buffer(glow::TEXTURE_BUFFER, image.internal_format, Some(b));
                gl.bind_buffer(glow::TEXTURE_BUFFER, None);
                buffer = Some(b);
            }
            other => {
                return Err(format!(
                    "texture target 0x{other:04X} is not a GL 3.3 target"
                ));
            }
        }
        if image.target != glow::TEXTURE_BUFFER {
            gl.tex_parameter_i32(image.target, glow::TEXTURE_BASE_LEVEL, image.levels[0]);
            gl.tex_parameter_i32(image.target, glow::TEXTURE_MAX_LEVEL, image.levels[1]);
            if image.mipmapped {
                gl.generate_mipmap(image.target);
            }
        }
        gl.bind_texture(image.target, None);
        Ok((object, buffer))
    }
}

/// Set `state` on `sampler`.
pub(crate) fn apply(gl: &glow::Context, sampler: glow::Sampler, state: &Gl33SamplerState) {
    // SAFETY: the sampler object is live on the current context; the parameters are
    // GL 3.3 sampler parameters with values of their documented types.
    unsafe {
        gl.sampler_parameter_f32_slice(sampler, glow::TEXTURE_BORDER_COLOR, &state.border_color);
        if let Some(func) = state.compare {
            gl.sampler_parameter_i32(
                sampler,
                glow::TEXTURE_COMPARE_MODE,
                glow::COMPARE_REF_TO_TEXTURE as i32,
            );
            gl.sampler_parameter_i32(sampler, glow::TEXTURE_COMPARE_FUNC, func as i32);
        }
        gl.sampler_parameter_f32(sampler, glow::TEXTURE_MIN_LOD, state.lod[0]);
        gl.sampler_parameter_f32(sampler, glow::TEXTURE_MAX_LOD, state.lod[1]);
        gl.sampler_parameter_f32(sampler, glow::TEXTURE_LOD_BIAS, state.lod[2]);
    }
}
