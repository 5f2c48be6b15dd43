//! The struct pass: structs (GLSL 1.10 §4.1.8, §5.4.3, §5.7, §6.1) flattened into
//! their members before the lowering, so that no later phase knows structs.
//!
//! A variable of struct type becomes one variable per member, named with the member
//! path (`light.color`, `s.inner.f`; a name no identifier can take). A member of
//! array type stays an array (`s.v`), and an array of structs is laid out as a struct
//! of arrays: `S lights[3]` is `lights.pos[3]`, `lights.color[3]`, ... and an array
//! member of an array of structs is one array of all elements, row-major (`S s[2]`
//! with `vec4 v[2]` is `s.v[4]`, `s[i].v[j]` is `s.v[i * 2 + j]`). So the existing
//! array lowering (run-time indexes included) serves structs unchanged.
//!
//! - `.name` on a struct is its member; on anything else it is a swizzle.
//! - Constructors `S(a, b)` give their arguments member by member (GLSL 1.10 §5.4.3:
//!   one argument per member, in order); array constructors of structs `S[2](...)`
//!   element by element.
//! - Assignment of a whole struct is one assignment per scalar, vector or matrix in
//!   it; `==` and `!=` compare them all (GLSL 1.10 §5.7).
//! - A struct parameter is one parameter per flattened member with the parameter's
//!   direction; a function returning a struct gets one `out` parameter per member
//!   (`$ret.m`), and a call to it is evaluated just before its statement into a
//!   hidden variable (`$r1`) — so such a call may not sit where it is evaluated
//!   conditionally (`&&`, `||`, `?:`) or repeatedly (a loop condition or step).
//! - Uniforms: each member is a uniform of its own. Its interface name is OpenGL's
//!   (`light.color`; for an array of structs `lights[2].pos`, one symbol per
//!   element, [`InterfaceName`]), so a scene or a shader_test sets it by that name.
//! - Varyings of struct type: GLSL 1.50 allows them (§4.3.4, §4.3.6), as varyings
//!   named by member path and linked by those names; earlier versions forbid them.
//!   Vertex inputs and fragment outputs of struct type are errors (every version).
//!
//! Anything else of struct type that cannot be flattened this way is a named error at
//! its position.

use super::ast::{
    ArraySize, AssignOp, BinOp, Decl, Expr, ExprKind, Function, InterfaceName, Item, Param,
    ParamDir, Program, Stmt, StmtKind, Storage, UnOp,
};
use super::diagnostic::Diagnostics;
use super::parser::decode_swizzle;
use super::token::Pos;
use super::types::Type;
use std::collections::HashMap;

/// Most scalar, vector and matrix members one struct value may flatten into (bounds
/// the code whole-struct assignment and comparison expand into).
pub const MAX_STRUCT_LEAVES: usize = 1024;

/// A struct type, or an array of `len` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    sid: u16,
    len: Option<u32>,
}

/// One step into a struct value: a member or an array element.
#[derive(Clone, Debug)]
enum Step {
    Member(String),
    Elem(u32),
}

/// A flattened variable of a struct type: the member path and the array lengths met
/// on it.
#[derive(Clone, Debug)]
struct LeafVar {
    /// `.m1.m2`.
    suffix: String,
    /// The member chain: each member's name and array length.
    chain: Vec<(String, Option<u32>)>,
    /// The final member's type (not a struct).
    ty: Type,
}

impl LeafVar {
    fn dims(&self) -> impl Iterator<Item = u32> + '_ {
        self.chain.iter().filter_map(|(_, l)| *l)
    }
}

/// A partly resolved struct-typed (or already flattened) expression.
#[derive(Clone, Debug)]
enum Sx {
    /// Flattened variables `prefix.*`, at combined element `idx` (`None`: no array
    /// met yet).
    Var {
        prefix: String,
        idx: Option<Expr>,
        shape: Shape,
    },
    /// `S(args)`.
    Ctor { sid: u16, args: Vec<Expr> },
    /// `S[N](args)`: the elements.
    Array { elems: Vec<Expr> },
    /// Element `k` (a run-time index) of the values `elems`.
    Pick { elems: Vec<Sx>, k: Expr, pos: Pos },
    /// `c ? a : b`.
    Select {
        c: Expr,
        a: Box<Sx>,
        b: Box<Sx>,
        pos: Pos,
    },
    /// `len` elements of flattened array `var` from combined element `idx * len`.
    Slice {
        var: String,
        idx: Expr,
        len: u32,
        ty: Type,
    },
    /// A value that is not a struct (its type when known, else `Type::None`).
    Leaf(Expr, Type),
}

/// A user function as the pass sees it.
#[derive(Clone, Debug)]
struct FnSig {
    params: Vec<(Type, Option<u32>)>,
    ret: Type,
}

/// An error was reported.
#[derive(Clone, Copy, Debug)]
struct Reported;

type R<T> = Result<T, Reported>;

/// Flatten every struct in `program` (see the module docs). Errors go to `diags`.
pub(crate) fn flatten(program: &mut Program, diags: &mut Diagnostics) {
    // Without structs the pass still turns every `.name` into a swizzle.
    let mut p = Pass::new(program, diags);
    let items = std::mem::take(&mut program.items);
    program.items = p.items(items);
}

struct Pass<'d> {
    structs: Vec<super::ast::StructDef>,
    /// Resolved member array lengths, per struct and member.
    lens: Vec<Vec<Option<u32>>>,
    diags: &'d mut Diagnostics,
    /// Open scopes: name → struct shape (`None`: a variable that is not a struct).
    scopes: Vec<HashMap<String, Option<Shape>>>,
    funcs: HashMap<String, Vec<FnSig>>,
    /// Global `const int`s with literal initializers (array sizes of members).
    consts: HashMap<String, i64>,
    /// The struct-typed return of the function being flattened.
    ret: Option<Shape>,
    /// Hidden variables made so far.
    hidden: u32,
    version: u16,
}

impl<'d> Pass<'d> {
    fn new(program: &Program, diags: &'d mut Diagnostics) -> Pass<'d> {
        let mut consts = HashMap::new();
        for item in &program.items {
            if let Item::Global(d) = item
                && d.quals.storage == Storage::Const
                && d.ty == Type::Int
                && let Some(Expr {
                    kind: ExprKind::Int(v),
                    ..
                }) = &d.init
            {
                consts.insert(d.name.clone(), *v as i64);
            }
        }
        let mut funcs: HashMap<String, Vec<FnSig>> = HashMap::new();
        for item in &program.items {
            if let Item::Function(f) | Item::Prototype(f) = item {
                let sig = FnSig {
                    params: f.params.iter().map(|p| (p.ty, None)).collect(),
                    ret: f.ret,
                };
                funcs.entry(f.name.clone()).or_default().push(sig);
            }
        }
        let mut p = Pass {
            structs: program.structs.clone(),
            lens: Vec::new(),
            diags,
            scopes: vec![HashMap::new()],
            funcs,
            consts,
            ret: None,
            hidden: 0,
            version: program.dialect.version,
        };
        for s in 0..p.structs.len() {
            let mut lens = Vec::new();
            for m in p.structs[s].members.clone() {
                let len = match &m.array {
                    None => None,
                    Some(size) => match size.len.as_deref().and_then(|e| p.const_int(e)) {
                        Some(n) if (1..=256).contains(&n) => Some(n as u32),
                        _ => {
                            let pos = size.len.as_ref().map_or(size.pos, |e| e.pos);
                            p.diags.error(
                                pos,
                                "a struct member's array size must be a constant integer \
                                 expression from 1 to 256",
                            );
                            Some(1)
                        }
                    },
                };
                if matches!(m.ty, Type::Void) {
                    p.diags.error(m.pos, "void struct member");
                }
                lens.push(len);
            }
            p.lens.push(lens);
        }
        p
    }

    fn err<T>(&mut self, pos: Pos, m: impl Into<String>) -> R<T> {
        self.diags.error(pos, m);
        Err(Reported)
    }

    fn const_int(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v) => Some(*v as i64),
            ExprKind::UInt(v) => Some(*v as i64),
            ExprKind::Ident(n) => self.consts.get(n).copied(),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.const_int(a)?, self.const_int(b)?);
                match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    BinOp::Mul => x.checked_mul(y),
                    BinOp::Div => x.checked_div(y),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn struct_name(&self, sid: u16) -> String {
        let n = &self.structs[sid as usize].name;
        if n.is_empty() {
            "an anonymous struct".into()
        } else {
            format!("struct {n}")
        }
    }

