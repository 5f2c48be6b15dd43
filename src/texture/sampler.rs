//! Sampler state and texture lookup as OpenGL 3.3 defines it for one RGBA8 level:
//! nearest and linear filtering, the clamp-to-edge, repeat and mirrored-repeat wrap
//! modes, and UNORM8 texels converted to floats, matching llvmpipe's arithmetic.

use super::Texture;

/// Texture filter for both minification and magnification (no mipmaps).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Filter {
    /// `GL_NEAREST`: the texel that contains the sample point.
    #[default]
    Nearest,
    /// `GL_LINEAR`: the weighted average of the 2×2 texels around the sample point.
    Linear,
}

/// Wrap mode, applied to s and t alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// `GL_CLAMP_TO_EDGE`: coordinates outside [0, 1] take the edge texels.
    #[default]
    Clamp,
    /// `GL_REPEAT`: the texture tiles; only the fraction of the coordinate matters.
    Repeat,
    /// `GL_MIRRORED_REPEAT`: the texture tiles, every other tile mirrored.
    Mirror,
}

impl Filter {
    /// Every filter with its scene-format name.
    pub const NAMES: [(&'static str, Filter); 2] =
        [("nearest", Filter::Nearest), ("linear", Filter::Linear)];

    /// The scene-format name: `nearest` or `linear`.
    pub fn name(self) -> &'static str {
        match self {
            Filter::Nearest => "nearest",
            Filter::Linear => "linear",
        }
    }
}

impl Wrap {
    /// Every wrap mode with its scene-format name.
    pub const NAMES: [(&'static str, Wrap); 3] = [
        ("clamp", Wrap::Clamp),
        ("repeat", Wrap::Repeat),
        ("mirror", Wrap::Mirror),
    ];

    /// The scene-format name: `clamp`, `repeat` or `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Wrap::Clamp => "clamp",
            Wrap::Repeat => "repeat",
            Wrap::Mirror => "mirror",
        }
    }
}

/// The minification filter (GL 3.0 §3.9.7, Table 3.19): a filter within one level
/// and, for the four mipmapped ones, how levels are chosen (`MIPMAP_NEAREST`: the
/// nearest level; `MIPMAP_LINEAR`: a blend of the two levels around λ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MinFilter {
    /// `GL_NEAREST`: level 0, nearest texel.
    #[default]
    Nearest,
    /// `GL_LINEAR`: level 0, bilinear.
    Linear,
    /// `GL_NEAREST_MIPMAP_NEAREST`: nearest level, nearest texel.
    NearestMipmapNearest,
    /// `GL_LINEAR_MIPMAP_NEAREST`: nearest level, bilinear.
    LinearMipmapNearest,
    /// `GL_NEAREST_MIPMAP_LINEAR`: two levels, nearest texel in each, blended.
    NearestMipmapLinear,
    /// `GL_LINEAR_MIPMAP_LINEAR`: two levels, bilinear in each, blended (trilinear).
    LinearMipmapLinear,
}

impl MinFilter {
    /// Every minification filter with its scene-format name (GL's name in lower case,
    /// without `GL_`).
    pub const NAMES: [(&'static str, MinFilter); 6] = [
        ("nearest", MinFilter::Nearest),
        ("linear", MinFilter::Linear),
        ("nearest_mipmap_nearest", MinFilter::NearestMipmapNearest),
        ("linear_mipmap_nearest", MinFilter::LinearMipmapNearest),
        ("nearest_mipmap_linear", MinFilter::NearestMipmapLinear),
        ("linear_mipmap_linear", MinFilter::LinearMipmapLinear),
    ];

    /// The scene-format name, e.g. `linear_mipmap_linear`.
    pub fn name(self) -> &'static str {
        let at = MinFilter::NAMES.iter().position(|(_, f)| *f == self);
        MinFilter::NAMES[at.expect("every filter has a name")].0
    }

