//! Visiting the sites of a [`Program`] by number: the `k`-th expression (pre-order)
//! and the `k`-th statement list. Transformations and the reducer pick a site by its
//! number and edit it in place.

use crate::ast::{Expr, Program, Stmt};

/// Visit expression number `target` (pre-order over every expression tree of the
/// program, roots in source order) with `f`; returns whether it existed. `counter`
/// counts the expressions seen.
pub fn expr_at(p: &mut Program, target: usize, f: &mut dyn FnMut(&mut Expr)) -> bool {
    expr_at_in(p, target, false, f)
}

/// [`expr_at`], skipping struct initializers when `skip_struct_init` (the front end
/// refuses user calls there: docs/robustness.md, finding 1).
pub fn expr_at_in(
    p: &mut Program,
    target: usize,
    skip_struct_init: bool,
    f: &mut dyn FnMut(&mut Expr),
) -> bool {
    let mut counter = 0;
    let mut hit = false;
    roots_in(p, skip_struct_init, &mut |e| {
        if !hit {
            hit = visit_expr(e, target, &mut counter, f);
        }
    });
    hit
}

/// Per expression (in [`expr_at`]'s numbering): `None` for a leaf, for a node the
/// indexes of its operands of the node's own type (empty for a guarded node).
pub fn expr_shapes(p: &mut Program) -> Vec<Option<Vec<usize>>> {
    fn go(e: &Expr, out: &mut Vec<Option<Vec<usize>>>) {
        match e {
            Expr::Leaf { .. } => out.push(None),
            Expr::Node {
                kids, guard, ty, ..
            } => {
                let same = if *guard {
                    vec![]
                } else {
                    kids.iter()
                        .enumerate()
                        .filter(|(_, c)| c.ty() == *ty)
                        .map(|(i, _)| i)
                        .collect()
                };
                out.push(Some(same));
                for k in kids {
                    go(k, out);
                }
            }
        }
    }
    let mut out = vec![];
    roots(p, &mut |e| go(e, &mut out));
    out
}

/// Expressions in the program.
pub fn count_exprs(p: &mut Program) -> usize {
    let mut n = 0;
    roots(p, &mut |e| n += e.size());
    n
}

fn visit_expr(
    e: &mut Expr,
    target: usize,
    counter: &mut usize,
    f: &mut dyn FnMut(&mut Expr),
) -> bool {
    if *counter == target {
        f(e);
        return true;
    }
    *counter += 1;
    if let Expr::Node { kids, .. } = e {
        for k in kids {
            if visit_expr(k, target, counter, f) {
                return true;
            }
        }
    }
    false
}

/// Call `f` on every root expression of the program.
fn roots(p: &mut Program, f: &mut dyn FnMut(&mut Expr)) {
    roots_in(p, false, f)
}

fn roots_in(p: &mut Program, skip: bool, f: &mut dyn FnMut(&mut Expr)) {
    for func in &mut p.funcs {
        stmts_roots(&mut func.init, skip, f);
        stmts_roots(&mut func.body, skip, f);
        f(&mut func.ret_expr);
    }
    stmts_roots(&mut p.main, skip, f);
}

fn stmts_roots(b: &mut [Stmt], skip: bool, f: &mut dyn FnMut(&mut Expr)) {
    for s in b {
        match s {
            Stmt::Simple { parts, exprs, .. } => {
                if !(skip && parts[0].starts_with("S ")) {
                    exprs.iter_mut().for_each(&mut *f)
                }
            }
            Stmt::If { cond, then, els } => {
                f(cond);
                stmts_roots(then, skip, f);
                stmts_roots(els, skip, f);
            }
            Stmt::For { body, .. } | Stmt::Block(body) => stmts_roots(body, skip, f),
            Stmt::Switch { sel, cases } => {
                f(sel);
                for c in cases {
                    stmts_roots(&mut c.1, skip, f);
                }
            }
        }
    }
}

/// Where a statement list sits: main's body, a function's body, or a nested block
/// (branch, loop body, case, braces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKind {
    /// A function's (or main's) outermost body.
    Body,
    /// A nested list.
    Nested,
}

/// Visit statement list number `target` (pre-order: main's body and function bodies,
/// then nested lists) with `f`; returns whether it existed.
pub fn list_at(
    p: &mut Program,
    target: usize,
    f: &mut dyn FnMut(&mut Vec<Stmt>, ListKind),
) -> bool {
    let mut counter = 0;
    for func in &mut p.funcs {
        if visit_list(&mut func.body, ListKind::Body, target, &mut counter, f) {
            return true;
        }
    }
    visit_list(&mut p.main, ListKind::Body, target, &mut counter, f)
}

/// Statement lists in the program.
pub fn count_lists(p: &mut Program) -> usize {
    let mut n = 0;
    while list_at(p, n, &mut |_, _| {}) {
        n += 1;
    }
    n
}

fn visit_list(
    b: &mut Vec<Stmt>,
    kind: ListKind,
    target: usize,
    counter: &mut usize,
    f: &mut dyn FnMut(&mut Vec<Stmt>, ListKind),
) -> bool {
    if *counter == target {
        f(b, kind);
        return true;
    }
    *counter += 1;
    for s in b.iter_mut() {
        let hit = match s {
            Stmt::Simple { .. } => false,
            Stmt::If { then, els, .. } => {
                visit_list(then, ListKind::Nested, target, counter, f)
                    || visit_list(els, ListKind::Nested, target, counter, f)
            }
            Stmt::For { body, .. } | Stmt::Block(body) => {
                visit_list(body, ListKind::Nested, target, counter, f)
            }
            Stmt::Switch { cases, .. } => cases
                .iter_mut()
                .any(|c| visit_list(&mut c.1, ListKind::Nested, target, counter, f)),
        };
        if hit {
            return true;
        }
    }
    false
}

/// Whether a statement holds a `break` or `continue` that is not inside a loop or
/// switch of its own (moving it under a new loop or switch would rebind it).
pub fn has_free_jump(s: &Stmt) -> bool {
    match s {
        Stmt::Simple { parts, .. } => parts
            .iter()
            .any(|p| p.trim() == "break;" || p.trim() == "continue;"),
        Stmt::If { then, els, .. } => then.iter().chain(els).any(has_free_jump),
        Stmt::Block(b) => b.iter().any(has_free_jump),
        Stmt::For { .. } => false,
        // A `continue` inside a switch still binds to the enclosing loop.
        Stmt::Switch { cases, .. } => cases.iter().flat_map(|c| &c.1).any(has_free_continue),
    }
}

fn has_free_continue(s: &Stmt) -> bool {
    match s {
        Stmt::Simple { parts, .. } => parts.iter().any(|p| p.trim() == "continue;"),
        Stmt::If { then, els, .. } => then.iter().chain(els).any(has_free_continue),
        Stmt::Block(b) => b.iter().any(has_free_continue),
        Stmt::For { .. } => false,
        Stmt::Switch { cases, .. } => cases.iter().flat_map(|c| &c.1).any(has_free_continue),
    }
}

/// Whether a statement declares something in the enclosing scope.
pub fn is_decl(s: &Stmt) -> bool {
    matches!(s, Stmt::Simple { decl: true, .. })
}
