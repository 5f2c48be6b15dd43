//! Lane masks over a chunk of `W` groups of 8 lanes: one `f32x8` per group with every
//! bit of a lane set (running) or clear (masked off), the form `f32x8::select` takes.
//! Groups past the chunk's real group count stay clear.

use super::LANE_GROUP;
use super::pack::each;
use wide::f32x8;

/// Which lanes of a chunk run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mask<const W: usize>(pub [f32x8; W]);

impl<const W: usize> Mask<W> {
    /// No lane.
    pub const NONE: Self = Mask([f32x8::ZERO; W]);

    /// Every lane.
    #[inline(always)]
    pub fn all() -> Self {
        Mask([f32x8::splat(f32::from_bits(u32::MAX)); W])
    }

    /// The lanes whose bit is set in `bits` (bit `8g + i` is lane `i` of group `g`).
    #[cfg(test)]
    pub fn from_bits(bits: u64) -> Self {
        let on = f32::from_bits(u32::MAX);
        Mask(std::array::from_fn(|g| {
            f32x8::new(std::array::from_fn(|i| {
                let lane = g * LANE_GROUP + i;
                if lane < 64 && bits >> lane & 1 != 0 {
                    on
                } else {
                    0.0
                }
            }))
        }))
    }

    /// The mask as lane bits.
    pub fn bits(&self) -> u64 {
        self.0.iter().enumerate().fold(0, |acc, (g, m)| {
            acc | (m.to_bitmask() as u64) << (g * LANE_GROUP)
        })
    }

    /// Lanes in `self` but not in `other`.
    #[inline]
    pub fn and_not(self, other: Self) -> Self {
        Mask(each(|g| self.0[g] & !other.0[g]))
    }

    /// Lanes in either.
    #[inline]
    pub fn or(self, other: Self) -> Self {
        Mask(each(|g| self.0[g] | other.0[g]))
    }
}

/// The first `n` lanes (`n` <= 64) as lane bits.
#[inline]
pub(super) fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        for bits in [
            0u64,
            1,
            0x8000_0000_0000_0001,
            0xdead_beef_0123_4567,
            u64::MAX,
        ] {
            assert_eq!(Mask::<8>::from_bits(bits).bits(), bits);
            assert_eq!(Mask::<2>::from_bits(bits).bits(), bits & 0xffff);
        }
        let (a, b) = (Mask::<8>::from_bits(0b1100), Mask::<8>::from_bits(0b1010));
        assert_eq!(a.and_not(b).bits(), 0b0100);
        assert_eq!(a.or(b).bits(), 0b1110);
        assert_eq!(Mask::<8>::all().bits(), u64::MAX);
        assert_eq!(Mask::<1>::all().bits(), 0xff);
        assert_eq!(low_bits(3), 0b111);
        assert_eq!(low_bits(64), u64::MAX);
    }
}
