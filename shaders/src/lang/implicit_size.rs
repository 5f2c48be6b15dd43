//! Implicitly sized arrays: an array declared without a size and without an
//! initializer (`vec2 a[];`) takes its size before lowering, so the lowering only ever
//! sees sized arrays (GLSL 1.10 and 1.20 §4.1.9):
//!
//! - a later declaration of the same name in the same scope that gives a size or an
//!   initializer (`float a[]; float a[] = float[](0.0, 1.0);`, GLSL 1.20) sizes it, and
//!   becomes an assignment of its initializer;
//! - otherwise every use must index it with an integer literal, and its size is one
//!   more than the largest such index (an array that is never used has one element).
//!
//! A use the size cannot be read from (a whole-array use, a non-literal index) is an
//! error naming the array and the rule. Built-in arrays (`gl_TexCoord`) are sized by
//! `builtin_vars`.

use super::ast::{ArraySize, AssignOp, Decl, Expr, ExprKind, Item, Program, Stmt, StmtKind};
use super::builtin_vars::{visit_expr, visit_stmt};
use super::diagnostic::Diagnostics;

/// Give every implicitly sized array of `program` its size; report the ones whose
/// size cannot be found in `diags`.
pub(crate) fn size_implicit_arrays(program: &mut Program, diags: &mut Diagnostics) {
    if program.dialect.is_es() {
        reject_in_es(program, diags);
        return;
    }
    size_globals(program, diags);
    for item in &mut program.items {
        if let Item::Function(f) = item {
            size_in_list(&mut f.body, diags);
        }
    }
}

/// GLSL ES has no implicitly sized arrays: GLSL ES 1.00 §4.1.9 sizes every array
/// declaration, and GLSL ES 3.00 §4.1.9 lets only an initializer give the size. Each
/// such declaration is an error naming the array.
fn reject_in_es(program: &Program, diags: &mut Diagnostics) {
    let report = |d: &Decl, diags: &mut Diagnostics| {
        if is_implicit(d) {
            let m = format!(
                "array '{}' needs a size: {} has no implicitly sized arrays (GLSL ES 1.00 \
                 §4.1.9, GLSL ES 3.00 §4.1.9: an array without a size needs an \
                 initializer)",
                d.name, program.dialect
            );
            diags.error(d.pos, m);
        }
    };
    fn walk(st: &Stmt, report: &dyn Fn(&Decl, &mut Diagnostics), diags: &mut Diagnostics) {
        match &st.kind {
            StmtKind::Decl(d) => report(d, diags),
            StmtKind::Block(body) | StmtKind::Switch { body, .. } => {
                body.iter().for_each(|s| walk(s, report, diags));
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                walk(then, report, diags);
                if let Some(o) = otherwise {
                    walk(o, report, diags);
                }
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    walk(i, report, diags);
                }
                walk(body, report, diags);
            }
            _ => {}
        }
    }
    for item in &program.items {
        match item {
            Item::Global(d) => report(d, diags),
            Item::Function(f) => f.body.iter().for_each(|s| walk(s, &report, diags)),
            Item::Prototype(_) | Item::Block(_) => {}
        }
    }
}

/// Whether `d` is an array declared without a size and without an initializer.
fn is_implicit(d: &Decl) -> bool {
    d.init.is_none()
        && d.array.as_ref().is_some_and(|a| a.len.is_none())
        && !d.name.starts_with("gl_")
}

/// Whether `d` redeclares `name` with a size or an initializer.
fn sizes(d: &Decl, name: &str) -> bool {
    d.name == name && d.array.is_some() && !is_implicit(d)
}

/// The size expression a sizing redeclaration gives: its own, or the element count
/// of its `T[](...)` initializer.
fn size_of_redeclaration(d: &Decl) -> Option<Box<Expr>> {
    if let Some(len) = d.array.as_ref().and_then(|a| a.len.clone()) {
        return Some(len);
    }
    match d.init.as_ref().map(|e| &e.kind) {
        Some(ExprKind::ArrayConstruct { args, .. }) => Some(Box::new(Expr {
            kind: ExprKind::Int(i32::try_from(args.len()).unwrap_or(i32::MAX)),
            pos: d.pos,
        })),
        _ => None,
    }
}

fn size_globals(program: &mut Program, diags: &mut Diagnostics) {
    let mut i = 0;
    while i < program.items.len() {
        let Item::Global(d) = &program.items[i] else {
            i += 1;
            continue;
        };
        if !is_implicit(d) {
            i += 1;
            continue;
        }
        let name = d.name.clone();
        let later = program.items[i + 1..]
            .iter()
            .position(|item| matches!(item, Item::Global(d2) if sizes(d2, &name)))
            .map(|k| i + 1 + k);
        let len = match later {
            Some(j) => {
                let Item::Global(d2) = program.items.remove(j) else {
                    unreachable!("position found a global")
                };
                let len = size_of_redeclaration(&d2);
                if let Item::Global(d) = &mut program.items[i] {
                    d.init = d2.init;
                }
                len
            }
            None => {
                let mut uses = Uses::new(&name);
                for item in &program.items {
                    match item {
                        Item::Global(g) => uses.decl(g),
                        Item::Function(f) | Item::Prototype(f) => {
                            f.body.iter().for_each(|s| uses.stmt(s));
                        }
                        Item::Block(_) => {}
                    }
                }
                uses.size(d, diags)
            }
        };
        if let Item::Global(d) = &mut program.items[i] {
            set_len(d, len);
        }
        i += 1;
    }
}

