//! Texture access for SAMPLE: the [`Samplers`] trait (one texture per sampler slot),
//! [`NoSamplers`], and [`NearestClampTexture`], a small RGBA8 texture for tests and
//! tools. [`lod_from_gradients`] is the level of detail of a lookup.
//!
//! SAMPLE honours its sampler slot (docs/csir-original.md A2; the original ignored it, B
//! §10.8). Filtering, wrapping and orientation are sampler state owned by whoever
//! implements [`Samplers`] (docs/csir-original.md A6; `docs/scene-format.md`): the
//! renderer's textures implement it with nearest/linear and clamp/repeat/mirror.

use super::lod::lod_from_gradients;
use std::cell::Cell;
use wide::f32x8;

/// [`Samplers::sample_groups`] through [`Samplers::sample_group`], one call per group
/// with a lane in `lanes`: the default, and what an implementation calls for the slots
/// it does not speed up.
pub fn sample_groups_one_by_one<S: Samplers + ?Sized>(
    samplers: &S,
    slot: usize,
    s: &[f32x8],
    t: &[f32x8],
    lanes: u64,
    out: [&[Cell<f32x8>]; 4],
) {
    // `lanes` has bytes for 8 groups; any further group has no lane to sample.
    for (g, (s, t)) in s.iter().zip(t).take(8).enumerate() {
        let group = (lanes >> (g * 8) & 0xff) as u8;
        if group == 0 {
            continue;
        }
        let mut texels: [[f32; 8]; 4] = std::array::from_fn(|c| out[c][g].get().to_array());
        samplers.sample_group(slot, &s.to_array(), &t.to_array(), group, &mut texels);
        for (c, v) in out.iter().zip(texels) {
            c[g].set(f32x8::new(v));
        }
    }
}

