//! Sine and cosine for SIN / COS (docs/csir-original.md A2: within 1e-6 absolute error for
//! |x| <= 1000, with proper range reduction).
//!
//! Method: Cody–Waite reduction `r = x − k·π/2` with π/2 split into three parts
//! (the first two short enough that `k·C1` is exact for |k| < 2^16 and `k·C2` for
//! |k| < 2^13), then the Cephes minimax polynomials for sin and cos on [−π/4, π/4],
//! selected and signed by the quadrant `k mod 4`.
//!
//! Measured against `f64::sin` / `f64::cos` of the same `f32` input (tests below):
//! at most 7.7e-8 absolute error for |x| <= 1e4 and 9.6e-7 for |x| <= 1e5. Beyond
//! that the reduction loses accuracy (5e-2 at 1e6); the reduced argument is clamped,
//! so every finite input still gives a finite result in [−1, 1]. NaN and ±inf give
//! NaN (the canonical quiet NaN `0x7fc00000`). `sin(−0) = −0`.

use super::Lane;

use std::f32::consts::FRAC_2_PI;
/// π/2 = C1 + C2 + C3; C1 has 8 significant bits, C2 has 11.
const PIO2_C1: f32 = 1.570_312_5;
const PIO2_C2: f32 = 4.837_513e-4;
const PIO2_C3: f32 = 7.549_79e-8;
/// 1.5·2^23: adding and subtracting it rounds |v| < 2^22 to the nearest integer.
const ROUND_MAGIC: f32 = 12_582_912.0;
/// Bound on the reduced argument; only reached when the reduction has lost
/// precision (|x| beyond about 1e5), where it keeps the polynomials in range.
const R_MAX: f32 = 0.8;

/// `sin(x)` per lane. See the module docs for accuracy and special values.
#[inline]
pub fn sin<L: Lane>(x: L) -> L {
    // The polynomial turns −0 into +0; sin keeps the sign of zero.
    L::select(x.eq(L::splat(0.0)), x, sin_quadrant(x, 0))
}

/// `cos(x)` per lane, computed as the sine of the next quadrant (exactly, on the
/// quadrant count, not by adding π/2 to `x`).
#[inline]
pub fn cos<L: Lane>(x: L) -> L {
    sin_quadrant(x, 1)
}

