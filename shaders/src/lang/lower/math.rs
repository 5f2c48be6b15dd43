//! Per-lane math built-ins, each a composition of existing opcodes (no new CSIR
//! opcodes). RSQ, TRUNC, POW and CMP read lane x only, so vectors apply them lane by
//! lane (SWZ to lane x, the op, SETLANE back; lane 0 needs no swizzle).
//!
//! | function | lowering |
//! |---|---|
//! | `pow(x, y)` | POW per lane |
//! | `exp2(x)`, `exp(x)` | extended profile: EX2(x), EX2(x · log2 e) (`exec::math::exp`: EX2 within 1 ulp, so within GLSL 1.30 §8.2's 3 + 2·\|x\| ulp); seed profile, which has no EX2: POW(2, x), POW(e, x) per lane |
//! | `sqrt(x)` | x · RSQ(x) per lane (sqrt(0) = 0 · 0 = 0 exactly) |
//! | `inversesqrt(x)` | RSQ per lane |
//! | `trunc(x)` | TRUNC per lane |
//! | `floor(x)` | t − [t > x] with t = trunc(x) |
//! | `ceil(x)` | −floor(−x) |
//! | `fract(x)` | x − floor(x) |
//! | `round(x)`, `roundEven(x)` | r = floor(x), d = x − r; r + [d > ½] + [d = ½]·[r odd] (half to even, as llvmpipe rounds) |
//! | `mod(x, y)` | x − y · floor(x / y) |
//! | `sign(x)` | [x > 0] − [x < 0] |
//! | `step(e, x)` | [x ≥ e] |
//! | `smoothstep(a, b, x)` | t = clamp((x − a) / (b − a), 0, 1); t·t·(3 − 2t) |
//! | `radians`, `degrees` | MUL by π/180, 180/π |
//!
//! The divisions of `mod` and `smoothstep` are the language's `/`: DIV under the
//! extended profile (so `mod(x, y)` follows GLSL's definition with a correctly rounded
//! quotient), `x · RCP(y)` under the seed's.

use super::super::ast::BinOp;
use super::super::token::Pos;
use super::super::types::Type;
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Op};

