//! Booleans: conditions, `&& || ^^ !`, the vector relational built-ins and `mix`
//! with a boolean selector (GLSL 3.30 §5.9, §8.6, §8.3), on 0.0 / 1.0 values.
//!
//! | construct | lowering |
//! |---|---|
//! | `a && b`, `a \|\| b`, `a ^^ b` | MUL, MAX, CMP != of the operands' truth values |
//! | `!b` (bool, int, float) | CMP == 0 |
//! | `!bv`, `not(bv)` (bvecN) | SUB from 1 |
//! | `lessThan` … `notEqual` | CMP per lane into a bvecN |
//! | `any(bv)`, `all(bv)` | MAX / MIN over the lanes |
//! | `mix(x, y, bv)` | x, then per lane `IF bv[k]` SETLANE from y (exact, as GLSL selects) |
//!
//! **Scalar conditions (compatibility, docs/csir-original.md A1).** The original tests any
//! scalar in `if` (IF compares lane x with zero) and lowers `&&` to MUL, `||` to MAX and
//! `!x` to `1 − x`, without requiring `bool`. GLSL requires `bool`, so every GLSL shader is
//! unaffected by accepting more: here an `int` or `float` scalar is accepted wherever a
//! condition or a logical operand is expected and means `x != 0` (NaN is true, as IF treats
//! it). The results equal the original's for the 0/1 values it was used with; for other
//! values the result of `&& || !` is normalized to 0/1 (`2.0 && 3.0` is 1.0, not 6.0;
//! `!0.5` is 0.0, not 0.5) so that it is a valid `bool`. Vectors are not conditions ("if
//! condition must be a scalar").

use super::super::ast::BinOp;
use super::super::consteval::ConstData;
use super::super::token::Pos;
use super::super::types::{self, Base, Type};
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Op};

/// The vector relational built-ins and their comparison codes.
const RELATIONAL: &[(&str, CmpCode)] = &[
    ("lessThan", CmpCode::Lt),
    ("lessThanEqual", CmpCode::Le),
    ("greaterThan", CmpCode::Gt),
    ("greaterThanEqual", CmpCode::Ge),
    ("equal", CmpCode::Eq),
    ("notEqual", CmpCode::Ne),
];

/// Whether `name` is one of the boolean built-ins lowered here.
pub(super) fn is_logic_builtin(name: &str) -> bool {
    matches!(name, "any" | "all" | "not") || RELATIONAL.iter().any(|(n, _)| *n == name)
}