    /// The non-mipmapped filter that is `filter`.
    pub const fn from_filter(filter: Filter) -> MinFilter {
        match filter {
            Filter::Nearest => MinFilter::Nearest,
            Filter::Linear => MinFilter::Linear,
        }
    }

    /// The filter used within a level.
    pub const fn texel_filter(self) -> Filter {
        match self {
            MinFilter::Nearest
            | MinFilter::NearestMipmapNearest
            | MinFilter::NearestMipmapLinear => Filter::Nearest,
            MinFilter::Linear | MinFilter::LinearMipmapNearest | MinFilter::LinearMipmapLinear => {
                Filter::Linear
            }
        }
    }

    /// How levels are chosen: `None` for the two filters that read level 0 only,
    /// `Nearest` for `*_MIPMAP_NEAREST`, `Linear` for `*_MIPMAP_LINEAR`.
    pub const fn mip_filter(self) -> Option<Filter> {
        match self {
            MinFilter::Nearest | MinFilter::Linear => None,
            MinFilter::NearestMipmapNearest | MinFilter::LinearMipmapNearest => {
                Some(Filter::Nearest)
            }
            MinFilter::NearestMipmapLinear | MinFilter::LinearMipmapLinear => Some(Filter::Linear),
        }
    }
}

/// Sampler state: how [`Texture::sample`] and [`Texture::sample_lod`] turn (s, t)
/// into a colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sampler {
    /// The magnification filter (λ ≤ 0, GL 3.0 §3.9.8), nearest or bilinear; also the
    /// one filter of [`Texture::sample`].
    pub mag_filter: Filter,
    /// The minification filter (λ > 0, GL 3.0 §3.9.7).
    pub min_filter: MinFilter,
    /// Wrap mode for both s and t.
    pub wrap: Wrap,
}

impl Sampler {
    /// `filter` for both minification and magnification, no mipmaps, `wrap` on s and
    /// t (the scene format's `filter` key).
    pub const fn new(filter: Filter, wrap: Wrap) -> Sampler {
        Sampler {
            mag_filter: filter,
            min_filter: MinFilter::from_filter(filter),
            wrap,
        }
    }

    /// Whether the minification filter reads mip levels, so that the texture needs
    /// its chain ([`Texture::with_mipmaps`]).
    pub const fn is_mipmapped(self) -> bool {
        self.min_filter.mip_filter().is_some()
    }

    /// Whether a lookup's result depends on its level of detail λ: the sampler is
    /// mipmapped, or it minifies (λ > 0) with another filter than it magnifies with.
    /// Otherwise every λ gives [`Texture::sample`]'s texel, and a fragment shader need
    /// not run in 2×2 quads for it (docs/csir.md "Level of detail").
    pub const fn needs_lod(self) -> bool {
        self.is_mipmapped()
            || !matches!(
                (self.min_filter, self.mag_filter),
                (MinFilter::Nearest, Filter::Nearest) | (MinFilter::Linear, Filter::Linear)
            )
    }
}

impl Texture {
    /// Samples level 0 at normalised coordinates (s, t) with the magnification filter,
    /// as GLSL `texture()` does on a single-level RGBA8 texture, and as every sampler
    /// does at λ ≤ 0 (`sample_lod(sampler, s, t, 0.0)` gives the same). Returns
    /// RGBA, each channel in 0..=1.
    ///
    /// s = 0 is the left edge of texel column 0, t = 0 the bottom edge of texel row 0
    /// (the PNG's bottom row); s = t = 1 is the far corner. Texel centres are at
    /// ((i + ½)/width, (j + ½)/height).
    ///
    /// * `Nearest` (GL 3.3 §3.8.11): texel i = ⌊wrap(s) · width⌋, with wrap applied as
    ///   clamp-to-edge, fraction (`repeat`) or mirrored fraction (`mirror`).
    /// * `Linear`: u = s · width − ½; the four texels around (u, v), each index wrapped by
    ///   the wrap mode, are blended with weights frac(u), frac(v). As llvmpipe does it:
    ///   for `clamp` and `repeat`, u is rounded to 1/256 texel and the blend is done in
    ///   8-bit fixed point (`a + ((w·(b−a) + 128) >> 8)`, first along s, then t), so the
    ///   result is a multiple of 1/255; for `mirror` the weights and blend are f32.
    ///
    /// Never panics and is deterministic for every input: NaN samples like 0 (clamp: the
    /// first texel), ±∞ and huge coordinates give some texel of the texture.
    pub fn sample(&self, sampler: Sampler, s: f32, t: f32) -> [f32; 4] {
        // Its own copy of the filter code, with the offset 0 folded away.
        self.filter(sampler.mag_filter, sampler.wrap, s, t, [0, 0])
    }

