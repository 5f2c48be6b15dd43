//! Assignment targets and writes (docs/csir-original.md B §1.11, plus swizzle and index
//! targets: `p.x = …`, `c.rgb = …`, `v[i] = …`, `m[i] = …`, `m[i].y = …`, `a[i][j] = …`).
//!
//! A run-time index makes the target a [`Target::Select`]: CSIR has no indirect
//! register addressing, so the write goes to each element the index may name under
//! `IF index == k` (nothing when the index is out of range), and a read (compound
//! assignment, `inout`) picks the same way (element 0 when out of range);
//! docs/glsl-dialects.md, "Run-time indexes". The code grows with the product of the
//! sizes indexed at run time; the instruction pool bounds it with its own error.
//!
//! A write of a known value at the variable's own conditional depth only updates the
//! compile-time value; a write inside a branch (deeper) goes through the storage so
//! the value after the branch is right on every path (docs/csir-original.md A2). A local
//! whose new value is a fresh intermediate adopts it instead of copying. Every write to an
//! output is followed by its store (STORE_POS / STORE_VAR / STORE_COLOR).

use super::super::ast::{Expr, ExprKind};
use super::super::scope::{Access, Output, VarId, VarKind};
use super::super::token::Pos;
use super::super::types;
use super::super::types::Type;
use super::arrays::index_range_message;
use super::value::{Repr, Value};
use super::{Fail, LResult, Lowerer};
use crate::ir::{CmpCode, Ir, Op};

/// An assignment target: one place, or (with run-time indexes) one of several places
/// chosen at run time.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    Place(Place),
    /// `arms[k]` when the int `index` (a temporary copied when the target was
    /// resolved) is k; none when it is out of range. `pos` is the index expression.
    Select {
        index: Value,
        arms: Vec<Target>,
        pos: Pos,
    },
}

impl Target {
    /// Type of the targeted part (the same in every arm).
    pub(crate) fn ty(&self) -> Type {
        match self {
            Target::Place(p) => p.ty,
            Target::Select { arms, .. } => arms.first().map_or(Type::None, Target::ty),
        }
    }

    pub(super) fn for_each_place(&self, f: &mut dyn FnMut(&Place)) {
        match self {
            Target::Place(p) => f(p),
            Target::Select { arms, .. } => arms.iter().for_each(|a| a.for_each_place(f)),
        }
    }
}

/// A resolved assignment target: a variable, optionally one matrix column, optionally
/// some lanes (in target order).
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub var: VarId,
    pub col: Option<u8>,
    pub lanes: Option<Vec<u8>>,
    /// Type of the targeted part.
    pub ty: Type,
}