/// The textures a shader invocation can sample, one per sampler slot
/// (`0..Limits::samplers`).
///
/// `sample` returns RGBA, normally in [0, 1], for texture coordinate `(s, t)`. It must
/// not panic for any coordinate (NaN, ±inf, huge) or any slot; a slot with no texture
/// returns (0, 0, 0, 0), as the original did without a texture (B §4). `Sync`, so one
/// set of textures can serve every rendering thread.
pub trait Samplers: Sync {
    /// Sample the texture bound to `slot` at `(s, t)`.
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4];

    /// Sample the texture bound to `slot` at `(s, t)` with the texel offset `offset`
    /// (SAMPLE_OFFSET, `textureOffset`, GLSL 1.30 §8.7): the offset is added to the
    /// integer texel coordinates (u, v) before wrapping, in every filter and wrap mode
    /// (GL 3.0 §3.9.7's `u + δu`). `[0, 0]` must give what
    /// [`sample`](Self::sample) gives. It must not panic for any offset.
    fn sample_offset(&self, slot: usize, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4];

    /// [`sample`](Self::sample) for one group of up to 8 lanes of the batch
    /// interpreter: for every bit `i` set in `lanes`, `out[c][i]` ← component `c` of
    /// `self.sample(slot, s[i], t[i])`; lanes whose bit is clear keep what `out` held,
    /// and their `s` and `t` may be anything (NaN included).
    ///
    /// An implementation may compute the lanes together (SIMD) but must give every
    /// lane exactly `sample`'s bits: the batch interpreter promises the scalar
    /// interpreter's bits (docs/architecture.md). This default calls `sample` per lane.
    fn sample_group(
        &self,
        slot: usize,
        s: &[f32; 8],
        t: &[f32; 8],
        lanes: u8,
        out: &mut [[f32; 8]; 4],
    ) {
        for i in (0..8).filter(|i| lanes >> i & 1 != 0) {
            let texel = self.sample(slot, s[i], t[i]);
            for (c, v) in out.iter_mut().zip(texel) {
                c[i] = v;
            }
        }
    }

    /// [`sample_group`](Self::sample_group) for the groups of one SAMPLE step of the
    /// batch interpreter, all in one call: for every group `g` (`s.len() == t.len()`,
    /// `out[c].len() >= s.len()`; `lanes` covers 8 groups, so groups from the 9th on
    /// are left alone) and every bit `i` set in byte `g`
    /// of `lanes` (lane `8·g + i`), component `c` of `out[c][g]` lane `i` ←
    /// component `c` of `self.sample(slot, s[g][i], t[g][i])`; every other lane of
    /// `out` keeps its value. The coordinates are copies, so `out` may be the register
    /// they came from.
    ///
    /// One call per step instead of one per group lets an implementation look the slot
    /// up once and keep the per-texture constants across the groups. This default is
    /// [`sample_groups_one_by_one`]: `sample_group` per group.
    fn sample_groups(
        &self,
        slot: usize,
        s: &[f32x8],
        t: &[f32x8],
        lanes: u64,
        out: [&[Cell<f32x8>]; 4],
    ) {
        sample_groups_one_by_one(self, slot, s, t, lanes, out);
    }

    /// Sample the texture bound to `slot` at `(s, t)`, with the texel offset `offset`
    /// (`[0, 0]` for none), at the level of detail `lod` (λ after bias, GL 3.0
    /// §3.9.7): SAMPLE_LOD (`textureLod`), SAMPLE_BIAS and, through
    /// [`sample_grad`](Self::sample_grad), SAMPLE_GRAD. λ ≤ 0 (and NaN) is
    /// magnification; λ > 0 minification, which picks mip levels when the sampler is
    /// mipmapped (GL 3.0 §3.9.7–3.9.8; the renderer's rules, as llvmpipe's, are in
    /// docs/csir.md "Level of detail"). `lod = 0.0` must give what
    /// [`sample_offset`](Self::sample_offset) gives. It must not panic for any `lod`.
    ///
    /// This default, for samplers without mip levels or a minification filter of
    /// their own, ignores `lod`.
    fn sample_lod(&self, slot: usize, s: f32, t: f32, lod: f32, offset: [i32; 2]) -> [f32; 4] {
        let _ = lod;
        self.sample_offset(slot, s, t, offset)
    }

    /// [`sample_lod`](Self::sample_lod) at the λ of the gradients
    /// `[ds/dx, dt/dx, ds/dy, dt/dy]` for level 0's [`size`](Self::size)
    /// ([`lod_from_gradients`]): SAMPLE_GRAD (`textureGrad`), and the entry point an
    /// implicit level of detail from a quad's derivatives goes through.
    fn sample_grad(
        &self,
        slot: usize,
        s: f32,
        t: f32,
        gradients: [f32; 4],
        offset: [i32; 2],
    ) -> [f32; 4] {
        let lod = lod_from_gradients(self.size(slot), gradients);
        self.sample_lod(slot, s, t, lod, offset)
    }

    /// Whether some slot's lookups depend on their level of detail λ (a mipmapped
    /// sampler, or one that minifies with another filter than it magnifies with): a
    /// fragment shader's implicit-LOD lookups then run in 2×2 quads
    /// ([`Plan::bind_lod`](crate::exec::batch::Plan::bind_lod)). This default, for
    /// samplers whose result never depends on λ, is `false`.
    fn needs_lod(&self) -> bool {
        false
    }

    /// Width and height in texels of the texture bound to `slot` (TEXSIZE,
    /// `textureSize`); `[0, 0]` for a slot with no texture, which is what this
    /// default gives.
    fn size(&self, slot: usize) -> [u32; 2] {
        let _ = slot;
        [0, 0]
    }

    /// RGBA in [0, 1] of the texel in column `i`, row `j` (row 0 at t = 0) of the
    /// texture bound to `slot` (TEXFETCH, `texelFetch`): no filter and no wrap.
    /// [`texel_fetch`] calls it only with `i < width` and `j < height` of
    /// [`size`](Self::size); this default, for implementations without textures,
    /// gives (0, 0, 0, 0).
    fn texel(&self, slot: usize, i: u32, j: u32) -> [f32; 4] {
        let _ = (slot, i, j);
        [0.0; 4]
    }

    /// How many mip levels the texture bound to `slot` has (level 0 and its chain,
    /// GL 3.0 §3.9.10's `q + 1`); this default is 1, a texture of one level (an empty
    /// slot also answers 1: its level 0 is 0×0).
    fn levels(&self, slot: usize) -> u32 {
        let _ = slot;
        1
    }

    /// [`texel`](Self::texel) of mip level `level` (below [`levels`](Self::levels),
    /// with `i`, `j` inside that level's size: [`texel_fetch`] checks both). This
    /// default reads level 0.
    fn level_texel(&self, slot: usize, level: u32, i: u32, j: u32) -> [f32; 4] {
        let _ = level;
        self.texel(slot, i, j)
    }

    /// A filtered lookup of the TEX family (GL 3.3 targets, formats and shadow
    /// comparison; docs/csir.md "Texture targets") on the texture bound to `slot`:
    /// RGBA, integer results as their `i32`/`u32` patterns, a comparison's result
    /// in `x` (with `y`, `z`, `w` as GL 3.3 §3.8.16's (r, r, r, 1)… luminance: the
    /// implementation decides and documents it). It must not panic for any request.
    /// This default, for implementations without such textures, gives (0, 0, 0, 0).
    fn lookup(&self, slot: usize, request: &super::TexRequest) -> [f32; 4] {
        let _ = (slot, request);
        [0.0; 4]
    }

    /// TEX's `texelFetch`: the texel at integer coordinates `p` (layer included) of
    /// level `level` of the texture bound to `slot`, unfiltered; (0, 0, 0, 0) out of
    /// range, as llvmpipe gives. This default gives (0, 0, 0, 0).
    fn fetch(&self, slot: usize, p: [i32; 3], level: i32) -> [f32; 4] {
        let _ = (slot, p, level);
        [0.0; 4]
    }

    /// TEX's `textureSize`: width, height and depth (or layers) of level `level` of
    /// the texture bound to `slot`, components past the target's size 0, and 0 for a
    /// level the texture does not have. This default is 0 everywhere.
    fn size_of(&self, slot: usize, level: i32) -> [i32; 3] {
        let _ = (slot, level);
        [0; 3]
    }
}

