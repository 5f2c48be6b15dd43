//! Eight sample points at a time: [`Texture::sample_group`], the batch interpreter's
//! texture lookup (`csir::exec::Samplers::sample_group`).
//!
//! The wrap, the texel addresses and the bilinear weights and blend are computed for a
//! group of 8 lanes in `f32x8`/`i32x8`; only the texel loads (the gathers) are scalar.
//! The 8-bit bilinear blend runs on two channels per 32-bit lane, in 16-bit fields
//! (`PairWeights::lerp`), as llvmpipe blends in 16-bit lanes: the same integers.
//! A SAMPLE step's groups are sampled in two passes, all addressing first, then all
//! texel reads (`Texture::sample_groups_in_passes`).
//! Every lane gets exactly the bits [`Texture::sample`] gives it (`sampler.rs` is the
//! definition): the same f32 operations in the same order (Rust never fuses a
//! multiply and an add), integers where it uses integers. Where `sample` relies on a
//! 64-bit saturating conversion (a coordinate so large, infinite or NaN that
//! `s · width · 256` leaves ±2^30) the group falls back to `sample` lane by lane, so
//! the vector code only ever sees values that convert to `i32` exactly.

use super::Texture;
use super::sampler::{BELOW_ONE, Filter, Sampler, Wrap};
use std::cell::Cell;
use wide::bytemuck::cast;
use wide::{f32x8, i8x32, i16x16, i32x8, u8x32, u16x16, u32x8};

/// Lanes in one group: one `f32x8`.
pub(crate) const GROUP: usize = 8;

/// Largest |coordinate · scale| the vector path takes: far inside `i32`, so every
/// floor, round and truncation converts exactly and `+ 1` cannot overflow.
const LIMIT: f32 = (1 << 30) as f32;

/// Texels per row of [`Texture::gather_window`]'s window: one `i32x8`.
const WINDOW: usize = GROUP;

/// One filter's vector path for a group of 8 lanes, split in the two steps that
/// [`Texture::sample_groups`] runs as two passes over the groups. `texels` after
/// `address` gives every lane [`Texture::sample`]'s bits.
trait GroupFilter {
    /// Everything the texel reads need: the taps per axis and the weights.
    type Address: Default;
    /// The group's addressing from its coordinates `s`, `t` (texture space, 0..1 is
    /// the texture; `None`: a coordinate out of the vector path's range, see the
    /// module docs).
    fn address(&self, texture: &Texture, s: f32x8, t: f32x8) -> Option<Self::Address>;
    /// The group's RGBA (components 0..=1 per lane) from its addressing.
    fn texels(&self, texture: &Texture, address: &Self::Address) -> [f32x8; 4];
}

/// `GL_NEAREST` with a wrap mode: one texel per lane (`nearest_index`), converted as
/// `unorm8_to_f32`.
struct Nearest(Wrap);

impl GroupFilter for Nearest {
    type Address = (Taps, Taps);

    #[inline(always)]
    fn address(&self, texture: &Texture, s: f32x8, t: f32x8) -> Option<(Taps, Taps)> {
        let i = nearest_axis(s, texture.width(), self.0)?;
        let j = nearest_axis(t, texture.height(), self.0)?;
        Some((i, j))
    }

    #[inline(always)]
    fn texels(&self, texture: &Texture, (i, j): &(Taps, Taps)) -> [f32x8; 4] {
        let texels = texture.gather(i.i0, j.i0);
        std::array::from_fn(|c| unorm8(channel(texels, c)))
    }
}

/// `GL_LINEAR` with `clamp` or `repeat`: llvmpipe's 8.8 fixed-point taps and 8-bit
/// lerps (`fixed_linear_taps`, `lerp_unorm8`).
struct FixedLinear(Wrap);

impl GroupFilter for FixedLinear {
    /// Columns and their weights, rows and theirs (the weight, 0..=255 in 1/256
    /// units, is each lane's low byte; the bytes above it are not part of it).
    type Address = (Taps, i32x8, Taps, i32x8);

    #[inline(always)]
    fn address(&self, texture: &Texture, s: f32x8, t: f32x8) -> Option<Self::Address> {
        let (i, a) = fixed_linear_axis(s, texture.width(), self.0)?;
        let (j, b) = fixed_linear_axis(t, texture.height(), self.0)?;
        Some((i, a, j, b))
    }

    #[inline(always)]
    fn texels(&self, texture: &Texture, (i, a, j, b): &Self::Address) -> [f32x8; 4] {
        let steps = Steps::known_inside(self.0 == Wrap::Repeat);
        let [t00, t10, t01, t11] = texture.gather_bilinear(i, j, steps);
        let (a, b) = (PairWeights::new(*a), PairWeights::new(*b));
        // The bytes of each texel word as two pairs of 16-bit fields, (R, B) and
        // (G, A), blended two channels per 32-bit lane.
        let bilinear = |pair: fn(i32x8) -> u16x16| {
            let row0 = a.lerp(pair(t00), pair(t10));
            let row1 = a.lerp(pair(t01), pair(t11));
            cast::<u16x16, i32x8>(b.lerp(row0, row1))
        };
        let (rb, ga) = (bilinear(even_bytes), bilinear(odd_bytes));
        let low = i32x8::splat(0xffff);
        [rb & low, ga & low, rb >> 16_u32, ga >> 16_u32].map(unorm8)
    }
}

/// `GL_LINEAR` with `mirror`: f32 weights and lerps (`mirror_linear_taps`).
struct MirrorLinear;