    /// [`sample`](Self::sample) with a texel offset `(dx, dy)`: GLSL `textureOffset`
    /// (GLSL 1.30 §8.7; GL 3.0 §3.9.7 adds the offset to the integer texel coordinates
    /// before wrapping). As llvmpipe does it (`lp_bld_sample_aos.c` for clamp and
    /// repeat, `lp_bld_sample_soa.c` for mirror):
    ///
    /// * `clamp`, and `repeat` on a power-of-two size: the offset is added to the
    ///   integer texel index (nearest: ⌊s·width⌋; linear: the first of the two taps)
    ///   before the clamp or the mask; the linear weight does not change.
    /// * `repeat` on another size, and `mirror`: the wrap works on the float
    ///   coordinate, so the offset is added there, as `s + dx/width` (an f32 division
    ///   and addition), before the wrap.
    ///
    /// An offset of (0, 0) is [`sample`](Self::sample). Any offset is safe.
    pub fn sample_offset(&self, sampler: Sampler, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4] {
        self.filter(sampler.mag_filter, sampler.wrap, s, t, offset)
    }

    /// The filter and wrap of [`sample_offset`](Self::sample_offset) on this level,
    /// inlined into both public functions so that [`sample`](Self::sample)'s copy has
    /// no offset arithmetic.
    #[inline(always)]
    pub(super) fn filter(
        &self,
        filter: Filter,
        wrap: Wrap,
        s: f32,
        t: f32,
        [dx, dy]: [i32; 2],
    ) -> [f32; 4] {
        match (filter, wrap) {
            (Filter::Nearest, wrap) => {
                let i = nearest_index(s, self.width(), wrap, dx);
                let j = nearest_index(t, self.height(), wrap, dy);
                unorm8_to_f32(self.texel(i, j))
            }
            (Filter::Linear, Wrap::Mirror) => {
                let (i0, i1, a) = mirror_linear_taps(shift(s, dx, self.width()), self.width());
                let (j0, j1, b) = mirror_linear_taps(shift(t, dy, self.height()), self.height());
                let [t00, t10, t01, t11] = [
                    unorm8_to_f32(self.texel(i0, j0)),
                    unorm8_to_f32(self.texel(i1, j0)),
                    unorm8_to_f32(self.texel(i0, j1)),
                    unorm8_to_f32(self.texel(i1, j1)),
                ];
                std::array::from_fn(|c| {
                    let row0 = t00[c] + a * (t10[c] - t00[c]);
                    let row1 = t01[c] + a * (t11[c] - t01[c]);
                    row0 + b * (row1 - row0)
                })
            }
            (Filter::Linear, wrap) => {
                let (i0, i1, a) = fixed_linear_taps(s, self.width(), wrap, dx);
                let (j0, j1, b) = fixed_linear_taps(t, self.height(), wrap, dy);
                let [t00, t10, t01, t11] = [
                    self.texel(i0, j0),
                    self.texel(i1, j0),
                    self.texel(i0, j1),
                    self.texel(i1, j1),
                ];
                let blended: [u8; 4] = std::array::from_fn(|c| {
                    let row0 = lerp_unorm8(a, t00[c], t10[c]);
                    let row1 = lerp_unorm8(a, t01[c], t11[c]);
                    lerp_unorm8(b, row0, row1)
                });
                unorm8_to_f32(blended)
            }
        }
    }
}

