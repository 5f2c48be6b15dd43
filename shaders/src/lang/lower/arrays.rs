//! Arrays (GLSL 3.30 §4.1.9, §5.4.4, §5.7): one-dimensional arrays of any value type
//! as locals, private globals, `const` globals and uniforms, lowered without new
//! opcodes.
//!
//! - An array variable is a list of element variables (`scope::ArrayInfo`): each
//!   element is tracked like any variable (known value, storage, branches), so
//!   `const` arrays fold and a loop over an array unrolls into plain element reads.
//! - A uniform array takes one element per vec4 slot (mat3 3, mat4 4 slots per
//!   element, std140-like), loaded by one LOAD_UNI per element; its interface symbol
//!   has `array_len`, and the scene format names elements `name[0]`, `name[1]`, ….
//! - `a[i]` with a constant `i` (a loop variable counts once the loop is unrolled)
//!   is that element. A run-time index selects with `IF i == k` per element (element
//!   0 when out of range, which GLSL leaves undefined). Assignment targets with
//!   run-time indexes at any depth (`a[i] = v`, `a[i].x op= v`, `a[i][j][k]` for
//!   arrays of matrices, `out` arguments) write element k under `IF i == k` and
//!   nothing when out of range ([`Target`](super::assign::Target)); the rule is
//!   docs/glsl-dialects.md's "Run-time indexes".
//! - Initializers and whole-array assignment take an array constructor
//!   (`float[3](…)`, `float[](…)`) or another array of the same type and size;
//!   `a.length()` is a constant int. Arrays are function parameters (`call.rs`:
//!   their elements are copied in, and back for `out`/`inout`), and `==`/`!=` compare
//!   two arrays of one type and size element by element (GLSL 1.20 §5.7); a whole
//!   array is not otherwise a value.
//! - Sizes are constant int expressions; a global array's size may use earlier
//!   global `const int`s ([`Lowerer::global_array_len`]).

use super::super::ast::{ArraySize, BinOp, Decl, Expr, ExprKind, Param, ParamDir, Storage};
use super::super::scope::{Access, VarId, VarKind};
use super::super::token::Pos;
use super::super::types::{self, Type};
use super::assign::Place;
use super::value::Value;
use super::{Fail, LResult, Lowerer};
use crate::ir::{Ir, Op};

/// Largest array size accepted (bounds compile time and the unrolled code).
pub const MAX_ARRAY_LEN: usize = 256;

/// An array operand: a variable (elements read on demand) or constructed values.
#[derive(Clone, Debug)]
pub(crate) enum ArrayRef {
    Var(VarId),
    Values(Type, Vec<Value>),
}

/// "array index K is out of range for NAME (N elements)", with the reason for
/// `gl_FragData`, whose one element is the one colour output.
pub(crate) fn index_range_message(name: &str, k: f32, len: usize) -> String {
    let mut m = format!("array index {k} is out of range for {name} ({len} element");
    m += if len == 1 { ")" } else { "s)" };
    if name == "gl_FragData" {
        m += ": the renderer has one colour output, gl_FragData[0]";
    }
    m
}

impl<'a> Lowerer<'a> {
    /// `e` as an array, if it is one: the name of an array variable or an array
    /// constructor (`None` for any other expression).
    pub(crate) fn array_ref(&mut self, e: &Expr) -> Option<LResult<ArrayRef>> {
        match &e.kind {
            ExprKind::Ident(name) => {
                let id = self.scopes.lookup(name)?;
                let v = self.scopes.var(id);
                if v.poisoned {
                    return v.array.is_some().then_some(Err(Fail::Reported));
                }
                v.array.map(|_| Ok(ArrayRef::Var(id)))
            }
            ExprKind::ArrayConstruct { ty, size, args } => {
                Some(self.array_constructor(*ty, size, args, e.pos))
            }
            ExprKind::Ternary(c, a, b) if self.is_array_expr(e) => {
                Some(self.array_ternary(c, a, b, e.pos))
            }
            ExprKind::Comma(a, b) if self.is_array_expr(b) => Some(self.array_sequence(a, b)),
            ExprKind::Call { name, args } if self.returns_array(name) => {
                Some(self.call_array(name, args, e.pos))
            }
            _ => None,
        }
    }