impl GroupFilter for MirrorLinear {
    /// Columns and their weights, rows and theirs (f32 fractions in 0..1).
    type Address = (Taps, f32x8, Taps, f32x8);

    #[inline(always)]
    fn address(&self, texture: &Texture, s: f32x8, t: f32x8) -> Option<Self::Address> {
        let (i, a) = mirror_linear_axis(s, texture.width())?;
        let (j, b) = mirror_linear_axis(t, texture.height())?;
        Some((i, a, j, b))
    }

    #[inline(always)]
    fn texels(&self, texture: &Texture, (i, a, j, b): &Self::Address) -> [f32x8; 4] {
        let [t00, t10, t01, t11] = texture.gather_bilinear(i, j, Steps::Checked);
        std::array::from_fn(|c| {
            let [t00, t10, t01, t11] = [t00, t10, t01, t11].map(|t| unorm8(channel(t, c)));
            let row0 = t00 + *a * (t10 - t00);
            let row1 = t01 + *a * (t11 - t01);
            row0 + *b * (row1 - row0)
        })
    }
}

/// What [`Texture::gather_window`] may assume of the second taps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Steps {
    /// Nothing: it checks `i1 = i0 + 1` and `j1 = j0 + 1` in every lane (clamp and
    /// mirror: a clamped `i0 = 0` may stand for `⌊u⌋ = −1`, whose `i1` is 0 too).
    Checked,
    /// `i1 = i0 + 1` wherever `i0 < size − 1`, and the same for `j` (repeat: the
    /// second tap wraps to 0 only after the last texel). Every window's fit check
    /// keeps each lane's `i0` at most `width − 2` and `j0` at most `height − 2`, so
    /// every tap it reads is then a step away, with no check of its own.
    Inside,
}

impl Steps {
    /// [`Steps::Inside`] when `inside`, else [`Steps::Checked`].
    fn known_inside(inside: bool) -> Self {
        if inside { Self::Inside } else { Self::Checked }
    }
}

/// One axis of a group's nearest or bilinear addressing.
#[derive(Default)]
struct Taps {
    /// First texel index per lane (`0..size`).
    i0: i32x8,
    /// Second texel index per lane (bilinear only; `i0` for nearest).
    i1: i32x8,
}

impl Texture {
    /// [`sample`](Self::sample) for up to 8 points: for every bit `i` set in `lanes`,
    /// `out[c][i]` ← component `c` of `self.sample(sampler, s[i], t[i])`, bit for bit;
    /// lanes whose bit is clear keep what `out` held (their `s` and `t` may be
    /// anything, NaN included).
    ///
    /// Addresses, wraps and weights are computed for all lanes together; a group with a
    /// coordinate outside the vector path's range (module docs) is sampled lane by lane.
    pub fn sample_group(
        &self,
        sampler: Sampler,
        s: &[f32; GROUP],
        t: &[f32; GROUP],
        lanes: u8,
        out: &mut [[f32; GROUP]; 4],
    ) {
        if lanes == 0 {
            return;
        }
        // Inactive lanes sample (0, 0), which is in range, and are not written.
        let keep = |v: &[f32; GROUP]| {
            if lanes == u8::MAX {
                return f32x8::new(*v);
            }
            f32x8::new(std::array::from_fn(|i| {
                if lanes >> i & 1 != 0 { v[i] } else { 0.0 }
            }))
        };
        let (sv, tv) = (keep(s), keep(t));
        let rgba = self.rgba_group(sampler, sv, tv);
        match rgba {
            Some(rgba) if lanes == u8::MAX => *out = rgba.map(f32x8::to_array),
            Some(rgba) => {
                let rgba = rgba.map(f32x8::to_array);
                for i in (0..GROUP).filter(|i| lanes >> i & 1 != 0) {
                    for c in 0..4 {
                        out[c][i] = rgba[c][i];
                    }
                }
            }
            None => {
                for i in (0..GROUP).filter(|i| lanes >> i & 1 != 0) {
                    let texel = self.sample(sampler, s[i], t[i]);
                    for c in 0..4 {
                        out[c][i] = texel[c];
                    }
                }
            }
        }
    }

    /// [`sample_group`](Self::sample_group) for the groups of one SAMPLE step (the
    /// contract of `csir::exec::Samplers::sample_groups`): group `g` takes the lanes
    /// of byte `g` of `lanes`; `out[c][g]` gets component `c`, lanes outside `lanes`
    /// keep their value. A full group in the vector path's range is written straight
    /// into `out`; the others go through `sample_group`.
    ///
    /// At most 8 groups are sampled (the batch interpreter's chunks have 1–8):
    /// `lanes` has no byte for a 9th, so groups from the 9th on are left alone, as in
    /// the trait's default.
    #[inline(never)]
    pub fn sample_groups(
        &self,
        sampler: Sampler,
        s: &[f32x8],
        t: &[f32x8],
        lanes: u64,
        out: [&[Cell<f32x8>]; 4],
    ) {
        match (sampler.mag_filter, sampler.wrap) {
            (Filter::Nearest, wrap) => {
                self.sample_groups_in_passes(&Nearest(wrap), sampler, s, t, lanes, out)
            }
            (Filter::Linear, Wrap::Mirror) => {
                self.sample_groups_in_passes(&MirrorLinear, sampler, s, t, lanes, out);
            }
            (Filter::Linear, wrap) => {
                self.sample_groups_in_passes(&FixedLinear(wrap), sampler, s, t, lanes, out)
            }
        }
    }

