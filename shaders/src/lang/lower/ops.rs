//! Value plumbing shared by every construct: materializing constants, lanes,
//! swizzles, broadcasts, lane-wise operations with folding, scalar-only opcodes
//! applied lane by lane, and assembling a vector from components.

use super::super::consteval::{self, ConstData};
use super::super::types::Type;
use super::super::types::{self, Base};
use super::ints::Lanes;
use super::value::{Repr, Value};
use super::{LResult, Lowerer};
use crate::exec::math::MinMax;
use crate::ir::{CmpCode, Ir, Op, Profile};

/// Largest integer magnitude allowed in a known `int`: 2^24 − 1. Every integer of
/// smaller magnitude is an f32, and a folded f32 result below 2^24 in magnitude cannot
/// be a rounded larger one (rounding is monotonic and 2^24 is an f32).
pub(crate) const MAX_EXACT_INT: f32 = 16_777_215.0;

/// The error for an integer constant CSIR's float registers cannot hold exactly.
pub(crate) fn integer_range_message(value: f64) -> String {
    format!(
        "integer constant {value} is outside -16777215..=16777215 (2^24 - 1): CSIR keeps \
         integers in float registers, exact only within that range, and has no 32-bit \
         integer arithmetic"
    )
}

/// Fold one lane of `op` by the rules of `profile` (the interpreter's semantics; see
/// `consteval`).
pub(super) fn fold_lane(op: Op, aux: i16, a: f32, b: f32, profile: Profile) -> f32 {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Div => crate::exec::math::div(a, b),
        Op::Min => MinMax::of(profile).min(a, b),
        Op::Max => MinMax::of(profile).max(a, b),
        Op::Abs => a.abs(),
        // Every lane of a quad holds the same constant.
        Op::Ddx | Op::Ddy => crate::exec::quad::difference(a, a),
        // The interpreters' SIN / COS / POW (exec::math), not the platform's libm: a
        // folded value must have the bits the instruction gives at run time.
        Op::Sin => crate::exec::math::sin(a),
        Op::Cos => crate::exec::math::cos(a),
        Op::Rcp => consteval::rcp(a),
        Op::Rsq => consteval::rsq(a),
        Op::Lg2 => crate::exec::math::lg2(a),
        Op::Ex2 => crate::exec::math::ex2(a),
        Op::Trunc => crate::exec::math::trunc(a),
        Op::Pow => crate::exec::math::pow(a, b),
        Op::Cmp => CmpCode::from_code(aux).map_or(0.0, |c| consteval::cmp(c, a, b)),
        _ => super::ints::fold_int_lane(op, a, b).unwrap_or(0.0),
    }
}

/// `x·1`, `1·x`, `x+(−0)`, `(−0)+x`, `x−(+0)`: the other operand unchanged, bit for
/// bit (IEEE 754 §6.3: `x + (−0)` and `x − (+0)` are `x` for every `x`, while
/// `(−0) + (+0)` is `+0`, so `x + 0.0` is not `x` when `x` is `−0`; the constant is
/// matched by its bits, since `−0.0 == 0.0`). Folded and run-time values keep the
/// same bits (docs/glsl-dialects.md; docs/robustness.md, differential finding 6).
fn identity(op: Op, a: &Value, b: &Value, ty: Type) -> Option<Value> {
    let lanes = types::cols(ty) as usize * 4;
    let w = types::width(ty).max(1) as usize;
    let all = |v: &Value, k: f32| {
        v.as_const().is_some_and(|c| {
            (0..lanes)
                .filter(|i| i % 4 < w)
                .all(|i| c.0[i].to_bits() == k.to_bits())
        })
    };
    match op {
        Op::Mul if all(b, 1.0) => Some(*a),
        Op::Mul if all(a, 1.0) => Some(*b),
        Op::Add if all(b, -0.0) => Some(*a),
        Op::Add if all(a, -0.0) => Some(*b),
        Op::Sub if all(b, 0.0) => Some(*a),
        _ => None,
    }
}

