//! What the extended profile's integer and bit instructions compute (see
//! `docs/architecture.md`, "Profiles"), on the 32-bit pattern a register lane holds.
//!
//! Each instruction is one function of the lanes' bit patterns, [`binary`] (`(u32,
//! u32) -> u32`) or [`unary`] (`u32 -> u32`), looked up by opcode and applied lane by
//! lane through [`Lane::map_bits`](super::Lane::map_bits) and
//! [`Lane::zip_bits`](super::Lane::zip_bits) by the scalar interpreter, the batch
//! interpreter and the batch binder alike, so all give the same bits by construction.
//! Signed instructions read the pattern as two's complement `i32`, unsigned ones as
//! `u32`; float instructions read it as `f32`.
//!
//! GLSL 1.30 §5.9 and TGSI leave the edge cases undefined; CSIR defines them as
//! llvmpipe (the reference renderer) computes them:
//!
//! | instruction | rule |
//! |---|---|
//! | UADD, UMUL, INEG | wrap modulo 2^32 (`INEG(INT_MIN) = INT_MIN`) |
//! | IABS | wraps: `IABS(INT_MIN) = INT_MIN` |
//! | IDIV | toward zero; `x / 0 = 0`; `INT_MIN / -1 = INT_MIN` |
//! | UDIV | `x / 0 = 0xFFFFFFFF` |
//! | IMOD | the remainder of IDIV (sign of the dividend); `x % 0 = -1`; `INT_MIN % -1 = 0` |
//! | UMOD | `x % 0 = 0xFFFFFFFF` |
//! | SHL, ISHR, USHR | the shift count is `b & 31` (TGSI's rule), so a shift by 32 is by 0 |
//! | ISSG | −1, 0 or 1 |
//! | ISLT, ISGE, USLT, USGE, USEQ, USNE | 1.0 or 0.0 (the seed's booleans, as CMP gives) |
//! | I2F, U2F | round to nearest even |
//! | F2I, F2U | toward zero, saturating at the type's range; NaN gives 0 |

use crate::ir::Op;

/// The `f32` 1.0 bit pattern: a comparison's true.
const TRUE: u32 = 0x3f80_0000;

fn flag(b: bool) -> u32 {
    if b { TRUE } else { 0 }
}

fn s(x: u32) -> i32 {
    x as i32
}

/// The two-operand integer instruction `op` as a function of the bit patterns, or
/// `None` when `op` is not one.
pub fn binary(op: Op) -> Option<fn(u32, u32) -> u32> {
    Some(match op {
        Op::UAdd => |a: u32, b: u32| a.wrapping_add(b),
        Op::UMul => |a: u32, b: u32| a.wrapping_mul(b),
        Op::IDiv => |a, b| {
            if b == 0 {
                0
            } else {
                s(a).wrapping_div(s(b)) as u32
            }
        },
        Op::UDiv => |a, b| a.checked_div(b).unwrap_or(u32::MAX),
        Op::IMod => |a, b| {
            if b == 0 {
                u32::MAX
            } else {
                s(a).wrapping_rem(s(b)) as u32
            }
        },
        Op::UMod => |a, b| a.checked_rem(b).unwrap_or(u32::MAX),
        Op::Shl => |a, b| a << (b & 31),
        Op::IShr => |a, b| (s(a) >> (b & 31)) as u32,
        Op::UShr => |a, b| a >> (b & 31),
        Op::And => |a, b| a & b,
        Op::Or => |a, b| a | b,
        Op::Xor => |a, b| a ^ b,
        Op::IMin => |a, b| s(a).min(s(b)) as u32,
        Op::IMax => |a, b| s(a).max(s(b)) as u32,
        Op::UMin => |a: u32, b: u32| a.min(b),
        Op::UMax => |a: u32, b: u32| a.max(b),
        Op::ISlt => |a, b| flag(s(a) < s(b)),
        Op::ISge => |a, b| flag(s(a) >= s(b)),
        Op::USlt => |a, b| flag(a < b),
        Op::USge => |a, b| flag(a >= b),
        Op::USeq => |a, b| flag(a == b),
        Op::USne => |a, b| flag(a != b),
        _ => return None,
    })
}

