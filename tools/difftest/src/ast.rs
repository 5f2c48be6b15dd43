//! The generated programs as a small typed tree: enough structure to print GLSL 3.30,
//! to apply transformations at chosen sites and to shrink a finding (replace an
//! expression by a literal or a child, drop or flatten a statement), nothing more.

use std::fmt::Write;

/// A GLSL value type the generator uses (GLSL 1.30 §4.1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Ty {
    /// `float`.
    F,
    /// `vecN`, N in 2..=4.
    V(u8),
    /// `int`.
    I,
    /// `ivecN`, N in 2..=4.
    IV(u8),
    /// `uint`.
    U,
    /// `bool`.
    B,
    /// `matN` (square), N in 2..=4.
    M(u8),
}

impl Ty {
    /// The GLSL keyword.
    pub fn name(self) -> String {
        match self {
            Ty::F => "float".into(),
            Ty::V(n) => format!("vec{n}"),
            Ty::I => "int".into(),
            Ty::IV(n) => format!("ivec{n}"),
            Ty::U => "uint".into(),
            Ty::B => "bool".into(),
            Ty::M(n) => format!("mat{n}"),
        }
    }

    /// Components of a vector (1 for scalars, N for a matrix's column count).
    pub fn width(self) -> u8 {
        match self {
            Ty::V(n) | Ty::IV(n) | Ty::M(n) => n,
            _ => 1,
        }
    }

    /// A literal of this type whose value is harmless everywhere (used by the
    /// reducer to replace a subexpression): 0.5-ish floats, 1 for integers.
    pub fn simple_literal(self) -> String {
        match self {
            Ty::F => "0.5".into(),
            Ty::V(n) => format!("vec{n}(0.5)"),
            Ty::I => "1".into(),
            Ty::IV(n) => format!("ivec{n}(1)"),
            Ty::U => "1u".into(),
            Ty::B => "true".into(),
            Ty::M(n) => format!("mat{n}(1.0)"),
        }
    }
}

/// An expression: a leaf (a literal or an l-value, printed as is) or a node whose
/// text is `parts[0] kids[0] parts[1] kids[1] ... parts[n]`.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// Literal, variable, swizzle of a variable, or any fixed text of type `ty`.
    Leaf {
        /// The text.
        text: String,
        /// Its type.
        ty: Ty,
    },
    /// An operator, call or constructor.
    Node {
        /// Result type.
        ty: Ty,
        /// Text around the children (`kids.len() + 1` pieces).
        parts: Vec<String>,
        /// Operands.
        kids: Vec<Expr>,
        /// A safety wrapper (`exp(clamp(x, -4.0, 4.0))`, a guarded divisor): the
        /// reducer never replaces it by one of its children, which would drop the
        /// guard.
        guard: bool,
        /// A call of a user function (never moved into another function).
        call: bool,
    },
}

impl Expr {
    /// A leaf.
    pub fn leaf(text: impl Into<String>, ty: Ty) -> Expr {
        Expr::Leaf {
            text: text.into(),
            ty,
        }
    }

    /// A node from its pieces: `parts.len() == kids.len() + 1`.
    pub fn node(ty: Ty, parts: &[&str], kids: Vec<Expr>) -> Expr {
        debug_assert_eq!(parts.len(), kids.len() + 1);
        Expr::Node {
            ty,
            parts: parts.iter().map(|s| s.to_string()).collect(),
            kids,
            guard: false,
            call: false,
        }
    }

    /// A guarded node (see [`Expr::Node::guard`]).
    pub fn guarded(ty: Ty, parts: &[&str], kids: Vec<Expr>) -> Expr {
        let mut e = Expr::node(ty, parts, kids);
        if let Expr::Node { guard, .. } = &mut e {
            *guard = true;
        }
        e
    }

    /// `name(a, b, ...)`.
    pub fn call(ty: Ty, name: &str, kids: Vec<Expr>) -> Expr {
        let mut parts = vec![format!("{name}(")];
        for _ in 1..kids.len() {
            parts.push(", ".into());
        }
        parts.push(")".into());
        if kids.is_empty() {
            parts = vec![format!("{name}()")];
        }
        Expr::Node {
            ty,
            parts,
            kids,
            guard: false,
            call: false,
        }
    }

