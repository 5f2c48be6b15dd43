//! `switch` (GLSL 1.30 §6.2; GLSL ES 3.00 §6.2), lowered to structured IFs.
//!
//! The selector is an `int` scalar, evaluated once. The body is cut at its labels into
//! segments; each segment runs when the one before it ran to its end without a
//! `break` (fallthrough) or when one of its own labels matches. `default` matches when
//! no `case` label of the whole switch does, wherever it stands:
//!
//! ```text
//! run = false
//! for each segment:  run = (run || sel == label || ...) && alive
//!                    IF run  statements  ENDIF
//! ```
//!
//! `alive` is the switch's exit flag, cleared by `break` (and by a `continue` or
//! `return` that leaves the switch), as a loop's flags are (see `flow.rs`, `loops.rs`);
//! a switch is a level of the loop stack that `break` ends and `continue` passes
//! through. Known selectors fold: only the segments that can run are lowered.
//!
//! The rules checked, each a named error: the selector is a scalar `int`; every
//! label is a constant integer expression; labels are unique and there is at most one
//! `default`; the body starts with a label and does not end with one. `switch`, `case` and `default` are
//! reserved words before GLSL 1.30 (and in GLSL ES 1.00).

use super::super::ast::{BinOp, Expr, Stmt, StmtKind};
use super::super::dialect::Profile;
use super::super::token::Pos;
use super::super::types::Type;
use super::value::Value;
use super::{LResult, LoopCtx, Lowerer};

/// One run of statements and the labels in front of it.
struct Segment<'s> {
    /// `Some(k)` for `case k:`, `None` for `default:`.
    labels: Vec<Option<i32>>,
    stmts: &'s [Stmt],
}

