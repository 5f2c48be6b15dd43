//! Colour conversion to RGBA8 and blending in RGBA8.
//!
//! Colour is stored as RGBA8 UNORM: `round(clamp(c, 0, 1) · 255)` (`scene-format.md`
//! "Conventions"; ties round to even, as llvmpipe's conversion does; NaN stores as 0).
//! Blending happens in the RGBA8 framebuffer in 8-bit fixed point, the way llvmpipe
//! blends a UNORM8 target: the fragment colour is converted first, then each product
//! `x·y/255` is rounded to nearest and the two terms are added with saturation.

use crate::batch::{LaneArray, MAX_LANES};
use crate::blend_func::mul_unorm8;
use crate::state::{BlendFunction, BlendMode};

/// Converts one colour channel to 8-bit unorm as the framebuffer stores it:
/// `round(clamp(c, 0, 1) · 255)` with ties to even; NaN gives 0. The one conversion
/// used for fragment colours, clear colours and (in csir-render) float texel data.
#[inline(always)]
pub fn to_unorm8(c: f32) -> u8 {
    unorm8_bits(c) as u8
}

/// [`to_unorm8`] as a `u32` in `0..=255`, written so that a loop over lanes vectorizes:
/// adding 2^23 to a value in [0, 255] rounds it to an integer (ties to even, the default
/// rounding) held in the low mantissa bits, which avoids a saturating float-to-int cast.
#[inline(always)]
pub(crate) fn unorm8_bits(c: f32) -> u32 {
    // `max` returns the other operand for NaN, so NaN stores as 0 (`clamp` keeps NaN).
    #[allow(clippy::manual_clamp)]
    let scaled = c.max(0.0).min(1.0) * 255.0;
    (scaled + 8_388_608.0).to_bits() & 0xff
}

/// One fragment's float colour `r, g, b, a` converted ([`unorm8_bits`]) and packed as
/// RGBA8 in a `u32` (bytes R, G, B, A in memory order, as `u32::from_le_bytes`).
#[inline(always)]
pub(crate) fn pack_unorm8(r: f32, g: f32, b: f32, a: f32) -> u32 {
    unorm8_bits(r) | unorm8_bits(g) << 8 | unorm8_bits(b) << 16 | unorm8_bits(a) << 24
}

/// Combines the converted fragment colour `src` with the stored `dst`.
#[inline(always)]
pub(crate) fn blend(mode: BlendMode, src: [u8; 4], dst: [u8; 4]) -> [u8; 4] {
    let mut out = src;
    match mode {
        BlendMode::Replace => {}
        BlendMode::Alpha => {
            let a = src[3];
            for i in 0..4 {
                out[i] = mul_unorm8(src[i], a).saturating_add(mul_unorm8(dst[i], 255 - a));
            }
        }
        BlendMode::Additive => {
            for i in 0..4 {
                out[i] = src[i].saturating_add(dst[i]);
            }
        }
        BlendMode::Function(f) => out = f.apply(src, dst),
    }
    out
}

/// [`blend`] with the RGBA8 second source colour `src1` that a
/// [`BlendMode::Function`]'s `src1_*` factors read (dual-source blending, GL 3.3
/// §4.1.8); the named modes do not read it.
#[inline]
pub(crate) fn blend_dual(mode: BlendMode, src: [u8; 4], src1: [u8; 4], dst: [u8; 4]) -> [u8; 4] {
    match mode {
        BlendMode::Function(f) => f.apply_dual(src, src1, dst),
        _ => blend(mode, src, dst),
    }
}

/// [`blend`] for every lane of a batch at once: `dst[lane]` becomes the blend of
/// `src[lane]` over it, both RGBA8 packed in a `u32` (bytes R, G, B, A in memory
/// order, as `u32::from_le_bytes`).
///
/// The same arithmetic as [`blend`] (`mul_unorm8`'s rounding, the saturating add), but
/// on whole `u32` lanes with no branches and no aliasing, so each mode is one loop
/// the compiler vectorizes across lanes (8 pixels per AVX2 register) instead of a
/// byte-wise call per pixel. All `MAX_LANES` lanes are blended; the caller writes back
/// only the lanes it owns.
pub(crate) fn blend_lanes(mode: BlendMode, src: &[u32; MAX_LANES], dst: &mut [u32; MAX_LANES]) {
    match mode {
        BlendMode::Replace => dst.copy_from_slice(src),
        BlendMode::Alpha => {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = alpha_packed(s, *d);
            }
        }
        BlendMode::Additive => {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = additive_packed(s, *d);
            }
        }
        BlendMode::Function(f) => function_lanes(&f, src, dst),
    }
}