    /// [`sample_groups`](Self::sample_groups) with `filter`, `sampler`'s vector path,
    /// in two passes over the groups: every full group's addressing
    /// ([`GroupFilter::address`]) first, then every group's texel reads and blend
    /// ([`GroupFilter::texels`]); partial groups and groups out of the vector path's
    /// range go through [`sample_group`](Self::sample_group) in the second pass.
    ///
    /// The groups are independent, but one group's sample is a long chain of
    /// dependent operations (scale, round, wrap, window origin, loads, lerps), and
    /// group after group the processor could not reach far enough ahead to overlap
    /// one chain with the next. In two passes each pass's chains are short and side
    /// by side: the same instructions, 10 % less time on the 4-tap frame
    /// (`benches/HISTORY.md`, "2026-12-03 night").
    #[inline(always)]
    fn sample_groups_in_passes<F: GroupFilter>(
        &self,
        filter: &F,
        sampler: Sampler,
        s: &[f32x8],
        t: &[f32x8],
        lanes: u64,
        out: [&[Cell<f32x8>]; 4],
    ) {
        let groups = s.len().min(t.len()).min(8);
        let (s, t) = (&s[..groups], &t[..groups]);
        let out = out.map(|c| &c[..groups]);
        let group_lanes = |g: usize| (lanes >> (g * GROUP) & 0xff) as u8;
        let mut addresses: [Option<F::Address>; 8] = Default::default();
        for (g, (&sv, &tv)) in s.iter().zip(t).enumerate() {
            if group_lanes(g) == u8::MAX {
                addresses[g] = filter.address(self, sv, tv);
            }
        }
        for (g, address) in addresses.iter().enumerate().take(groups) {
            let group = group_lanes(g);
            if let Some(address) = address {
                for (c, v) in out.iter().zip(filter.texels(self, address)) {
                    c[g].set(v);
                }
                continue;
            }
            if group == 0 {
                continue;
            }
            let mut texels: [[f32; GROUP]; 4] = std::array::from_fn(|c| out[c][g].get().to_array());
            self.sample_group(
                sampler,
                &s[g].to_array(),
                &t[g].to_array(),
                group,
                &mut texels,
            );
            for (c, v) in out.iter().zip(texels) {
                c[g].set(f32x8::new(v));
            }
        }
    }

    /// The vector path of every lane (`None`: a coordinate out of its range).
    #[inline(always)]
    fn rgba_group(&self, sampler: Sampler, s: f32x8, t: f32x8) -> Option<[f32x8; 4]> {
        fn one<F: GroupFilter>(
            filter: F,
            texture: &Texture,
            s: f32x8,
            t: f32x8,
        ) -> Option<[f32x8; 4]> {
            let address = filter.address(texture, s, t)?;
            Some(filter.texels(texture, &address))
        }
        match (sampler.mag_filter, sampler.wrap) {
            (Filter::Nearest, wrap) => one(Nearest(wrap), self, s, t),
            (Filter::Linear, Wrap::Mirror) => one(MirrorLinear, self, s, t),
            (Filter::Linear, wrap) => one(FixedLinear(wrap), self, s, t),
        }
    }

    /// The four bilinear taps per lane: `(i0, j0)`, `(i1, j0)`, `(i0, j1)`, `(i1, j1)`.
    ///
    /// A group's lanes are two 2×2 quads side by side, so when the texture is not
    /// minified much their taps usually lie in a window of 8 texels by 3 rows: then
    /// [`gather_window`](Self::gather_window) reads the window with 3 vector loads
    /// and picks each lane's taps with permutes instead of 32 scalar loads.
    #[inline(always)]
    fn gather_bilinear(&self, i: &Taps, j: &Taps, steps: Steps) -> [i32x8; 4] {
        if let Some(taps) = self.gather_window(i, j, steps) {
            return taps;
        }
        self.gather_taps(i, j)
    }

    /// [`gather_bilinear`](Self::gather_bilinear)'s taps with one scalar load per
    /// lane and tap. Out of line: inlined, its lane-by-lane inserts made the compiler
    /// keep all four taps of both paths in a rotated lane order, about 25 shuffles
    /// per group on the window path, which the 4-tap bench takes for most groups.
    #[inline(never)]
    fn gather_taps(&self, i: &Taps, j: &Taps) -> [i32x8; 4] {
        [
            self.gather(i.i0, j.i0),
            self.gather(i.i1, j.i0),
            self.gather(i.i0, j.i1),
            self.gather(i.i1, j.i1),
        ]
    }

