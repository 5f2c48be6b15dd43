//! Mip chains and sampling at a level of detail (GL 3.0 §3.9.7–3.9.8, §3.9.10), as
//! llvmpipe does both:
//!
//! * **The chain** ([`Texture::with_mipmaps`]) is what `glGenerateMipmap` gives on
//!   llvmpipe: Mesa draws each level from the one above with a bilinear,
//!   clamp-to-edge lookup at the new level's texel centres. For even sides that is
//!   the 2×2 box filter, rounded as the 8-bit fixed-point bilinear filter rounds
//!   ([`Texture::sample`]: each row's pair, then the two rows, `a + ((128·(b − a) +
//!   128) >> 8)`); an odd side of `n` texels becomes `⌊n/2⌋` texels whose centres
//!   fall between other texels, with the weights of that position.
//! * **Sampling at λ** ([`Texture::sample_lod`]): λ ≤ 0 (and NaN) magnifies: level 0
//!   with the magnification filter. llvmpipe takes c = 0 for the switch-over point
//!   whatever the filters (GL 4.1 §3.9.12 allows it; GL 3.0's c = 0.5 for a `linear`
//!   magnification with a `nearest_mipmap_*` minification is not applied). λ > 0
//!   minifies with the minification filter: `*_mipmap_nearest` reads level
//!   `round(λ)` (to nearest, ties to even, as llvmpipe's `iround`), `*_mipmap_linear`
//!   reads levels `⌊λ⌋` and `⌊λ⌋ + 1` and blends them by `frac(λ)`, both clamped to
//!   the last level. The blend of the `clamp` and `repeat` wraps is 8-bit, with the
//!   weight `⌊frac(λ)·256⌋`; that of `mirror` is f32, as llvmpipe's two samplers do.

use super::sampler::lerp_unorm8;
use super::{Filter, Sampler, Texture, Wrap};

impl Texture {
    /// This texture with its full mip chain: levels 1..=q, each side
    /// `max(1, ⌊side/2⌋)` of the level above, down to 1×1 (GL 3.0 §3.9.10: `q =
    /// ⌊log2(max(width, height))⌋`), filtered as the module docs say. A texture that
    /// has its chain already is returned as it is.
    pub fn with_mipmaps(mut self) -> Texture {
        if !self.mips.is_empty() {
            return self;
        }
        let mut level = self.single_level();
        while level.width() > 1 || level.height() > 1 {
            level = level.half();
            self.mips.push(level.clone());
        }
        self
    }

    /// How many levels the texture has: 1 without a chain, `q + 1` with one.
    pub fn level_count(&self) -> u32 {
        1 + self.mips.len() as u32
    }

    /// Level `level` (0 is this texture), or the last level for a level past it.
    pub fn level(&self, level: u32) -> &Texture {
        match level.checked_sub(1) {
            None => self,
            Some(k) => self
                .mips
                .get(k as usize)
                .or(self.mips.last())
                .unwrap_or(self),
        }
    }

    /// Samples at (s, t) with texel offset `offset` (`[0, 0]` for none) at level of
    /// detail `lod` (λ after any bias), by the rules in the module docs: GLSL
    /// `textureLod`, `textureGrad` (with λ from
    /// [`csir::exec::lod_from_gradients`]) and a bias. Any `lod`, even NaN or
    /// infinite, is safe; `lod = 0` is [`sample_offset`](Self::sample_offset). A
    /// mipmapped sampler on a texture without its chain reads level 0 for every λ.
    pub fn sample_lod(
        &self,
        sampler: Sampler,
        s: f32,
        t: f32,
        lod: f32,
        offset: [i32; 2],
    ) -> [f32; 4] {
        let wrap = sampler.wrap;
        if lod.is_nan() || lod <= 0.0 {
            return self.filter(sampler.mag_filter, wrap, s, t, offset);
        }
        let filter = sampler.min_filter.texel_filter();
        match sampler.min_filter.mip_filter() {
            None => self.filter(filter, wrap, s, t, offset),
            Some(Filter::Nearest) => {
                // λ > 0, so the rounded level is a non-negative number (saturating)
                let level = lod.round_ties_even() as u32;
                self.level(level).filter(filter, wrap, s, t, offset)
            }
            Some(Filter::Linear) => {
                let whole = lod.floor();
                let (level, fraction) = (whole as u32, lod - whole);
                let first = self.level(level).filter(filter, wrap, s, t, offset);
                if level + 1 >= self.level_count() {
                    return first;
                }
                let weight = (fraction * 256.0) as i32;
                if weight <= 0 {
                    return first;
                }
                let second = self.level(level + 1).filter(filter, wrap, s, t, offset);
                blend_levels(wrap, fraction, weight, first, second)
            }
        }
    }

    /// Level 0 alone, without the chain.
    fn single_level(&self) -> Texture {
        Texture::from_texels(self.width(), self.height(), self.texels().to_vec())
            .expect("a texture's own texels fit its size")
    }

