//! The shared math of the interpreters, written once over [`Lane`] so that the scalar
//! interpreter (`f32`) and the batch interpreter (`wide::f32x8`) give the same bits in
//! every lane for every input, NaN, ±inf, ±0 and subnormals included
//! (architecture.md: "transcendental functions are written once").
//!
//! Only IEEE-exact primitives are used, always in the same order: + − × ÷, sqrt,
//! trunc, floor, comparisons, selects and bit casts (no libm, no FMA, none of `wide`'s
//! approximate `recip`/`recip_sqrt`/`sin_cos`, whose bits differ between CPUs and
//! with FMA). `pow` works in `f64`
//! through [`Lane64`] (`f64` and `wide::f64x4`).
//!
//! | function | rule | accuracy (measured by the tests) |
//! |---|---|---|
//! | [`sin`], [`cos`] | docs/csir-original.md A2 | ≤ 7.7e-8 absolute for \|x\| ≤ 1e4, ≤ 9.6e-7 to 1e5 |
//! | [`pow`], [`pow_int`] | C `powf` (A2) | integral \|y\| ≤ 1023: exact squaring, ≤ 1 ulp (< 2^-42 from the true power before rounding); otherwise correctly rounded on 3e6 random samples; ≤ 1 ulp asserted |
//! | [`rsq`], [`rcp`] | A1/A2: IEEE sqrt and division, 0 at the seed's poles | correctly rounded steps |
//! | [`trunc`], [`min`], [`max`], [`abs`] | A1, B §4 | exact |
//! | [`min_num`], [`max_num`] (MIN, MAX of the extended profile, [`MinMax`]) | IEEE 754 minNum/maxNum | exact |
//! | [`div`] (DIV, extended profile) | IEEE-754 division | correctly rounded |
//! | [`int`]: the extended profile's integer and bit instructions | the rules in [`int`] | exact (bit functions) |
//! | [`lg2`] (LG2, extended profile) | IEEE `log2` | ≤ 1 ulp (a scalar function of the bits, per lane) |
//! | [`ex2`] (EX2, extended profile) | IEEE `exp2` | ≤ 1 ulp (a scalar function of the bits, per lane) |

mod basic;
mod exp;
pub mod int;
mod lane;
mod log;
mod pow;
mod trig;

pub use basic::{MinMax, abs, div, from_mask, max, max_num, min, min_num, rcp, rsq, trunc};
pub use exp::{ex2, ex2_bits};
pub use lane::{Lane, Lane64};
pub use log::{lg2, lg2_bits};
pub use pow::{POWI_MAX, pow, pow_int};
pub use trig::{cos, sin};

#[cfg(test)]
mod parity;

/// `2^e` for `e` in −149..=127, built from its bits (the subnormals below −126): the
/// exact values the LG2 and EX2 tests check against.
#[cfg(test)]
fn power_of_two(e: i32) -> f32 {
    f32::from_bits(if e < -126 {
        1 << (e + 149)
    } else {
        ((e + 127) as u32) << 23
    })
}