    /// [`gather_bilinear`](Self::gather_bilinear)'s taps from the window of
    /// `WINDOW` texels by 3 rows whose first texel is the group's smallest `(i0, j0)`,
    /// or `None` when some lane's taps are not in it: a lane wraps or clamps
    /// (`i1 ≠ i0 + 1` or `j1 ≠ j0 + 1`), the lanes are more than `WINDOW − 1`
    /// texels apart across or two rows apart, or the window would leave the texture.
    /// The texels are the ones the scalar loads would read, so the bits are the same.
    /// A group whose lanes all have the same `j0` reads two rows instead
    /// ([`gather_row_pair`](Self::gather_row_pair)).
    #[inline(always)]
    fn gather_window(&self, i: &Taps, j: &Taps, steps: Steps) -> Option<[i32x8; 4]> {
        let one = i32x8::splat(1);
        if steps == Steps::Checked
            && !((i.i1 - i.i0).simd_eq(one) & (j.i1 - j.i0).simd_eq(one)).all()
        {
            return None;
        }
        let min = |v: i32x8| v.to_array().into_iter().min().unwrap_or(0);
        let first_row = j.i0.to_array()[0];
        if j.i0.simd_eq(i32x8::splat(first_row)).all() {
            return self.gather_row_pair(i, first_row);
        }
        let (left, bottom) = (min(i.i0), min(j.i0));
        let (column, row) = (i.i0 - i32x8::splat(left), j.i0 - i32x8::splat(bottom));
        let fits = column.simd_lt(i32x8::splat(WINDOW as i32 - 1)) & row.simd_lt(i32x8::splat(2));
        let (left, bottom) = (left as usize, bottom as usize);
        let width = self.width() as usize;
        if !fits.all() || left + WINDOW > width || bottom + 3 > self.height() as usize {
            return None;
        }
        // One bounds check for the three rows: `bottom + 3 ≤ height` and
        // `left + WINDOW ≤ width` put the block inside the texels.
        let at = bottom * width + left;
        let block = self.texels().get(at..at + 2 * width + WINDOW)?;
        let (middle, top) = block.split_at(width).1.split_at(width);
        let rows = [block, middle, top].map(texel_row);
        let (first, second): (u32x8, u32x8) = (cast(column), cast(column + one));
        let upper = row.simd_eq(one);
        let pick = |r: usize, at: u32x8| -> i32x8 {
            upper.select(cast(rows[r + 1].shuffle(at)), cast(rows[r].shuffle(at)))
        };
        Some([
            pick(0, first),
            pick(0, second),
            pick(1, first),
            pick(1, second),
        ])
    }

    /// [`gather_window`](Self::gather_window) for a group whose lanes all read rows
    /// `row` and `row + 1` (the steps already checked): two rows of `WINDOW` texels
    /// from the smaller of the first and the last lane's `i0`, and no per-lane row
    /// choice; `None` when some lane's taps are not in them.
    ///
    /// A whole 8×8 block's groups are its pixel rows, so an unrotated texture gives
    /// each group one texel row, and its columns run monotonically from the first
    /// lane to the last: the window's origin is one scalar `min` of the two end lanes
    /// instead of a reduction over all eight (whose latency sits in front of every
    /// load of the group). A lane left of the origin or too far right fails the check
    /// and the group takes the scalar gather (`gather_taps`), so the origin's
    /// choice changes the speed only, never the texels read.
    #[inline(always)]
    fn gather_row_pair(&self, i: &Taps, row: i32) -> Option<[i32x8; 4]> {
        let lanes = i.i0.to_array();
        let left = lanes[0].min(lanes[GROUP - 1]);
        let column = i.i0 - i32x8::splat(left);
        let outside = column.simd_lt(i32x8::ZERO) | column.simd_gt(i32x8::splat(WINDOW as i32 - 2));
        let (left, row) = (left as usize, row as usize);
        let width = self.width() as usize;
        if outside.any() || left + WINDOW > width || row + 2 > self.height() as usize {
            return None;
        }
        // One bounds check for both rows (`row + 2 ≤ height`, `left + WINDOW ≤ width`).
        let at = row * width + left;
        let block = self.texels().get(at..at + width + WINDOW)?;
        let rows = [block, &block[width..]].map(texel_row);
        let (first, second): (u32x8, u32x8) = (cast(column), cast(column + i32x8::splat(1)));
        Some([
            cast(rows[0].shuffle(first)),
            cast(rows[0].shuffle(second)),
            cast(rows[1].shuffle(first)),
            cast(rows[1].shuffle(second)),
        ])
    }

    /// The texels at `(i, j)` per lane (indexes already in range), as little-endian
    /// RGBA words: the scalar part, one load per lane.
    #[inline(always)]
    fn gather(&self, i: i32x8, j: i32x8) -> i32x8 {
        let (i, j) = (i.to_array(), j.to_array());
        let width = self.width() as usize;
        let texels = self.texels();
        i32x8::new(std::array::from_fn(|k| {
            i32::from_le_bytes(texels[j[k] as usize * width + i[k] as usize])
        }))
    }
}

/// The first `WINDOW` texels of `row` (at least that long) as little-endian RGBA
/// words.
#[inline(always)]
fn texel_row(row: &[[u8; 4]]) -> u32x8 {
    let row: &[[u8; 4]; WINDOW] = row.first_chunk().expect("a window row holds WINDOW texels");
    cast(*row)
}

/// Channel `c` (0 = R .. 3 = A) of RGBA words, 0..=255.
#[inline(always)]
fn channel(texels: i32x8, c: usize) -> i32x8 {
    (texels >> (8 * c as u32)) & i32x8::splat(0xff)
}

/// `f32::from(c) / 255.0` per lane.
#[inline(always)]
fn unorm8(c: i32x8) -> f32x8 {
    c.round_float() / f32x8::splat(255.0)
}

/// Bytes 0 and 2 (R and B) of each texel word, one per 16-bit field.
#[inline(always)]
fn even_bytes(texels: i32x8) -> u16x16 {
    cast(texels & i32x8::splat(0x00ff_00ff))
}

/// Bytes 1 and 3 (G and A) of each texel word, one per 16-bit field.
#[inline(always)]
fn odd_bytes(texels: i32x8) -> u16x16 {
    cast((texels >> 8_u32) & i32x8::splat(0x00ff_00ff))
}

/// One axis's bilinear weights (0..=255, in 1/256 units) repeated in both 16-bit
/// fields of each lane, for `lerp_unorm8` on two channels at once.
struct PairWeights {
    /// `w · 128` in both fields (0..=32640): `w / 256` as a signed 1.15 fixed-point
    /// fraction, the operand of `mul_scale_round`.
    w_q15: i16x16,
}

