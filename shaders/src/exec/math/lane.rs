//! The lane traits the shared math is written over: [`Lane`] for `f32` values (one
//! lane, or eight in a [`wide::f32x8`]) and [`Lane64`] for the `f64` helpers of `pow`
//! (one `f64`, or four in a [`wide::f64x4`]).
//!
//! Every method maps to one IEEE-exact primitive (add, subtract, multiply, divide,
//! square root, truncation, floor, comparison, select, sign or bit manipulation; and
//! [`Lane::quadrant`], integer operations on an exactly converted integral value), so
//! an algorithm written once over these traits gives the same bits in every lane on
//! both types (docs/architecture.md). Not used: `wide`'s `recip` and `recip_sqrt`
//! (approximations on x86), `mul_add` and `sin_cos` (different bits with and without
//! FMA), and never an FMA.

use bytemuck::cast;
use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Shl, Shr, Sub};
use wide::{f32x8, f64x4, i32x8, u64x4};

/// `2k` is clamped to ±this in [`Lane::quadrant`]: 2^30, exact in `f32` and `i32`.
const QUADRANT_CLAMP: f32 = 1_073_741_824.0;

/// A vector of `f32` lanes (or a single `f32`) with exactly rounded operations.
///
/// Comparisons follow IEEE: every comparison with a NaN is false except `ne`.
pub trait Lane:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Per-lane boolean: `bool` for `f32`, an all-ones/all-zeros lane mask for `f32x8`.
    type Mask: Copy
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;
    /// The `f64` lane type that holds half (or all) of these lanes, see [`Lane::zip_f64`].
    type F64: Lane64;

    /// Every lane set to `v`.
    fn splat(v: f32) -> Self;
    /// IEEE square root (correctly rounded; NaN for negative input).
    fn sqrt(self) -> Self;
    /// Round toward zero (exact; NaN, infinities and large integers pass through).
    fn trunc(self) -> Self;
    /// Round toward negative infinity (exact).
    fn floor(self) -> Self;
    /// Clear the sign bit (exact; `abs(-0.0) = +0.0`).
    fn abs(self) -> Self;
    /// `self < rhs` per lane.
    fn lt(self, rhs: Self) -> Self::Mask;
    /// `self <= rhs` per lane.
    fn le(self, rhs: Self) -> Self::Mask;
    /// `self > rhs` per lane.
    fn gt(self, rhs: Self) -> Self::Mask;
    /// `self >= rhs` per lane.
    fn ge(self, rhs: Self) -> Self::Mask;
    /// `self == rhs` per lane.
    fn eq(self, rhs: Self) -> Self::Mask;
    /// `self != rhs` per lane (true for NaN).
    fn ne(self, rhs: Self) -> Self::Mask;
    /// The sign bit per lane (true for `-0.0` and negative NaNs).
    fn is_sign_negative(self) -> Self::Mask;
    /// `mask ? if_true : if_false` per lane.
    fn select(mask: Self::Mask, if_true: Self, if_false: Self) -> Self;
    /// Whether `mask` holds in every lane (a shortcut only: results never depend on
    /// it, lane by lane).
    fn all(mask: Self::Mask) -> bool;
    /// Whether `mask` holds in some lane (a shortcut only, like [`Lane::all`]).
    fn any(mask: Self::Mask) -> bool;
    /// SIN/COS's quadrant tests (`math/trig.rs`) for `self = k`, the reduction's
    /// quadrant count, which is an integer or, for |k| in [2^22, 2^23], a half-integer:
    /// with `q = (k + offset) mod 4` in [0, 4), returns `(q == 1 || q == 3, q >= 2)`.
    ///
    /// Computed on the integer `j = 2·k + 2·offset` (`2k` clamped to ±2^30 first, where
    /// `k` is a multiple of 4 and `q = offset` either way): `q` odd is `j & 3 == 2`,
    /// `q >= 2` is `j & 4 != 0`. The results for NaN and infinite `k` are unspecified
    /// (SIN/COS return NaN there).
    fn quadrant(self, offset: i32) -> (Self::Mask, Self::Mask);
    /// `f` applied to each lane's bit pattern (the extended profile's integer
    /// instructions: [`int`](super::int)).
    fn map_bits(self, f: impl Fn(u32) -> u32) -> Self;
    /// `f` applied to the bit patterns of each pair of lanes.
    fn zip_bits(self, other: Self, f: impl Fn(u32, u32) -> u32) -> Self;
    /// Widen `self` and `other` to `f64` (exact), apply `f` and round the result back
    /// to `f32` (round to nearest even). `f64x4` holds four lanes, so for `f32x8` `f`
    /// runs once per half.
    fn zip_f64(self, other: Self, f: impl Fn(Self::F64, Self::F64) -> Self::F64) -> Self;
}