impl Texture {
    /// The texel in column `i`, row `j` (row 0 the PNG's bottom row), each clamped to
    /// the edge, as RGBA in 0..=1 converted as [`sample`](Self::sample) converts it:
    /// GLSL `texelFetch` (GLSL 1.30 §8.7: no filter, no wrap). The
    /// caller rejects out-of-range indexes first (`csir::exec::texel_fetch`).
    pub fn fetch(&self, i: u32, j: u32) -> [f32; 4] {
        unorm8_to_f32(self.texel(i, j))
    }
}

/// Largest f32 below 1: what a wrapped fraction is clamped to, so that ⌊frac · size⌋
/// stays below `size` (llvmpipe's `lp_build_fract_safe`).
pub(super) const BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

fn unorm8_to_f32(texel: [u8; 4]) -> [f32; 4] {
    texel.map(|c| f32::from(c) / 255.0)
}

/// ⌊x⌋ as an integer; saturates for huge values, NaN gives 0.
fn floor_to_int(x: f32) -> i64 {
    x.floor() as i64
}

/// `index` clamped to 0..size (size ≥ 1).
fn clamp_index(index: i64, size: u32) -> u32 {
    index.clamp(0, i64::from(size) - 1) as u32
}

/// The mirrored-repeat fraction of s, in [0, 1]: |2·(s/2 − round(s/2))|, which is s on
/// [0, 1], 2 − s on [1, 2], and so on with period 2 (GL's `mirror(s)` folded). NaN → 0.
fn mirror_fraction(s: f32) -> f32 {
    let half = s * 0.5;
    let f = half - half.round_ties_even();
    let m = (f + f).abs();
    if m.is_nan() { 0.0 } else { m }
}

/// The repeat fraction s − ⌊s⌋, kept below 1 (tiny negative s would round up to 1).
/// NaN → 0.
fn repeat_fraction(s: f32) -> f32 {
    let f = s - s.floor();
    if f.is_nan() { 0.0 } else { f.min(BELOW_ONE) }
}

/// `s` moved by `offset` texels of a `size`-texel axis in f32, `s + offset/size`, as
/// llvmpipe moves the coordinate of the wraps that work on it (non-power-of-two
/// `repeat`, `mirror`); `s` itself when `offset` is 0.
fn shift(s: f32, offset: i32, size: u32) -> f32 {
    if offset == 0 {
        s
    } else {
        s + offset as f32 / size as f32
    }
}

/// Texel index along one axis for nearest filtering, with texel offset `offset`.
fn nearest_index(s: f32, size: u32, wrap: Wrap, offset: i32) -> u32 {
    let size_f = size as f32;
    let moved = |i: i64| i.saturating_add(i64::from(offset));
    match wrap {
        Wrap::Clamp => clamp_index(moved(floor_to_int(s * size_f)), size),
        Wrap::Repeat if size.is_power_of_two() => {
            (moved(floor_to_int(s * size_f)) & i64::from(size - 1)) as u32
        }
        // fraction first: s · size could lose the fraction for large s
        Wrap::Repeat => clamp_index(
            (repeat_fraction(shift(s, offset, size)) * size_f) as i64,
            size,
        ),
        Wrap::Mirror => clamp_index(
            (mirror_fraction(shift(s, offset, size)) * size_f) as i64,
            size,
        ),
    }
}

