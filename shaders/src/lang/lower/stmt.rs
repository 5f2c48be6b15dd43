//! Statements: blocks, declarations, assignments, `if`, `discard`
//! (docs/csir-original.md B §1.11).

use super::super::ast::{AssignOp, BinOp, Decl, Stmt, StmtKind, Storage};
use super::super::scope::{Access, VarKind};
use super::super::token::Pos;
use super::super::types;
use super::super::types::Type;
use super::value::Value;
use super::{Fail, LResult, Lowerer};
use crate::ir::{Ir, Op, Stage};

impl Lowerer<'_> {
    /// Lower `stmts` in the current scope. After a `return`/`break`/`continue` the rest
    /// is only checked; after a statement that may have left early (an early return
    /// inside an `if`), the rest is wrapped in `IF alive`.
    pub(crate) fn block_in_scope(&mut self, stmts: &[Stmt]) -> LResult<()> {
        for (i, s) in stmts.iter().enumerate() {
            let epoch = self.exit_epoch();
            self.stmt(s)?;
            let rest = &stmts[i + 1..];
            if rest.is_empty() {
                return Ok(());
            }
            let jumps = matches!(
                s.kind,
                StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue
            );
            if jumps || self.terminated() {
                return self.dry(|me| me.block_in_scope(rest));
            }
            if self.exit_epoch() != epoch {
                let flag = self.alive_flag(rest[0].pos)?;
                // In a loop whose paths so far left only by `break`/`return`, the rest
                // is a speculative wrap: those paths never come back to this iteration.
                let spec = self.calls.last().and_then(|c| c.loops.last());
                if spec.is_some_and(|l| !l.cont_cond) {
                    self.open_spec_if(flag, rest[0].pos)?;
                    let r = self.block_in_scope(rest);
                    self.close_spec_if()?;
                    return r;
                }
                let refs: Vec<&Stmt> = rest.iter().collect();
                let names = self.assigned_in_stmts(&refs);
                self.materialize_known(&names)?;
                self.open_if(flag, rest[0].pos)?;
                let r = self.block_in_scope(rest);
                self.close_if()?;
                return r;
            }
        }
        Ok(())
    }

    /// Lower one statement in its own frame; a reported error skips the statement.
    pub(crate) fn stmt(&mut self, s: &Stmt) -> LResult<()> {
        self.enter(s.pos)?;
        self.em.push_frame();
        let volatile = self.assigned_in_exprs(&own_exprs(s));
        let outer = std::mem::replace(&mut self.volatile, volatile);
        let r = self.tick(s.pos).and_then(|_| self.stmt_kind(s));
        self.volatile = outer;
        self.em.pop_frame();
        self.leave();
        match r {
            Err(Fail::Reported) => Ok(()),
            other => other,
        }
    }

    pub(crate) fn stmt_kind(&mut self, s: &Stmt) -> LResult<()> {
        match &s.kind {
            StmtKind::Empty => Ok(()),
            StmtKind::Block(stmts) => {
                self.scopes.push();
                let r = self.block_in_scope(stmts);
                self.close_scope();
                r
            }
            StmtKind::Decl(d) => self.local_decl(d),
            StmtKind::Assign { target, op, value } => {
                if let Some(id) = self.whole_array_target(target)? {
                    if *op != AssignOp::Set {
                        return self.err(
                            s.pos,
                            "compound assignment to a whole array is not supported",
                        );
                    }
                    return self.assign_array(id, value);
                }
                let place = self.target(target);
                let v = self.operand(value);
                let (place, v) = (place?, v?);
                self.assign_value(&place, *op, &v, s.pos, value.pos)
            }
            StmtKind::Step { target, up } => {
                let place = self.target(target)?;
                let cur = self.read_target(&place)?;
                if !(types::is_numeric(cur.ty) || cur.ty.is_matrix()) {
                    return self.err(target.pos, "type mismatch");
                }
                let one = self.number(types::base(cur.ty), 1.0);
                let op = if *up { BinOp::Add } else { BinOp::Sub };
                let v = self.binary(op, &cur, &one, s.pos)?;
                self.write_target(&place, &v, target.pos)
            }
            StmtKind::Expr(e) => match self.array_ref(e) {
                // `f();` of a function returning an array: its effects only.
                Some(r) => r.map(|_| ()),
                None => self.expr(e).map(|_| ()),
            },
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => self.if_stmt(cond, then, otherwise.as_deref()),
            StmtKind::For { .. } => self.for_stmt(s),
            StmtKind::Switch { selector, body } => self.switch_stmt(selector, body, s.pos),
            StmtKind::Case(_) => self.err(
                s.pos,
                "a case or default label must be directly in the body of a switch",
            ),
            StmtKind::Return(value) => self.return_stmt(value.as_ref(), s.pos),
            StmtKind::Break | StmtKind::Continue => {
                self.loop_exit(matches!(s.kind, StmtKind::Break), s.pos)
            }
            StmtKind::Discard => {
                if self.stage != Stage::Fragment {
                    return self.err(s.pos, "discard is only valid in a fragment shader");
                }
                self.emit(Ir::new(Op::Discard, Type::None.ir()))
            }
        }
    }

    /// `place op= v` (`pos`: the statement, `value_pos`: the value, for errors).
    pub(crate) fn assign_value(
        &mut self,
        place: &super::assign::Target,
        op: AssignOp,
        v: &Value,
        pos: Pos,
        value_pos: Pos,
    ) -> LResult<()> {
        let mut v = *v;
        if let AssignOp::Compound(bop) = op {
            let cur = self.read_target(place)?;
            v = self.binary(bop, &cur, &v, pos)?;
        }
        self.write_target(place, &v, value_pos)
    }

    /// Close the innermost scope, freeing the storage its variables own.
    pub(crate) fn close_scope(&mut self) {
        for id in self.scopes.pop() {
            let v = self.scopes.var(id);
            if let (true, Some(t)) = (v.owns_storage, v.storage) {
                let n = types::cols(v.ty) as u16;
                self.em.release(t, n);
            }
        }
    }

    /// A local declaration with its initializer.
    fn local_decl(&mut self, d: &Decl) -> LResult<()> {
        if let Some(size) = &d.array {
            return self.local_array_decl(d, size);
        }
        let value = match (&d.init, d.quals.storage) {
            (Some(e), Storage::Const) => Some(self.in_constant(|me| me.operand(e))),
            (Some(e), _) => Some(self.operand(e)),
            (None, _) => None,
        };
        let mut ok = self.check_decl(d, value.as_ref().and_then(|v| v.as_ref().ok()));
        if matches!(value, Some(Err(Fail::Fatal))) {
            return Err(Fail::Fatal);
        }
        if matches!(value, Some(Err(_))) {
            ok = false;
        }
        let mut var = self.new_var(&d.name, d.ty, VarKind::Local, d.pos);
        if d.quals.storage == Storage::Const {
            var.access = Access::Const;
        }
        var.poisoned = !ok;
        let Ok(id) = self.scopes.declare(var) else {
            return self.err(d.pos, format!("duplicate symbol '{}'", d.name));
        };
        if !ok {
            return Err(Fail::Reported);
        }
        match value {
            Some(Ok(v)) => {
                let v = self.convert(&v, d.ty)?;
                let place = super::assign::Place {
                    var: id,
                    col: None,
                    lanes: None,
                    ty: d.ty,
                };
                self.write(&place, &v, d.pos)
            }
            _ => {
                let v = self.scopes.var_mut(id);
                v.known = Some(super::super::consteval::ConstData::ZERO);
                Ok(())
            }
        }
    }

    /// Check a declaration's type, name and initializer (reports; false on error).
    pub(crate) fn check_decl(&mut self, d: &Decl, value: Option<&Value>) -> bool {
        let fail = |s: &mut Self, pos: Pos, m: &str| {
            s.diags.error(pos, m);
            false
        };
        if d.ty == Type::Void {
            return fail(self, d.ty_pos, "void variable");
        }
        if let Some(m) = self.missing_type(d.ty) {
            return fail(self, d.ty_pos, &m);
        }
        if d.ty.is_sampler() {
            return fail(self, d.ty_pos, "sampler2D must be a uniform");
        }
        if d.name.starts_with("gl_") {
            return fail(self, d.pos, "names starting with gl_ are reserved");
        }
        let is_const = d.quals.storage == Storage::Const;
        if is_const && d.init.is_none() {
            return fail(self, d.pos, "a const variable needs an initializer");
        }
        let (Some(v), Some(init)) = (value, &d.init) else {
            return true;
        };
        if !types::converts_to(v.ty, d.ty, self.conversions()) {
            let m = self.mismatch("type mismatch in assignment", v.ty, d.ty);
            return fail(self, init.pos, &m);
        }
        if is_const && v.as_const().is_none() {
            return fail(
                self,
                init.pos,
                "const initializer is not a constant expression",
            );
        }
        if is_const && let Some(m) = self.sequence_in_constant(&d.name, init) {
            return fail(self, init.pos, &m);
        }
        true
    }

    /// `if (cond) then [else otherwise]`: IF/ELSE/ENDIF, or only the taken branch when
    /// the condition is known (the other is still checked).
    fn if_stmt(
        &mut self,
        cond: &super::super::ast::Expr,
        then: &Stmt,
        otherwise: Option<&Stmt>,
    ) -> LResult<()> {
        let c = match self.operand(cond) {
            Ok(c) => c,
            Err(Fail::Fatal) => return Err(Fail::Fatal),
            Err(Fail::Reported) => {
                self.dry(|me| {
                    me.stmt(then)?;
                    otherwise.map_or(Ok(()), |o| me.stmt(o))
                })?;
                return Err(Fail::Reported);
            }
        };
        let c = self.condition(&c, "if condition", cond.pos)?;
        if let Some(k) = c.as_const() {
            let (taken, other) = if k.0[0] != 0.0 {
                (Some(then), otherwise)
            } else {
                (otherwise, Some(then))
            };
            if let Some(o) = other {
                self.dry(|me| me.stmt(o))?;
            }
            return taken.map_or(Ok(()), |t| self.stmt(t));
        }
        let mut branches = vec![then];
        branches.extend(otherwise);
        let names = self.assigned_in_stmts(&branches);
        self.materialize_known(&names)?;
        let t = self.materialize(&c)?;
        self.open_if(t, cond.pos)?;
        let mut r = self.stmt(then);
        if let (Some(o), Ok(())) = (otherwise, r) {
            r = self
                .emit(Ir::new(Op::Else, Type::None.ir()))
                .and_then(|_| self.stmt(o));
        }
        self.close_if()?;
        r
    }
}