    // ---- shapes and leaves ----

    /// The flattened variables of struct `sid`, in member order.
    fn leaf_vars(&self, sid: u16) -> Vec<LeafVar> {
        let mut out = Vec::new();
        self.collect_leaves(sid, &mut Vec::new(), &mut out, 0);
        out
    }

    fn collect_leaves(
        &self,
        sid: u16,
        chain: &mut Vec<(String, Option<u32>)>,
        out: &mut Vec<LeafVar>,
        depth: usize,
    ) {
        if depth > 16 {
            return;
        }
        let def = &self.structs[sid as usize];
        for (k, m) in def.members.iter().enumerate() {
            chain.push((m.name.clone(), self.lens[sid as usize][k]));
            match m.ty {
                Type::Struct(t) => self.collect_leaves(t, chain, out, depth + 1),
                ty => out.push(LeafVar {
                    suffix: chain.iter().map(|(n, _)| format!(".{n}")).collect(),
                    chain: chain.clone(),
                    ty,
                }),
            }
            chain.pop();
        }
    }

    /// The scalar, vector and matrix parts of a value of `shape`, as step paths.
    fn elem_paths(&self, shape: Shape) -> Vec<Vec<Step>> {
        let one = self.struct_paths(shape.sid, 0);
        match shape.len {
            None => one,
            Some(n) => (0..n)
                .flat_map(|k| {
                    one.iter().map(move |p| {
                        let mut q = vec![Step::Elem(k)];
                        q.extend(p.iter().cloned());
                        q
                    })
                })
                .collect(),
        }
    }

    fn struct_paths(&self, sid: u16, depth: usize) -> Vec<Vec<Step>> {
        let mut out = Vec::new();
        if depth > 16 {
            return out;
        }
        let def = &self.structs[sid as usize];
        for (k, m) in def.members.iter().enumerate() {
            let inner: Vec<Vec<Step>> = match m.ty {
                Type::Struct(t) => self.struct_paths(t, depth + 1),
                _ => vec![Vec::new()],
            };
            let elems: Vec<Option<u32>> = match self.lens[sid as usize][k] {
                Some(n) => (0..n).map(Some).collect(),
                None => vec![None],
            };
            for e in elems {
                for p in &inner {
                    let mut q = vec![Step::Member(m.name.clone())];
                    if let Some(e) = e {
                        q.push(Step::Elem(e));
                    }
                    q.extend(p.iter().cloned());
                    out.push(q);
                }
            }
        }
        out
    }

    fn member(&self, sid: u16, name: &str) -> Option<(Type, Option<u32>)> {
        let def = &self.structs[sid as usize];
        let k = def.members.iter().position(|m| m.name == name)?;
        Some((def.members[k].ty, self.lens[sid as usize][k]))
    }

