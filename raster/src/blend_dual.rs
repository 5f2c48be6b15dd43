//! Dual-source blending (GL 3.3 §4.1.8, `src1_*` factors) of whole rows of RGBA8
//! pixels at once.
//!
//! The arithmetic is [`BlendFunction::apply_dual`]'s, byte for byte (the tests compare
//! them on random inputs), laid out as tiny-skia lays out its stages: channel by
//! channel, each step a loop over all `N` lanes with the factor and the equation
//! chosen once outside it (they are per draw), so every loop is branch-free over
//! `u32` lanes and the compiler vectorizes it (8 pixels per AVX2 register) instead of
//! calling the per-pixel function once a pixel.

use crate::blend_func::{BlendEquation, BlendFactor, BlendFunction};

/// One channel of `N` lanes, each a unorm8 value in a `u32`.
type Lanes<const N: usize> = [u32; N];

/// The four colours a factor reads, lane arrays of packed RGBA8 (bytes R, G, B, A in
/// memory order, as `u32::from_le_bytes`): source, second source, destination.
struct Colours<'a, const N: usize> {
    src: &'a [u32; N],
    src1: &'a [u32; N],
    dst: &'a [u32; N],
    constant: [u8; 4],
}

/// Byte `channel` (0..4) of every lane of `packed`.
#[inline(always)]
fn channel<const N: usize>(packed: &[u32; N], channel: usize) -> Lanes<N> {
    let shift = 8 * channel as u32;
    std::array::from_fn(|k| (packed[k] >> shift) & 0xff)
}

/// `255 − x` for every lane.
#[inline(always)]
fn one_minus<const N: usize>(x: Lanes<N>) -> Lanes<N> {
    x.map(|v| 255 - v)
}

/// Factor `factor`'s unorm8 value for `channel` of every lane ([`BlendFactor`]'s
/// table, GL 3.3 §4.1.8 Table 4.2).
#[inline(always)]
fn factor_lanes<const N: usize>(factor: BlendFactor, ch: usize, c: &Colours<'_, N>) -> Lanes<N> {
    let splat = |v: u8| [u32::from(v); N];
    match factor {
        BlendFactor::Zero => [0; N],
        BlendFactor::One => [255; N],
        BlendFactor::SrcColor => channel(c.src, ch),
        BlendFactor::OneMinusSrcColor => one_minus(channel(c.src, ch)),
        BlendFactor::DstColor => channel(c.dst, ch),
        BlendFactor::OneMinusDstColor => one_minus(channel(c.dst, ch)),
        BlendFactor::SrcAlpha => channel(c.src, 3),
        BlendFactor::OneMinusSrcAlpha => one_minus(channel(c.src, 3)),
        BlendFactor::DstAlpha => channel(c.dst, 3),
        BlendFactor::OneMinusDstAlpha => one_minus(channel(c.dst, 3)),
        BlendFactor::ConstantColor => splat(c.constant[ch]),
        BlendFactor::OneMinusConstantColor => splat(255 - c.constant[ch]),
        BlendFactor::ConstantAlpha => splat(c.constant[3]),
        BlendFactor::OneMinusConstantAlpha => splat(255 - c.constant[3]),
        BlendFactor::SrcAlphaSaturate if ch == 3 => [255; N],
        BlendFactor::SrcAlphaSaturate => {
            let (a, d) = (channel(c.src, 3), one_minus(channel(c.dst, 3)));
            std::array::from_fn(|k| a[k].min(d[k]))
        }
        BlendFactor::Src1Color => channel(c.src1, ch),
        BlendFactor::OneMinusSrc1Color => one_minus(channel(c.src1, ch)),
        BlendFactor::Src1Alpha => channel(c.src1, 3),
        BlendFactor::OneMinusSrc1Alpha => one_minus(channel(c.src1, 3)),
    }
}

/// `round(x · f / 255)` for unorm8 values in `u32` lanes ([`crate::blend_func`]'s
/// `mul_unorm8`, the same exact formula).
#[inline(always)]
fn mul_unorm8(x: u32, f: u32) -> u32 {
    let t = x * f + 128;
    (t + (t >> 8)) >> 8
}

/// Equation `equation` on every lane: source `s`, destination `d`, their factors.
#[inline(always)]
fn equation_lanes<const N: usize>(
    equation: BlendEquation,
    s: Lanes<N>,
    d: Lanes<N>,
    sf: Lanes<N>,
    df: Lanes<N>,
) -> Lanes<N> {
    let terms = |k: usize| (mul_unorm8(s[k], sf[k]), mul_unorm8(d[k], df[k]));
    match equation {
        BlendEquation::Add => std::array::from_fn(|k| {
            let (a, b) = terms(k);
            (a + b).min(255)
        }),
        BlendEquation::Subtract => std::array::from_fn(|k| {
            let (a, b) = terms(k);
            a.saturating_sub(b)
        }),
        BlendEquation::ReverseSubtract => std::array::from_fn(|k| {
            let (a, b) = terms(k);
            b.saturating_sub(a)
        }),
        BlendEquation::Min => std::array::from_fn(|k| s[k].min(d[k])),
        BlendEquation::Max => std::array::from_fn(|k| s[k].max(d[k])),
    }
}

