//! Long per-lane functions over a chunk two groups at a time.
//!
//! SIN, COS and POW with an integral exponent are chains of dozens of dependent
//! operations per lane (the range reduction and polynomial of `math::trig`, the
//! `f64` squaring chain of `math::pow_int`). Over a whole [`Pack`] of 8 groups the
//! chains interleave, but one value of the `f64` chain is 16 AVX2 registers and the
//! 16 the target has spill to the stack on every step (`perf annotate` of
//! `Chunk::run`: 12 % of its samples on stack moves; an AVX-512 build, 32 registers,
//! ran the procedural frame 14 % faster). One group at a time has no spills but a
//! single chain the processor cannot overlap enough (the frame 8 % slower). Two
//! groups at a time keep two or four chains side by side in registers: procedural
//! 50.6 → 46.3 CPU ms per frame (`benches/HISTORY.md`, "2026-12-03 night").
//!
//! Each lane goes through exactly the operations of the function on one lane, so the
//! bits are those of the scalar interpreter whatever the grouping.

use super::pack::Pack;
use crate::exec::math::{self, Lane};

/// A per-lane function that [`in_pairs`] applies to any number of groups: the same
/// operations, lane by lane, for every [`Lane`] type.
pub(super) trait LaneFn {
    /// The function on every lane of `x`.
    fn call<L: Lane>(&self, x: L) -> L;
}

/// SIN (`math::sin`).
pub(super) struct Sin;

impl LaneFn for Sin {
    #[inline(always)]
    fn call<L: Lane>(&self, x: L) -> L {
        math::sin(x)
    }
}

/// COS (`math::cos`).
pub(super) struct Cos;

impl LaneFn for Cos {
    #[inline(always)]
    fn call<L: Lane>(&self, x: L) -> L {
        math::cos(x)
    }
}

/// POW with the integral exponent `n` (`math::pow_int`, `|n| <= POWI_MAX`).
pub(super) struct PowInt(pub i32);

impl LaneFn for PowInt {
    #[inline(always)]
    fn call<L: Lane>(&self, x: L) -> L {
        math::pow_int(x, self.0)
    }
}

/// `f` on every lane of the `W` groups of `x`, two groups at a time (the last one
/// alone when `W` is odd).
#[inline(always)]
pub(super) fn in_pairs<const W: usize>(x: Pack<W>, f: &impl LaneFn) -> Pack<W> {
    let mut out = x;
    let mut g = 0;
    while g + 2 <= W {
        let pair = f.call(Pack([x.0[g], x.0[g + 1]]));
        out.0[g] = pair.0[0];
        out.0[g + 1] = pair.0[1];
        g += 2;
    }
    if g < W {
        out.0[g] = f.call(x.0[g]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use wide::f32x8;

    /// Every lane of `in_pairs` is the function on that lane alone, for every chunk
    /// width (odd ones leave a group alone), on ordinary and edge inputs.
    #[test]
    fn in_pairs_is_the_function_lane_by_lane() {
        let inputs = [
            0.0,
            -0.0,
            1.0e-40,
            0.5,
            -1.75,
            3.0e4,
            -1.0e9,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            0.999,
            1.0,
            -1.0,
            100.0,
            1.0e-3,
        ];
        let group = |g: usize| f32x8::new(std::array::from_fn(|i| inputs[(g * 3 + i) % 16]));
        fn check<const W: usize>(x: Pack<W>, f: &impl LaneFn, one: impl Fn(f32) -> f32) {
            let out = in_pairs(x, f);
            for g in 0..W {
                let (got, input) = (out.0[g].to_array(), x.0[g].to_array());
                for i in 0..8 {
                    let want = one(input[i]);
                    let same =
                        got[i].to_bits() == want.to_bits() || (got[i].is_nan() && want.is_nan());
                    assert!(
                        same,
                        "W {W} group {g} lane {i}: f({}) = {} not {want}",
                        input[i], got[i]
                    );
                }
            }
        }
        fn all<const W: usize>(group: &impl Fn(usize) -> f32x8) {
            let x = Pack::<W>(std::array::from_fn(group));
            check(x, &Sin, math::sin::<f32>);
            check(x, &Cos, math::cos::<f32>);
            for n in [-3, 0, 1, 2, 7, 48, 1023] {
                check(x, &PowInt(n), |v| math::pow_int(v, n));
            }
        }
        all::<1>(&group);
        all::<2>(&group);
        all::<3>(&group);
        all::<7>(&group);
        all::<8>(&group);
    }
}