/// A vector of `f64` lanes (or a single `f64`) with exactly rounded operations and
/// access to the IEEE bit pattern.
pub trait Lane64:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// Per-lane boolean.
    type Mask: Copy;
    /// The raw `u64` bit pattern per lane.
    type Bits: Copy
        + BitAnd<Output = Self::Bits>
        + BitOr<Output = Self::Bits>
        + Shl<u32, Output = Self::Bits>
        + Shr<u32, Output = Self::Bits>;

    /// Every lane set to `v`.
    fn splat(v: f64) -> Self;
    /// Every lane's bits set to `v`.
    fn splat_bits(v: u64) -> Self::Bits;
    /// Reinterpret as bits.
    fn to_bits(self) -> Self::Bits;
    /// Reinterpret bits as floats.
    fn from_bits(bits: Self::Bits) -> Self;
    /// Round toward zero (exact).
    fn trunc(self) -> Self;
    /// `self < rhs` per lane.
    fn lt(self, rhs: Self) -> Self::Mask;
    /// `self > rhs` per lane.
    fn gt(self, rhs: Self) -> Self::Mask;
    /// `self >= rhs` per lane.
    fn ge(self, rhs: Self) -> Self::Mask;
    /// `self <= rhs` per lane.
    fn le(self, rhs: Self) -> Self::Mask;
    /// `mask ? if_true : if_false` per lane.
    fn select(mask: Self::Mask, if_true: Self, if_false: Self) -> Self;
}

impl Lane for f32 {
    type Mask = bool;
    type F64 = f64;
    #[inline]
    fn splat(v: f32) -> Self {
        v
    }
    #[inline]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline]
    fn trunc(self) -> Self {
        f32::trunc(self)
    }
    #[inline]
    fn floor(self) -> Self {
        f32::floor(self)
    }
    #[inline]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline]
    fn lt(self, rhs: Self) -> bool {
        self < rhs
    }
    #[inline]
    fn le(self, rhs: Self) -> bool {
        self <= rhs
    }
    #[inline]
    fn gt(self, rhs: Self) -> bool {
        self > rhs
    }
    #[inline]
    fn ge(self, rhs: Self) -> bool {
        self >= rhs
    }
    #[inline]
    fn eq(self, rhs: Self) -> bool {
        self == rhs
    }
    #[inline]
    fn ne(self, rhs: Self) -> bool {
        self != rhs
    }
    #[inline]
    fn is_sign_negative(self) -> bool {
        f32::is_sign_negative(self)
    }
    #[inline]
    fn select(mask: bool, if_true: Self, if_false: Self) -> Self {
        if mask { if_true } else { if_false }
    }
    #[inline]
    fn all(mask: bool) -> bool {
        mask
    }
    #[inline]
    fn any(mask: bool) -> bool {
        mask
    }
    #[inline]
    fn quadrant(self, offset: i32) -> (bool, bool) {
        // NaN stays NaN through the clamp and `as` turns it into 0 (unspecified anyway).
        let j = ((self + self).clamp(-QUADRANT_CLAMP, QUADRANT_CLAMP) as i32) + 2 * offset;
        (j & 3 == 2, j & 4 != 0)
    }
    #[inline]
    fn map_bits(self, f: impl Fn(u32) -> u32) -> Self {
        f32::from_bits(f(self.to_bits()))
    }
    #[inline]
    fn zip_bits(self, other: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        f32::from_bits(f(self.to_bits(), other.to_bits()))
    }
    #[inline]
    fn zip_f64(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        f(self as f64, other as f64) as f32
    }
}

