//! Semantics-preserving transformations (GraphicsFuzz style): the transformed
//! program must give the same bits as the original. None of them reorders floating-
//! point arithmetic, so the budget is zero ULP: `x * 1.0`, `-(-x)`, `x | 0`, identity
//! swizzles and selections are exact in IEEE 754 and in two's complement (NaN stays
//! NaN; the sign of zero is kept, which is why `x + 0.0` is not among them).
//!
//! On generated programs ([`transform`]) they work on the tree; on the corpus shaders
//! ([`transform_text`]) on the source text.

use crate::ast::{Expr, Func, Program, Qual, Stmt, Ty};
use crate::walk::{count_exprs, count_lists, expr_at, expr_at_in, has_free_jump, is_decl, list_at};

/// A transformation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `if (zero == 1) { copy of a statement }`: dead code behind a uniform the
    /// compiler cannot fold.
    DeadCode,
    /// `(x * 1.0)`, `(true ? x : y)`, `(x).xyz`, `(x | 0)`, ... around expressions.
    Identity,
    /// Statements wrapped in `for (int i = 0; i < 1; i++)` or `switch (zero) { default: }`.
    SingleIteration,
    /// An expression moved into a new function taking its leaves as parameters.
    Outline,
    /// Every variable renamed.
    Rename,
    /// `T x = e;` split into `T x; x = e;`.
    SplitDecl,
    /// Uniforms replaced by constants of the same values (the folder's answer must be
    /// the interpreters').
    Constify,
}

impl Kind {
    /// Every transformation.
    pub const ALL: [Kind; 7] = [
        Kind::DeadCode,
        Kind::Identity,
        Kind::SingleIteration,
        Kind::Outline,
        Kind::Rename,
        Kind::SplitDecl,
        Kind::Constify,
    ];

    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::DeadCode => "dead-code",
            Kind::Identity => "identity",
            Kind::SingleIteration => "single-iteration",
            Kind::Outline => "outline",
            Kind::Rename => "rename",
            Kind::SplitDecl => "split-decl",
            Kind::Constify => "constify",
        }
    }
}

/// Apply `kind` at up to `sites` places chosen by `seed`. Returns the program and
/// the source to compile (the same as `program.source()` except for the text-level
/// kinds).
pub fn transform(p: &Program, kind: Kind, seed: u64, sites: usize) -> (Program, String) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut q = p.clone();
    let mut fresh = 0;
    for _ in 0..sites {
        match kind {
            Kind::DeadCode => dead_code(&mut q, &mut rng),
            Kind::Identity => identity(&mut q, &mut rng),
            Kind::SingleIteration => single_iteration(&mut q, &mut rng, &mut fresh),
            Kind::Outline => outline(&mut q, &mut rng, &mut fresh),
            Kind::SplitDecl => split_decl(&mut q, &mut rng),
            Kind::Rename | Kind::Constify => {}
        }
    }
    let src = q.source();
    let src = match kind {
        Kind::Rename => rename(&src),
        Kind::Constify => constify(&src, p),
        _ => src,
    };
    (q, src)
}

fn dead_code(p: &mut Program, rng: &mut fastrand::Rng) {
    let n = count_lists(p);
    let target = rng.usize(..n.max(1));
    let conds = ["zero == 1", "one != 1", "fone < 0.0", "ui.x > 1000"];
    let cond = conds[rng.usize(..conds.len())];
    let pick = rng.u64(..);
    list_at(p, target, &mut |list, _| {
        let cands: Vec<usize> = (0..list.len()).filter(|&i| !is_decl(&list[i])).collect();
        if cands.is_empty() {
            return;
        }
        let i = cands[(pick % cands.len() as u64) as usize];
        let copy = list[i].clone();
        list.insert(
            i + 1,
            Stmt::If {
                cond: Expr::leaf(cond, Ty::B),
                then: vec![copy],
                els: vec![],
            },
        );
    });
}