/// Size the implicit arrays declared directly in `list`, then those of nested
/// statement lists.
fn size_in_list(list: &mut [Stmt], diags: &mut Diagnostics) {
    let mut i = 0;
    while i < list.len() {
        if let StmtKind::Decl(d) = &list[i].kind
            && is_implicit(d)
        {
            let name = d.name.clone();
            let later = list[i + 1..]
                .iter()
                .position(|s| matches!(&s.kind, StmtKind::Decl(d2) if sizes(d2, &name)))
                .map(|k| i + 1 + k);
            let len = match later {
                Some(j) => {
                    let StmtKind::Decl(d2) = &list[j].kind else {
                        unreachable!("position found a declaration")
                    };
                    let len = size_of_redeclaration(d2);
                    list[j].kind = match d2.init.clone() {
                        Some(value) => StmtKind::Assign {
                            target: Expr {
                                kind: ExprKind::Ident(name.clone()),
                                pos: d2.pos,
                            },
                            op: AssignOp::Set,
                            value,
                        },
                        None => StmtKind::Empty,
                    };
                    len
                }
                None => {
                    let mut uses = Uses::new(&name);
                    list[i + 1..].iter().for_each(|s| uses.stmt(s));
                    let StmtKind::Decl(d) = &list[i].kind else {
                        unreachable!("checked above")
                    };
                    uses.size(d, diags)
                }
            };
            if let StmtKind::Decl(d) = &mut list[i].kind {
                set_len(d, len);
            }
        }
        nested(&mut list[i], diags);
        i += 1;
    }
}

/// Size the implicit arrays of the statement lists inside `st`.
fn nested(st: &mut Stmt, diags: &mut Diagnostics) {
    match &mut st.kind {
        StmtKind::Block(body) | StmtKind::Switch { body, .. } => size_in_list(body, diags),
        StmtKind::If {
            then, otherwise, ..
        } => {
            nested(then, diags);
            if let Some(o) = otherwise {
                nested(o, diags);
            }
        }
        StmtKind::For { body, .. } => nested(body, diags),
        _ => {}
    }
}

/// Store the size found (`None`: reported, the declaration keeps no size and the
/// lowering reports nothing more for it).
fn set_len(d: &mut Decl, len: Option<Box<Expr>>) {
    if let (Some(array), Some(len)) = (&mut d.array, len) {
        *array = ArraySize {
            len: Some(len),
            pos: array.pos,
        };
    }
}

/// The uses of one array name: how many, how many index it with an integer literal,
/// and the largest such index.
struct Uses<'n> {
    name: &'n str,
    all: usize,
    literal: usize,
    largest: Option<i32>,
}

impl<'n> Uses<'n> {
    fn new(name: &'n str) -> Self {
        Uses {
            name,
            all: 0,
            literal: 0,
            largest: None,
        }
    }

    fn decl(&mut self, d: &Decl) {
        if let Some(init) = &d.init {
            self.expr(init);
        }
    }

    fn stmt(&mut self, st: &Stmt) {
        visit_stmt(st, &mut |e| self.visit(e));
    }

    fn expr(&mut self, e: &Expr) {
        visit_expr(e, &mut |e| self.visit(e));
    }

    fn visit(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(n) if n == self.name => self.all += 1,
            ExprKind::Index(a, b) if matches!(&a.kind, ExprKind::Ident(n) if n == self.name) => {
                if let ExprKind::Int(k) = b.kind {
                    self.literal += 1;
                    self.largest = Some(self.largest.map_or(k, |m| m.max(k)));
                }
            }
            _ => {}
        }
    }

    /// The size the uses give `d`, or `None` after reporting why there is none.
    fn size(&self, d: &Decl, diags: &mut Diagnostics) -> Option<Box<Expr>> {
        if self.all != self.literal {
            diags.error(
                d.pos,
                format!(
                    "the size of array '{}' cannot be found: declared without a size, it \
                     is used other than indexed by an integer literal (GLSL 1.20 §4.1.9: \
                     such a use needs the size declared first)",
                    d.name
                ),
            );
            return None;
        }
        Some(Box::new(Expr {
            kind: ExprKind::Int(self.largest.map_or(1, |k| k.saturating_add(1))),
            pos: d.pos,
        }))
    }
}
