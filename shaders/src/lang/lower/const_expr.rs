//! Which index expressions are *constant expressions* in GLSL's sense (GLSL 1.20
//! §4.3.3): an index that is one and is out of range is a compile-time error (§4.1.9,
//! §5.5); any other index out of range follows csir-render's run-time rule (a read gives
//! element 0, a write writes nothing; docs/glsl-dialects.md, "Run-time indexes"), even
//! when the compiler happens to know its value (`int i = 20; a[i]`, a loop counter).

use super::super::ast::{Expr, ExprKind};
use super::super::builtin_vars::visit_expr;
use super::super::scope::Access;
use super::super::types::{self, Type};
use super::builtins::SUPPORTED;
use super::value::Value;
use super::{LResult, Lowerer};

impl Lowerer<'_> {
    /// Whether `e` is a constant expression (GLSL 1.20 §4.3.3): literals, `const`
    /// variables with a value, and operators, constructors and built-in calls whose
    /// operands are all constant expressions. A `const in` parameter counts too (GLSL
    /// says it does not); `e.length()` of an array always does.
    pub(crate) fn is_constant_expression(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::UInt(_) | ExprKind::Float(_) | ExprKind::Bool(_) => true,
            ExprKind::Ident(name) => match self.scopes.lookup(name) {
                Some(id) => {
                    let v = self.scopes.var(id);
                    v.access == Access::Const && v.known.is_some()
                }
                // A built-in constant (`gl_MaxDrawBuffers`, GLSL 1.10 §7.4).
                None => {
                    crate::lang::builtin_vars::constant(name, self.program.dialect, &self.limits)
                        .is_some()
                }
            },
            ExprKind::Length(_) => true,
            ExprKind::Unary(_, x) | ExprKind::Swizzle(x, _) => self.is_constant_expression(x),
            ExprKind::Binary(_, l, r) | ExprKind::Index(l, r) => {
                self.is_constant_expression(l) && self.is_constant_expression(r)
            }
            // GLSL ES 3.00 §4.3.3 (and desktop GLSL from 4.30) leaves the sequence
            // operator out of constant expressions; earlier versions do not.
            ExprKind::Comma(l, r) => {
                !self.sequence_is_not_constant()
                    && self.is_constant_expression(l)
                    && self.is_constant_expression(r)
            }
            ExprKind::Ternary(c, a, b) => {
                self.is_constant_expression(c)
                    && self.is_constant_expression(a)
                    && self.is_constant_expression(b)
            }
            ExprKind::Construct { args, .. } | ExprKind::ArrayConstruct { args, .. } => {
                args.iter().all(|a| self.is_constant_expression(a))
            }
            ExprKind::Call { name, args } => {
                let user = self.funcs.iter().any(|f| f.def.name == *name);
                !user
                    && SUPPORTED.contains(&name.as_str())
                    && args.iter().all(|a| self.is_constant_expression(a))
            }
            _ => false,
        }
    }

    /// Whether the dialect leaves the sequence operator `,` out of constant
    /// expressions: GLSL ES 3.00 §4.3.3 ("the sequence operator ( , ) and the
    /// assignment operators ... are not included in the operators that can create a
    /// constant expression").
    pub(crate) fn sequence_is_not_constant(&self) -> bool {
        let d = self.program.dialect;
        d.is_es() && d.version >= 300
    }

    /// The error for an initializer `init` of `name` that must be a constant
    /// expression but holds the sequence operator where the dialect leaves it out
    /// ([`Lowerer::sequence_is_not_constant`]), if it does.
    pub(crate) fn sequence_in_constant(&self, name: &str, init: &Expr) -> Option<String> {
        if !self.sequence_is_not_constant() {
            return None;
        }
        let mut seq = false;
        visit_expr(init, &mut |e| seq |= matches!(e.kind, ExprKind::Comma(..)));
        seq.then(|| {
            format!(
                "the initializer of '{name}' must be a constant expression, and the \
                 sequence operator (,) is not one in {} (GLSL ES 3.00 §4.3.3)",
                self.program.dialect
            )
        })
    }

    /// The index `index` (the value of `e`) into something of `n` elements, as the
    /// indexing code should see it: a known value that is out of range and not a
    /// constant expression is put in a temporary, so that the run-time rule applies to
    /// it instead of the compile-time error; every other index is returned unchanged.
    pub(crate) fn index_at_run_time(&mut self, index: Value, n: usize, e: &Expr) -> LResult<Value> {
        // known_index reads the value as the profile holds it (a float, or an integer
        // bit pattern under the extended profile).
        let out_of_range = index.ty.is_integer()
            && index.as_const().is_some()
            && self
                .known_index(&index)
                .is_some_and(|k| !(0.0..n as f32).contains(&k));
        if !out_of_range || self.is_constant_expression(e) {
            return Ok(index);
        }
        Ok(Value::temp(Type::Int, self.materialize(&index)?))
    }

    /// Run `f` (the lowering of an expression GLSL requires to be a constant
    /// expression) with [`Lowerer::constant_required`] raised.
    pub(crate) fn in_constant<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.constant_required += 1;
        let r = f(self);
        self.constant_required -= 1;
        r
    }

    /// Whether a division by a known zero divisor compiles: under the extended
    /// profile, outside a context that requires a constant expression. GLSL 1.10 §5.9
    /// (and every later version) says division by zero "does not cause an exception
    /// but does result in an unspecified value", so `int x = 1 / 0;` in a function
    /// body compiles, with the value the extended profile's instruction gives at run
    /// time (IDIV 0, IMOD -1, DIV ±inf or NaN; folded by the same rules);
    /// the seed profile keeps the original's compile-time "division by zero"
    /// (docs/csir.md, "Reciprocal-based division").
    pub(crate) fn zero_divisor_at_run_time(&self) -> bool {
        self.limits.extended_ops() && self.constant_required == 0
    }

    /// The divisor `b` (the value of `e`) of `/` or `%` as the arithmetic should see
    /// it: a known value with a zero lane that is not a constant expression (`float z =
    /// u - u;`, `float z = 0.0; x / z`) is put in temporaries, so that the division
    /// happens at run time by CSIR's rules (RCP(0) = 0, docs/conformance.md) instead of
    /// the compile-time "division by zero", which stays for constant expressions
    /// (`1.0 / 0.0`; docs/csir-original.md B §1.7).
    pub(crate) fn divisor_at_run_time(&mut self, b: Value, e: &Expr) -> LResult<Value> {
        let width = usize::from(types::width(b.ty));
        let has_zero = b.as_const().is_some_and(|c| {
            (0..usize::from(types::cols(b.ty)) * 4)
                .any(|i| i % 4 < width && self.const_lane_is_zero(b.ty, &c, i))
        });
        if !has_zero || self.is_constant_expression(e) {
            return Ok(b);
        }
        Ok(Value::temp(b.ty, self.materialize(&b)?))
    }
}