    /// `c ? a : b` of two arrays (GLSL 1.20 §5.8: "The second and third expressions
    /// can be any type, as long their types match"): the taken side when `c` is known
    /// (the other checked without code), else each element selected under `IF c`.
    fn array_ternary(&mut self, c: &Expr, a: &Expr, b: &Expr, pos: Pos) -> LResult<ArrayRef> {
        let cond = self.operand(c)?;
        let cond = self.condition(&cond, "the condition of ?:", c.pos)?;
        let side = |me: &mut Self, e: &Expr| match me.array_ref(e) {
            Some(r) => r,
            None => me.err(
                e.pos,
                "operator ?: on an array and a value that is not one: the second and third \
                 expressions must have the same type (GLSL 1.20 §5.8)",
            ),
        };
        let mismatch = |me: &mut Self| {
            me.err(
                pos,
                "operator ?: on arrays that differ in type or size: the second and third \
                 expressions must have the same type (GLSL 1.20 §5.8)",
            )
        };
        if let Some(k) = cond.as_const() {
            let (taken, other) = if k.0[0] != 0.0 { (a, b) } else { (b, a) };
            let r = side(self, taken)?;
            let mut other_shape = None;
            self.dry(|me| {
                let o = side(me, other)?;
                other_shape = Some(me.array_shape(&o));
                Ok(())
            })?;
            let Some(shape) = other_shape else {
                return Err(Fail::Reported);
            };
            if shape != self.array_shape(&r) {
                return mismatch(self);
            }
            return Ok(r);
        }
        let names = self.assigned_in_exprs(&[a, b]);
        self.materialize_known(&names)?;
        let t = self.materialize(&cond)?;
        self.open_if(t, pos)?;
        let r = self.array_ternary_sides(a, b, pos, side, mismatch);
        self.close_if()?;
        r
    }

    fn array_ternary_sides(
        &mut self,
        a: &Expr,
        b: &Expr,
        pos: Pos,
        side: impl Fn(&mut Self, &Expr) -> LResult<ArrayRef>,
        mismatch: impl Fn(&mut Self) -> LResult<ArrayRef>,
    ) -> LResult<ArrayRef> {
        let ra = side(self, a)?;
        let (ty, n) = self.array_shape(&ra);
        let mut dst = Vec::with_capacity(n);
        for k in 0..n {
            let x = self.element(&ra, k, pos)?;
            let t = self.temp(types::cols(ty))?;
            self.store_into(t, &x, ty)?;
            dst.push(t);
        }
        self.emit(Ir::new(Op::Else, Type::None.ir()))?;
        let rb = side(self, b)?;
        if self.array_shape(&rb) != (ty, n) {
            return mismatch(self);
        }
        for (k, t) in dst.iter().enumerate() {
            let y = self.element(&rb, k, pos)?;
            self.store_into(*t, &y, ty)?;
        }
        Ok(ArrayRef::Values(
            ty,
            dst.into_iter().map(|t| Value::temp(ty, t)).collect(),
        ))
    }

    /// `(a, b)` whose right operand is an array (GLSL 1.20 §5.9: the value is the
    /// right operand's): `a` for its effects, then `b`.
    fn array_sequence(&mut self, a: &Expr, b: &Expr) -> LResult<ArrayRef> {
        match self.array_ref(a) {
            Some(r) => {
                r?;
            }
            None => {
                self.expr(a)?;
            }
        }
        match self.array_ref(b) {
            Some(r) => r,
            None => Err(Fail::Reported),
        }
    }

    /// Element type and length of an array operand.
    pub(crate) fn array_shape(&self, a: &ArrayRef) -> (Type, usize) {
        match a {
            ArrayRef::Var(id) => {
                let v = self.scopes.var(*id);
                (v.ty, v.array.map_or(0, |i| i.len as usize))
            }
            ArrayRef::Values(ty, vals) => (*ty, vals.len()),
        }
    }

    /// Element `k` of an array operand.
    pub(crate) fn element(&mut self, a: &ArrayRef, k: usize, pos: Pos) -> LResult<Value> {
        match a {
            ArrayRef::Var(id) => {
                let first = self.scopes.var(*id).array.map_or(*id, |i| i.first);
                self.read_var(first + k, pos)
            }
            ArrayRef::Values(_, vals) => Ok(vals[k]),
        }
    }