impl Lane for f32x8 {
    type Mask = f32x8;
    type F64 = f64x4;
    #[inline]
    fn splat(v: f32) -> Self {
        f32x8::splat(v)
    }
    #[inline]
    fn sqrt(self) -> Self {
        f32x8::sqrt(self)
    }
    #[inline]
    fn trunc(self) -> Self {
        f32x8::trunc(self)
    }
    #[inline]
    fn floor(self) -> Self {
        f32x8::floor(self)
    }
    #[inline]
    fn abs(self) -> Self {
        f32x8::abs(self)
    }
    #[inline]
    fn lt(self, rhs: Self) -> Self {
        self.simd_lt(rhs)
    }
    #[inline]
    fn le(self, rhs: Self) -> Self {
        self.simd_le(rhs)
    }
    #[inline]
    fn gt(self, rhs: Self) -> Self {
        self.simd_gt(rhs)
    }
    #[inline]
    fn ge(self, rhs: Self) -> Self {
        self.simd_ge(rhs)
    }
    #[inline]
    fn eq(self, rhs: Self) -> Self {
        self.simd_eq(rhs)
    }
    #[inline]
    fn ne(self, rhs: Self) -> Self {
        self.simd_ne(rhs)
    }
    #[inline]
    fn is_sign_negative(self) -> Self {
        f32x8::is_sign_negative(self)
    }
    #[inline]
    fn select(mask: Self, if_true: Self, if_false: Self) -> Self {
        mask.select(if_true, if_false)
    }
    #[inline]
    fn all(mask: Self) -> bool {
        mask.all()
    }
    #[inline]
    fn any(mask: Self) -> bool {
        mask.any()
    }
    #[inline]
    fn quadrant(self, offset: i32) -> (Self, Self) {
        let s = f32x8::splat;
        let two_k = (self + self)
            .fast_max(s(-QUADRANT_CLAMP))
            .fast_min(s(QUADRANT_CLAMP));
        // In range and integral: the truncation is exact (no out-of-range behaviour).
        let j = two_k.fast_trunc_int() + i32x8::splat(2 * offset);
        let odd = (j & i32x8::splat(3)).simd_eq(i32x8::splat(2));
        let high = (j & i32x8::splat(4)).simd_eq(i32x8::splat(4));
        (cast(odd), cast(high))
    }
    #[inline]
    fn map_bits(self, f: impl Fn(u32) -> u32) -> Self {
        let a = self.to_array();
        f32x8::new(std::array::from_fn(|i| f32::from_bits(f(a[i].to_bits()))))
    }
    #[inline]
    fn zip_bits(self, other: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        let (a, b) = (self.to_array(), other.to_array());
        f32x8::new(std::array::from_fn(|i| {
            f32::from_bits(f(a[i].to_bits(), b[i].to_bits()))
        }))
    }
    #[inline]
    fn zip_f64(self, other: Self, f: impl Fn(f64x4, f64x4) -> f64x4) -> Self {
        let (a, b) = (self.to_array(), other.to_array());
        let half = |k: usize| {
            let wide = |v: &[f32; 8]| f64x4::new(std::array::from_fn(|i| v[k + i] as f64));
            f(wide(&a), wide(&b)).to_array()
        };
        let (lo, hi) = (half(0), half(4));
        f32x8::new(std::array::from_fn(|i| {
            if i < 4 {
                lo[i] as f32
            } else {
                hi[i - 4] as f32
            }
        }))
    }
}

impl Lane64 for f64 {
    type Mask = bool;
    type Bits = u64;

    #[inline]
    fn splat(v: f64) -> Self {
        v
    }
    #[inline]
    fn splat_bits(v: u64) -> u64 {
        v
    }
    #[inline]
    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    #[inline]
    fn trunc(self) -> Self {
        f64::trunc(self)
    }
    #[inline]
    fn lt(self, rhs: Self) -> bool {
        self < rhs
    }
    #[inline]
    fn gt(self, rhs: Self) -> bool {
        self > rhs
    }
    #[inline]
    fn ge(self, rhs: Self) -> bool {
        self >= rhs
    }
    #[inline]
    fn le(self, rhs: Self) -> bool {
        self <= rhs
    }
    #[inline]
    fn select(mask: bool, if_true: Self, if_false: Self) -> Self {
        if mask { if_true } else { if_false }
    }
}

impl Lane64 for f64x4 {
    type Mask = f64x4;
    type Bits = u64x4;

    #[inline]
    fn splat(v: f64) -> Self {
        f64x4::splat(v)
    }
    #[inline]
    fn splat_bits(v: u64) -> u64x4 {
        u64x4::splat(v)
    }
    #[inline]
    fn to_bits(self) -> u64x4 {
        f64x4::to_bits(self)
    }
    #[inline]
    fn from_bits(bits: u64x4) -> Self {
        f64x4::from_bits(bits)
    }
    #[inline]
    fn trunc(self) -> Self {
        f64x4::trunc(self)
    }
    #[inline]
    fn lt(self, rhs: Self) -> Self {
        self.simd_lt(rhs)
    }
    #[inline]
    fn gt(self, rhs: Self) -> Self {
        self.simd_gt(rhs)
    }
    #[inline]
    fn ge(self, rhs: Self) -> Self {
        self.simd_ge(rhs)
    }
    #[inline]
    fn le(self, rhs: Self) -> Self {
        self.simd_le(rhs)
    }
    #[inline]
    fn select(mask: Self, if_true: Self, if_false: Self) -> Self {
        mask.select(if_true, if_false)
    }
}
