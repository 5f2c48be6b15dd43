//! The program generator: valid GLSL 3.30 fragment shaders, the same program for the
//! same seed.
//!
//! Values are kept where GLSL gives one answer: divisors are `abs(y) + 0.5` or
//! `(y & 7) + 1`, `exp`/`pow` arguments are clamped, `log`/`sqrt` take `abs(x) + 0.5`
//! or `abs(x)`, float → int conversions clamp first (GLSL 1.30 §5.4.1 leaves
//! out-of-range ones undefined), `%` takes non-negative operands (§5.9), shift counts
//! are masked below 32, `smoothstep`/`clamp` edges are ordered literals, run-time
//! indexes are clamped into range. Integer `+ - *` wrap, which GLSL 1.30 §4.1.3 defines.
//! Those wrappers are guarded nodes: the reducer never strips them.

use crate::ast::{Expr, Func, Program, Qual, Stmt, Ty, Uniform};
use std::collections::BTreeSet;

/// A variable in scope.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    writable: bool,
}

/// An array in scope: element `k` is `{prefix}[k]{suffix}`.
#[derive(Clone, Debug)]
struct Arr {
    prefix: String,
    suffix: String,
    ty: Ty,
    len: u32,
    writable: bool,
}

#[derive(Clone, Debug)]
struct Sig {
    name: String,
    ret: Ty,
    params: Vec<(Qual, Ty)>,
}

/// The generator state for one program.
pub struct Gen {
    rng: fastrand::Rng,
    vars: Vec<Vec<Var>>,
    arrs: Vec<Vec<Arr>>,
    funcs: Vec<Sig>,
    next: u32,
    loop_depth: u32,
    in_func: bool,
    /// No user calls (struct initializers: the front end refuses calls there,
    /// docs/robustness.md "Differential testing", finding 1).
    no_calls: bool,
    /// Constructs used so far (operator and built-in names, statement kinds).
    pub covered: BTreeSet<&'static str>,
}

const FLOAT_UNIFORM_SWIZZLES: &[&str] = &["x", "y", "z", "w"];

