//! Built-in functions (docs/csir-original.md B §1.10 plus the GLSL functions the renderer's
//! scenes need), each lowered to existing CSIR opcodes.
//!
//! | function | lowering |
//! |---|---|
//! | `texture`, `texture2D`, `textureLod`, `textureProj`, ... | SAMPLE (sampler slot in aux); see [`Lowerer::texture`] |
//! | `textureSize(sampler2D, lod)` | TEXSIZE (extended profile) |
//! | `texelFetch(sampler2D, P, lod)` | TEXFETCH (extended profile) |
//! | `texelFetchOffset(sampler2D, P, lod, offset)` | UADD of the constant offset, then TEXFETCH |
//! | `textureOffset`, `textureProjOffset`, `textureLodOffset`, `textureProjLodOffset` | SAMPLE_OFFSET (extended profile; the constant offset in `aux2`) |
//! | `textureLod` and a bias, extended profile | SAMPLE_LOD / SAMPLE_BIAS (the level or bias in `b.x`, any offset in `aux2`) |
//! | `textureGrad`, `textureGradOffset` | SAMPLE_GRAD (extended profile; gradients packed in `b`) |
//! | `ftransform` | `gl_ModelViewProjectionMatrix * gl_Vertex` |
//! | `dot` | DOT (aux = width), MUL for scalars |
//! | `cross` | two swizzled products and a SUB: `a.yzx*b.zxy - a.zxy*b.yzx` |
//! | `length`, `distance` | DOT, RSQ, RCP (ABS for scalars) |
//! | `normalize` | DOT, RSQ, broadcast SWZ, MUL |
//! | `reflect` | `i - 2·dot(n, i)·n` |
//! | `refract` | k = 1 − η²(1 − dot(n, i)²); `(η·i − (η·dot(n, i) + sqrt(k))·n)·[k ≥ 0]` (sqrt of max(k, 0)) |
//! | `isnan`, `isinf` | CMP x ≠ x; CMP \|x\| > FLT_MAX (IEEE: exact for every input) |
//! | `modf` (in `call.rs`: its `out` argument) | i = TRUNC(x), x − i |
//! | `faceforward` | `n · (dot(nref, i) < 0 ? 1 : -1)` with CMP |
//! | `abs sin cos` | ABS / SIN / COS per lane |
//! | `tan` | SIN / COS: DIV under the extended profile, SIN · RCP(COS) under the seed's |
//! | `min max clamp` | MIN / MAX (a scalar bound is broadcast) |
//! | `mix` | `x·(1−a) + y·a` |
//! | `matrixCompMult`, `transpose` | MUL per column / SETLANE assembly |
//! | `lessThan` … `notEqual`, `any`, `all`, `not`, `mix` with a bool selector | see `logic.rs` |
//! | `atan` (1 and 2 arguments), `asin`, `acos`, `sinh`, `cosh`, `tanh` | see `trig.rs` |
//!
//! The per-lane families (`pow exp exp2 sqrt inversesqrt floor ceil fract trunc round
//! roundEven mod sign step smoothstep radians degrees`) are in `math.rs`. GLSL
//! functions that would need far more instructions than a shader's budget allows
//! (`log`, `log2`: no exponent extraction without bit operations), or that have no
//! meaning here (derivatives, other texture queries, ...), give "NAME is
//! not supported".

use super::super::ast::Expr;
use super::super::consteval::ConstData;
use super::super::token::Pos;
use super::super::types::Type;
use super::super::types::{self, Base};
use super::value::{Repr, Value};
use super::{LResult, Lowerer};
use crate::ir::{CmpCode, Ir, Op, Stage};

/// The functions that take a sampler: the 2D texture lookups ([`Lowerer::texture`]),
/// `textureSize` ([`Lowerer::texture_size`]), `texelFetch` ([`Lowerer::texel_fetch`])
/// `texelFetchOffset` ([`Lowerer::texel_fetch_offset`]) and the lookups with a texel
/// offset ([`OFFSET_FUNCTIONS`]).
const TEXTURE_FUNCTIONS: &[&str] = &[
    "textureSize",
    "texelFetch",
    "texelFetchOffset",
    "textureOffset",
    "textureProjOffset",
    "textureLodOffset",
    "textureProjLodOffset",
    "texture",
    "texture2D",
    "textureLod",
    "texture2DLod",
    "textureProj",
    "texture2DProj",
    "textureProjLod",
    "texture2DProjLod",
    "textureGrad",
    "textureGradOffset",
];

/// The 2D lookups with a constant texel offset (GLSL 1.30 §8.7), SAMPLE_OFFSET under
/// the extended profile ([`Lowerer::texture`]).
const OFFSET_FUNCTIONS: &[&str] = &[
    "textureOffset",
    "textureProjOffset",
    "textureLodOffset",
    "textureProjLodOffset",
    "textureGradOffset",
];

/// GL's texel offset range, MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET: the
/// smallest range GL 3.0 allows an implementation, and csir-render's
/// ([`Lowerer::texel_offset`]).
pub const TEXEL_OFFSETS: std::ops::RangeInclusive<i32> = -8..=7;

/// Built-in functions this front end lowers, besides [`TEXTURE_FUNCTIONS`].
pub const SUPPORTED: &[&str] = &[
    "dFdx",
    "dFdy",
    "fwidth",
    "ftransform",
    "refract",
    "isnan",
    "isinf",
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "reflect",
    "faceforward",
    "abs",
    "sin",
    "cos",
    "tan",
    "min",
    "max",
    "clamp",
    "mix",
    "pow",
    "exp",
    "exp2",
    "sqrt",
    "inversesqrt",
    "floor",
    "ceil",
    "fract",
    "trunc",
    "round",
    "roundEven",
    "mod",
    "sign",
    "step",
    "smoothstep",
    "radians",
    "degrees",
    "matrixCompMult",
    "transpose",
    "outerProduct",
    "determinant",
    "inverse",
    "lessThan",
    "lessThanEqual",
    "greaterThan",
    "greaterThanEqual",
    "equal",
    "notEqual",
    "any",
    "all",
    "not",
    "atan",
    "asin",
    "acos",
    "sinh",
    "cosh",
    "tanh",
    "log",
    "log2",
    "asinh",
    "acosh",
    "atanh",
    "floatBitsToInt",
    "floatBitsToUint",
    "intBitsToFloat",
    "uintBitsToFloat",
];

