//! The textures shader_runner's `texture` commands create, as GL 3.3 [`GlTexture`]s,
//! and the sampler state each starts with: piglit's `piglit_rgbw_texture`,
//! `piglit_checkerboard_texture`, `piglit_quads_texture`, `piglit_rgbw_texture_1d`,
//! `piglit_rgbw_texture_3d`, `piglit_array_texture`, `piglit_depth_texture`,
//! `piglit_miptree_texture` and `piglit_integer_texture` (tests/util/piglit-util-gl.c),
//! restated in docs/conformance.md "Textures".
//!
//! Colour images are `GL_RGBA` textures, which llvmpipe stores as RGBA8: float
//! colours are rounded to 8 bits as the framebuffer rounds them. Depth images are
//! `GL_DEPTH_COMPONENT`, kept as 32-bit floats.

use super::texture_commands::TextureImage;
use crate::texture::gl33::{CompareFunc, GlSampler, GlTexture, GlWrap, TexFormat};
use crate::texture::{Filter, MinFilter, Texture};
use csir::sampler_type::TexTarget;
use csir_raster::to_unorm8;

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const WHITE: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
/// piglit's colour wheel: red, green, blue, white (array layers, miptree levels).
const WHEEL: [[f32; 4]; 4] = [RED, GREEN, BLUE, WHITE];

/// The texture `image` describes, texel row 0 at the bottom (t = 0).
///
/// * rgbw: the bottom-left quadrant (x < ⌊W/2⌋, y < ⌊H/2⌋) red, bottom-right green,
///   top-left blue, top-right white, all opaque.
/// * checkerboard: squares of ⌊W/2⌋ × ⌊H/2⌋ texels (at least 1); the square in
///   column `col` and row `row` of squares is the first colour when `col + row` is
///   even (so the bottom-left square), the second otherwise.
/// * quads: tiles as [`TextureImage::Quads`] says.
/// * rgbw 1D: red, green, blue, white; rgbw 3D: 2×2×2, x fastest, red, green, blue,
///   white, yellow, magenta, cyan, black.
/// * rgbw arrays: layer `k` all `WHEEL[k mod 4]`.
/// * shadow: depth `x / (W − 1)` in column `x` (0 for W = 1), every row and layer.
/// * miptree: 8×8 red, 4×4 green, 2×2 blue, 1×1 white levels.
/// * integer: texel (x, y) is `(x, y, B, A)`.
pub fn create(image: &TextureImage) -> GlTexture {
    let target = image.target();
    let (size, format) = match *image {
        TextureImage::Rgbw { width, height }
        | TextureImage::Checkerboard { width, height, .. }
        | TextureImage::Quads { width, height, .. } => ([width, height, 1], TexFormat::Rgba8),
        TextureImage::Rgbw1d => ([4, 1, 1], TexFormat::Rgba8),
        TextureImage::Rgbw3d => ([2, 2, 2], TexFormat::Rgba8),
        TextureImage::Miptree => ([8, 8, 1], TexFormat::Rgba8),
        TextureImage::RgbwArray {
            target,
            width,
            height,
            layers,
        } => match target {
            TexTarget::D1Array => ([width, layers, 1], TexFormat::Rgba8),
            _ => ([width, height, layers], TexFormat::Rgba8),
        },
        TextureImage::Shadow {
            width,
            height,
            layers,
            ..
        } => ([width, height, layers], TexFormat::Depth32f),
        TextureImage::Integer {
            width,
            height,
            signed,
            ..
        } => {
            let format = if signed {
                TexFormat::Rgba32i
            } else {
                TexFormat::Rgba32ui
            };
            ([width, height, 1], format)
        }
        TextureImage::Undefined { size, format, .. } => (size, format),
    };
    let [w, h, d] = size;
    let mut values = Vec::with_capacity(w as usize * h as usize * d as usize);
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                values.push(value(image, [x, y, z], size));
            }
        }
    }
    let texture = GlTexture::from_values(target, format, size, &values)
        .expect("the command parser keeps every side in 1..=MAX_TEXTURE_SIDE");
    match image {
        TextureImage::Miptree => {
            let levels = (1..4)
                .map(|k| {
                    let side = 8usize >> k;
                    vec![format.texel(unorm(WHEEL[k])); side * side]
                })
                .collect();
            texture
                .with_levels(levels)
                .expect("8x8, 4x4, 2x2, 1x1 is a 2D mip chain")
        }
        TextureImage::Undefined { levels, .. } if *levels > 1 && target.has_mipmaps() => {
            // levels 1 .. LEVELS − 1, each of zeros; more than the chain down to 1×1
            // is an error in GL (glTexStorage), and keeps level 0 alone here
            let zero = format.texel([0.0; 4]);
            let chain = (1..*levels)
                .map(|k| vec![zero; level_texels(target, size, k)])
                .collect();
            texture.clone().with_levels(chain).unwrap_or(texture)
        }
        _ => texture,
    }
}

