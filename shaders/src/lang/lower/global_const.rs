//! The value of a global array's size (GLSL 1.20 §4.1.9: "a constant integral
//! expression"), found before any code is lowered: global `const` variables get their
//! values only when `main`'s lowering reaches their initializers, so sizes are folded
//! here from the syntax tree. Scalars only: literals, the names of global scalar
//! `const`s and built-in constants, the arithmetic, relational, equality and logical
//! operators, `?:`, the sequence operator where it is a constant one, scalar
//! conversions (`int(2.3)`) and `.length()` of an array declared before.

use super::super::ast::{BinOp, Expr, ExprKind, Item, Storage, UnOp};
use super::super::types::Type;
use super::Lowerer;

/// A folded scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scalar {
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Scalar {
    fn float(self) -> Option<f64> {
        match self {
            Scalar::Int(i) => Some(i as f64),
            Scalar::Float(f) => Some(f),
            Scalar::Bool(_) => None,
        }
    }
}

/// Most nodes one size may visit (constants defined in terms of each other many
/// times over cannot take exponential time).
const MAX_NODES: u32 = 4096;

impl Lowerer<'_> {
    /// Fold `e` as a global constant scalar expression (`None` when it is not one this
    /// folder knows). `work` counts the nodes visited.
    pub(crate) fn global_const(&self, e: &Expr, work: &mut u32) -> Option<Scalar> {
        *work += 1;
        if *work > MAX_NODES {
            return None;
        }
        match &e.kind {
            ExprKind::Int(v) => Some(Scalar::Int(*v as i64)),
            ExprKind::UInt(v) => Some(Scalar::Int(*v as i64)),
            ExprKind::Float(v) => Some(Scalar::Float(*v as f64)),
            ExprKind::Bool(b) => Some(Scalar::Bool(*b)),
            ExprKind::Unary(op, x) => match (op, self.global_const(x, work)?) {
                (UnOp::Plus, s @ (Scalar::Int(_) | Scalar::Float(_))) => Some(s),
                (UnOp::Neg, Scalar::Int(i)) => i.checked_neg().map(Scalar::Int),
                (UnOp::Neg, Scalar::Float(f)) => Some(Scalar::Float(-f)),
                (UnOp::Not, Scalar::Bool(b)) => Some(Scalar::Bool(!b)),
                _ => None,
            },
            ExprKind::Binary(op, a, b) => {
                let x = self.global_const(a, work)?;
                let y = self.global_const(b, work)?;
                binary(*op, x, y)
            }
            ExprKind::Ternary(c, a, b) => {
                let Scalar::Bool(c) = self.global_const(c, work)? else {
                    return None;
                };
                let (x, y) = (self.global_const(a, work)?, self.global_const(b, work)?);
                let same = std::mem::discriminant(&x) == std::mem::discriminant(&y);
                same.then_some(if c { x } else { y })
            }
            ExprKind::Comma(a, b) if self.sequence_in_array_size() => {
                self.global_const(a, work)?;
                self.global_const(b, work)
            }
            ExprKind::Construct { ty, args } if args.len() == 1 => {
                let x = self.global_const(&args[0], work)?;
                convert(*ty, x)
            }
            ExprKind::Length(x) => self.global_length(x, work).map(|n| Scalar::Int(n as i64)),
            ExprKind::Ident(name) => {
                let program = self.program;
                let found = program.items.iter().find_map(|item| match item {
                    Item::Global(g)
                        if g.name == *name
                            && g.quals.storage == Storage::Const
                            && g.array.is_none()
                            && matches!(
                                g.ty,
                                Type::Int | Type::Uint | Type::Float | Type::Bool
                            ) =>
                    {
                        Some(g)
                    }
                    _ => None,
                });
                match found {
                    Some(g) => {
                        let v = self.global_const(g.init.as_ref()?, work)?;
                        convert(g.ty, v).filter(|_| same_kind(g.ty, v, self.int_to_float()))
                    }
                    // A built-in constant (`gl_MaxClipDistances`, ...; GLSL 1.30 §7.4).
                    None => {
                        crate::lang::builtin_vars::constant(name, program.dialect, &self.limits)
                            .map(|k| Scalar::Int(i64::from(k)))
                    }
                }
            }
            _ => None,
        }
    }

    /// The length of an array operand of `.length()` in a global size: an array
    /// declared before, an array constructor, or `?:` of those.
    fn global_length(&self, e: &Expr, work: &mut u32) -> Option<usize> {
        *work += 1;
        if *work > MAX_NODES {
            return None;
        }
        match &e.kind {
            ExprKind::Ident(name) => {
                let id = self.scopes.lookup(name)?;
                let v = self.scopes.var(id);
                if v.poisoned {
                    return None;
                }
                v.array.map(|a| a.len as usize)
            }
            ExprKind::ArrayConstruct { args, .. } => Some(args.len()),
            ExprKind::Ternary(c, a, b) => {
                let Scalar::Bool(c) = self.global_const(c, work)? else {
                    return None;
                };
                let (x, y) = (self.global_length(a, work)?, self.global_length(b, work)?);
                (x == y).then_some(if c { x } else { y })
            }
            _ => None,
        }
    }
}