impl Gen {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: fastrand::Rng::with_seed(seed),
            vars: vec![vec![]],
            arrs: vec![vec![]],
            funcs: vec![],
            next: 0,
            loop_depth: 0,
            in_func: false,
            no_calls: false,
            covered: BTreeSet::new(),
        }
    }

    fn name(&mut self, base: &str) -> String {
        self.next += 1;
        format!("{base}{}", self.next)
    }

    fn chance(&mut self, p: f32) -> bool {
        self.rng.f32() < p
    }

    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.rng.usize(..v.len())]
    }

    fn mark(&mut self, what: &'static str) {
        self.covered.insert(what);
    }

    fn any_ty(&mut self) -> Ty {
        let n = self.rng.u8(2..=4);
        match self.rng.u32(0..20) {
            0..=5 => Ty::F,
            6..=10 => Ty::V(n),
            11..=13 => Ty::I,
            14..=15 => Ty::IV(n),
            16 => Ty::U,
            17 => Ty::B,
            _ => Ty::M(n),
        }
    }

    fn float_lit(&mut self) -> String {
        if self.chance(0.2) {
            // 3.14159 on purpose: near π, where SIN/COS range reduction works hardest
            // (and the seeds in docs/robustness.md rely on this table).
            #[allow(clippy::approx_constant)]
            let v = [0.1f32, 0.3, 1.7, 2.5, 0.7, 3.14159, 0.01][self.rng.usize(..7)];
            let v = if self.chance(0.5) { -v } else { v };
            return format!("{v:?}");
        }
        let v = self.rng.i32(-32..=32) as f32 / 8.0;
        format!("{v:?}")
    }

    fn vars_of(&self, ty: Ty, writable: bool) -> Vec<Var> {
        self.vars
            .iter()
            .flatten()
            .filter(|v| v.ty == ty && (!writable || v.writable))
            .cloned()
            .collect()
    }

    fn arrs_of(&self, ty: Ty, writable: bool) -> Vec<Arr> {
        self.arrs
            .iter()
            .flatten()
            .filter(|a| a.ty == ty && (!writable || a.writable))
            .cloned()
            .collect()
    }

    fn swizzle(&mut self, from: u8, n: u8, distinct: bool) -> String {
        let sets = [
            ["x", "y", "z", "w"],
            ["r", "g", "b", "a"],
            ["s", "t", "p", "q"],
        ];
        let set = sets[self.rng.usize(..3)];
        let mut idx: Vec<usize> = (0..from as usize).collect();
        self.rng.shuffle(&mut idx);
        (0..n as usize)
            .map(|k| {
                if distinct {
                    set[idx[k]]
                } else {
                    set[self.rng.usize(..from as usize)]
                }
            })
            .collect()
    }

    /// A leaf of type `ty`: a variable, a literal, a uniform or input component.
    fn leaf(&mut self, ty: Ty) -> Expr {
        let vars = self.vars_of(ty, false);
        if !vars.is_empty() && self.chance(0.55) {
            let v = self.pick(&vars).name.clone();
            return Expr::leaf(v, ty);
        }
        let arrs = self.arrs_of(ty, false);
        if !arrs.is_empty() && self.chance(0.3) {
            let a = self.pick(&arrs).clone();
            let k = self.rng.u32(0..a.len);
            self.mark("array element (constant index)");
            return Expr::leaf(format!("{}[{k}]{}", a.prefix, a.suffix), ty);
        }
        match ty {
            Ty::F => match self.rng.u32(0..6) {
                0 | 1 => Expr::leaf(self.float_lit(), ty),
                2 => {
                    let u = if self.chance(0.5) { "u0" } else { "u1" };
                    let s = *self.pick(FLOAT_UNIFORM_SWIZZLES);
                    Expr::leaf(format!("{u}.{s}"), ty)
                }
                3 => {
                    self.mark("input varying");
                    let s = *self.pick(FLOAT_UNIFORM_SWIZZLES);
                    Expr::leaf(format!("vv.{s}"), ty)
                }
                4 => {
                    self.mark("gl_FragCoord");
                    let s = *self.pick(&["x", "y"]);
                    Expr::leaf(format!("gl_FragCoord.{s}"), ty)
                }
                _ => Expr::leaf("uf", ty),
            },
            Ty::V(n) => match self.rng.u32(0..4) {
                0 => {
                    let l = self.float_lit();
                    Expr::leaf(format!("vec{n}({l})"), ty)
                }
                1 => {
                    let s = self.swizzle(4, n, false);
                    self.mark("swizzle");
                    Expr::leaf(format!("vv.{s}"), ty)
                }
                _ => {
                    let u = if self.chance(0.5) { "u0" } else { "u1" };
                    let s = self.swizzle(4, n, false);
                    self.mark("swizzle");
                    Expr::leaf(format!("{u}.{s}"), ty)
                }
            },
            Ty::I => match self.rng.u32(0..5) {
                0 | 1 => Expr::leaf(format!("{}", self.rng.i32(-20..=20)), ty),
                2 => {
                    let s = *self.pick(FLOAT_UNIFORM_SWIZZLES);
                    Expr::leaf(format!("ui.{s}"), ty)
                }
                3 => Expr::leaf("one", ty),
                _ => {
                    let loops = self.vars_of(Ty::I, false);
                    if let Some(v) = loops.iter().find(|v| !v.writable) {
                        Expr::leaf(v.name.clone(), ty)
                    } else {
                        Expr::leaf("zero", ty)
                    }
                }
            },
            Ty::IV(n) => {
                if self.chance(0.5) {
                    let s = self.swizzle(4, n, false);
                    Expr::leaf(format!("ui.{s}"), ty)
                } else {
                    let k = self.rng.i32(-9..=9);
                    Expr::leaf(format!("ivec{n}({k})"), ty)
                }
            }
            Ty::U => {
                if self.chance(0.5) {
                    Expr::leaf("uu", ty)
                } else {
                    Expr::leaf(format!("{}u", self.rng.u32(0..=40)), ty)
                }
            }
            Ty::B => Expr::leaf(if self.chance(0.5) { "true" } else { "false" }, ty),
            Ty::M(n) => {
                let l = self.float_lit();
                Expr::leaf(format!("mat{n}({l})"), ty)
            }
        }
    }

    /// An expression of type `ty` at most `depth` deep.
    pub fn expr(&mut self, ty: Ty, depth: u32) -> Expr {
        if depth == 0 || self.chance(0.25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Ty::F => self.float_node(d),
            Ty::V(n) => self.vec_node(n, d),
            Ty::I => self.int_node(d),
            Ty::IV(n) => self.ivec_node(n, d),
            Ty::U => self.uint_node(d),
            Ty::B => self.bool_node(d),
            Ty::M(n) => self.mat_node(n, d),
        }
    }

    fn bin(&mut self, ty: Ty, op: &'static str, a: Expr, b: Expr) -> Expr {
        self.mark(op);
        let mid = format!(" {op} ");
        Expr::node(ty, &["(", &mid, ")"], vec![a, b])
    }

    fn un(&mut self, ty: Ty, f: &'static str, a: Expr) -> Expr {
        self.mark(f);
        Expr::call(ty, f, vec![a])
    }

    fn ternary(&mut self, ty: Ty, d: u32) -> Expr {
        self.mark("?:");
        let c = self.expr(Ty::B, d);
        let a = self.expr(ty, d);
        let b = self.expr(ty, d);
        Expr::node(ty, &["(", " ? ", " : ", ")"], vec![c, a, b])
    }

    /// A run-time index in `0..len`, clamped.
    fn index(&mut self, len: u32, d: u32) -> Expr {
        self.mark("run-time index");
        let i = self.expr(Ty::I, d.min(1));
        Expr::guarded(Ty::I, &["clamp(", &format!(", 0, {})", len - 1)], vec![i])
    }

    fn user_call(&mut self, ty: Ty, d: u32) -> Option<Expr> {
        if self.no_calls {
            return None;
        }
        let cands: Vec<Sig> = self
            .funcs
            .iter()
            .filter(|f| f.ret == ty && f.params.iter().all(|p| p.0 == Qual::In))
            .cloned()
            .collect();
        if cands.is_empty() {
            return None;
        }
        let f = self.pick(&cands).clone();
        self.mark("user function call");
        let kids = f.params.iter().map(|p| self.expr(p.1, d.min(1))).collect();
        let mut e = Expr::call(ty, &f.name, kids);
        if let Expr::Node { call, .. } = &mut e {
            *call = true;
        }
        Some(e)
    }

    fn float_node(&mut self, d: u32) -> Expr {
        let f = Ty::F;
        match self.rng.u32(0..40) {
            0..=2 => {
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                let op = *self.pick(&["+", "-", "*"]);
                self.bin(f, op, a, b)
            }
            3 => {
                self.mark("/");
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                Expr::guarded(f, &["(", " / (abs(", ") + 0.5))"], vec![a, b])
            }
            4 => {
                self.mark("unary -");
                let a = self.expr(f, d);
                Expr::node(f, &["(-(", "))"], vec![a])
            }
            5 => {
                let n = *self.pick(&[
                    "sin",
                    "cos",
                    "atan",
                    "abs",
                    "sign",
                    "floor",
                    "ceil",
                    "fract",
                    "trunc",
                    "round",
                    "roundEven",
                    "radians",
                    "degrees",
                ]);
                let a = self.expr(f, d);
                self.un(f, n, a)
            }
            6 => {
                let (n, lo, hi) = *self.pick(&[
                    ("exp", -4.0, 4.0),
                    ("exp2", -5.0, 5.0),
                    ("tan", -1.2, 1.2),
                    ("asin", -1.0, 1.0),
                    ("acos", -1.0, 1.0),
                    ("sinh", -3.0, 3.0),
                    ("cosh", -3.0, 3.0),
                    ("tanh", -3.0, 3.0),
                ]);
                self.mark(n);
                let a = self.expr(f, d);
                Expr::guarded(
                    f,
                    &[&format!("{n}(clamp("), &format!(", {lo:?}, {hi:?}))")],
                    vec![a],
                )
            }
            7 => {
                let n = *self.pick(&["log", "log2", "sqrt", "inversesqrt"]);
                self.mark(n);
                let a = self.expr(f, d);
                Expr::guarded(f, &[&format!("{n}(abs("), ") + 0.5)"], vec![a])
            }
            8 => {
                self.mark("pow");
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                Expr::guarded(
                    f,
                    &["pow(abs(", ") + 0.5, clamp(", ", -3.0, 3.0))"],
                    vec![a, b],
                )
            }
            9 => {
                self.mark("mod");
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                Expr::guarded(f, &["mod(", ", abs(", ") + 0.5)"], vec![a, b])
            }
            10 => {
                self.mark("atan2");
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                Expr::guarded(f, &["atan(", ", abs(", ") + 0.25)"], vec![a, b])
            }
            11 | 12 => {
                let n = *self.pick(&["min", "max", "step"]);
                self.mark(n);
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                Expr::call(f, n, vec![a, b])
            }
            13 => {
                self.mark("clamp");
                let a = self.expr(f, d);
                Expr::guarded(f, &["clamp(", ", -2.0, 2.0)"], vec![a])
            }
            14 => {
                self.mark("mix");
                let a = self.expr(f, d);
                let b = self.expr(f, d);
                let t = self.expr(f, d);
                Expr::call(f, "mix", vec![a, b, t])
            }
            15 => {
                self.mark("smoothstep");
                let a = self.expr(f, d);
                Expr::guarded(f, &["smoothstep(-1.0, 2.0, ", ")"], vec![a])
            }
            16 | 17 => {
                let n = self.rng.u8(2..=4);
                let v = Ty::V(n);
                match self.rng.u32(0..3) {
                    0 => {
                        self.mark("length");
                        let a = self.expr(v, d);
                        Expr::call(f, "length", vec![a])
                    }
                    1 => {
                        self.mark("distance");
                        let a = self.expr(v, d);
                        let b = self.expr(v, d);
                        Expr::call(f, "distance", vec![a, b])
                    }
                    _ => {
                        self.mark("dot");
                        let a = self.expr(v, d);
                        let b = self.expr(v, d);
                        Expr::call(f, "dot", vec![a, b])
                    }
                }
            }
            18 | 19 => {
                let n = self.rng.u8(2..=4);
                let a = self.expr(Ty::V(n), d);
                let s = self.swizzle(n, 1, true);
                self.mark("swizzle");
                Expr::node(f, &["(", &format!(").{s}")], vec![a])
            }
            20 => {
                let n = self.rng.u8(2..=4);
                let a = self.expr(Ty::V(n), d);
                let i = self.index(n as u32, d);
                self.mark("vector run-time index");
                Expr::node(f, &["(", ")[", "]"], vec![a, i])
            }
            21 => {
                let n = self.rng.u8(2..=4);
                let m = self.expr(Ty::M(n), d);
                let (c, r) = (self.rng.u8(0..n), self.rng.u8(0..n));
                self.mark("matrix element");
                Expr::node(f, &["(", &format!(")[{c}][{r}]")], vec![m])
            }
            22 => {
                self.mark("float(int)");
                let a = self.expr(Ty::I, d);
                Expr::call(f, "float", vec![a])
            }
            23 => {
                self.mark("float(uint)");
                let a = self.expr(Ty::U, d);
                Expr::call(f, "float", vec![a])
            }
            24 => self.ternary(f, d),
            25 | 26 => {
                let arrs = self.arrs_of(f, false);
                if arrs.is_empty() {
                    return self.leaf(f);
                }
                let a = self.pick(&arrs).clone();
                let i = self.index(a.len, d);
                Expr::node(
                    f,
                    &[&format!("{}[", a.prefix), &format!("]{}", a.suffix)],
                    vec![i],
                )
            }
            27 => {
                let n = self.rng.u8(2..=3);
                self.mark("determinant");
                let m = self.expr(Ty::M(n), d);
                Expr::call(f, "determinant", vec![m])
            }
            28 | 29 => self.user_call(f, d).unwrap_or_else(|| self.leaf(f)),
            30 => {
                self.mark("intBitsToFloat");
                // Small patterns only: the result is a denormal or small normal, never NaN.
                let a = self.expr(Ty::I, d);
                Expr::guarded(
                    f,
                    &["intBitsToFloat((", " & 0x3FFFFFFF) | 0x3F000000)"],
                    vec![a],
                )
            }
            _ => self.leaf(f),
        }
    }

    fn vec_node(&mut self, n: u8, d: u32) -> Expr {
        let v = Ty::V(n);
        match self.rng.u32(0..30) {
            0..=2 => {
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                let op = *self.pick(&["+", "-", "*"]);
                self.bin(v, op, a, b)
            }
            3 => {
                let a = self.expr(v, d);
                let b = self.expr(Ty::F, d);
                self.mark("vec * float");
                if self.chance(0.5) {
                    Expr::node(v, &["(", " * ", ")"], vec![a, b])
                } else {
                    Expr::node(v, &["(", " * ", ")"], vec![b, a])
                }
            }
            4 => {
                self.mark("/");
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                Expr::guarded(v, &["(", " / (abs(", ") + 0.5))"], vec![a, b])
            }
            5 => {
                let f = *self.pick(&["sin", "cos", "abs", "floor", "fract", "sign", "ceil"]);
                let a = self.expr(v, d);
                self.un(v, f, a)
            }
            6 => {
                self.mark("normalize");
                let a = self.expr(v, d);
                Expr::guarded(v, &["normalize(", &format!(" + vec{n}(0.03125))")], vec![a])
            }
            7 => {
                self.mark("mix");
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                let t = if self.chance(0.5) {
                    self.expr(Ty::F, d)
                } else {
                    self.expr(v, d)
                };
                Expr::call(v, "mix", vec![a, b, t])
            }
            8 => {
                let f = *self.pick(&["min", "max", "step"]);
                self.mark(f);
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                Expr::call(v, f, vec![a, b])
            }
            9 => {
                self.mark("clamp");
                let a = self.expr(v, d);
                Expr::guarded(v, &["clamp(", ", -2.0, 2.0)"], vec![a])
            }
            10 if n == 3 => {
                self.mark("cross");
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                Expr::call(v, "cross", vec![a, b])
            }
            11 => {
                self.mark("reflect");
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                Expr::call(v, "reflect", vec![a, b])
            }
            12 | 13 => {
                let from = self.rng.u8(n.max(2)..=4);
                let a = self.expr(Ty::V(from), d);
                let s = self.swizzle(from, n, false);
                self.mark("swizzle");
                Expr::node(v, &["(", &format!(").{s}")], vec![a])
            }
            14 => {
                self.mark("vector constructor");
                let mut kids = vec![];
                let mut left = n;
                while left > 0 {
                    let k = self.rng.u8(1..=left.min(3));
                    let k = if k == left && kids.is_empty() && k > 1 {
                        1
                    } else {
                        k
                    };
                    kids.push(if k == 1 {
                        self.expr(Ty::F, d)
                    } else {
                        self.expr(Ty::V(k), d)
                    });
                    left -= k;
                }
                Expr::call(v, &format!("vec{n}"), kids)
            }
            15 | 16 => {
                self.mark("matrix * vector");
                let m = self.expr(Ty::M(n), d);
                let a = self.expr(v, d);
                if self.chance(0.5) {
                    Expr::node(v, &["(", " * ", ")"], vec![m, a])
                } else {
                    Expr::node(v, &["(", " * ", ")"], vec![a, m])
                }
            }
            17 => {
                self.mark("matrix column");
                let m = self.expr(Ty::M(n), d);
                let c = self.rng.u8(0..n);
                Expr::node(v, &["(", &format!(")[{c}]")], vec![m])
            }
            18 => {
                self.mark("vec(ivec)");
                let a = self.expr(Ty::IV(n), d);
                Expr::call(v, &format!("vec{n}"), vec![a])
            }
            19 => self.ternary(v, d),
            20 => {
                self.mark("exp");
                let a = self.expr(v, d);
                Expr::guarded(v, &["exp(clamp(", ", -4.0, 4.0))"], vec![a])
            }
            21 => {
                self.mark("pow");
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                Expr::guarded(
                    v,
                    &["pow(abs(", ") + 0.5, clamp(", ", -2.0, 2.0))"],
                    vec![a, b],
                )
            }
            22 => {
                self.mark("mod");
                let a = self.expr(v, d);
                Expr::guarded(v, &["mod(", ", 1.5)"], vec![a])
            }
            23 => {
                self.mark("faceforward");
                let a = self.expr(v, d);
                let b = self.expr(v, d);
                let c = self.expr(v, d);
                Expr::call(v, "faceforward", vec![a, b, c])
            }
            24 => {
                self.mark("smoothstep");
                let a = self.expr(v, d);
                Expr::guarded(v, &["smoothstep(-1.0, 2.0, ", ")"], vec![a])
            }
            25 => {
                let arrs = self.arrs_of(v, false);
                if arrs.is_empty() {
                    return self.leaf(v);
                }
                let a = self.pick(&arrs).clone();
                let i = self.index(a.len, d);
                Expr::node(
                    v,
                    &[&format!("{}[", a.prefix), &format!("]{}", a.suffix)],
                    vec![i],
                )
            }
            26 => {
                let m = self.expr(Ty::M(n), d);
                let i = self.index(n as u32, d);
                self.mark("matrix run-time column");
                Expr::node(v, &["(", ")[", "]"], vec![m, i])
            }
            27 => self.user_call(v, d).unwrap_or_else(|| self.leaf(v)),
            _ => self.leaf(v),
        }
    }

    fn int_node(&mut self, d: u32) -> Expr {
        let i = Ty::I;
        match self.rng.u32(0..26) {
            0..=2 => {
                let a = self.expr(i, d);
                let b = self.expr(i, d);
                let op = *self.pick(&["+", "-", "*", "&", "|", "^"]);
                self.bin(i, op, a, b)
            }
            3 => {
                self.mark("int /");
                let a = self.expr(i, d);
                let b = self.expr(i, d);
                Expr::guarded(i, &["(", " / ((", " & 7) + 1))"], vec![a, b])
            }
            4 => {
                self.mark("%");
                let a = self.expr(i, d);
                let b = self.expr(i, d);
                Expr::guarded(i, &["((", " & 1023) % ((", " & 7) + 1))"], vec![a, b])
            }
            5 => {
                self.mark("<<");
                let a = self.expr(i, d);
                let b = self.expr(i, d);
                Expr::guarded(i, &["(", " << (", " & 15))"], vec![a, b])
            }
            6 => {
                self.mark(">>");
                let a = self.expr(i, d);
                let b = self.expr(i, d);
                Expr::guarded(i, &["(", " >> (", " & 31))"], vec![a, b])
            }
            7 => {
                let op = *self.pick(&["~", "-"]);
                self.mark(if op == "~" { "~" } else { "unary -" });
                let a = self.expr(i, d);
                Expr::node(i, &[&format!("({op}("), "))"], vec![a])
            }
            8 => {
                let f = *self.pick(&["abs", "sign"]);
                let a = self.expr(i, d);
                self.un(i, f, a)
            }
            9 => {
                let f = *self.pick(&["min", "max"]);
                self.mark(f);
                let a = self.expr(i, d);
                let b = self.expr(i, d);
                Expr::call(i, f, vec![a, b])
            }
            10 => {
                self.mark("int clamp");
                let a = self.expr(i, d);
                Expr::guarded(i, &["clamp(", ", -64, 64)"], vec![a])
            }
            11 | 12 => {
                self.mark("int(float)");
                let a = self.expr(Ty::F, d);
                Expr::guarded(i, &["int(clamp(", ", -1000.0, 1000.0))"], vec![a])
            }
            13 => {
                self.mark("int(uint)");
                let a = self.expr(Ty::U, d);
                Expr::call(i, "int", vec![a])
            }
            14 => {
                let n = self.rng.u8(2..=4);
                let a = self.expr(Ty::IV(n), d);
                let s = self.swizzle(n, 1, true);
                Expr::node(i, &["(", &format!(").{s}")], vec![a])
            }
            15 => self.ternary(i, d),
            16 => {
                let arrs = self.arrs_of(i, false);
                if arrs.is_empty() {
                    return self.leaf(i);
                }
                let a = self.pick(&arrs).clone();
                let x = self.index(a.len, d);
                Expr::node(
                    i,
                    &[&format!("{}[", a.prefix), &format!("]{}", a.suffix)],
                    vec![x],
                )
            }
            17 => {
                self.mark("floatBitsToInt");
                let a = self.expr(Ty::F, d);
                Expr::call(i, "floatBitsToInt", vec![a])
            }
            18 => {
                self.mark("int(bool)");
                let a = self.expr(Ty::B, d);
                Expr::call(i, "int", vec![a])
            }
            19 => self.user_call(i, d).unwrap_or_else(|| self.leaf(i)),
            _ => self.leaf(i),
        }
    }

    fn ivec_node(&mut self, n: u8, d: u32) -> Expr {
        let t = Ty::IV(n);
        match self.rng.u32(0..12) {
            0..=2 => {
                let a = self.expr(t, d);
                let b = self.expr(t, d);
                let op = *self.pick(&["+", "-", "*", "&", "|", "^"]);
                self.bin(t, op, a, b)
            }
            3 => {
                self.mark("ivec(vec)");
                let a = self.expr(Ty::V(n), d);
                Expr::guarded(
                    t,
                    &[&format!("ivec{n}(clamp("), ", -100.0, 100.0))"],
                    vec![a],
                )
            }
            4 => {
                let f = *self.pick(&["abs", "sign"]);
                let a = self.expr(t, d);
                self.un(t, f, a)
            }
            5 => {
                let f = *self.pick(&["min", "max"]);
                self.mark(f);
                let a = self.expr(t, d);
                let b = self.expr(t, d);
                Expr::call(t, f, vec![a, b])
            }
            6 => {
                let a = self.expr(Ty::IV(4), d);
                let s = self.swizzle(4, n, false);
                self.mark("swizzle");
                Expr::node(t, &["(", &format!(").{s}")], vec![a])
            }
            7 => {
                self.mark("ivec(int)");
                let a = self.expr(Ty::I, d);
                Expr::call(t, &format!("ivec{n}"), vec![a])
            }
            8 => {
                self.mark(">>");
                let a = self.expr(t, d);
                let k = self.rng.u32(0..8);
                Expr::node(t, &["(", &format!(" >> {k})")], vec![a])
            }
            9 => self.ternary(t, d),
            10 => {
                self.mark("~");
                let a = self.expr(t, d);
                Expr::node(t, &["(~", ")"], vec![a])
            }
            _ => self.leaf(t),
        }
    }

    fn uint_node(&mut self, d: u32) -> Expr {
        let u = Ty::U;
        match self.rng.u32(0..12) {
            0..=2 => {
                let a = self.expr(u, d);
                let b = self.expr(u, d);
                let op = *self.pick(&["+", "-", "*", "&", "|", "^"]);
                self.bin(u, op, a, b)
            }
            3 => {
                self.mark("uint /");
                let a = self.expr(u, d);
                let b = self.expr(u, d);
                Expr::guarded(u, &["(", " / ((", " & 7u) + 1u))"], vec![a, b])
            }
            4 => {
                self.mark("uint %");
                let a = self.expr(u, d);
                let b = self.expr(u, d);
                Expr::guarded(u, &["(", " % ((", " & 7u) + 1u))"], vec![a, b])
            }
            5 => {
                self.mark("uint >>");
                let a = self.expr(u, d);
                let b = self.expr(Ty::I, d);
                Expr::guarded(u, &["(", " >> (", " & 31))"], vec![a, b])
            }
            6 => {
                self.mark("uint(int)");
                let a = self.expr(Ty::I, d);
                Expr::call(u, "uint", vec![a])
            }
            7 => {
                self.mark("uint(float)");
                let a = self.expr(Ty::F, d);
                Expr::guarded(u, &["uint(clamp(", ", 0.0, 1000.0))"], vec![a])
            }
            8 => {
                self.mark("floatBitsToUint");
                let a = self.expr(Ty::F, d);
                Expr::call(u, "floatBitsToUint", vec![a])
            }
            9 => {
                let f = *self.pick(&["min", "max"]);
                self.mark(f);
                let a = self.expr(u, d);
                let b = self.expr(u, d);
                Expr::call(u, f, vec![a, b])
            }
            10 => self.ternary(u, d),
            _ => self.leaf(u),
        }
    }

    fn bool_node(&mut self, d: u32) -> Expr {
        let b = Ty::B;
        match self.rng.u32(0..12) {
            0..=2 => {
                let a = self.expr(Ty::F, d);
                let c = self.expr(Ty::F, d);
                let op = *self.pick(&["<", "<=", ">", ">=", "==", "!="]);
                self.bin(b, op, a, c)
            }
            3 => {
                let a = self.expr(Ty::I, d);
                let c = self.expr(Ty::I, d);
                let op = *self.pick(&["<", "<=", ">", ">=", "==", "!="]);
                self.mark("int compare");
                self.bin(b, op, a, c)
            }
            4 => {
                let a = self.expr(Ty::U, d);
                let c = self.expr(Ty::U, d);
                let op = *self.pick(&["<", ">", ">=", "=="]);
                self.mark("uint compare");
                self.bin(b, op, a, c)
            }
            5 | 6 => {
                let a = self.expr(b, d);
                let c = self.expr(b, d);
                let op = *self.pick(&["&&", "||", "^^", "=="]);
                self.bin(b, op, a, c)
            }
            7 => {
                self.mark("!");
                let a = self.expr(b, d);
                Expr::node(b, &["(!", ")"], vec![a])
            }
            8 => {
                let n = self.rng.u8(2..=4);
                let r = *self.pick(&["any", "all"]);
                let f = *self.pick(&["lessThan", "greaterThanEqual", "equal", "notEqual"]);
                self.mark(r);
                self.mark(f);
                let vt = if self.chance(0.5) {
                    Ty::V(n)
                } else {
                    Ty::IV(n)
                };
                let x = self.expr(vt, d);
                let y = self.expr(vt, d);
                Expr::node(b, &[&format!("{r}({f}("), ", ", "))"], vec![x, y])
            }
            9 => {
                let n = self.rng.u8(2..=4);
                self.mark("vector ==");
                let x = self.expr(Ty::V(n), d);
                let y = self.expr(Ty::V(n), d);
                Expr::node(b, &["(", " == ", ")"], vec![x, y])
            }
            10 => self.ternary(b, d),
            _ => self.leaf(b),
        }
    }

    fn mat_node(&mut self, n: u8, d: u32) -> Expr {
        let m = Ty::M(n);
        match self.rng.u32(0..10) {
            0 | 1 => {
                let a = self.expr(m, d);
                let b = self.expr(m, d);
                let op = *self.pick(&["+", "-", "*"]);
                self.mark("matrix op");
                self.bin(m, op, a, b)
            }
            2 => {
                self.mark("matrix * float");
                let a = self.expr(m, d);
                let b = self.expr(Ty::F, d);
                Expr::node(m, &["(", " * ", ")"], vec![a, b])
            }
            3 => {
                let a = self.expr(m, d);
                self.un(m, "transpose", a)
            }
            4 => {
                self.mark("matrixCompMult");
                let a = self.expr(m, d);
                let b = self.expr(m, d);
                Expr::call(m, "matrixCompMult", vec![a, b])
            }
            5 => {
                self.mark("outerProduct");
                let a = self.expr(Ty::V(n), d);
                let b = self.expr(Ty::V(n), d);
                Expr::call(m, "outerProduct", vec![a, b])
            }
            6 | 7 => {
                self.mark("matrix constructor");
                let kids = (0..n).map(|_| self.expr(Ty::V(n), d)).collect();
                Expr::call(m, &format!("mat{n}"), kids)
            }
            8 => self.ternary(m, d),
            _ => self.leaf(m),
        }
    }

    // ---------------------------------------------------------------- statements

    fn push_scope(&mut self) {
        self.vars.push(vec![]);
        self.arrs.push(vec![]);
    }

    fn pop_scope(&mut self) {
        self.vars.pop();
        self.arrs.pop();
    }

    fn declare(&mut self, name: &str, ty: Ty, writable: bool) {
        self.vars.last_mut().unwrap().push(Var {
            name: name.into(),
            ty,
            writable,
        });
    }

    /// A declaration of a new variable, array or struct in the current scope.
    fn declaration(&mut self, d: u32) -> Stmt {
        match self.rng.u32(0..10) {
            0 => {
                self.mark("array");
                let ty = *self.pick(&[Ty::F, Ty::V(2), Ty::V(3), Ty::I]);
                let len = self.rng.u32(2..=4);
                let name = self.name("a");
                let kids: Vec<Expr> = (0..len).map(|_| self.expr(ty, d.min(2))).collect();
                let tn = ty.name();
                let mut parts = vec![format!("{tn} {name}[{len}] = {tn}[{len}](")];
                for _ in 1..len {
                    parts.push(", ".into());
                }
                parts.push(");".into());
                self.arrs.last_mut().unwrap().push(Arr {
                    prefix: name,
                    suffix: String::new(),
                    ty,
                    len,
                    writable: true,
                });
                Stmt::Simple {
                    parts,
                    exprs: kids,
                    decl: true,
                }
            }
            1 if !self.in_func => {
                self.mark("struct");
                self.no_calls = true;
                let s = self.struct_decl(d);
                self.no_calls = false;
                s
            }
            _ => {
                let ty = self.any_ty();
                let e = self.expr(ty, d);
                let name = self.name("v");
                self.declare(&name, ty, true);
                Stmt::decl(ty, &name, e)
            }
        }
    }

    fn struct_decl(&mut self, d: u32) -> Stmt {
        {
            {
                let name = self.name("s");
                let kids = vec![
                    self.expr(Ty::F, d.min(2)),
                    self.expr(Ty::V(3), d.min(2)),
                    self.expr(Ty::I, d.min(2)),
                ];
                if self.chance(0.5) {
                    self.mark("array of structs");
                    let kids2 = vec![
                        self.expr(Ty::F, d.min(2)),
                        self.expr(Ty::V(3), d.min(2)),
                        self.expr(Ty::I, d.min(2)),
                    ];
                    for (suffix, ty) in [(".f", Ty::F), (".v", Ty::V(3)), (".i", Ty::I)] {
                        self.arrs.last_mut().unwrap().push(Arr {
                            prefix: name.clone(),
                            suffix: suffix.into(),
                            ty,
                            len: 2,
                            writable: true,
                        });
                    }
                    let kids: Vec<Expr> = kids.into_iter().chain(kids2).collect();
                    return Stmt::Simple {
                        parts: [
                            &format!("S {name}[2] = S[2](S(") as &str,
                            ", ",
                            ", ",
                            "), S(",
                            ", ",
                            ", ",
                            "));",
                        ]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                        exprs: kids,
                        decl: true,
                    };
                }
                for (suffix, ty) in [("f", Ty::F), ("v", Ty::V(3)), ("i", Ty::I)] {
                    self.declare(&format!("{name}.{suffix}"), ty, true);
                }
                Stmt::Simple {
                    parts: [&format!("S {name} = S(") as &str, ", ", ", ", ");"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                    exprs: kids,
                    decl: true,
                }
            }
        }
    }

    /// An l-value of type `ty` (a writable variable or array element), if any.
    fn lvalue(&mut self, ty: Ty, d: u32) -> Option<(String, Option<Expr>)> {
        let vars = self.vars_of(ty, true);
        let arrs = self.arrs_of(ty, true);
        if !arrs.is_empty() && (vars.is_empty() || self.chance(0.3)) {
            let a = self.pick(&arrs).clone();
            if self.chance(0.5) {
                let k = self.rng.u32(0..a.len);
                return Some((format!("{}[{k}]{}", a.prefix, a.suffix), None));
            }
            let i = self.index(a.len, d);
            self.mark("array write (run-time index)");
            return Some((format!("{}[\u{1}]{}", a.prefix, a.suffix), Some(i)));
        }
        if vars.is_empty() {
            return None;
        }
        Some((self.pick(&vars).name.clone(), None))
    }

    fn assign(&mut self, d: u32) -> Option<Stmt> {
        let ty = self.any_ty();
        let (lv, idx) = self.lvalue(ty, d)?;
        let ops: &[&str] = match ty {
            Ty::F | Ty::V(_) => &["=", "=", "+=", "-=", "*="],
            Ty::I | Ty::IV(_) | Ty::U => &["=", "+=", "-=", "*=", "&=", "|=", "^="],
            Ty::M(_) => &["=", "+=", "*="],
            Ty::B => &["="],
        };
        let op = *self.pick(ops);
        if op != "=" {
            self.mark("compound assignment");
        }
        // Write masks and single components of vectors and matrix columns.
        if idx.is_none() && matches!(ty, Ty::V(_) | Ty::IV(_)) && self.chance(0.4) {
            let n = ty.width();
            let k = self.rng.u8(1..=n);
            let s = self.swizzle(n, k, true);
            let et = match (ty, k) {
                (Ty::V(_), 1) => Ty::F,
                (Ty::V(_), k) => Ty::V(k),
                (_, 1) => Ty::I,
                (_, k) => Ty::IV(k),
            };
            self.mark("write mask");
            let e = self.expr(et, d);
            let op = if matches!(op, "&=" | "|=" | "^=") {
                "="
            } else {
                op
            };
            return Some(Stmt::simple(&[&format!("{lv}.{s} {op} "), ";"], vec![e]));
        }
        if idx.is_none() && matches!(ty, Ty::M(_)) && self.chance(0.4) {
            let n = ty.width();
            let c = self.rng.u8(0..n);
            self.mark("matrix column write");
            let e = self.expr(Ty::V(n), d);
            return Some(Stmt::simple(&[&format!("{lv}[{c}] = "), ";"], vec![e]));
        }
        if idx.is_none() && matches!(ty, Ty::F | Ty::I) && self.chance(0.1) {
            let op = *self.pick(&["++", "--"]);
            self.mark("++/--");
            return Some(if self.chance(0.5) {
                Stmt::raw(&format!("{lv}{op};"))
            } else {
                Stmt::raw(&format!("{op}{lv};"))
            });
        }
        let e = self.expr(ty, d);
        Some(match idx {
            Some(i) => {
                let (pre, post) = lv.split_once('\u{1}').unwrap();
                Stmt::simple(&[pre, &format!("{post} {op} "), ";"], vec![i, e])
            }
            None => Stmt::simple(&[&format!("{lv} {op} "), ";"], vec![e]),
        })
    }

    fn call_stmt(&mut self, d: u32) -> Option<Stmt> {
        let cands: Vec<Sig> = self
            .funcs
            .iter()
            .filter(|f| f.params.iter().any(|p| p.0 != Qual::In))
            .cloned()
            .collect();
        if cands.is_empty() {
            return None;
        }
        let f = self.pick(&cands).clone();
        let mut used = BTreeSet::new();
        let target = self.vars_of(f.ret, true);
        let target = if target.is_empty() || self.chance(0.3) {
            None
        } else {
            Some(self.pick(&target).name.clone())
        };
        if let Some(t) = &target {
            used.insert(t.clone());
        }
        let mut parts = vec![match &target {
            Some(t) => format!("{t} = {}(", f.name),
            None => format!("{}(", f.name),
        }];
        let mut exprs = vec![];
        for (k, (q, ty)) in f.params.iter().enumerate() {
            let sep = if k + 1 == f.params.len() { ");" } else { ", " };
            if *q == Qual::In {
                exprs.push(self.expr(*ty, d.min(2)));
                parts.push(sep.into());
            } else {
                let vars: Vec<Var> = self
                    .vars_of(*ty, true)
                    .into_iter()
                    .filter(|v| !used.contains(&v.name))
                    .collect();
                if vars.is_empty() {
                    return None;
                }
                let v = self.pick(&vars).name.clone();
                used.insert(v.clone());
                let last = parts.last_mut().unwrap();
                last.push_str(&v);
                last.push_str(sep);
            }
        }
        if f.params.is_empty() {
            return None;
        }
        self.mark("out/inout call");
        Some(Stmt::Simple {
            parts,
            exprs,
            decl: false,
        })
    }

    fn block(&mut self, n: u32, d: u32) -> Vec<Stmt> {
        self.push_scope();
        let body = (0..n).map(|_| self.stmt(d)).collect();
        self.pop_scope();
        body
    }

    /// One statement, nesting at most `d` deep.
    pub fn stmt(&mut self, d: u32) -> Stmt {
        let ed = 3;
        match self.rng.u32(0..24) {
            0..=8 => self.assign(ed).unwrap_or_else(|| self.declaration(ed)),
            9 | 10 => self.declaration(ed),
            11..=13 if d > 0 => {
                self.mark("if");
                let cond = self.expr(Ty::B, ed);
                let n = self.rng.u32(1..=3);
                let then = self.block(n, d - 1);
                let els = if self.chance(0.5) {
                    self.mark("else");
                    let n = self.rng.u32(1..=3);
                    self.block(n, d - 1)
                } else {
                    vec![]
                };
                Stmt::If { cond, then, els }
            }
            14 | 15 if d > 0 => {
                self.mark("for");
                let var = self.name("k");
                let n = self.rng.u32(1..=4);
                self.push_scope();
                self.declare(&var, Ty::I, false);
                self.loop_depth += 1;
                let count = self.rng.u32(1..=3);
                // The exit's condition sees only what is declared before the body, so
                // it may sit anywhere in it.
                let jump = self.chance(0.4).then(|| self.expr(Ty::B, 2));
                let mut body: Vec<Stmt> = (0..count).map(|_| self.stmt(d - 1)).collect();
                if let Some(cond) = jump {
                    let kw = *self.pick(&["break;", "continue;"]);
                    self.mark(if kw == "break;" { "break" } else { "continue" });
                    let at = self.rng.usize(0..=body.len());
                    body.insert(
                        at,
                        Stmt::If {
                            cond,
                            then: vec![Stmt::raw(kw)],
                            els: vec![],
                        },
                    );
                }
                self.loop_depth -= 1;
                self.pop_scope();
                Stmt::For { var, n, body }
            }
            16 if d > 0 => {
                self.mark("switch");
                let e = self.expr(Ty::I, 2);
                let sel = Expr::guarded(Ty::I, &["(", " & 3)"], vec![e]);
                let mut cases = vec![];
                let mut labels: Vec<Option<i32>> = vec![Some(0), Some(1), Some(2), None];
                self.rng.shuffle(&mut labels);
                let k = self.rng.usize(1..=4);
                for label in labels.into_iter().take(k) {
                    let n = self.rng.u32(0..=2);
                    let body = self.block(n, d - 1);
                    let brk = self.chance(0.7);
                    if !brk {
                        self.mark("switch fallthrough");
                    }
                    cases.push((label, body, brk));
                }
                Stmt::Switch { sel, cases }
            }
            17 if d > 0 => {
                self.mark("block scope");
                let n = self.rng.u32(1..=3);
                Stmt::Block(self.block(n, d - 1))
            }
            18 | 19 => self.call_stmt(ed).unwrap_or_else(|| self.declaration(ed)),
            20 if !self.in_func && self.chance(0.15) => {
                self.mark("discard");
                let cond = self.expr(Ty::B, 2);
                Stmt::If {
                    cond,
                    then: vec![Stmt::raw("discard;")],
                    els: vec![],
                }
            }
            _ => self.assign(ed).unwrap_or_else(|| self.declaration(ed)),
        }
    }

    fn func(&mut self) -> Func {
        self.mark("user function");
        let name = self.name("fn");
        let ret = *self.pick(&[Ty::F, Ty::F, Ty::V(3), Ty::V(2), Ty::I, Ty::V(4)]);
        let np = self.rng.usize(1..=3);
        let mut params = vec![];
        self.in_func = true;
        let saved_vars = std::mem::replace(&mut self.vars, vec![vec![]]);
        let saved_arrs = std::mem::replace(&mut self.arrs, vec![vec![]]);
        // Globals are read-only inside functions: a call in an expression then has no
        // side effect whose order GLSL would leave open.
        for v in saved_vars[0].iter() {
            self.declare(&v.name.clone(), v.ty, false);
        }
        let mut body = vec![];
        let mut init = vec![];
        for k in 0..np {
            let q = match self.rng.u32(0..4) {
                0 => Qual::Out,
                1 => Qual::InOut,
                _ => Qual::In,
            };
            let ty = *self.pick(&[Ty::F, Ty::V(2), Ty::V(3), Ty::I, Ty::V(4)]);
            let pname = format!("p{k}");
            params.push((q, ty, pname));
        }
        for (q, ty, pname) in &params {
            if *q != Qual::Out {
                self.declare(pname, *ty, true);
            }
        }
        for (q, ty, pname) in &params {
            if *q == Qual::Out {
                self.mark("out parameter");
                let e = self.expr(*ty, 2);
                init.push(Stmt::simple(&[&format!("{pname} = "), ";"], vec![e]));
                self.declare(pname, *ty, true);
            } else if *q == Qual::InOut {
                self.mark("inout parameter");
            }
        }
        let n = self.rng.u32(1..=4);
        for _ in 0..n {
            let s = self.stmt(1);
            body.push(s);
        }
        let ret_expr = self.expr(ret, 3);
        self.vars = saved_vars;
        self.arrs = saved_arrs;
        self.in_func = false;
        self.funcs.push(Sig {
            name: name.clone(),
            ret,
            params: params.iter().map(|p| (p.0, p.1)).collect(),
        });
        Func {
            name,
            ret,
            params,
            init,
            body,
            ret_expr,
        }
    }

    /// A whole program.
    pub fn program(&mut self) -> Program {
        let rf = |rng: &mut fastrand::Rng| (rng.i32(-16..=16) as f32 / 8.0).to_bits();
        let mut uniforms = vec![];
        for name in ["u0", "u1"] {
            let lanes = [
                rf(&mut self.rng),
                rf(&mut self.rng),
                rf(&mut self.rng),
                rf(&mut self.rng),
            ];
            uniforms.push(Uniform {
                name: name.into(),
                ty: Ty::V(4),
                lanes,
            });
        }
        uniforms.push(Uniform {
            name: "uf".into(),
            ty: Ty::F,
            lanes: [rf(&mut self.rng), 0, 0, 0],
        });
        let ri = |rng: &mut fastrand::Rng| rng.i32(-40..=40) as u32;
        uniforms.push(Uniform {
            name: "ui".into(),
            ty: Ty::IV(4),
            lanes: [
                ri(&mut self.rng),
                ri(&mut self.rng),
                ri(&mut self.rng),
                ri(&mut self.rng),
            ],
        });
        uniforms.push(Uniform {
            name: "uu".into(),
            ty: Ty::U,
            lanes: [self.rng.u32(0..100), 0, 0, 0],
        });
        uniforms.push(Uniform {
            name: "one".into(),
            ty: Ty::I,
            lanes: [1, 0, 0, 0],
        });
        uniforms.push(Uniform {
            name: "zero".into(),
            ty: Ty::I,
            lanes: [0, 0, 0, 0],
        });
        uniforms.push(Uniform {
            name: "fone".into(),
            ty: Ty::F,
            lanes: [1.0f32.to_bits(), 0, 0, 0],
        });
        let mut globals = vec!["struct S { float f; vec3 v; int i; };".to_string()];
        for (ty, init) in [(Ty::F, "0.25"), (Ty::V(3), "vec3(0.5, -1.0, 2.0)")] {
            let name = self.name("g");
            globals.push(format!("{} {name} = {init};", ty.name()));
            self.mark("global variable");
            self.declare(&name, ty, true);
        }
        let nf = self.rng.usize(0..=3);
        let funcs = (0..nf).map(|_| self.func()).collect();
        let mut main = vec![];
        let nd = self.rng.u32(3..=6);
        for _ in 0..nd {
            let s = self.declaration(3);
            main.push(s);
        }
        let ns = self.rng.u32(3..=10);
        for _ in 0..ns {
            let s = self.stmt(2);
            main.push(s);
        }
        main.push(self.output());
        Program {
            uniforms,
            globals,
            funcs,
            main,
        }
    }

    /// `c = vec4(...)`: every variable of main's outer scope (and the globals) folded
    /// into one of the four components.
    fn output(&mut self) -> Stmt {
        let mut acc: [Vec<String>; 4] = Default::default();
        let vars: Vec<Var> = self.vars[0].clone();
        let arrs: Vec<Arr> = self.arrs[0].clone();
        let mut k = 0;
        let mut add = |s: String| {
            acc[k % 4].push(s);
            k += 1;
        };
        for v in vars {
            add(as_float(&v.name, v.ty));
        }
        for a in arrs {
            for i in 0..a.len {
                add(as_float(&format!("{}[{i}]{}", a.prefix, a.suffix), a.ty));
            }
        }
        let comps: Vec<String> = acc
            .iter()
            .map(|v| {
                if v.is_empty() {
                    "0.0".to_string()
                } else {
                    v.join(" + ")
                }
            })
            .collect();
        Stmt::raw(&format!("c = vec4({});", comps.join(",\n        ")))
    }
}

/// A float summarising a value of type `ty` named `name`.
fn as_float(name: &str, ty: Ty) -> String {
    match ty {
        Ty::F => name.to_string(),
        Ty::V(n) => {
            let w = ["1.0", "0.5", "0.25", "0.125"];
            format!("dot({name}, vec{n}({}))", w[..n as usize].join(", "))
        }
        Ty::I | Ty::U => format!("float({name})"),
        Ty::IV(n) => {
            let w = ["1", "3", "7", "13"];
            format!(
                "float(dot(vec{n}({name}), vec{n}({})))",
                w[..n as usize].join(", ")
            )
        }
        Ty::B => format!("({name} ? 1.0 : -1.0)"),
        Ty::M(n) => {
            let terms: Vec<String> = (0..n)
                .map(|c| format!("{name}[{c}][{}]", (c + 1) % n))
                .collect();
            format!("({} + {name}[0][0])", terms.join(" + "))
        }
    }
}

/// The program for `seed` and the constructs it uses.
pub fn generate(seed: u64) -> (Program, BTreeSet<&'static str>) {
    let mut g = Gen::new(seed);
    let p = g.program();
    (p, g.covered)
}