/// Texels of level `k` of a `target` texture whose level 0 is `[w, h, d]`: each side
/// GL 3.3 §3.8.14 filters halved (at least 1); array layers and cube faces stay.
fn level_texels(target: TexTarget, [w, h, d]: [u32; 3], k: u32) -> usize {
    let half = |s: u32| (s >> k).max(1) as usize;
    match target {
        TexTarget::D1Array => half(w) * h as usize,
        TexTarget::D2Array | TexTarget::Cube => half(w) * half(h) * d as usize,
        TexTarget::D3 => half(w) * half(h) * half(d),
        _ => half(w) * half(h),
    }
}

/// A float colour as the 0..=255 values an RGBA8 texture takes.
fn unorm(c: [f32; 4]) -> [f64; 4] {
    c.map(|v| f64::from(to_unorm8(v)))
}

/// The value (RGBA8 0..=255, a depth, or integers) of texel `(x, y, z)` of `image`,
/// whose level 0 is `size`.
fn value(image: &TextureImage, [x, y, z]: [u32; 3], [w, h, _]: [u32; 3]) -> [f64; 4] {
    match *image {
        TextureImage::Undefined { .. } => [0.0; 4],
        TextureImage::Rgbw { .. } => unorm(match (x < w / 2, y < h / 2) {
            (true, true) => RED,
            (false, true) => GREEN,
            (true, false) => BLUE,
            (false, false) => WHITE,
        }),
        TextureImage::Checkerboard { black, white, .. } => {
            let (sw, sh) = ((w / 2).max(1), (h / 2).max(1));
            unorm(if (x / sw + y / sh).is_multiple_of(2) {
                black
            } else {
                white
            })
        }
        TextureImage::Quads { tile, colors, .. } => {
            let col = (x / tile[0].max(1)) % 2;
            let row = (y / tile[1].max(1)) % 2;
            unorm(colors[(row * 2 + col) as usize])
        }
        TextureImage::Rgbw1d => unorm(WHEEL[x as usize]),
        TextureImage::Rgbw3d => unorm(
            [
                RED,
                GREEN,
                BLUE,
                WHITE,
                [1.0, 1.0, 0.0, 1.0],
                [1.0, 0.0, 1.0, 1.0],
                [0.0, 1.0, 1.0, 1.0],
                [0.0, 0.0, 0.0, 1.0],
            ][(z * 4 + y * 2 + x) as usize],
        ),
        TextureImage::RgbwArray { target, .. } => {
            let layer = if target == TexTarget::D1Array { y } else { z };
            unorm(WHEEL[layer as usize % 4])
        }
        TextureImage::Shadow { .. } => {
            let d = if w > 1 {
                f64::from(x as f32 / (w - 1) as f32)
            } else {
                0.0
            };
            [d, 0.0, 0.0, 1.0]
        }
        TextureImage::Miptree => unorm(RED),
        TextureImage::Integer { blue_alpha, .. } => [
            f64::from(x),
            f64::from(y),
            f64::from(blue_alpha[0]),
            f64::from(blue_alpha[1]),
        ],
    }
}

/// The sampler state the piglit function that makes `image` leaves its texture with:
/// nearest filtering and clamp-to-edge wraps, but
/// * checkerboard and quads: clamp-to-border with a red border `(1, 0, 0, 1)`;
/// * miptree: `nearest_mipmap_nearest` minification;
/// * shadow: the comparison `GL_GREATER` (`GL_COMPARE_REF_TO_TEXTURE`).
///
/// Every other parameter is GL's default (λ clamps ±1000, levels 0..=1000, bias 0).
pub fn initial_sampler(image: &TextureImage) -> GlSampler {
    let mut s = GlSampler::from_sampler(crate::texture::Sampler::new(
        Filter::Nearest,
        crate::texture::Wrap::Clamp,
    ));
    match image {
        TextureImage::Checkerboard { .. } | TextureImage::Quads { .. } => {
            s.wrap = [
                GlWrap::ClampToBorder,
                GlWrap::ClampToBorder,
                GlWrap::ClampToEdge,
            ];
            s.border_color = RED;
        }
        TextureImage::Miptree => s.min_filter = MinFilter::NearestMipmapNearest,
        TextureImage::Shadow { .. } => s.compare = Some(CompareFunc::Greater),
        _ => {}
    }
    s
}

