//! [`Pack`]: `N` groups of 8 lanes evaluated together, so that the long dependency
//! chains of the shared transcendental functions (POW's `f64` series, SIN/COS's
//! polynomials) of `N` groups interleave instead of running one after another.
//!
//! `Pack<N>` implements the shared math's [`Lane`] trait (and `Pack64<N>` its
//! [`Lane64`]) with every operation applied to each `f32x8` (or `f64x4`) on its own:
//! each lane goes through exactly the operations it would as an `f32x8` lane, so the
//! bits are the same as the scalar interpreter's (the math is written once,
//! architecture.md); only the instruction order changes. Measured on POW-heavy
//! shaders (`benches/HISTORY.md`).

use crate::exec::math::{Lane, Lane64};
use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Shl, Shr, Sub};
use wide::{f32x8, f64x4, u64x4};

/// `[f(0), f(1), …, f(N−1)]` (`N >= 1`) as a plain loop: `array::map` and
/// `array::from_fn` were not inlined for these element types (measured: a quarter of
/// the procedural shader's time went to their closure calls).
#[inline(always)]
pub(super) fn each<T: Copy, const N: usize>(f: impl Fn(usize) -> T) -> [T; N] {
    let mut out = [f(0); N];
    for (i, o) in out.iter_mut().enumerate().skip(1) {
        *o = f(i);
    }
    out
}

/// `N` groups of 8 `f32` lanes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pack<const N: usize>(pub [f32x8; N]);

/// The `f64` form of a [`Pack`]: each group as two halves of four lanes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pack64<const N: usize>([[f64x4; 2]; N]);

/// The bits of a [`Pack64`].
#[derive(Clone, Copy, Debug)]
pub(super) struct PackBits<const N: usize>([[u64x4; 2]; N]);

/// Implement a binary operator element by element.
macro_rules! elementwise {
    ($ty:ident, $trait:ident, $method:ident, $($half:tt)?) => {
        impl<const N: usize> $trait for $ty<N> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                $ty(each(|g| elementwise!(@one self.0[g], rhs.0[g], $method $($half)?)))
            }
        }
    };
    (@one $a:expr, $b:expr, $method:ident) => { $a.$method($b) };
    (@one $a:expr, $b:expr, $method:ident halves) => {
        [$a[0].$method($b[0]), $a[1].$method($b[1])]
    };
}

elementwise!(Pack, Add, add,);
elementwise!(Pack, Sub, sub,);
elementwise!(Pack, Mul, mul,);
elementwise!(Pack, Div, div,);
elementwise!(Pack, BitAnd, bitand,);
elementwise!(Pack, BitOr, bitor,);
elementwise!(Pack64, Add, add, halves);
elementwise!(Pack64, Sub, sub, halves);
elementwise!(Pack64, Mul, mul, halves);
elementwise!(Pack64, Div, div, halves);
elementwise!(PackBits, BitAnd, bitand, halves);
elementwise!(PackBits, BitOr, bitor, halves);

impl<const N: usize> Neg for Pack<N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Pack(each(|g| -self.0[g]))
    }
}

impl<const N: usize> Not for Pack<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Pack(each(|g| !self.0[g]))
    }
}

impl<const N: usize> Shl<u32> for PackBits<N> {
    type Output = Self;
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        PackBits(each(|g| [self.0[g][0] << k, self.0[g][1] << k]))
    }
}

impl<const N: usize> Shr<u32> for PackBits<N> {
    type Output = Self;
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        PackBits(each(|g| [self.0[g][0] >> k, self.0[g][1] >> k]))
    }
}

impl<const N: usize> Pack<N> {
    #[inline(always)]
    fn map(self, f: impl Fn(f32x8) -> f32x8) -> Self {
        Pack(each(|g| f(self.0[g])))
    }

    #[inline(always)]
    fn zip(self, rhs: Self, f: impl Fn(f32x8, f32x8) -> f32x8) -> Self {
        Pack(each(|g| f(self.0[g], rhs.0[g])))
    }
}