/// The size of mip level `level` of a texture whose level 0 is `size`: each side
/// `max(1, ⌊side / 2^level⌋)` (GL 3.0 §3.9.10, what `glGenerateMipmap` makes); an
/// empty size stays empty.
pub fn level_size(size: [u32; 2], level: u32) -> [u32; 2] {
    size.map(|side| {
        if side == 0 {
            0
        } else {
            side.checked_shr(level).unwrap_or(0).max(1)
        }
    })
}

/// TEXFETCH's RGBA: the texel at index `(x, y)` (`i32` patterns) of level `lod_bits`
/// (an `i32` pattern) of the texture bound to `slot`. GLSL 1.30 §8.7 leaves a fetch
/// outside the level, or from a level the texture does not have, undefined; llvmpipe
/// gives (0, 0, 0, 0) for both (corpus_texture's `texel_fetch.frag` tile fetches a
/// ring of indexes around the texture and levels 1 and −1), and so does this.
/// A texture has [`Samplers::levels`] levels ([`texture_size`] gives each one's
/// size). An empty slot is 0 by 0, so every fetch from it is out of range.
pub fn texel_fetch(
    samplers: &dyn Samplers,
    slot: usize,
    [x, y]: [u32; 2],
    lod_bits: u32,
) -> [f32; 4] {
    let [width, height] = texture_size(samplers, slot, lod_bits);
    // As unsigned values, negative indexes are at least 2^31 and so out of range.
    if x < width && y < height {
        samplers.level_texel(slot, lod_bits, x, y)
    } else {
        [0.0; 4]
    }
}

/// TEXSIZE's `x` and `y` as `i32` patterns: the width and height of level `lod_bits`
/// (an `i32` pattern) of the texture bound to `slot`: [`level_size`] for the levels
/// below [`Samplers::levels`]. GLSL 1.30 §8.7 leaves the size of a level a texture
/// does not have undefined, and it is 0 by 0 here, as llvmpipe gives for every level
/// but 0 of a one-level texture (corpus_texture's `texture_size.frag` tile shows
/// both; a negative level is a huge unsigned one). An empty slot is 0 by 0 at every
/// level.
pub fn texture_size(samplers: &dyn Samplers, slot: usize, lod_bits: u32) -> [u32; 2] {
    if lod_bits < samplers.levels(slot) {
        level_size(samplers.size(slot), lod_bits)
    } else {
        [0, 0]
    }
}

/// No textures at all: every sample is (0, 0, 0, 0) (B §4, "no texture").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoSamplers;

impl Samplers for NoSamplers {
    #[inline]
    fn sample(&self, _slot: usize, _s: f32, _t: f32) -> [f32; 4] {
        [0.0; 4]
    }