impl Lowerer<'_> {
    /// Initializers of private globals and global constants, in declaration order, at
    /// the start of `main` (constants fold; docs/csir-original.md A2).
    pub(super) fn global_initializers(&mut self) -> LResult<()> {
        for i in 0..self.globals.len() {
            let (var, decl) = (self.globals[i].var, self.globals[i].decl);
            let Some(d) = decl else { continue };
            let Some(init) = &d.init else { continue };
            self.pos = init.pos;
            self.em.pos = init.pos;
            self.em.push_frame();
            self.volatile = self.assigned_in_exprs(&[init]);
            // A const, uniform or (ES) any global initializer is a constant expression.
            let constant = matches!(d.quals.storage, Storage::Const | Storage::Uniform)
                || self.program.dialect.is_es();
            let r = if constant {
                self.in_constant(|me| me.global_init(var, d, init))
            } else {
                self.global_init(var, d, init)
            };
            self.volatile.clear();
            self.em.pop_frame();
            match r {
                Err(Fail::Fatal) => return Err(Fail::Fatal),
                Err(Fail::Reported) => self.scopes.var_mut(var).poisoned = true,
                Ok(()) => {}
            }
        }
        Ok(())
    }

    fn global_init(&mut self, var: usize, d: &Decl, init: &super::super::ast::Expr) -> LResult<()> {
        if d.quals.storage == Storage::Uniform {
            return self.uniform_initializer(var, d, init);
        }
        let dialect = self.program.dialect;
        if dialect.is_es() && !self.is_constant_expression(init) {
            // GLSL ES 1.00 §4.3 and GLSL ES 3.00 §4.3: a global's initializer must be
            // a constant expression (desktop GLSL allows any expression).
            let m = match self.sequence_in_constant(&d.name, init) {
                Some(m) => m,
                None => format!(
                    "the initializer of global '{}' must be a constant expression in \
                     {dialect} (GLSL ES 1.00 §4.3, GLSL ES 3.00 §4.3): literals, const \
                     variables, and operators, constructors and built-in functions of \
                     those",
                    d.name
                ),
            };
            return self.err(init.pos, m);
        }
        if self.scopes.var(var).array.is_some() {
            if !self.check_decl(d, None) {
                return Err(Fail::Reported);
            }
            return self.global_array_init(var, d, init);
        }
        let v = self.operand(init)?;
        if !self.check_decl(d, Some(&v)) {
            return Err(Fail::Reported);
        }
        let place = super::assign::Place {
            var,
            col: None,
            lanes: None,
            ty: d.ty,
        };
        let v = self.convert(&v, d.ty)?;
        self.write(&place, &v, init.pos)
    }
}