/// `sin(x + offset·π/2)` for `offset` 0 or 1.
#[inline]
fn sin_quadrant<L: Lane>(x: L, offset: i32) -> L {
    let s = L::splat;
    let k = (x * s(FRAC_2_PI) + s(ROUND_MAGIC)) - s(ROUND_MAGIC);
    let r = ((x - k * s(PIO2_C1)) - k * s(PIO2_C2)) - k * s(PIO2_C3);
    // Clamp without touching NaN (a NaN fails both comparisons).
    let r = L::select(r.gt(s(R_MAX)), s(R_MAX), r);
    let r = L::select(r.lt(s(-R_MAX)), s(-R_MAX), r);

    // Quadrant (k + offset) mod 4, in integer bit operations ([`Lane::quadrant`]); k is
    // an integer (a half-integer for |k| in [2^22, 2^23], whose quadrant is neither odd
    // nor even; for |k| >= 2^25 a multiple of 4).
    let (odd, high) = k.quadrant(offset);

    let z = r * r;
    let sin_r = ((s(-1.951_529_6e-4) * z + s(8.332_161e-3)) * z - s(1.666_665_5e-1)) * z * r + r;
    let cos_r = ((s(2.443_315_7e-5) * z - s(1.388_731_6e-3)) * z + s(4.166_664_6e-2)) * z * z
        - s(0.5) * z
        + s(1.0);

    let v = L::select(odd, cos_r, sin_r);
    let v = L::select(high, -v, v);
    L::select(x.abs().lt(s(f32::INFINITY)), v, s(f32::NAN))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Maximum absolute error of `f` against `reference` over `n` evenly spaced
    /// samples of [−range, range] (plus their neighbours one ulp away).
    fn max_error(f: fn(f32) -> f32, reference: fn(f64) -> f64, range: f32, n: u32) -> f64 {
        let mut worst = 0.0f64;
        for i in 0..=n {
            let x = -range + 2.0 * range * (i as f32 / n as f32);
            for x in [x, f32::from_bits(x.to_bits() + 1)] {
                let err = (f(x) as f64 - reference(x as f64)).abs();
                worst = worst.max(err);
            }
        }
        worst
    }

    #[test]
    fn sin_and_cos_are_within_1e6_up_to_1000() {
        let e_sin = max_error(sin::<f32>, f64::sin, 1000.0, 2_000_000);
        let e_cos = max_error(cos::<f32>, f64::cos, 1000.0, 2_000_000);
        assert!(e_sin <= 1e-7, "sin error {e_sin}");
        assert!(e_cos <= 1e-7, "cos error {e_cos}");
        let e_small = max_error(sin::<f32>, f64::sin, 4.0, 400_000);
        assert!(e_small <= 1.2e-7, "sin error on [-4, 4]: {e_small}");
    }

    #[test]
    fn sin_and_cos_stay_close_up_to_1e5() {
        let e_sin = max_error(sin::<f32>, f64::sin, 1e4, 400_000);
        let e_cos = max_error(cos::<f32>, f64::cos, 1e4, 400_000);
        assert!(e_sin <= 1e-7 && e_cos <= 1e-7, "{e_sin} {e_cos}");
        let e_sin = max_error(sin::<f32>, f64::sin, 1e5, 400_000);
        let e_cos = max_error(cos::<f32>, f64::cos, 1e5, 400_000);
        assert!(e_sin <= 1.5e-6 && e_cos <= 1.5e-6, "{e_sin} {e_cos}");
    }

    #[test]
    fn the_split_of_pi_over_2_is_short_and_accurate() {
        // Significant bits: C1 has 8 and C2 11, so k·C1 and k·C2 are exact for
        // |k| < 2^16 and 2^13.
        let significant = |c: f32| 24 - (c.to_bits() | 0x0080_0000).trailing_zeros();
        assert_eq!(significant(PIO2_C1), 8);
        assert_eq!(significant(PIO2_C2), 11);
        // C3 is the f32 rounding of the rest: the split is off by 1.8e-15, which k
        // up to 1e5 turns into at most 2e-10 of reduction error.
        let sum = PIO2_C1 as f64 + PIO2_C2 as f64 + PIO2_C3 as f64;
        assert!((sum - std::f64::consts::FRAC_PI_2).abs() < 2e-15);
    }

    /// The quadrant tests as the float formula computed them before
    /// [`Lane::quadrant`]: `q = k − 4·floor(k/4) + offset`, wrapped below 4.
    fn float_quadrant(k: f32, offset: f32) -> (bool, bool) {
        let q = k - 4.0 * (k * 0.25).floor() + offset;
        let q = if q >= 4.0 { q - 4.0 } else { q };
        (q == 1.0 || q == 3.0, q >= 2.0)
    }

    #[test]
    fn the_integer_quadrant_equals_the_float_formula() {
        use wide::f32x8;
        // Every k the reduction makes, from x over the whole finite range (integers,
        // the half-integers of |k| in [2^22, 2^23], huge multiples of 4), plus edges.
        let mut ks = vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            4_194_304.5,
            -4_194_304.5,
            8_388_607.5,
        ];
        ks.extend([
            -8_388_607.5,
            2f32.powi(30),
            -(2f32.powi(30)),
            2f32.powi(31),
            f32::MAX,
        ]);
        let mut x = 1e-3f32;
        while x.is_finite() {
            for v in [x, -x, x * 1.37, -x * 1.37, x * 1.0001, -x * 3.3] {
                // Infinite x gives NaN whatever the quadrant.
                if v.is_finite() {
                    ks.push((v * FRAC_2_PI + ROUND_MAGIC) - ROUND_MAGIC);
                }
            }
            x *= 1.01;
        }
        for n in -50_000i32..50_000 {
            ks.push(n as f32);
            ks.push(4_194_304.0 + n as f32 * 0.5);
            ks.push(-8_388_608.0 - n as f32 * 0.5);
        }
        let mut half_integers = 0;
        for &k in &ks {
            half_integers += usize::from(k.fract().abs() == 0.5);
            for offset in [0, 1] {
                let want = float_quadrant(k, offset as f32);
                assert_eq!(k.quadrant(offset), want, "k = {k}, offset {offset}");
                let (odd, high) = f32x8::splat(k).quadrant(offset);
                assert_eq!((odd.all(), high.all()), want, "f32x8: k = {k}");
                assert_eq!((odd.any(), high.any()), want, "f32x8: k = {k}");
            }
        }
        assert!(half_integers > 1000, "{half_integers} half-integers");
    }

    #[test]
    fn exact_and_special_values() {
        assert_eq!(sin(0.0f32).to_bits(), 0.0f32.to_bits());
        assert_eq!(sin(-0.0f32).to_bits(), (-0.0f32).to_bits());
        assert_eq!(cos(0.0f32), 1.0);
        assert!((sin(1.0f32) - 0.841_470_96).abs() < 1e-7);
        assert!((sin(3.0f32) - 0.141_120_01).abs() < 1e-7);
        assert!((cos(std::f32::consts::PI) + 1.0).abs() < 1e-7);
        for v in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(sin(v).to_bits(), f32::NAN.to_bits());
            assert_eq!(cos(v).to_bits(), f32::NAN.to_bits());
        }
    }

    #[test]
    fn huge_finite_inputs_give_finite_results_in_range() {
        let mut x = 1e5f32;
        while x.is_finite() {
            for v in [x, -x, x * 1.37, f32::MAX, -f32::MAX] {
                if !v.is_finite() {
                    continue;
                }
                for r in [sin(v), cos(v)] {
                    assert!((-1.0..=1.0).contains(&r), "f({v}) = {r}");
                }
            }
            x *= 3.1;
        }
    }
}