    /// The type.
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Leaf { ty, .. } | Expr::Node { ty, .. } => *ty,
        }
    }

    /// Whether the expression calls a user function anywhere.
    pub fn has_call(&self) -> bool {
        match self {
            Expr::Leaf { .. } => false,
            Expr::Node { call, kids, .. } => *call || kids.iter().any(Expr::has_call),
        }
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        match self {
            Expr::Leaf { .. } => 1,
            Expr::Node { kids, .. } => 1 + kids.iter().map(Expr::size).sum::<usize>(),
        }
    }

    /// Print as GLSL.
    pub fn print(&self, out: &mut String) {
        match self {
            Expr::Leaf { text, .. } => out.push_str(text),
            Expr::Node { parts, kids, .. } => {
                for (i, p) in parts.iter().enumerate() {
                    out.push_str(p);
                    if let Some(k) = kids.get(i) {
                        k.print(out);
                    }
                }
            }
        }
    }

    /// The GLSL text.
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.print(&mut s);
        s
    }
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// Text around expressions, printed as one line (`x = E;`, `float y = E;`,
    /// `f(a, b);`, `break;`).
    Simple {
        /// `exprs.len() + 1` pieces.
        parts: Vec<String>,
        /// The expressions.
        exprs: Vec<Expr>,
        /// A declaration (dropping it breaks later uses, so the reducer tries it last).
        decl: bool,
    },
    /// `if (cond) { then } else { els }`.
    If {
        /// Condition (bool).
        cond: Expr,
        /// Then branch.
        then: Vec<Stmt>,
        /// Else branch (printed only when non-empty).
        els: Vec<Stmt>,
    },
    /// `for (int var = 0; var < n; var++) { body }`.
    For {
        /// Loop counter name.
        var: String,
        /// Trip count.
        n: u32,
        /// Body.
        body: Vec<Stmt>,
    },
    /// `switch (sel) { case k: ... }`; each case's body ends with `break;` when its
    /// flag says so (fallthrough otherwise).
    Switch {
        /// Selector (int).
        sel: Expr,
        /// `(label, body, break)`: label `None` is `default`.
        cases: Vec<(Option<i32>, Vec<Stmt>, bool)>,
    },
    /// `{ body }`.
    Block(Vec<Stmt>),
}

impl Stmt {
    /// A simple statement.
    pub fn simple(parts: &[&str], exprs: Vec<Expr>) -> Stmt {
        Stmt::Simple {
            parts: parts.iter().map(|s| s.to_string()).collect(),
            exprs,
            decl: false,
        }
    }

    /// A declaration `ty name = e;`.
    pub fn decl(ty: Ty, name: &str, e: Expr) -> Stmt {
        Stmt::Simple {
            parts: vec![format!("{} {name} = ", ty.name()), ";".into()],
            exprs: vec![e],
            decl: true,
        }
    }

    /// A fixed line (`break;`).
    pub fn raw(text: &str) -> Stmt {
        Stmt::simple(&[text], vec![])
    }

