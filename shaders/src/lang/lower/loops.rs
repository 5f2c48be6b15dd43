//! Loops — `for`, `while` and `do`/`while` (GLSL 1.10 §6.3) — unrolled at compile
//! time: CSIR has no loops (docs/glsl-dialects.md, "Loops").
//!
//! Each iteration tests the condition (after the body for `do`), lowers the body in a
//! fresh scope, then the step. A condition that folds to `false`, or a `break` or
//! `return` that every path takes, ends the unrolling. A condition that depends on
//! run-time values is lowered as `if (!cond) break;`: the loop goes on being unrolled
//! as long as the compile-time values decide, so a loop whose run-time exits sit
//! inside a compile-time bound (`for (i = 0; i < 4 && x > y; i++)`, a `break` on a
//! uniform) unrolls to that bound. When nothing bounds it within `Limits::unroll`
//! iterations the loop is rejected: "CSIR has no loops: the trip count of this loop
//! cannot be determined at compile time". The IR pools bound it too.
//!
//! Run-time exits clear the loop's "alive" flags (see `flow.rs`); the rest of the loop
//! is then wrapped in `IF loop_alive`. Those wraps are *speculative*: the variables the
//! loop assigns keep their compile-time values for the paths still in the loop (so the
//! loop counter stays known and the condition keeps folding), every exit stores the
//! values of its path before it leaves (`Lowerer::exit_stores`), and the end of the
//! loop stores those of the paths that ran to the end (`Lowerer::loop_end`).
//!
//! The variable of a `for` may be assigned in the body (GLSL 1.10 §6.3); only GLSL ES
//! 1.00 forbids it (its Appendix A: "cannot assign the loop variable").

use super::super::ast::{Expr, Stmt, StmtKind, UnOp};
use super::super::dialect::Profile;
use super::super::scope::Access;
use super::super::token::Pos;
use super::super::types::Type;
use super::{LResult, LoopCtx, Lowerer};

/// The error for a loop whose end depends on run-time values beyond the unroll limit.
pub(crate) const TRIP_COUNT_UNKNOWN: &str =
    "CSIR has no loops: the trip count of this loop cannot be determined at compile time";

/// The parts of a loop statement.
struct Parts<'s> {
    init: Option<&'s Stmt>,
    cond: Option<&'s Expr>,
    step: Option<&'s Stmt>,
    body: &'s Stmt,
    do_while: bool,
    pos: Pos,
}

/// What a test of the condition, or a whole iteration, decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Go on with the next iteration.
    Go,
    /// The loop has ended on every path.
    Stop,
    /// A run-time exit in a loop lowered without exit flags: lower it again with them.
    NeedsFlags,
}