/// The two texel indices along one axis and the weight of the second, in 1/256 units
/// (0..=255), for bilinear filtering with `clamp` or `repeat` in 8.8 fixed point, with
/// texel offset `offset` (added to the first tap's index, or for a non-power-of-two
/// `repeat` to the coordinate, as [`shift`]).
fn fixed_linear_taps(s: f32, size: u32, wrap: Wrap, offset: i32) -> (u32, u32, i32) {
    let scale = size as f32 * 256.0; // 8 fractional bits
    let to_fixed = |x: f32| ((x * scale).round_ties_even() as i64).saturating_sub(128);
    let last = i64::from(size) - 1;
    match wrap {
        Wrap::Repeat if !size.is_power_of_two() => {
            // llvmpipe wraps non-power-of-two sizes on the fraction before scaling
            let fixed = to_fixed(repeat_fraction(shift(s, offset, size)));
            let weight = (fixed & 255) as i32;
            let mut i0 = fixed >> 8;
            if i0 < 0 {
                i0 = last;
            }
            let i0 = i0.min(last);
            let i1 = if i0 == last { 0 } else { i0 + 1 };
            (i0 as u32, i1 as u32, weight)
        }
        Wrap::Repeat => {
            let fixed = to_fixed(s);
            let i0 = (fixed >> 8).saturating_add(i64::from(offset));
            let mask = i64::from(size - 1);
            (
                (i0 & mask) as u32,
                ((i0 + 1) & mask) as u32,
                (fixed & 255) as i32,
            )
        }
        // (mirror is filtered by `mirror_linear_taps`; here it would act as clamp)
        Wrap::Clamp | Wrap::Mirror => {
            let fixed = to_fixed(s);
            let i0 = (fixed >> 8).saturating_add(i64::from(offset));
            (
                clamp_index(i0, size),
                clamp_index(i0 + 1, size),
                (fixed & 255) as i32,
            )
        }
    }
}

/// The two texel indices along one axis and the f32 weight of the second, for bilinear
/// filtering with `mirror`.
fn mirror_linear_taps(s: f32, size: u32) -> (u32, u32, f32) {
    let u = mirror_fraction(s) * size as f32 - 0.5;
    let floor = u.floor();
    let i0 = floor as i64;
    (clamp_index(i0, size), clamp_index(i0 + 1, size), u - floor)
}