impl PairWeights {
    /// The weights in the low byte of each lane of `w` (the bytes above are
    /// ignored: `fixed_linear_axis` hands over its whole 8.8 value). One byte shuffle
    /// (`vpshufb`) puts the byte in the high half of both 16-bit fields (`w·256`,
    /// low byte zero) and a shift halves that to `w·128`: two operations instead of
    /// a mask and three shifts and ors.
    #[inline(always)]
    fn new(w: i32x8) -> Self {
        // Per 32-bit lane at byte 4k: [zero, byte 4k, zero, byte 4k]; a control byte
        // with its high bit set gives zero, and each 128-bit half indexes itself.
        const SPREAD: [i8; 32] = {
            let mut control = [-1i8; 32];
            let mut k = 0;
            while k < 32 {
                control[k + 1] = (k % 16) as i8;
                control[k + 3] = (k % 16) as i8;
                k += 4;
            }
            control
        };
        let w256: u16x16 = cast(cast::<i32x8, u8x32>(w).swizzle_half(i8x32::new(SPREAD)));
        Self {
            w_q15: cast(w256 >> 1_u32),
        }
    }

    /// `lerp_unorm8(w, a, b)` per 16-bit field (channel values 0..=255), computed as
    /// `a + mul_scale_round(b − a, w·128)`, three operations (`vpsubw`, `vpmulhrsw`,
    /// `vpaddw`). That is the same number: `lerp_unorm8` is
    /// `(a·(256 − w) + b·w + 128) >> 8 = a + ((w·(b − a) + 128) >> 8)` (`a·256` is a
    /// whole multiple of 256; `>>` rounds down), and `mul_scale_round(d, w·128)` is
    /// `(d·w·128 + 2^14) >> 15 = (128·(d·w + 128)) >> 15 = (d·w + 128) >> 8` with the
    /// same rounding. `d = b − a` is in −255..=255 and `w·128` in 0..=32640, so the
    /// product fits and the result is in −255..=255: the 16-bit fields never wrap and
    /// the two channels of a lane never mix (`pair_lerp_is_lerp_unorm8_for_every_input`
    /// checks every `w`, `a` and `b`). llvmpipe blends its 8-bit texels in 16-bit lanes
    /// too.
    #[inline(always)]
    fn lerp(&self, a: u16x16, b: u16x16) -> u16x16 {
        let (a, b): (i16x16, i16x16) = (cast(a), cast(b));
        cast(a + (b - a).mul_scale_round(self.w_q15))
    }
}

/// `Some(v)` when every lane's |v| is below [`LIMIT`] (false for NaN and ±∞).
///
/// After this check the axis functions convert with `fast_trunc_int` (one
/// `vcvttps2dq`): every value they convert is finite, below 2^30 in magnitude and
/// already whole or in `0..size`, so truncation is exact and `trunc_int`'s NaN and
/// overflow fix-ups (four more operations per conversion) have nothing to fix.
#[inline(always)]
fn in_range(v: f32x8) -> Option<f32x8> {
    v.abs().simd_lt(f32x8::splat(LIMIT)).all().then_some(v)
}

/// `index` clamped to `0..size`.
#[inline(always)]
fn clamp_index(index: i32x8, size: u32) -> i32x8 {
    index.max(i32x8::ZERO).min(i32x8::splat(size as i32 - 1))
}

/// `repeat_fraction`: `s − ⌊s⌋` kept below 1 (for finite `s`).
#[inline(always)]
fn repeat_fraction(s: f32x8) -> f32x8 {
    (s - s.floor()).min(f32x8::splat(BELOW_ONE))
}

/// `mirror_fraction`: `|2·(s/2 − round(s/2))|` (for finite `s`).
#[inline(always)]
fn mirror_fraction(s: f32x8) -> f32x8 {
    let half = s * f32x8::splat(0.5);
    let f = half - half.round_ties_even();
    (f + f).abs()
}

/// `nearest_index` with no offset.
#[inline(always)]
fn nearest_axis(s: f32x8, size: u32, wrap: Wrap) -> Option<Taps> {
    let size_f = f32x8::splat(size as f32);
    in_range(s * size_f)?;
    let i = match wrap {
        Wrap::Clamp => clamp_index((s * size_f).floor().fast_trunc_int(), size),
        Wrap::Repeat if size.is_power_of_two() => {
            (s * size_f).floor().fast_trunc_int() & i32x8::splat(size as i32 - 1)
        }
        Wrap::Repeat => clamp_index((repeat_fraction(s) * size_f).fast_trunc_int(), size),
        Wrap::Mirror => clamp_index((mirror_fraction(s) * size_f).fast_trunc_int(), size),
    };
    Some(Taps { i0: i, i1: i })
}

/// `fixed_linear_taps` with no offset: the two taps and the second's weight in
/// 1/256 units, in the low byte of each lane (the 8.8 value itself: the bytes above
/// are the tap, which [`PairWeights::new`] ignores).
#[inline(always)]
fn fixed_linear_axis(s: f32x8, size: u32, wrap: Wrap) -> Option<(Taps, i32x8)> {
    let scale = f32x8::splat(size as f32 * 256.0);
    in_range(s * scale)?;
    let to_fixed = |x: f32x8| (x * scale).round_ties_even().fast_trunc_int() - i32x8::splat(128);
    let last = i32x8::splat(size as i32 - 1);
    let one = i32x8::splat(1);
    Some(match wrap {
        Wrap::Repeat if !size.is_power_of_two() => {
            let fixed = to_fixed(repeat_fraction(s));
            let i0: i32x8 = fixed >> 8_u32;
            let i0 = i0.simd_lt(i32x8::ZERO).select(last, i0).min(last);
            let i1 = i0.simd_eq(last).select(i32x8::ZERO, i0 + one);
            (Taps { i0, i1 }, fixed)
        }
        Wrap::Repeat => {
            let fixed = to_fixed(s);
            let mask = i32x8::splat(size as i32 - 1);
            let i0: i32x8 = fixed >> 8_u32;
            (
                Taps {
                    i0: i0 & mask,
                    i1: (i0 + one) & mask,
                },
                fixed,
            )
        }
        Wrap::Clamp | Wrap::Mirror => {
            let fixed = to_fixed(s);
            let i0: i32x8 = fixed >> 8_u32;
            (
                Taps {
                    i0: clamp_index(i0, size),
                    i1: clamp_index(i0 + one, size),
                },
                fixed,
            )
        }
    })
}