    #[inline]
    fn sample_offset(&self, _slot: usize, _s: f32, _t: f32, _offset: [i32; 2]) -> [f32; 4] {
        [0.0; 4]
    }
}

/// Why texel data does not form a [`NearestClampTexture`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextureSizeError {
    /// Width or height is 0.
    #[error("a texture must be at least 1x1 texels, got {width}x{height}")]
    Empty {
        /// Width given, in texels.
        width: u32,
        /// Height given, in texels.
        height: u32,
    },
    /// The byte count is not `width · height · 4`.
    #[error("a {width}x{height} RGBA8 texture needs {} bytes, got {len}", *width as u64 * *height as u64 * 4)]
    Size {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Bytes given.
        len: usize,
    },
}

/// An RGBA8 texture sampled with OpenGL's `GL_NEAREST` filter and
/// `GL_CLAMP_TO_EDGE` wrap: texel `i = clamp(floor(s·width), 0, width−1)`, likewise
/// `j` from `t` and `height`, each byte divided by 255.
///
/// Texel row 0 is the first row in memory and sits at t = 0 (`scene-format.md`: the
/// renderer stores textures bottom row first). Bytes are R, G, B, A (the original
/// read B, G, R, A and used `round(s·(w−1))`, which A2 replaces with GL's rule).
/// NaN coordinates select texel 0; ±inf and huge values clamp to the edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearestClampTexture {
    width: u32,
    height: u32,
    texels: Vec<[u8; 4]>,
}

impl NearestClampTexture {
    /// A `width × height` texture from `width·height·4` RGBA bytes, row 0 first.
    ///
    /// Errors: an empty size, or a byte count that does not match.
    pub fn new(width: u32, height: u32, rgba: &[u8]) -> Result<Self, TextureSizeError> {
        if width == 0 || height == 0 {
            return Err(TextureSizeError::Empty { width, height });
        }
        if rgba.len() as u64 != width as u64 * height as u64 * 4 {
            return Err(TextureSizeError::Size {
                width,
                height,
                len: rgba.len(),
            });
        }
        let texels = rgba
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect();
        Ok(NearestClampTexture {
            width,
            height,
            texels,
        })
    }

    /// A 1×1 texture of one colour.
    pub fn solid(rgba: [u8; 4]) -> Self {
        NearestClampTexture {
            width: 1,
            height: 1,
            texels: vec![rgba],
        }
    }

    /// Width in texels (>= 1).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels (>= 1).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// RGBA in [0, 1] of the texel containing `(s, t)`, clamped to the edge texels.
    #[inline]
    pub fn sample(&self, s: f32, t: f32) -> [f32; 4] {
        self.lookup(s, t, [0, 0])
    }

    /// [`sample`](Self::sample) with a texel offset: texel `i = clamp(floor(s·width) +
    /// dx, 0, width−1)`, likewise `j` (GL 3.0 §3.9.7, `u + δu` before the clamp).
    ///
    pub fn sample_offset(&self, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4] {
        self.lookup(s, t, offset)
    }

    /// The texel of [`sample_offset`](Self::sample_offset), inlined into both
    /// entry points so that [`sample`](Self::sample)'s zero offset folds away: this
    /// is the texture of the interpreter benchmarks, whose textured rates measure
    /// the interpreter, not this lookup (`benches/README.md`).
    #[inline(always)]
    fn lookup(&self, s: f32, t: f32, [dx, dy]: [i32; 2]) -> [f32; 4] {
        let i = nearest_clamped(s, self.width, dx);
        let j = nearest_clamped(t, self.height, dy);
        self.texel_in_range(i, j)
    }

    /// RGBA in [0, 1] of the texel in column `i`, row `j`, each clamped to the edge.
    pub fn texel(&self, i: u32, j: u32) -> [f32; 4] {
        let (i, j) = (i.min(self.width - 1), j.min(self.height - 1));
        self.texel_in_range(i as usize, j as usize)
    }

    /// The texel at column `i < width`, row `j < height` (already clamped by the
    /// caller; an index past the end would panic on the slice, never read out of
    /// bounds).
    #[inline(always)]
    fn texel_in_range(&self, i: usize, j: usize) -> [f32; 4] {
        let texel = self.texels[j * self.width as usize + i];
        texel.map(|c| c as f32 / 255.0)
    }
}