impl<const N: usize> Lane for Pack<N> {
    type Mask = Pack<N>;
    type F64 = Pack64<N>;

    #[inline(always)]
    fn splat(v: f32) -> Self {
        Pack([f32x8::splat(v); N])
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        self.map(Lane::sqrt)
    }
    #[inline(always)]
    fn trunc(self) -> Self {
        self.map(Lane::trunc)
    }
    #[inline(always)]
    fn floor(self) -> Self {
        self.map(Lane::floor)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        self.map(Lane::abs)
    }
    #[inline(always)]
    fn lt(self, rhs: Self) -> Self {
        self.zip(rhs, Lane::lt)
    }
    #[inline(always)]
    fn le(self, rhs: Self) -> Self {
        self.zip(rhs, Lane::le)
    }
    #[inline(always)]
    fn gt(self, rhs: Self) -> Self {
        self.zip(rhs, Lane::gt)
    }
    #[inline(always)]
    fn ge(self, rhs: Self) -> Self {
        self.zip(rhs, Lane::ge)
    }
    #[inline(always)]
    fn eq(self, rhs: Self) -> Self {
        self.zip(rhs, Lane::eq)
    }
    #[inline(always)]
    fn ne(self, rhs: Self) -> Self {
        self.zip(rhs, Lane::ne)
    }
    #[inline(always)]
    fn is_sign_negative(self) -> Self {
        self.map(Lane::is_sign_negative)
    }
    #[inline(always)]
    fn select(mask: Self, if_true: Self, if_false: Self) -> Self {
        Pack(each(|g| mask.0[g].select(if_true.0[g], if_false.0[g])))
    }
    #[inline(always)]
    fn quadrant(self, offset: i32) -> (Self, Self) {
        let q = self.0.map(|g| g.quadrant(offset));
        (Pack(each(|g| q[g].0)), Pack(each(|g| q[g].1)))
    }
    #[inline(always)]
    fn all(mask: Self) -> bool {
        mask.0.iter().all(|m| m.all())
    }
    #[inline(always)]
    fn any(mask: Self) -> bool {
        mask.0.iter().any(|m| m.any())
    }
    #[inline(always)]
    fn map_bits(self, f: impl Fn(u32) -> u32) -> Self {
        self.map(|g| g.map_bits(&f))
    }
    #[inline(always)]
    fn zip_bits(self, other: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        self.zip(other, |x, y| x.zip_bits(y, &f))
    }
    /// Like `f32x8`'s: widen exactly, apply `f` to every half at once, round back.
    #[inline(always)]
    fn zip_f64(self, other: Self, f: impl Fn(Pack64<N>, Pack64<N>) -> Pack64<N>) -> Self {
        let r = f(widen(self), widen(other));
        Pack(each(|g| {
            let (lo, hi) = (r.0[g][0].to_array(), r.0[g][1].to_array());
            f32x8::new(std::array::from_fn(|i| {
                if i < 4 {
                    lo[i] as f32
                } else {
                    hi[i - 4] as f32
                }
            }))
        }))
    }
}

/// Every lane of `p` as an `f64` (exact).
#[inline(always)]
fn widen<const N: usize>(p: Pack<N>) -> Pack64<N> {
    Pack64(each(|g| {
        let a = p.0[g].to_array();
        let half = |k: usize| {
            f64x4::new([
                a[k] as f64,
                a[k + 1] as f64,
                a[k + 2] as f64,
                a[k + 3] as f64,
            ])
        };
        [half(0), half(4)]
    }))
}

impl<const N: usize> Lane64 for Pack64<N> {
    type Mask = Pack64<N>;
    type Bits = PackBits<N>;

