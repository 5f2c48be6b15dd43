//! Colour conversion to RGBA8 and blending in RGBA8.
//!
//! Colour is stored as RGBA8 UNORM: `round(clamp(c, 0, 1) · 255)` (`scene-format.md`
//! "Conventions"; ties round to even, as llvmpipe's conversion does; NaN stores as 0).
//! Blending happens in the RGBA8 framebuffer in 8-bit fixed point, the way llvmpipe
//! blends a UNORM8 target: the fragment colour is converted first, then each product
//! `x·y/255` is rounded to nearest and the two terms are added with saturation.

use crate::state::BlendMode;

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

/// `round(a · b / 255)` for 8-bit unorm values, exactly.
#[inline]
fn mul_unorm8(a: u8, b: u8) -> u8 {
    let t = u32::from(a) * u32::from(b) + 128;
    ((t + (t >> 8)) >> 8) as u8
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
}