/// [`BlendFunction::apply_dual`] for `N` lanes at once: `dst[k]` becomes the blend of
/// source `src[k]` and second source `src1[k]` over it, all packed RGBA8.
#[inline(never)]
pub(crate) fn blend_dual_lanes<const N: usize>(
    f: &BlendFunction,
    src: &[u32; N],
    src1: &[u32; N],
    dst: &mut [u32; N],
) {
    let colours = Colours {
        src,
        src1,
        dst: &*dst,
        constant: f.color,
    };
    let mut out = [0u32; N];
    for ch in 0..4 {
        let (sf, df, equation) = if ch == 3 {
            (f.src_alpha, f.dst_alpha, f.equation_alpha)
        } else {
            (f.src_rgb, f.dst_rgb, f.equation_rgb)
        };
        let value = equation_lanes(
            equation,
            channel(src, ch),
            channel(colours.dst, ch),
            factor_lanes(sf, ch, &colours),
            factor_lanes(df, ch, &colours),
        );
        for (o, v) in out.iter_mut().zip(value) {
            *o |= v << (8 * ch);
        }
    }
    *dst = out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::MAX_LANES;
    use crate::test_rng::xorshift;

    fn random_function(next: &mut impl FnMut() -> u64) -> BlendFunction {
        let mut factor =
            || BlendFactor::NAMES[(next() % BlendFactor::NAMES.len() as u64) as usize].1;
        let (src_rgb, dst_rgb, src_alpha, dst_alpha) = (factor(), factor(), factor(), factor());
        let mut equation =
            || BlendEquation::NAMES[(next() % BlendEquation::NAMES.len() as u64) as usize].1;
        let (equation_rgb, equation_alpha) = (equation(), equation());
        BlendFunction {
            src_rgb,
            dst_rgb,
            src_alpha,
            dst_alpha,
            equation_rgb,
            equation_alpha,
            color: (next() as u32).to_le_bytes(),
        }
    }

    #[test]
    fn lanes_equal_the_per_pixel_blend_on_random_inputs() {
        let mut next = xorshift(0x5eed_d0a1);
        for _ in 0..2000 {
            let f = random_function(&mut next);
            let src: [u32; MAX_LANES] = std::array::from_fn(|_| next() as u32);
            let src1: [u32; MAX_LANES] = std::array::from_fn(|_| next() as u32);
            let dst: [u32; MAX_LANES] = std::array::from_fn(|_| next() as u32);
            let mut got = dst;
            blend_dual_lanes(&f, &src, &src1, &mut got);
            for k in 0..MAX_LANES {
                let want = f.apply_dual(
                    src[k].to_le_bytes(),
                    src1[k].to_le_bytes(),
                    dst[k].to_le_bytes(),
                );
                assert_eq!(got[k].to_le_bytes(), want, "{f} lane {k}");
            }
        }
    }

    #[test]
    fn every_factor_and_equation_pair_matches_at_extremes() {
        // 0 and 255 in every byte position, against each factor on its own.
        let extremes = [0u32, 0xffff_ffff, 0x00ff_00ff, 0xff00_ff00, 0x80ff_0001];
        for (_, sf) in BlendFactor::NAMES {
            for (_, df) in BlendFactor::NAMES {
                for (_, eq) in BlendEquation::NAMES {
                    let f = BlendFunction {
                        src_rgb: sf,
                        dst_rgb: df,
                        src_alpha: df,
                        dst_alpha: sf,
                        equation_rgb: eq,
                        equation_alpha: eq,
                        color: [255, 0, 128, 7],
                    };
                    let src: [u32; 8] = std::array::from_fn(|k| extremes[k % 5]);
                    let src1: [u32; 8] = std::array::from_fn(|k| extremes[(k + 2) % 5]);
                    let dst: [u32; 8] = std::array::from_fn(|k| extremes[(k + 3) % 5]);
                    let mut got = dst;
                    blend_dual_lanes(&f, &src, &src1, &mut got);
                    for k in 0..8 {
                        let want = f.apply_dual(
                            src[k].to_le_bytes(),
                            src1[k].to_le_bytes(),
                            dst[k].to_le_bytes(),
                        );
                        assert_eq!(got[k].to_le_bytes(), want, "{f} lane {k}");
                    }
                }
            }
        }
    }
}