/// `clamp(floor(coord·size) + offset, 0, size−1)`. The float-to-int cast saturates
/// (NaN gives 0), so no coordinate or offset can index out of range.
#[inline(always)]
fn nearest_clamped(coord: f32, size: u32, offset: i32) -> usize {
    let index = ((coord * size as f32).floor() as i64).saturating_add(offset as i64);
    index.clamp(0, size as i64 - 1) as usize
}

impl Samplers for NearestClampTexture {
    /// Every slot reads this one texture.
    fn sample(&self, _slot: usize, s: f32, t: f32) -> [f32; 4] {
        NearestClampTexture::sample(self, s, t)
    }

    /// Every slot reads this one texture.
    fn sample_offset(&self, _slot: usize, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4] {
        NearestClampTexture::sample_offset(self, s, t, offset)
    }

    /// Every slot has this texture's size.
    fn size(&self, _slot: usize) -> [u32; 2] {
        [self.width, self.height]
    }

    /// Every slot has this texture's texels.
    fn texel(&self, _slot: usize, i: u32, j: u32) -> [f32; 4] {
        NearestClampTexture::texel(self, i, j)
    }
}

impl Samplers for Vec<NearestClampTexture> {
    /// Slot `k` reads element `k`; slots past the end read (0, 0, 0, 0).
    fn sample(&self, slot: usize, s: f32, t: f32) -> [f32; 4] {
        self.get(slot).map_or([0.0; 4], |tex| tex.sample(s, t))
    }

    /// Slot `k` reads element `k`; slots past the end read (0, 0, 0, 0).
    fn sample_offset(&self, slot: usize, s: f32, t: f32, offset: [i32; 2]) -> [f32; 4] {
        self.get(slot)
            .map_or([0.0; 4], |tex| tex.sample_offset(s, t, offset))
    }

    /// Element `k`'s size; 0×0 past the end.
    fn size(&self, slot: usize) -> [u32; 2] {
        self.get(slot).map_or([0, 0], |tex| [tex.width, tex.height])
    }

    /// Element `k`'s texel; (0, 0, 0, 0) past the end.
    fn texel(&self, slot: usize, i: u32, j: u32) -> [f32; 4] {
        self.get(slot).map_or([0.0; 4], |tex| tex.texel(i, j))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2×2: row 0 (t < 0.5) red, green; row 1 blue, white.
    fn quad() -> NearestClampTexture {
        #[rustfmt::skip]
        let bytes = [
            255, 0, 0, 255,    0, 255, 0, 255,
            0, 0, 255, 255,    255, 255, 255, 128,
        ];
        NearestClampTexture::new(2, 2, &bytes).unwrap()
    }

    const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];

    #[test]
    fn level_0_has_the_texture_size_and_other_levels_are_empty() {
        let textures = vec![quad(), NearestClampTexture::solid([0; 4])];
        assert_eq!(texture_size(&textures, 0, 0), [2, 2]);
        assert_eq!(texture_size(&textures, 1, 0), [1, 1]);
        assert_eq!(texture_size(&textures, 0, 1), [0, 0]);
        assert_eq!(texture_size(&textures, 0, (-1i32) as u32), [0, 0]);
        assert_eq!(texture_size(&textures, 2, 0), [0, 0]);
        assert_eq!(texture_size(&NoSamplers, 0, 0), [0, 0]);
        assert_eq!(texture_size(&quad(), 5, 0), [2, 2]);
    }

    /// The default `sample_groups`: the lanes of `lanes` get `sample`'s texel, the
    /// others (and a 9th group, which `lanes` has no byte for) keep their value.
    #[test]
    fn sample_groups_samples_the_running_lanes_of_each_group() {
        let textures = vec![quad()];
        let s: Vec<f32x8> = (0..9)
            .map(|g| f32x8::splat(0.25 + 0.5 * (g % 2) as f32))
            .collect();
        let t = vec![f32x8::splat(0.25); 9];
        let old = f32x8::splat(-3.0);
        let out: [Vec<Cell<f32x8>>; 4] = std::array::from_fn(|_| vec![Cell::new(old); 9]);
        let lanes = 0x8000_0000_0000_00ff_u64 | 0b1010 << 8;
        textures.sample_groups(0, &s, &t, lanes, out.each_ref().map(|c| &c[..]));
        let groups = (0..9).map(|g| (g, out.each_ref().map(|c| c[g].get().to_array())));
        for (g, rgba) in groups {
            let texel = if g % 2 == 0 { RED } else { GREEN };
            for i in 0..8 {
                let on = g < 8 && lanes >> (8 * g + i) & 1 != 0;
                let got = rgba.map(|c| c[i]);
                assert_eq!(
                    got,
                    if on { texel } else { [-3.0; 4] },
                    "group {g} lane {i}"
                );
            }
        }
    }