impl Lowerer<'_> {
    pub(super) fn math_builtin(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        let want = match name {
            "pow" | "mod" | "step" => 2,
            "smoothstep" => 3,
            _ => 1,
        };
        if v.len() != want {
            return self.err(
                pos,
                format!(
                    "{name}() expects {want} argument{}",
                    if want == 1 { "" } else { "s" }
                ),
            );
        }
        let x = self.gen_type(&v[0], name == "sign", pos)?;
        match name {
            "pow" => {
                let y = self.gen_type(&v[1], false, pos)?;
                if y.ty != x.ty {
                    return self.err(pos, "pow() expects two values of the same type");
                }
                self.lanes2(Op::Pow, 0, &x, &y, x.ty)
            }
            "exp2" => self.exponential(2.0, &x),
            "exp" => self.exponential(std::f32::consts::E, &x),
            "sqrt" => {
                let r = self.lanes1(Op::Rsq, &x)?;
                self.lanewise(Op::Mul, &x, &r, x.ty)
            }
            "inversesqrt" => self.lanes1(Op::Rsq, &x),
            "trunc" => self.lanes1(Op::Trunc, &x),
            "floor" => self.floor(&x),
            "ceil" => {
                // −floor(−x): exact, and ceil(−0.5) keeps its −0.0 (t + [t < x] would
                // give +0.0 there).
                let m1 = Value::float(-1.0);
                let n = self.widen_op(Op::Mul, &x, &m1, x.ty)?;
                let f = self.floor(&n)?;
                self.widen_op(Op::Mul, &f, &m1, x.ty)
            }
            "fract" => {
                let f = self.floor(&x)?;
                self.lanewise(Op::Sub, &x, &f, x.ty)
            }
            "round" | "roundEven" => self.round_even(&x),
            "mod" => {
                let y = self.same_or_scalar(&x, &v[1], pos)?;
                let q = self.binary(BinOp::Div, &x, &y, pos)?;
                let f = self.floor(&q)?;
                let p = self.widen_op(Op::Mul, &y, &f, x.ty)?;
                self.lanewise(Op::Sub, &x, &p, x.ty)
            }
            "sign" if self.int_lanes(x.ty) != super::ints::Lanes::Float => {
                // GLSL 1.30 §8.3 sign(genIType): ISSG.
                self.unary_op(Op::ISsg, &x, x.ty)
            }
            "sign" => {
                let zero = Value::float(0.0);
                let pos_ = self.lanes2(Op::Cmp, CmpCode::Gt.code(), &x, &zero, x.ty)?;
                let neg = self.lanes2(Op::Cmp, CmpCode::Lt.code(), &x, &zero, x.ty)?;
                self.lanewise(Op::Sub, &pos_, &neg, x.ty)
            }
            "step" => {
                let xs = self.gen_type(&v[1], false, pos)?;
                let edge = self.same_or_scalar(&xs, &x, pos)?;
                self.lanes2(Op::Cmp, CmpCode::Ge.code(), &xs, &edge, xs.ty)
            }
            "smoothstep" => {
                let xs = self.gen_type(&v[2], false, pos)?;
                let e0 = self.same_or_scalar(&xs, &x, pos)?;
                let e1 = self.gen_type(&v[1], false, pos)?;
                let e1 = self.same_or_scalar(&xs, &e1, pos)?;
                let num = self.widen_op(Op::Sub, &xs, &e0, xs.ty)?;
                let den = self.widen_op(Op::Sub, &e1, &e0, e0.ty)?;
                let q = self.binary(BinOp::Div, &num, &den, pos)?;
                let lo = self.widen_op(Op::Max, &q, &Value::float(0.0), xs.ty)?;
                let t = self.widen_op(Op::Min, &lo, &Value::float(1.0), xs.ty)?;
                let t2 = self.lanewise(Op::Mul, &t, &t, xs.ty)?;
                let two_t = self.lanewise(Op::Add, &t, &t, xs.ty)?;
                let three = self.broadcast(&Value::float(3.0), xs.ty.width())?;
                let k = self.lanewise(Op::Sub, &three, &two_t, xs.ty)?;
                self.lanewise(Op::Mul, &t2, &k, xs.ty)
            }
            "radians" => self.widen_op(
                Op::Mul,
                &x,
                &Value::float(std::f32::consts::PI / 180.0),
                x.ty,
            ),
            "degrees" => self.widen_op(
                Op::Mul,
                &x,
                &Value::float(180.0 / std::f32::consts::PI),
                x.ty,
            ),
            _ => self.err(pos, format!("{name} is not supported")),
        }
    }

    /// floor(x) = t − [t > x] with t = trunc(x), lane by lane.
    fn floor(&mut self, x: &Value) -> LResult<Value> {
        let t = self.lanes1(Op::Trunc, x)?;
        let down = self.lanes2(Op::Cmp, CmpCode::Gt.code(), &t, x, x.ty)?;
        self.lanewise(Op::Sub, &t, &down, x.ty)
    }

    /// Round to nearest, ties to even, lane by lane. `d = x − floor(x)` is exact except
    /// for tiny negative x, where it rounds to 1.0 and still gives the right answer.
    /// `floor(x + 0.5)` would not do: it rounds 0.49999997 up and 2^23 + 1 to 2^23 + 2.
    /// A zero result is +0.0 (GLSL leaves the sign of zero unspecified here).
    fn round_even(&mut self, x: &Value) -> LResult<Value> {
        let ty = x.ty;
        let r = self.floor(x)?;
        let d = self.lanewise(Op::Sub, x, &r, ty)?;
        let half = Value::float(0.5);
        let above = self.lanes2(Op::Cmp, CmpCode::Gt.code(), &d, &half, ty)?;
        let tie = self.lanes2(Op::Cmp, CmpCode::Eq.code(), &d, &half, ty)?;
        // r odd ⇔ r − 2·floor(r/2) = 1 (exact: r is an integer).
        let h = self.widen_op(Op::Mul, &r, &half, ty)?;
        let fh = self.floor(&h)?;
        let two_fh = self.lanewise(Op::Add, &fh, &fh, ty)?;
        let parity = self.lanewise(Op::Sub, &r, &two_fh, ty)?;
        let odd_tie = self.lanewise(Op::Mul, &tie, &parity, ty)?;
        let up = self.lanewise(Op::Add, &above, &odd_tie, ty)?;
        self.lanewise(Op::Add, &r, &up, ty)
    }

    /// A one-operand scalar opcode on every lane of `x`.
    pub(crate) fn lanes1(&mut self, op: Op, x: &Value) -> LResult<Value> {
        let x = *x;
        self.per_lane(x.ty, |s, k| {
            let a = s.lane(&x, k)?;
            s.scalar_op(op, &a, None, 0, Type::Float)
        })
    }

    /// A two-operand scalar opcode on every lane (a scalar operand is reused for
    /// every lane); the result has type `ty`.
    pub(crate) fn lanes2(
        &mut self,
        op: Op,
        aux: i16,
        a: &Value,
        b: &Value,
        ty: Type,
    ) -> LResult<Value> {
        let (a, b) = (*a, *b);
        self.per_lane(ty, |s, k| {
            let x = if a.ty.width() == 1 { a } else { s.lane(&a, k)? };
            let y = if b.ty.width() == 1 { b } else { s.lane(&b, k)? };
            s.scalar_op(op, &x, Some(&y), aux, Type::Float)
        })
    }
}

impl Lowerer<'_> {
    /// `base^x` lane by lane for `base` 2 or e (`exp2`, `exp` and the hyperbolic
    /// functions of `trig.rs`): EX2(x), or EX2(x · log2 e) for e, under the extended
    /// profile; POW(base, x) under the seed's, which has no EX2 (its output must not
    /// change).
    pub(super) fn exponential(&mut self, base: f32, x: &Value) -> LResult<Value> {
        if !self.limits.extended_ops() {
            return self.lanes2(Op::Pow, 0, &Value::float(base), x, x.ty);
        }
        if base == 2.0 {
            return self.lanes1(Op::Ex2, x);
        }
        let scaled = self.widen_op(Op::Mul, x, &Value::float(std::f32::consts::LOG2_E), x.ty)?;
        self.lanes1(Op::Ex2, &scaled)
    }
}
