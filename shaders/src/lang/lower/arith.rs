//! Operators (GLSL 3.30 §5.9, docs/csir-original.md A2 where the original differs).
//!
//! - `+ - * /` lane by lane, a scalar operand broadcast; int operands promoted to
//!   float when the other side is float. `/` is RCP + MUL; a divisor known to be zero
//!   is "division by zero". `int / int` truncates toward zero exactly (below 2^24)
//!   and `%` works on ints at run time.
//! - Matrices: `mat * vec` MULMV, `mat * mat` MULMM (for `mat2`, which those opcodes
//!   do not take, column products and sums), `vec * mat` one DOT per column
//!   (the row-vector product), `scalar * mat`, `mat ± mat`, `mat / scalar` column by
//!   column.
//! - `< > <= >=` on scalars, `== !=` on any equal types (all lanes), `&& || ^^` and
//!   `!` on bools (and scalars, `logic.rs`): CMP and arithmetic on 0.0 / 1.0.
//! - A `bool` scalar operand of arithmetic or an ordering is the int 0 or 1, as in the
//!   original (docs/csir-original.md A1); GLSL rejects such programs, so none changes
//!   meaning.

use super::super::ast::{BinOp, UnOp};
use super::super::consteval::{self, ConstData};
use super::super::token::Pos;
use super::super::types::Type;
use super::super::types::{self, Base};
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Ir, Op};

fn cmp_code(op: BinOp) -> CmpCode {
    match op {
        BinOp::Lt => CmpCode::Lt,
        BinOp::Gt => CmpCode::Gt,
        BinOp::Le => CmpCode::Le,
        BinOp::Ge => CmpCode::Ge,
        BinOp::Eq => CmpCode::Eq,
        _ => CmpCode::Ne,
    }
}