/// [`pack_unorm8`] then [`blend_lanes`] for 8 fragments at once, in place: the float
/// colours of lanes `lane..lane + 8` of `color` (R, G, B, A lane arrays) are converted
/// and blended over the 8 stored pixels `dst`, which receive the result. The same
/// arithmetic step for step (so the same bytes), without the packed source and the
/// gathered destination going through lane arrays in memory: a row of a whole block
/// goes from the shader's output to the tile in one loop the compiler vectorizes.
#[inline(always)]
pub(crate) fn blend_row_from_float(
    mode: BlendMode,
    color: &[LaneArray; 4],
    lane: usize,
    dst: &mut [[u8; 4]; ROW],
) {
    let channel = |c: usize| -> &[f32; ROW] { color[c][lane..lane + ROW].try_into().unwrap() };
    let (r, g, b, a) = (channel(0), channel(1), channel(2), channel(3));
    let src: [u32; ROW] = std::array::from_fn(|k| pack_unorm8(r[k], g[k], b[k], a[k]));
    match mode {
        BlendMode::Replace => {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = s.to_le_bytes();
            }
        }
        BlendMode::Alpha => {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = alpha_packed(s, u32::from_le_bytes(*d)).to_le_bytes();
            }
        }
        BlendMode::Additive => {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = additive_packed(s, u32::from_le_bytes(*d)).to_le_bytes();
            }
        }
        BlendMode::Function(f) => function_row(&f, &src, dst),
    }
}

/// `glColorMask` on packed RGBA8 lanes (GL 3.3 §4.2.2): each lane of `result` keeps
/// the bytes in `bits` ([`crate::RasterState::color_write_bits`]) and takes the others
/// back from `stored`.
pub(crate) fn mask_lanes(bits: u32, stored: &[u32; MAX_LANES], result: &mut [u32; MAX_LANES]) {
    for (r, &d) in result.iter_mut().zip(stored) {
        *r = (*r & bits) | (d & !bits);
    }
}

/// [`mask_lanes`] for one pixel: `result`'s bytes in `bits`, `stored`'s elsewhere.
#[inline]
pub(crate) fn masked(bits: u32, result: [u8; 4], stored: [u8; 4]) -> [u8; 4] {
    let (r, d) = (u32::from_le_bytes(result), u32::from_le_bytes(stored));
    ((r & bits) | (d & !bits)).to_le_bytes()
}

/// [`BlendMode::Function`]'s arm of [`blend_lanes`], out of line so that the named
/// modes' loops, which the rasterizer inlines, stay as small as they were.
#[inline(never)]
fn function_lanes(f: &BlendFunction, src: &[u32; MAX_LANES], dst: &mut [u32; MAX_LANES]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = f.apply_packed(s, *d);
    }
}

/// [`BlendMode::Function`]'s arm of [`blend_row_from_float`], out of line as
/// [`function_lanes`] is.
#[inline(never)]
fn function_row(f: &BlendFunction, src: &[u32; ROW], dst: &mut [[u8; 4]; ROW]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = f.apply(s.to_le_bytes(), *d);
    }
}

/// Pixels [`blend_row_from_float`] blends at once: one row of an 8×8 block.
pub(crate) const ROW: usize = 8;

/// Bytes 0 and 2 of a packed pixel: two channels, each in its own 16-bit field.
const PAIR: u32 = 0x00ff_00ff;

/// [`mul_unorm8`] of both channels of `pairs` (unorm8 values in bits 0..8 and 16..24)
/// by `f` (0..=255) at once. Each 16-bit field stays below 2^16 at every step
/// (`x·f + 128 ≤ 65153`, plus `≤ 254`), so no carry crosses into the other field and
/// each field gets exactly `mul_unorm8`'s `(t + (t >> 8)) >> 8`.
#[inline(always)]
fn mul_unorm8_pairs(pairs: u32, f: u32) -> u32 {
    let t = pairs * f + 0x0080_0080;
    ((t + ((t >> 8) & PAIR)) >> 8) & PAIR
}

