//! The exactly rounded per-lane operations of the arithmetic opcodes
//! (docs/csir-original.md A1, A2; B §4): RSQ, RCP, TRUNC, MIN, MAX (by profile), ABS
//! and the 1.0/0.0 result of CMP.

use super::Lane;
use crate::ir::Profile;

/// RSQ: `1/sqrt(a)` with IEEE square root and division (two roundings), and 0 for
/// `a <= 0` and NaN (docs/csir-original.md A1: the seed's RSQ(x) = 0 for x <= 0).
/// `rsq(+inf) = 0`.
#[inline]
pub fn rsq<L: Lane>(a: L) -> L {
    let s = L::splat;
    L::select(a.gt(s(0.0)), s(1.0) / a.sqrt(), s(0.0))
}

/// RCP: `1/a` with IEEE division, and 0 for `a == ±0` (docs/csir.md "Reciprocal-based
/// division": reciprocal of zero yields zero). NaN stays NaN, `rcp(±inf) = ±0`.
#[inline]
pub fn rcp<L: Lane>(a: L) -> L {
    let s = L::splat;
    L::select(a.eq(s(0.0)), s(0.0), s(1.0) / a)
}

/// DIV (extended profile): IEEE-754 division, correctly rounded, so `x / ±0 = ±inf`
/// for `x != 0`, and `0 / 0`, `inf / inf` and NaN operands give NaN (GLSL 4.40
/// §4.7.1: dividing a non-zero number by zero gives the signed infinity). One
/// exactly rounded primitive, the same bits for `f32` and `f32x8`.
#[inline]
pub fn div<L: Lane>(a: L, b: L) -> L {
    a / b
}

/// TRUNC: round toward zero. Exact for every input: NaN and ±inf pass through, as
/// do values of magnitude >= 2^23 (already integers); `trunc(-0.5) = -0.0`. (The
/// original's `(float)(int)x` is undefined outside the `int` range, B §10.17.)
#[inline]
pub fn trunc<L: Lane>(a: L) -> L {
    a.trunc()
}

/// MIN of the seed profile: `a < b ? a : b` (docs/csir-original.md A1). With a NaN
/// operand the result is `b`; of equal zeros, `b` (`min(0, -0) = -0`).
#[inline]
pub fn min<L: Lane>(a: L, b: L) -> L {
    L::select(a.lt(b), a, b)
}

/// MAX of the seed profile: `a > b ? a : b` (docs/csir-original.md A1). With a NaN
/// operand the result is `b`; of equal zeros, `b`.
#[inline]
pub fn max<L: Lane>(a: L, b: L) -> L {
    L::select(a.gt(b), a, b)
}

/// MIN of the extended profile: IEEE 754-2008 minNum, so a NaN operand gives the other
/// operand (NaN only when both are NaN), as TGSI's MIN, llvmpipe and GPUs do. Without
/// a NaN it is the seed's [`min`], equal zeros included.
#[inline]
pub fn min_num<L: Lane>(a: L, b: L) -> L {
    L::select(b.ne(b), a, min(a, b))
}

/// MAX of the extended profile: IEEE 754-2008 maxNum (see [`min_num`]).
#[inline]
pub fn max_num<L: Lane>(a: L, b: L) -> L {
    L::select(b.ne(b), a, max(a, b))
}

/// The rule MIN and MAX follow, which the shader's profile decides (docs/csir.md
/// "MIN and MAX"): the same opcodes, two meanings for a NaN operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinMax {
    /// The seed profile: [`min`] and [`max`], a NaN operand gives `b`.
    Seed,
    /// The extended profile: [`min_num`] and [`max_num`], a NaN operand is ignored.
    Num,
}

impl MinMax {
    /// The rule of `profile`.
    pub const fn of(profile: Profile) -> MinMax {
        match profile {
            Profile::Seed => MinMax::Seed,
            Profile::Extended => MinMax::Num,
        }
    }

    /// MIN under this rule.
    #[inline(always)]
    pub fn min<L: Lane>(self, a: L, b: L) -> L {
        match self {
            MinMax::Seed => min(a, b),
            MinMax::Num => min_num(a, b),
        }
    }

    /// MAX under this rule.
    #[inline(always)]
    pub fn max<L: Lane>(self, a: L, b: L) -> L {
        match self {
            MinMax::Seed => max(a, b),
            MinMax::Num => max_num(a, b),
        }
    }
}

/// ABS: clear the sign bit, so `abs(-0.0) = +0.0` and NaN keeps its payload. (The
/// original's `a < 0 ? -a : a` returned −0.0 for −0.0.)
#[inline]
pub fn abs<L: Lane>(a: L) -> L {
    a.abs()
}

