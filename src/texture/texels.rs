//! [`Texture`]: an RGBA8 texture of one level with texel row 0 at the bottom (t = 0), as
//! OpenGL stores a PNG after a vertical flip; built from texels, an image or a PNG file.

use std::path::Path;

use super::TextureError;
use crate::image_io::{ImageIoError, Rgba8Image, read_png};

/// An RGBA8 texture, one level, texel row 0 at the **bottom**.
///
/// Texel (i, j) covers s ∈ [i/width, (i+1)/width) and t ∈ [j/height, (j+1)/height), so
/// row j = 0 sits at t = 0. Loading a PNG flips its rows: the PNG's last (bottom) row
/// becomes texel row 0 and its first (top) row the last texel row, next to t = 1 (scene
/// format `textures`; what `glTexImage2D` after a vertical flip gives). Channels are
/// UNORM8 (0 = 0.0, 255 = 1.0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    width: u32,
    height: u32,
    /// `width · height` texels, row-major, row 0 = bottom.
    texels: Vec<[u8; 4]>,
    /// Levels 1, 2, ... of the mip chain ([`Texture::with_mipmaps`]); empty for a
    /// texture of one level (and in every level of a chain).
    pub(super) mips: Vec<Texture>,
}

impl Texture {
    /// Builds a texture from texels in texture order (row-major, row 0 = bottom, t = 0).
    ///
    /// # Errors
    /// [`TextureError::Empty`] for a side of 0, [`TextureError::SizeMismatch`] when
    /// `texels.len() != width · height`.
    pub fn from_texels(
        width: u32,
        height: u32,
        texels: Vec<[u8; 4]>,
    ) -> Result<Self, TextureError> {
        if width == 0 || height == 0 {
            return Err(TextureError::Empty { width, height });
        }
        if (width as u64) * (height as u64) != texels.len() as u64 {
            return Err(TextureError::SizeMismatch {
                width,
                height,
                len: texels.len(),
            });
        }
        Ok(Self {
            width,
            height,
            texels,
            mips: Vec::new(),
        })
    }

    /// Builds a texture from an image in PNG order (top row first), flipping the rows so
    /// the image's bottom row becomes texel row 0.
    pub fn from_image(image: &Rgba8Image) -> Self {
        let width = image.width();
        let height = image.height();
        let row_bytes = width as usize * 4;
        let mut texels = Vec::with_capacity(width as usize * height as usize);
        for row in image.pixels().chunks_exact(row_bytes).rev() {
            texels.extend(row.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]));
        }
        Self {
            width,
            height,
            texels,
            mips: Vec::new(),
        }
    }

    /// Loads a PNG file (any colour type, converted to RGBA8) and flips it (see
    /// [`Texture::from_image`]).
    ///
    /// # Errors
    /// [`ImageIoError`] when the file cannot be read or is not a readable PNG.
    pub fn load_png(path: &Path) -> Result<Self, ImageIoError> {
        Ok(Self::from_image(&read_png(path)?))
    }

    /// Width in texels (≥ 1).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels (≥ 1).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// All texels, row-major, row 0 = bottom (t = 0).
    pub fn texels(&self) -> &[[u8; 4]] {
        &self.texels
    }

    /// The texel in column `i` (0 = left, s = 0) and row `j` (0 = bottom, t = 0).
    ///
    /// Coordinates are clamped to the texture, so this never fails.
    pub fn texel(&self, i: u32, j: u32) -> [u8; 4] {
        let i = i.min(self.width - 1) as usize;
        let j = j.min(self.height - 1) as usize;
        self.texels[j * self.width as usize + i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_image_puts_the_bottom_png_row_at_texel_row_0() {
        // 2x2 PNG order: top row red, green; bottom row blue, white
        let px = vec![
            255, 0, 0, 255, 0, 255, 0, 255, //
            0, 0, 255, 255, 255, 255, 255, 255,
        ];
        let tex = Texture::from_image(&Rgba8Image::new(2, 2, px).unwrap());
        assert_eq!(tex.texel(0, 0), [0, 0, 255, 255]);
        assert_eq!(tex.texel(1, 0), [255, 255, 255, 255]);
        assert_eq!(tex.texel(0, 1), [255, 0, 0, 255]);
        assert_eq!(tex.texel(1, 1), [0, 255, 0, 255]);
        // out-of-range coordinates clamp
        assert_eq!(tex.texel(9, 9), [0, 255, 0, 255]);
    }

    #[test]
    fn from_texels_checks_the_size() {
        assert_eq!(
            Texture::from_texels(0, 1, vec![]),
            Err(TextureError::Empty {
                width: 0,
                height: 1
            })
        );
        let err = Texture::from_texels(2, 2, vec![[0; 4]; 3]).unwrap_err();
        assert_eq!(err.to_string(), "a 2x2 texture needs 4 texels, got 3");
        assert!(Texture::from_texels(2, 2, vec![[0; 4]; 4]).is_ok());
    }

    #[test]
    fn the_starter_checker_is_upright() {
        // textures/checker.png: red cell at the PNG's top-left, blue at its bottom-left
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images/textures/checker.png");
        let tex = Texture::load_png(&path).unwrap();
        assert_eq!((tex.width(), tex.height()), (64, 64));
        assert_eq!(tex.texel(0, 0), [30, 60, 230, 255]); // bottom-left: blue
        assert_eq!(tex.texel(0, 63), [230, 30, 30, 255]); // top-left: red
        assert_eq!(tex.texel(63, 63), [30, 200, 30, 255]); // top-right: green
    }
}