/// [`BlendMode::Alpha`] on packed RGBA8: `src·a + dst·(1 − a)` per channel, two
/// channels per multiply. No saturation is needed: `mul_unorm8` is monotonic, so the
/// sum is at most `mul_unorm8(255, a) + mul_unorm8(255, 255 − a) = a + (255 − a)`;
/// the saturating add of [`blend`] never saturates here (the exhaustive test checks).
#[inline(always)]
fn alpha_packed(src: u32, dst: u32) -> u32 {
    let a = src >> 24;
    let rb = mul_unorm8_pairs(src & PAIR, a) + mul_unorm8_pairs(dst & PAIR, 255 - a);
    let ga = mul_unorm8_pairs((src >> 8) & PAIR, a) + mul_unorm8_pairs((dst >> 8) & PAIR, 255 - a);
    rb | ga << 8
}

/// [`BlendMode::Additive`] on packed RGBA8: `src + dst` per channel, saturating.
#[inline(always)]
fn additive_packed(src: u32, dst: u32) -> u32 {
    let mut out = 0;
    for shift in [0, 8, 16, 24] {
        let sum = ((src >> shift) & 0xff) + ((dst >> shift) & 0xff);
        out |= sum.min(255) << shift;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_rounds_and_clamps() {
        assert_eq!(to_unorm8(0.0), 0);
        assert_eq!(to_unorm8(1.0), 255);
        assert_eq!(to_unorm8(0.5), 128); // 127.5 → 128 (even)
        assert_eq!(to_unorm8(0.1), 26); // 25.5 in f32 is 25.500002 → 26
        assert_eq!(to_unorm8(0.2), 51);
        assert_eq!(to_unorm8(-3.0), 0);
        assert_eq!(to_unorm8(7.0), 255);
        assert_eq!(to_unorm8(f32::NAN), 0);
        assert_eq!(to_unorm8(f32::INFINITY), 255);
        for i in 0..=100_000 {
            let c = i as f32 / 100_000.0;
            let reference = (c * 255.0).round_ties_even() as u32;
            assert_eq!(unorm8_bits(c), reference, "{c}");
        }
        assert_eq!(to_unorm8(0.5 / 255.0), 0, "0.5 ties to even");
        assert_eq!(to_unorm8(1.5 / 255.0), 2, "1.5 ties to even");
    }

    #[test]
    fn unorm_product_is_exactly_rounded() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let exact = (f64::from(a) * f64::from(b) / 255.0).round() as u8;
                assert_eq!(mul_unorm8(a, b), exact, "{a}·{b}");
            }
        }
    }

    #[test]
    fn colour_mask_keeps_the_masked_bytes() {
        let bits = crate::RasterState {
            color_mask: [true, false, true, false],
            ..Default::default()
        }
        .color_write_bits();
        assert_eq!(bits, 0x00ff_00ff);
        assert_eq!(masked(bits, [1, 2, 3, 4], [10, 20, 30, 40]), [1, 20, 3, 40]);
        let stored = [u32::from_le_bytes([10, 20, 30, 40]); MAX_LANES];
        let mut result = [u32::from_le_bytes([1, 2, 3, 4]); MAX_LANES];
        mask_lanes(0xff00_0000, &stored, &mut result);
        assert!(result.iter().all(|&r| r.to_le_bytes() == [10, 20, 30, 4]));
    }

    #[test]
    fn blend_values() {
        let src = [255, 0, 0, 128]; // (1, 0, 0, 0.5)
        let dst = [0, 0, 255, 255];
        assert_eq!(blend(BlendMode::Replace, src, dst), src);
        // RGB: 1·0.5 + 0·0.5 = 0.5, 0, 0·0.5 + 1·(127/255); A: 0.5·0.5 + 1·0.5 ≈ 0.75.
        assert_eq!(blend(BlendMode::Alpha, src, dst), [128, 0, 127, 191]);
        assert_eq!(
            blend(BlendMode::Additive, [200, 10, 0, 128], [100, 10, 0, 255]),
            [255, 20, 0, 255]
        );
        // Opaque source replaces, transparent source keeps the destination.
        assert_eq!(
            blend(BlendMode::Alpha, [10, 20, 30, 255], dst),
            [10, 20, 30, 255]
        );
        assert_eq!(blend(BlendMode::Alpha, [10, 20, 30, 0], dst), dst);
    }

    /// `blend_row_from_float` gives the bytes of `pack_unorm8` then `blend_lanes`, in
    /// every mode, for colours below 0, above 1, NaN, infinities, exact unorm8 ties
    /// (`k + 0.5` over 255) and a spread of values between, over varied stored pixels.
    #[test]
    fn row_from_float_equals_pack_then_blend() {
        let mut floats = vec![-1.0, 0.0, 1.0, 2.0, f32::NAN, f32::INFINITY, -f32::INFINITY];
        floats.extend((0..=255).map(|k| (k as f32 + 0.5) / 255.0));
        floats.extend((0..=1000).map(|k| k as f32 / 1000.0));
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1du64);
        let function = crate::state::BlendFunction {
            src_rgb: crate::state::BlendFactor::ConstantColor,
            dst_rgb: crate::state::BlendFactor::OneMinusSrcColor,
            equation_rgb: crate::state::BlendEquation::ReverseSubtract,
            color: [10, 128, 250, 77],
            ..Default::default()
        };
        for mode in [
            BlendMode::Replace,
            BlendMode::Alpha,
            BlendMode::Additive,
            BlendMode::Function(function),
        ] {
            for _ in 0..4000 {
                let mut color = [[0.0f32; MAX_LANES]; 4];
                let mut stored = [0u32; MAX_LANES];
                for lane in 0..MAX_LANES {
                    for channel in &mut color {
                        channel[lane] = floats[next() as usize % floats.len()];
                    }
                    stored[lane] = next() as u32;
                }
                let src: [u32; MAX_LANES] = std::array::from_fn(|l| {
                    pack_unorm8(color[0][l], color[1][l], color[2][l], color[3][l])
                });
                let mut expected = stored;
                blend_lanes(mode, &src, &mut expected);
                for row in 0..MAX_LANES / ROW {
                    let mut pixels: [[u8; 4]; ROW] =
                        std::array::from_fn(|k| stored[row * ROW + k].to_le_bytes());
                    blend_row_from_float(mode, &color, row * ROW, &mut pixels);
                    for k in 0..ROW {
                        assert_eq!(
                            pixels[k],
                            expected[row * ROW + k].to_le_bytes(),
                            "{mode:?} lane {}",
                            row * ROW + k
                        );
                    }
                }
            }
        }
    }

    /// `blend_lanes` equals the per-pixel `blend` for every source channel, alpha and
    /// destination channel value (all 2^24 triples, each channel position covered).
    #[test]
    fn lane_blend_equals_pixel_blend_exhaustively() {
        for mode in [BlendMode::Replace, BlendMode::Alpha, BlendMode::Additive] {
            let mut src = [0u32; MAX_LANES];
            let mut dst = [0u32; MAX_LANES];
            let mut pixels = [([0u8; 4], [0u8; 4]); MAX_LANES];
            let mut lane = 0;
            for a in 0..=255u8 {
                for s in 0..=255u8 {
                    for d in 0..=255u8 {
                        // Every channel sees every (s, d) pair; channel 3 is the alpha.
                        let sp = [s, s ^ 0x5a, 255 - s, a];
                        let dp = [d, 255 - d, d ^ 0xa5, d.wrapping_add(s)];
                        pixels[lane] = (sp, dp);
                        src[lane] = u32::from_le_bytes(sp);
                        dst[lane] = u32::from_le_bytes(dp);
                        lane += 1;
                        if lane == MAX_LANES {
                            blend_lanes(mode, &src, &mut dst);
                            for (k, &(sp, dp)) in pixels.iter().enumerate() {
                                let expected = blend(mode, sp, dp);
                                assert_eq!(
                                    dst[k].to_le_bytes(),
                                    expected,
                                    "{mode:?} {sp:?} {dp:?}"
                                );
                            }
                            lane = 0;
                        }
                    }
                }
            }
        }
    }
}