    fn lookup(&self, name: &str) -> Option<Shape> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .flatten()
    }

    fn declare(&mut self, name: &str, shape: Option<Shape>) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), shape);
        }
    }

    /// The struct shape of `e`, if it is a struct or an array of structs.
    fn shape_of(&self, e: &Expr) -> Option<Shape> {
        match &e.kind {
            ExprKind::Ident(n) => self.lookup(n),
            ExprKind::Field(b, m) => {
                let s = self.shape_of(b)?;
                if s.len.is_some() {
                    return None;
                }
                match self.member(s.sid, m)? {
                    (Type::Struct(t), len) => Some(Shape { sid: t, len }),
                    _ => None,
                }
            }
            ExprKind::Index(b, _) => {
                let s = self.shape_of(b)?;
                s.len.map(|_| Shape {
                    sid: s.sid,
                    len: None,
                })
            }
            ExprKind::Construct {
                ty: Type::Struct(s),
                ..
            } => Some(Shape { sid: *s, len: None }),
            ExprKind::ArrayConstruct {
                ty: Type::Struct(s),
                size,
                args,
            } => {
                let len = size
                    .len
                    .as_deref()
                    .and_then(|e| self.const_int(e))
                    .map_or(args.len() as u32, |n| n.max(0) as u32);
                Some(Shape {
                    sid: *s,
                    len: Some(len),
                })
            }
            ExprKind::Call { name, args } => {
                let sigs = self.funcs.get(name)?;
                let sig = sigs.iter().find(|s| s.params.len() == args.len())?;
                match sig.ret {
                    Type::Struct(s) => Some(Shape { sid: s, len: None }),
                    _ => None,
                }
            }
            ExprKind::Ternary(_, a, b) => self.shape_of(a).or_else(|| self.shape_of(b)),
            ExprKind::Comma(_, b) => self.shape_of(b),
            ExprKind::Assign { target, .. } => self.shape_of(target),
            _ => None,
        }
    }

    // ---- resolving struct expressions ----

    /// `e` as a (partly) resolved struct expression; a non-struct expression is
    /// rewritten ([`Pass::expr`]) into a [`Sx::Leaf`].
    fn sx(&mut self, e: &Expr) -> R<Sx> {
        match &e.kind {
            ExprKind::Ident(n) => Ok(match self.lookup(n) {
                Some(shape) => Sx::Var {
                    prefix: n.clone(),
                    idx: None,
                    shape,
                },
                None => Sx::Leaf(e.clone(), Type::None),
            }),
            ExprKind::Field(b, m) => {
                let base = self.sx(b)?;
                self.step(base, &Step::Member(m.clone()), e.pos)
            }
            ExprKind::Index(b, i) => {
                let base = self.sx(b)?;
                let i = self.expr(i)?;
                self.index(base, i, e.pos)
            }
            ExprKind::Construct {
                ty: Type::Struct(s),
                args,
            } => {
                let n = self.structs[*s as usize].members.len();
                if args.len() != n {
                    let name = self.struct_name(*s);
                    return self.err(
                        e.pos,
                        format!(
                            "the constructor of {name} takes {n} argument{} (one per member), \
                             got {}",
                            if n == 1 { "" } else { "s" },
                            args.len()
                        ),
                    );
                }
                Ok(Sx::Ctor {
                    sid: *s,
                    args: args.clone(),
                })
            }
            ExprKind::ArrayConstruct {
                ty: Type::Struct(s),
                size,
                args,
            } => {
                if let Some(len) = &size.len
                    && self.const_int(len) != Some(args.len() as i64)
                {
                    return self.err(
                        e.pos,
                        "the array constructor's size does not match its arguments",
                    );
                }
                for a in args {
                    if self.shape_of(a) != Some(Shape { sid: *s, len: None }) {
                        let name = self.struct_name(*s);
                        return self.err(
                            a.pos,
                            format!("type mismatch in array constructor: expected {name}"),
                        );
                    }
                }
                Ok(Sx::Array {
                    elems: args.clone(),
                })
            }
            ExprKind::Ternary(c, a, b) if self.shape_of(e).is_some() => {
                if self.has_effects(c) {
                    return self.err(
                        c.pos,
                        "the condition of a ?: that selects a struct cannot have side effects \
                         (it is evaluated once per member)",
                    );
                }
                let (sa, sb) = (self.shape_of(a), self.shape_of(b));
                if sa != sb {
                    return self.err(e.pos, "the two values of ?: differ in type");
                }
                let c = self.expr(c)?;
                let (a, b) = (self.sx(a)?, self.sx(b)?);
                Ok(Sx::Select {
                    c,
                    a: Box::new(a),
                    b: Box::new(b),
                    pos: e.pos,
                })
            }
            ExprKind::Call { .. } if self.shape_of(e).is_some() => self.err(
                e.pos,
                "a call returning a struct must be evaluated unconditionally and once: not \
                 in a loop condition or step, nor an operand of &&, || or ?:",
            ),
            _ if self.shape_of(e).is_some() => self.err(
                e.pos,
                "this struct-valued expression is not supported (assign it to a variable \
                 first)",
            ),
            _ => Ok(Sx::Leaf(self.expr(e)?, Type::None)),
        }
    }

    /// `base[i]`.
    fn index(&mut self, base: Sx, i: Expr, pos: Pos) -> R<Sx> {
        let literal = match &i.kind {
            ExprKind::Int(v) if *v >= 0 => Some(*v as u32),
            ExprKind::UInt(v) => Some(*v),
            _ => None,
        };
        match base {
            Sx::Var { prefix, idx, shape } => {
                let Some(n) = shape.len else {
                    return self.err(pos, "a struct cannot be indexed");
                };
                if let Some(k) = literal
                    && k >= n
                {
                    return self.err(
                        pos,
                        format!("array index {k} is out of range for {prefix} ({n} elements)"),
                    );
                }
                let at = self.guarded(idx, n, i, literal.is_some())?;
                Ok(Sx::Var {
                    prefix,
                    idx: Some(at),
                    shape: Shape {
                        sid: shape.sid,
                        len: None,
                    },
                })
            }
            Sx::Slice {
                var, idx, len, ty, ..
            } => {
                if let Some(k) = literal
                    && k >= len
                {
                    return self.err(
                        pos,
                        format!("array index {k} is out of range for {var} ({len} elements)"),
                    );
                }
                let at = self.guarded(Some(idx), len, i, literal.is_some())?;
                Ok(Sx::Leaf(index_expr(ident(&var, pos), at, pos), ty))
            }
            Sx::Array { elems } => match literal {
                Some(k) if (k as usize) < elems.len() => self.sx(&elems[k as usize].clone()),
                Some(k) => self.err(
                    pos,
                    format!(
                        "array index {k} is out of range for the array constructor ({} \
                         elements)",
                        elems.len()
                    ),
                ),
                None => {
                    let elems = elems.iter().map(|e| self.sx(e)).collect::<R<Vec<_>>>()?;
                    Ok(Sx::Pick { elems, k: i, pos })
                }
            },
            Sx::Pick { .. } | Sx::Select { .. } | Sx::Ctor { .. } => {
                self.err(pos, "a struct cannot be indexed")
            }
            Sx::Leaf(e, _) => Ok(Sx::Leaf(index_expr(e, i, pos), Type::None)),
        }
    }

    /// The combined index of element `k` of an `n`-element array at combined index
    /// `idx` of the arrays around it (`k` alone without them). A run-time `k` out of
    /// `0..n` gives -1, so that it cannot land in a neighbouring element of the
    /// flattened array: the run-time index rule (`docs/glsl-dialects.md`) then reads
    /// element 0 and writes nothing, as for any array.
    fn guarded(&mut self, idx: Option<Expr>, n: u32, k: Expr, literal: bool) -> R<Expr> {
        if idx.is_none() || literal {
            return Ok(combine(idx, n, k));
        }
        if self.has_effects(&k) {
            return self.err(
                k.pos,
                "an index inside an element of an array of structs cannot have side effects",
            );
        }
        let pos = k.pos;
        let kk = Expr {
            kind: ExprKind::Construct {
                ty: Type::Int,
                args: vec![k.clone()],
            },
            pos,
        };
        let cmp = |op, rhs: i32| Expr {
            kind: ExprKind::Binary(op, Box::new(kk.clone()), Box::new(int(rhs, pos))),
            pos,
        };
        let inside = Expr {
            kind: ExprKind::Binary(
                BinOp::And,
                Box::new(cmp(BinOp::Ge, 0)),
                Box::new(cmp(BinOp::Lt, n as i32)),
            ),
            pos,
        };
        Ok(Expr {
            kind: ExprKind::Ternary(
                Box::new(inside),
                Box::new(combine(idx, n, k)),
                Box::new(int(-1, pos)),
            ),
            pos,
        })
    }

    /// One step into `base`.
    fn step(&mut self, base: Sx, step: &Step, pos: Pos) -> R<Sx> {
        let m = match step {
            Step::Elem(k) => return self.index(base, int(*k as i32, pos), pos),
            Step::Member(m) => m,
        };
        match base {
            Sx::Leaf(e, _) => match decode_swizzle(m) {
                Ok(lanes) => Ok(Sx::Leaf(
                    Expr {
                        kind: ExprKind::Swizzle(Box::new(e), lanes),
                        pos,
                    },
                    Type::None,
                )),
                Err(msg) => self.err(pos, msg),
            },
            Sx::Var { prefix, idx, shape } => {
                if shape.len.is_some() {
                    return self.err(
                        pos,
                        format!("'{m}': an array of structs has no members; index it first"),
                    );
                }
                let Some((ty, len)) = self.member(shape.sid, m) else {
                    return self.no_member(shape.sid, m, pos);
                };
                let name = format!("{prefix}.{m}");
                Ok(match (ty, len, idx) {
                    (Type::Struct(t), len, idx) => Sx::Var {
                        prefix: name,
                        idx,
                        shape: Shape { sid: t, len },
                    },
                    (ty, _, None) => Sx::Leaf(ident(&name, pos), ty),
                    (ty, None, Some(i)) => Sx::Leaf(index_expr(ident(&name, pos), i, pos), ty),
                    (ty, Some(len), Some(idx)) => Sx::Slice {
                        var: name,
                        idx,
                        len,
                        ty,
                    },
                })
            }
            Sx::Ctor { sid, args, .. } => {
                let def = &self.structs[sid as usize];
                let Some(k) = def.members.iter().position(|x| x.name == *m) else {
                    return self.no_member(sid, m, pos);
                };
                let ty = def.members[k].ty;
                let arg = args[k].clone();
                match ty {
                    Type::Struct(t) => {
                        let want = Some(Shape {
                            sid: t,
                            len: self.lens[sid as usize][k],
                        });
                        if self.shape_of(&arg) != want {
                            let name = self.struct_name(t);
                            return self.err(
                                arg.pos,
                                format!("type mismatch in constructor: member '{m}' is {name}"),
                            );
                        }
                        self.sx(&arg)
                    }
                    ty => {
                        if self.shape_of(&arg).is_some() {
                            return self.err(
                                arg.pos,
                                format!("type mismatch in constructor: member '{m}' is {ty}"),
                            );
                        }
                        let e = self.expr(&arg)?;
                        Ok(Sx::Leaf(e, ty))
                    }
                }
            }
            Sx::Array { .. } => self.err(
                pos,
                format!("'{m}': an array of structs has no members; index it first"),
            ),
            Sx::Pick {
                elems,
                k,
                pos: ppos,
            } => {
                let elems = elems
                    .into_iter()
                    .map(|e| self.step(e, step, pos))
                    .collect::<R<Vec<_>>>()?;
                self.pick(elems, k, ppos)
            }
            Sx::Select { c, a, b, pos: spos } => {
                let a = self.step(*a, step, pos)?;
                let b = self.step(*b, step, pos)?;
                Ok(match (a, b) {
                    (Sx::Leaf(x, t), Sx::Leaf(y, _)) => Sx::Leaf(
                        Expr {
                            kind: ExprKind::Ternary(Box::new(c), Box::new(x), Box::new(y)),
                            pos: spos,
                        },
                        t,
                    ),
                    (a, b) => Sx::Select {
                        c,
                        a: Box::new(a),
                        b: Box::new(b),
                        pos: spos,
                    },
                })
            }
            Sx::Slice { .. } => match decode_swizzle(m) {
                Ok(_) => self.err(pos, "an array cannot be swizzled"),
                Err(msg) => self.err(pos, msg),
            },
        }
    }

    /// Element `k` (run-time) of `elems`: a leaf when they are leaves.
    fn pick(&mut self, elems: Vec<Sx>, k: Expr, pos: Pos) -> R<Sx> {
        if elems.iter().all(|e| matches!(e, Sx::Leaf(..))) {
            let mut ty = Type::None;
            let mut args = Vec::new();
            for e in elems {
                if let Sx::Leaf(x, t) = e {
                    if t != Type::None {
                        ty = t;
                    }
                    args.push(x);
                }
            }
            if ty == Type::None {
                return self.err(
                    pos,
                    "a run-time index into a struct array constructor must be followed by \
                     a member",
                );
            }
            let n = args.len() as i32;
            let arr = Expr {
                kind: ExprKind::ArrayConstruct {
                    ty,
                    size: ArraySize {
                        len: Some(Box::new(int(n, pos))),
                        pos,
                    },
                    args,
                },
                pos,
            };
            return Ok(Sx::Leaf(index_expr(arr, k, pos), ty));
        }
        if elems
            .iter()
            .any(|e| matches!(e, Sx::Slice { .. } | Sx::Leaf(..)))
        {
            return self.err(
                pos,
                "a run-time index into a struct array constructor cannot be followed by an \
                 array member (copy the array into a variable first)",
            );
        }
        Ok(Sx::Pick { elems, k, pos })
    }

    fn no_member<T>(&mut self, sid: u16, m: &str, pos: Pos) -> R<T> {
        let name = self.struct_name(sid);
        self.err(pos, format!("{name} has no member '{m}'"))
    }

    /// The scalar, vector or matrix at `path` inside struct expression `sx`.
    fn leaf(&mut self, sx: &Sx, path: &[Step], pos: Pos) -> R<Expr> {
        let mut cur = sx.clone();
        for s in path {
            cur = self.step(cur, s, pos)?;
        }
        match cur {
            Sx::Leaf(e, _) => Ok(e),
            _ => self.err(pos, "internal error: a struct path did not end at a member"),
        }
    }

    /// Every scalar, vector and matrix of a struct value, in member order.
    fn leaves(&mut self, e: &Expr, shape: Shape) -> R<Vec<Expr>> {
        let paths = self.elem_paths(shape);
        if paths.len() > MAX_STRUCT_LEAVES {
            return self.err(
                e.pos,
                format!(
                    "{} has {} members (arrays counted by element); the limit is {MAX_STRUCT_LEAVES}",
                    self.struct_name(shape.sid),
                    paths.len()
                ),
            );
        }
        let sx = self.sx(e)?;
        paths.iter().map(|p| self.leaf(&sx, p, e.pos)).collect()
    }

    /// The values a struct expression gives the flattened variables of `shape`, one
    /// expression per variable (an array constructor for an array).
    fn var_values(&mut self, e: &Expr, shape: Shape) -> R<Vec<(LeafVar, Expr)>> {
        let sx = self.sx(e)?;
        let mut out = Vec::new();
        for lv in self.leaf_vars(shape.sid) {
            // Element paths of this variable, row-major.
            let mut paths: Vec<Vec<Step>> = vec![Vec::new()];
            if let Some(n) = shape.len {
                paths = (0..n).map(|k| vec![Step::Elem(k)]).collect();
            }
            for (m, len) in &lv.chain {
                let mut next = Vec::new();
                for p in &paths {
                    let mut q = p.clone();
                    q.push(Step::Member(m.clone()));
                    match len {
                        Some(n) => {
                            for k in 0..*n {
                                let mut r = q.clone();
                                r.push(Step::Elem(k));
                                next.push(r);
                            }
                        }
                        None => next.push(q),
                    }
                }
                paths = next;
            }
            let arrayed = shape.len.is_some() || lv.dims().next().is_some();
            let mut vals = Vec::new();
            for p in &paths {
                vals.push(self.leaf(&sx, p, e.pos)?);
            }
            let value = if arrayed {
                Expr {
                    kind: ExprKind::ArrayConstruct {
                        ty: lv.ty,
                        size: ArraySize {
                            len: Some(Box::new(int(vals.len() as i32, e.pos))),
                            pos: e.pos,
                        },
                        args: vals,
                    },
                    pos: e.pos,
                }
            } else {
                vals.pop().unwrap_or_else(|| int(0, e.pos))
            };
            out.push((lv, value));
        }
        Ok(out)
    }

    // ---- expressions ----

    /// Rewrite an expression whose value is not a struct.
    fn expr(&mut self, e: &Expr) -> R<Expr> {
        let pos = e.pos;
        let kind = match &e.kind {
            ExprKind::Field(..) | ExprKind::Index(..) => {
                if let Some(s) = self.shape_of(e) {
                    return self.err(
                        pos,
                        format!("a value of {} cannot be used here", self.shape_text(s)),
                    );
                }
                return match self.sx(e)? {
                    Sx::Leaf(x, _) => Ok(x),
                    Sx::Slice { .. } => self.err(
                        pos,
                        "an array member of an element of an array of structs can only be \
                         indexed",
                    ),
                    _ => self.err(pos, "a struct cannot be used here"),
                };
            }
            ExprKind::Length(b) => {
                if let Some(Shape { len: Some(n), .. }) = self.shape_of(b) {
                    return Ok(int(n as i32, pos));
                }
                if matches!(b.kind, ExprKind::Field(..) | ExprKind::Index(..))
                    && let Sx::Slice { len, .. } = self.sx(b)?
                {
                    return Ok(int(len as i32, pos));
                }
                ExprKind::Length(Box::new(self.expr(b)?))
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r)
                if self.shape_of(l).is_some() || self.shape_of(r).is_some() =>
            {
                return self.compare(*op, l, r, pos);
            }
            ExprKind::Binary(op, l, r) => {
                ExprKind::Binary(*op, Box::new(self.expr(l)?), Box::new(self.expr(r)?))
            }
            ExprKind::Unary(op, x) => ExprKind::Unary(*op, Box::new(self.expr(x)?)),
            ExprKind::Ternary(c, a, b) => ExprKind::Ternary(
                Box::new(self.expr(c)?),
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
            ),
            ExprKind::Swizzle(x, l) => ExprKind::Swizzle(Box::new(self.expr(x)?), l.clone()),
            ExprKind::Step(x, up, pre) => ExprKind::Step(Box::new(self.expr(x)?), *up, *pre),
            ExprKind::Assign { target, op, value } => {
                if self.shape_of(target).is_some() {
                    return self.err(
                        pos,
                        "assigning a whole struct is a statement: its value cannot be used",
                    );
                }
                ExprKind::Assign {
                    target: Box::new(self.expr(target)?),
                    op: *op,
                    value: Box::new(self.expr(value)?),
                }
            }
            ExprKind::Comma(a, b) => {
                ExprKind::Comma(Box::new(self.expr(a)?), Box::new(self.expr(b)?))
            }
            ExprKind::Call { name, args } => ExprKind::Call {
                name: name.clone(),
                args: self.call_args(args)?,
            },
            ExprKind::Construct { ty, args } => {
                if let Type::Struct(s) = ty {
                    let name = self.struct_name(*s);
                    return self.err(pos, format!("a value of {name} cannot be used here"));
                }
                ExprKind::Construct {
                    ty: *ty,
                    args: self.exprs(args)?,
                }
            }
            ExprKind::ArrayConstruct { ty, size, args } => {
                if let Type::Struct(s) = ty {
                    let name = self.struct_name(*s);
                    return self.err(pos, format!("an array of {name} cannot be used here"));
                }
                ExprKind::ArrayConstruct {
                    ty: *ty,
                    size: self.size(size)?,
                    args: self.exprs(args)?,
                }
            }
            ExprKind::Ident(n) => {
                if let Some(s) = self.lookup(n) {
                    // Arrays of structs and structs as whole values only appear where a
                    // struct is expected (assignments, arguments, comparisons).
                    return self.err(
                        pos,
                        format!("'{n}' is {}: it cannot be used here", self.shape_text(s)),
                    );
                }
                return Ok(e.clone());
            }
            _ => return Ok(e.clone()),
        };
        Ok(Expr { kind, pos })
    }

    /// An array size with its expression rewritten.
    fn size(&mut self, a: &ArraySize) -> R<ArraySize> {
        Ok(ArraySize {
            len: match &a.len {
                Some(e) => Some(Box::new(self.expr(e)?)),
                None => None,
            },
            pos: a.pos,
        })
    }

    fn sizes(&mut self, a: &Option<ArraySize>) -> R<Option<ArraySize>> {
        a.as_ref().map(|a| self.size(a)).transpose()
    }

    fn exprs(&mut self, es: &[Expr]) -> R<Vec<Expr>> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn shape_text(&self, s: Shape) -> String {
        match s.len {
            None => self.struct_name(s.sid),
            Some(n) => format!("an array of {n} {}", self.struct_name(s.sid)),
        }
    }

    /// `l == r` / `l != r` of two structs (or arrays of them): all members equal.
    fn compare(&mut self, op: BinOp, l: &Expr, r: &Expr, pos: Pos) -> R<Expr> {
        let (sl, sr) = (self.shape_of(l), self.shape_of(r));
        let Some(shape) = sl.filter(|_| sl == sr) else {
            return self.err(
                pos,
                format!("operator {}: the operands differ in type", op.text()),
            );
        };
        for e in [l, r] {
            if self.has_effects(e) {
                return self.err(
                    e.pos,
                    "an operand of a struct comparison cannot have side effects (each member \
                     is compared)",
                );
            }
        }
        let a = self.leaves(l, shape)?;
        let b = self.leaves(r, shape)?;
        let mut all: Option<Expr> = None;
        for (x, y) in a.into_iter().zip(b) {
            let eq = Expr {
                kind: ExprKind::Binary(BinOp::Eq, Box::new(x), Box::new(y)),
                pos,
            };
            // A vector member is equal when all its lanes are (`==` on vectors gives a
            // bool in GLSL already).
            all = Some(match all {
                None => eq,
                Some(prev) => Expr {
                    kind: ExprKind::Binary(BinOp::And, Box::new(prev), Box::new(eq)),
                    pos,
                },
            });
        }
        let all = all.unwrap_or(Expr {
            kind: ExprKind::Bool(true),
            pos,
        });
        Ok(match op {
            BinOp::Ne => Expr {
                kind: ExprKind::Unary(UnOp::Not, Box::new(all)),
                pos,
            },
            _ => all,
        })
    }

    /// The arguments of a call with struct arguments expanded into their flattened
    /// variables (in the order [`Pass::flat_params`] gives the parameters).
    fn call_args(&mut self, args: &[Expr]) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        for a in args {
            let Some(shape) = self.shape_of(a) else {
                out.push(self.expr(a)?);
                continue;
            };
            if self.has_effects(a) {
                return self.err(
                    a.pos,
                    "a struct argument cannot have side effects (each member is passed)",
                );
            }
            // A whole flattened variable passes its member variables themselves, so
            // that `out` and `inout` work; other values pass member values.
            if let ExprKind::Ident(n) = &a.kind {
                for lv in self.leaf_vars(shape.sid) {
                    out.push(ident(&format!("{n}{}", lv.suffix), a.pos));
                }
                continue;
            }
            for (_, v) in self.var_values(a, shape)? {
                out.push(v);
            }
        }
        Ok(out)
    }

    // ---- declarations ----

    /// The declarations a struct declaration `d` (of `shape`) becomes.
    fn flat_decls(&mut self, d: &Decl, shape: Shape) -> R<Vec<Decl>> {
        let values = match &d.init {
            Some(init) => {
                let s = self.shape_of(init);
                let ok = s.is_some_and(|s| {
                    s.sid == shape.sid
                        && (s.len == shape.len || d.array.as_ref().is_some_and(|a| a.len.is_none()))
                });
                if !ok {
                    return self.err(
                        init.pos,
                        format!(
                            "type mismatch in initialization: '{}' is {}",
                            d.name,
                            self.shape_text(shape)
                        ),
                    );
                }
                Some(self.var_values(init, shape)?)
            }
            None => None,
        };
        let mut out = Vec::new();
        let uniform = d.quals.storage == Storage::Uniform;
        for (k, lv) in self.leaf_vars(shape.sid).into_iter().enumerate() {
            let mut chain = vec![(d.name.clone(), shape.len)];
            chain.extend(lv.chain.iter().cloned());
            let total: u32 = chain.iter().filter_map(|(_, l)| *l).product();
            let arrayed = chain.iter().any(|(_, l)| l.is_some());
            let init = values.as_ref().map(|v| v[k].1.clone());
            // A variable made from an interface block is named in the interface by its
            // block (`lang/blocks.rs`): `inst.color` is `Block.color`.
            let root = d.iface_root.as_deref().unwrap_or(&d.name);
            let mut iface_names = Vec::new();
            if uniform {
                chain[0].0 = root.to_string();
                iface_names = interface_names(&chain);
            }
            let iface_root = match (&d.iface_root, iface_names.is_empty()) {
                (Some(r), true) => Some(format!("{r}{}", lv.suffix)),
                _ => None,
            };
            let mut quals = d.quals;
            if d.iface_root.is_some() {
                // An interface block member's own interpolation qualifier.
                let top = &lv.chain[0].0;
                let member = self.structs[shape.sid as usize]
                    .members
                    .iter()
                    .find(|m| &m.name == top);
                if let Some(q) = member.and_then(|m| m.interpolation) {
                    quals.interpolation = Some(q);
                }
            }
            out.push(Decl {
                quals,
                ty: lv.ty,
                ty_pos: d.ty_pos,
                name: format!("{}{}", d.name, lv.suffix),
                pos: d.pos,
                array: arrayed.then(|| ArraySize {
                    len: Some(Box::new(int(total as i32, d.pos))),
                    pos: d.pos,
                }),
                init,
                iface_names,
                iface_root,
            });
        }
        Ok(out)
    }

    /// The shape of declaration `d` when its type is a struct; checks its storage.
    fn decl_shape(&mut self, d: &Decl, global: bool) -> R<Option<Shape>> {
        let Type::Struct(sid) = d.ty else {
            return Ok(None);
        };
        let len = match &d.array {
            None => None,
            Some(a) => match (&a.len, &d.init) {
                (Some(e), _) => match self.const_int(e) {
                    Some(n) if (1..=256).contains(&n) => Some(n as u32),
                    _ => {
                        return self.err(
                            e.pos,
                            "the size of an array of structs must be a constant integer \
                             expression from 1 to 256",
                        );
                    }
                },
                (None, Some(init)) => match self.shape_of(init) {
                    Some(Shape { len: Some(n), .. }) => Some(n),
                    _ => {
                        return self.err(
                            init.pos,
                            "type mismatch in assignment: an array needs an array",
                        );
                    }
                },
                (None, None) => {
                    return self.err(a.pos, "an array without a size needs an initializer");
                }
            },
        };
        let q = d.quals.storage;
        let io = matches!(
            q,
            Storage::In | Storage::Out | Storage::Attribute | Storage::Varying
        );
        if global && io {
            if q == Storage::Attribute {
                return self.err(
                    d.ty_pos,
                    "vertex inputs cannot be structs (GLSL 1.30 §4.3.4)",
                );
            }
            if self.version < 150 {
                return self.err(
                    d.ty_pos,
                    format!(
                        "structs cannot be varyings before GLSL 1.50 (GLSL 1.10 §4.3.6, 1.30 \
                         §4.3.4 and §4.3.6); this shader is GLSL {}.{:02}",
                        self.version / 100,
                        self.version % 100
                    ),
                );
            }
            // An array of `in`/`out` blocks is one array per member (`lang/blocks.rs`).
            if len.is_some() && d.iface_root.is_none() {
                return self.err(d.ty_pos, "arrays of struct varyings are not supported");
            }
        }
        if self.struct_has_sampler(sid) && q != Storage::Uniform && global {
            return self.err(d.ty_pos, "a struct with a sampler member must be a uniform");
        }
        Ok(Some(Shape { sid, len }))
    }

    /// Whether evaluating `e` may change something: an assignment, `++`/`--`, or a
    /// call of a user function.
    fn has_effects(&self, e: &Expr) -> bool {
        e.has_effects(&|name| self.funcs.contains_key(name))
    }

    fn struct_has_sampler(&self, sid: u16) -> bool {
        self.leaf_vars(sid).iter().any(|l| l.ty.is_sampler())
    }

    // ---- items, functions, statements ----

    fn items(&mut self, items: Vec<Item>) -> Vec<Item> {
        let mut out = Vec::new();
        for item in items {
            match item {
                Item::Global(d) => match self.decl_shape(&d, true) {
                    Ok(None) => {
                        self.declare(&d.name, None);
                        let init = match &d.init {
                            Some(i) => match self.expr(i) {
                                Ok(i) => Some(i),
                                Err(_) => continue,
                            },
                            None => None,
                        };
                        let Ok(array) = self.sizes(&d.array) else {
                            continue;
                        };
                        out.push(Item::Global(Decl { init, array, ..d }));
                    }
                    Ok(Some(shape)) => {
                        self.declare(&d.name, Some(shape));
                        if let Ok(ds) = self.flat_decls(&d, shape) {
                            out.extend(ds.into_iter().map(Item::Global));
                        }
                    }
                    Err(_) => {}
                },
                Item::Function(f) => {
                    if let Ok(f) = self.function(f) {
                        out.push(Item::Function(f));
                    }
                }
                Item::Prototype(f) => {
                    if let Ok((params, ret)) = self.signature(&f) {
                        out.push(Item::Prototype(Function { params, ret, ..f }));
                    }
                }
                // The block pass ran before: no block is left.
                Item::Block(_) => {}
            }
        }
        out
    }

    /// Flattened parameters and return type of `f`.
    fn signature(&mut self, f: &Function) -> R<(Vec<Param>, Type)> {
        let mut params = Vec::new();
        for p in &f.params {
            let Type::Struct(sid) = p.ty else {
                let array = self.sizes(&p.array)?;
                params.push(Param { array, ..p.clone() });
                continue;
            };
            let len = match &p.array {
                None => None,
                Some(a) => match a.len.as_deref().and_then(|e| self.const_int(e)) {
                    Some(n) if (1..=256).contains(&n) => Some(n as u32),
                    _ => {
                        return self.err(a.pos, "array size must be a constant integer expression");
                    }
                },
            };
            for lv in self.leaf_vars(sid) {
                params.push(flat_param(p, &lv, len));
            }
        }
        let mut ret = f.ret;
        if let Type::Struct(sid) = f.ret {
            for lv in self.leaf_vars(sid) {
                let p = Param {
                    ty: lv.ty,
                    name: "$ret".into(),
                    pos: f.ret_pos,
                    dir: ParamDir::Out,
                    is_const: false,
                    array: None,
                };
                params.push(flat_param(&p, &lv, None));
            }
            ret = Type::Void;
        }
        Ok((params, ret))
    }

    fn function(&mut self, f: Function) -> R<Function> {
        let (params, ret) = self.signature(&f)?;
        self.scopes.push(HashMap::new());
        for p in &f.params {
            let shape = match p.ty {
                Type::Struct(sid) => Some(Shape {
                    sid,
                    len: p
                        .array
                        .as_ref()
                        .and_then(|a| a.len.as_deref())
                        .and_then(|e| self.const_int(e))
                        .map(|n| n as u32),
                }),
                _ => None,
            };
            self.declare(&p.name, shape);
        }
        self.ret = match f.ret {
            Type::Struct(sid) => Some(Shape { sid, len: None }),
            _ => None,
        };
        if let Some(shape) = self.ret {
            self.declare("$ret", Some(shape));
        }
        let body = self.block(f.body);
        self.scopes.pop();
        self.ret = None;
        Ok(Function {
            params,
            ret,
            body,
            ..f
        })
    }

    fn block(&mut self, stmts: Vec<Stmt>) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in stmts {
            let _ = self.stmt(s, &mut out);
        }
        out
    }

    fn scoped(&mut self, s: Stmt) -> Stmt {
        self.scopes.push(HashMap::new());
        let pos = s.pos;
        let mut out = Vec::new();
        let _ = self.stmt(s, &mut out);
        self.scopes.pop();
        if out.len() == 1 {
            out.pop().unwrap_or(Stmt {
                kind: StmtKind::Empty,
                pos,
            })
        } else {
            Stmt {
                kind: StmtKind::Block(out),
                pos,
            }
        }
    }

    /// Evaluate the struct-returning calls in `e` into hidden variables, appending
    /// their statements to `out`; returns `e` with the calls replaced.
    fn hoist(&mut self, e: &Expr, out: &mut Vec<Stmt>) -> R<Expr> {
        let mut e = e.clone();
        self.hoist_in(&mut e, out, false)?;
        Ok(e)
    }

    fn hoist_in(&mut self, e: &mut Expr, out: &mut Vec<Stmt>, conditional: bool) -> R<()> {
        let pos = e.pos;
        let struct_call = matches!(e.kind, ExprKind::Call { .. }) && self.shape_of(e).is_some();
        match &mut e.kind {
            ExprKind::Call { args, .. } => {
                for a in args.iter_mut() {
                    self.hoist_in(a, out, conditional)?;
                }
            }
            ExprKind::Binary(op, l, r) => {
                let cond = conditional || matches!(op, BinOp::And | BinOp::Or);
                self.hoist_in(l, out, conditional)?;
                self.hoist_in(r, out, cond)?;
            }
            ExprKind::Ternary(c, a, b) => {
                self.hoist_in(c, out, conditional)?;
                self.hoist_in(a, out, true)?;
                self.hoist_in(b, out, true)?;
            }
            ExprKind::Unary(_, x)
            | ExprKind::Swizzle(x, _)
            | ExprKind::Field(x, _)
            | ExprKind::Length(x)
            | ExprKind::Step(x, _, _) => self.hoist_in(x, out, conditional)?,
            ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
                self.hoist_in(a, out, conditional)?;
                self.hoist_in(b, out, conditional)?;
            }
            ExprKind::Assign { target, value, .. } => {
                self.hoist_in(target, out, conditional)?;
                self.hoist_in(value, out, conditional)?;
            }
            ExprKind::Construct { args, .. } | ExprKind::ArrayConstruct { args, .. } => {
                for a in args.iter_mut() {
                    self.hoist_in(a, out, conditional)?;
                }
            }
            _ => {}
        }
        if !struct_call {
            return Ok(());
        }
        if conditional {
            return self.err(
                pos,
                "a call returning a struct must be evaluated unconditionally and once: not \
                 in a loop condition or step, nor an operand of &&, || or ?:",
            );
        }
        let Some(shape) = self.shape_of(e) else {
            return Ok(());
        };
        self.hidden += 1;
        let name = format!("$r{}", self.hidden);
        let ExprKind::Call { name: fname, args } = &e.kind else {
            return Ok(());
        };
        let mut args = self.call_args(args)?;
        for lv in self.leaf_vars(shape.sid) {
            args.push(ident(&format!("{name}{}", lv.suffix), pos));
        }
        let decl = Decl {
            quals: super::ast::Qualifiers {
                storage: Storage::None,
                storage_pos: pos,
                location: None,
                index: None,
                layout_pos: None,
                interpolation: None,
                block_layout: None,
                matrix_layout: None,
                precision: None,
                centroid: None,
                invariant: None,
            },
            ty: Type::Struct(shape.sid),
            ty_pos: pos,
            name: name.clone(),
            pos,
            array: None,
            init: None,
            iface_names: Vec::new(),
            iface_root: None,
        };
        self.declare(&name, Some(shape));
        for d in self.flat_decls(&decl, shape)? {
            out.push(Stmt {
                kind: StmtKind::Decl(d),
                pos,
            });
        }
        out.push(Stmt {
            kind: StmtKind::Expr(Expr {
                kind: ExprKind::Call {
                    name: fname.clone(),
                    args,
                },
                pos,
            }),
            pos,
        });
        *e = ident(&name, pos);
        Ok(())
    }

    /// Assign struct value `value` to struct target `target` (`pos`: the statement).
    fn struct_assign(
        &mut self,
        target: &Expr,
        value: &Expr,
        pos: Pos,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let (st, sv) = (self.shape_of(target), self.shape_of(value));
        let Some(shape) = st else {
            return self.err(pos, "internal error: not a struct target");
        };
        if sv != st {
            return self.err(
                value.pos,
                format!(
                    "type mismatch in assignment: the target is {}",
                    self.shape_text(shape)
                ),
            );
        }
        if self.has_effects(target) {
            return self.err(
                target.pos,
                "the target of a struct assignment cannot have side effects (each member is \
                 assigned)",
            );
        }
        let value = self.hoist(value, out)?;
        if self.has_effects(&value) {
            return self.err(
                value.pos,
                "the value of a struct assignment cannot have side effects (each member is \
                 read)",
            );
        }
        let targets = self.leaves(target, shape)?;
        let values = self.leaves(&value, shape)?;
        let mut body = Vec::new();
        for (t, v) in targets.into_iter().zip(values) {
            body.push(Stmt {
                kind: StmtKind::Assign {
                    target: t,
                    op: AssignOp::Set,
                    value: v,
                },
                pos,
            });
        }
        out.push(Stmt {
            kind: StmtKind::Block(body),
            pos,
        });
        Ok(())
    }

    fn stmt(&mut self, s: Stmt, out: &mut Vec<Stmt>) -> R<()> {
        let pos = s.pos;
        let kind = match s.kind {
            StmtKind::Block(stmts) => {
                self.scopes.push(HashMap::new());
                let b = self.block(stmts);
                self.scopes.pop();
                StmtKind::Block(b)
            }
            StmtKind::Decl(d) => {
                let shape = self.decl_shape(&d, false);
                match shape {
                    Ok(None) => {
                        let init = match &d.init {
                            Some(i) => {
                                let i = self.hoist(i, out);
                                self.declare(&d.name, None);
                                Some(self.expr(&i?)?)
                            }
                            None => None,
                        };
                        self.declare(&d.name, None);
                        let array = self.sizes(&d.array)?;
                        StmtKind::Decl(Decl { init, array, ..d })
                    }
                    Ok(Some(shape)) => {
                        let init = match &d.init {
                            Some(i) => Some(self.hoist(i, out)?),
                            None => None,
                        };
                        if let Some(i) = &init
                            && self.has_effects(i)
                        {
                            return self.err(
                                i.pos,
                                "a struct initializer cannot have side effects (each member \
                                 is read)",
                            );
                        }
                        let d = Decl { init, ..d };
                        let r = self.flat_decls(&d, shape);
                        self.declare(&d.name, Some(shape));
                        for fd in r? {
                            out.push(Stmt {
                                kind: StmtKind::Decl(fd),
                                pos,
                            });
                        }
                        return Ok(());
                    }
                    Err(e) => {
                        self.declare(&d.name, None);
                        return Err(e);
                    }
                }
            }
            StmtKind::Assign { target, op, value } => {
                if self.shape_of(&target).is_some() {
                    if op != AssignOp::Set {
                        return self.err(pos, "compound assignment to a struct");
                    }
                    return self.struct_assign(&target, &value, pos, out);
                }
                let value = self.hoist(&value, out)?;
                StmtKind::Assign {
                    target: self.expr(&target)?,
                    op,
                    value: self.expr(&value)?,
                }
            }
            StmtKind::Step { target, up } => StmtKind::Step {
                target: self.expr(&target)?,
                up,
            },
            StmtKind::Expr(e) => {
                if let ExprKind::Assign {
                    target,
                    op: AssignOp::Set,
                    value,
                } = &e.kind
                    && self.shape_of(target).is_some()
                {
                    return self.struct_assign(target, value, pos, out);
                }
                if self.shape_of(&e).is_some() && matches!(e.kind, ExprKind::Call { .. }) {
                    // A struct-returning call whose value is dropped.
                    self.hoist(&e, out)?;
                    return Ok(());
                }
                let e = self.hoist(&e, out)?;
                StmtKind::Expr(self.expr(&e)?)
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.hoist(&cond, out)?;
                StmtKind::If {
                    cond: self.expr(&cond)?,
                    then: Box::new(self.scoped(*then)),
                    otherwise: otherwise.map(|o| Box::new(self.scoped(*o))),
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
                do_while,
            } => {
                self.scopes.push(HashMap::new());
                let mut pre = Vec::new();
                if let Some(i) = init {
                    let _ = self.stmt(*i, &mut pre);
                }
                let r = (|| -> R<StmtKind> {
                    let cond = match &cond {
                        Some(c) => {
                            let mut none = Vec::new();
                            let mut c = c.clone();
                            self.hoist_in(&mut c, &mut none, true)?;
                            Some(self.expr(&c)?)
                        }
                        None => None,
                    };
                    let step = match step {
                        Some(st) => {
                            let mut v = Vec::new();
                            self.stmt(*st, &mut v)?;
                            if v.len() != 1 {
                                return self.err(pos, "a loop step cannot assign a whole struct");
                            }
                            v.pop().map(Box::new)
                        }
                        None => None,
                    };
                    let body = Box::new(self.scoped(*body));
                    // The init: one statement stays in the loop (its scope); several (a
                    // struct declaration) go into a block around it.
                    let init = if pre.len() == 1 {
                        pre.pop().map(Box::new)
                    } else {
                        None
                    };
                    Ok(StmtKind::For {
                        init,
                        cond,
                        step,
                        body,
                        do_while,
                    })
                })();
                self.scopes.pop();
                let kind = r?;
                if !pre.is_empty() {
                    pre.push(Stmt { kind, pos });
                    StmtKind::Block(pre)
                } else {
                    kind
                }
            }
            StmtKind::Switch { selector, body } => {
                let selector = self.hoist(&selector, out)?;
                self.scopes.push(HashMap::new());
                let body = self.block(body);
                self.scopes.pop();
                StmtKind::Switch {
                    selector: self.expr(&selector)?,
                    body,
                }
            }
            StmtKind::Case(Some(e)) => StmtKind::Case(Some(self.expr(&e)?)),
            StmtKind::Return(Some(e)) => {
                if let Some(shape) = self.ret {
                    let target = ident("$ret", pos);
                    if self.shape_of(&e) != Some(shape) {
                        return self.err(e.pos, "function return type mismatch");
                    }
                    let mut body = Vec::new();
                    self.struct_assign(&target, &e, pos, &mut body)?;
                    body.push(Stmt {
                        kind: StmtKind::Return(None),
                        pos,
                    });
                    StmtKind::Block(body)
                } else {
                    let e = self.hoist(&e, out)?;
                    StmtKind::Return(Some(self.expr(&e)?))
                }
            }
            k => k,
        };
        out.push(Stmt { kind, pos });
        Ok(())
    }
}