/// Whether the initializer value `v` may initialize a `const` of type `ty`: the same
/// kind, or an int for a float where the dialect converts implicitly.
fn same_kind(ty: Type, v: Scalar, int_to_float: bool) -> bool {
    match (ty, v) {
        (Type::Int | Type::Uint, Scalar::Int(_)) => true,
        (Type::Float, Scalar::Float(_)) => true,
        (Type::Float, Scalar::Int(_)) => int_to_float,
        (Type::Bool, Scalar::Bool(_)) => true,
        _ => false,
    }
}

/// A scalar constructor `ty(x)` (GLSL 1.20 §5.4.1).
fn convert(ty: Type, x: Scalar) -> Option<Scalar> {
    Some(match ty {
        Type::Int | Type::Uint => match x {
            Scalar::Int(i) => Scalar::Int(i),
            Scalar::Float(f) if f.is_finite() => Scalar::Int(f.trunc() as i64),
            Scalar::Float(_) => return None,
            Scalar::Bool(b) => Scalar::Int(i64::from(b)),
        },
        Type::Float => match x {
            Scalar::Bool(b) => Scalar::Float(if b { 1.0 } else { 0.0 }),
            _ => Scalar::Float(x.float()?),
        },
        Type::Bool => match x {
            Scalar::Bool(b) => Scalar::Bool(b),
            Scalar::Int(i) => Scalar::Bool(i != 0),
            Scalar::Float(f) => Scalar::Bool(f != 0.0),
        },
        _ => return None,
    })
}

/// `x op y` on folded scalars (integer arithmetic exact, with overflow and division
/// by zero not folded).
fn binary(op: BinOp, x: Scalar, y: Scalar) -> Option<Scalar> {
    use Scalar::{Bool, Float, Int};
    let cmp = |o: std::cmp::Ordering| -> Option<Scalar> {
        use std::cmp::Ordering::*;
        Some(Bool(match op {
            BinOp::Lt => o == Less,
            BinOp::Gt => o == Greater,
            BinOp::Le => o != Greater,
            BinOp::Ge => o != Less,
            BinOp::Eq => o == Equal,
            BinOp::Ne => o != Equal,
            _ => return None,
        }))
    };
    match (x, y) {
        (Int(a), Int(b)) => match op {
            BinOp::Add => a.checked_add(b).map(Int),
            BinOp::Sub => a.checked_sub(b).map(Int),
            BinOp::Mul => a.checked_mul(b).map(Int),
            BinOp::Div => a.checked_div(b).map(Int),
            BinOp::Mod => a.checked_rem(b).map(Int),
            _ => cmp(a.cmp(&b)),
        },
        (Bool(a), Bool(b)) => match op {
            BinOp::And => Some(Bool(a && b)),
            BinOp::Or => Some(Bool(a || b)),
            BinOp::Xor => Some(Bool(a != b)),
            BinOp::Eq => Some(Bool(a == b)),
            BinOp::Ne => Some(Bool(a != b)),
            _ => None,
        },
        (Float(_), _) | (_, Float(_)) => {
            let (a, b) = (x.float()?, y.float()?);
            match op {
                BinOp::Add => Some(Float(a + b)),
                BinOp::Sub => Some(Float(a - b)),
                BinOp::Mul => Some(Float(a * b)),
                BinOp::Div if b != 0.0 => Some(Float(a / b)),
                _ => cmp(a.partial_cmp(&b)?),
            }
        }
        _ => None,
    }
}