/// A comparison mask as the CSIR boolean: 1.0 where true, 0.0 where false
/// (docs/csir.md "Integer and boolean representation").
#[inline]
pub fn from_mask<L: Lane>(mask: L::Mask) -> L {
    L::select(mask, L::splat(1.0), L::splat(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_edge_values() {
        let nan = f32::NAN;
        assert_eq!(rsq(4.0f32), 0.5);
        assert_eq!(rsq(2.0f32), 1.0 / 2.0f32.sqrt());
        for v in [0.0f32, -0.0, -1.0, nan, f32::NEG_INFINITY, f32::INFINITY] {
            assert_eq!(rsq(v).to_bits(), 0, "rsq({v})");
        }
        assert_eq!(rcp(0.0f32).to_bits(), 0);
        assert_eq!(rcp(-0.0f32).to_bits(), 0);
        assert_eq!(rcp(4.0f32), 0.25);
        assert_eq!(rcp(-3.0f32), 1.0 / -3.0);
        assert!(rcp(nan).is_nan());
        assert_eq!(rcp(f32::NEG_INFINITY).to_bits(), (-0.0f32).to_bits());
        assert_eq!(div(1.0f32, 0.0), f32::INFINITY);
        assert_eq!(div(1.0f32, -0.0), f32::NEG_INFINITY);
        assert_eq!(div(-2.0f32, 0.0), f32::NEG_INFINITY);
        assert!(div(0.0f32, 0.0).is_nan());
        assert!(div(f32::INFINITY, f32::INFINITY).is_nan());
        assert_eq!(div(1.0f32, 3.0), 1.0 / 3.0);
        // Correctly rounded, where the seed's x · rcp(y) rounds twice: 3 · rcp(7)
        // is one ulp off 3 / 7.
        assert_eq!(div(3.0f32, 7.0), (3.0f64 / 7.0) as f32);
        assert_ne!(div(3.0f32, 7.0), 3.0 * rcp(7.0f32));
        assert_eq!(div(10.0f32, 5.0), 2.0);
        assert_eq!(trunc(-2.7f32), -2.0);
        assert_eq!(trunc(-0.5f32).to_bits(), (-0.0f32).to_bits());
        assert_eq!(trunc(3e9f32), 3e9);
        assert!(trunc(nan).is_nan());
        assert_eq!(min(1.0f32, 2.0), 1.0);
        assert_eq!(max(1.0f32, 2.0), 2.0);
        assert_eq!(min(nan, 2.0), 2.0);
        assert!(min(2.0, nan).is_nan());
        assert_eq!(max(nan, 2.0), 2.0);
        assert!(max(2.0, nan).is_nan());
        assert_eq!(min(0.0f32, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(max(-0.0f32, 0.0).to_bits(), 0);
        assert_eq!(abs(-0.0f32).to_bits(), 0);
        assert_eq!(MinMax::of(Profile::Seed), MinMax::Seed);
        assert_eq!(MinMax::of(Profile::Extended), MinMax::Num);
        assert_eq!(from_mask::<f32>(true), 1.0);
        assert_eq!(from_mask::<f32>(false), 0.0);
    }

    /// minNum/maxNum on every pair of edge values: the number where one operand is
    /// NaN, NaN where both are, and the seed's result (its sign of zero included)
    /// where neither is.
    #[test]
    fn min_num_and_max_num_ignore_one_nan() {
        let edges = [
            f32::NAN,
            -f32::NAN,
            0.0f32,
            -0.0,
            1.0,
            -3.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE / 2.0,
            f32::MAX,
        ];
        for a in edges {
            for b in edges {
                let (lo, hi) = (min_num(a, b), max_num(a, b));
                match (a.is_nan(), b.is_nan()) {
                    (true, true) => assert!(lo.is_nan() && hi.is_nan(), "{a} {b}"),
                    (true, false) => {
                        assert_eq!((lo.to_bits(), hi.to_bits()), (b.to_bits(), b.to_bits()))
                    }
                    (false, true) => {
                        assert_eq!((lo.to_bits(), hi.to_bits()), (a.to_bits(), a.to_bits()))
                    }
                    (false, false) => {
                        assert_eq!(lo.to_bits(), min(a, b).to_bits(), "min({a}, {b})");
                        assert_eq!(hi.to_bits(), max(a, b).to_bits(), "max({a}, {b})");
                        assert_eq!(lo, a.min(b), "min({a}, {b})");
                        assert_eq!(hi, a.max(b), "max({a}, {b})");
                    }
                }
                assert_eq!(MinMax::Num.min(a, b).to_bits(), lo.to_bits());
                assert_eq!(MinMax::Num.max(a, b).to_bits(), hi.to_bits());
                assert_eq!(MinMax::Seed.min(a, b).to_bits(), min(a, b).to_bits());
                assert_eq!(MinMax::Seed.max(a, b).to_bits(), max(a, b).to_bits());
            }
        }
        assert_eq!(max_num(3.0f32, f32::NAN), 3.0);
        assert_eq!(max_num(f32::NAN, 3.0), 3.0);
        assert_eq!(min_num(-0.0f32, f32::NAN).to_bits(), (-0.0f32).to_bits());
        assert_eq!(min_num(f32::NAN, f32::NEG_INFINITY), f32::NEG_INFINITY);
    }
}