impl Lowerer<'_> {
    /// `a op b`, checked and lowered; `pos` is the operator.
    pub(crate) fn binary(&mut self, op: BinOp, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        // A bool scalar in arithmetic or an ordering is the number 0 or 1 under the
        // seed profile, as in the original (`x * (a > b)`; see `types::Conversions`).
        let (a, b) = match op {
            BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Eq | BinOp::Ne => (*a, *b),
            _ => (
                self.as_number(a, b, op, pos)?,
                self.as_number(b, a, op, pos)?,
            ),
        };
        let (ba, bb) = (types::base(a.ty), types::base(b.ty));
        if ba != bb && types::is_int_base(ba) && types::is_int_base(bb) && !op.is_shift() {
            // GLSL 1.30 §4.1.10 has no implicit conversion between int and uint.
            let m = format!(
                "operator {} on {} and {}: int and uint do not convert implicitly; \
                 convert one side (int(...) or uint(...))",
                op.text(),
                a.ty,
                b.ty
            );
            return self.err(pos, m);
        }
        let (a, b) = (&a, &b);
        match op {
            op if op.is_bitwise() => self.bitwise(op, a, b, pos),
            BinOp::And | BinOp::Or | BinOp::Xor => self.logical(op, a, b, pos),
            BinOp::Eq | BinOp::Ne => self.equality(op, a, b, pos),
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
                if !types::is_numeric(a.ty) || !types::is_numeric(b.ty) {
                    return self.err(pos, "type mismatch");
                }
                if a.ty.width() != 1 || b.ty.width() != 1 {
                    return self.err(pos, "vector comparisons are not supported");
                }
                self.scalar_op(Op::Cmp, a, Some(b), cmp_code(op).code(), Type::Bool)
            }
            _ => self.arithmetic(op, a, b, pos),
        }
    }

    /// `& | ^ << >>` (GLSL 1.30 §5.9) on int/uint scalars and vectors: AND, OR, XOR,
    /// SHL, ISHR (int) or USHR (uint) lane by lane. `& | ^` take operands of one
    /// signedness, a scalar side broadcast; a shift's operands may differ in
    /// signedness, its result has the left operand's type, and a scalar left
    /// operand needs a scalar count. The count is taken modulo 32
    /// (`exec::math::int`; GLSL leaves counts ≥ 32 undefined).
    fn bitwise(&mut self, op: BinOp, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        if !self.exact_ints() {
            return self.needs_exact_ints("bitwise operators need", pos);
        }
        let is_int = |t: Type| types::is_int_base(types::base(t)) && !t.is_matrix();
        if !is_int(a.ty) || !is_int(b.ty) {
            let m = format!(
                "operator {} needs int or uint operands, not {} and {}",
                op.text(),
                a.ty,
                b.ty
            );
            return self.err(pos, m);
        }
        let (wa, wb) = (a.ty.width(), b.ty.width());
        let base = types::base(a.ty);
        let n = if op.is_shift() {
            if wa != wb && wb != 1 {
                let m = format!(
                    "operator {} on {} and {}: the count must be a scalar or \
                                 a vector of the same size",
                    op.text(),
                    a.ty,
                    b.ty
                );
                return self.err(pos, m);
            }
            wa
        } else if wa == wb || wb == 1 {
            wa
        } else if wa == 1 {
            wb
        } else {
            return self.err(pos, "type mismatch");
        };
        let ty = types::with_base(base, n).unwrap_or(Type::Int);
        let iop = match op {
            BinOp::BitAnd => Op::And,
            BinOp::BitOr => Op::Or,
            BinOp::BitXor => Op::Xor,
            BinOp::Shl => Op::Shl,
            _ if base == Base::Int => Op::IShr,
            _ => Op::UShr,
        };
        self.widen_op(iop, a, b, ty)
    }

    /// A `bool` scalar used as a number (the original's `x * (a > b)`): the int 0 or
    /// 1 under the seed profile's numeric booleans, an error naming the rule otherwise
    /// (GLSL 3.30 §4.1.10 has no implicit conversion from `bool`). `other` is the
    /// operator's other operand, for the message.
    fn as_number(&mut self, v: &Value, other: &Value, op: BinOp, pos: Pos) -> LResult<Value> {
        if v.ty != Type::Bool {
            return Ok(*v);
        }
        if !self.conversions().numeric_bools {
            let m = format!(
                "operator {} on bool and {}: GLSL has no implicit conversion from bool \
                 (GLSL 3.30 §4.1.10); convert explicitly ({}(...)) or compile with the \
                 seed profile, whose booleans are numbers",
                op.text(),
                other.ty,
                if types::is_int_base(types::base(other.ty)) {
                    "int"
                } else {
                    "float"
                },
            );
            return self.err(pos, m);
        }
        self.convert(v, Type::Int)
    }

    fn equality(&mut self, op: BinOp, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        let same = a.ty == b.ty
            || (types::converts_to(a.ty, b.ty, self.conversions())
                || types::converts_to(b.ty, a.ty, self.conversions()))
                && !a.ty.is_matrix();
        if !same || (a.ty.is_sampler() || a.ty == Type::Void) {
            return self.err(pos, "type mismatch");
        }
        let code = cmp_code(op).code();
        if a.ty.is_scalar() {
            return self.scalar_op(Op::Cmp, a, Some(b), code, Type::Bool);
        }
        // All lanes equal: product of per-lane EQ; any lane different: max of NE.
        let combine = if op == BinOp::Eq { Op::Mul } else { Op::Max };
        let mut acc: Option<Value> = None;
        for c in 0..types::cols(a.ty) {
            let (ca, cb) = if a.ty.is_matrix() {
                (self.column(a, c), self.column(b, c))
            } else {
                (*a, *b)
            };
            for k in 0..types::width(a.ty) {
                let (x, y) = (self.lane(&ca, k)?, self.lane(&cb, k)?);
                let r = self.scalar_op(Op::Cmp, &x, Some(&y), code, Type::Bool)?;
                acc = Some(match acc {
                    None => r,
                    Some(p) => self.lanewise(combine, &p, &r, Type::Bool)?,
                });
            }
        }
        Ok(acc.unwrap_or(Value::bool(op == BinOp::Eq)))
    }

    fn arithmetic(&mut self, op: BinOp, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        let numeric = |t: Type| types::is_numeric(t) || t.is_matrix();
        if !numeric(a.ty) || !numeric(b.ty) {
            return self.err(pos, "type mismatch");
        }
        let base = if types::base(a.ty) == Base::Float || types::base(b.ty) == Base::Float {
            Base::Float
        } else {
            types::base(a.ty)
        };
        let is_int = |t: Type| types::is_int_base(types::base(t));
        if !self.int_to_float() && is_int(a.ty) != is_int(b.ty) {
            let (dialect, (x, y)) = (self.program.dialect, (a.ty, b.ty));
            return self.err(
                pos,
                format!(
                    "operator {} on {x} and {y}: {dialect} has no implicit int to float \
                     conversion; convert explicitly (float(...))",
                    op.text()
                ),
            );
        }
        if op == BinOp::Mod && !types::is_int_base(base) {
            return self.err(pos, "operator % requires integer operands");
        }
        if (op == BinOp::Div || op == BinOp::Mod)
            && self.divides_by_zero(b)
            && !self.zero_divisor_at_run_time()
        {
            return self.err(pos, "division by zero");
        }
        // Under the extended profile an int operand of float arithmetic is converted
        // (I2F, U2F) first; under the seed's it already is a float value.
        let (a, b) = (&self.convert_base(a, base)?, &self.convert_base(b, base)?);
        if a.ty.is_matrix() || b.ty.is_matrix() {
            return self.matrix_arith(op, a, b, pos);
        }
        let (wa, wb) = (a.ty.width(), b.ty.width());
        let n = if wa == wb || wb == 1 {
            wa
        } else if wa == 1 {
            wb
        } else {
            return self.err(pos, "type mismatch");
        };
        let ty = types::with_base(base, n).unwrap_or(Type::Float);
        if self.exact_ints() && types::is_int_base(base) {
            let signed = base == Base::Int;
            let iop = match op {
                BinOp::Div if signed => Op::IDiv,
                BinOp::Div => Op::UDiv,
                BinOp::Mod if signed => Op::IMod,
                BinOp::Mod => Op::UMod,
                BinOp::Add => Op::Add,
                BinOp::Sub => Op::Sub,
                _ => Op::Mul,
            };
            return self.widen_op(iop, a, b, ty);
        }
        match op {
            BinOp::Div if base == Base::Int => self.int_div_vec(a, b, ty),
            BinOp::Mod => {
                // a − b·(a / b), lane by lane; only a scalar side is broadcast.
                let q = self.int_div_vec(a, b, ty)?;
                let bq = self.widen_mul(b, &q, ty)?;
                self.widen_op(Op::Sub, a, &bq, ty)
            }
            BinOp::Div => self.float_div(a, b, ty),
            _ => {
                let code = match op {
                    BinOp::Add => Op::Add,
                    BinOp::Sub => Op::Sub,
                    _ => Op::Mul,
                };
                self.widen_op(code, a, b, ty)
            }
        }
    }

    /// Float `a / b` (scalars and vectors, a scalar side broadcast): DIV under the
    /// extended profile, IEEE division (`0.0 / 0.0` is NaN, `x / 0.0` is ±inf, as
    /// GLSL 4.40 §4.7.1 and llvmpipe give); under the seed profile the original's
    /// `a · RCP(b)`, which is 0 where `b` is 0 (docs/csir.md "Reciprocal-based
    /// division").
    pub(crate) fn float_div(&mut self, a: &Value, b: &Value, ty: Type) -> LResult<Value> {
        if self.limits.extended_ops() {
            return self.widen_op(Op::Div, a, b, ty);
        }
        let r = self.unary_op(Op::Rcp, b, b.ty)?;
        self.widen_op(Op::Mul, a, &r, ty)
    }

    /// `a op b` after broadcasting a scalar side to the width of `ty`.
    pub(crate) fn widen_op(&mut self, op: Op, a: &Value, b: &Value, ty: Type) -> LResult<Value> {
        let n = types::width(ty);
        let a = if a.ty.width() == n {
            *a
        } else {
            self.broadcast(a, n)?
        };
        let b = if b.ty.width() == n {
            *b
        } else {
            self.broadcast(b, n)?
        };
        self.lanewise(op, &a, &b, ty)
    }

    fn widen_mul(&mut self, a: &Value, b: &Value, ty: Type) -> LResult<Value> {
        self.widen_op(Op::Mul, a, b, ty)
    }

    /// `int / int` lane by lane (scalars broadcast).
    fn int_div_vec(&mut self, a: &Value, b: &Value, ty: Type) -> LResult<Value> {
        if ty.width() == 1 {
            return self.int_div(a, b);
        }
        self.per_lane(ty, |s, k| {
            let x = if a.ty.width() == 1 { *a } else { s.lane(a, k)? };
            let y = if b.ty.width() == 1 { *b } else { s.lane(b, k)? };
            s.int_div(&x, &y)
        })
    }

    /// Scalar `int / int`, truncated toward zero and exact while |a|, |b| < 2^24:
    /// q = trunc(|a|·rcp(|b|)) is within one of the true quotient, so the remainder
    /// r = |a| − q·|b| (exact) corrects it: q + [r ≥ |b|] − [r < 0]; the sign is
    /// negative when a·b < 0.
    pub(crate) fn int_div(&mut self, a: &Value, b: &Value) -> LResult<Value> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            let (x, y) = (x.0[0] as i64, y.0[0] as i64);
            let q = x.checked_div(y).unwrap_or(0);
            return self.exact_integer(self.int(q as i32));
        }
        let f = Type::Float;
        let zero = Value::float(0.0);
        let abs_a = self.unary_op(Op::Abs, a, f)?;
        let abs_b = self.unary_op(Op::Abs, b, f)?;
        let r = self.unary_op(Op::Rcp, &abs_b, f)?;
        let p = self.lanewise(Op::Mul, &abs_a, &r, f)?;
        let q0 = self.scalar_op(Op::Trunc, &p, None, 0, f)?;
        let qb = self.lanewise(Op::Mul, &q0, &abs_b, f)?;
        let rem = self.lanewise(Op::Sub, &abs_a, &qb, f)?;
        let over = self.scalar_op(Op::Cmp, &rem, Some(&abs_b), CmpCode::Ge.code(), f)?;
        let under = self.scalar_op(Op::Cmp, &rem, Some(&zero), CmpCode::Lt.code(), f)?;
        let fix = self.lanewise(Op::Sub, &over, &under, f)?;
        let q = self.lanewise(Op::Add, &q0, &fix, f)?;
        let s = self.lanewise(Op::Mul, a, b, f)?;
        let neg = self.scalar_op(Op::Cmp, &s, Some(&zero), CmpCode::Lt.code(), f)?;
        let two_neg = self.lanewise(Op::Add, &neg, &neg, f)?;
        let flip = self.lanewise(Op::Mul, &two_neg, &q, f)?;
        self.lanewise(Op::Sub, &q, &flip, Type::Int)
    }

    fn matrix_arith(&mut self, op: BinOp, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        let (am, bm) = (a.ty.is_matrix(), b.ty.is_matrix());
        if op == BinOp::Mul {
            // GLSL 3.30 §5.10: matCxR × matKxC is matKxR; matCxR × vecC is vecR;
            // vecR × matCxR is vecC.
            if am && bm {
                if a.ty.columns() != b.ty.width() {
                    let m = format!(
                        "matrix size mismatch: {} * {} (the left operand's columns must \
                         equal the right operand's rows)",
                        a.ty, b.ty
                    );
                    return self.err(pos, m);
                }
                return self.mul_mm(a, b);
            }
            if am && b.ty.width() > 1 {
                if b.ty.width() != a.ty.columns() {
                    let m = format!("cannot multiply {} by {}", a.ty, b.ty);
                    return self.err(pos, m);
                }
                return self.mul_mv(a, b);
            }
            if bm && a.ty.width() > 1 {
                if a.ty.width() != b.ty.width() {
                    let m = format!("cannot multiply {} by {}", a.ty, b.ty);
                    return self.err(pos, m);
                }
                return self.mul_vm(a, b);
            }
        }
        // Division: DIV under the extended profile, else a product with RCP(b).
        let divide = self.limits.extended_ops();
        let code = match op {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Div if divide => Op::Div,
            BinOp::Mul | BinOp::Div => Op::Mul,
            _ => return self.err(pos, "type mismatch"),
        };
        let mty = if am { a.ty } else { b.ty };
        let scalar = |t: Type| !t.is_matrix() && t.width() == 1;
        if !(a.ty == b.ty || (am && scalar(b.ty)) || (bm && scalar(a.ty))) {
            return self.err(
                pos,
                if am && bm {
                    "matrix size mismatch"
                } else {
                    "type mismatch"
                },
            );
        }
        let b = if op == BinOp::Div && !divide {
            self.unary_op(Op::Rcp, b, b.ty)?
        } else {
            *b
        };
        let (cols, rows) = (mty.columns(), mty.width());
        let spread = |s: &mut Self, v: &Value| -> LResult<Value> {
            if v.ty.is_matrix() {
                return Ok(*v);
            }
            // A scalar repeated over every column: one broadcast temporary used for
            // each column.
            let col = s.broadcast(v, rows)?;
            match col.as_const() {
                Some(c) => {
                    let mut d = ConstData::ZERO;
                    for k in 0..cols as usize {
                        d.0[4 * k..4 * k + 4].copy_from_slice(&c.0[..4]);
                    }
                    Ok(Value::konst(mty, d))
                }
                None => {
                    let t = s.materialize(&col)?;
                    let m = s.temp(cols)?;
                    for k in 0..cols as i16 {
                        s.emit(Ir::new(Op::Mov, col.ty.ir()).dst(m + k).a(t).ncomp(rows))?;
                    }
                    Ok(Value::temp(mty, m))
                }
            }
        };
        let a = spread(self, a)?;
        let b = spread(self, &b)?;
        self.lanewise(code, &a, &b, mty)
    }

    /// `m * v`: MULMV (aux = columns) for `mat3` and `mat4`; for the other shapes,
    /// c0·v.x + c1·v.y + ..., in MULMV's order.
    pub(crate) fn mul_mv(&mut self, m: &Value, v: &Value) -> LResult<Value> {
        let (cols, rows) = (m.ty.columns(), m.ty.width());
        let ty = Type::float_vec(rows);
        if let (Some(x), Some(y)) = (m.as_const(), v.as_const()) {
            return Ok(Value::konst(
                ty,
                consteval::mul_mv(&x, &y, cols as usize, rows as usize),
            ));
        }
        if m.ty.stored_by_column() {
            let mut acc: Option<Value> = None;
            for j in 0..cols {
                let (c, x) = (self.column(m, j), self.lane(v, j)?);
                let p = self.widen_op(Op::Mul, &c, &x, ty)?;
                acc = Some(match acc {
                    None => p,
                    Some(a) => self.lanewise(Op::Add, &a, &p, ty)?,
                });
            }
            return Ok(acc.expect("a matrix has at least two columns"));
        }
        let (tm, tv) = (self.materialize(m)?, self.materialize(v)?);
        let dst = self.temp(1)?;
        self.emit(
            Ir::new(Op::MulMv, ty.ir())
                .dst(dst)
                .a(tm)
                .b(tv)
                .aux(cols as i16)
                .ncomp(rows),
        )?;
        Ok(Value::temp(ty, dst))
    }

    /// `a * b` for matrices (`a`'s columns equal `b`'s rows): MULMM (aux = columns)
    /// for two equal `mat3` or `mat4`; otherwise column j of the product is
    /// a × (column j of b).
    pub(crate) fn mul_mm(&mut self, a: &Value, b: &Value) -> LResult<Value> {
        let ty = Type::matrix(b.ty.columns(), a.ty.width());
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            let (ac, ar, bc) = (a.ty.columns(), a.ty.width(), b.ty.columns());
            return Ok(Value::konst(
                ty,
                consteval::mul_mm(&x, &y, ac as usize, ar as usize, bc as usize),
            ));
        }
        if a.ty.stored_by_column() || a.ty != b.ty {
            let col_ty = Type::float_vec(ty.width());
            let dst = self.temp(ty.columns())?;
            for j in 0..ty.columns() {
                let col = self.column(b, j);
                let r = self.mul_mv(a, &col)?;
                self.store_into(dst + j as i16, &r, col_ty)?;
            }
            return Ok(Value::temp(ty, dst));
        }
        let n = a.ty.width();
        let (ta, tb) = (self.materialize(a)?, self.materialize(b)?);
        let dst = self.temp(n)?;
        self.emit(
            Ir::new(Op::MulMm, a.ty.ir())
                .dst(dst)
                .a(ta)
                .b(tb)
                .aux(n as i16)
                .ncomp(n),
        )?;
        Ok(Value::temp(a.ty, dst))
    }

    /// `v * m`, the row-vector product: lane j is dot(v, column j) (`vecR × matCxR`
    /// is `vecC`).
    fn mul_vm(&mut self, v: &Value, m: &Value) -> LResult<Value> {
        let ty = Type::float_vec(m.ty.columns());
        self.per_lane(ty, |s, j| {
            let col = s.column(m, j);
            s.dot(v, &col)
        })
    }

    /// dot(a, b) of equal widths (a scalar product for width 1).
    pub(crate) fn dot(&mut self, a: &Value, b: &Value) -> LResult<Value> {
        let n = a.ty.width();
        if n == 1 {
            return self.lanewise(Op::Mul, a, b, Type::Float);
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            let d = consteval::dot(x.lanes(0, n as usize), y.lanes(0, n as usize));
            return Ok(Value::float(d));
        }
        let (ta, tb) = (self.materialize(a)?, self.materialize(b)?);
        let dst = self.temp(1)?;
        self.emit(
            Ir::new(Op::Dot, Type::Float.ir())
                .dst(dst)
                .a(ta)
                .b(tb)
                .aux(n as i16)
                .ncomp(1),
        )?;
        Ok(Value::temp(Type::Float, dst))
    }

    /// `+e`, `-e`, `!e` and `~e`.
    pub(crate) fn unary(&mut self, op: UnOp, v: &Value, pos: Pos) -> LResult<Value> {
        match op {
            UnOp::Plus => {
                if !(types::is_numeric(v.ty) || v.ty.is_matrix()) {
                    let m = format!(
                        "operator + needs an integer or floating-point scalar, vector or \
                         matrix operand, not {} (GLSL 1.10 §5.9)",
                        v.ty
                    );
                    return self.err(pos, m);
                }
                Ok(*v)
            }
            UnOp::Neg => {
                if !(types::is_numeric(v.ty) || v.ty.is_matrix()) {
                    return self.err(pos, "type mismatch");
                }
                if self.int_lanes(v.ty) != super::ints::Lanes::Float {
                    return self.unary_op(Op::INeg, v, v.ty);
                }
                if let Some(c) = v.as_const() {
                    return Ok(Value::konst(v.ty, c.map(|x| -x)));
                }
                // x · −1 is IEEE negation (the sign of zero included).
                let m1 = self.number(types::base(v.ty), -1.0);
                if v.ty.is_matrix() {
                    return self.matrix_arith(BinOp::Mul, v, &m1, pos);
                }
                self.widen_op(Op::Mul, v, &m1, v.ty)
            }
            UnOp::Not => self.not(v, pos),
            UnOp::BitNot => {
                if !self.exact_ints() {
                    return self.needs_exact_ints("bitwise operators need", pos);
                }
                if !types::is_int_base(types::base(v.ty)) || v.ty.is_matrix() {
                    let m = format!("operator ~ needs an int or uint operand, not {}", v.ty);
                    return self.err(pos, m);
                }
                self.unary_op(Op::Not, v, v.ty)
            }
        }
    }
}
