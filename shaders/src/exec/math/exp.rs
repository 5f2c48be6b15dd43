//! EX2, the extended profile's base-2 exponential: one scalar function of
//! the lane's bit pattern, applied lane by lane by both interpreters
//! ([`Lane::map_bits`](super::Lane::map_bits)), so they give the same bits, as LG2
//! does (`log.rs`).
//!
//! Computed in `f64` from IEEE-exact primitives only (+ − ×, rounding to an integer,
//! bit operations; no libm, so the result does not depend on the platform):
//! `x = n + f` with `n` the nearest integer and `|f| ≤ ½` (exact: `x` is an `f32`),
//! `2^f = e^(f·ln 2)` by its Taylor series to the 15th power (|f·ln 2| ≤ 0.347, the
//! truncation below 2^-60), times `2^n` built from its exponent bits (exact:
//! `−151 ≤ n ≤ 128` is in `f64`'s normal range), rounded once to `f32` (subnormal
//! results included). The `f64` error is far below half an `f32` ulp, so the result
//! is within 1 ulp of the exact value; GLSL 1.30 §8.2 and GLSL 4.x ask
//! 3 + 2·|x| ulp for `exp2`. The tests measure it.
//!
//! Special values (IEEE 754 `exp2`): `exp2(NaN) = NaN`, `exp2(+inf) = +inf`,
//! `exp2(−inf) = +0`, `exp2(x ≥ 128) = +inf`, `exp2(x < −151) = +0` (below half the
//! smallest subnormal, 2^-150); integral `x` in −149..=127 give the power of two
//! exactly.

/// `2^x` of the pattern `bits`, as a pattern.
pub fn ex2_bits(bits: u32) -> u32 {
    ex2(f32::from_bits(bits)).to_bits()
}

/// `2^x` (see the module docs).
pub fn ex2(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    if x >= 128.0 {
        return f32::INFINITY;
    }
    if x < -151.0 {
        return 0.0;
    }
    let x = f64::from(x);
    let n = x.round();
    let t = (x - n) * std::f64::consts::LN_2;
    // 1 + t + t²/2! + … + t^15/15!, by Horner from the smallest term.
    let mut sum = 1.0;
    for k in (1..=15).rev() {
        sum = sum * t / f64::from(k) + 1.0;
    }
    let scale = f64::from_bits(((n as i64 + 1023) as u64) << 52);
    (sum * scale) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many `f32` ulps `got` is from `exact` (the ulp of the `f32` nearest
    /// `exact`; the smallest subnormal's for results below the normal range).
    fn ulps(got: f32, exact: f64) -> f64 {
        let near = (exact as f32).abs();
        let ulp = f64::from(f32::from_bits(near.to_bits() + 1) - near);
        (f64::from(got) - exact).abs() / ulp
    }

    #[test]
    fn special_values() {
        assert!(ex2(f32::NAN).is_nan());
        assert_eq!(ex2(f32::INFINITY), f32::INFINITY);
        assert_eq!(ex2(f32::NEG_INFINITY).to_bits(), 0);
        assert_eq!(ex2(128.0), f32::INFINITY);
        assert!(ex2(127.999_99).is_finite());
        assert_eq!(ex2(-0.0), 1.0);
        assert_eq!(ex2(0.0), 1.0);
        assert_eq!(ex2(-151.5).to_bits(), 0);
        assert_eq!(ex2(-1e30).to_bits(), 0);
        // 2^-150 is halfway to the smallest subnormal and rounds to even (0); a hair
        // above it rounds up.
        assert_eq!(ex2(-150.0).to_bits(), 0);
        assert_eq!(ex2(-149.9).to_bits(), 1);
    }

    #[test]
    fn powers_of_two_are_exact() {
        for e in -149..128 {
            assert_eq!(ex2(e as f32), super::super::power_of_two(e), "2^{e}");
        }
        assert_eq!(ex2(-126.0), f32::MIN_POSITIVE);
    }

    /// Within 1 ulp of the `f64` `exp2` (far more accurate than an `f32` ulp) for
    /// random `x` over the whole finite range of results, subnormals included, and
    /// the edges.
    #[test]
    fn within_one_ulp() {
        let mut r = 0x2545_f491_4f6c_dd1du64;
        let mut worst = 0.0f64;
        let edges = [
            -149.5, -149.0, -126.5, -126.0, -125.9, -1e-7, 1e-7, 0.5, 127.5, 127.99,
        ];
        let random = (0..200_000).map(|_| {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            // Uniform in [-150, 128).
            (r >> 40) as f32 / (1u64 << 24) as f32 * 278.0 - 150.0
        });
        for x in edges.into_iter().chain(random) {
            let exact = f64::from(x).exp2();
            let err = ulps(ex2(x), exact);
            assert!(err <= 1.0, "exp2({x}): {} vs {exact}: {err} ulps", ex2(x));
            worst = worst.max(err);
        }
        assert!(worst > 0.0, "the measure measures something");
    }

    /// `exp(x)` as the front end lowers it, EX2(x · log2 e) in `f32`, is within GLSL's
    /// 3 + 2·|x| ulp of the `f64` `exp` wherever the result is a normal float.
    #[test]
    fn exp_through_ex2_is_within_the_glsl_bound() {
        let mut r = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let x = (r >> 40) as f32 / (1u64 << 24) as f32 * 174.0 - 87.0;
            let got = ex2(x * std::f32::consts::LOG2_E);
            let exact = f64::from(x).exp();
            let err = ulps(got, exact);
            let bound = 3.0 + 2.0 * f64::from(x.abs());
            assert!(
                err <= bound,
                "exp({x}): {got} vs {exact}: {err} ulps > {bound}"
            );
        }
    }
}