    #[test]
    fn texel_fetch_reads_level_0_by_index_and_gives_zero_outside_it() {
        let textures = vec![quad()];
        let at =
            |x: i32, y: i32, lod: i32| texel_fetch(&textures, 0, [x as u32, y as u32], lod as u32);
        assert_eq!(at(0, 0, 0), RED);
        assert_eq!(at(1, 0, 0), GREEN);
        assert_eq!(at(0, 1, 0), BLUE);
        assert_eq!(at(1, 1, 0), [1.0, 1.0, 1.0, 128.0 / 255.0]);
        for (x, y) in [
            (2, 0),
            (0, 2),
            (-1, 0),
            (0, -1),
            (i32::MIN, 0),
            (i32::MAX, 1),
        ] {
            assert_eq!(at(x, y, 0), [0.0; 4], "index ({x}, {y})");
        }
        assert_eq!(at(0, 0, 1), [0.0; 4]);
        assert_eq!(at(0, 0, -1), [0.0; 4]);
        assert_eq!(texel_fetch(&textures, 1, [0, 0], 0), [0.0; 4]);
        assert_eq!(texel_fetch(&NoSamplers, 0, [0, 0], 0), [0.0; 4]);
    }
    const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
    const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

    #[test]
    fn texel_centres_and_row_zero_at_t_zero() {
        let tex = quad();
        assert_eq!(tex.sample(0.25, 0.25), RED);
        assert_eq!(tex.sample(0.75, 0.25), GREEN);
        assert_eq!(tex.sample(0.25, 0.75), BLUE);
        assert_eq!(tex.sample(0.75, 0.75), [1.0, 1.0, 1.0, 128.0 / 255.0]);
    }

    #[test]
    fn edges_follow_floor_and_clamp() {
        let tex = quad();
        // s = 0.5 is the left edge of texel 1; just below it is texel 0.
        assert_eq!(tex.sample(0.5, 0.0), GREEN);
        assert_eq!(tex.sample(0.499_999_97, 0.0), RED);
        // s = 1.0 and t = 1.0 clamp to the last texel.
        assert_eq!(tex.sample(1.0, 0.0), GREEN);
        assert_eq!(tex.sample(0.0, 1.0), BLUE);
        assert_eq!(tex.sample(-0.3, 0.2), RED);
        assert_eq!(tex.sample(7.0, -2.0), GREEN);
    }

    #[test]
    fn never_panics_on_odd_coordinates() {
        let tex = quad();
        let odd = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            1e30,
            -0.0,
        ];
        for &s in &odd {
            for &t in &odd {
                let c = tex.sample(s, t);
                assert!(c.iter().all(|v| (0.0..=1.0).contains(v)));
            }
        }
        assert_eq!(tex.sample(f32::NAN, f32::NAN), RED);
        assert_eq!(tex.sample(f32::INFINITY, f32::NEG_INFINITY), GREEN);
    }

    #[test]
    fn slots_pick_their_own_texture() {
        let set = vec![quad(), NearestClampTexture::solid([0, 0, 255, 0])];
        assert_eq!(set.sample(0, 0.1, 0.1), RED);
        assert_eq!(set.sample(1, 0.1, 0.1), [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(set.sample(2, 0.1, 0.1), [0.0; 4]);
        assert_eq!(NoSamplers.sample(0, 0.5, 0.5), [0.0; 4]);
    }

    #[test]
    fn size_errors() {
        assert_eq!(
            NearestClampTexture::new(0, 2, &[]),
            Err(TextureSizeError::Empty {
                width: 0,
                height: 2
            })
        );
        assert!(matches!(
            NearestClampTexture::new(2, 2, &[0; 15]),
            Err(TextureSizeError::Size { len: 15, .. })
        ));
    }
}