/// An identity wrapper for an expression of type `ty`.
fn wrap(e: Expr, rng: &mut fastrand::Rng) -> Expr {
    let ty = e.ty();
    let lit = Expr::leaf(ty.simple_literal(), ty);
    match (ty, rng.u32(0..4)) {
        (_, 0) => Expr::node(ty, &["(true ? ", " : ", ")"], vec![e, lit]),
        (_, 1) => Expr::node(ty, &["(false ? ", " : ", ")"], vec![lit, e]),
        (Ty::F | Ty::V(_), 2) => Expr::node(ty, &["(", " * 1.0)"], vec![e]),
        (Ty::F | Ty::V(_), _) => {
            if rng.bool() {
                Expr::node(ty, &["(", " * fone)"], vec![e])
            } else {
                Expr::node(ty, &["(-(-(", ")))"], vec![e])
            }
        }
        (Ty::I | Ty::IV(_), 2) => Expr::node(ty, &["(", " | 0)"], vec![e]),
        (Ty::I | Ty::IV(_), _) => Expr::node(ty, &["(", " ^ zero)"], vec![e]),
        (Ty::U, _) => Expr::node(ty, &["(", " + 0u)"], vec![e]),
        (Ty::B, 2) => Expr::node(ty, &["(", " && true)"], vec![e]),
        (Ty::B, _) => Expr::node(ty, &["(!(!", "))"], vec![e]),
        (Ty::M(_), _) => Expr::node(ty, &["transpose(transpose(", "))"], vec![e]),
    }
}

fn vector_round_trip(e: Expr) -> Expr {
    let ty = e.ty();
    match ty {
        Ty::V(n) | Ty::IV(n) => {
            let s = &"xyzw"[..n as usize];
            Expr::node(ty, &["(", &format!(").{s}")], vec![e])
        }
        Ty::F => Expr::node(ty, &["vec2(", ", 0.0).x"], vec![e]),
        _ => e,
    }
}

fn identity(p: &mut Program, rng: &mut fastrand::Rng) {
    let n = count_exprs(p);
    if n == 0 {
        return;
    }
    let target = rng.usize(..n);
    let round_trip = rng.u32(0..4) == 0;
    let seed = rng.u64(..);
    expr_at(p, target, &mut |e| {
        let old = std::mem::replace(e, Expr::leaf("", Ty::B));
        *e = if round_trip {
            vector_round_trip(old)
        } else {
            wrap(old, &mut fastrand::Rng::with_seed(seed))
        };
    });
}

fn single_iteration(p: &mut Program, rng: &mut fastrand::Rng, fresh: &mut u32) {
    let n = count_lists(p);
    let target = rng.usize(..n.max(1));
    let (a, b) = (rng.u64(..), rng.u64(..));
    let as_switch = rng.bool();
    *fresh += 1;
    let name = format!("dt_i{fresh}");
    list_at(p, target, &mut |list, _| {
        if list.is_empty() {
            return;
        }
        let len = list.len();
        let start = (a % len as u64) as usize;
        let mut end = start + 1 + (b % (len - start) as u64) as usize;
        // A declaration must stay in its scope, a break/continue with its loop.
        if let Some(k) = (start..end).find(|&i| is_decl(&list[i]) || has_free_jump(&list[i])) {
            end = k;
        }
        if end <= start {
            return;
        }
        let body: Vec<Stmt> = list.drain(start..end).collect();
        let wrapped = if as_switch {
            Stmt::Switch {
                sel: Expr::leaf("zero", Ty::I),
                cases: vec![(None, body, true)],
            }
        } else {
            Stmt::For {
                var: name.clone(),
                n: 1,
                body,
            }
        };
        list.insert(start, wrapped);
    });
}

