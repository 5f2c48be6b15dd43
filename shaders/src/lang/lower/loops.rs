//! `for` loops, unrolled at compile time (reference B §1.11, with A2/A3: any
//! initializer, condition and step that fold to constants — so named `const` bounds
//! work — up to `Limits::unroll` iterations, also bounded by the IR pool).
//!
//! Each iteration lowers the condition (which must be a known bool), the body in a
//! fresh scope with the loop variable read-only, then the step. `break` and
//! `continue` inside a branch clear the loop's flags (see `flow.rs`); later iterations
//! are then wrapped in `IF loop_alive`.

use super::super::ast::{Expr, Stmt, StmtKind};
use super::super::scope::Access;
use super::super::token::Pos;
use super::super::types::Type;
use super::{LResult, LoopCtx, Lowerer};

impl Lowerer<'_> {
    /// A `for` statement `s`: its own scope for the loop variable, then the unrolled
    /// iterations.
    pub(crate) fn for_stmt(&mut self, s: &Stmt) -> LResult<()> {
        let StmtKind::For {
            init,
            cond,
            step,
            body,
        } = &s.kind
        else {
            return Ok(());
        };
        self.scopes.push();
        let r = self.unroll(init.as_deref(), cond.as_ref(), step.as_deref(), body, s.pos);
        self.close_scope();
        r
    }

    fn unroll(
        &mut self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Stmt>,
        body: &Stmt,
        pos: Pos,
    ) -> LResult<()> {
        if let Some(init) = init {
            self.stmt_kind(init)?;
        }
        let loop_var = match init.map(|s| &s.kind) {
            Some(StmtKind::Decl(d)) => self.scopes.lookup(&d.name),
            _ => None,
        };
        let flags = super::flow::loop_needs_flags(body);
        let (loop_alive, iter_alive) = if flags {
            (Some(self.new_flag()?), Some(self.new_flag()?))
        } else {
            (None, None)
        };
        let base_depth = self.cond_depth;
        self.ctx().loops.push(LoopCtx {
            base_depth,
            loop_alive,
            iter_alive,
            epoch: 0,
            loop_epoch: 0,
            broke: false,
            continued: false,
        });
        let r = self.iterations(cond, step, body, loop_var, pos);
        self.ctx().loops.pop();
        r
    }

    fn iterations(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Stmt>,
        body: &Stmt,
        loop_var: Option<usize>,
        pos: Pos,
    ) -> LResult<()> {
        let mut count = 0usize;
        loop {
            if let Some(c) = cond {
                let v = self.operand(c)?;
                let v = self.condition(&v, "a loop condition", c.pos)?;
                let Some(k) = v.as_const() else {
                    return self.err(c.pos, "unsupported loop condition");
                };
                if k.0[0] == 0.0 {
                    return Ok(());
                }
            }
            count += 1;
            if count > self.limits.unroll {
                return self.err(
                    cond.map_or(pos, |c| c.pos),
                    "loop bound exceeds the unroll limit",
                );
            }
            self.iteration(body, loop_var)?;
            let ctx = self.calls.last().expect("context");
            let l = ctx.loops.last().expect("loop");
            if ctx.returned || l.broke {
                return Ok(());
            }
            if let Some(step) = step {
                self.stmt_kind(step)?;
            }
        }
    }

    /// One copy of the body: wrapped in `IF loop_alive` once a conditional `break` or
    /// `return` may have ended the loop; `iter_alive` reset after a `continue`.
    fn iteration(&mut self, body: &Stmt, loop_var: Option<usize>) -> LResult<()> {
        let l = self.ctx().loops.last().cloned().expect("loop");
        let wrap = l.loop_epoch > 0;
        if wrap {
            let names = self.assigned_in_stmts(&[body]);
            self.materialize_known(&names)?;
            self.open_if(l.loop_alive.unwrap_or(0), body.pos)?;
        }
        if let (Some(f), true) = (l.iter_alive, l.epoch > 0) {
            self.em
                .const_into(f, &[1.0], Type::Float)
                .map_err(|e| self.pool(e))?;
        }
        let depth = self.cond_depth;
        {
            let l = self.ctx().loops.last_mut().expect("loop");
            l.base_depth = depth;
            l.continued = false;
        }
        let saved = loop_var.map(|id| {
            let v = self.scopes.var_mut(id);
            std::mem::replace(&mut v.access, Access::LoopVariable)
        });
        let r = self.stmt(body);
        if let (Some(id), Some(a)) = (loop_var, saved) {
            self.scopes.var_mut(id).access = a;
        }
        if wrap {
            self.close_if()?;
        }
        r
    }
}