impl Lowerer<'_> {
    /// A loop statement `s`: its own scope for the loop variable, then the unrolled
    /// iterations.
    pub(crate) fn for_stmt(&mut self, s: &Stmt) -> LResult<()> {
        let StmtKind::For {
            init,
            cond,
            step,
            body,
            do_while,
        } = &s.kind
        else {
            return Ok(());
        };
        let parts = Parts {
            init: init.as_deref(),
            cond: cond.as_ref(),
            step: step.as_deref(),
            body,
            do_while: *do_while,
            pos: s.pos,
        };
        self.scopes.push();
        let r = self.unroll(&parts);
        self.close_scope();
        r
    }

    fn unroll(&mut self, p: &Parts) -> LResult<()> {
        if let Some(init) = p.init {
            self.stmt_kind(init)?;
        }
        let loop_var = match p.init.map(|s| &s.kind) {
            Some(StmtKind::Decl(d)) => self.scopes.lookup(&d.name),
            _ => None,
        };
        if super::flow::loop_needs_flags(p.body) {
            return self.unroll_with(p, loop_var, true).map(|_| ());
        }
        // Flags cost two instructions: only a loop with a run-time exit gets them.
        self.charge_copy(p.body.pos)?;
        let saved = self.checkpoint();
        if self.unroll_with(p, loop_var, false)? == Next::NeedsFlags {
            self.restore(saved);
            self.unroll_with(p, loop_var, true)?;
        }
        Ok(())
    }

    fn unroll_with(&mut self, p: &Parts, loop_var: Option<usize>, flags: bool) -> LResult<Next> {
        let (loop_alive, iter_alive) = if flags {
            (Some(self.new_flag()?), Some(self.new_flag()?))
        } else {
            (None, None)
        };
        let mut stmts: Vec<&Stmt> = vec![p.body];
        stmts.extend(p.step);
        let mut names = self.assigned_in_stmts(&stmts);
        names.extend(self.assigned_in_exprs(&p.cond.into_iter().collect::<Vec<_>>()));
        let first_var = self.scopes.vars.len();
        let (base_depth, spec_base) = (self.cond_depth, self.spec_open);
        self.ctx().loops.push(LoopCtx {
            base_depth,
            loop_alive,
            iter_alive,
            epoch: 0,
            loop_epoch: 0,
            broke: false,
            continued: false,
            cont_cond: false,
            spec_base,
            first_var,
            names: std::rc::Rc::new(names),
            runtime: false,
            switch: false,
        });
        let r = self.iterations(p, loop_var);
        let l = self.ctx().loops.pop().expect("loop");
        if r == Ok(Next::Stop) {
            self.loop_end(&l)?;
        }
        r
    }

    /// The iterations, until the loop ends, or until an iteration reported an error:
    /// the compile fails then, and unrolling on would only repeat the error (nested
    /// loops around it would take `unroll^depth` iterations: 16 nested 16-trip loops
    /// around an unknown identifier never finished; found by the `shader_test` fuzz
    /// target, docs/robustness.md).
    fn iterations(&mut self, p: &Parts, loop_var: Option<usize>) -> LResult<Next> {
        let mut count = 0usize;
        let errors = self.diags.count();
        loop {
            match self.iteration(p, loop_var, &mut count)? {
                Next::Go if self.diags.count() > errors => return Ok(Next::Stop),
                Next::Go => {}
                other => return Ok(other),
            }
        }
    }

    /// One iteration: test (for `for`/`while`), body, step, test (for `do`). Wrapped
    /// in `IF loop_alive` once a run-time exit may have ended the loop.
    fn iteration(
        &mut self,
        p: &Parts,
        loop_var: Option<usize>,
        count: &mut usize,
    ) -> LResult<Next> {
        let l = self.ctx().loops.last().cloned().expect("loop");
        let mut wraps = Wraps { open: 0, epoch: 0 };
        self.rewrap(&mut wraps, p.body.pos)?;
        let r = self.iteration_in(p, loop_var, count, &mut wraps, &l);
        for _ in 0..wraps.open {
            self.close_spec_if()?;
        }
        r
    }

    fn iteration_in(
        &mut self,
        p: &Parts,
        loop_var: Option<usize>,
        count: &mut usize,
        wraps: &mut Wraps,
        l: &LoopCtx,
    ) -> LResult<Next> {
        if let (Some(f), true) = (l.iter_alive, l.epoch > 0) {
            self.em
                .const_into(f, &[1.0], Type::Float)
                .map_err(|e| self.pool(e))?;
        }
        if !p.do_while {
            match self.test(p)? {
                Next::Go => self.rewrap(wraps, p.body.pos)?,
                other => return Ok(other),
            }
        }
        *count += 1;
        if *count > self.limits.unroll {
            let l = self.ctx().loops.last().expect("loop");
            if l.runtime || l.loop_epoch > 0 {
                return self.err(p.pos, TRIP_COUNT_UNKNOWN);
            }
            let limit = self.limits.unroll;
            return self.err(
                p.cond.map_or(p.pos, |c| c.pos),
                format!("loop bound exceeds the unroll limit: more than {limit} iterations"),
            );
        }
        self.body(p.body, loop_var)?;
        let ctx = self.calls.last().expect("context");
        let l = ctx.loops.last().expect("loop");
        if ctx.returned || l.broke {
            return Ok(Next::Stop);
        }
        // The continue target: the step, or the test of a `do`.
        self.rewrap(wraps, p.body.pos)?;
        if let Some(step) = p.step {
            self.em.push_frame();
            let r = self.stmt_kind(step);
            self.em.pop_frame();
            r?;
        }
        if p.do_while {
            return self.test(p);
        }
        Ok(Next::Go)
    }

    /// Open `IF loop_alive` when a run-time exit happened since the last wrap.
    fn rewrap(&mut self, wraps: &mut Wraps, pos: Pos) -> LResult<()> {
        let l = self.ctx().loops.last().cloned().expect("loop");
        if l.loop_epoch > wraps.epoch {
            let Some(flag) = l.loop_alive else {
                return self.err(pos, "internal error: a loop exit has no flag");
            };
            self.open_spec_if(flag, pos)?;
            wraps.open += 1;
            wraps.epoch = l.loop_epoch;
        }
        Ok(())
    }

    /// Test the condition: known values decide; a run-time value clears the loop's
    /// flags where it is false (`if (!cond) break;`).
    fn test(&mut self, p: &Parts) -> LResult<Next> {
        let Some(c) = p.cond else {
            return Ok(Next::Go);
        };
        self.em.push_frame();
        let r = self.test_in(c);
        self.em.pop_frame();
        r
    }

    fn test_in(&mut self, c: &Expr) -> LResult<Next> {
        let v = self.operand(c)?;
        let v = self.condition(&v, "a loop condition", c.pos)?;
        if let Some(k) = v.as_const() {
            return Ok(if k.0[0] == 0.0 { Next::Stop } else { Next::Go });
        }
        let l = self.ctx().loops.last().cloned().expect("loop");
        let (Some(loop_alive), Some(iter_alive)) = (l.loop_alive, l.iter_alive) else {
            return Ok(Next::NeedsFlags);
        };
        let not = self.unary(UnOp::Not, &v, c.pos)?;
        let t = self.materialize(&not)?;
        self.open_if(t, c.pos)?;
        let level = self.ctx().loops.len() - 1;
        self.exit_stores(level)?;
        for f in [loop_alive, iter_alive] {
            self.em
                .const_into(f, &[0.0], Type::Float)
                .map_err(|e| self.pool(e))?;
        }
        self.close_if()?;
        let l = self.ctx().loops.last_mut().expect("loop");
        l.epoch += 1;
        l.loop_epoch += 1;
        l.runtime = true;
        Ok(Next::Go)
    }

    /// One copy of the body, at the iteration's base depth.
    fn body(&mut self, body: &Stmt, loop_var: Option<usize>) -> LResult<()> {
        let (depth, spec) = (self.cond_depth, self.spec_open);
        {
            let l = self.ctx().loops.last_mut().expect("loop");
            l.base_depth = depth;
            l.spec_base = spec;
            l.continued = false;
            l.cont_cond = false;
        }
        let es100 =
            self.program.dialect.profile == Profile::Es && self.program.dialect.version == 100;
        let saved = loop_var.filter(|_| es100).map(|id| {
            let v = self.scopes.var_mut(id);
            (id, std::mem::replace(&mut v.access, Access::LoopVariable))
        });
        let r = self.stmt(body);
        if let Some((id, a)) = saved {
            self.scopes.var_mut(id).access = a;
        }
        r
    }

    /// After the last iteration of a loop that run-time exits may have left: the paths
    /// that ran to the end store the compile-time values they hold, and from here on
    /// every variable the loop assigns is read from its storage.
    pub(crate) fn loop_end(&mut self, l: &LoopCtx) -> LResult<()> {
        if l.loop_epoch == 0 {
            return Ok(());
        }
        let loops = [(l.first_var, l.names.clone())];
        let stale = self.outer_known(&loops, true);
        if !stale.is_empty() {
            let Some(flag) = l.loop_alive else {
                return self.err(self.pos, "internal error: a loop exit has no flag");
            };
            let pos = self.pos;
            self.open_if(flag, pos)?;
            for &id in &stale {
                let t = self.ensure_storage(id)?;
                let v = self.scopes.var(id);
                let (c, ty) = (v.known.expect("filtered"), v.ty);
                self.const_columns(t, &c, ty)?;
            }
            self.close_if()?;
        }
        for id in self.outer_known(&loops, false) {
            let v = self.scopes.var_mut(id);
            v.known = None;
            v.synced = false;
        }
        Ok(())
    }
}

/// The speculative wraps open in the current iteration.
struct Wraps {
    /// How many.
    open: u32,
    /// The loop's `loop_epoch` when the last one opened.
    epoch: u32,
}