    /// All elements of an array operand.
    pub(crate) fn elements(&mut self, a: &ArrayRef, pos: Pos) -> LResult<Vec<Value>> {
        let (_, n) = self.array_shape(a);
        (0..n).map(|k| self.element(a, k, pos)).collect()
    }

    /// `TYPE[N](args)`: the converted arguments (`pos` is the constructor).
    fn array_constructor(
        &mut self,
        ty: Type,
        size: &ArraySize,
        args: &[Expr],
        pos: Pos,
    ) -> LResult<ArrayRef> {
        if ty == Type::Void || ty.is_sampler() {
            return self.err(pos, format!("arrays of {ty} are not supported"));
        }
        let refs: Vec<&Expr> = args.iter().collect();
        let vals = self.operands(&refs, false)?;
        if let Some(len) = &size.len {
            let n = self.local_array_len(len)?;
            if n != vals.len() {
                return self.err(
                    pos,
                    "the array constructor's size does not match its arguments",
                );
            }
        }
        if vals.is_empty() {
            return self.err(pos, "an array constructor needs at least one argument");
        }
        let mut out = Vec::with_capacity(vals.len());
        for (v, e) in vals.iter().zip(args) {
            if !types::converts_to(v.ty, ty, self.conversions()) {
                return self.err(e.pos, "type mismatch in array constructor");
            }
            out.push(self.convert(v, ty)?);
        }
        Ok(ArrayRef::Values(ty, out))
    }

    /// Whether an array size may hold the sequence operator: only in GLSL ES 1.00
    /// (piglit's `array-sized-by-sequence-in-parenthesis`); GLSL ES 3.00 leaves it out
    /// of constant expressions (§4.3.3) and desktop GLSL's grammar sizes arrays with a
    /// `constant_expression`, a `conditional_expression` (GLSL 1.20 §9), as Mesa reads
    /// it for `float a[(5, 3)]` too.
    pub(crate) fn sequence_in_array_size(&self) -> bool {
        let d = self.program.dialect;
        d.is_es() && d.version == 100
    }

    /// The error for the sequence operator in the array size `e` where
    /// [`Lowerer::sequence_in_array_size`] does not allow it.
    fn sequence_in_size_message(&self, e: &Expr) -> Option<String> {
        if self.sequence_in_array_size() {
            return None;
        }
        let mut seq = false;
        super::super::builtin_vars::visit_expr(e, &mut |x| {
            seq |= matches!(x.kind, ExprKind::Comma(..))
        });
        let d = self.program.dialect;
        let rule = if d.is_es() {
            "GLSL ES 3.00 §4.3.3"
        } else {
            "GLSL 1.20 §4.1.9 and §9: an array size is a constant_expression, a \
             conditional_expression"
        };
        seq.then(|| {
            format!(
                "array size must be a constant integer expression, and the sequence \
                 operator (,) is not one in {d} ({rule})"
            )
        })
    }

    /// A local array size: a constant int expression, 1..=[`MAX_ARRAY_LEN`].
    pub(crate) fn local_array_len(&mut self, e: &Expr) -> LResult<usize> {
        if let Some(m) = self.sequence_in_size_message(e) {
            return self.err(e.pos, m);
        }
        let v = self.in_constant(|me| me.operand(e))?;
        let n = match (v.ty, v.as_const()) {
            // A known value is not enough: `vec4[(x = 3)] a;` assigns (GLSL 1.20 §4.1.9,
            // §4.3.3: the size is a constant integral expression).
            (Type::Int | Type::Uint, Some(_)) if self.is_constant_expression(e) => {
                self.known_int(&v).unwrap_or(0)
            }
            _ => {
                return self.err(
                    e.pos,
                    "array size must be a constant integer expression (GLSL 1.20 §4.1.9)",
                );
            }
        };
        self.check_len(n, e.pos)
    }

    fn check_len(&mut self, n: i64, pos: Pos) -> LResult<usize> {
        if n <= 0 {
            return self.err(pos, "array size must be positive");
        }
        if n as usize > MAX_ARRAY_LEN {
            return self.err(
                pos,
                format!("arrays are limited to {MAX_ARRAY_LEN} elements"),
            );
        }
        Ok(n as usize)
    }

