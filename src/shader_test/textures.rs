//! The textures shader_runner's `texture` command creates, as RGBA8 [`Texture`]s, and
//! the sampler state each starts with (piglit's `piglit_rgbw_texture` and
//! `piglit_checkerboard_texture`, restated in docs/conformance.md).

use super::commands::TextureImage;
use crate::texture::{Filter, Sampler, Texture, Wrap};
use csir_raster::to_unorm8;

/// The texture `image` describes, texel row 0 at the bottom (t = 0), with float
/// colours converted to UNORM8 as the framebuffer converts them.
///
/// * rgbw: the bottom-left quadrant (x < W/2, y < H/2) red, bottom-right green,
///   top-left blue, top-right white, all opaque.
/// * checkerboard: squares of ⌊W/2⌋ × ⌊H/2⌋ texels (at least 1); the square in
///   column `col` and row `row` of squares is the first colour when `col + row` is
///   even (so the bottom-left square), the second otherwise.
pub fn create(image: &TextureImage) -> Texture {
    let (width, height) = match *image {
        TextureImage::Rgbw { width, height } | TextureImage::Checkerboard { width, height, .. } => {
            (width, height)
        }
    };
    let texels = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| texel(image, x, y).map(to_unorm8))
        .collect();
    Texture::from_texels(width, height, texels)
        .expect("the command parser keeps both sides in 1..=MAX_TEXTURE_SIDE")
}

/// The colour of texel (x, y) (y = 0 at the bottom) of `image`.
fn texel(image: &TextureImage, x: u32, y: u32) -> [f32; 4] {
    match *image {
        TextureImage::Rgbw { width, height } => match (x < width / 2, y < height / 2) {
            (true, true) => [1.0, 0.0, 0.0, 1.0],
            (false, true) => [0.0, 1.0, 0.0, 1.0],
            (true, false) => [0.0, 0.0, 1.0, 1.0],
            (false, false) => [1.0, 1.0, 1.0, 1.0],
        },
        TextureImage::Checkerboard {
            width,
            height,
            black,
            white,
        } => {
            let (sw, sh) = ((width / 2).max(1), (height / 2).max(1));
            if (x / sw + y / sh).is_multiple_of(2) {
                black
            } else {
                white
            }
        }
    }
}

/// The sampler state a new texture has: nearest filtering and clamp-to-edge. (piglit
/// gives a checkerboard clamp-to-border with a red border, which csir-render's sampler
/// does not have: coordinates outside [0, 1] read the edge texel instead;
/// docs/conformance.md lists this difference.)
pub const INITIAL_SAMPLER: Sampler = Sampler::new(Filter::Nearest, Wrap::Clamp);

/// The texture of a unit no `texture` command filled: 1×1 opaque black, what OpenGL's
/// sampling of an incomplete texture returns (0, 0, 0, 1).
pub fn missing() -> Texture {
    Texture::from_texels(1, 1, vec![[0, 0, 0, 255]]).expect("1x1 with one texel")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgbw_quadrants() {
        let t = create(&TextureImage::Rgbw {
            width: 4,
            height: 2,
        });
        assert_eq!(t.texel(0, 0), [255, 0, 0, 255]);
        assert_eq!(t.texel(1, 0), [255, 0, 0, 255]);
        assert_eq!(t.texel(2, 0), [0, 255, 0, 255]);
        assert_eq!(t.texel(0, 1), [0, 0, 255, 255]);
        assert_eq!(t.texel(3, 1), [255, 255, 255, 255]);
    }

    #[test]
    fn checkerboard_squares() {
        let t = create(&TextureImage::Checkerboard {
            width: 8,
            height: 8,
            black: [0.0, 0.0, 0.0, 0.0],
            white: [0.0, 1.0, 0.5, 1.0],
        });
        assert_eq!(t.texel(0, 0), [0, 0, 0, 0]);
        assert_eq!(t.texel(3, 3), [0, 0, 0, 0]);
        assert_eq!(t.texel(4, 0), [0, 255, 128, 255]);
        assert_eq!(t.texel(0, 4), [0, 255, 128, 255]);
        assert_eq!(t.texel(7, 7), [0, 0, 0, 0]);
        assert_eq!(missing().texel(0, 0), [0, 0, 0, 255]);
    }
}