impl Lowerer<'_> {
    /// Check a condition (`if`, `?:`, loop) and return it unchanged: a bool, or under
    /// the seed profile an int or float scalar tested against zero
    /// ([`types::Conversions::numeric_bools`]). `what` names the construct in the error.
    pub(crate) fn condition(&mut self, c: &Value, what: &str, pos: Pos) -> LResult<Value> {
        if types::is_condition(c.ty, self.conversions()) {
            if self.int_lanes(c.ty) != super::ints::Lanes::Float {
                // IF tests the float x != 0, which an integer pattern (INT_MIN is
                // −0.0) does not match: compare as an integer instead.
                return self.truth(c, what, pos);
            }
            return Ok(*c);
        }
        self.not_bool(c.ty, what, pos)
    }

    /// The error for a value of type `ty` where GLSL requires a `bool` (`what`: the
    /// construct or operator): a number names the rule and the two ways out.
    fn not_bool(&mut self, ty: Type, what: &str, pos: Pos) -> LResult<Value> {
        let m = if types::is_numeric(ty) && ty.is_scalar() {
            format!(
                "{what} must be a bool, found {ty}: GLSL has no implicit conversion to \
                 bool (GLSL 3.30 §4.1.10, §5.9, §6.2); compare explicitly (x != 0) or \
                 compile with the seed profile, whose conditions are numbers"
            )
        } else if self.conversions().numeric_bools {
            // The seed profile's conditions are scalars of any base.
            format!("{what} must be a scalar")
        } else {
            format!("{what} must be a bool, found {ty}")
        };
        self.err(pos, m)
    }

    /// The truth value of a logical operand as a `bool` (under the seed profile a
    /// number is `x != 0`).
    pub(crate) fn truth(&mut self, v: &Value, op: &str, pos: Pos) -> LResult<Value> {
        match v.ty {
            Type::Bool | Type::None => Ok(v.retyped(Type::Bool)),
            Type::Int | Type::Uint | Type::Float if self.conversions().numeric_bools => {
                let zero = match self.exact_ints() {
                    true => self.number(types::base(v.ty), 0.0),
                    false => Value::float(0.0),
                };
                self.scalar_op(Op::Cmp, v, Some(&zero), CmpCode::Ne.code(), Type::Bool)
            }
            _ if self.conversions().numeric_bools => {
                self.err(pos, format!("operator {op} expects scalar operands"))
            }
            _ => self.not_bool(v.ty, &format!("an operand of {op}"), pos),
        }
    }

    /// `a && b`, `a || b`, `a ^^ b` (both sides already evaluated). A known side that
    /// decides `&&` (false) or `||` (true) folds the result even when the other side
    /// is a run-time value; a known side that does not decide gives the other side.
    pub(crate) fn logical(&mut self, op: BinOp, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        let a = self.truth(a, op.text(), pos)?;
        let b = self.truth(b, op.text(), pos)?;
        let known = |v: &Value| v.as_const().map(|k| k.0[0] != 0.0);
        if matches!(op, BinOp::And | BinOp::Or) {
            let decider = op == BinOp::Or;
            match (known(&a), known(&b)) {
                (Some(k), _) | (_, Some(k)) if k == decider => return Ok(Value::bool(decider)),
                (Some(_), _) => return Ok(b),
                (_, Some(_)) => return Ok(a),
                _ => {}
            }
        }
        match op {
            BinOp::And => self.lanewise(Op::Mul, &a, &b, Type::Bool),
            BinOp::Or => self.lanewise(Op::Max, &a, &b, Type::Bool),
            _ => self.scalar_op(Op::Cmp, &a, Some(&b), CmpCode::Ne.code(), Type::Bool),
        }
    }

    /// `!v`: a scalar is compared with zero; a bvecN is `1 − v` lane by lane.
    pub(crate) fn not(&mut self, v: &Value, pos: Pos) -> LResult<Value> {
        if types::is_condition(v.ty, self.conversions()) {
            return self.scalar_op(
                Op::Cmp,
                v,
                Some(&Value::float(0.0)),
                CmpCode::Eq.code(),
                Type::Bool,
            );
        }
        if types::is_boolean(v.ty) {
            let one = Value::konst(v.ty, ConstData::splat(1.0));
            return self.lanewise(Op::Sub, &one, v, v.ty);
        }
        if self.conversions().numeric_bools {
            return self.err(pos, "operator ! expects a bool");
        }
        self.not_bool(v.ty, "the operand of !", pos)
    }

    /// `lessThan` … `notEqual`, `any`, `all`, `not`.
    pub(super) fn logic_builtin(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        if let Some(&(_, code)) = RELATIONAL.iter().find(|(n, _)| *n == name) {
            if v.len() != 2 {
                return self.err(pos, format!("{name}() expects 2 arguments"));
            }
            return self.relational(name, code, &v[0], &v[1], pos);
        }
        if v.len() != 1 {
            return self.err(pos, format!("{name}() expects 1 argument"));
        }
        let b = v[0];
        if !types::is_boolean(b.ty) || b.ty.width() < 2 {
            return self.err(pos, format!("{name}() expects a bvec2, bvec3 or bvec4"));
        }
        match name {
            "not" => self.not(&b, pos),
            _ => {
                let op = if name == "any" { Op::Max } else { Op::Min };
                let mut acc = self.lane(&b, 0)?;
                for k in 1..b.ty.width() {
                    let x = self.lane(&b, k)?;
                    acc = self.lanewise(op, &acc, &x, Type::Bool)?;
                }
                Ok(acc)
            }
        }
    }

    /// A component-wise comparison of two vectors of the same size into a bvecN
    /// (int vectors compared with float vectors are converted, as GLSL does).
    fn relational(
        &mut self,
        name: &str,
        code: CmpCode,
        a: &Value,
        b: &Value,
        pos: Pos,
    ) -> LResult<Value> {
        let n = a.ty.width();
        let equality = matches!(code, CmpCode::Eq | CmpCode::Ne);
        let ok = |t: Type| {
            !t.is_matrix()
                && t.width() >= 2
                && (types::is_numeric(t) || (equality && types::is_boolean(t)))
        };
        let same = a.ty == b.ty
            || types::converts_to(a.ty, b.ty, self.conversions())
            || types::converts_to(b.ty, a.ty, self.conversions());
        if !ok(a.ty) || !ok(b.ty) || b.ty.width() != n || !same {
            return self.err(
                pos,
                format!("{name}() expects two vectors of the same type"),
            );
        }
        self.compare_lanes(code, a, b, Type::bool_vec(n))
    }

    /// CMP `code` lane by lane into a value of type `ty` (a scalar side is reused).
    pub(crate) fn compare_lanes(
        &mut self,
        code: CmpCode,
        a: &Value,
        b: &Value,
        ty: Type,
    ) -> LResult<Value> {
        self.lanes2(Op::Cmp, code.code(), a, b, ty)
    }

    /// `mix(x, y, sel)` with a bool or bvecN selector: lane k is `sel[k] ? y[k] : x[k]`,
    /// exactly (no arithmetic touches the chosen value).
    pub(crate) fn select(&mut self, x: &Value, y: &Value, sel: &Value, pos: Pos) -> LResult<Value> {
        let n = x.ty.width();
        if x.ty.is_matrix() || sel.ty.width() != n {
            return self.err(
                pos,
                "mix() with a bool selector expects a selector of the same size",
            );
        }
        if let Some(c) = sel.as_const() {
            let comps: Vec<(Value, u8)> = (0..n)
                .map(|k| (if c.0[k as usize] != 0.0 { *y } else { *x }, k))
                .collect();
            let mark = self.em.mark();
            return self.assemble(&comps, x.ty, mark);
        }
        let ty = x.ty;
        let src = self.materialize(y)?;
        let dst = self.temp(1)?;
        self.store_into(dst, x, ty)?;
        for k in 0..n {
            let lane = self.lane(sel, k)?;
            let t = self.materialize(&lane)?;
            self.open_if(t, pos)?;
            let r = self.set_lane(ty, dst, k as usize, src, k as usize, n);
            self.close_if()?;
            r?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// The component kind a `mix` selector must have to select rather than blend.
    pub(crate) fn is_selector(v: &Value) -> bool {
        types::base(v.ty) == Base::Bool
    }
}