    #[inline(always)]
    fn splat(v: f64) -> Self {
        Pack64([[f64x4::splat(v); 2]; N])
    }
    #[inline(always)]
    fn splat_bits(v: u64) -> PackBits<N> {
        PackBits([[u64x4::splat(v); 2]; N])
    }
    #[inline(always)]
    fn to_bits(self) -> PackBits<N> {
        PackBits(each(|g| [self.0[g][0].to_bits(), self.0[g][1].to_bits()]))
    }
    #[inline(always)]
    fn from_bits(bits: PackBits<N>) -> Self {
        Pack64(each(|g| {
            [
                f64x4::from_bits(bits.0[g][0]),
                f64x4::from_bits(bits.0[g][1]),
            ]
        }))
    }
    #[inline(always)]
    fn trunc(self) -> Self {
        Pack64(each(|g| [self.0[g][0].trunc(), self.0[g][1].trunc()]))
    }
    #[inline(always)]
    fn lt(self, rhs: Self) -> Self {
        Pack64(each(|g| {
            [
                self.0[g][0].simd_lt(rhs.0[g][0]),
                self.0[g][1].simd_lt(rhs.0[g][1]),
            ]
        }))
    }
    #[inline(always)]
    fn gt(self, rhs: Self) -> Self {
        Pack64(each(|g| {
            [
                self.0[g][0].simd_gt(rhs.0[g][0]),
                self.0[g][1].simd_gt(rhs.0[g][1]),
            ]
        }))
    }
    #[inline(always)]
    fn ge(self, rhs: Self) -> Self {
        Pack64(each(|g| {
            [
                self.0[g][0].simd_ge(rhs.0[g][0]),
                self.0[g][1].simd_ge(rhs.0[g][1]),
            ]
        }))
    }
    #[inline(always)]
    fn le(self, rhs: Self) -> Self {
        Pack64(each(|g| {
            [
                self.0[g][0].simd_le(rhs.0[g][0]),
                self.0[g][1].simd_le(rhs.0[g][1]),
            ]
        }))
    }
    #[inline(always)]
    fn select(mask: Self, if_true: Self, if_false: Self) -> Self {
        Pack64(each(|g| {
            let sel = |h: usize| mask.0[g][h].select(if_true.0[g][h], if_false.0[g][h]);
            [sel(0), sel(1)]
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::math;

    /// Every shared function gives, lane by lane, the bits of its `f32` instance.
    #[test]
    fn packs_match_scalar_bits() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match state % 4 {
                0 => f32::from_bits(state as u32),
                1 => (state >> 40) as f32 / 1e4 - 800.0,
                2 => [0.0, -0.0, 1.0, f32::INFINITY, f32::NAN, 1e-40, -3.0]
                    [(state >> 8) as usize % 7],
                _ => (state >> 40) as f32 / (1u64 << 24) as f32 * 4.0,
            }
        };
        for _ in 0..500 {
            let x: [f32; 32] = std::array::from_fn(|_| next());
            let y: [f32; 32] = std::array::from_fn(|_| next());
            let pack = |v: &[f32; 32]| {
                Pack::<4>(std::array::from_fn(|g| {
                    f32x8::new(v[g * 8..g * 8 + 8].try_into().unwrap())
                }))
            };
            let (px, py) = (pack(&x), pack(&y));
            let check = |name: &str, got: Pack<4>, want: &dyn Fn(f32, f32) -> f32| {
                for i in 0..32 {
                    let (g, l) = (got.0[i / 8].to_array()[i % 8], want(x[i], y[i]));
                    assert!(
                        g.to_bits() == l.to_bits() || (g.is_nan() && l.is_nan()),
                        "{name}({}, {}): {g} vs {l}",
                        x[i],
                        y[i]
                    );
                }
            };
            check("pow", math::pow(px, py), &|a, b| math::pow(a, b));
            for n in [48, -3, 0, 7, 1023] {
                check("pow_int", math::pow_int(px, n), &|a, _| math::pow_int(a, n));
            }
            check("sin", math::sin(px), &|a, _| math::sin(a));
            check("cos", math::cos(px), &|a, _| math::cos(a));
            check("rsq", math::rsq(px), &|a, _| math::rsq(a));
            check("rcp", math::rcp(px), &|a, _| math::rcp(a));
        }
    }
}