/// The texture of a unit no `texture` command filled: 1×1 opaque black, what OpenGL's
/// sampling of an incomplete texture returns (0, 0, 0, 1).
pub fn missing() -> Texture {
    Texture::from_texels(1, 1, vec![[0, 0, 0, 255]]).expect("1x1 with one texel")
}

/// `texture` as csir-render's RGBA8 2D [`Texture`] when it is one (a one-level 2D
/// RGBA8 texture), for the sampler path every scene without GL 3.3 keys takes.
pub fn as_rgba8(texture: &GlTexture) -> Option<Texture> {
    let [w, h, _] = texture.size();
    if texture.target() != TexTarget::D2
        || texture.format() != TexFormat::Rgba8
        || texture.levels().len() != 1
    {
        return None;
    }
    let texels = texture.levels()[0]
        .texels
        .iter()
        .map(|t| t.map(|v| (v * 255.0).round() as u8))
        .collect();
    Texture::from_texels(w, h, texels).ok()
}

#[cfg(test)]
mod tests {

    #[test]
    fn undefined_textures_are_zero_with_their_levels() {
        let t = create(&TextureImage::Undefined {
            target: TexTarget::D2Array,
            size: [8, 4, 3],
            levels: 3,
            format: TexFormat::Rgba8,
        });
        assert_eq!(t.target(), TexTarget::D2Array);
        // levels 8×4×3, 4×2×3, 2×1×3 (layers are not halved)
        let levels = t.levels();
        assert_eq!(levels.len(), 3);
        let l2 = &levels[2];
        assert_eq!([l2.width, l2.height, l2.depth], [2, 1, 3]);
        assert_eq!(levels[0].texels.len(), 8 * 4 * 3);
        assert!(
            levels
                .iter()
                .all(|l| l.texels.iter().all(|c| *c == [0.0; 4]))
        );
        // more levels than the chain has: level 0 alone, as GL refuses the storage
        let t = create(&TextureImage::Undefined {
            target: TexTarget::D2,
            size: [2, 2, 1],
            levels: 5,
            format: TexFormat::Rgba8,
        });
        assert_eq!(t.levels().len(), 1);
    }

    use super::*;

    fn texel(t: &GlTexture, level: usize, [x, y, z]: [u32; 3]) -> [f32; 4] {
        let l = &t.levels()[level];
        l.texels[((z * l.height + y) * l.width + x) as usize]
    }

    #[test]
    fn rgbw_quadrants() {
        let t = create(&TextureImage::Rgbw {
            width: 4,
            height: 2,
        });
        assert_eq!(t.target(), TexTarget::D2);
        assert_eq!(texel(&t, 0, [0, 0, 0]), RED);
        assert_eq!(texel(&t, 0, [1, 0, 0]), RED);
        assert_eq!(texel(&t, 0, [2, 0, 0]), GREEN);
        assert_eq!(texel(&t, 0, [0, 1, 0]), BLUE);
        assert_eq!(texel(&t, 0, [3, 1, 0]), WHITE);
        let legacy = as_rgba8(&t).unwrap();
        assert_eq!(legacy.texel(2, 0), [0, 255, 0, 255]);
        assert_eq!(legacy.texel(3, 1), [255; 4]);
    }

    #[test]
    fn checkerboard_squares_and_border() {
        let image = TextureImage::Checkerboard {
            width: 8,
            height: 8,
            black: [0.0, 0.0, 0.0, 0.0],
            white: [0.0, 1.0, 0.5, 1.0],
        };
        let t = as_rgba8(&create(&image)).unwrap();
        assert_eq!(t.texel(0, 0), [0, 0, 0, 0]);
        assert_eq!(t.texel(3, 3), [0, 0, 0, 0]);
        assert_eq!(t.texel(4, 0), [0, 255, 128, 255]);
        assert_eq!(t.texel(0, 4), [0, 255, 128, 255]);
        assert_eq!(t.texel(7, 7), [0, 0, 0, 0]);
        assert_eq!(missing().texel(0, 0), [0, 0, 0, 255]);
        let s = initial_sampler(&image);
        assert_eq!(s.wrap[..2], [GlWrap::ClampToBorder; 2]);
        assert_eq!(s.border_color, RED);
    }

