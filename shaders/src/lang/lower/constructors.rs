//! Constructors (GLSL 3.30 §5.4, docs/csir-original.md A2: matrix constructors work,
//! `ivecN` gives `ivecN`, `int(x)` truncates, `bool(x)` is `x != 0`).
//!
//! Arguments are flattened into components (vectors lane by lane, matrices column by
//! column), converted to the target's component kind (float → int is TRUNC, number →
//! bool is CMP != 0, the rest only reinterpret) and assembled: constant lanes from one
//! CONST, a vector already in place moved or reused, the rest SETLANE. A single
//! scalar fills a vector (broadcast) or a matrix diagonal; a single matrix resizes
//! (`mat3(m4)` takes the upper-left block, `mat4(m3)` pads with the identity, and
//! likewise between any two of the nine `matCxR` shapes).

use super::super::ast::Expr;
use super::super::consteval::ConstData;
use super::super::token::Pos;
use super::super::types::Type;
use super::super::types::{self, Base};
use super::value::Value;
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Op};

/// Most constructor arguments (docs/csir-original.md B §1.1: 16).
pub const MAX_CONSTRUCTOR_ARGS: usize = 16;

impl Lowerer<'_> {
    pub(crate) fn construct(&mut self, ty: Type, args: &[Expr], pos: Pos) -> LResult<Value> {
        if ty == Type::Void || ty.is_sampler() {
            return self.err(pos, format!("{} cannot be constructed", ty.keyword()));
        }
        if let Some(m) = self.missing_type(ty) {
            return self.err(pos, m);
        }
        if args.len() > MAX_CONSTRUCTOR_ARGS {
            return self.err(
                pos,
                format!(
                    "too many arguments: {} given, a constructor takes at most \
                     {MAX_CONSTRUCTOR_ARGS}",
                    args.len()
                ),
            );
        }
        let refs: Vec<&Expr> = args.iter().collect();
        let vals = self.operands(&refs, false)?;
        if vals.is_empty() {
            return self.err(pos, "constructor component count does not match the type");
        }
        let mark = self.em.mark();
        let base = types::base(ty);
        if ty.is_matrix() {
            return self.construct_matrix(ty, &vals, pos, mark);
        }
        let n = ty.width();
        // One vector argument narrower than the type gives too few components: it
        // goes to `components`, which names the count (GLSL 1.10 §5.4.1).
        if vals.len() == 1
            && !vals[0].ty.is_matrix()
            && (vals[0].ty.width() == 1 || vals[0].ty.width() >= n)
        {
            let v = vals[0];
            if v.ty.width() == 1 {
                let s = self.convert_lane(&v, 0, base)?;
                return self.broadcast(&s, n).map(|r| r.retyped(ty));
            }
            let from = types::base(v.ty);
            if self.exact_ints() {
                // The first n lanes, then converted (GLSL 1.30 §5.4.1).
                let head = types::with_base(from, n).unwrap_or(v.ty);
                return self.convert(&v.retyped(head), ty);
            }
            if from == base || !matches!(base, Base::Int | Base::Bool) {
                // Same lanes, reinterpreted and truncated to the target width.
                return Ok(v.retyped(ty));
            }
        }
        let comps = self.components(&vals, n as usize, pos)?;
        let comps = self.convert_components(comps, base)?;
        self.assemble(&comps, ty, mark)
    }

    /// Flatten arguments into `(value, lane)` components, requiring at least `need`
    /// and that the last argument contributes (GLSL §5.4.2).
    fn components(&mut self, vals: &[Value], need: usize, pos: Pos) -> LResult<Vec<(Value, u8)>> {
        let mut comps = Vec::new();
        for v in vals {
            if comps.len() >= need {
                return self.err(
                    pos,
                    format!(
                        "too many arguments: the constructed type takes {need} components \
                         and an argument is left over"
                    ),
                );
            }
            if v.ty.is_matrix() {
                for c in 0..v.ty.columns() {
                    let col = self.column(v, c);
                    comps.extend((0..v.ty.width()).map(|k| (col, k)));
                }
            } else {
                comps.extend((0..v.ty.width()).map(|k| (*v, k)));
            }
        }
        if comps.len() < need {
            return self.err(pos, "constructor component count does not match the type");
        }
        comps.truncate(need);
        Ok(comps)
    }

    /// Convert components to the component kind `base`.
    fn convert_components(
        &mut self,
        comps: Vec<(Value, u8)>,
        base: Base,
    ) -> LResult<Vec<(Value, u8)>> {
        let mut out = Vec::with_capacity(comps.len());
        for (v, k) in comps {
            let from = types::base(v.ty);
            let same_lanes = match self.exact_ints() {
                true => from == base || (types::is_int_base(from) && types::is_int_base(base)),
                false => {
                    from == base
                        || (base == Base::Float)
                        || (base == Base::Int && from == Base::Bool)
                }
            };
            if same_lanes {
                let ty = types::with_base(base, v.ty.width()).unwrap_or(v.ty);
                out.push((v.retyped(ty), k));
            } else {
                out.push((self.convert_lane(&v, k, base)?, 0));
            }
        }
        Ok(out)
    }

    /// Lane `k` of `v` as a scalar of kind `base` (TRUNC for float → int, CMP != 0
    /// for number → bool).
    pub(crate) fn convert_lane(&mut self, v: &Value, k: u8, base: Base) -> LResult<Value> {
        let col = if v.ty.is_matrix() {
            self.column(v, 0)
        } else {
            *v
        };
        let s = self.lane(&col, k)?;
        let from = types::base(s.ty);
        if self.exact_ints() {
            let to = types::with_base(base, 1).unwrap_or(Type::Float);
            return self.convert(&s, to);
        }
        match (from, base) {
            (Base::Float, Base::Int) => self.scalar_op(Op::Trunc, &s, None, 0, Type::Int),
            (Base::Float | Base::Int, Base::Bool) => self.scalar_op(
                Op::Cmp,
                &s,
                Some(&Value::float(0.0)),
                CmpCode::Ne.code(),
                Type::Bool,
            ),
            _ => Ok(s.retyped(types::with_base(base, 1).unwrap_or(Type::Float))),
        }
    }

    fn construct_matrix(
        &mut self,
        ty: Type,
        vals: &[Value],
        pos: Pos,
        mark: usize,
    ) -> LResult<Value> {
        let (cols, rows) = (ty.columns(), ty.width());
        if vals.len() == 1 && vals[0].ty.width() == 1 && !vals[0].ty.is_matrix() {
            let s = self.convert_lane(&vals[0], 0, Base::Float)?;
            return self.matrix_from(ty, mark, |c, r| if c == r { Some(s) } else { None });
        }
        if vals.len() == 1 && vals[0].ty.is_matrix() {
            // GLSL 3.30 §5.4.2: cell (c, r) of the argument where it has one, else the
            // identity's.
            let m = vals[0];
            let (mc, mr) = (m.ty.columns(), m.ty.width());
            if let (true, true, Some(t)) = (mc >= cols, mr >= rows, m.as_temp()) {
                // The first columns, already consecutive, each at least as tall:
                // `mat3(m4)` is a view (instructions on it read 3 lanes per column).
                return Ok(Value::temp(ty, t));
            }
            let mut cells = Vec::new();
            for c in 0..cols {
                let col = self.column(&m, c.min(mc - 1));
                for r in 0..rows {
                    cells.push((c < mc && r < mr).then_some((col, r)));
                }
            }
            return self.matrix_cells(ty, mark, |c, r| cells[(c * rows + r) as usize]);
        }
        let comps = self.components(vals, (cols * rows) as usize, pos)?;
        let comps = self.convert_components(comps, Base::Float)?;
        self.matrix_cells(ty, mark, |c, r| Some(comps[(c * rows + r) as usize]))
    }

    /// A matrix whose cell (c, r) is the scalar `f(c, r)`, or identity where `None`.
    fn matrix_from(
        &mut self,
        ty: Type,
        mark: usize,
        f: impl Fn(u8, u8) -> Option<Value>,
    ) -> LResult<Value> {
        self.matrix_cells(ty, mark, |c, r| f(c, r).map(|v| (v, 0)))
    }

    /// A matrix whose cell (c, r) is lane `.1` of `.0`, or the identity's where `None`.
    fn matrix_cells(
        &mut self,
        ty: Type,
        mark: usize,
        f: impl Fn(u8, u8) -> Option<(Value, u8)>,
    ) -> LResult<Value> {
        let (cols, rows) = (ty.columns(), ty.width());
        let col_ty = Type::float_vec(rows);
        let one = Value::float(1.0);
        let zero = Value::float(0.0);
        let cell = |c: u8, r: u8| f(c, r).unwrap_or(if c == r { (one, 0) } else { (zero, 0) });
        let mut all = ConstData::ZERO;
        let mut constant = true;
        for c in 0..cols {
            for r in 0..rows {
                let (v, k) = cell(c, r);
                match v.as_const() {
                    Some(d) => all.set(c as usize, r as usize, d.0[k as usize]),
                    None => constant = false,
                }
            }
        }
        if constant {
            return Ok(Value::konst(ty, all));
        }
        let dst = self.temp(cols)?;
        for c in 0..cols {
            let comps: Vec<(Value, u8)> = (0..rows).map(|r| cell(c, r)).collect();
            let first = comps[0].0.as_temp();
            let whole = first.is_some()
                && comps
                    .iter()
                    .enumerate()
                    .all(|(r, (v, k))| v.as_temp() == first && *k as usize == r);
            let at = dst + c as i16;
            match (whole, first) {
                // A whole column already in one temporary: one MOV.
                (true, Some(t)) => self.store_into(at, &Value::temp(col_ty, t), col_ty)?,
                _ => {
                    self.assemble_into(&comps, col_ty, mark, Some(at))?;
                }
            }
        }
        Ok(Value::temp(ty, dst))
    }
}