/// The parameter for flattened variable `lv` of struct parameter `p` (an array of
/// `len` structs when `len` is set).
fn flat_param(p: &Param, lv: &LeafVar, len: Option<u32>) -> Param {
    let total: u32 = len.into_iter().chain(lv.dims()).product();
    let arrayed = len.is_some() || lv.dims().next().is_some();
    Param {
        ty: lv.ty,
        name: format!("{}{}", p.name, lv.suffix),
        pos: p.pos,
        dir: p.dir,
        is_const: p.is_const,
        array: arrayed.then(|| ArraySize {
            len: Some(Box::new(int(total as i32, p.pos))),
            pos: p.pos,
        }),
    }
}

/// The OpenGL names of a flattened uniform whose chain (variable, then members, each
/// with its array length) passes an array before its last member: one name per
/// combination of those indexes (`s[0].v`, `s[1].v`), each covering the last member's
/// elements. Empty when no such array exists (the flattened name is OpenGL's).
fn interface_names(chain: &[(String, Option<u32>)]) -> Vec<InterfaceName> {
    let Some(((_, last_len), outer)) = chain.split_last() else {
        return Vec::new();
    };
    if outer.iter().all(|(_, l)| l.is_none()) {
        return Vec::new();
    }
    let mut names = vec![String::new()];
    for (k, (m, len)) in outer.iter().enumerate() {
        let sep = if k == 0 { "" } else { "." };
        names = match len {
            None => names.into_iter().map(|n| format!("{n}{sep}{m}")).collect(),
            Some(l) => names
                .into_iter()
                .flat_map(|n| (0..*l).map(move |i| format!("{n}{sep}{m}[{i}]")))
                .collect(),
        };
    }
    let last = &chain[chain.len() - 1].0;
    let per = last_len.unwrap_or(1);
    names
        .into_iter()
        .enumerate()
        .map(|(k, n)| InterfaceName {
            name: format!("{n}.{last}"),
            first: (k as u32 * per) as u16,
            len: last_len.map(|l| l as u16),
        })
        .collect()
}