/// `mirror_linear_taps`: the two taps and the second's f32 weight.
#[inline(always)]
fn mirror_linear_axis(s: f32x8, size: u32) -> Option<(Taps, f32x8)> {
    let size_f = f32x8::splat(size as f32);
    in_range(s * size_f)?;
    let u = mirror_fraction(s) * size_f - f32x8::splat(0.5);
    let floor = u.floor();
    let i0 = floor.fast_trunc_int();
    Some((
        Taps {
            i0: clamp_index(i0, size),
            i1: clamp_index(i0 + i32x8::splat(1), size),
        },
        u - floor,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A `width × height` texture whose texels all differ in every channel.
    fn texture(width: u32, height: u32) -> Texture {
        let texels = (0..width * height)
            .map(|k| {
                let k = k.wrapping_mul(2_654_435_761);
                [k as u8, (k >> 8) as u8, (k >> 16) as u8, (k >> 24) as u8]
            })
            .collect();
        Texture::from_texels(width, height, texels).unwrap()
    }

    const SAMPLERS: [Sampler; 6] = {
        let f = [Filter::Nearest, Filter::Linear];
        let w = [Wrap::Clamp, Wrap::Repeat, Wrap::Mirror];
        [
            Sampler::new(f[0], w[0]),
            Sampler::new(f[0], w[1]),
            Sampler::new(f[0], w[2]),
            Sampler::new(f[1], w[0]),
            Sampler::new(f[1], w[1]),
            Sampler::new(f[1], w[2]),
        ]
    };

    /// `sample_group` against `sample`, bit for bit, lanes outside `lanes` untouched.
    fn check(tex: &Texture, sampler: Sampler, s: [f32; 8], t: [f32; 8], lanes: u8) {
        let mut out = [[-7.0f32; GROUP]; 4];
        tex.sample_group(sampler, &s, &t, lanes, &mut out);
        for i in 0..GROUP {
            let got = [0, 1, 2, 3].map(|c| out[c][i].to_bits());
            let want = if lanes >> i & 1 != 0 {
                tex.sample(sampler, s[i], t[i]).map(f32::to_bits)
            } else {
                [(-7.0f32).to_bits(); 4]
            };
            assert_eq!(got, want, "{sampler:?} lane {i}: s {} t {}", s[i], t[i]);
        }
    }

    /// Coordinates where the rules switch: texel edges and centres, the ends of the
    /// fixed-point range, the fallback's triggers.
    #[test]
    fn edge_coordinates_match_the_scalar_sampler() {
        let odd = [
            0.0,
            -0.0,
            0.5,
            1.0,
            -1.0,
            1.5,
            0.999_999_94,
            1.0 / 3.0,
            0.125,
            -0.125,
            2.0e-8,
            4096.0,
            -4096.0,
            3.0e5,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
        ];
        for (w, h) in [(1, 1), (4, 4), (5, 3), (64, 64), (7, 6), (1024, 2)] {
            let tex = texture(w, h);
            for sampler in SAMPLERS {
                for chunk in odd.chunks(4) {
                    let mut s = [0.25; 8];
                    let mut t = [0.75; 8];
                    for (k, &v) in chunk.iter().enumerate() {
                        s[k] = v;
                        t[7 - k] = v;
                    }
                    check(&tex, sampler, s, t, 0xff);
                    check(&tex, sampler, s, t, 0b1010_0101);
                }
                // texel edges and centres of both axes
                let s = std::array::from_fn(|k| k as f32 / w as f32);
                let t = std::array::from_fn(|k| (k as f32 + 0.5) / h as f32);
                check(&tex, sampler, s, t, 0xff);
            }
        }
    }

    /// In-range groups take the vector path (the comparisons above would also pass
    /// if every group fell back to `sample`); NaN, ±∞ and huge coordinates do not.
    #[test]
    fn in_range_groups_are_computed_as_vectors() {
        let tex = texture(64, 64);
        let s = f32x8::new([0.1, 0.9, -2.5, 3.75, 0.5, 0.0, 1.0, 7.0]);
        let t = f32x8::new([0.3; 8]);
        for wrap in [Wrap::Clamp, Wrap::Repeat, Wrap::Mirror] {
            assert!(Nearest(wrap).address(&tex, s, t).is_some(), "{wrap:?}");
            assert!(FixedLinear(wrap).address(&tex, s, t).is_some(), "{wrap:?}");
        }
        assert!(MirrorLinear.address(&tex, s, t).is_some());
        for odd in [f32::NAN, f32::INFINITY, 1.0e9] {
            let s = f32x8::new([0.1, 0.2, 0.3, odd, 0.5, 0.6, 0.7, 0.8]);
            assert!(Nearest(Wrap::Clamp).address(&tex, s, t).is_none(), "{odd}");
            assert!(
                FixedLinear(Wrap::Repeat).address(&tex, s, t).is_none(),
                "{odd}"
            );
            assert!(MirrorLinear.address(&tex, s, t).is_none(), "{odd}");
        }
    }

    /// `PairWeights::new` gives each lane `w·128` in both 16-bit fields, `w` the
    /// lane's low byte, whatever the bytes above it hold (negative 8.8 values too).
    #[test]
    fn pair_weights_take_each_lanes_low_byte() {
        for w in 0..256 {
            for high in [0, 1, 0x3ff, -1, -4096, i32::MIN >> 8] {
                let lanes: [i32; 8] = std::array::from_fn(|k| {
                    let w = (w + 37 * k as i32) & 0xff;
                    (high.wrapping_add(k as i32) << 8) | w
                });
                let got: [i16; 16] = PairWeights::new(i32x8::new(lanes)).w_q15.to_array();
                for (k, lane) in lanes.into_iter().enumerate() {
                    let want = ((lane & 0xff) * 128) as i16;
                    assert_eq!([got[2 * k], got[2 * k + 1]], [want, want], "{lane:#x}");
                }
            }
        }
    }

    /// `PairWeights::lerp` gives `lerp_unorm8`'s byte for every weight and every pair
    /// of channel values, in every field.
    #[test]
    fn pair_lerp_is_lerp_unorm8_for_every_input() {
        use crate::texture::sampler::lerp_unorm8;
        for w in 0..256 {
            let weights = PairWeights::new(i32x8::splat(w));
            for a in 0..=255u8 {
                for b0 in (0..256).step_by(16) {
                    let b = u16x16::new(std::array::from_fn(|k| (b0 + k) as u16));
                    let got = weights.lerp(u16x16::splat(a.into()), b).to_array();
                    for (k, got) in got.into_iter().enumerate() {
                        let want = lerp_unorm8(w, a, (b0 + k) as u8);
                        assert_eq!(got, u16::from(want), "w {w} a {a} b {}", b0 + k);
                    }
                }
            }
        }
    }

    /// Groups of nearby points (a magnified texture) take the window path, which
    /// gives the scalar sampler's bits; at the texture's edges (wrap, clamp, the
    /// window leaving the texture) and for points far apart it is not taken.
    #[test]
    fn nearby_points_are_gathered_from_one_window() {
        let linear = [Wrap::Clamp, Wrap::Repeat].map(|w| Sampler::new(Filter::Linear, w));
        for (w, h) in [(64, 64), (37, 23), (1024, 2), (9, 3)] {
            let tex = texture(w, h);
            let (wf, hf) = (w as f32, h as f32);
            for start in [0.0, 0.013, 0.5, 0.77, 0.97, 1.0, -0.2, 2.31] {
                // two rows of four lanes, half a texel apart, as two 2×2 quads
                let s = std::array::from_fn(|k| start + (k % 4) as f32 * 0.53 / wf);
                let t = std::array::from_fn(|k| start + (k / 4) as f32 * 0.95 / hf);
                for sampler in linear {
                    check(&tex, sampler, s, t, 0xff);
                    check(&tex, sampler, s, t, 0b0110_1001);
                }
            }
        }
        let tex = texture(64, 64);
        let window = |s: [f32; 8], t: [f32; 8]| {
            let (i, _) = fixed_linear_axis(f32x8::new(s), 64, Wrap::Repeat).unwrap();
            let (j, _) = fixed_linear_axis(f32x8::new(t), 64, Wrap::Repeat).unwrap();
            tex.gather_window(&i, &j, Steps::Checked).is_some()
        };
        let near = std::array::from_fn(|k| 0.3 + (k % 4) as f32 * 0.008);
        let rows = std::array::from_fn(|k| 0.6 + (k / 4) as f32 * 0.015);
        assert!(window(near, rows));
        let far = std::array::from_fn(|k| 0.3 + k as f32 * 0.05);
        assert!(!window(far, rows), "lanes 20 texels apart");
        let right_edge = near.map(|s| s + 0.69); // i0 = 63 wraps to i1 = 0
        assert!(!window(right_edge, rows));
        let top = rows.map(|t| t + 0.38); // the third row would be row 64
        assert!(!window(near, top));
    }

    /// A group on one texel row (a row of 8 pixels of a texture that is neither
    /// rotated nor minified much: a whole block's lanes) takes the two-row window,
    /// whose taps are the scalar gather's (`gather_taps`, the definition), in either
    /// direction along the row; it is not taken when the lanes span more than the
    /// window or the window would leave the texture.
    #[test]
    fn groups_on_one_texel_row_are_gathered_from_two_rows() {
        let tex = texture(64, 64);
        let taps = |s: [f32; 8], t: f32| {
            let (i, _) = fixed_linear_axis(f32x8::new(s), 64, Wrap::Repeat).unwrap();
            let (j, _) = fixed_linear_axis(f32x8::splat(t), 64, Wrap::Repeat).unwrap();
            (i, j)
        };
        for (start, step) in [(0.3, 0.008), (0.3, -0.008), (0.5, 0.0), (0.86, 0.01)] {
            for t in [0.02, 0.41, 0.95] {
                let s = std::array::from_fn(|k| start + k as f32 * step);
                let (i, j) = taps(s, t);
                for steps in [Steps::Checked, Steps::Inside] {
                    let window = tex.gather_window(&i, &j, steps).expect("one window");
                    let want = tex.gather_taps(&i, &j).map(i32x8::to_array);
                    assert_eq!(window.map(i32x8::to_array), want);
                }
                for wrap in [Wrap::Clamp, Wrap::Repeat] {
                    check(&tex, Sampler::new(Filter::Linear, wrap), s, [t; 8], 0xff);
                }
            }
        }
        // Lanes left of both ends (the origin) are not read from the window.
        let valley = std::array::from_fn(|k| 0.3 + (k as f32 - 3.5).abs() * 0.008);
        let (i, j) = taps(valley, 0.4);
        if let Some(window) = tex.gather_window(&i, &j, Steps::Checked) {
            assert_eq!(
                window.map(i32x8::to_array),
                tex.gather_taps(&i, &j).map(i32x8::to_array)
            );
        }
        check(
            &tex,
            Sampler::new(Filter::Linear, Wrap::Repeat),
            valley,
            [0.4; 8],
            0xff,
        );
        let far = std::array::from_fn(|k| 0.3 + k as f32 * 0.02); // 9 texels apart
        let (i, j) = taps(far, 0.4);
        assert!(tex.gather_window(&i, &j, Steps::Checked).is_none());
        let right_edge = std::array::from_fn(|k| 0.9 + k as f32 * 0.01); // i0 = 63
        let (i, j) = taps(right_edge, 0.4);
        assert!(tex.gather_window(&i, &j, Steps::Checked).is_none());
        let top = [0.3; 8]; // row 63: the second row would be row 64 (it wraps to 0)
        let (i, j) = taps(top, 0.999);
        assert!(tex.gather_window(&i, &j, Steps::Checked).is_none());
    }

    /// `sample_groups` against `sample` lane by lane: every lane of a group whose byte
    /// of `lanes` has its bit gets `sample`'s bits, every other lane (and every lane of
    /// a 9th or later group, which `lanes` has no byte for) keeps its value.
    fn check_groups(tex: &Texture, sampler: Sampler, s: &[f32x8], t: &[f32x8], lanes: u64) {
        let keep = |g: usize, i: usize, c: usize| (100 * g + 10 * i + c) as f32 - 0.5;
        let cells: [Vec<Cell<f32x8>>; 4] = std::array::from_fn(|c| {
            (0..s.len())
                .map(|g| Cell::new(f32x8::new(std::array::from_fn(|i| keep(g, i, c)))))
                .collect()
        });
        tex.sample_groups(sampler, s, t, lanes, cells.each_ref().map(|c| &c[..]));
        for g in 0..s.len() {
            let (sg, tg) = (s[g].to_array(), t[g].to_array());
            for i in 0..GROUP {
                let got = [0, 1, 2, 3].map(|c| cells[c][g].get().to_array()[i].to_bits());
                let want = if g < 8 && lanes >> (8 * g + i) & 1 != 0 {
                    tex.sample(sampler, sg[i], tg[i]).map(f32::to_bits)
                } else {
                    [0, 1, 2, 3].map(|c| keep(g, i, c).to_bits())
                };
                assert_eq!(
                    got, want,
                    "{sampler:?} group {g} lane {i}: s {} t {}",
                    sg[i], tg[i]
                );
            }
        }
    }

    /// Full, partial and empty groups in one call, the edge coordinates (0, −0,
    /// subnormal, ±∞, NaN, max, huge) in full groups (they take the lane-by-lane
    /// fallback) and in-range full groups (the vector path written straight out).
    #[test]
    fn sample_groups_matches_the_scalar_sampler_per_group() {
        let odd = [
            0.0,
            -0.0,
            1.0e-40,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MAX,
            3.0e9,
        ];
        for (w, h) in [(1, 1), (5, 3), (64, 64)] {
            let tex = texture(w, h);
            for sampler in SAMPLERS {
                let s = [
                    f32x8::new(odd),
                    f32x8::splat(0.3),
                    f32x8::new(std::array::from_fn(|k| 0.2 + k as f32 * 0.01)),
                    f32x8::new(odd),
                ];
                let t = [
                    f32x8::splat(0.7),
                    f32x8::new(odd),
                    f32x8::new(std::array::from_fn(|k| 0.6 + (k / 4) as f32 * 0.013)),
                    f32x8::new(odd),
                ];
                for lanes in [u64::MAX, 0xffff_ffff, 0x00ff_00ff, 0x8100_ff3c, 0] {
                    check_groups(&tex, sampler, &s, &t, lanes);
                    check_groups(&tex, sampler, &s[2..3], &t[2..3], lanes);
                }
                // Nine groups: the ninth has no byte in `lanes` and keeps its value.
                let nine = |v: &[f32x8; 4]| [&v[..], &v[..], &v[..1]].concat();
                check_groups(&tex, sampler, &nine(&s), &nine(&t), u64::MAX);
            }
        }
    }

    proptest! {
        #[test]
        fn sample_groups_match_the_scalar_sampler(
            w in 1u32..70,
            h in 1u32..70,
            which in 0usize..6,
            groups in 1usize..=8,
            s in prop::array::uniform8(prop::array::uniform8(-3.0f32..4.0)),
            t in prop::array::uniform8(prop::array::uniform8(-3.0f32..4.0)),
            lanes in any::<u64>(),
        ) {
            let (s, t) = (s.map(f32x8::new), t.map(f32x8::new));
            check_groups(&texture(w, h), SAMPLERS[which], &s[..groups], &t[..groups], lanes);
        }

        #[test]
        fn groups_match_the_scalar_sampler(
            w in 1u32..70,
            h in 1u32..70,
            which in 0usize..6,
            s in prop::array::uniform8(-3.0f32..4.0),
            t in prop::array::uniform8(-3.0f32..4.0),
            lanes in any::<u8>(),
        ) {
            check(&texture(w, h), SAMPLERS[which], s, t, lanes);
        }
    }
}
