//! Inverse trigonometric and hyperbolic built-ins (GLSL 3.30 §8.1), composed from
//! existing opcodes: no new CSIR opcode, every lane computed by the same ADD, MUL,
//! MIN, MAX, ABS, RCP, RSQ, CMP and POW (EX2 under the extended profile) records the
//! interpreter, the batch interpreter and TGSI already share.
//!
//! | function | lowering |
//! |---|---|
//! | `atan(y, x)` | a = min(\|x\|,\|y\|)·rcp(max(\|x\|,\|y\|)); p = a·P(a²) (Abramowitz–Stegun 4.4.49, \|error\| ≤ 2e-8); then π/2 − p when \|y\| > \|x\|, π − p when x < 0, −p when y < 0 |
//! | `atan(t)` | `atan(t, 1)` |
//! | `asin(x)`, `acos(x)` | `atan(x, √((1−x)(1+x)))`, `atan(√((1−x)(1+x)), x)` |
//! | `sinh`, `cosh`, `tanh` | from eˣ (`exp`'s lowering, `math.rs`: EX2 or, in the seed profile, POW(e, x)): (eˣ − e⁻ˣ)/2, (eˣ + e⁻ˣ)/2, 1 − 2/(e²ˣ + 1); e⁻ˣ is 1 / eˣ by DIV under the extended profile (by RCP under the seed's) |
//!
//! Accuracy: within about 2e-7 of the f64 result for atan/asin/acos away from
//! |x| → 1 for asin/acos (where √(1−x²) loses half the digits, as in any float
//! implementation), and within the EX2 (or POW) bound for the hyperbolic functions. GLSL
//! leaves `atan(0, 0)` undefined; here it is 0. Out-of-domain asin/acos give NaN.

use super::super::consteval::ConstData;
use super::super::token::Pos;
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Op};
use std::f32::consts::{E, FRAC_PI_2, PI};

/// Abramowitz & Stegun 4.4.49: atan(a) ≈ a·Σ cₖ·a²ᵏ on 0 ≤ a ≤ 1.
const ATAN_COEFFS: [f32; 8] = [
    0.999_999_3,
    -0.333_298_57,
    0.199_465_36,
    -0.139_085_34,
    0.096_420_04,
    -0.055_909_886,
    0.021_861_23,
    -0.004_054_058,
];

/// The functions lowered here.
pub(super) const TRIG_BUILTINS: &[&str] = &["atan", "asin", "acos", "sinh", "cosh", "tanh"];

impl Lowerer<'_> {
    pub(super) fn trig_builtin(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        let want = if name == "atan" && v.len() == 2 { 2 } else { 1 };
        if v.len() != want {
            return self.err(pos, format!("{name}() expects 1 argument"));
        }
        let x = self.gen_type(&v[0], false, pos)?;
        let ty = x.ty;
        let one = Value::konst(ty, ConstData::splat(1.0));
        match name {
            "atan" if want == 2 => {
                let xs = self.gen_type(&v[1], false, pos)?;
                if xs.ty != ty {
                    return self.err(pos, "atan() expects two values of the same type");
                }
                self.atan2(&x, &xs)
            }
            "atan" => self.atan2(&x, &one),
            "asin" | "acos" => {
                let a = self.lanewise(Op::Sub, &one, &x, ty)?;
                let b = self.lanewise(Op::Add, &one, &x, ty)?;
                let s = self.lanewise(Op::Mul, &a, &b, ty)?;
                let r = self.lanes1(Op::Rsq, &s)?;
                let c = self.lanewise(Op::Mul, &s, &r, ty)?;
                if name == "asin" {
                    self.atan2(&x, &c)
                } else {
                    self.atan2(&c, &x)
                }
            }
            _ => {
                let k = if name == "tanh" { 2.0 } else { 1.0 };
                let kx = self.widen_op(Op::Mul, &x, &Value::float(k), ty)?;
                let ex = self.exponential(E, &kx)?;
                if name == "tanh" {
                    let d = self.lanewise(Op::Add, &ex, &one, ty)?;
                    let r = self.unary_op(Op::Rcp, &d, ty)?;
                    let r2 = self.lanewise(Op::Add, &r, &r, ty)?;
                    return self.lanewise(Op::Sub, &one, &r2, ty);
                }
                // e^-x as 1 / e^x: DIV under the extended profile, so that an
                // underflowed e^x (x < -103) gives sinh = -inf, cosh = +inf as GLSL's
                // (e^x ∓ e^-x) / 2 overflows, where RCP(0) = 0 would give 0.
                let inv = self.float_div(&one, &ex, ty)?;
                let op = if name == "sinh" { Op::Sub } else { Op::Add };
                let s = self.lanewise(op, &ex, &inv, ty)?;
                self.widen_op(Op::Mul, &s, &Value::float(0.5), ty)
            }
        }
    }

    /// atan(y, x) lane by lane (both of the same float type).
    fn atan2(&mut self, y: &Value, x: &Value) -> LResult<Value> {
        let ty = y.ty;
        let zero = Value::float(0.0);
        let ax = self.unary_op(Op::Abs, x, ty)?;
        let ay = self.unary_op(Op::Abs, y, ty)?;
        let hi = self.lanewise(Op::Max, &ax, &ay, ty)?;
        let lo = self.lanewise(Op::Min, &ax, &ay, ty)?;
        let r = self.unary_op(Op::Rcp, &hi, ty)?;
        let a = self.lanewise(Op::Mul, &lo, &r, ty)?;
        let s = self.lanewise(Op::Mul, &a, &a, ty)?;
        let mut poly = Value::konst(ty, ConstData::splat(ATAN_COEFFS[7]));
        for &c in ATAN_COEFFS[..7].iter().rev() {
            let m = self.lanewise(Op::Mul, &poly, &s, ty)?;
            poly = self.widen_op(Op::Add, &m, &Value::float(c), ty)?;
        }
        let mut p = self.lanewise(Op::Mul, &poly, &a, ty)?;
        // p += swap·(π/2 − 2p): π/2 − p where |y| > |x|.
        let swap = self.compare_lanes(CmpCode::Gt, &ay, &ax, ty)?;
        p = self.reflect_where(&swap, &p, FRAC_PI_2)?;
        let neg_x = self.compare_lanes(CmpCode::Lt, x, &zero, ty)?;
        p = self.reflect_where(&neg_x, &p, PI)?;
        // −p where y < 0: p·(1 − 2·[y < 0]).
        let neg_y = self.compare_lanes(CmpCode::Lt, y, &zero, ty)?;
        let twice = self.lanewise(Op::Add, &neg_y, &neg_y, ty)?;
        let one = Value::konst(ty, ConstData::splat(1.0));
        let sign = self.lanewise(Op::Sub, &one, &twice, ty)?;
        self.lanewise(Op::Mul, &p, &sign, ty)
    }

    /// `k − p` in the lanes where `mask` is 1, `p` elsewhere: p + mask·(k − 2p).
    fn reflect_where(&mut self, mask: &Value, p: &Value, k: f32) -> LResult<Value> {
        let ty = p.ty;
        let p2 = self.lanewise(Op::Add, p, p, ty)?;
        let kv = Value::konst(ty, ConstData::splat(k));
        let d = self.lanewise(Op::Sub, &kv, &p2, ty)?;
        let md = self.lanewise(Op::Mul, mask, &d, ty)?;
        self.lanewise(Op::Add, p, &md, ty)
    }
}