impl Lowerer<'_> {
    /// `uniform T name = constant;` (GLSL 1.20 §4.3.5): the value the uniform holds
    /// until it is set, recorded in the interface
    /// ([`Interface::uniform_initializers`](crate::ir::Interface::uniform_initializers));
    /// no instruction. The initializer must be a constant expression.
    ///
    /// A uniform array takes an array initializer (`float[3](…)`, another constant
    /// array) of its type and length; its floats are the elements' in order, as
    /// setting the array by its plain name takes them.
    fn uniform_initializer(
        &mut self,
        var: usize,
        d: &Decl,
        init: &super::super::ast::Expr,
    ) -> LResult<()> {
        let values = match self.scopes.var(var).array {
            Some(a) => self.array_source(init, d.ty, Some(a.len as usize))?,
            None => {
                let v = self.operand(init)?;
                if !types::converts_to(v.ty, d.ty, self.conversions()) {
                    let m = self.mismatch("type mismatch in initialization", v.ty, d.ty);
                    return self.err(init.pos, m);
                }
                vec![v]
            }
        };
        let mut floats = Vec::new();
        for v in values {
            let Some(c) = v.as_const() else {
                return self.err(
                    init.pos,
                    format!(
                        "the initializer of uniform '{}' must be a constant expression",
                        d.name
                    ),
                );
            };
            for col in 0..d.ty.columns() as usize {
                for row in 0..d.ty.width() as usize {
                    floats.push(c.get(col, row));
                }
            }
        }
        if d.iface_names.is_empty() {
            self.interface
                .uniform_initializers
                .push((d.name.clone(), floats));
            return Ok(());
        }
        // A member of an array of structs: its elements' floats under each element's
        // interface name (see `build_interface`).
        let per = d.ty.columns() as usize * d.ty.width() as usize;
        for n in &d.iface_names {
            let from = n.first as usize * per;
            let to = from + n.len.unwrap_or(1) as usize * per;
            let part = floats.get(from..to).unwrap_or_default().to_vec();
            self.interface
                .uniform_initializers
                .push((n.name.clone(), part));
        }
        Ok(())
    }
}

/// The expressions a statement evaluates itself (not those of nested statements).
fn own_exprs(s: &Stmt) -> Vec<&super::super::ast::Expr> {
    match &s.kind {
        StmtKind::Decl(d) => d.init.iter().collect(),
        StmtKind::Assign { target, value, .. } => vec![target, value],
        StmtKind::Step { target, .. } => vec![target],
        StmtKind::Expr(e) => vec![e],
        StmtKind::If { cond, .. } => vec![cond],
        StmtKind::For { cond, .. } => cond.iter().collect(),
        StmtKind::Switch { selector, .. } => vec![selector],
        StmtKind::Return(e) => e.iter().collect(),
        _ => Vec::new(),
    }
}
