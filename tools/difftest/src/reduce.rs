//! Automatic reduction (delta debugging, one edit at a time, greedy): shrink a program
//! that shows a finding while it still shows it. Edits, largest first: drop a
//! function; drop a statement; replace an `if` by one of its branches, a loop, block
//! or switch by its body; replace an expression by a literal of its type or by one of
//! its operands of the same type (never through a guard, which keeps values in range).
//! A candidate that no longer compiles fails the predicate and is dropped.

use crate::ast::{Expr, Program, Stmt};
use crate::walk::{count_lists, expr_at, expr_shapes, list_at};

/// One edit.
#[derive(Clone, Copy, Debug)]
enum Edit {
    DropFunc(usize),
    Drop { list: usize, at: usize },
    Splice { list: usize, at: usize, part: usize },
    Literal(usize),
    Kid(usize, usize),
}

fn edits(p: &mut Program) -> Vec<Edit> {
    let mut out: Vec<Edit> = (0..p.funcs.len()).map(Edit::DropFunc).collect();
    let lists = count_lists(p);
    for list in 0..lists {
        let mut shapes = vec![];
        list_at(p, list, &mut |l, _| {
            shapes = l
                .iter()
                .map(|s| match s {
                    Stmt::If { els, .. } => {
                        if els.is_empty() {
                            1
                        } else {
                            2
                        }
                    }
                    Stmt::For { .. } | Stmt::Block(_) => 1,
                    Stmt::Switch { cases, .. } => cases.len(),
                    Stmt::Simple { .. } => 0,
                })
                .collect();
        });
        for (at, parts) in shapes.iter().enumerate() {
            out.push(Edit::Drop { list, at });
            for part in 0..*parts {
                out.push(Edit::Splice { list, at, part });
            }
        }
    }
    for (k, shape) in expr_shapes(p).into_iter().enumerate() {
        if let Some(kids) = shape {
            out.push(Edit::Literal(k));
            for j in kids {
                out.push(Edit::Kid(k, j));
            }
        }
    }
    out
}

fn apply(p: &Program, e: Edit) -> Option<Program> {
    let mut q = p.clone();
    let mut changed = false;
    match e {
        Edit::DropFunc(i) => {
            q.funcs.remove(i);
            changed = true;
        }
        Edit::Drop { list, at } => {
            list_at(&mut q, list, &mut |l, _| {
                if at < l.len() {
                    l.remove(at);
                    changed = true;
                }
            });
        }
        Edit::Splice { list, at, part } => {
            list_at(&mut q, list, &mut |l, _| {
                if at >= l.len() {
                    return;
                }
                let body = match &l[at] {
                    Stmt::If { then, els, .. } => {
                        if part == 0 {
                            then.clone()
                        } else {
                            els.clone()
                        }
                    }
                    Stmt::For { body, .. } | Stmt::Block(body) => body.clone(),
                    Stmt::Switch { cases, .. } => match cases.get(part) {
                        Some(c) => c.1.clone(),
                        None => return,
                    },
                    Stmt::Simple { .. } => return,
                };
                l.splice(at..=at, body);
                changed = true;
            });
        }
        Edit::Literal(k) => {
            expr_at(&mut q, k, &mut |e| {
                let ty = e.ty();
                let lit = Expr::leaf(ty.simple_literal(), ty);
                if *e != lit {
                    *e = lit;
                    changed = true;
                }
            });
        }
        Edit::Kid(k, j) => {
            expr_at(&mut q, k, &mut |e| {
                if let Expr::Node { kids, .. } = e
                    && let Some(kid) = kids.get(j).cloned()
                {
                    *e = kid;
                    changed = true;
                }
            });
        }
    }
    changed.then_some(q)
}

/// Shrink `p` while `still(candidate)` holds, trying at most `budget` candidates.
/// Returns the smallest program found (at worst `p`).
pub fn reduce(p: &Program, still: &mut dyn FnMut(&Program) -> bool, budget: usize) -> Program {
    let mut best = p.clone();
    let mut tried = 0;
    loop {
        let mut progress = false;
        let mut i = 0;
        let mut list = edits(&mut best);
        loop {
            if i >= list.len() || tried >= budget {
                break;
            }
            tried += 1;
            if let Some(q) = apply(&best, list[i])
                && still(&q)
            {
                best = q;
                progress = true;
                // The edit list changed: retry from the same position.
                list = edits(&mut best);
                continue;
            }
            i += 1;
        }
        if !progress || tried >= budget {
            return best;
        }
    }
}