    /// The next level down: sides halved (at least 1), each texel a bilinear
    /// clamp-to-edge lookup of this level at its centre, as `glGenerateMipmap` on
    /// llvmpipe draws it.
    fn half(&self) -> Texture {
        let (width, height) = ((self.width() / 2).max(1), (self.height() / 2).max(1));
        let sampler = Sampler::new(Filter::Linear, Wrap::Clamp);
        let mut texels = Vec::with_capacity(width as usize * height as usize);
        for j in 0..height {
            let t = (j as f32 + 0.5) / height as f32;
            for i in 0..width {
                let s = (i as f32 + 0.5) / width as f32;
                texels.push(self.sample(sampler, s, t).map(to_unorm8));
            }
        }
        Texture::from_texels(width, height, texels).expect("width·height texels")
    }
}

/// The blend of two levels' colours: 8-bit with `weight` in 1/256 for `clamp` and
/// `repeat` (llvmpipe's fixed-point sampler), f32 with `fraction` for `mirror`.
fn blend_levels(
    wrap: Wrap,
    fraction: f32,
    weight: i32,
    first: [f32; 4],
    second: [f32; 4],
) -> [f32; 4] {
    match wrap {
        Wrap::Mirror => std::array::from_fn(|c| first[c] + fraction * (second[c] - first[c])),
        Wrap::Clamp | Wrap::Repeat => std::array::from_fn(|c| {
            let blended = lerp_unorm8(weight, to_unorm8(first[c]), to_unorm8(second[c]));
            f32::from(blended) / 255.0
        }),
    }
}