/// Whether `e` can be moved into a function of its leaves: no user calls and no
/// array named in a node's text (the array would not be in the new function's scope).
fn outlinable(e: &Expr) -> bool {
    match e {
        Expr::Leaf { .. } => true,
        Expr::Node {
            parts, kids, call, ..
        } => {
            !call
                && !parts.iter().any(|p| {
                    p.contains('[')
                        && p.split('[').next().is_some_and(|s| {
                            s.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                        })
                })
                && kids.iter().all(outlinable)
        }
    }
}

fn outline(p: &mut Program, rng: &mut fastrand::Rng, fresh: &mut u32) {
    let n = count_exprs(p);
    if n == 0 {
        return;
    }
    *fresh += 1;
    let name = format!("dt_f{fresh}");
    let target = rng.usize(..n);
    let mut made = None;
    expr_at_in(p, target, true, &mut |e| {
        if !outlinable(e) || matches!(e, Expr::Leaf { .. }) {
            return;
        }
        let mut params = vec![];
        let mut args = vec![];
        let mut body = e.clone();
        replace_leaves(&mut body, &mut params, &mut args);
        let ty = e.ty();
        let call = Expr::call(ty, &name, args);
        made = Some(Func {
            name: name.clone(),
            ret: ty,
            params,
            init: vec![],
            body: vec![],
            ret_expr: body,
        });
        *e = call;
    });
    if let Some(f) = made {
        p.funcs.insert(0, f);
    }
}

fn replace_leaves(e: &mut Expr, params: &mut Vec<(Qual, Ty, String)>, args: &mut Vec<Expr>) {
    match e {
        Expr::Leaf { ty, .. } => {
            let ty = *ty;
            let name = format!("q{}", params.len());
            params.push((Qual::In, ty, name.clone()));
            let old = std::mem::replace(e, Expr::leaf(name, ty));
            args.push(old);
        }
        Expr::Node { kids, .. } => {
            for k in kids {
                replace_leaves(k, params, args);
            }
        }
    }
}

fn split_decl(p: &mut Program, rng: &mut fastrand::Rng) {
    let n = count_lists(p);
    let target = rng.usize(..n.max(1));
    let pick = rng.u64(..);
    list_at(p, target, &mut |list, _| {
        let cands: Vec<usize> = (0..list.len())
            .filter(|&i| match &list[i] {
                Stmt::Simple {
                    parts, decl: true, ..
                } => parts.len() == 2 && parts[0].ends_with(" = ") && !parts[0].contains('['),
                _ => false,
            })
            .collect();
        if cands.is_empty() {
            return;
        }
        let i = cands[(pick % cands.len() as u64) as usize];
        if let Stmt::Simple { parts, exprs, .. } = list[i].clone() {
            let head = parts[0].trim_end_matches(" = ");
            let var = head.rsplit(' ').next().unwrap_or(head).to_string();
            if head.starts_with("S ") {
                return;
            }
            list[i] = Stmt::raw(&format!("{head};"));
            list.insert(
                i + 1,
                Stmt::Simple {
                    parts: vec![format!("{var} = "), ";".into()],
                    exprs,
                    decl: false,
                },
            );
        }
    });
}