/// a + (w·(b − a) + 128) >> 8 with w in 0..=255 (a weight in 1/256 units): llvmpipe's
/// 8-bit lerp with pre-scaled weights. The result lies between a and b.
pub(super) fn lerp_unorm8(w: i32, a: u8, b: u8) -> u8 {
    let a = i32::from(a);
    (a + ((w * (i32::from(b) - a) + 128) >> 8)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEAREST_CLAMP: Sampler = Sampler::new(Filter::Nearest, Wrap::Clamp);

    /// A width×1 texture whose red channel holds `reds`; green = 255 − red.
    fn row(reds: &[u8]) -> Texture {
        let texels = reds.iter().map(|&r| [r, 255 - r, 7, 255]).collect();
        Texture::from_texels(reds.len() as u32, 1, texels).unwrap()
    }

    fn red(tex: &Texture, filter: Filter, wrap: Wrap, s: f32) -> f32 {
        tex.sample(Sampler::new(filter, wrap), s, 0.5)[0]
    }

    fn unorm(v: u8) -> f32 {
        f32::from(v) / 255.0
    }

    #[test]
    fn nearest_hits_the_texel_at_its_centre_and_edges() {
        let tex = row(&[10, 20, 30, 40]);
        for (i, v) in [10, 20, 30, 40].into_iter().enumerate() {
            let centre = (i as f32 + 0.5) / 4.0;
            assert_eq!(red(&tex, Filter::Nearest, Wrap::Clamp, centre), unorm(v));
            // left edge of texel i belongs to texel i
            assert_eq!(
                red(&tex, Filter::Nearest, Wrap::Clamp, i as f32 / 4.0),
                unorm(v)
            );
        }
        assert_eq!(red(&tex, Filter::Nearest, Wrap::Clamp, 1.0), unorm(40));
        assert_eq!(red(&tex, Filter::Nearest, Wrap::Repeat, 1.0), unorm(10));
        assert_eq!(red(&tex, Filter::Nearest, Wrap::Mirror, 1.0), unorm(40));
    }

    #[test]
    fn nearest_wraps_outside_0_1() {
        let tex = row(&[10, 20, 30, 40]);
        let at = |wrap, s| red(&tex, Filter::Nearest, wrap, s);
        // −0.25: clamp → first texel; repeat → 0.75 → texel 3; mirror → 0.25 → texel 1
        assert_eq!(at(Wrap::Clamp, -0.25), unorm(10));
        assert_eq!(at(Wrap::Repeat, -0.25), unorm(40));
        assert_eq!(at(Wrap::Mirror, -0.25), unorm(20));
        // 1.25: clamp → last texel; repeat → 0.25 → texel 1; mirror → 0.75 → texel 3
        assert_eq!(at(Wrap::Clamp, 1.25), unorm(40));
        assert_eq!(at(Wrap::Repeat, 1.25), unorm(20));
        assert_eq!(at(Wrap::Mirror, 1.25), unorm(40));
        // mirror period is 2: 2.1 behaves like 0.1, 1.9 like 0.1
        assert_eq!(at(Wrap::Mirror, 2.1), unorm(10));
        assert_eq!(at(Wrap::Mirror, 1.9), unorm(10));
    }

    #[test]
    fn nearest_repeat_on_a_non_power_of_two_size() {
        let tex = row(&[10, 20, 30]);
        let at = |s| red(&tex, Filter::Nearest, Wrap::Repeat, s);
        assert_eq!(at(-0.1), unorm(30));
        assert_eq!(at(3.5), unorm(20));
        assert_eq!(at(-1e-9), unorm(30)); // fraction rounds to 1 → kept in the last texel
    }

    #[test]
    fn nearest_t_selects_rows_from_the_bottom() {
        // 1x2: row 0 (bottom) red 100, row 1 (top) red 200
        let tex = Texture::from_texels(1, 2, vec![[100, 0, 0, 255], [200, 0, 0, 255]]).unwrap();
        assert_eq!(tex.sample(NEAREST_CLAMP, 0.5, 0.25)[0], unorm(100));
        assert_eq!(tex.sample(NEAREST_CLAMP, 0.5, 0.75)[0], unorm(200));
    }

    #[test]
    fn linear_at_texel_centres_returns_the_texel() {
        let tex = row(&[10, 20, 30, 40]);
        for wrap in [Wrap::Clamp, Wrap::Repeat, Wrap::Mirror] {
            for (i, v) in [10, 20, 30, 40].into_iter().enumerate() {
                let s = (i as f32 + 0.5) / 4.0;
                assert_eq!(red(&tex, Filter::Linear, wrap, s), unorm(v), "{wrap:?} {i}");
            }
        }
    }

    #[test]
    fn linear_midpoints_blend_neighbours() {
        let tex = row(&[0, 255, 100, 40]);
        // s = 1/4 lies between texels 0 and 1: weight 128/256.
        // fixed point: 0 + (128·255 + 128) >> 8 = 128 (GL's exact value is 127.5)
        assert_eq!(red(&tex, Filter::Linear, Wrap::Clamp, 0.25), unorm(128));
        assert_eq!(red(&tex, Filter::Linear, Wrap::Repeat, 0.25), unorm(128));
        // mirror filters in f32: exactly the mean
        assert_eq!(red(&tex, Filter::Linear, Wrap::Mirror, 0.25), 0.5);
        // 3/4 of the way from texel 1 (255) to texel 2 (100): s = (1.5 + 0.75) / 4
        // 255 + (192·(−155) + 128) >> 8 = 255 − 116 = 139 (GL: 138.75)
        assert_eq!(
            red(&tex, Filter::Linear, Wrap::Clamp, 2.25 / 4.0),
            unorm(139)
        );
        // green is 255 − red: 0 + (192·155 + 128) >> 8 = 116 (GL: 116.25)
        let g = tex.sample(Sampler::new(Filter::Linear, Wrap::Clamp), 2.25 / 4.0, 0.5)[1];
        assert_eq!(g, unorm(116));
    }

    #[test]
    fn bilinear_centre_of_a_2x2_texture_is_the_fixed_point_mean() {
        // red: bottom row 0, 100; top row 200, 40 → GL mean 85
        let tex = Texture::from_texels(
            2,
            2,
            vec![
                [0, 0, 0, 255],
                [100, 0, 0, 255],
                [200, 0, 0, 255],
                [40, 0, 0, 255],
            ],
        )
        .unwrap();
        let linear = |wrap| Sampler::new(Filter::Linear, wrap);
        // rows: 0→100 gives 50, 200→40 gives 120; then 50→120 gives 85
        assert_eq!(tex.sample(linear(Wrap::Clamp), 0.5, 0.5)[0], unorm(85));
        assert_eq!(tex.sample(linear(Wrap::Repeat), 0.5, 0.5)[0], unorm(85));
        assert!((tex.sample(linear(Wrap::Mirror), 0.5, 0.5)[0] - 85.0 / 255.0).abs() < 1e-6);
        // alpha of equal texels is unchanged
        assert_eq!(tex.sample(linear(Wrap::Clamp), 0.3, 0.7)[3], 1.0);
    }

    #[test]
    fn linear_edges_follow_the_wrap_mode() {
        let tex = row(&[10, 20, 30, 40]);
        let at = |wrap, s| red(&tex, Filter::Linear, wrap, s);
        // s = 0 is half a texel left of texel 0's centre
        assert_eq!(at(Wrap::Clamp, 0.0), unorm(10));
        assert_eq!(at(Wrap::Repeat, 0.0), unorm(25)); // (40 + 10) / 2
        assert_eq!(at(Wrap::Mirror, 0.0), unorm(10)); // texel −1 mirrors to texel 0
        // −0.25: clamp → edge; repeat → 0.75, between texels 2 and 3; mirror → 0.25
        assert_eq!(at(Wrap::Clamp, -0.25), unorm(10));
        assert_eq!(at(Wrap::Repeat, -0.25), unorm(35));
        assert!((at(Wrap::Mirror, -0.25) - 15.0 / 255.0).abs() < 1e-6);
        // 1.25: clamp → edge; repeat → 0.25 (between 0 and 1); mirror → 0.75
        assert_eq!(at(Wrap::Clamp, 1.25), unorm(40));
        assert_eq!(at(Wrap::Repeat, 1.25), unorm(15));
        assert!((at(Wrap::Mirror, 1.25) - 35.0 / 255.0).abs() < 1e-6);
    }

    #[test]
    fn linear_repeat_on_a_non_power_of_two_size_wraps_the_last_texel_to_the_first() {
        let tex = row(&[10, 20, 90]);
        // s = 0: between texel 2 (90) and texel 0 (10)
        assert_eq!(red(&tex, Filter::Linear, Wrap::Repeat, 0.0), unorm(50));
        assert_eq!(red(&tex, Filter::Linear, Wrap::Repeat, 1.0), unorm(50));
        assert_eq!(red(&tex, Filter::Linear, Wrap::Repeat, -2.0), unorm(50));
    }

    #[test]
    fn any_float_samples_without_panicking_and_deterministically() {
        let tex = Texture::from_texels(
            3,
            2,
            (0..6u8).map(|k| [k * 40, 255 - k * 40, k, 255]).collect(),
        )
        .unwrap();
        let specials = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            1e30,
            -1e30,
            1e-40,
            -1e-40,
            -0.0,
            16_777_217.0,
        ];
        for filter in [Filter::Nearest, Filter::Linear] {
            for wrap in [Wrap::Clamp, Wrap::Repeat, Wrap::Mirror] {
                let sampler = Sampler::new(filter, wrap);
                for &s in &specials {
                    for &t in &specials {
                        let a = tex.sample(sampler, s, t);
                        assert_eq!(a, tex.sample(sampler, s, t));
                        assert!(a.iter().all(|c| (0.0..=1.0).contains(c)), "{a:?}");
                    }
                }
            }
        }
        // NaN samples like 0
        let nan = tex.sample(NEAREST_CLAMP, f32::NAN, f32::NAN);
        assert_eq!(nan, tex.sample(NEAREST_CLAMP, 0.0, 0.0));
    }

    #[test]
    fn texel_offsets_move_the_texel_before_the_wrap() {
        let tex = row(&[10, 20, 30, 40]);
        let at =
            |filter, wrap, s, dx| tex.sample_offset(Sampler::new(filter, wrap), s, 0.5, [dx, 0])[0];
        // s = 0.375 is texel 1: + 2 is texel 3; + 5 and − 3 clamp to the edges.
        assert_eq!(at(Filter::Nearest, Wrap::Clamp, 0.375, 2), unorm(40));
        assert_eq!(at(Filter::Nearest, Wrap::Clamp, 0.375, 5), unorm(40));
        assert_eq!(at(Filter::Nearest, Wrap::Clamp, 0.375, -3), unorm(10));
        // repeat on a power of two masks the moved index: (1 + 5) & 3 = 2, (1 − 3) & 3 = 2
        assert_eq!(at(Filter::Nearest, Wrap::Repeat, 0.375, 5), unorm(30));
        assert_eq!(at(Filter::Nearest, Wrap::Repeat, 0.375, -3), unorm(30));
        // mirror moves the coordinate: 0.375 + 4/4 = 1.375 mirrors to 0.625, texel 2
        assert_eq!(at(Filter::Nearest, Wrap::Mirror, 0.375, 4), unorm(30));
        // linear: the taps move, the weight stays: s = 0.25 is halfway between texels
        // 0 and 1; + 1 is halfway between 20 and 30: 20 + (128·10 + 128) >> 8 = 25
        assert_eq!(at(Filter::Linear, Wrap::Clamp, 0.25, 1), unorm(25));
        assert_eq!(at(Filter::Linear, Wrap::Repeat, 0.25, 3), unorm(25)); // taps 3 and 0: 40 − 15
        // a non-power-of-two repeat moves the coordinate: 0.5 + 2/3 wraps to texel 0,
        // 0.5 − 8/3 to texel 2
        let npot = row(&[10, 20, 30]);
        let nearest_repeat = Sampler::new(Filter::Nearest, Wrap::Repeat);
        assert_eq!(
            npot.sample_offset(nearest_repeat, 0.5, 0.5, [2, 0])[0],
            unorm(10)
        );
        assert_eq!(
            npot.sample_offset(nearest_repeat, 0.5, 0.5, [-8, 0])[0],
            unorm(30)
        );
        // the offset on t selects rows the same way
        let column = Texture::from_texels(1, 2, vec![[100, 0, 0, 255], [200, 0, 0, 255]]).unwrap();
        assert_eq!(
            column.sample_offset(NEAREST_CLAMP, 0.5, 0.25, [0, 1])[0],
            unorm(200)
        );
        // (0, 0) is sample, in every mode, and huge coordinates stay safe
        for filter in [Filter::Nearest, Filter::Linear] {
            for wrap in [Wrap::Clamp, Wrap::Repeat, Wrap::Mirror] {
                let sampler = Sampler::new(filter, wrap);
                for s in [-0.3, 0.1, 0.49, 1.7, f32::NAN, 1e30] {
                    assert_eq!(
                        npot.sample_offset(sampler, s, 0.4, [0, 0]),
                        npot.sample(sampler, s, 0.4)
                    );
                    let c = npot.sample_offset(sampler, s, 0.4, [i32::MIN, i32::MAX]);
                    assert!(c.iter().all(|v| (0.0..=1.0).contains(v)));
                }
            }
        }
    }

    #[test]
    fn lerp_unorm8_matches_llvmpipe_rounding() {
        assert_eq!(lerp_unorm8(0, 17, 200), 17);
        assert_eq!(lerp_unorm8(255, 0, 255), 254); // weights stop at 255/256
        assert_eq!(lerp_unorm8(128, 255, 0), 128); // 255 + (−32640 + 128) >> 8 = 255 − 127
        assert_eq!(lerp_unorm8(1, 0, 255), 1); // (255 + 128) >> 8
    }
}