/// A channel that is a multiple of 1/255 back to its byte.
fn to_unorm8(c: f32) -> u8 {
    (c * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::super::MinFilter;
    use super::*;

    /// A width×height texture whose red channel is `f(i, j)`.
    fn texture(width: u32, height: u32, f: impl Fn(u32, u32) -> u8) -> Texture {
        let texels = (0..height)
            .flat_map(|j| (0..width).map(move |i| (i, j)))
            .map(|(i, j)| [f(i, j), 0, 0, 255])
            .collect();
        Texture::from_texels(width, height, texels).unwrap()
    }

    fn sizes(tex: &Texture) -> Vec<(u32, u32)> {
        (0..tex.level_count())
            .map(|k| (tex.level(k).width(), tex.level(k).height()))
            .collect()
    }

    #[test]
    fn chains_halve_each_side_down_to_one_texel() {
        let square = texture(8, 8, |_, _| 0).with_mipmaps();
        assert_eq!(sizes(&square), [(8, 8), (4, 4), (2, 2), (1, 1)]);
        // non-power-of-two: max(1, ⌊side/2⌋) per side
        let npot = texture(5, 3, |_, _| 0).with_mipmaps();
        assert_eq!(sizes(&npot), [(5, 3), (2, 1), (1, 1)]);
        let wide = texture(64, 4, |_, _| 0).with_mipmaps();
        assert_eq!(
            sizes(&wide),
            [(64, 4), (32, 2), (16, 1), (8, 1), (4, 1), (2, 1), (1, 1)]
        );
        let one = texture(1, 1, |_, _| 0).with_mipmaps();
        assert_eq!(one.level_count(), 1);
        // past the last level reads the last level
        assert_eq!(square.level(9).width(), 1);
        assert_eq!(texture(4, 4, |_, _| 0).level_count(), 1);
    }

    #[test]
    fn even_levels_are_the_fixed_point_box_filter() {
        // red: bottom row 0, 100; top row 200, 41
        let tex = texture(2, 2, |i, j| [[0, 100], [200, 41]][j as usize][i as usize]);
        let tex = tex.with_mipmaps();
        // rows 0→100: 0 + (128·100 + 128) >> 8 = 50; 200→41: 200 − 79 = 121 (GL:
        // 120.5); then 50→121: 50 + (128·71 + 128) >> 8 = 86 (the exact mean 85.25)
        assert_eq!(tex.level(1).texel(0, 0), [86, 0, 0, 255]);
        // a 4×2 checker of 0 and 255 halves to 2×1 of 128s
        let checker = texture(4, 2, |i, j| if (i + j) % 2 == 0 { 0 } else { 255 });
        let checker = checker.with_mipmaps();
        assert_eq!(checker.level(1).texels(), [[128, 0, 0, 255]; 2]);
    }

    #[test]
    fn odd_levels_take_the_bilinear_weights_at_the_new_centres() {
        // 5 texels → 2: centres at s = 1/4 and 3/4 are u = 0.75 and 3.25 texels
        // after the half-texel shift: 0.25·t0 + 0.75·t1 and 0.75·t3 + 0.25·t4 in 8.8
        let tex = texture(5, 1, |i, _| [0, 200, 0, 100, 0][i as usize]).with_mipmaps();
        // 0 + (192·200 + 128) >> 8 = 150; 100 + (64·(−100) + 128) >> 8 = 100 − 25 = 75
        assert_eq!(tex.level(1).texels(), [[150, 0, 0, 255], [75, 0, 0, 255]]);
    }

    /// 4×4 with levels whose red is 0 (level 0), 100 (level 1), 200 (level 2).
    fn three_levels() -> Texture {
        let mut tex = texture(4, 4, |_, _| 0).with_mipmaps();
        tex.mips = vec![texture(2, 2, |_, _| 100), texture(1, 1, |_, _| 200)];
        tex
    }

    fn red_at(tex: &Texture, min_filter: MinFilter, mag_filter: Filter, lod: f32) -> u8 {
        let sampler = Sampler {
            mag_filter,
            min_filter,
            wrap: Wrap::Clamp,
        };
        (tex.sample_lod(sampler, 0.3, 0.6, lod, [0, 0])[0] * 255.0).round() as u8
    }

    #[test]
    fn nearest_mipmap_picks_the_rounded_level_with_ties_to_even() {
        let tex = three_levels();
        let at = |lod| red_at(&tex, MinFilter::NearestMipmapNearest, Filter::Nearest, lod);
        assert_eq!(at(0.0), 0);
        assert_eq!(at(0.49), 0);
        assert_eq!(at(0.5), 0); // ties to even: level 0
        assert_eq!(at(0.51), 100);
        assert_eq!(at(1.0), 100);
        assert_eq!(at(1.5), 200); // ties to even: level 2
        assert_eq!(at(2.4), 200);
        assert_eq!(at(30.0), 200); // clamped to the last level
        assert_eq!(at(f32::INFINITY), 200);
        assert_eq!(at(-3.0), 0);
        assert_eq!(at(f32::NAN), 0);
    }

    #[test]
    fn linear_mipmap_blends_the_two_levels_around_lambda() {
        let tex = three_levels();
        let at = |lod| red_at(&tex, MinFilter::NearestMipmapLinear, Filter::Nearest, lod);
        assert_eq!(at(0.5), 50); // 0 + (128·100 + 128) >> 8
        assert_eq!(at(1.0), 100);
        assert_eq!(at(1.25), 125); // weight 64: 100 + (64·100 + 128) >> 8
        assert_eq!(at(1.5), 150);
        assert_eq!(at(0.001), 0); // weight ⌊0.256⌋ = 0: level 0 alone
        assert_eq!(at(2.7), 200); // the last level has no successor
        // nearest vs linear between levels at the same λ
        let nearest = red_at(&tex, MinFilter::NearestMipmapNearest, Filter::Nearest, 1.25);
        assert_eq!(nearest, 100);
        // mirror blends in f32: 0.25·100 + 0.75·200 at λ = 1.75 → 175
        let mirror = Sampler {
            mag_filter: Filter::Nearest,
            min_filter: MinFilter::LinearMipmapLinear,
            wrap: Wrap::Mirror,
        };
        let c = tex.sample_lod(mirror, 0.3, 0.6, 1.75, [0, 0])[0];
        assert!((c - 175.0 / 255.0).abs() < 1e-6, "{c}");
    }

    #[test]
    fn lambda_at_or_below_zero_magnifies_with_c_zero() {
        // 2×1: red 0 and 255; at s = 0.5 nearest gives texel 1, linear the mean
        let mut tex = texture(2, 1, |i, _| [0, 255][i as usize]).with_mipmaps();
        tex.mips = vec![texture(1, 1, |_, _| 77)];
        let sampler = Sampler {
            mag_filter: Filter::Linear,
            min_filter: MinFilter::NearestMipmapNearest,
            wrap: Wrap::Clamp,
        };
        let red = |lod| (tex.sample_lod(sampler, 0.5, 0.5, lod, [0, 0])[0] * 255.0).round();
        assert_eq!(red(0.0), 128.0); // magnified: linear on level 0
        assert_eq!(red(-1.0), 128.0);
        // GL 3.0's c = 0.5 would still magnify at 0.25; llvmpipe's c = 0 minifies:
        // nearest filter, level round(0.25) = 0
        assert_eq!(red(0.25), 255.0);
        assert_eq!(red(0.75), 77.0);
        // λ = 0 is sample() and sample_offset()
        assert_eq!(
            tex.sample_lod(sampler, 0.3, 0.5, 0.0, [1, 0]),
            tex.sample_offset(sampler, 0.3, 0.5, [1, 0])
        );
        // a non-mipmapped minification filter ignores the levels
        let linear = Sampler::new(Filter::Linear, Wrap::Clamp);
        assert_eq!(
            tex.sample_lod(linear, 0.5, 0.5, 5.0, [0, 0])[0],
            128.0 / 255.0
        );
    }
}