    fn print(&self, out: &mut String, indent: usize) {
        let pad = "    ".repeat(indent);
        match self {
            Stmt::Simple { parts, exprs, .. } => {
                out.push_str(&pad);
                for (i, p) in parts.iter().enumerate() {
                    out.push_str(p);
                    if let Some(e) = exprs.get(i) {
                        e.print(out);
                    }
                }
                out.push('\n');
            }
            Stmt::If { cond, then, els } => {
                let _ = writeln!(out, "{pad}if ({}) {{", cond.text());
                print_block(then, out, indent + 1);
                if els.is_empty() {
                    let _ = writeln!(out, "{pad}}}");
                } else {
                    let _ = writeln!(out, "{pad}}} else {{");
                    print_block(els, out, indent + 1);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            Stmt::For { var, n, body } => {
                let _ = writeln!(out, "{pad}for (int {var} = 0; {var} < {n}; {var}++) {{");
                print_block(body, out, indent + 1);
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Switch { sel, cases } => {
                let _ = writeln!(out, "{pad}switch ({}) {{", sel.text());
                let last = cases.len().saturating_sub(1);
                for (k, (label, body, brk)) in cases.iter().enumerate() {
                    // A label needs a statement before the end of the switch (GLSL
                    // 1.30 §6.2): a last case with an empty body breaks, which is where
                    // it would fall through to anyway.
                    let brk = *brk || (k == last && body.is_empty());
                    match label {
                        Some(k) => {
                            let _ = writeln!(out, "{pad}case {k}:");
                        }
                        None => {
                            let _ = writeln!(out, "{pad}default:");
                        }
                    }
                    print_block(body, out, indent + 1);
                    if brk {
                        let _ = writeln!(out, "{pad}    break;");
                    }
                }
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Block(body) => {
                let _ = writeln!(out, "{pad}{{");
                print_block(body, out, indent + 1);
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}

fn print_block(body: &[Stmt], out: &mut String, indent: usize) {
    for s in body {
        s.print(out, indent);
    }
}

/// A parameter qualifier (GLSL 1.30 §6.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qual {
    /// `in` (copied in).
    In,
    /// `out` (copied out, undefined on entry: the generator assigns it first).
    Out,
    /// `inout`.
    InOut,
}

impl Qual {
    /// The keyword.
    pub fn name(self) -> &'static str {
        match self {
            Qual::In => "in",
            Qual::Out => "out",
            Qual::InOut => "inout",
        }
    }
}

/// A user function `ret name(params) { body return ret_expr; }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    /// Name.
    pub name: String,
    /// Return type.
    pub ret: Ty,
    /// Parameters.
    pub params: Vec<(Qual, Ty, String)>,
    /// The first assignment of each `out` parameter (never dropped by the reducer: an
    /// `out` parameter is undefined until written, GLSL 1.30 §6.1.1).
    pub init: Vec<Stmt>,
    /// Body.
    pub body: Vec<Stmt>,
    /// Returned value.
    pub ret_expr: Expr,
}

/// A uniform and the value the generator gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Uniform {
    /// Name.
    pub name: String,
    /// Type (float, vec4, int, ivec4, uint).
    pub ty: Ty,
    /// Lane values as register bits: floats as `f32`, integers as their patterns.
    pub lanes: [u32; 4],
}

/// A whole fragment shader.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Uniforms with their values.
    pub uniforms: Vec<Uniform>,
    /// Global declarations printed before the functions (struct definitions,
    /// globals).
    pub globals: Vec<String>,
    /// Functions, in definition order (each calls only earlier ones).
    pub funcs: Vec<Func>,
    /// `main`'s body, ending with the store to `c`.
    pub main: Vec<Stmt>,
}

impl Program {
    /// The GLSL 3.30 source.
    pub fn source(&self) -> String {
        let mut out = String::from("#version 330 core\n");
        for u in &self.uniforms {
            let _ = writeln!(out, "uniform {} {};", u.ty.name(), u.name);
        }
        out.push_str("in vec4 vv;\nout vec4 c;\n");
        for g in &self.globals {
            out.push_str(g);
            out.push('\n');
        }
        let signature = |f: &Func| {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|(q, t, n)| format!("{} {} {n}", q.name(), t.name()))
                .collect();
            format!("{} {}({})", f.ret.name(), f.name, params.join(", "))
        };
        // Every function's prototype first: a transformation may make a function call
        // one defined below it, and GLSL 1.10 §6.1 wants a declaration before a call.
        for f in &self.funcs {
            let _ = writeln!(out, "{};", signature(f));
        }
        for f in &self.funcs {
            let _ = writeln!(out, "{} {{", signature(f));
            print_block(&f.init, &mut out, 1);
            print_block(&f.body, &mut out, 1);
            let _ = writeln!(out, "    return {};\n}}", f.ret_expr.text());
        }
        out.push_str("void main() {\n");
        print_block(&self.main, &mut out, 1);
        out.push_str("}\n");
        out
    }

    /// Statements in the program (for the summary and the reducer's report).
    pub fn statements(&self) -> usize {
        fn count(b: &[Stmt]) -> usize {
            b.iter()
                .map(|s| {
                    1 + match s {
                        Stmt::Simple { .. } => 0,
                        Stmt::If { then, els, .. } => count(then) + count(els),
                        Stmt::For { body, .. } | Stmt::Block(body) => count(body),
                        Stmt::Switch { cases, .. } => cases.iter().map(|c| count(&c.1)).sum(),
                    }
                })
                .sum()
        }
        count(&self.main) + self.funcs.iter().map(|f| count(&f.body) + 1).sum::<usize>()
    }
}