impl Lowerer<'_> {
    /// `switch (selector) { body }` at `pos`.
    pub(crate) fn switch_stmt(&mut self, selector: &Expr, body: &[Stmt], pos: Pos) -> LResult<()> {
        let d = self.program.dialect;
        let has_switch = match d.profile {
            Profile::Es => d.version >= 300,
            _ => d.version >= 130,
        };
        if !has_switch {
            return self.err(
                pos,
                format!("switch is a reserved word in {d}: switch statements need GLSL 1.30 or GLSL ES 3.00"),
            );
        }
        let sel = self.operand(selector)?;
        if !(sel.ty == Type::Int || sel.ty == Type::Uint && self.exact_ints()) {
            return self.err(
                selector.pos,
                format!("a switch selector must be an int scalar, not {}", sel.ty),
            );
        }
        let segments = self.segments(body)?;
        // Evaluated once: the body may assign what the selector reads.
        let sel = if sel.as_const().is_some() {
            sel
        } else {
            let t = self.temp(1)?;
            self.store_into(t, &sel, Type::Int)?;
            Value::temp(Type::Int, t)
        };
        let cases: Vec<i32> = segments
            .iter()
            .flat_map(|s| s.labels.iter().flatten().copied())
            .collect();
        self.scopes.push();
        let r = self.switch_body(&sel, &segments, &cases, body, pos);
        self.close_scope();
        r
    }

    /// Cut the body into segments and check the labels.
    fn segments<'s>(&mut self, body: &'s [Stmt]) -> LResult<Vec<Segment<'s>>> {
        let mut segments: Vec<Segment> = Vec::new();
        let mut labels = Vec::new();
        let mut start: Option<usize> = None;
        let mut seen: Vec<Option<i32>> = Vec::new();
        let mut failed = false;
        let mut labelled = false;
        for (i, s) in body.iter().enumerate() {
            let StmtKind::Case(label) = &s.kind else {
                if !labelled {
                    return self.err(
                        s.pos,
                        "a switch body must start with a case or default label (GLSL 1.30 §6.2)",
                    );
                }
                start.get_or_insert(i);
                continue;
            };
            labelled = true;
            if let Some(st) = start.take() {
                segments.push(Segment {
                    labels: std::mem::take(&mut labels),
                    stmts: &body[st..i],
                });
            }
            let value = match label {
                None => None,
                Some(e) => match self.case_label(e) {
                    Ok(k) => Some(k),
                    Err(super::Fail::Fatal) => return Err(super::Fail::Fatal),
                    Err(_) => {
                        failed = true;
                        continue;
                    }
                },
            };
            if seen.contains(&value) {
                let m = match value {
                    Some(k) => format!("duplicate case label {k} in a switch"),
                    None => "more than one default label in a switch".to_string(),
                };
                self.diags.error(s.pos, m);
                failed = true;
                continue;
            }
            seen.push(value);
            labels.push(value);
        }
        if let Some(last) = body.last()
            && matches!(last.kind, StmtKind::Case(_))
        {
            // "it is an error to have no statement between a label and the end of
            // the switch statement" (GLSL 1.30 §6.2).
            self.diags.error(
                last.pos,
                "a case or default label must be followed by a statement before the end of \
                 the switch body (GLSL 1.30 §6.2)",
            );
            failed = true;
        }
        if !labels.is_empty() || start.is_some() {
            let st = start.unwrap_or(body.len());
            segments.push(Segment {
                labels,
                stmts: &body[st..],
            });
        }
        if failed {
            return Err(super::Fail::Reported);
        }
        Ok(segments)
    }

    /// The value of `case e:`: a constant `int` expression.
    fn case_label(&mut self, e: &Expr) -> LResult<i32> {
        let v = self.in_constant(|me| me.operand(e))?;
        match (v.ty, v.as_const()) {
            (Type::Int | Type::Uint, Some(_)) => Ok(self.known_int(&v).unwrap_or(0) as i32),
            _ => self.err(
                e.pos,
                "a case label must be a constant integer expression (GLSL 1.30 §6.2)",
            ),
        }
    }

    fn switch_body(
        &mut self,
        sel: &Value,
        segments: &[Segment],
        cases: &[i32],
        body: &[Stmt],
        pos: Pos,
    ) -> LResult<()> {
        let exits = body.iter().any(super::flow::contains_exit);
        let flag = if exits { Some(self.new_flag()?) } else { None };
        let refs: Vec<&Stmt> = body.iter().collect();
        let names = self.assigned_in_stmts(&refs);
        let first_var = self.scopes.vars.len();
        let (base_depth, spec_base) = (self.cond_depth, self.spec_open);
        self.ctx().loops.push(LoopCtx {
            base_depth,
            loop_alive: flag,
            iter_alive: flag,
            epoch: 0,
            loop_epoch: 0,
            broke: false,
            continued: false,
            // A switch's wraps are plain branches.
            cont_cond: true,
            spec_base,
            first_var,
            names: std::rc::Rc::new(names),
            runtime: false,
            switch: true,
        });
        let r = self.segments_in(sel, segments, cases, pos);
        let l = self.ctx().loops.pop().expect("switch");
        if r.is_ok() {
            self.loop_end(&l)?;
        }
        r
    }

    fn segments_in(
        &mut self,
        sel: &Value,
        segments: &[Segment],
        cases: &[i32],
        pos: Pos,
    ) -> LResult<()> {
        let mut run = Value::bool(false);
        for (i, seg) in segments.iter().enumerate() {
            let ended = {
                let ctx = self.calls.last().expect("context");
                let l = ctx.loops.last().expect("switch");
                ctx.returned || l.broke || l.continued
            };
            if ended {
                return self.dry(|me| {
                    for s in &segments[i..] {
                        me.block_in_scope(s.stmts)?;
                    }
                    Ok(())
                });
            }
            let at = seg.stmts.first().map_or(pos, |s| s.pos);
            for label in &seg.labels {
                let hit = self.label_match(sel, *label, cases, at)?;
                run = self.logical(BinOp::Or, &run, &hit, at)?;
            }
            let l = self.ctx().loops.last().cloned().expect("switch");
            let alive = match (l.loop_epoch, l.loop_alive) {
                (0, _) | (_, None) => Value::bool(true),
                (_, Some(f)) => Value::temp(Type::Bool, f),
            };
            run = self.logical(BinOp::And, &run, &alive, at)?;
            // Keep `run` for the next segment: the frame of the switch owns it.
            if run.as_const().is_none() {
                let t = self.temp(1)?;
                self.store_into(t, &run, Type::Bool)?;
                run = Value::temp(Type::Bool, t);
            }
            match run.as_const() {
                Some(k) if k.0[0] == 0.0 => {
                    self.dry(|me| me.block_in_scope(seg.stmts))?;
                }
                Some(_) => {
                    self.block_in_scope(seg.stmts)?;
                }
                None => {
                    let refs: Vec<&Stmt> = seg.stmts.iter().collect();
                    let names = self.assigned_in_stmts(&refs);
                    self.materialize_known(&names)?;
                    let t = self.materialize(&run)?;
                    self.open_if(t, at)?;
                    let r = self.block_in_scope(seg.stmts);
                    self.close_if()?;
                    r?;
                }
            }
        }
        Ok(())
    }

    /// Whether `label` matches: `sel == k`, or for `default` no case label matches.
    fn label_match(
        &mut self,
        sel: &Value,
        label: Option<i32>,
        cases: &[i32],
        pos: Pos,
    ) -> LResult<Value> {
        match label {
            Some(k) => self.binary(BinOp::Eq, sel, &self.int(k), pos),
            None => {
                let mut none = Value::bool(true);
                for &k in cases {
                    let ne = self.binary(BinOp::Ne, sel, &self.int(k), pos)?;
                    none = self.logical(BinOp::And, &none, &ne, pos)?;
                }
                Ok(none)
            }
        }
    }
}
