//! The logarithm built-ins (GLSL 1.30 §8.1, §8.2), which need the extended profile's
//! LG2 (`exec::math::log`: `log2` within 1 ulp, one scalar function per lane for both
//! interpreters). `exp` and `exp2` use EX2, its inverse, where the profile has it
//! (`math.rs`).
//!
//! | function | lowering |
//! |---|---|
//! | `log2(x)` | LG2 per lane |
//! | `log(x)` | LG2(x) · ln 2 |
//! | `asinh(x)` | s · log(a + √(a² + 1)) with a = \|x\|, s = 1 − 2·[x < 0] (odd, no cancellation for x < 0) |
//! | `acosh(x)` | log(x + √(x² − 1)) |
//! | `atanh(x)` | ½ · log((1 + x) / (1 − x)) |
//!
//! `√y` is y · RSQ(y), as `sqrt` is lowered. GLSL leaves `acosh(x < 1)` and
//! `atanh(|x| ≥ 1)` undefined. Under the seed profile, which has no logarithm, each
//! is an error naming the function: "NAME needs the extended profile".

use super::super::ast::BinOp;
use super::super::consteval::ConstData;
use super::super::token::Pos;
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Op};
use std::f32::consts::LN_2;

/// The functions lowered here.
pub(super) const LOG_BUILTINS: &[&str] = &["log", "log2", "asinh", "acosh", "atanh"];

impl Lowerer<'_> {
    pub(super) fn log_builtin(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        if !self.limits.extended_ops() {
            return self.err(
                pos,
                format!(
                    "{name} needs the extended profile (the seed's CSIR has no logarithm; \
                     --profile extended)"
                ),
            );
        }
        if v.len() != 1 {
            return self.err(pos, format!("{name}() expects 1 argument"));
        }
        let x = self.gen_type(&v[0], false, pos)?;
        let ty = x.ty;
        let one = Value::konst(ty, ConstData::splat(1.0));
        match name {
            "log2" => self.lanes1(Op::Lg2, &x),
            "log" => self.natural_log(&x),
            "asinh" => {
                let a = self.unary_op(Op::Abs, &x, ty)?;
                let a2 = self.lanewise(Op::Mul, &a, &a, ty)?;
                let y = self.lanewise(Op::Add, &a2, &one, ty)?;
                let r = self.square_root(&y)?;
                let s = self.lanewise(Op::Add, &a, &r, ty)?;
                let l = self.natural_log(&s)?;
                let neg = self.compare_lanes(CmpCode::Lt, &x, &Value::float(0.0), ty)?;
                let twice = self.lanewise(Op::Add, &neg, &neg, ty)?;
                let sign = self.lanewise(Op::Sub, &one, &twice, ty)?;
                self.lanewise(Op::Mul, &l, &sign, ty)
            }
            "acosh" => {
                let x2 = self.lanewise(Op::Mul, &x, &x, ty)?;
                let y = self.lanewise(Op::Sub, &x2, &one, ty)?;
                let r = self.square_root(&y)?;
                let s = self.lanewise(Op::Add, &x, &r, ty)?;
                self.natural_log(&s)
            }
            _ => {
                let num = self.lanewise(Op::Add, &one, &x, ty)?;
                let den = self.lanewise(Op::Sub, &one, &x, ty)?;
                let q = self.binary(BinOp::Div, &num, &den, pos)?;
                let l = self.natural_log(&q)?;
                self.widen_op(Op::Mul, &l, &Value::float(0.5), ty)
            }
        }
    }

    /// `log(x)` = LG2(x) · ln 2, lane by lane.
    fn natural_log(&mut self, x: &Value) -> LResult<Value> {
        let l = self.lanes1(Op::Lg2, x)?;
        self.widen_op(Op::Mul, &l, &Value::float(LN_2), x.ty)
    }

    /// `√y` = y · RSQ(y), lane by lane (as `sqrt` is lowered).
    fn square_root(&mut self, y: &Value) -> LResult<Value> {
        let r = self.lanes1(Op::Rsq, y)?;
        self.lanewise(Op::Mul, y, &r, y.ty)
    }
}
