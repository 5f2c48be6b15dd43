//! GL 3.3 textures: every target ([`TexTarget`]: 1D, 2D, 3D, cube, 1D and 2D arrays,
//! rectangle, buffer) in every scene format ([`TexFormat`]), with its mip chain, and
//! their lookups with the full sampler state ([`GlSampler`]: three wraps, border
//! colour, depth comparison, λ clamps and bias, base and max level). The TEX
//! instruction family reaches them through [`Samplers::lookup`](csir::exec::Samplers),
//! and `sampler2D`'s own instructions too when the scene uses a key the RGBA8
//! [`Texture`](super::Texture) does not have.
//!
//! Texels are kept as f32 RGBA (integers as their 32-bit patterns) and filtered in f32,
//! as llvmpipe's SoA sampler does; the rules it follows where GL leaves room (cube face
//! selection, array layer rounding, comparison before filtering, border colour per
//! format) are docs/csir.md "Texture targets".

mod depth_mode;
mod filter;
mod format;
mod seamless;
mod state;

pub use depth_mode::DepthMode;
pub use filter::cube_face;
pub use format::{FormatClass, TexFormat, half_round, srgb_to_linear};
pub use state::{CompareFunc, GlSampler, GlWrap};

use csir::sampler_type::TexTarget;

/// One mip level: `width × height × depth` texels, x fastest, then y, then z. `depth`
/// is the layer count of a 2D array and 6 (the faces +x, −x, +y, −y, +z, −z) for a
/// cube map; a 1D array keeps its layers in `height`.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Width in texels.
    pub width: u32,
    /// Height in texels (layers of a 1D array; 1 for 1D and buffer textures).
    pub height: u32,
    /// Depth, layers or faces (1 for the targets without).
    pub depth: u32,
    /// The texels, RGBA as sampled ([`TexFormat::texel`]).
    pub texels: Vec<[f32; 4]>,
}

impl Level {
    /// The texel at `(x, y, z)`, all in range.
    #[inline]
    fn at(&self, x: u32, y: u32, z: u32) -> [f32; 4] {
        let i = (z as usize * self.height as usize + y as usize) * self.width as usize + x as usize;
        self.texels.get(i).copied().unwrap_or([0.0; 4])
    }
}

/// A GL 3.3 texture: target, internal format and levels (level 0 first).
#[derive(Clone, Debug, PartialEq)]
pub struct GlTexture {
    target: TexTarget,
    format: TexFormat,
    levels: Vec<Level>,
    /// Level 0 as a driver takes it (`glTexImage*`'s data for [`TexFormat::upload`]'s
    /// format and type); empty for a texture made from sampled texels
    /// ([`GlTexture::new`]).
    upload: Vec<u8>,
    /// `GL_DEPTH_TEXTURE_MODE` of a depth texture ([`GlTexture::with_depth_mode`]);
    /// `None` returns a depth as `(d, 0, 0, 1)` and a comparison as `(r, r, r, 1)`.
    depth_mode: Option<DepthMode>,
    /// The depth is stored in fixed point (`GL_DEPTH_COMPONENT` as a driver keeps
    /// it, [`GlTexture::with_fixed_point_depth`]): the comparison's reference is
    /// clamped to [0, 1].
    fixed_point_depth: bool,
}

/// Why texels do not form a [`GlTexture`]: a sentence naming the rule.
pub type GlTextureError = String;

impl GlTexture {
    /// A one-level texture of `target` and `format`, `width × height × depth`
    /// (`depth`: layers of a 2D array, 6 for a cube; a 1D array's layers are its
    /// `height`), from its texels in level order (x fastest, then y, then z; a cube's
    /// faces in the order +x, −x, +y, −y, +z, −z).
    ///
    /// # Errors
    /// A side of 0, a cube that is not square with 6 faces, a 1D or buffer texture
    /// with a height or depth, a 2D, rectangle or 1D-array texture with a depth, or
    /// a texel count other than the size.
    pub fn new(
        target: TexTarget,
        format: TexFormat,
        [width, height, depth]: [u32; 3],
        texels: Vec<[f32; 4]>,
    ) -> Result<GlTexture, GlTextureError> {
        if width == 0 || height == 0 || depth == 0 {
            return Err(format!(
                "a texture must be at least 1x1x1 texels, got {width}x{height}x{depth}"
            ));
        }
        let ok = match target {
            TexTarget::D1 | TexTarget::Buffer => height == 1 && depth == 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => depth == 1,
            TexTarget::Cube => width == height && depth == 6,
            TexTarget::D3 | TexTarget::D2Array => true,
        };
        if !ok {
            let rule = match target {
                TexTarget::Cube => "a cube map has 6 square faces",
                TexTarget::D1 | TexTarget::Buffer => "it has a width only",
                _ => "it has no depth",
            };
            return Err(format!(
                "a {} texture of {width}x{height}x{depth} texels: {rule}",
                target.name()
            ));
        }
        let count = width as u64 * height as u64 * depth as u64;
        if texels.len() as u64 != count {
            return Err(format!(
                "a {width}x{height}x{depth} texture needs {count} texels, got {}",
                texels.len()
            ));
        }
        Ok(GlTexture {
            target,
            format,
            levels: vec![Level {
                width,
                height,
                depth,
                texels,
            }],
            upload: Vec::new(),
            depth_mode: None,
            fixed_point_depth: false,
        })
    }

