//! Structured control flow: IF nesting, early exits and the variables a branch writes
//! (docs/csir-original.md A2: `return` inside `if`/`else` is lowered with structured IFs;
//! constant tracking respects control flow).
//!
//! Early exits use "alive" flags (1.0 while running, CONST 0 when leaving): `return`
//! clears the function's flag and the flags of the loops it is in, `break` clears its
//! loop's flags, `continue` the iteration's. A block whose statement may have left
//! wraps the rest of itself in `IF flag` of the innermost level, which every exit that
//! passes through that level has cleared. An exit at the depth where its function or
//! iteration started is unconditional: nothing after it is lowered (only checked).
//!
//! Before a branch (IF or the wrap of an early exit), every variable the branch may
//! assign — found by a syntactic scan that follows calls into user functions — gets
//! its known value written to its storage, so that the value after the branch is right
//! whichever path ran.

use super::super::ast::{Expr, ExprKind, ParamDir, Stmt, StmtKind};
use super::super::scope::root_name;
use super::super::token::Pos;
use super::super::types;
use super::super::types::Type;
use super::{LResult, Lowerer};
use crate::ir::{Ir, Op};
use std::collections::HashSet;

impl Lowerer<'_> {
    /// Emit `IF cond` (bounded by `Limits::if_depth`).
    pub(crate) fn open_if(&mut self, cond: i16, pos: Pos) -> LResult<()> {
        if self.if_depth >= self.limits.if_depth {
            return self.err(
                pos,
                format!(
                    "conditionals are nested too deeply (more than {} levels)",
                    self.limits.if_depth
                ),
            );
        }
        self.emit(Ir::new(Op::If, Type::Bool.ir()).a(cond))?;
        self.if_depth += 1;
        self.cond_depth += 1;
        Ok(())
    }

    /// Emit the matching `ENDIF`.
    pub(crate) fn close_if(&mut self) -> LResult<()> {
        self.if_depth -= 1;
        self.cond_depth -= 1;
        self.emit(Ir::new(Op::EndIf, Type::None.ir()))
    }

    /// Emit `IF flag` as a speculative wrap: the rest of a loop for the paths still in
    /// it. Writes inside keep their variables' compile-time values (`write_depth`);
    /// the paths that left stored theirs when they left ([`Lowerer::exit_stores`]).
    pub(crate) fn open_spec_if(&mut self, flag: i16, pos: Pos) -> LResult<()> {
        self.open_if(flag, pos)?;
        self.spec_open += 1;
        Ok(())
    }

    /// Close a [`Lowerer::open_spec_if`].
    pub(crate) fn close_spec_if(&mut self) -> LResult<()> {
        self.spec_open -= 1;
        self.close_if()
    }

    /// Before a conditional exit leaves the loops (and switches) from level `from` of
    /// the current function outwards: store the compile-time value of every variable
    /// declared before such a level that it may assign, on this path only (the paths
    /// still running keep tracking them; `Lowerer::loop_end` stores theirs).
    pub(crate) fn exit_stores(&mut self, from: usize) -> LResult<()> {
        let ctx = self.calls.last().expect("a function context is open");
        let loops: Vec<(usize, std::rc::Rc<HashSet<String>>)> = ctx.loops[from..]
            .iter()
            .map(|l| (l.first_var, l.names.clone()))
            .collect();
        let ids = self.outer_known(&loops, true);
        for id in ids {
            let t = self.ensure_storage(id)?;
            let v = self.scopes.var(id);
            let (c, ty) = (v.known.expect("filtered"), v.ty);
            self.const_columns(t, &c, ty)?;
        }
        Ok(())
    }

    /// Visible variables with a compile-time value that one of `loops` may assign and
    /// that were declared before it (`unsynced`: only those whose storage is stale).
    pub(crate) fn outer_known(
        &self,
        loops: &[(usize, std::rc::Rc<HashSet<String>>)],
        unsynced: bool,
    ) -> Vec<usize> {
        self.scopes
            .open
            .iter()
            .flatten()
            .copied()
            .filter(|&id| {
                let v = self.scopes.var(id);
                // A local hidden by a later one of the same name is not what the loop
                // assigns (a global may be, through a call).
                let name = root_name(&v.name);
                let shadowed = self.scopes.lookup(name).is_some_and(|seen| {
                    seen != id
                        && self
                            .scopes
                            .var(seen)
                            .array
                            .is_none_or(|a| !(a.first..a.first + a.len as usize).contains(&id))
                });
                let global = self.scopes.open[0].contains(&id);
                v.known.is_some()
                    && !v.poisoned
                    && (global || !shadowed)
                    && (!unsynced || !v.synced)
                    && loops
                        .iter()
                        .any(|(first, names)| id < *first && names.contains(root_name(&v.name)))
            })
            .collect()
    }

    /// Generation of the innermost exit level (changes when an early exit clears it).
    pub(crate) fn exit_epoch(&self) -> u32 {
        let ctx = self.calls.last().expect("a function context is open");
        ctx.loops.last().map_or(ctx.epoch, |l| l.epoch)
    }

    /// An unconditional exit ended the innermost level.
    pub(crate) fn terminated(&self) -> bool {
        let ctx = self.calls.last().expect("a function context is open");
        ctx.returned || ctx.loops.last().is_some_and(|l| l.broke || l.continued)
    }

    /// The flag tested by the wrap of the innermost level.
    pub(crate) fn alive_flag(&mut self, pos: Pos) -> LResult<i16> {
        let ctx = self.calls.last().expect("a function context is open");
        let flag = match ctx.loops.last() {
            Some(l) => l.iter_alive,
            None => ctx.alive,
        };
        match flag {
            Some(f) => Ok(f),
            None => self.err(pos, "internal error: an early exit has no flag"),
        }
    }

    /// A flag initialised to 1.0, owned by the current statement's frame.
    pub(crate) fn new_flag(&mut self) -> LResult<i16> {
        let t = self.temp(1)?;
        self.set_flag(t, 1.0)?;
        Ok(t)
    }

    fn set_flag(&mut self, t: i16, v: f32) -> LResult<()> {
        self.em
            .const_into(t, &[v], Type::Float)
            .map_err(|e| self.pool(e))
    }

    /// `return [value];`
    pub(crate) fn return_stmt(&mut self, value: Option<&Expr>, pos: Pos) -> LResult<()> {
        let ret = self.ctx().ret;
        let v = match (value, self.ctx().ret_elems.clone()) {
            (Some(e), Some(temps)) => {
                let vals = self.array_return(e, ret, temps.len())?;
                for (t, v) in temps.iter().zip(&vals) {
                    self.store_into(*t, v, ret)?;
                }
                None
            }
            (None, Some(_)) => {
                return self.err(pos, "function is missing a return value");
            }
            (Some(e), None) => {
                let v = self.operand(e)?;
                if ret == Type::Void {
                    return self.err(e.pos, "a void function cannot return a value");
                }
                if !types::converts_to(v.ty, ret, self.conversions()) {
                    let m = self.mismatch("return type mismatch", v.ty, ret);
                    return self.err(e.pos, m);
                }
                Some(self.convert(&v, ret)?)
            }
            (None, None) if ret != Type::Void => {
                return self.err(pos, "function is missing a return value");
            }
            (None, None) => None,
        };
        let base = self.ctx().base_depth;
        if self.cond_depth == base {
            let ctx = self.ctx();
            ctx.result = v;
            ctx.returned = true;
            return Ok(());
        }
        if let Some(v) = v {
            let t = match self.ctx().ret_temp {
                Some(t) => t,
                None => return self.err(pos, "internal error: no return slot"),
            };
            self.store_into(t, &v, ret)?;
        }
        if !self.ctx().loops.is_empty() {
            self.exit_stores(0)?;
        }
        let ctx = self.ctx().clone();
        if let Some(a) = ctx.alive {
            self.set_flag(a, 0.0)?;
        }
        for l in &ctx.loops {
            for f in [l.loop_alive, l.iter_alive].into_iter().flatten() {
                self.set_flag(f, 0.0)?;
            }
        }
        let (depth, spec) = (self.cond_depth, self.spec_open);
        let ctx = self.ctx();
        ctx.epoch += 1;
        for l in &mut ctx.loops {
            l.epoch += 1;
            l.loop_epoch += 1;
        }
        // Every path still in the loops whose iteration it does not branch from
        // leaves them here: nothing more of them to unroll.
        for l in ctx.loops.iter_mut().rev() {
            if depth - (spec - l.spec_base) != l.base_depth {
                break;
            }
            l.broke = true;
        }
        Ok(())
    }

    /// `break;` or `continue;`. `break` leaves the innermost loop or `switch`;
    /// `continue` goes on with the innermost loop, leaving the switches inside it as a
    /// `break` would.
    pub(crate) fn loop_exit(&mut self, is_break: bool, pos: Pos) -> LResult<()> {
        let loops = &self.ctx().loops;
        let target = match is_break {
            true => loops.len().checked_sub(1),
            false => loops.iter().rposition(|l| !l.switch),
        };
        let Some(target) = target else {
            let what = if is_break { "break" } else { "continue" };
            return self.err(pos, format!("{what} is only valid inside a loop"));
        };
        let n = self.ctx().loops.len();
        for level in (target + 1..n).rev() {
            self.leave_level(level, true)?;
        }
        self.leave_level(target, is_break)
    }

    /// Leave level `level` of the current function's loops: `exits` (a `break`, or a
    /// `continue` passing through a switch) or a `continue`. An exit under no IF but
    /// the speculative wraps of the level's iteration is taken by every path still
    /// running there; otherwise it clears the level's flags.
    fn leave_level(&mut self, level: usize, exits: bool) -> LResult<()> {
        let l = self.ctx().loops[level].clone();
        if self.cond_depth - (self.spec_open - l.spec_base) == l.base_depth {
            let l = &mut self.ctx().loops[level];
            if exits {
                l.broke = true;
            } else {
                l.continued = true;
            }
            return Ok(());
        }
        if exits {
            self.exit_stores(level)?;
            self.ctx().loops[level].runtime = true;
        } else {
            self.ctx().loops[level].cont_cond = true;
        }
        if let Some(f) = l.iter_alive {
            self.set_flag(f, 0.0)?;
        }
        if exits && let Some(f) = l.loop_alive {
            self.set_flag(f, 0.0)?;
        }
        let l = &mut self.ctx().loops[level];
        l.epoch += 1;
        if exits {
            l.loop_epoch += 1;
        }
        Ok(())
    }

    /// Write the known value of every visible variable named in `names` to its
    /// storage. Shadowed ones too: a function called in the branch may assign a
    /// global that a local of the same name hides here.
    pub(crate) fn materialize_known(&mut self, names: &HashSet<String>) -> LResult<()> {
        let ids: Vec<usize> = self
            .scopes
            .open
            .iter()
            .flatten()
            .copied()
            .filter(|&id| {
                let v = self.scopes.var(id);
                names.contains(root_name(&v.name)) && v.known.is_some() && !v.poisoned
            })
            .collect();
        for id in ids {
            self.sync_storage(id)?;
        }
        Ok(())
    }

    /// Names assigned anywhere in `stmts` (following calls into user functions).
    pub(crate) fn assigned_in_stmts(&self, stmts: &[&Stmt]) -> HashSet<String> {
        let mut scan = Scan {
            lw: self,
            names: HashSet::new(),
            seen: HashSet::new(),
        };
        for s in stmts {
            scan.stmt(s);
        }
        scan.names
    }

    /// Names assigned by calls inside `exprs`.
    pub(crate) fn assigned_in_exprs(&self, exprs: &[&Expr]) -> HashSet<String> {
        let mut scan = Scan {
            lw: self,
            names: HashSet::new(),
            seen: HashSet::new(),
        };
        for e in exprs {
            scan.expr(e);
        }
        scan.names
    }
}