impl Lowerer<'_> {
    /// The array variable a target names as a whole (`a = …` for an array `a`),
    /// checked writable.
    pub(crate) fn whole_array_target(&mut self, target: &Expr) -> LResult<Option<VarId>> {
        let ExprKind::Ident(name) = &target.kind else {
            return Ok(None);
        };
        let Some(id) = self.scopes.lookup(name) else {
            return Ok(None);
        };
        if self.scopes.var(id).array.is_none() {
            return Ok(None);
        }
        self.check_writable(id, name, target.pos)?;
        if let Some(m) =
            self.no_array_assignment(&format!("assignment to the whole array '{name}'"))
        {
            return self.err(target.pos, m);
        }
        Ok(Some(id))
    }

    /// Resolve an assignment target and check that it may be written: one place, or
    /// with run-time indexes a [`Target::Select`] over the places it may be.
    pub(crate) fn target(&mut self, target: &Expr) -> LResult<Target> {
        self.resolve_target(target, true)
    }

    /// [`Lowerer::target`], with the check that the variable may be written only when
    /// `check` (a call argument resolved before its overload is known checks it once
    /// the overload writes it: [`Lowerer::check_target_writable`]). Every index in
    /// `target` is evaluated here, once.
    pub(crate) fn resolve_target(&mut self, target: &Expr, check: bool) -> LResult<Target> {
        match &target.kind {
            ExprKind::Ident(name) => {
                let Some(id) = self.scopes.lookup(name) else {
                    if self.funcs.iter().any(|f| f.def.name == *name) {
                        return self.err(target.pos, "invalid assignment");
                    }
                    let dialect = self.program.dialect;
                    if crate::lang::builtin_vars::constant(name, dialect, &self.limits).is_some() {
                        let m = self.read_only_message(
                            "cannot assign to const",
                            name,
                            "a built-in constant",
                        );
                        return self.err(target.pos, m);
                    }
                    return self.unknown_name(name, target.pos);
                };
                if check {
                    self.check_writable(id, name, target.pos)?;
                }
                let ty = self.scopes.var(id).ty;
                Ok(Target::Place(Place {
                    var: id,
                    col: None,
                    lanes: None,
                    ty,
                }))
            }
            ExprKind::Swizzle(inner, sel) => {
                let t = self.resolve_target(inner, check)?;
                self.map_places(t, &mut |s, p| {
                    s.swizzle_place(p, sel, target.pos).map(Target::Place)
                })
            }
            ExprKind::Index(inner, index) => {
                let t = self.resolve_target(inner, check)?;
                let i = self.operand(index)?;
                self.check_index(&i, index.pos)?;
                let constant = self.is_constant_expression(index);
                if let Some(k) = self.known_index(&i) {
                    let mut in_range = true;
                    self.map_places(t.clone(), &mut |s, p| {
                        let n = s.index_count(&p, index.pos)?;
                        in_range &= (0.0..n as f32).contains(&k);
                        Ok(Target::Place(p))
                    })?;
                    if in_range || constant {
                        return self.map_places(t, &mut |s, p| {
                            s.index_place(p, k, index.pos).map(Target::Place)
                        });
                    }
                    // Known but out of range and not a constant expression: the
                    // run-time rule writes nothing (const_expr.rs).
                }
                // A run-time index: copied now (GLSL evaluates an l-value once, before
                // an `out` argument's callee could change the index variable).
                let copy = self.temp(1)?;
                self.store_into(copy, &i, Type::Int)?;
                let i = Value::temp(Type::Int, copy);
                self.map_places(t, &mut |s, p| {
                    let n = s.index_count(&p, index.pos)?;
                    let mut arms = Vec::with_capacity(n);
                    for k in 0..n {
                        arms.push(Target::Place(s.index_place(
                            p.clone(),
                            k as f32,
                            index.pos,
                        )?));
                    }
                    Ok(Target::Select {
                        index: i,
                        arms,
                        pos: index.pos,
                    })
                })
            }
            _ => self.err(target.pos, "assignment target must be a name"),
        }
    }

    /// The check [`Lowerer::target`] makes, for a target resolved without it: the
    /// variable `target` names may be written.
    pub(crate) fn check_target_writable(&mut self, target: &Expr) -> LResult<()> {
        match target.root_name() {
            Some(name) => match self.scopes.lookup(name) {
                Some(id) => self.check_writable(id, name, target.pos),
                None => self.unknown_name(name, target.pos),
            },
            None => self.err(target.pos, "assignment target must be a name"),
        }
    }

    /// Apply `f` to every place of a target.
    fn map_places(
        &mut self,
        t: Target,
        f: &mut dyn FnMut(&mut Self, Place) -> LResult<Target>,
    ) -> LResult<Target> {
        match t {
            Target::Place(p) => f(self, p),
            Target::Select { index, arms, pos } => {
                let mut out = Vec::with_capacity(arms.len());
                for a in arms {
                    out.push(self.map_places(a, f)?);
                }
                Ok(Target::Select {
                    index,
                    arms: out,
                    pos,
                })
            }
        }
    }

    /// `p.sel`.
    fn swizzle_place(&mut self, mut p: Place, sel: &[u8], pos: Pos) -> LResult<Place> {
        self.not_whole_array(&p, pos)?;
        if p.ty.is_matrix() {
            return self.err(pos, "cannot swizzle a matrix");
        }
        if sel.iter().any(|&s| s >= p.ty.width()) {
            return self.err(pos, "invalid swizzle");
        }
        if (1..sel.len()).any(|i| sel[..i].contains(&sel[i])) {
            return self.err(pos, "a swizzle assignment cannot repeat a component");
        }
        let lanes: Vec<u8> = match &p.lanes {
            Some(l) => sel.iter().map(|&s| l[s as usize]).collect(),
            None => sel.to_vec(),
        };
        let Some(ty) = types::with_base(types::base(p.ty), lanes.len() as u8) else {
            return self.err(pos, "bool vectors are not supported");
        };
        p.lanes = Some(lanes);
        p.ty = ty;
        Ok(p)
    }

    /// How many elements `p[i]` chooses from: the array's length, the matrix's
    /// columns or the vector's lanes.
    fn index_count(&mut self, p: &Place, pos: Pos) -> LResult<usize> {
        if let Some(arr) = self.scopes.var(p.var).array {
            return Ok(arr.len as usize);
        }
        match p.ty {
            t if t.is_matrix() => Ok(t.columns() as usize),
            t if !t.is_scalar() && t.width() > 1 => Ok(t.width() as usize),
            _ => self.err(pos, "index out of range"),
        }
    }

    /// `p[k]` for a constant `k` (`pos` is the index).
    fn index_place(&mut self, mut p: Place, k: f32, pos: Pos) -> LResult<Place> {
        if let Some(arr) = self.scopes.var(p.var).array {
            if !(0.0..arr.len as f32).contains(&k) {
                let name = self.scopes.var(p.var).name.clone();
                return self.err(pos, index_range_message(&name, k, arr.len as usize));
            }
            p.var = arr.first + k as usize;
            return Ok(p);
        }
        let k = self.const_index(p.ty, &self.int(k as i32), pos)?;
        if p.ty.is_matrix() {
            p.col = Some(k);
            p.ty = types::column_type(p.ty);
        } else {
            let lane = p.lanes.as_ref().map_or(k, |l| l[k as usize]);
            p.lanes = Some(vec![lane]);
            p.ty = types::with_base(types::base(p.ty), 1).unwrap_or(Type::Float);
        }
        Ok(p)
    }

    /// The current value of a target (for compound assignment and `inout`): a
    /// [`Target::Select`] reads like a run-time index (`arms[0]` when out of range).
    /// Each arm is read under its own IF, in its own temporary frame.
    pub(crate) fn read_target(&mut self, t: &Target) -> LResult<Value> {
        let (index, arms, pos) = match t {
            Target::Place(p) => return self.read_place(p),
            Target::Select { index, arms, pos } => (index, arms, pos),
        };
        let ty = t.ty();
        let dst = self.temp(types::cols(ty))?;
        for (k, arm) in arms.iter().enumerate() {
            self.em.push_frame();
            let r = self.read_arm(index, k, arm, dst, *pos);
            self.em.pop_frame();
            r?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// `dst = arm` (under `IF index == k` for k > 0).
    fn read_arm(
        &mut self,
        index: &Value,
        k: usize,
        arm: &Target,
        dst: i16,
        pos: Pos,
    ) -> LResult<()> {
        if k == 0 {
            let v = self.read_target(arm)?;
            return self.store_into(dst, &v, arm.ty());
        }
        self.open_hit(index, k, pos)?;
        let r = self
            .read_target(arm)
            .and_then(|v| self.store_into(dst, &v, arm.ty()));
        self.close_if()?;
        r
    }

    /// `IF index == k`.
    pub(crate) fn open_hit(&mut self, index: &Value, k: usize, pos: Pos) -> LResult<()> {
        let hit = self.scalar_op(
            Op::Cmp,
            index,
            Some(&self.int(k as i32)),
            CmpCode::Eq.code(),
            Type::Bool,
        )?;
        let c = self.materialize(&hit)?;
        self.open_if(c, pos)
    }

    /// Write `value` to a target: a [`Target::Select`] writes arm k under
    /// `IF index == k`, and nothing when the index is out of range (docs/glsl-dialects.md).
    pub(crate) fn write_target(&mut self, t: &Target, value: &Value, pos: Pos) -> LResult<()> {
        if let Target::Place(p) = t {
            return self.write(p, value, pos);
        }
        self.check_operand(value, pos)?;
        let ty = t.ty();
        if !types::converts_to(value.ty, ty, self.conversions()) {
            let m = self.mismatch("type mismatch in assignment", value.ty, ty);
            return self.err(pos, m);
        }
        // The IFs below write the variables on some paths only: their compile-time
        // values must be in storage first, and the value in a temporary once.
        let mut vars = Vec::new();
        t.for_each_place(&mut |p| vars.push(p.var));
        for id in vars {
            let v = self.scopes.var(id);
            if v.known.is_some() && !v.poisoned {
                self.sync_storage(id)?;
            }
        }
        let value = Value::temp(value.ty, self.materialize(value)?);
        self.write_select(t, &value, pos)
    }

    fn write_select(&mut self, t: &Target, value: &Value, pos: Pos) -> LResult<()> {
        let (index, arms, ipos) = match t {
            Target::Place(p) => return self.write(p, value, pos),
            Target::Select { index, arms, pos } => (index, arms, pos),
        };
        for (k, arm) in arms.iter().enumerate() {
            self.em.push_frame();
            let r = self.open_hit(index, k, *ipos).and_then(|_| {
                let r = self.write_select(arm, value, pos);
                self.close_if()?;
                r
            });
            self.em.pop_frame();
            r?;
        }
        Ok(())
    }

    /// A whole array is not a value: it is only assigned by `a = …` (see `arrays.rs`).
    fn not_whole_array(&mut self, p: &Place, pos: Pos) -> LResult<()> {
        if self.scopes.var(p.var).array.is_some() {
            return self.err(pos, "an array can only be indexed here");
        }
        Ok(())
    }

    pub(crate) fn check_writable(&mut self, id: VarId, name: &str, pos: Pos) -> LResult<()> {
        let v = self.scopes.var(id);
        if v.poisoned {
            return Err(Fail::Reported);
        }
        match (v.kind, v.access) {
            (VarKind::Unavailable, _) => {
                self.err(pos, format!("{name} is not available in this stage"))
            }
            (_, Access::Const) => {
                let m = self.read_only_message("cannot assign to const", name, "a constant");
                self.err(pos, m)
            }
            (_, Access::LoopVariable) => self.err(pos, "cannot assign the loop variable"),
            (VarKind::Sampler(_), _) => {
                let m = self.read_only_message("invalid assignment", name, "a sampler");
                self.err(pos, m)
            }
            (_, Access::ReadOnly) => {
                let m = self.read_only_message(
                    "invalid assignment",
                    name,
                    "a uniform or a shader input",
                );
                self.err(pos, m)
            }
            _ => Ok(()),
        }
    }

    /// The message for an assignment to the read-only `name`, which is `what` ("a
    /// constant", "a sampler", ...): the original's words `original` under the seed
    /// profile (docs/csir-original.md A4), those words with the symbol and the rule
    /// under the extended profile (GLSL 1.10 §4.3: constants, uniforms, attributes and
    /// fragment-stage varyings are read-only; §4.1.7: samplers cannot be assigned).
    fn read_only_message(&self, original: &str, name: &str, what: &str) -> String {
        if !self.limits.extended_ops() {
            return original.to_string();
        }
        format!(
            "{original}: '{name}' is {what}, which a shader cannot write (GLSL 1.10 §4.3, \
             §4.1.7)"
        )
    }

    /// The current value at a place (for compound assignment).
    pub(crate) fn read_place(&mut self, p: &Place) -> LResult<Value> {
        let pos = self.pos;
        self.not_whole_array(p, pos)?;
        let v = self.scopes.var(p.var);
        let whole = match (v.known, v.storage) {
            (Some(c), _) => Value::konst(v.ty, c),
            (None, Some(t)) => Value::temp(v.ty, t),
            (None, None) => Value::konst(v.ty, super::super::consteval::ConstData::ZERO),
        };
        let part = match p.col {
            Some(c) => self.column(&whole, c),
            None => whole,
        };
        match &p.lanes {
            Some(l) => self.swizzle(&part, l, p.ty),
            None => Ok(part),
        }
    }

    /// Give a variable storage if it has none.
    pub(crate) fn ensure_storage(&mut self, id: VarId) -> LResult<i16> {
        if let Some(t) = self.scopes.var(id).storage {
            return Ok(t);
        }
        let n = types::cols(self.scopes.var(id).ty);
        let t = self.em.storage(n as u16).map_err(|e| self.pool(e))?;
        let v = self.scopes.var_mut(id);
        v.storage = Some(t);
        v.owns_storage = true;
        v.synced = false;
        Ok(t)
    }

    /// Make the storage hold the variable's value (CONST of a known value).
    ///
    /// Inside a branch deeper than the declaration this must already have happened
    /// before the branch (see `flow.rs`); if the scan missed a write, the CONST would
    /// land in one path only, so it is reported instead of miscompiled.
    pub(crate) fn sync_storage(&mut self, id: VarId) -> LResult<i16> {
        let t = self.ensure_storage(id)?;
        let v = self.scopes.var(id);
        if let (Some(c), false) = (v.known, v.synced) {
            if self.write_depth() > v.depth && !self.em.is_dry() {
                let pos = self.pos;
                return self.err(
                    pos,
                    "internal error: a branch writes a variable the compiler did not expect",
                );
            }
            let ty = v.ty;
            self.const_columns(t, &c, ty)?;
            self.scopes.var_mut(id).synced = true;
        }
        Ok(t)
    }

    /// Write `value` to `p` (`pos` for the type error).
    pub(crate) fn write(&mut self, p: &Place, value: &Value, pos: Pos) -> LResult<()> {
        self.check_operand(value, pos)?;
        self.not_whole_array(p, pos)?;
        if !types::converts_to(value.ty, p.ty, self.conversions()) {
            let m = self.mismatch("type mismatch in assignment", value.ty, p.ty);
            return self.err(pos, m);
        }
        let value = self.convert(value, p.ty)?;
        let id = p.var;
        let (kind, depth, var_ty) = {
            let v = self.scopes.var(id);
            (v.kind, v.depth, v.ty)
        };
        let output = matches!(kind, VarKind::Output(_));
        let same_depth = depth == self.write_depth() && !output;
        if p.col.is_none() && p.lanes.is_none() {
            self.write_whole(id, &value, same_depth)?;
        } else if let (Some(mut known), Some(c), true) =
            (self.scopes.var(id).known, value.as_const(), same_depth)
        {
            // Update the compile-time value in place.
            let col = p.col.unwrap_or(0) as usize;
            match &p.lanes {
                Some(lanes) => {
                    for (i, &l) in lanes.iter().enumerate() {
                        known.set(col, l as usize, c.0[i]);
                    }
                }
                None => {
                    for r in 0..4 {
                        known.set(col, r, c.get(0, r));
                    }
                }
            }
            let v = self.scopes.var_mut(id);
            v.known = Some(known);
            v.synced = false;
        } else {
            let base = self.sync_storage(id)? + p.col.unwrap_or(0) as i16;
            self.scopes.var_mut(id).known = None;
            match &p.lanes {
                None => self.store_into(base, &value, p.ty)?,
                Some(lanes) => self.write_lanes(base, lanes, &value, var_ty)?,
            }
        }
        if let VarKind::Output(out) = kind {
            self.emit_store(id, out)?;
        }
        Ok(())
    }

    /// Whole-variable write; `same_depth`: the write happens at the variable's own
    /// conditional depth (so it may stay a compile-time value or adopt a temporary).
    fn write_whole(&mut self, id: VarId, value: &Value, same_depth: bool) -> LResult<()> {
        let kind = self.scopes.var(id).kind;
        let ty = self.scopes.var(id).ty;
        if let (Repr::Const(c), true) = (value.repr, same_depth) {
            let v = self.scopes.var_mut(id);
            v.known = Some(c);
            v.synced = false;
            return Ok(());
        }
        // Not inside a speculative loop wrap opened after the declaration: the paths
        // that left the loop keep their value in the old storage.
        let spec_same = self.scopes.var(id).spec == self.spec_open;
        if let (Repr::Temp(t), true, VarKind::Local) = (value.repr, same_depth && spec_same, kind) {
            let n = types::cols(ty) as u16;
            if self.em.adopt(t, n) {
                let v = self.scopes.var_mut(id);
                let old = if v.owns_storage { v.storage } else { None };
                v.storage = Some(t);
                v.owns_storage = true;
                v.known = None;
                v.synced = false;
                if let Some(old) = old {
                    self.em.release(old, n);
                }
                return Ok(());
            }
        }
        let t = self.ensure_storage(id)?;
        self.store_into(t, value, ty)?;
        let v = self.scopes.var_mut(id);
        v.known = None;
        v.synced = false;
        Ok(())
    }

    /// Write lanes `lanes` of the column at `base` from `value` (a prefix in order is one
    /// MOV; otherwise one SETLANE per lane).
    fn write_lanes(&mut self, base: i16, lanes: &[u8], value: &Value, var_ty: Type) -> LResult<()> {
        let src = self.materialize(value)?;
        let col_ty = if var_ty.is_matrix() {
            types::column_type(var_ty)
        } else {
            var_ty
        };
        if lanes.iter().enumerate().all(|(i, &l)| l as usize == i) {
            return self.emit(
                Ir::new(Op::Mov, col_ty.ir())
                    .dst(base)
                    .a(src)
                    .ncomp(lanes.len() as u8),
            );
        }
        // The value may live in the very register being written (`v.yx = v`, or an
        // `inout` parameter's `p.ts = p`): one SET_LANE at a time would then read lanes
        // already overwritten, where GLSL evaluates the right side first (GLSL 1.30
        // §5.8). Copy it first (docs/robustness.md, "Differential testing", finding 4).
        let src = if src == base {
            let own = self.snapshot(&Value::temp(value.ty, src))?;
            self.materialize(&own)?
        } else {
            src
        };
        for (i, &l) in lanes.iter().enumerate() {
            self.set_lane(col_ty, base, l as usize, src, i, col_ty.width())?;
        }
        Ok(())
    }

    fn emit_store(&mut self, id: VarId, out: Output) -> LResult<()> {
        let t = self.sync_storage(id)?;
        let ty = self.scopes.var(id).ty;
        let ir = match out {
            Output::Position => {
                self.interface.writes_position = true;
                Ir::new(Op::StorePos, ty.ir()).a(t)
            }
            Output::Varying(slot) if ty.is_matrix() => {
                // One varying slot per column.
                for c in 0..ty.columns() as i16 {
                    let col = Ir::new(Op::StoreVar, types::column_type(ty).ir());
                    self.emit(col.a(t + c).aux(slot as i16 + c).ncomp(4))?;
                }
                return Ok(());
            }
            Output::Varying(slot)
                if crate::lang::builtin_vars::is_clamped_color(&self.scopes.var(id).name) =>
            {
                // Vertex colour clamping, on by default in GL's compatibility profile.
                let v = Value::temp(ty, t);
                let lo = self.widen_op(Op::Max, &v, &Value::float(0.0), ty)?;
                let hi = self.widen_op(Op::Min, &lo, &Value::float(1.0), ty)?;
                let c = self.materialize(&hi)?;
                Ir::new(Op::StoreVar, ty.ir()).a(c).aux(slot as i16)
            }
            Output::Varying(slot) => Ir::new(Op::StoreVar, ty.ir()).a(t).aux(slot as i16),
            Output::Color(location) => Ir::new(Op::StoreColor, ty.ir()).a(t).aux(location as i16),
        };
        self.emit(ir.ncomp(4))
    }
}