    /// [`GlTexture::new`] from the values a scene gives per texel (unorm8 formats
    /// 0..=255, float formats as floats, integers as integers; components past the
    /// format's unread), keeping level 0's bytes for a driver ([`upload`](Self::upload)).
    ///
    /// # Errors
    /// As [`GlTexture::new`].
    pub fn from_values(
        target: TexTarget,
        format: TexFormat,
        size: [u32; 3],
        values: &[[f64; 4]],
    ) -> Result<GlTexture, GlTextureError> {
        let texels = values.iter().map(|&c| format.texel(c)).collect();
        let mut texture = GlTexture::new(target, format, size, texels)?;
        texture.upload = values.iter().flat_map(|c| format.bytes(*c)).collect();
        Ok(texture)
    }

    /// This texture with `GL_DEPTH_TEXTURE_MODE` `mode` (compatibility profile): a
    /// depth format's lookups return the depth, or the comparison result, placed as
    /// [`DepthMode::expand`] says. Other formats ignore it.
    pub fn with_depth_mode(mut self, mode: DepthMode) -> GlTexture {
        self.depth_mode = Some(mode);
        self
    }

    /// This depth texture as a fixed-point one (`GL_DEPTH_COMPONENT`, which
    /// llvmpipe stores as 24- or 32-bit unsigned normalized values): the reference
    /// of a depth comparison is clamped to [0, 1] before the test (GL 3.3 §3.8.16:
    /// "if the texture's internal format indicates a fixed-point depth texture,
    /// then D_t and D_ref are clamped to the range [0, 1]"). The texels keep their
    /// values (they are in [0, 1] already).
    pub fn with_fixed_point_depth(mut self) -> GlTexture {
        self.fixed_point_depth = true;
        self
    }

    /// Whether the depth is fixed point ([`GlTexture::with_fixed_point_depth`]).
    pub fn is_fixed_point_depth(&self) -> bool {
        self.fixed_point_depth
    }

    /// The depth texture mode, if one was set.
    pub fn depth_mode(&self) -> Option<DepthMode> {
        self.depth_mode
    }

    /// This texture with its mip levels 1, 2, … given explicitly (as
    /// `glTexImage*(level, …)` gives them), each level's texels in level order.
    /// Level `k`'s size is level `k − 1`'s with each filtered side halved (at least
    /// 1), as GL 3.3 §3.8.14's mipmap completeness asks; levels already present past
    /// level 0 are replaced.
    ///
    /// # Errors
    /// A texel count other than the level's size, more levels than the chain down to
    /// 1×1 has, or a target without mip levels (rectangle, buffer).
    pub fn with_levels(mut self, levels: Vec<Vec<[f32; 4]>>) -> Result<GlTexture, GlTextureError> {
        if !levels.is_empty() && !self.target.has_mipmaps() {
            return Err(format!("a {} texture has one level", self.target.name()));
        }
        self.levels.truncate(1);
        for (k, texels) in levels.into_iter().enumerate() {
            let above = self.levels.last().expect("level 0");
            let size = [above.width, above.height, above.depth];
            let [width, height, depth] = self.next_size(size);
            if [width, height, depth] == size {
                return Err(format!(
                    "level {} is past the last level of a {}x{}x{} texture",
                    k + 1,
                    size[0],
                    size[1],
                    size[2]
                ));
            }
            let count = width as usize * height as usize * depth as usize;
            if texels.len() != count {
                return Err(format!(
                    "level {} of {width}x{height}x{depth} texels needs {count} texels, got {}",
                    k + 1,
                    texels.len()
                ));
            }
            self.levels.push(Level {
                width,
                height,
                depth,
                texels,
            });
        }
        Ok(self)
    }

    /// Level 0's bytes for `glTexImage*` in the format and type of
    /// [`TexFormat::upload`] (x fastest, then y, then layers or faces), empty for a
    /// texture made by [`GlTexture::new`].
    pub fn upload(&self) -> &[u8] {
        &self.upload
    }

    /// The target.
    pub fn target(&self) -> TexTarget {
        self.target
    }

    /// The internal format.
    pub fn format(&self) -> TexFormat {
        self.format
    }

    /// The levels, level 0 first.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// Level 0's `[width, height, depth]`.
    pub fn size(&self) -> [u32; 3] {
        let l = &self.levels[0];
        [l.width, l.height, l.depth]
    }

    /// Bytes its texels take in memory (for the scene's memory budget): 16 per texel
    /// of every level.
    pub fn memory_bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.texels.len() as u64 * 16).sum()
    }

    /// The size of the level below one of `size`: each filtered side halved (at
    /// least 1); layers and faces stay.
    fn next_size(&self, [w, h, d]: [u32; 3]) -> [u32; 3] {
        let half = |v: u32| (v / 2).max(1);
        match self.target {
            TexTarget::D3 => [half(w), half(h), half(d)],
            TexTarget::D1Array => [half(w), h, d],
            _ => [half(w), half(h), d],
        }
    }

    /// This texture with its full mip chain down to 1×1(×1), as `glGenerateMipmap`
    /// makes it (GL 3.3 §3.8.9): each texel of a level the linear, clamp-to-edge
    /// lookup of the level above at its centre (per layer or face), rounded to the
    /// format (8 bits for the normalized formats, halves for `rgba16f`). Integer
    /// formats and rectangle and buffer textures keep one level (GL has no chain
    /// for them).
    pub fn with_mipmaps(mut self) -> GlTexture {
        if self.levels.len() > 1
            || !self.target.has_mipmaps()
            || matches!(self.format.class(), FormatClass::Int | FormatClass::Uint)
        {
            return self;
        }
        loop {
            let above = self.levels.last().expect("level 0");
            let size = [above.width, above.height, above.depth];
            let next = self.next_size(size);
            if next == size {
                break;
            }
            let level = filter::downsample(self.target, self.format, above, next);
            self.levels.push(level);
        }
        self
    }
}

#[cfg(test)]
mod batch_tests;
#[cfg(test)]
mod tests;