/// `idx * n + k` (just `k` without `idx`), folded for literals; a non-literal index is
/// converted with `int(...)` so that int and uint indexes combine.
fn combine(idx: Option<Expr>, n: u32, k: Expr) -> Expr {
    let pos = k.pos;
    let Some(idx) = idx else {
        return k;
    };
    let lit = |e: &Expr| match e.kind {
        ExprKind::Int(v) => Some(v as i64),
        ExprKind::UInt(v) => Some(v as i64),
        _ => None,
    };
    if let (Some(a), Some(b)) = (lit(&idx), lit(&k))
        && let Ok(v) = i32::try_from(a * n as i64 + b)
    {
        return int(v, pos);
    }
    let as_int = |e: Expr| match e.kind {
        ExprKind::Int(_) => e,
        _ => Expr {
            pos: e.pos,
            kind: ExprKind::Construct {
                ty: Type::Int,
                args: vec![e],
            },
        },
    };
    let scaled = Expr {
        kind: ExprKind::Binary(
            BinOp::Mul,
            Box::new(as_int(idx)),
            Box::new(int(n as i32, pos)),
        ),
        pos,
    };
    Expr {
        kind: ExprKind::Binary(BinOp::Add, Box::new(scaled), Box::new(as_int(k))),
        pos,
    }
}

fn int(v: i32, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Int(v),
        pos,
    }
}

fn ident(name: &str, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Ident(name.to_string()),
        pos,
    }
}

fn index_expr(base: Expr, i: Expr, pos: Pos) -> Expr {
    Expr {
        kind: ExprKind::Index(Box::new(base), Box::new(i)),
        pos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_names_follow_opengl() {
        let chain = vec![("s".to_string(), Some(2)), ("v".to_string(), Some(3))];
        let names = interface_names(&chain);
        assert_eq!(
            names,
            vec![
                InterfaceName {
                    name: "s[0].v".into(),
                    first: 0,
                    len: Some(3)
                },
                InterfaceName {
                    name: "s[1].v".into(),
                    first: 3,
                    len: Some(3)
                },
            ]
        );
        let plain = vec![("s".to_string(), None), ("v".to_string(), Some(3))];
        assert!(interface_names(&plain).is_empty());
        let nested = vec![
            ("l".to_string(), Some(2)),
            ("t".to_string(), None),
            ("f".to_string(), None),
        ];
        let n: Vec<String> = interface_names(&nested)
            .into_iter()
            .map(|n| n.name)
            .collect();
        assert_eq!(n, vec!["l[0].t.f", "l[1].t.f"]);
    }
}