    /// Whether `e` is an array operand (an array variable's name or a constructor).
    pub(crate) fn is_array_expr(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => self
                .scopes
                .lookup(n)
                .is_some_and(|id| self.scopes.var(id).array.is_some()),
            ExprKind::ArrayConstruct { .. } => true,
            ExprKind::Ternary(_, a, b) => self.is_array_expr(a) || self.is_array_expr(b),
            ExprKind::Comma(_, b) => self.is_array_expr(b),
            ExprKind::Call { name, .. } => self.returns_array(name),
            _ => false,
        }
    }

    /// `a == b` / `a != b` of two arrays (GLSL 1.20 §5.7): true when every element
    /// is equal; both of one element type and length.
    pub(crate) fn array_compare(
        &mut self,
        op: BinOp,
        l: &Expr,
        r: &Expr,
        pos: Pos,
    ) -> LResult<Value> {
        let a = self.array_ref(l);
        let b = self.array_ref(r);
        let (Some(a), Some(b)) = (a, b) else {
            return self.err(
                pos,
                format!(
                    "operator {} cannot compare an array with a value that is not one",
                    op.text()
                ),
            );
        };
        let (a, b) = (a?, b?);
        if self.array_shape(&a) != self.array_shape(&b) {
            return self.err(
                pos,
                format!("operator {}: the arrays differ in type or size", op.text()),
            );
        }
        let (_, n) = self.array_shape(&a);
        let mut all = Value::bool(true);
        for k in 0..n {
            let x = self.element(&a, k, pos)?;
            let y = self.element(&b, k, pos)?;
            let eq = self.binary(BinOp::Eq, &x, &y, pos)?;
            all = self.logical(BinOp::And, &all, &eq, pos)?;
        }
        match op {
            BinOp::Ne => self.not(&all, pos),
            _ => Ok(all),
        }
    }

    /// `a[i]` for an array operand (`pos` is the index).
    pub(crate) fn index_array(&mut self, a: &ArrayRef, i: &Value, pos: Pos) -> LResult<Value> {
        self.check_index(i, pos)?;
        let (_, n) = self.array_shape(a);
        match self.known_index(i) {
            Some(k) => {
                if !(0.0..n as f32).contains(&k) {
                    let name = match a {
                        ArrayRef::Var(id) => self.scopes.var(*id).name.clone(),
                        ArrayRef::Values(..) => "the array constructor".into(),
                    };
                    return self.err(pos, index_range_message(&name, k, n));
                }
                self.element(a, k as usize, pos)
            }
            // Before GLSL 1.30 an index known once loops are unrolled will do; a run-time
            // one names no unit.
            None if self.array_shape(a).0.is_sampler() => self.err(
                pos,
                "an array of samplers can only be indexed with a constant integral \
                 expression (GLSL 1.30 §4.1.7) or, before GLSL 1.30, a loop index",
            ),
            None => {
                let items = self.elements(a, pos)?;
                self.pick(&items, i, pos)
            }
        }
    }

    /// `items[i]` for a run-time int `i`: item 0, replaced under `IF i == k` by item k.
    pub(crate) fn pick(&mut self, items: &[Value], i: &Value, pos: Pos) -> LResult<Value> {
        let Some(first) = items.first() else {
            return Err(Fail::Reported);
        };
        let ty = first.ty;
        let dst = self.temp(types::cols(ty))?;
        self.store_into(dst, first, ty)?;
        for (k, item) in items.iter().enumerate().skip(1) {
            // Each comparison's temporary is freed after its IF.
            self.em.push_frame();
            let r = self.pick_one(dst, item, i, k, pos);
            self.em.pop_frame();
            r?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// `IF i == k: dst = item`.
    fn pick_one(&mut self, dst: i16, item: &Value, i: &Value, k: usize, pos: Pos) -> LResult<()> {
        self.open_hit(i, k, pos)?;
        let r = self.store_into(dst, item, item.ty);
        self.close_if()?;
        r
    }

    /// `e.length()`: an array's length, a vector's size or a matrix's column count.
    pub(crate) fn length_method(&mut self, e: &Expr, pos: Pos) -> LResult<Value> {
        if let Some(a) = self.array_ref(e) {
            let a = a?;
            return Ok(self.int(self.array_shape(&a).1 as i32));
        }
        let v = self.operand(e)?;
        match v.ty {
            t if t.is_matrix() => Ok(self.int(t.columns() as i32)),
            t if t.width() >= 2 => Ok(self.int(t.width() as i32)),
            Type::None => Err(Fail::Reported),
            _ => self.err(pos, "length() needs an array, a vector or a matrix"),
        }
    }

    /// The elements an array initializer or whole-array assignment provides, checked
    /// against the element type `ty` (`len`: the required length, if known).
    pub(crate) fn array_source(
        &mut self,
        e: &Expr,
        ty: Type,
        len: Option<usize>,
    ) -> LResult<Vec<Value>> {
        let Some(a) = self.array_ref(e) else {
            let v = self.operand(e)?;
            if v.ty == Type::None {
                return Err(Fail::Reported);
            }
            return self.err(
                e.pos,
                "type mismatch in assignment: an array needs an array",
            );
        };
        let a = a?;
        let (ety, n) = self.array_shape(&a);
        if !(ety == ty || ety == Type::None) || len.is_some_and(|l| l != n) {
            return self.err(e.pos, "type mismatch in assignment");
        }
        self.elements(&a, e.pos)
    }

    /// Write `values` to the elements of array `id`.
    fn write_elements(&mut self, id: VarId, values: &[Value], pos: Pos) -> LResult<()> {
        let (ty, first) = {
            let v = self.scopes.var(id);
            (v.ty, v.array.map_or(id, |i| i.first))
        };
        for (k, v) in values.iter().enumerate() {
            let place = Place {
                var: first + k,
                col: None,
                lanes: None,
                ty,
            };
            self.write(&place, v, pos)?;
        }
        Ok(())
    }

    /// A local array declaration, with its initializer.
    pub(crate) fn local_array_decl(&mut self, d: &Decl, size: &ArraySize) -> LResult<()> {
        let r = self.local_array_init(d, size);
        let (len, values) = match r {
            Ok(x) => x,
            Err(f) => {
                let mut var = self.new_var(&d.name, d.ty, VarKind::Local, d.pos);
                var.poisoned = true;
                let _ = self.scopes.declare(var);
                return Err(f);
            }
        };
        let mut var = self.new_var(&d.name, d.ty, VarKind::Local, d.pos);
        if d.quals.storage == Storage::Const {
            var.access = Access::Const;
        }
        if values.is_none() {
            // Never-assigned elements read as zero, like scalar locals.
            var.known = Some(super::super::consteval::ConstData::ZERO);
        }
        let Ok(id) = self.scopes.declare_array(var, len as u16) else {
            return self.err(d.pos, format!("duplicate symbol '{}'", d.name));
        };
        match values {
            Some(vals) => self.write_elements(id, &vals, d.pos),
            None => Ok(()),
        }
    }

    /// Check a local array declaration; its length and initial values.
    fn local_array_init(
        &mut self,
        d: &Decl,
        size: &ArraySize,
    ) -> LResult<(usize, Option<Vec<Value>>)> {
        if !self.check_decl(d, None) {
            return Err(Fail::Reported);
        }
        let len = match &size.len {
            Some(e) => Some(self.local_array_len(e)?),
            None => None,
        };
        let values = match (&d.init, d.quals.storage) {
            (Some(init), Storage::Const) => {
                Some(self.in_constant(|me| me.array_source(init, d.ty, len))?)
            }
            (Some(init), _) => Some(self.array_source(init, d.ty, len)?),
            (None, _) => None,
        };
        let len = match (len, &values) {
            (Some(n), _) => n,
            (None, Some(v)) => v.len(),
            (None, None) => {
                return self.err(size.pos, "an array without a size needs an initializer");
            }
        };
        if let (Storage::Const, Some(vals)) = (d.quals.storage, &values)
            && vals.iter().any(|v| v.as_const().is_none())
        {
            let pos = d.init.as_ref().map_or(d.pos, |e| e.pos);
            return self.err(pos, "const initializer is not a constant expression");
        }
        Ok((len, values))
    }

    /// A global array's initializer (private or `const`), at the start of `main`.
    pub(crate) fn global_array_init(&mut self, id: VarId, d: &Decl, init: &Expr) -> LResult<()> {
        let len = self.scopes.var(id).array.map(|a| a.len as usize);
        let vals = self.array_source(init, d.ty, len)?;
        if d.quals.storage == Storage::Const && vals.iter().any(|v| v.as_const().is_none()) {
            return self.err(init.pos, "const initializer is not a constant expression");
        }
        self.write_elements(id, &vals, init.pos)
    }

    /// Why `what` (a whole-array assignment, an `out`/`inout` array parameter) is an
    /// error in this dialect, if it is: GLSL 1.10 has no array l-values ("non-
    /// dereferenced arrays ... cannot be l-values", GLSL 1.10 §5.8), and GLSL ES 1.00
    /// lets an array be an `out`/`inout` argument but "not ... the target of an
    /// assignment" (GLSL ES 1.00 §5.8). Later versions allow both (GLSL 1.20 §5.8).
    pub(crate) fn no_array_assignment(&self, what: &str) -> Option<String> {
        let d = self.program.dialect;
        let rule = match (d.is_es(), d.version) {
            (false, 110) => "arrays are not l-values (GLSL 1.10 §5.8)",
            (true, 100) if what.starts_with("assignment") => {
                "an array may not be the target of an assignment (GLSL ES 1.00 §5.8)"
            }
            _ => return None,
        };
        Some(format!("{what} is not allowed in {d}: {rule}"))
    }

    /// An `out`/`inout` array parameter where arrays are not l-values (GLSL 1.10
    /// §5.8, [`Lowerer::no_array_assignment`]) is reported.
    pub(crate) fn check_array_param(&mut self, p: &Param) {
        if p.array.is_none() || p.dir == ParamDir::In {
            return;
        }
        let dir = if p.dir == ParamDir::Out {
            "out"
        } else {
            "inout"
        };
        let what = format!("the {dir} array parameter '{}'", p.name);
        if let Some(m) = self.no_array_assignment(&what) {
            self.diags.error(p.pos, m);
        }
    }

    /// `a = b;` for a whole array `a`.
    pub(crate) fn assign_array(&mut self, id: VarId, value: &Expr) -> LResult<()> {
        let (ty, len) = {
            let v = self.scopes.var(id);
            (v.ty, v.array.map(|a| a.len as usize))
        };
        let vals = self.array_source(value, ty, len)?;
        self.write_elements(id, &vals, value.pos)
    }

    /// The size of global array `d` (reported and `None` when it is not a constant
    /// int expression over literals and earlier global `const int`s).
    pub(crate) fn global_array_len(&mut self, d: &Decl, size: &ArraySize) -> Option<u16> {
        if let Some(m) = size
            .len
            .as_ref()
            .and_then(|e| self.sequence_in_size_message(e))
        {
            let pos = size.len.as_ref().map_or(size.pos, |e| e.pos);
            self.diags.error(pos, m);
            return None;
        }
        let n = match (&size.len, &d.init) {
            (Some(e), _) => match self.global_const_int(e, &mut 0) {
                Some(n) => n,
                None => {
                    self.diags
                        .error(e.pos, "array size must be a constant integer expression");
                    return None;
                }
            },
            (None, Some(init)) => match &init.kind {
                ExprKind::ArrayConstruct { args, .. } => args.len() as i64,
                _ => {
                    self.diags.error(
                        init.pos,
                        "type mismatch in assignment: an array needs an array",
                    );
                    return None;
                }
            },
            (None, None) => {
                self.diags
                    .error(size.pos, "an array without a size needs an initializer");
                return None;
            }
        };
        let pos = size.len.as_ref().map_or(size.pos, |e| e.pos);
        match self.check_len(n, pos) {
            Ok(n) => Some(n as u16),
            Err(_) => None,
        }
    }

    /// Evaluate a global constant int expression ([`Lowerer::global_const`]): its
    /// value when it folds to an integer.
    pub(crate) fn global_const_int(&self, e: &Expr, work: &mut u32) -> Option<i64> {
        match self.global_const(e, work)? {
            super::global_const::Scalar::Int(n) => Some(n),
            _ => None,
        }
    }
}