/// Rename every generated variable (`v12` → `renamed_v12`, also arrays, structs,
/// globals and functions): a word-boundary substitution on the source.
pub fn rename(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 256);
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &src[start..i];
            let prev_dot = start > 0 && b[start - 1] == b'.';
            let generated = ["v", "a", "s", "g", "fn", "k", "p"].iter().any(|p| {
                word.strip_prefix(p)
                    .is_some_and(|r| !r.is_empty() && r.bytes().all(|d| d.is_ascii_digit()))
            });
            if generated && !prev_dot {
                out.push_str("renamed_");
            }
            out.push_str(word);
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Replace the uniform declarations by constants holding the values `p` gives them.
pub fn constify(src: &str, p: &Program) -> String {
    let mut out = src.to_string();
    for u in &p.uniforms {
        let f = |k: usize| format!("{:?}", f32::from_bits(u.lanes[k]));
        let i = |k: usize| {
            let v = u.lanes[k] as i32;
            if v == i32::MIN {
                "(-2147483647 - 1)".to_string()
            } else {
                v.to_string()
            }
        };
        let value = match u.ty {
            Ty::F => f(0),
            Ty::V(n) => format!(
                "vec{n}({})",
                (0..n as usize).map(f).collect::<Vec<_>>().join(", ")
            ),
            Ty::I => i(0),
            Ty::IV(n) => format!(
                "ivec{n}({})",
                (0..n as usize).map(i).collect::<Vec<_>>().join(", ")
            ),
            Ty::U => format!("{}u", u.lanes[0]),
            Ty::B => (u.lanes[0] != 0).to_string(),
            Ty::M(_) => continue,
        };
        let decl = format!("uniform {} {};", u.ty.name(), u.name);
        out = out.replace(
            &decl,
            &format!("const {} {} = {value};", u.ty.name(), u.name),
        );
    }
    out
}

/// Text-level transformations for shaders the generator did not write (the corpus):
/// `variant` picks one of dead code at the top of `main`, `main`'s body in a
/// single-iteration loop, in a `switch` on a uniform, or every float literal after
/// `main` times a uniform holding 1.0. Adds the uniforms it reads (`dt_zero = 0`,
/// `dt_one = 1.0`, which [`crate::oracle::Inputs4`] must supply). Returns `None`
/// when the source has no `void main()` to work on.
pub fn transform_text(src: &str, variant: u32) -> Option<(String, &'static str)> {
    let main_at = src.find("void main()")?;
    let open = main_at + src[main_at..].find('{')?;
    let close = matching_brace(src, open)?;
    let body = &src[open + 1..close];
    let decls = "uniform int dt_zero;\nuniform float dt_one;\n";
    // After the #version line (or at the start).
    let head_end = if src.trim_start().starts_with("#version") {
        src.find('\n').map(|i| i + 1).unwrap_or(src.len())
    } else {
        0
    };
    let (head, rest_head) = src.split_at(head_end);
    let before_main = &rest_head[..open + 1 - head_end];
    let after = &src[close..];
    let (new_body, name) = match variant % 4 {
        0 => (
            format!("\n    if (dt_zero == 1) {{ return; }}\n{body}"),
            "dead-code",
        ),
        1 => (
            format!("\n    for (int dt_i = 0; dt_i < 1; dt_i++) {{{body}}}\n"),
            "single-iteration loop",
        ),
        2 => (
            format!("\n    switch (dt_zero) {{ default: {{{body}}} }}\n"),
            "single-case switch",
        ),
        _ => (scale_literals(body), "float literal * uniform 1.0"),
    };
    if variant % 4 == 2 && !src.contains("#version 3") && !src.contains("#version 13") {
        return None;
    }
    Some((format!("{head}{decls}{before_main}{new_body}{after}"), name))
}

fn matching_brace(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `1.5` → `(1.5 * dt_one)` for float literals in expressions (not in declarations
/// of `const`s, where a uniform is not a constant expression).
fn scale_literals(body: &str) -> String {
    let mut out = String::new();
    for line in body.split_inclusive('\n') {
        if line.contains("const ") {
            out.push_str(line);
            continue;
        }
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
            if b[i].is_ascii_digit() && !prev_ident {
                let start = i;
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                // Exponent part.
                if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                    i += 1;
                    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
                        i += 1;
                    }
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                let lit = &line[start..i];
                let float = lit.contains('.') || lit.contains('e') || lit.contains('E');
                let suffix = i < b.len() && (b[i] == b'f' || b[i] == b'F' || b[i] == b'u');
                if float && !suffix {
                    out.push_str(&format!("({lit} * dt_one)"));
                } else {
                    out.push_str(lit);
                }
            } else {
                out.push(b[i] as char);
                i += 1;
            }
        }
    }
    out
}