/// GLSL 3.30 built-in functions outside the subset ("NAME is not supported").
pub const UNSUPPORTED: &[&str] = &[
    "noise1",
    "noise2",
    "noise3",
    "noise4",
    "EmitVertex",
    "EndPrimitive",
];

/// Whether `name` is a built-in function this front end lowers (`modf` included).
pub(crate) fn is_builtin(name: &str) -> bool {
    name == "modf" || expanded(name)
}

/// Whether [`Lowerer::builtin`] expands `name` (every built-in but `modf`, which has
/// its own path for its `out` parameter).
fn expanded(name: &str) -> bool {
    SUPPORTED.contains(&name) || is_texture_function(name)
}

/// Whether `name` takes a sampler: [`TEXTURE_FUNCTIONS`] and the GLSL 1.10 lookups of
/// other targets (`texture_gl33.rs`).
fn is_texture_function(name: &str) -> bool {
    TEXTURE_FUNCTIONS.contains(&name) || super::texture_gl33::LEGACY_FUNCTIONS.contains(&name)
}

impl Lowerer<'_> {
    /// A call of built-in `name`; `None` when `name` is not a built-in we lower.
    pub(crate) fn builtin(
        &mut self,
        name: &str,
        args: &[Expr],
        pos: Pos,
    ) -> Option<LResult<Value>> {
        if !expanded(name) {
            return None;
        }
        let sampler_ok = is_texture_function(name);
        let refs: Vec<&Expr> = args.iter().collect();
        Some(self.operands(&refs, sampler_ok).and_then(|vals| {
            // Intermediates of the expansion die with it; only the result lives on.
            let known = SUPPORTED
                .iter()
                .chain(TEXTURE_FUNCTIONS)
                .chain(super::texture_gl33::LEGACY_FUNCTIONS)
                .copied()
                .find(|n| *n == name);
            let call = known.map(|n| (n, vals.iter().map(|v| v.ty).collect()));
            let outer = std::mem::replace(&mut self.builtin_call, call);
            let r = self.scoped(|s| s.builtin_values(name, &vals, pos));
            self.builtin_call = outer;
            r
        }))
    }

    /// "wrong arguments: no 'NAME' takes (TYPES)" for the built-in call being expanded
    /// (docs/csir-original.md B §1.15's "wrong arguments", naming the function and the types).
    pub(crate) fn wrong_arguments<T>(&mut self, pos: Pos) -> LResult<T> {
        let message = match &self.builtin_call {
            Some((name, types)) => {
                let types: Vec<String> = types.iter().map(|t| t.to_string()).collect();
                format!("wrong arguments: no '{name}' takes ({})", types.join(", "))
            }
            None => "wrong arguments".to_string(),
        };
        self.err(pos, message)
    }

    fn arity(&mut self, name: &str, vals: &[Value], n: usize, pos: Pos) -> LResult<()> {
        if vals.len() == n {
            return Ok(());
        }
        let msg = match name {
            "clamp" => "clamp() expects 3 arguments".to_string(),
            "mix" => "mix() expects 3 arguments".to_string(),
            "min" | "max" => "wrong argument count".to_string(),
            _ => format!(
                "{name}() expects {n} argument{}",
                if n == 1 { "" } else { "s" }
            ),
        };
        self.err(pos, msg)
    }

    /// A float scalar or vector argument (ints convert implicitly); `ints` also
    /// accepts int types unchanged.
    pub(crate) fn gen_type(&mut self, v: &Value, ints: bool, pos: Pos) -> LResult<Value> {
        match types::base(v.ty) {
            Base::Float if !v.ty.is_matrix() => Ok(*v),
            Base::Int | Base::Uint if ints => Ok(*v),
            Base::Int | Base::Uint => self.convert(v, Type::float_vec(v.ty.width())),
            _ => self.wrong_arguments(pos),
        }
    }

    /// `b` as a second operand for `a`: the same type, or a scalar (broadcast later).
    pub(crate) fn same_or_scalar(&mut self, a: &Value, b: &Value, pos: Pos) -> LResult<Value> {
        let b = if types::base(a.ty) == Base::Float && types::is_int_base(types::base(b.ty)) {
            self.convert(b, Type::float_vec(b.ty.width()))?
        } else {
            *b
        };
        if b.ty == a.ty || (b.ty.width() == 1 && types::base(b.ty) == types::base(a.ty)) {
            return Ok(b);
        }
        self.wrong_arguments(pos)
    }

    fn builtin_values(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        match name {
            n if is_texture_function(n) && Self::is_gl33_lookup(n, v) => {
                self.texture_gl33(n, v, pos)
            }
            "textureSize" => self.texture_size(v, pos),
            "texelFetch" => self.texel_fetch(v, pos),
            "texelFetchOffset" => self.texel_fetch_offset(v, pos),
            "textureGrad" | "textureGradOffset" => self.texture_grad(name, v, pos),
            n if TEXTURE_FUNCTIONS.contains(&n) => self.texture(n, v, pos),
            "floatBitsToInt" | "floatBitsToUint" | "intBitsToFloat" | "uintBitsToFloat" => {
                self.bits_builtin(name, v, pos)
            }
            "ftransform" => {
                // GLSL 1.10 §8.4: gl_ModelViewProjectionMatrix * gl_Vertex, computed
                // the same way as that expression.
                self.arity(name, v, 0, pos)?;
                let m = self.read_name("gl_ModelViewProjectionMatrix", pos)?;
                let x = self.read_name("gl_Vertex", pos)?;
                self.binary(super::super::ast::BinOp::Mul, &m, &x, pos)
            }
            "dot" => {
                self.arity(name, v, 2, pos)?;
                let (a, b) = (
                    self.gen_type(&v[0], false, pos)?,
                    self.gen_type(&v[1], false, pos)?,
                );
                if a.ty != b.ty {
                    return self.err(pos, "dot() expects two vectors of the same size");
                }
                self.dot(&a, &b)
            }
            "cross" => {
                self.arity(name, v, 2, pos)?;
                if types::converts_to(v[0].ty, Type::Vec3, self.conversions())
                    && types::converts_to(v[1].ty, Type::Vec3, self.conversions())
                {
                    let a = self.convert(&v[0], Type::Vec3)?;
                    let b = self.convert(&v[1], Type::Vec3)?;
                    return self.cross(&a, &b);
                }
                self.err(pos, "cross() expects two vec3 values")
            }
            "length" | "normalize" => {
                self.arity(name, v, 1, pos)?;
                if !types::is_numeric(v[0].ty) {
                    return self.err(pos, "expected a vector");
                }
                let x = self.gen_type(&v[0], false, pos)?;
                if name == "length" {
                    self.length(&x)
                } else {
                    self.normalize(&x)
                }
            }
            "distance" => {
                self.arity(name, v, 2, pos)?;
                let (a, b) = (
                    self.gen_type(&v[0], false, pos)?,
                    self.gen_type(&v[1], false, pos)?,
                );
                if a.ty != b.ty {
                    return self.wrong_arguments(pos);
                }
                let d = self.lanewise(Op::Sub, &a, &b, a.ty)?;
                self.length(&d)
            }
            "reflect" => {
                self.arity(name, v, 2, pos)?;
                let (i, n) = (
                    self.gen_type(&v[0], false, pos)?,
                    self.gen_type(&v[1], false, pos)?,
                );
                if i.ty != n.ty {
                    return self.err(pos, "reflect() expects two vectors");
                }
                self.reflect(&i, &n)
            }
            "faceforward" => {
                self.arity(name, v, 3, pos)?;
                let n = self.gen_type(&v[0], false, pos)?;
                let (i, r) = (
                    self.gen_type(&v[1], false, pos)?,
                    self.gen_type(&v[2], false, pos)?,
                );
                if i.ty != n.ty || r.ty != n.ty {
                    return self.wrong_arguments(pos);
                }
                let d = self.dot(&r, &i)?;
                let neg = self.scalar_op(
                    Op::Cmp,
                    &d,
                    Some(&Value::float(0.0)),
                    CmpCode::Lt.code(),
                    Type::Float,
                )?;
                let twice = self.lanewise(Op::Add, &neg, &neg, Type::Float)?;
                let f = self.lanewise(Op::Sub, &twice, &Value::float(1.0), Type::Float)?;
                self.widen_op(Op::Mul, &n, &f, n.ty)
            }
            "dFdx" | "dFdy" | "fwidth" => self.derivative(name, v, pos),
            "abs" | "sin" | "cos" | "tan" => {
                self.arity(name, v, 1, pos)?;
                let x = self.gen_type(&v[0], name == "abs", pos)?;
                match name {
                    "abs" => self.unary_op(Op::Abs, &x, x.ty),
                    "sin" => self.unary_op(Op::Sin, &x, x.ty),
                    "cos" => self.unary_op(Op::Cos, &x, x.ty),
                    _ => {
                        // sin / cos: DIV under the extended profile (±inf where
                        // cos is 0), else the seed's sin · RCP(cos).
                        let s = self.unary_op(Op::Sin, &x, x.ty)?;
                        let c = self.unary_op(Op::Cos, &x, x.ty)?;
                        self.float_div(&s, &c, x.ty)
                    }
                }
            }
            "min" | "max" => {
                self.arity(name, v, 2, pos)?;
                let x = self.gen_type(&v[0], true, pos)?;
                let y = self.same_or_scalar(&x, &v[1], pos)?;
                self.widen_op(if name == "min" { Op::Min } else { Op::Max }, &x, &y, x.ty)
            }
            "clamp" => {
                self.arity(name, v, 3, pos)?;
                let x = self.gen_type(&v[0], true, pos)?;
                let lo = self.same_or_scalar(&x, &v[1], pos)?;
                let hi = self.same_or_scalar(&x, &v[2], pos)?;
                let m = self.widen_op(Op::Max, &x, &lo, x.ty)?;
                self.widen_op(Op::Min, &m, &hi, x.ty)
            }
            "mix" => {
                self.arity(name, v, 3, pos)?;
                let x = self.gen_type(&v[0], false, pos)?;
                let y = self.gen_type(&v[1], false, pos)?;
                if x.ty != y.ty {
                    return self.wrong_arguments(pos);
                }
                if Self::is_selector(&v[2]) {
                    return self.select(&x, &y, &v[2], pos);
                }
                let a = self.same_or_scalar(&x, &v[2], pos)?;
                let one_minus = self.lanewise(
                    Op::Sub,
                    &Value::konst(a.ty, super::super::consteval::ConstData::splat(1.0)),
                    &a,
                    a.ty,
                )?;
                let p = self.widen_op(Op::Mul, &x, &one_minus, x.ty)?;
                let q = self.widen_op(Op::Mul, &y, &a, x.ty)?;
                self.lanewise(Op::Add, &p, &q, x.ty)
            }
            "matrixCompMult" => {
                self.arity(name, v, 2, pos)?;
                if !v[0].ty.is_matrix() || v[0].ty != v[1].ty {
                    return self.wrong_arguments(pos);
                }
                self.lanewise(Op::Mul, &v[0], &v[1], v[0].ty)
            }
            "transpose" => {
                self.arity(name, v, 1, pos)?;
                if !v[0].ty.is_matrix() {
                    return self.wrong_arguments(pos);
                }
                self.transpose(&v[0])
            }
            "outerProduct" => {
                self.arity(name, v, 2, pos)?;
                let (c, r) = (self.float_arg(&v[0])?, self.float_arg(&v[1])?);
                self.outer_product(&c, &r, pos)
            }
            "refract" => {
                self.arity(name, v, 3, pos)?;
                let (i, n) = (self.float_arg(&v[0])?, self.float_arg(&v[1])?);
                let eta = self.float_arg(&v[2])?;
                let float = |t: Type| types::base(t) == Base::Float && !t.is_matrix();
                if i.ty != n.ty || !float(i.ty) || eta.ty != Type::Float {
                    let m = format!(
                        "refract takes two float vectors of one type and a float, not {}, {} and {}",
                        v[0].ty, v[1].ty, v[2].ty
                    );
                    return self.err(pos, m);
                }
                self.refract(&i, &n, &eta)
            }
            "isnan" | "isinf" => {
                self.arity(name, v, 1, pos)?;
                let x = self.float_arg(&v[0])?;
                if types::base(x.ty) != Base::Float || x.ty.is_matrix() {
                    let m = format!("{name} takes a float scalar or vector, not {}", v[0].ty);
                    return self.err(pos, m);
                }
                let bty = types::with_base(Base::Bool, x.ty.width()).unwrap_or(Type::Bool);
                if name == "isnan" {
                    return self
                        .lanes2(Op::Cmp, CmpCode::Ne.code(), &x, &x, x.ty)
                        .map(|r| r.retyped(bty));
                }
                let a = self.unary_op(Op::Abs, &x, x.ty)?;
                let max = Value::float(f32::MAX);
                self.lanes2(Op::Cmp, CmpCode::Gt.code(), &a, &max, x.ty)
                    .map(|r| r.retyped(bty))
            }
            "determinant" => {
                self.arity(name, v, 1, pos)?;
                self.determinant(&v[0], pos)
            }
            "inverse" => {
                self.arity(name, v, 1, pos)?;
                self.inverse(&v[0], pos)
            }
            _ if super::logic::is_logic_builtin(name) => self.logic_builtin(name, v, pos),
            _ if super::trig::TRIG_BUILTINS.contains(&name) => self.trig_builtin(name, v, pos),
            _ if super::logs::LOG_BUILTINS.contains(&name) => self.log_builtin(name, v, pos),
            _ => self.math_builtin(name, v, pos),
        }
    }

    /// `dFdx(p)`, `dFdy(p)` and `fwidth(p) = abs(dFdx(p)) + abs(dFdy(p))` for a float
    /// or vecN `p` (GLSL 1.10 §8.8): DDX and DDY ([`Op::Ddx`], fine derivatives across
    /// the fragment's 2×2 quad, docs/csir.md "Derivatives"), component-wise. A constant
    /// argument folds to `p − p` (0, or NaN for ±inf and NaN).
    ///
    /// Errors: in a vertex shader, "`dFdx` is available only in fragment shaders
    /// (GLSL 1.10 §8.8)"; under the seed profile, "`dFdx` needs the extended profile";
    /// an argument that is not a float scalar or vector, "wrong arguments".
    fn derivative(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        if self.stage != Stage::Fragment {
            return self.err(
                pos,
                format!(
                    "`{name}` is available only in fragment shaders (GLSL 1.10 §8.8: \
                     derivatives are taken across a fragment quad)"
                ),
            );
        }
        if !self.limits.extended_ops() {
            return self.err(
                pos,
                format!(
                    "`{name}` needs the extended profile (the seed's CSIR has no \
                     derivatives; --profile extended)"
                ),
            );
        }
        self.arity(name, v, 1, pos)?;
        let p = self.gen_type(&v[0], false, pos)?;
        match name {
            "dFdx" => self.unary_op(Op::Ddx, &p, p.ty),
            "dFdy" => self.unary_op(Op::Ddy, &p, p.ty),
            _ => {
                let dx = self.unary_op(Op::Ddx, &p, p.ty)?;
                let dy = self.unary_op(Op::Ddy, &p, p.ty)?;
                let ax = self.unary_op(Op::Abs, &dx, p.ty)?;
                let ay = self.unary_op(Op::Abs, &dy, p.ty)?;
                self.lanewise(Op::Add, &ax, &ay, p.ty)
            }
        }
    }

    /// `texture`, `texture2D`, `textureLod`, `texture2DLod` and the projective forms
    /// `textureProj`, `texture2DProj`, `textureProjLod`, `texture2DProjLod` on a
    /// `sampler2D`, with an optional bias (or the level of detail of the `Lod` forms).
    ///
    /// Under the extended profile an explicit level gives SAMPLE_LOD
    /// ([`Op::SampleLod`]) and a bias SAMPLE_BIAS ([`Op::SampleBias`]), with the
    /// texel offset of the `Offset` forms in `aux2`; without either, SAMPLE (or
    /// SAMPLE_OFFSET). The seed profile has no level of detail: its SAMPLE ignores the
    /// level and the bias, as the seed did. The projective forms divide the
    /// coordinate by its last component first (`p.xy / p.z` for a vec3, `p.xy / p.w`
    /// for a vec4).
    ///
    /// The `Offset` forms (`textureOffset(sampler2D, vec2 P, const ivec2 offset [, float
    /// bias])`, `textureProjOffset`, `textureLodOffset(sampler2D, vec2 P, float lod,
    /// const ivec2 offset)`, `textureProjLodOffset`; GLSL 1.30 §8.7) take the offset
    /// after the level of detail and before the bias, and give SAMPLE_OFFSET with the
    /// constant offset ([`Op::SampleOffset`]). They need the extended profile
    /// ("`textureOffset` needs the extended profile"), and the offset must be a
    /// constant expression within -8..=7 ([`texel_offset`](Self::texel_offset)).
    ///
    /// A bias outside a fragment shader is an error naming the function (GLSL 1.30
    /// §8.7: "the bias parameter is not accepted in a vertex shader").
    fn texture(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        let with_offset = OFFSET_FUNCTIONS.contains(&name);
        let base = name.strip_suffix("Offset").unwrap_or(name);
        let projective = base.contains("Proj");
        let explicit_lod = base.ends_with("Lod");
        let coord = if projective {
            "a vec3 or vec4"
        } else {
            "a vec2"
        };
        let offset_arg = if with_offset {
            ", a constant ivec2 offset"
        } else {
            ""
        };
        let extra = if explicit_lod {
            format!(", a float level of detail{offset_arg}")
        } else {
            format!("{offset_arg} (and an optional float bias)")
        };
        let msg = format!("{name}() expects a sampler2D, {coord}{extra}");
        if with_offset && !self.limits.extended_ops() {
            return self.err(
                pos,
                format!(
                    "`{name}` needs the extended profile (the seed's CSIR has no texel \
                     offsets and no 32-bit integers; --profile extended)"
                ),
            );
        }
        let arity_ok = match (explicit_lod, with_offset) {
            (true, false) => v.len() == 3,
            (true, true) => v.len() == 4,
            (false, false) => matches!(v.len(), 2 | 3),
            (false, true) => matches!(v.len(), 3 | 4),
        };
        let slot = match v.first().map(|s| s.repr) {
            Some(Repr::Sampler(slot)) if arity_ok => slot,
            _ => return self.err(pos, msg),
        };
        // The offset's place: after the level of detail, before the bias.
        let offset_at = if explicit_lod { 3 } else { 2 };
        let (offset, lod_or_bias) = if with_offset {
            let lod_or_bias = if explicit_lod { v.get(2) } else { v.get(3) };
            (Some(&v[offset_at]), lod_or_bias)
        } else {
            (None, v.get(2))
        };
        if let Some(lod) = lod_or_bias
            && (lod.ty.width() != 1 || types::base(lod.ty) == Base::Bool || lod.ty.is_matrix())
        {
            return self.err(pos, msg);
        }
        if lod_or_bias.is_some() && !explicit_lod && self.stage != Stage::Fragment {
            return self.err(
                pos,
                format!(
                    "the bias argument of `{name}` is available only in fragment shaders \
                     (GLSL 1.10 §8.7, GLSL 1.30 §8.7: a vertex shader has no implicit level \
                     of detail to bias; use {base}Lod{})",
                    if with_offset { "Offset" } else { "" }
                ),
            );
        }
        let offset = match offset {
            Some(o) if o.ty != Type::IVec2 => return self.err(pos, msg),
            Some(o) => {
                let data = self.texel_offset(name, o, pos)?;
                Some([0, 1].map(|i| data.0[i].to_bits() as i32 as i8))
            }
            None => None,
        };
        let p = v[1];
        let widths_ok = if projective {
            matches!(p.ty.width(), 3 | 4)
        } else {
            p.ty.width() == 2
        };
        if types::base(p.ty) != Base::Float || p.ty.is_matrix() || !widths_ok {
            return self.err(pos, msg);
        }
        let uv = if projective {
            let q = self.lane(&p, p.ty.width() - 1)?;
            let xy = self.swizzle(&p, &[0, 1], Type::Vec2)?;
            let r = self.unary_op(Op::Rcp, &q, Type::Float)?;
            self.widen_op(Op::Mul, &xy, &r, Type::Vec2)?
        } else {
            p
        };
        let t = self.materialize(&uv)?;
        let level = match lod_or_bias {
            Some(lod) if self.limits.extended_ops() => {
                let lod = self.gen_type(lod, false, pos)?;
                let op = if explicit_lod {
                    Op::SampleLod
                } else {
                    Op::SampleBias
                };
                Some((op, self.materialize(&lod)?))
            }
            _ => None,
        };
        let dst = self.temp(1)?;
        let sample = Ir::new(Op::Sample, Type::Vec4.ir())
            .dst(dst)
            .a(t)
            .aux(slot as i16)
            .ncomp(4);
        self.emit(match (level, offset) {
            (None, None) => sample,
            (None, Some(offset)) => Ir {
                op: Op::SampleOffset.code(),
                ..sample.with_texel_offset(offset)
            },
            (Some((op, lod)), offset) => Ir {
                op: op.code(),
                ..sample.b(lod).with_texel_offset(offset.unwrap_or([0, 0]))
            },
        })?;
        Ok(Value::temp(Type::Vec4, dst))
    }

    /// `textureGrad(sampler2D, vec2 P, vec2 dPdx, vec2 dPdy)` and
    /// `textureGradOffset(…, const ivec2 offset)` (GLSL 1.30 §8.7): SAMPLE_GRAD
    /// ([`Op::SampleGrad`]) with the gradients packed as `(dPdx.x, dPdx.y, dPdy.x,
    /// dPdy.y)` and the offset in `aux2`.
    ///
    /// Errors: under the seed profile "`textureGrad` needs the extended profile";
    /// arguments other than a sampler, three vec2 (and a constant ivec2 offset within
    /// -8..=7, [`texel_offset`](Self::texel_offset)).
    fn texture_grad(&mut self, name: &str, v: &[Value], pos: Pos) -> LResult<Value> {
        if !self.limits.extended_ops() {
            return self.err(
                pos,
                format!(
                    "`{name}` needs the extended profile (the seed's CSIR has no level of \
                     detail; --profile extended)"
                ),
            );
        }
        let with_offset = name == "textureGradOffset";
        let slot = match v.first().map(|s| s.repr) {
            Some(Repr::Sampler(slot)) if v.len() == 4 + usize::from(with_offset) => slot,
            _ => return self.wrong_arguments(pos),
        };
        if v[1..4].iter().any(|x| x.ty != Type::Vec2) {
            return self.wrong_arguments(pos);
        }
        let offset = match v.get(4) {
            Some(o) if o.ty != Type::IVec2 => return self.wrong_arguments(pos),
            Some(o) => {
                let data = self.texel_offset(name, o, pos)?;
                [0, 1].map(|i| data.0[i].to_bits() as i32 as i8)
            }
            None => [0, 0],
        };
        let (dpdx, dpdy) = (v[2], v[3]);
        let mark = self.em.mark();
        let gradients = self.assemble(
            &[(dpdx, 0), (dpdx, 1), (dpdy, 0), (dpdy, 1)],
            Type::Vec4,
            mark,
        )?;
        let coord = self.materialize(&v[1])?;
        let gradients = self.materialize(&gradients)?;
        let dst = self.temp(1)?;
        self.emit(
            Ir::new(Op::SampleGrad, Type::Vec4.ir())
                .dst(dst)
                .a(coord)
                .b(gradients)
                .aux(slot as i16)
                .ncomp(4)
                .with_texel_offset(offset),
        )?;
        Ok(Value::temp(Type::Vec4, dst))
    }

    /// `textureSize(sampler2D, int lod)` (GLSL 1.30 §8.7): TEXSIZE into an `ivec2`,
    /// the texture's size in texels at level `lod` (textures have one level; the
    /// rule for the others is TEXSIZE's, [`Op::TexSize`]).
    ///
    /// Errors: under the seed profile, which has neither texture queries nor 32-bit
    /// integers, "textureSize needs the extended profile"; arguments other than a
    /// sampler and an `int`.
    fn texture_size(&mut self, v: &[Value], pos: Pos) -> LResult<Value> {
        self.integer_texture_profile("textureSize", pos)?;
        let slot = match v {
            [sampler, lod] if lod.ty == Type::Int => match sampler.repr {
                Repr::Sampler(slot) => slot,
                _ => return self.wrong_arguments(pos),
            },
            _ => return self.wrong_arguments(pos),
        };
        let lod = self.materialize(&v[1])?;
        let dst = self.temp(1)?;
        self.emit(
            Ir::new(Op::TexSize, Type::IVec2.ir())
                .dst(dst)
                .a(lod)
                .aux(slot as i16)
                .ncomp(2),
        )?;
        Ok(Value::temp(Type::IVec2, dst))
    }

    /// `texelFetch(sampler2D, ivec2 P, int lod)` (GLSL 1.30 §8.7): TEXFETCH into a
    /// `vec4`, the texel at integer index `P` of level `lod`, unfiltered; out of range
    /// it is (0, 0, 0, 0) ([`Op::TexFetch`]).
    ///
    /// Errors: under the seed profile "`texelFetch` needs the extended profile";
    /// arguments other than a sampler, an `ivec2` and an `int`.
    fn texel_fetch(&mut self, v: &[Value], pos: Pos) -> LResult<Value> {
        self.integer_texture_profile("texelFetch", pos)?;
        let slot = match v {
            [sampler, p, lod] if p.ty == Type::IVec2 && lod.ty == Type::Int => match sampler.repr {
                Repr::Sampler(slot) => slot,
                _ => return self.wrong_arguments(pos),
            },
            _ => return self.wrong_arguments(pos),
        };
        let p = self.materialize(&v[1])?;
        let lod = self.materialize(&v[2])?;
        let dst = self.temp(1)?;
        self.emit(
            Ir::new(Op::TexFetch, Type::Vec4.ir())
                .dst(dst)
                .a(p)
                .b(lod)
                .aux(slot as i16)
                .ncomp(4),
        )?;
        Ok(Value::temp(Type::Vec4, dst))
    }

    /// `texelFetchOffset(sampler2D, ivec2 P, int lod, const ivec2 offset)` (GLSL 1.30
    /// §8.7): `texelFetch(P + offset, lod)`. The offset is a whole number of texels
    /// added to an integer index, so one exact integer addition (UADD, folded when `P`
    /// is constant) gives what GL's offset rule gives, range check included.
    ///
    /// Errors: under the seed profile "`texelFetchOffset` needs the extended profile";
    /// an offset that is not a constant expression or outside -8..=7
    /// ([`texel_offset`](Self::texel_offset)); other arguments than a sampler, an
    /// `ivec2`, an `int` and an `ivec2`.
    fn texel_fetch_offset(&mut self, v: &[Value], pos: Pos) -> LResult<Value> {
        self.integer_texture_profile("texelFetchOffset", pos)?;
        let [sampler, p, lod, offset] = v else {
            return self.wrong_arguments(pos);
        };
        if p.ty != Type::IVec2 || offset.ty != Type::IVec2 {
            return self.wrong_arguments(pos);
        }
        let offset = self.texel_offset("texelFetchOffset", offset, pos)?;
        let offset = Value::konst(Type::IVec2, offset);
        let moved = self.lanewise(Op::Add, p, &offset, Type::IVec2)?;
        self.texel_fetch(&[*sampler, moved, *lod], pos)
    }

    /// The texel offset argument of `NAME` (`texelFetchOffset`): a constant `ivec2`
    /// whose lanes lie in GL's offset range, [`TEXEL_OFFSETS`] (GLSL 1.30 §8.7: "the
    /// offset value must be a constant expression", within
    /// MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET).
    ///
    /// Errors: "the offset of `NAME` must be a constant expression"; "texel offset
    /// (X, Y) of `NAME` is out of range: each component must lie in -8..=7
    /// (MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET)".
    fn texel_offset(&mut self, name: &str, offset: &Value, pos: Pos) -> LResult<ConstData> {
        let Some(data) = offset.as_const() else {
            return self.err(
                pos,
                format!("the offset of `{name}` must be a constant expression (GLSL 1.30 §8.7)"),
            );
        };
        let [x, y] = [0, 1].map(|i| data.0[i].to_bits() as i32);
        if !(TEXEL_OFFSETS.contains(&x) && TEXEL_OFFSETS.contains(&y)) {
            return self.err(
                pos,
                format!(
                    "texel offset ({x}, {y}) of `{name}` is out of range: each component \
                     must lie in -8..=7 (MIN_PROGRAM_TEXEL_OFFSET..=MAX_PROGRAM_TEXEL_OFFSET)"
                ),
            );
        }
        Ok(data)
    }

    /// The error for a texture function with integer operands (`textureSize`,
    /// `texelFetch`) under the seed profile, which has neither those instructions nor
    /// 32-bit integers: "`NAME` needs the extended profile".
    fn integer_texture_profile(&mut self, name: &str, pos: Pos) -> LResult<()> {
        if self.limits.extended_ops() {
            return Ok(());
        }
        self.err(
            pos,
            format!(
                "`{name}` needs the extended profile (the seed's CSIR has no texture size \
                 query, no integer texel fetch and no 32-bit integers; --profile extended)"
            ),
        )
    }

    /// `a.yzx * b.zxy - a.zxy * b.yzx`.
    fn cross(&mut self, a: &Value, b: &Value) -> LResult<Value> {
        let ty = Type::Vec3;
        let a1 = self.swizzle(a, &[1, 2, 0], ty)?;
        let b1 = self.swizzle(b, &[2, 0, 1], ty)?;
        let p = self.lanewise(Op::Mul, &a1, &b1, ty)?;
        let a2 = self.swizzle(a, &[2, 0, 1], ty)?;
        let b2 = self.swizzle(b, &[1, 2, 0], ty)?;
        let q = self.lanewise(Op::Mul, &a2, &b2, ty)?;
        self.lanewise(Op::Sub, &p, &q, ty)
    }

    /// length: |x| for scalars, else RCP(RSQ(dot(x, x))).
    pub(crate) fn length(&mut self, x: &Value) -> LResult<Value> {
        if x.ty.width() == 1 {
            return self.unary_op(Op::Abs, x, Type::Float);
        }
        let d = self.dot(x, x)?;
        let r = self.scalar_op(Op::Rsq, &d, None, 0, Type::Float)?;
        self.unary_op(Op::Rcp, &r, Type::Float)
    }

    /// normalize: x · RSQ(dot(x, x)) (broadcast).
    fn normalize(&mut self, x: &Value) -> LResult<Value> {
        let d = self.dot(x, x)?;
        let r = self.scalar_op(Op::Rsq, &d, None, 0, Type::Float)?;
        self.widen_op(Op::Mul, x, &r, x.ty)
    }

    /// An int argument of a built-in that has only float overloads, converted when
    /// the dialect converts int to float implicitly (GLSL 1.20 §6.1: a call matches
    /// an overload through implicit conversions when none matches exactly).
    pub(crate) fn float_arg(&mut self, v: &Value) -> LResult<Value> {
        if types::is_int_base(types::base(v.ty)) && !v.ty.is_matrix() && self.int_to_float() {
            return self.convert(v, Type::float_vec(v.ty.width()));
        }
        Ok(*v)
    }

    /// refract (GLSL 1.10 §8.4): k = 1 − η²·(1 − dot(n, i)²); 0 when k < 0, else
    /// η·i − (η·dot(n, i) + sqrt(k))·n. The square root takes max(k, 0) so that the
    /// masked-out lanes stay finite.
    fn refract(&mut self, i: &Value, n: &Value, eta: &Value) -> LResult<Value> {
        let f = Type::Float;
        let d = self.dot(n, i)?;
        let d2 = self.lanewise(Op::Mul, &d, &d, f)?;
        let one = Value::float(1.0);
        let q = self.lanewise(Op::Sub, &one, &d2, f)?;
        let e2 = self.lanewise(Op::Mul, eta, eta, f)?;
        let p = self.lanewise(Op::Mul, &e2, &q, f)?;
        let k = self.lanewise(Op::Sub, &one, &p, f)?;
        let kp = self.lanewise(Op::Max, &k, &Value::float(0.0), f)?;
        let r = self.lanes1(Op::Rsq, &kp)?;
        let root = self.lanewise(Op::Mul, &kp, &r, f)?;
        let ed = self.lanewise(Op::Mul, eta, &d, f)?;
        let s = self.lanewise(Op::Add, &ed, &root, f)?;
        let sn = self.widen_op(Op::Mul, n, &s, n.ty)?;
        let ei = self.widen_op(Op::Mul, i, eta, i.ty)?;
        let t = self.lanewise(Op::Sub, &ei, &sn, i.ty)?;
        let ok = self.scalar_op(Op::Cmp, &k, Some(&Value::float(0.0)), CmpCode::Ge.code(), f)?;
        self.widen_op(Op::Mul, &t, &ok, i.ty)
    }

    /// reflect: i − 2·dot(n, i)·n.
    fn reflect(&mut self, i: &Value, n: &Value) -> LResult<Value> {
        let d = self.dot(n, i)?;
        let d2 = self.lanewise(Op::Add, &d, &d, Type::Float)?;
        let s = self.widen_op(Op::Mul, n, &d2, n.ty)?;
        self.lanewise(Op::Sub, i, &s, i.ty)
    }

    fn transpose(&mut self, m: &Value) -> LResult<Value> {
        // matCxR → matRxC: cell (c, r) of the result is cell (r, c) of `m`.
        let (cols, rows) = (m.ty.width(), m.ty.columns());
        let ty = Type::matrix(cols, rows);
        let col_ty = Type::float_vec(rows);
        if let Some(c) = m.as_const() {
            let mut d = ConstData::ZERO;
            for col in 0..cols as usize {
                for r in 0..rows as usize {
                    d.set(col, r, c.get(r, col));
                }
            }
            return Ok(Value::konst(ty, d));
        }
        let dst = self.temp(cols)?;
        for c in 0..cols {
            let comps: Vec<(Value, u8)> = (0..rows).map(|r| (self.column(m, r), c)).collect();
            let mark = self.em.mark();
            self.assemble_into(&comps, col_ty, mark, Some(dst + c as i16))?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// `outerProduct(c, r)`: the matrix of `r`'s width in columns and `c`'s in rows
    /// whose column j is `c * r[j]` (GLSL 3.30 §8.5).
    fn outer_product(&mut self, c: &Value, r: &Value, pos: Pos) -> LResult<Value> {
        let float_vec = |t: Type| types::base(t) == Base::Float && !t.is_matrix() && t.width() >= 2;
        if !float_vec(c.ty) || !float_vec(r.ty) {
            let m = format!(
                "outerProduct takes two float vectors (vec2..vec4), not {} and {}",
                c.ty, r.ty
            );
            return self.err(pos, m);
        }
        let ty = Type::matrix(r.ty.width(), c.ty.width());
        let col_ty = Type::float_vec(c.ty.width());
        if let (Some(x), Some(y)) = (c.as_const(), r.as_const()) {
            let mut d = ConstData::ZERO;
            for j in 0..ty.columns() as usize {
                for i in 0..ty.width() as usize {
                    d.set(j, i, x.get(0, i) * y.get(0, j));
                }
            }
            return Ok(Value::konst(ty, d));
        }
        let dst = self.temp(ty.columns())?;
        for j in 0..ty.columns() {
            let s = self.lane(r, j)?;
            let col = self.widen_op(Op::Mul, c, &s, col_ty)?;
            self.store_into(dst + j as i16, &col, col_ty)?;
        }
        Ok(Value::temp(ty, dst))
    }

    /// `determinant(m)` of a square matrix, by cofactor expansion along the first
    /// column (GLSL 3.30 §8.5; GLSL asks for no particular order of operations).
    fn determinant(&mut self, m: &Value, pos: Pos) -> LResult<Value> {
        let n = m.ty.width();
        if !m.ty.is_matrix() || m.ty.columns() != n {
            let msg = format!("determinant takes a square matrix, not {}", m.ty);
            return self.err(pos, msg);
        }
        let mut minors = Minors::new(self.matrix_cells_of(m)?);
        let all: Vec<u8> = (0..n).collect();
        let det = self.minor(&mut minors, &all, &all);
        self.release_minors(&minors);
        det
    }

    /// `inverse(m)` of a square matrix: the adjugate times 1/determinant (GLSL 1.40
    /// §8.5; undefined for a singular matrix, where this gives 0, docs/csir-original.md A1:
    /// RCP(0) = 0). Each result column is built in its own statement frame, so the
    /// temporaries stay within the pool (about 40 for a `mat4`).
    fn inverse(&mut self, m: &Value, pos: Pos) -> LResult<Value> {
        let n = m.ty.width();
        if !m.ty.is_matrix() || m.ty.columns() != n {
            let msg = format!("inverse takes a square matrix, not {}", m.ty);
            return self.err(pos, msg);
        }
        let f = Type::Float;
        let mut minors = Minors::new(self.matrix_cells_of(m)?);
        let all: Vec<u8> = (0..n).collect();
        let constant = m.as_const().is_some();
        // 1/det and −1/det; unless folded, computed in a frame of their own and kept in
        // two temporaries.
        let t = if constant { 0 } else { self.temp(2)? };
        if !constant {
            self.em.push_frame();
        }
        let reciprocals = (|| {
            let det = self.minor(&mut minors, &all, &all)?;
            let inv = self.unary_op(Op::Rcp, &det, f)?;
            let neg = self.lanewise(Op::Mul, &inv, &Value::float(-1.0), f)?;
            if !constant {
                self.store_into(t, &inv, f)?;
                self.store_into(t + 1, &neg, f)?;
            }
            Ok((inv, neg))
        })();
        if !constant {
            self.em.pop_frame();
        }
        let (inv_det, neg_inv_det) = match reciprocals? {
            folded if constant => folded,
            _ => (Value::temp(f, t), Value::temp(f, t + 1)),
        };
        let dst = if constant { 0 } else { self.temp(n)? };
        let mut folded = ConstData::ZERO;
        // inverse[c][r] = (−1)^(r+c) · minor(without column r, without row c) / det.
        for c in 0..n {
            if !constant {
                self.em.push_frame();
            }
            let mut entries = Vec::new();
            for r in 0..n {
                let rows: Vec<u8> = all.iter().copied().filter(|&x| x != c).collect();
                let cols: Vec<u8> = all.iter().copied().filter(|&x| x != r).collect();
                let minor = self.minor(&mut minors, &rows, &cols)?;
                let scale = if (r + c) % 2 == 1 {
                    neg_inv_det
                } else {
                    inv_det
                };
                let e = self.lanewise(Op::Mul, &minor, &scale, f)?;
                if let Some(k) = e.as_const() {
                    folded.set(c as usize, r as usize, k.0[0]);
                }
                entries.push((e, 0u8));
            }
            if !constant {
                let mark = self.em.mark();
                let at = Some(dst + c as i16);
                let done = self.assemble_into(&entries, Type::float_vec(n), mark, at);
                self.em.pop_frame();
                done?;
            }
        }
        self.release_minors(&minors);
        if constant {
            return Ok(Value::konst(m.ty, folded));
        }
        Ok(Value::temp(m.ty, dst))
    }

    /// Every cell of `m` as a scalar value: `cells[c][r]`.
    fn matrix_cells_of(&mut self, m: &Value) -> LResult<Vec<Vec<Value>>> {
        let mut cells = Vec::new();
        for c in 0..m.ty.columns() {
            let col = self.column(m, c);
            let mut v = Vec::new();
            for r in 0..m.ty.width() {
                v.push(self.lane(&col, r)?);
            }
            cells.push(v);
        }
        Ok(cells)
    }

    /// The determinant of the submatrix of `minors.cells` on `rows` × `cols` (equal
    /// lengths, ascending), expanded along its first column; 2 × 2 determinants are
    /// computed once and shared.
    fn minor(&mut self, minors: &mut Minors, rows: &[u8], cols: &[u8]) -> LResult<Value> {
        let f = Type::Float;
        let at = |m: &Minors, c: u8, r: u8| m.cells[c as usize][r as usize];
        match rows.len() {
            1 => return Ok(at(minors, cols[0], rows[0])),
            2 => {
                let key = (cols[0], cols[1], rows[0], rows[1]);
                if let Some(v) = minors.two.get(&key) {
                    return Ok(*v);
                }
                let (a, d) = (at(minors, cols[0], rows[0]), at(minors, cols[1], rows[1]));
                let (b, c) = (at(minors, cols[1], rows[0]), at(minors, cols[0], rows[1]));
                let p = self.lanewise(Op::Mul, &a, &d, f)?;
                let q = self.lanewise(Op::Mul, &b, &c, f)?;
                let v = self.lanewise(Op::Sub, &p, &q, f)?;
                let v = match v.as_const() {
                    Some(_) => v,
                    None => {
                        // Kept past this statement's frame until the caller releases it.
                        let t = self.em.storage(1).map_err(|e| self.pool(e))?;
                        self.store_into(t, &v, f)?;
                        minors.owned.push(t);
                        Value::temp(f, t)
                    }
                };
                minors.two.insert(key, v);
                return Ok(v);
            }
            _ => {}
        }
        let mut acc: Option<Value> = None;
        for (i, &r) in rows.iter().enumerate() {
            let sub_rows: Vec<u8> = rows.iter().copied().filter(|&x| x != r).collect();
            let sub = self.minor(minors, &sub_rows, &cols[1..])?;
            let term = self.lanewise(Op::Mul, &at(minors, cols[0], r), &sub, f)?;
            acc = Some(match acc {
                None => term,
                Some(a) if i % 2 == 1 => self.lanewise(Op::Sub, &a, &term, f)?,
                Some(a) => self.lanewise(Op::Add, &a, &term, f)?,
            });
        }
        Ok(acc.expect("at least three rows"))
    }

    fn release_minors(&mut self, minors: &Minors) {
        for &t in &minors.owned {
            self.em.release(t, 1);
        }
    }
}

/// The cells of a square matrix and its 2 × 2 minors computed so far, keyed by
/// (column, column, row, row).
struct Minors {
    cells: Vec<Vec<Value>>,
    two: std::collections::HashMap<(u8, u8, u8, u8), Value>,
    /// Temporaries holding minors, released when the built-in is done.
    owned: Vec<i16>,
}

impl Minors {
    fn new(cells: Vec<Vec<Value>>) -> Minors {
        Minors {
            cells,
            two: Default::default(),
            owned: Vec::new(),
        }
    }
}
