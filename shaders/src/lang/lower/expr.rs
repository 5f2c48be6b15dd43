//! Expressions: literals, names, swizzles, indexing, operators, `?:` and calls.

use super::super::ast::{BinOp, Expr, ExprKind, UnOp};
use super::super::builtin_vars;
use super::super::consteval::ConstData;
use super::super::scope::{VarKind, root_name};
use super::super::token::Pos;
use super::super::types;
use super::super::types::Type;
use super::value::{Repr, Value};
use super::{Fail, LResult, Lowerer};
use crate::ir::{CmpCode, Ir, Op};

/// GLSL built-in variables outside the subset ("X is not supported").
impl Lowerer<'_> {
    /// Lower `e` to a value (checked; constants folded).
    pub(crate) fn expr(&mut self, e: &Expr) -> LResult<Value> {
        self.enter(e.pos)?;
        let r = self.tick(e.pos).and_then(|_| self.expr_kind(e));
        self.leave();
        r
    }

    /// Lower `e` and require a usable value (not the result of a void call, not a
    /// sampler unless `allow_sampler`).
    pub(crate) fn operand(&mut self, e: &Expr) -> LResult<Value> {
        let v = self.expr(e)?;
        self.check_operand(&v, e.pos)?;
        Ok(v)
    }

    pub(crate) fn check_operand(&mut self, v: &Value, pos: Pos) -> LResult<()> {
        match v.ty {
            Type::Void => self.err(pos, "void function used as a value"),
            Type::Sampler2D | Type::Sampler(_) => self.err(
                pos,
                "a sampler can only be passed to a texture function (texture, textureLod, \
                 textureGrad, texelFetch, textureSize and their forms), not used as a value",
            ),
            _ => Ok(()),
        }
    }

    /// Lower every expression in `es`, reporting all their errors before failing.
    pub(crate) fn operands(&mut self, es: &[&Expr], allow_sampler: bool) -> LResult<Vec<Value>> {
        let mut out = Vec::with_capacity(es.len());
        let mut failed = None;
        for e in es {
            let r = self.expr(e).and_then(|v| {
                if allow_sampler && v.ty.is_sampler() {
                    return Ok(v);
                }
                self.check_operand(&v, e.pos).map(|_| v)
            });
            match r {
                Ok(v) => out.push(v),
                Err(Fail::Fatal) => return Err(Fail::Fatal),
                Err(f) => failed = Some(f),
            }
        }
        match failed {
            Some(f) => Err(f),
            None => Ok(out),
        }
    }

    fn expr_kind(&mut self, e: &Expr) -> LResult<Value> {
        let pos = e.pos;
        match &e.kind {
            ExprKind::Int(v) if self.exact_ints() => Ok(self.int(*v)),
            ExprKind::UInt(v) if self.exact_ints() => Ok(self.uint(*v)),
            ExprKind::UInt(_) => self.needs_exact_ints("`uint` needs", pos),
            ExprKind::Int(v) => {
                if (*v as i64).abs() > super::ops::MAX_EXACT_INT as i64 {
                    return self.err(pos, super::ops::integer_range_message(*v as f64));
                }
                Ok(self.int(*v))
            }
            ExprKind::Float(v) => Ok(Value::float(*v)),
            ExprKind::Bool(v) => Ok(Value::bool(*v)),
            ExprKind::Ident(name) => self.read_name(name, pos),
            ExprKind::Call { name, args } => self.call(name, args, pos),
            ExprKind::Construct { ty, args } => self.construct(*ty, args, pos),
            ExprKind::Unary(op, x) => {
                if self.is_array_expr(x) {
                    // GLSL 1.10 §5.9: the unary operators take scalars, vectors and
                    // matrices; an array is none of them.
                    let sign = match op {
                        UnOp::Plus => "+",
                        UnOp::Neg => "-",
                        UnOp::Not => "!",
                        UnOp::BitNot => "~",
                    };
                    return self.err(
                        pos,
                        format!("operator {sign} cannot apply to an array (GLSL 1.10 §5.9)"),
                    );
                }
                let v = self.operand(x)?;
                self.unary(*op, &v, pos)
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), l, r) if self.has_effects(r) => {
                self.short_circuit(*op, l, r, pos)
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r)
                if self.is_array_expr(l) || self.is_array_expr(r) =>
            {
                self.array_compare(*op, l, r, pos)
            }
            ExprKind::Binary(op, l, r) => {
                let vs = self.operands(&[l, r], false)?;
                let b = if matches!(op, BinOp::Div | BinOp::Mod) {
                    self.divisor_at_run_time(vs[1], r)?
                } else {
                    vs[1]
                };
                self.binary(*op, &vs[0], &b, pos)
            }
            ExprKind::Ternary(c, a, b) => self.ternary(c, a, b, pos),
            ExprKind::Swizzle(x, sel) => {
                let v = self.operand(x)?;
                self.swizzle_checked(&v, sel, pos)
            }
            // The struct pass resolves every `.name` (`lang/structs.rs`).
            ExprKind::Field(_, name) => {
                self.err(pos, format!("internal error: '.{name}' was not resolved"))
            }
            ExprKind::Index(x, i) => {
                if let Some(array) = self.array_ref(x) {
                    let array = array?;
                    let at = i.pos;
                    let (elem, _) = self.array_shape(&array);
                    let dialect = self.program.dialect;
                    if elem.is_sampler()
                        && dialect.samplers_indexed_by_constants()
                        && !self.is_constant_expression(i)
                    {
                        return self.err(
                            at,
                            format!(
                                "an array of samplers can only be indexed with a constant \
                                 integral expression ({} §4.1.7)",
                                dialect.spec()
                            ),
                        );
                    }
                    let index = self.operand(i)?;
                    let (_, n) = self.array_shape(&array);
                    let index = self.index_at_run_time(index, n, i)?;
                    return self.index_array(&array, &index, at);
                }
                let vs = self.operands(&[x, i], false)?;
                let n = if vs[0].ty.is_matrix() {
                    vs[0].ty.columns()
                } else {
                    vs[0].ty.width()
                };
                let index = if vs[0].ty.is_scalar() {
                    vs[1]
                } else {
                    self.index_at_run_time(vs[1], usize::from(n), i)?
                };
                self.index(&vs[0], &index, i.pos)
            }
            ExprKind::ArrayConstruct { .. } => self.err(
                pos,
                "an array constructor can only initialize or index an array",
            ),
            ExprKind::Length(x) => self.length_method(x, pos),
            ExprKind::Step(target, up, prefix) => self.step_expr(target, *up, *prefix, pos),
            ExprKind::Assign { target, op, value } => self.assign_expr(target, *op, value, pos),
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
        }
    }

    /// `++x` / `x++` / `--x` / `x--` inside an expression (GLSL 1.10 §5.7): the
    /// variable is written now; the value is the new one (prefix) or the old one
    /// (postfix), copied so that later writes in the statement do not change it.
    fn step_expr(&mut self, target: &Expr, up: bool, prefix: bool, pos: Pos) -> LResult<Value> {
        let place = self.target(target)?;
        let cur = self.read_target(&place)?;
        if !(types::is_numeric(cur.ty) || cur.ty.is_matrix()) {
            return self.err(target.pos, "type mismatch");
        }
        let old = match prefix {
            true => None,
            false => Some(self.snapshot(&cur)?),
        };
        let one = self.number(types::base(cur.ty), 1.0);
        let op = if up { BinOp::Add } else { BinOp::Sub };
        let new = self.binary(op, &cur, &one, pos)?;
        let value = match old {
            Some(v) => v,
            None => self.snapshot(&new)?,
        };
        self.write_target(&place, &new, target.pos)?;
        Ok(value)
    }

    /// `target op= value` inside an expression (GLSL 1.10 §5.8): the value is the
    /// target's new value. A whole array is only assigned by a statement.
    fn assign_expr(
        &mut self,
        target: &Expr,
        op: super::super::ast::AssignOp,
        value: &Expr,
        pos: Pos,
    ) -> LResult<Value> {
        if self.whole_array_target(target)?.is_some() {
            return self.err(
                pos,
                "an assignment to a whole array cannot be used as a value",
            );
        }
        let place = self.target(target);
        let v = self.operand(value);
        let (place, mut v) = (place?, v?);
        if let super::super::ast::AssignOp::Compound(bop) = op {
            let cur = self.read_target(&place)?;
            v = self.binary(bop, &cur, &v, pos)?;
        }
        if !types::converts_to(v.ty, place.ty(), self.conversions()) {
            let m = self.mismatch("type mismatch in assignment", v.ty, place.ty());
            return self.err(value.pos, m);
        }
        let v = self.convert(&v, place.ty())?;
        let result = self.snapshot(&v)?;
        self.write_target(&place, &v, value.pos)?;
        Ok(result)
    }

    /// `v` itself when it is a constant, else a copy in a fresh temporary.
    pub(crate) fn snapshot(&mut self, v: &Value) -> LResult<Value> {
        if v.as_const().is_some() {
            return Ok(*v);
        }
        let t = self.temp(types::cols(v.ty))?;
        self.store_into(t, v, v.ty)?;
        Ok(Value::temp(v.ty, t))
    }

    /// The value of a name.
    pub(crate) fn read_name(&mut self, name: &str, pos: Pos) -> LResult<Value> {
        let Some(id) = self.scopes.lookup(name) else {
            if self.funcs.iter().any(|f| f.def.name == name) {
                return self.err(pos, "function used as a value");
            }
            let dialect = self.program.dialect;
            if let Some(k) = builtin_vars::constant(name, dialect, &self.limits) {
                return Ok(self.int(k));
            }
            return self.unknown_name(name, pos);
        };
        let v = self.scopes.var(id);
        if v.poisoned {
            return Err(Fail::Reported);
        }
        if v.array.is_some() {
            return self.err(pos, "an array can only be indexed here");
        }
        self.read_var(id, pos)
    }

    /// Report a name that is not declared: GLSL built-in variables outside the subset
    /// are named as such.
    pub(crate) fn unknown_name<T>(&mut self, name: &str, pos: Pos) -> LResult<T> {
        let (stage, dialect) = (self.stage, self.program.dialect);
        match builtin_vars::lookup(name, stage, dialect) {
            Err(m) => return self.err(pos, m),
            Ok(builtin_vars::Lookup::Mapped(b))
                if b.binding == builtin_vars::Binding::FrontFacing =>
            {
                // Declared in every profile but the seed's (register_used_builtins).
                return self.err(
                    pos,
                    "gl_FrontFacing needs the extended profile (the seed's CSIR has no \
                     front-facing input; LOAD_FACE is an extended instruction)",
                );
            }
            Ok(_) => {}
        }
        self.err(pos, format!("unknown identifier '{name}'"))
    }

    /// The value of variable `id` (an array element included).
    pub(crate) fn read_var(&mut self, id: usize, pos: Pos) -> LResult<Value> {
        let v = self.scopes.var(id);
        if v.poisoned {
            return Err(Fail::Reported);
        }
        let ty = v.ty;
        let name = root_name(&v.name);
        match (v.kind, v.known, v.storage) {
            (VarKind::Unavailable, ..) => {
                let m = format!("{name} is not available in this stage");
                self.err(pos, m)
            }
            (VarKind::Sampler(slot), ..) => Ok(Value {
                ty,
                repr: Repr::Sampler(slot),
            }),
            (_, Some(c), _) => Ok(Value::konst(ty, c)),
            (_, None, Some(t)) if self.volatile.contains(name) => {
                // A call later in this statement may change it: read it now.
                let copy = self.temp(types::cols(ty))?;
                self.store_into(copy, &Value::temp(ty, t), ty)?;
                Ok(Value::temp(ty, copy))
            }
            (_, None, Some(t)) => Ok(Value::temp(ty, t)),
            (_, None, None) => Ok(Value::konst(ty, ConstData::ZERO)),
        }
    }

    /// `v.sel` with the checks of docs/csir-original.md B §1.8.
    pub(crate) fn swizzle_checked(&mut self, v: &Value, sel: &[u8], pos: Pos) -> LResult<Value> {
        if v.ty.is_matrix() {
            return self.err(pos, "cannot swizzle a matrix");
        }
        if sel.iter().any(|&s| s >= v.ty.width()) {
            return self.err(pos, "invalid swizzle");
        }
        let Some(ty) = types::with_base(types::base(v.ty), sel.len() as u8) else {
            return self.err(pos, "bool vectors are not supported");
        };
        self.swizzle(v, sel, ty)
    }

    /// A constant, in-range index into a vector or matrix (`pos` is the index).
    pub(crate) fn const_index(&mut self, container: Type, index: &Value, pos: Pos) -> LResult<u8> {
        self.check_index(index, pos)?;
        let Some(i) = self.known_index(index) else {
            return self.err(pos, "only constant indexes are supported");
        };
        let n = if container.is_matrix() {
            container.columns()
        } else {
            container.width()
        };
        if container.is_scalar() || !(0.0..n as f32).contains(&i) {
            return self.err(pos, "index out of range");
        }
        Ok(i as u8)
    }

    /// `v[i]`: a column of a matrix, a lane of a vector (docs/csir-original.md A2: `m[i]`
    /// is a column).
    fn index(&mut self, v: &Value, i: &Value, pos: Pos) -> LResult<Value> {
        if matches!(i.ty, Type::Int | Type::Uint)
            && i.as_const().is_none()
            && !v.ty.is_scalar()
            && v.ty.width() > 0
        {
            // A run-time index: select among the lanes (columns) with IFs.
            let items: Vec<Value> = if v.ty.is_matrix() {
                (0..v.ty.columns()).map(|c| self.column(v, c)).collect()
            } else {
                let mut lanes = Vec::new();
                for k in 0..v.ty.width() {
                    lanes.push(self.lane(v, k)?);
                }
                lanes
            };
            return self.pick(&items, i, pos);
        }
        let k = self.const_index(v.ty, i, pos)?;
        if v.ty.is_matrix() {
            return Ok(self.column(v, k));
        }
        self.lane(v, k)
    }

    /// `c ? a : b`: only the chosen side runs (IF/ELSE around both, or just one side
    /// when `c` is known).
    fn ternary(&mut self, c: &Expr, a: &Expr, b: &Expr, pos: Pos) -> LResult<Value> {
        let cond = self.operand(c)?;
        let cond = self.condition(&cond, "the condition of ?:", c.pos)?;
        if let Some(k) = cond.as_const() {
            let (taken, other) = if k.0[0] != 0.0 { (a, b) } else { (b, a) };
            let v = self.operand(taken)?;
            let mut other_ty = None;
            self.dry(|s| {
                other_ty = Some(s.operand(other)?.ty);
                Ok(())
            })?;
            let Some(ot) = other_ty else {
                return Err(Fail::Reported);
            };
            let ty = self.ternary_type(v.ty, ot, pos)?;
            return self.convert(&v, ty);
        }
        let names = self.assigned_in_exprs(&[a, b]);
        self.materialize_known(&names)?;
        let t = self.materialize(&cond)?;
        self.open_if(t, pos)?;
        let r = self.ternary_sides(a, b, pos);
        self.close_if()?;
        r
    }

    fn ternary_sides(&mut self, a: &Expr, b: &Expr, pos: Pos) -> LResult<Value> {
        let mut va = self.operand(a)?;
        if self.exact_ints() {
            // The result type first, so that each side is converted to it (an int side
            // of a float ?: becomes floats under the extended profile).
            let mut other = None;
            self.dry(|s| {
                other = Some(s.operand(b)?.ty);
                Ok(())
            })?;
            let ty = self.ternary_type(va.ty, other.unwrap_or(va.ty), pos)?;
            va = self.convert(&va, ty)?;
        }
        let n = types::cols(va.ty);
        let dst = self.temp(n)?;
        self.store_into(dst, &va, va.ty)?;
        self.emit(Ir::new(Op::Else, Type::None.ir()))?;
        let vb = self.operand(b)?;
        let ty = self.ternary_type(va.ty, vb.ty, pos)?;
        let vb = self.convert(&vb, ty)?;
        self.store_into(dst, &vb, vb.ty)?;
        Ok(Value::temp(ty, dst))
    }

    /// Whether `e` has effects that must not happen when GLSL skips it: a call of a
    /// user function, `++`/`--` or an assignment.
    pub(crate) fn has_effects(&self, e: &Expr) -> bool {
        e.has_effects(&|name| self.funcs.iter().any(|f| f.def.name == name))
    }

    /// `l && r` / `l || r` whose right side has effects: `r` runs only when `l` does
    /// not decide (GLSL 3.30 §5.9).
    fn short_circuit(&mut self, op: BinOp, l: &Expr, r: &Expr, pos: Pos) -> LResult<Value> {
        let a = self.operand(l)?;
        let a = self.truth(&a, op.text(), pos)?;
        let decided = if op == BinOp::And { 0.0 } else { 1.0 };
        if let Some(k) = a.as_const() {
            if (k.0[0] != 0.0) == (decided != 0.0) {
                // The skipped side is still checked, by the same rule as an
                // evaluated one (`truth`), without emitting its code.
                let mut checked = false;
                self.dry(|s| {
                    let b = s.operand(r)?;
                    s.truth(&b, op.text(), pos)?;
                    checked = true;
                    Ok(())
                })?;
                if !checked {
                    return Err(Fail::Reported);
                }
                return Ok(a);
            }
            let b = self.operand(r)?;
            return self.binary(op, &a, &b, pos);
        }
        let names = self.assigned_in_exprs(&[r]);
        self.materialize_known(&names)?;
        let dst = self.temp(1)?;
        self.store_into(dst, &a, Type::Bool)?;
        let go = if op == BinOp::And {
            dst
        } else {
            let t = self.scalar_op(
                Op::Cmp,
                &a,
                Some(&Value::bool(false)),
                CmpCode::Eq.code(),
                Type::Bool,
            )?;
            self.materialize(&t)?
        };
        self.open_if(go, pos)?;
        let r_value = self
            .operand(r)
            .and_then(|b| self.truth(&b, op.text(), pos))
            .and_then(|b| self.store_into(dst, &b, Type::Bool));
        self.close_if()?;
        r_value.map(|_| Value::temp(Type::Bool, dst))
    }

    fn ternary_type(&mut self, a: Type, b: Type, pos: Pos) -> LResult<Type> {
        if a == b {
            return Ok(a);
        }
        if types::converts_to(a, b, self.conversions()) {
            return Ok(b);
        }
        if types::converts_to(b, a, self.conversions()) {
            return Ok(a);
        }
        self.err(pos, "the two sides of ?: have different types")
    }
}