impl Lowerer<'_> {
    /// The value in temporaries: constants get one `CONST` per column.
    pub(crate) fn materialize(&mut self, v: &Value) -> LResult<i16> {
        match v.repr {
            Repr::Temp(t) => Ok(t),
            Repr::Const(c) => {
                let n = types::cols(v.ty);
                let t = self.temp(n)?;
                self.const_columns(t, &c, v.ty)?;
                Ok(t)
            }
            Repr::Sampler(_) => {
                let pos = self.pos;
                self.err(pos, "a sampler cannot be used as a value here")
            }
        }
    }

    /// Copy lane `src_lane` (0..4) of temporary `src` into lane `dst_lane` of temporary
    /// `dst`, which holds a `width`-lane value of type `ty` (CSIR's SET_LANE,
    /// docs/csir.md); `dst`'s other lanes keep their values. The lowering's one writer
    /// of a single lane.
    pub(crate) fn set_lane(
        &mut self,
        ty: Type,
        dst: i16,
        dst_lane: usize,
        src: i16,
        src_lane: usize,
        width: u8,
    ) -> LResult<()> {
        self.emit(
            Ir::new(Op::SetLane, ty.ir())
                .dst(dst)
                .a(src)
                .aux(dst_lane as i16)
                .aux2(src_lane as i16)
                .ncomp(width),
        )
    }

    /// `CONST` each column of `c` into `dst..`.
    pub(crate) fn const_columns(&mut self, dst: i16, c: &ConstData, ty: Type) -> LResult<()> {
        let (n, w) = (types::cols(ty), types::width(ty).max(1));
        let col_ty = if ty.is_matrix() {
            types::column_type(ty)
        } else {
            ty
        };
        for k in 0..n as usize {
            self.em
                .const_into(dst + k as i16, c.lanes(k, w as usize), col_ty)
                .map_err(|e| self.pool(e))?;
        }
        Ok(())
    }

    /// Write `v` into the temporaries at `dst` (CONST or MOV per column; nothing when
    /// `v` already lives there).
    pub(crate) fn store_into(&mut self, dst: i16, v: &Value, ty: Type) -> LResult<()> {
        match v.repr {
            Repr::Const(c) => self.const_columns(dst, &c, ty),
            Repr::Temp(t) if t == dst => Ok(()),
            Repr::Temp(t) => {
                let w = types::width(ty).max(1);
                let col_ty = if ty.is_matrix() {
                    types::column_type(ty)
                } else {
                    ty
                };
                for k in 0..types::cols(ty) as i16 {
                    self.emit(Ir::new(Op::Mov, col_ty.ir()).dst(dst + k).a(t + k).ncomp(w))?;
                }
                Ok(())
            }
            Repr::Sampler(_) => Ok(()),
        }
    }

    /// Lane `k` of a scalar or vector, as a scalar.
    pub(crate) fn lane(&mut self, v: &Value, k: u8) -> LResult<Value> {
        let ty = types::with_base(types::base(v.ty), 1).unwrap_or(Type::Float);
        self.swizzle(v, &[k], ty)
    }

    /// Column `c` of a matrix (no instruction).
    pub(crate) fn column(&self, v: &Value, c: u8) -> Value {
        let ty = types::column_type(v.ty);
        match v.repr {
            Repr::Const(d) => Value::konst(ty, d.column(c as usize)),
            Repr::Temp(t) => Value::temp(ty, t + c as i16),
            Repr::Sampler(_) => *v,
        }
    }

    /// Select lanes `sel` of `v` into a value of type `ty` (identity prefixes are
    /// free, docs/csir-original.md B §1.8).
    pub(crate) fn swizzle(&mut self, v: &Value, sel: &[u8], ty: Type) -> LResult<Value> {
        match v.repr {
            Repr::Const(c) => {
                let mut d = ConstData::ZERO;
                for (i, &s) in sel.iter().enumerate() {
                    d.0[i] = c.0[s as usize];
                }
                Ok(Value::konst(ty, d))
            }
            Repr::Temp(t) => {
                if sel.iter().enumerate().all(|(i, &s)| s as usize == i) {
                    return Ok(Value::temp(ty, t));
                }
                let aux = sel
                    .iter()
                    .enumerate()
                    .fold(0i16, |m, (i, &s)| m | ((s as i16) << (2 * i)));
                let dst = self.temp(1)?;
                self.emit(
                    Ir::new(Op::Swz, ty.ir())
                        .dst(dst)
                        .a(t)
                        .aux(aux)
                        .ncomp(sel.len() as u8),
                )?;
                Ok(Value::temp(ty, dst))
            }
            Repr::Sampler(_) => Ok(*v),
        }
    }

    /// A scalar repeated over `n` lanes, keeping its component kind.
    pub(crate) fn broadcast(&mut self, v: &Value, n: u8) -> LResult<Value> {
        let ty = types::with_base(types::base(v.ty), n).unwrap_or(Type::float_vec(n));
        if n == 1 {
            return Ok(v.retyped(ty));
        }
        if let Some(c) = v.as_const() {
            return Ok(Value::konst(ty, ConstData::splat(c.0[0])));
        }
        self.swizzle(v, &[0, 0, 0, 0][..n as usize], ty)
    }

    /// `a op b` lane by lane on values of the same shape (matrices column by column),
    /// folded when both are constant. `ty` is the result type.
    pub(crate) fn lanewise(&mut self, op: Op, a: &Value, b: &Value, ty: Type) -> LResult<Value> {
        let (a, b) = self.same_lanes(a, b, ty)?;
        let (a, b) = (&a, &b);
        let lanes = self.int_lanes(a.ty);
        if lanes != Lanes::Float {
            if op == Op::Sub {
                let nb = self.unary_op(Op::INeg, b, b.ty)?;
                return self.lanewise(Op::UAdd, a, &nb, ty);
            }
            if let Some(iop) = Self::int_opcode(op, lanes) {
                return self.lanewise(iop, a, b, ty);
            }
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            let profile = self.limits.profile;
            let folded = Value::konst(ty, x.zip(&y, |p, q| fold_lane(op, 0, p, q, profile)));
            return self.exact_integer(folded);
        }
        if lanes == Lanes::Float
            && let Some(same) = identity(op, a, b, ty)
        {
            return Ok(same.retyped(ty));
        }
        let (ta, tb) = (self.materialize(a)?, self.materialize(b)?);
        self.per_column(op, ta, tb, ty)
    }

    /// `v` unchanged, or an error when it is a known integer of magnitude 2^24 or more:
    /// CSIR keeps integers in float registers (docs/csir.md "Integer and boolean
    /// representation"), exact only below 2^24 = 16777216 in magnitude, so a larger
    /// constant would silently become a different number (GLSL's 32-bit `int` wraps
    /// instead). Reported at the construct being lowered.
    pub(crate) fn exact_integer(&mut self, v: Value) -> LResult<Value> {
        let Some(c) = v.as_const() else {
            return Ok(v);
        };
        if types::base(v.ty) != Base::Int || self.exact_ints() {
            return Ok(v);
        }
        let w = types::width(v.ty).max(1) as usize;
        match c.0[..w].iter().find(|x| x.abs() > MAX_EXACT_INT) {
            None => Ok(v),
            Some(&x) => {
                let pos = self.pos;
                self.err(pos, integer_range_message(x as f64))
            }
        }
    }

    /// A component-wise one-operand opcode (ABS, SIN, COS, RCP) on every lane.
    pub(crate) fn unary_op(&mut self, op: Op, a: &Value, ty: Type) -> LResult<Value> {
        let lanes = self.int_lanes(a.ty);
        if lanes != Lanes::Float
            && let Some(iop) = Self::int_opcode(op, lanes)
        {
            return self.unary_op(iop, a, ty);
        }
        if let Some(x) = a.as_const() {
            let profile = self.limits.profile;
            let folded = Value::konst(ty, x.map(|p| fold_lane(op, 0, p, 0.0, profile)));
            return self.exact_integer(folded);
        }
        let ta = self.materialize(a)?;
        self.per_column(op, ta, -1, ty)
    }

    /// `op` on each column of operands at `ta..` (and `tb..` unless −1) into fresh
    /// temporaries of type `ty`.
    fn per_column(&mut self, op: Op, ta: i16, tb: i16, ty: Type) -> LResult<Value> {
        let n = types::cols(ty);
        let dst = self.temp(n)?;
        let col_ty = if ty.is_matrix() {
            types::column_type(ty)
        } else {
            ty
        };
        for k in 0..n as i16 {
            let b = if tb < 0 { -1 } else { tb + k };
            let ir = Ir::new(op, col_ty.ir()).dst(dst + k).a(ta + k).b(b);
            self.emit(ir.ncomp(types::width(ty)))?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// A scalar opcode (RSQ, TRUNC, POW, CMP) on lane 0 of scalars `a` (and `b`),
    /// folded when the operands are constant.
    pub(crate) fn scalar_op(
        &mut self,
        op: Op,
        a: &Value,
        b: Option<&Value>,
        aux: i16,
        ty: Type,
    ) -> LResult<Value> {
        if let Some(b) = b {
            let (a, b) = self.same_lanes(a, b, ty)?;
            let lanes = self.int_lanes(a.ty);
            if lanes != Lanes::Float && op == Op::Cmp {
                let code = CmpCode::from_code(aux).unwrap_or(CmpCode::Eq);
                let (iop, swap) = Self::int_compare(code, lanes);
                let (x, y) = if swap { (&b, &a) } else { (&a, &b) };
                return self.scalar_op_raw(iop, x, Some(y), 0, ty);
            }
            return self.scalar_op_raw(op, &a, Some(&b), aux, ty);
        }
        if op == Op::Trunc && self.int_lanes(a.ty) != Lanes::Float {
            return Ok(a.retyped(ty));
        }
        self.scalar_op_raw(op, a, None, aux, ty)
    }

    /// [`Lowerer::scalar_op`] with `op` as given (no integer mapping).
    fn scalar_op_raw(
        &mut self,
        op: Op,
        a: &Value,
        b: Option<&Value>,
        aux: i16,
        ty: Type,
    ) -> LResult<Value> {
        let bc = b.map(|b| b.as_const());
        if let (Some(x), None | Some(Some(_))) = (a.as_const(), bc) {
            let y = bc.flatten().map_or(0.0, |c| c.0[0]);
            let lane = fold_lane(op, aux, x.0[0], y, self.limits.profile);
            let folded = Value::konst(ty, ConstData::scalar(lane));
            return self.exact_integer(folded);
        }
        let ta = self.materialize(a)?;
        let tb = match b {
            Some(b) => self.materialize(b)?,
            None => -1,
        };
        let dst = self.temp(1)?;
        self.emit(Ir::new(op, ty.ir()).dst(dst).a(ta).b(tb).aux(aux).ncomp(1))?;
        Ok(Value::temp(ty, dst))
    }

    /// Build an `n`-lane value of type `ty` from `f(lane)`, one scalar per lane.
    pub(crate) fn per_lane(
        &mut self,
        ty: Type,
        mut f: impl FnMut(&mut Self, u8) -> LResult<Value>,
    ) -> LResult<Value> {
        let n = types::width(ty).max(1);
        let mark = self.em.mark();
        let mut comps = Vec::with_capacity(n as usize);
        for k in 0..n {
            comps.push((f(self, k)?, 0u8));
        }
        self.assemble(&comps, ty, mark)
    }

    /// A scalar or vector of type `ty` whose lane i is lane `comps[i].1` of
    /// `comps[i].0`. Constant lanes come from one CONST; a leading run that is already
    /// in place in a temporary allocated since `mark` becomes the destination itself;
    /// the rest are SETLANEs.
    pub(crate) fn assemble(
        &mut self,
        comps: &[(Value, u8)],
        ty: Type,
        mark: usize,
    ) -> LResult<Value> {
        self.assemble_into(comps, ty, mark, None)
    }

    /// [`Lowerer::assemble`] writing into `into` when given (a matrix column).
    pub(crate) fn assemble_into(
        &mut self,
        comps: &[(Value, u8)],
        ty: Type,
        mark: usize,
        into: Option<i16>,
    ) -> LResult<Value> {
        let n = comps.len();
        let mut consts = ConstData::ZERO;
        for (i, (v, k)) in comps.iter().enumerate() {
            if let Some(c) = v.as_const() {
                consts.0[i] = c.0[*k as usize];
            }
        }
        let all_const = comps.iter().all(|(v, _)| v.as_const().is_some());
        if n == 1 || all_const {
            let v = if all_const {
                Value::konst(ty, consts)
            } else {
                self.swizzle(&comps[0].0, &[comps[0].1], ty)?
            };
            return match into {
                Some(dst) => self.store_into(dst, &v, ty).map(|_| Value::temp(ty, dst)),
                None => Ok(v),
            };
        }
        // The leading run of lanes 0..run taken in place from one temporary.
        let first = comps[0].0.as_temp();
        let run = match first {
            Some(t) => comps
                .iter()
                .enumerate()
                .take_while(|(i, (v, k))| v.as_temp() == Some(t) && *k as usize == *i)
                .count(),
            None => 0,
        };
        let any_const = comps.iter().any(|(v, _)| v.as_const().is_some());
        let mut done = vec![false; n];
        let reuse = into.is_none() && run > 0 && self.em.is_fresh(first.unwrap_or(0), 1, mark);
        let dst = match (reuse, into) {
            (true, _) => first.unwrap_or(0),
            (false, Some(d)) => d,
            (false, None) => self.temp(1)?,
        };
        if reuse {
            done[..run].iter_mut().for_each(|d| *d = true);
            if any_const {
                let c = self.materialize(&Value::konst(ty, consts))?;
                for (i, (v, _)) in comps.iter().enumerate() {
                    if v.as_const().is_some() {
                        self.set_lane(ty, dst, i, c, i, n as u8)?;
                        done[i] = true;
                    }
                }
            }
        } else {
            if any_const {
                self.em
                    .const_into(dst, &consts.0[..n], ty)
                    .map_err(|e| self.pool(e))?;
                for (i, (v, _)) in comps.iter().enumerate() {
                    done[i] |= v.as_const().is_some();
                }
            }
            if run > 0 {
                let t = first.unwrap_or(0);
                self.emit(Ir::new(Op::Mov, ty.ir()).dst(dst).a(t).ncomp(run as u8))?;
                done[..run].iter_mut().for_each(|d| *d = true);
            }
        }
        for (i, (v, k)) in comps.iter().enumerate() {
            if done[i] {
                continue;
            }
            let src = self.materialize(v)?;
            self.set_lane(ty, dst, i, src, *k as usize, n as u8)?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// Run `f` in a statement frame of its own: the temporaries it allocates are free
    /// again afterwards, except those of the value it returns, which move to the
    /// enclosing frame. For expansions (built-ins) whose intermediates nothing else
    /// can refer to; keeps long statements within the temporary pool.
    pub(crate) fn scoped(&mut self, f: impl FnOnce(&mut Self) -> LResult<Value>) -> LResult<Value> {
        let outer = self.em.frame_index();
        self.em.push_frame();
        let r = f(self);
        if let Ok(Value {
            ty,
            repr: Repr::Temp(t),
        }) = r
        {
            self.em.hand_to(t, types::cols(ty) as u16, outer);
        }
        self.em.pop_frame();
        r
    }

    /// `a` and `b` in the same lane representation (extended profile): where one holds
    /// integer patterns and the other floats, the float side becomes the integers of
    /// an integer result (a `bool` used as a number) and the integer side becomes
    /// floats otherwise (the implicit int → float conversion).
    fn same_lanes(&mut self, a: &Value, b: &Value, ty: Type) -> LResult<(Value, Value)> {
        let (la, lb) = (self.int_lanes(a.ty), self.int_lanes(b.ty));
        if la == lb || (la != Lanes::Float && lb != Lanes::Float) {
            return Ok((*a, *b));
        }
        let target = match self.int_lanes(ty) {
            Lanes::Float => Base::Float,
            _ => types::base(ty),
        };
        let fix = |s: &mut Self, v: &Value| -> LResult<Value> {
            if types::base(v.ty) == target || v.ty.is_matrix() {
                return Ok(*v);
            }
            let to = types::with_base(target, v.ty.width()).unwrap_or(v.ty);
            s.convert(v, to)
        };
        Ok((fix(self, a)?, fix(self, b)?))
    }
}