/// The syntactic scan behind [`Lowerer::assigned_in_stmts`].
struct Scan<'l, 'a> {
    lw: &'l Lowerer<'a>,
    names: HashSet<String>,
    seen: HashSet<usize>,
}

impl Scan<'_, '_> {
    fn target(&mut self, e: &Expr) {
        if let Some(n) = e.root_name() {
            self.names.insert(n.to_string());
        }
        self.expr(e);
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => b.iter().for_each(|s| self.stmt(s)),
            StmtKind::Decl(d) => {
                if let Some(e) = &d.init {
                    self.expr(e);
                }
            }
            StmtKind::Assign { target, value, .. } => {
                self.target(target);
                self.expr(value);
            }
            StmtKind::Step { target, .. } => self.target(target),
            StmtKind::Expr(e) | StmtKind::Case(Some(e)) => self.expr(e),
            StmtKind::Switch { selector, body } => {
                self.expr(selector);
                body.iter().for_each(|s| self.stmt(s));
            }
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
                ..
            } => {
                for s in [init, step].into_iter().flatten() {
                    self.stmt(s);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.stmt(body);
            }
            StmtKind::Return(None)
            | StmtKind::Case(None)
            | StmtKind::Empty
            | StmtKind::Discard
            | StmtKind::Break
            | StmtKind::Continue => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call { name, args } => {
                args.iter().for_each(|a| self.expr(a));
                for (i, f) in self.lw.funcs.iter().enumerate() {
                    if f.def.name != *name {
                        continue;
                    }
                    // `out`/`inout` arguments are written when the call returns.
                    for (p, a) in f.def.params.iter().zip(args) {
                        if p.dir != ParamDir::In {
                            self.target(a);
                        }
                    }
                    if self.seen.insert(i) {
                        f.def.body.iter().for_each(|s| self.stmt(s));
                    }
                }
            }
            ExprKind::Construct { args, .. } | ExprKind::ArrayConstruct { args, .. } => {
                args.iter().for_each(|a| self.expr(a))
            }
            ExprKind::Unary(_, x)
            | ExprKind::Swizzle(x, _)
            | ExprKind::Field(x, _)
            | ExprKind::Length(x) => self.expr(x),
            ExprKind::Step(x, ..) => self.target(x),
            ExprKind::Assign { target, value, .. } => {
                self.target(target);
                self.expr(value);
            }
            ExprKind::Comma(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Ternary(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Int(_)
            | ExprKind::UInt(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Ident(_) => {}
        }
    }
}

/// Whether a function body contains a `return` anywhere but as its last top-level
/// statement (it then needs an "alive" flag and a return slot).
pub(crate) fn has_early_return(body: &[Stmt]) -> bool {
    let (last, rest) = match body.split_last() {
        Some((l, r)) => (Some(l), r),
        None => (None, body),
    };
    rest.iter().any(contains_return)
        || last.is_some_and(|l| !matches!(l.kind, StmtKind::Return(_)) && contains_return(l))
}

/// Whether `s` contains a `return`.
pub(crate) fn contains_return(s: &Stmt) -> bool {
    contains(s, &|k| matches!(k, StmtKind::Return(_)), true)
}

/// Whether `s` contains a `break`, `continue` or `return` anywhere.
pub(crate) fn contains_exit(s: &Stmt) -> bool {
    contains(
        s,
        &|k| {
            matches!(
                k,
                StmtKind::Break | StmtKind::Continue | StmtKind::Return(_)
            )
        },
        true,
    )
}

/// Whether a loop body contains an exit that needs flags: `break`/`continue` of this
/// loop (not of a nested one) or any `return`.
pub(crate) fn loop_needs_flags(body: &Stmt) -> bool {
    contains(
        body,
        &|k| matches!(k, StmtKind::Break | StmtKind::Continue),
        false,
    ) || contains_return(body)
}

fn contains(s: &Stmt, pred: &dyn Fn(&StmtKind) -> bool, into_loops: bool) -> bool {
    if pred(&s.kind) {
        return true;
    }
    match &s.kind {
        StmtKind::Block(b) | StmtKind::Switch { body: b, .. } => {
            b.iter().any(|s| contains(s, pred, into_loops))
        }
        StmtKind::If {
            then, otherwise, ..
        } => {
            contains(then, pred, into_loops)
                || otherwise
                    .as_ref()
                    .is_some_and(|o| contains(o, pred, into_loops))
        }
        StmtKind::For { body, .. } if into_loops => contains(body, pred, into_loops),
        _ => false,
    }
}