    #[test]
    fn quads_tiles() {
        // 4×4 in 1×2 tiles: columns alternate every texel, rows every two texels.
        let c = [RED, GREEN, BLUE, WHITE];
        let t = create(&TextureImage::Quads {
            width: 4,
            height: 4,
            tile: [1, 2],
            colors: c,
        });
        assert_eq!(texel(&t, 0, [0, 0, 0]), RED);
        assert_eq!(texel(&t, 0, [1, 1, 0]), GREEN);
        assert_eq!(texel(&t, 0, [2, 2, 0]), BLUE);
        assert_eq!(texel(&t, 0, [3, 3, 0]), WHITE);
    }

    #[test]
    fn rgbw_1d_3d_and_arrays() {
        let t = create(&TextureImage::Rgbw1d);
        assert_eq!((t.target(), t.size()), (TexTarget::D1, [4, 1, 1]));
        assert_eq!(texel(&t, 0, [2, 0, 0]), BLUE);
        let t = create(&TextureImage::Rgbw3d);
        assert_eq!((t.target(), t.size()), (TexTarget::D3, [2, 2, 2]));
        assert_eq!(texel(&t, 0, [1, 0, 0]), GREEN);
        assert_eq!(texel(&t, 0, [0, 1, 0]), BLUE);
        assert_eq!(texel(&t, 0, [0, 0, 1]), [1.0, 1.0, 0.0, 1.0]);
        assert_eq!(texel(&t, 0, [1, 0, 1]), [1.0, 0.0, 1.0, 1.0]);
        assert_eq!(texel(&t, 0, [0, 1, 1]), [0.0, 1.0, 1.0, 1.0]);
        assert_eq!(texel(&t, 0, [1, 1, 1]), [0.0, 0.0, 0.0, 1.0]);
        let t = create(&TextureImage::RgbwArray {
            target: TexTarget::D2Array,
            width: 2,
            height: 2,
            layers: 5,
        });
        assert_eq!(t.size(), [2, 2, 5]);
        assert_eq!(texel(&t, 0, [1, 1, 1]), GREEN);
        assert_eq!(texel(&t, 0, [0, 0, 4]), RED);
        let t = create(&TextureImage::RgbwArray {
            target: TexTarget::D1Array,
            width: 3,
            height: 1,
            layers: 4,
        });
        assert_eq!((t.target(), t.size()), (TexTarget::D1Array, [3, 4, 1]));
        assert_eq!(texel(&t, 0, [2, 3, 0]), WHITE);
    }

    #[test]
    fn shadow_gradient_and_comparison() {
        let image = TextureImage::Shadow {
            target: TexTarget::D2,
            width: 5,
            height: 2,
            layers: 1,
        };
        let t = create(&image);
        assert_eq!(t.format(), TexFormat::Depth32f);
        assert_eq!(texel(&t, 0, [0, 1, 0])[0], 0.0);
        assert_eq!(texel(&t, 0, [1, 0, 0])[0], 0.25);
        assert_eq!(texel(&t, 0, [4, 1, 0])[0], 1.0);
        assert_eq!(initial_sampler(&image).compare, Some(CompareFunc::Greater));
        let t = create(&TextureImage::Shadow {
            target: TexTarget::D1,
            width: 3,
            height: 1,
            layers: 1,
        });
        assert_eq!((t.target(), t.size()), (TexTarget::D1, [3, 1, 1]));
        assert_eq!(texel(&t, 0, [1, 0, 0])[0], 0.5);
    }

    #[test]
    fn miptree_levels() {
        let t = create(&TextureImage::Miptree);
        assert_eq!(t.levels().len(), 4);
        assert_eq!(t.levels()[2].width, 2);
        assert_eq!(texel(&t, 0, [7, 7, 0]), RED);
        assert_eq!(texel(&t, 1, [3, 0, 0]), GREEN);
        assert_eq!(texel(&t, 2, [1, 1, 0]), BLUE);
        assert_eq!(texel(&t, 3, [0, 0, 0]), WHITE);
        assert_eq!(
            initial_sampler(&TextureImage::Miptree).min_filter,
            MinFilter::NearestMipmapNearest
        );
        assert!(as_rgba8(&t).is_none());
    }

    #[test]
    fn integer_texels_hold_their_coordinates() {
        let t = create(&TextureImage::Integer {
            width: 3,
            height: 2,
            blue_alpha: [7, -2],
            signed: true,
        });
        assert_eq!(t.format(), TexFormat::Rgba32i);
        let bits = texel(&t, 0, [2, 1, 0]).map(|v| v.to_bits() as i32);
        assert_eq!(bits, [2, 1, 7, -2]);
    }
}
