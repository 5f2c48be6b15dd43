//! LG2, the extended profile's base-2 logarithm: one scalar function of
//! the lane's bit pattern, applied lane by lane by both interpreters
//! ([`Lane::map_bits`](super::Lane::map_bits)), so they give the same bits.
//!
//! Computed in `f64` from IEEE-exact primitives only (+ − × ÷, bit operations; no
//! libm, so the result does not depend on the platform): `x = m·2^e` with `m` in
//! `[√½, √2)`, `ln m = 2·atanh(s)` with `s = (m − 1)/(m + 1)` (|s| ≤ 0.1716) by its
//! series to `s^27` (truncation below 2^-60), and `log2 x = e + ln m · log2(e)`,
//! rounded once to `f32`. The `f64` error is far below half an `f32` ulp, so the
//! result is within 1 ulp of the exact value (GLSL 1.30 §8.2 and GLSL ES 3.00 ask
//! 3 ulp for `log2`); the tests measure it.
//!
//! Special values (IEEE 754 `log2`): `log2(±0) = −inf`, `log2(x < 0) = NaN`,
//! `log2(+inf) = +inf`, NaN gives NaN; subnormal inputs are exact.

/// `log2(x)` of the pattern `bits`, as a pattern.
pub fn lg2_bits(bits: u32) -> u32 {
    lg2(f32::from_bits(bits)).to_bits()
}

/// `log2(x)` (see the module docs).
pub fn lg2(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return f32::INFINITY;
    }
    let (bits, bias) = if x < f32::MIN_POSITIVE {
        // Subnormal: scale into the normal range exactly.
        ((x * 16_777_216.0).to_bits(), 24)
    } else {
        (x.to_bits(), 0)
    };
    let mut e = ((bits >> 23) & 0xff) as i32 - 127 - bias;
    let mut m = f64::from(f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000));
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    // 1 + z/3 + z²/5 + … + z^13/27, by Horner from the smallest term.
    let mut sum = 0.0;
    for k in (0..=13).rev() {
        sum = sum * z + 1.0 / f64::from(2 * k + 1);
    }
    let ln_m = 2.0 * s * sum;
    (f64::from(e) + ln_m * std::f64::consts::LOG2_E) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_values() {
        assert_eq!(lg2(0.0), f32::NEG_INFINITY);
        assert_eq!(lg2(-0.0), f32::NEG_INFINITY);
        assert!(lg2(-1.0).is_nan());
        assert!(lg2(f32::NAN).is_nan());
        assert_eq!(lg2(f32::INFINITY), f32::INFINITY);
        assert_eq!(lg2(1.0).to_bits(), 0.0f32.to_bits());
    }

    #[test]
    fn powers_of_two_are_exact() {
        for e in -149..128 {
            assert_eq!(lg2(super::super::power_of_two(e)), e as f32, "2^{e}");
        }
    }

    /// Within 1 ulp of the exact value (the `f64` log2, far more accurate than an
    /// `f32` ulp) over every exponent and random mantissas, subnormals included.
    #[test]
    fn within_one_ulp() {
        let mut r = 0x1234_5678_9abc_def0u64;
        let mut worst = 0.0f64;
        for _ in 0..200_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let x = f32::from_bits((r as u32) & 0x7fff_ffff);
            if !x.is_finite() || x == 0.0 {
                continue;
            }
            let exact = f64::from(x).log2();
            let near = exact as f32;
            let ulp = f64::from(f32::from_bits(near.abs().to_bits() + 1) - near.abs());
            let err = (f64::from(lg2(x)) - exact).abs() / ulp;
            worst = worst.max(err);
        }
        assert!(worst <= 1.0, "{worst} ulps");
    }
}