/// The one-operand integer instruction `op` (including the conversions, and LG2 and
/// EX2, whose per-lane scalar functions are [`lg2_bits`](super::lg2_bits) and
/// [`ex2_bits`](super::ex2_bits)) as a function of the bit pattern, or `None` when
/// `op` is not one.
pub fn unary(op: Op) -> Option<fn(u32) -> u32> {
    Some(match op {
        Op::Not => |a: u32| !a,
        Op::INeg => |a: u32| a.wrapping_neg(),
        Op::IAbs => |a| s(a).wrapping_abs() as u32,
        Op::ISsg => |a| s(a).signum() as u32,
        Op::I2F => |a| (s(a) as f32).to_bits(),
        Op::U2F => |a| (a as f32).to_bits(),
        // `as` rounds toward zero, saturates and maps NaN to 0.
        Op::F2I => |a| f32::from_bits(a) as i32 as u32,
        Op::F2U => |a| f32::from_bits(a) as u32,
        // Not an integer instruction, but also a function of one lane's pattern.
        Op::Lg2 => super::log::lg2_bits,
        Op::Ex2 => super::exp::ex2_bits,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: Op, a: i64, b: i64) -> i64 {
        i64::from(binary(op).unwrap()(a as u32, b as u32) as i32)
    }

    fn un(op: Op, a: u32) -> u32 {
        unary(op).unwrap()(a)
    }

    const MIN: i64 = i32::MIN as i64;
    const MAX: i64 = i32::MAX as i64;

    #[test]
    fn division_and_remainder_edges() {
        assert_eq!(bin(Op::IDiv, 7, -2), -3);
        assert_eq!(bin(Op::IDiv, -7, 2), -3);
        assert_eq!(bin(Op::IDiv, 5, 0), 0);
        assert_eq!(bin(Op::IDiv, MIN, -1), MIN);
        assert_eq!(bin(Op::IMod, -7, 2), -1);
        assert_eq!(bin(Op::IMod, 7, -2), 1);
        assert_eq!(bin(Op::IMod, 5, 0), -1);
        assert_eq!(bin(Op::IMod, MIN, -1), 0);
        assert_eq!(binary(Op::UDiv).unwrap()(u32::MAX, 2), 0x7fff_ffff);
        assert_eq!(binary(Op::UDiv).unwrap()(9, 0), u32::MAX);
        assert_eq!(binary(Op::UMod).unwrap()(9, 0), u32::MAX);
        assert_eq!(binary(Op::UMod).unwrap()(u32::MAX, 10), 5);
    }

    #[test]
    fn wrapping_shifts_and_bits() {
        assert_eq!(bin(Op::UAdd, MAX, 1), MIN);
        assert_eq!(bin(Op::UMul, 65536, 65536), 0);
        assert_eq!(bin(Op::UMul, -3, 5), -15);
        assert_eq!(bin(Op::Shl, 1, 31), MIN);
        assert_eq!(bin(Op::Shl, 1, 32), 1);
        assert_eq!(bin(Op::Shl, 3, 33), 6);
        assert_eq!(bin(Op::IShr, -8, 1), -4);
        assert_eq!(bin(Op::IShr, MIN, 31), -1);
        assert_eq!(binary(Op::UShr).unwrap()(0x8000_0000, 31), 1);
        assert_eq!(binary(Op::UShr).unwrap()(0x8000_0000, 32), 0x8000_0000);
        assert_eq!(bin(Op::And, 0b1100, 0b1010), 0b1000);
        assert_eq!(bin(Op::Or, 0b1100, 0b1010), 0b1110);
        assert_eq!(bin(Op::Xor, 0b1100, 0b1010), 0b0110);
        assert_eq!(un(Op::Not, 0), u32::MAX);
        assert_eq!(un(Op::INeg, MIN as u32), MIN as u32);
        assert_eq!(un(Op::IAbs, MIN as u32), MIN as u32);
        assert_eq!(un(Op::IAbs, -5i32 as u32), 5);
        assert_eq!(un(Op::ISsg, -5i32 as u32), u32::MAX);
        assert_eq!(un(Op::ISsg, 0), 0);
        assert_eq!(un(Op::ISsg, 9), 1);
    }

    #[test]
    fn min_max_and_comparisons_by_signedness() {
        assert_eq!(bin(Op::IMin, -1, 1), -1);
        assert_eq!(bin(Op::UMin, -1, 1), 1);
        assert_eq!(bin(Op::IMax, -1, 1), 1);
        assert_eq!(bin(Op::UMax, -1, 1), -1);
        let t = 1.0f32.to_bits();
        assert_eq!(binary(Op::ISlt).unwrap()(-1i32 as u32, 1), t);
        assert_eq!(binary(Op::USlt).unwrap()(-1i32 as u32, 1), 0);
        assert_eq!(binary(Op::ISge).unwrap()(5, 5), t);
        assert_eq!(binary(Op::USge).unwrap()(4, 5), 0);
        assert_eq!(binary(Op::USeq).unwrap()(4, 4), t);
        assert_eq!(binary(Op::USne).unwrap()(4, 4), 0);
    }

    #[test]
    fn conversions_round_and_saturate() {
        let f = |x: f32| x.to_bits();
        assert_eq!(un(Op::I2F, -3i32 as u32), f(-3.0));
        assert_eq!(un(Op::I2F, 16_777_217), f(16_777_216.0));
        assert_eq!(un(Op::U2F, u32::MAX), f(4_294_967_296.0));
        assert_eq!(un(Op::F2I, f(-2.75)), -2i32 as u32);
        assert_eq!(un(Op::F2I, f(3e9)), i32::MAX as u32);
        assert_eq!(un(Op::F2I, f(f32::NAN)), 0);
        assert_eq!(un(Op::F2U, f(-1.5)), 0);
        assert_eq!(un(Op::F2U, f(3e9)), 3_000_000_000);
        assert_eq!(un(Op::F2U, f(1e10)), u32::MAX);
    }

    #[test]
    fn every_extended_compute_opcode_has_exactly_one_function() {
        // The extended loads (LOAD_FACE) read an input, not lanes, and DIV is float
        // arithmetic with a SIMD step of its own (`math::div`): not bit functions.
        for op in crate::ir::ALL_OPS {
            let n = usize::from(binary(op).is_some()) + usize::from(unary(op).is_some());
            let info = op.info();
            let extended = info.profile == crate::Profile::Extended
                && info.effect == crate::ir::Effect::Compute
                && op != Op::Div;
            assert_eq!(n, usize::from(extended), "{op:?}");
        }
    }
}
