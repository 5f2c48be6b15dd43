//! The value of an expression during lowering (docs/csir-original.md B §1.7: a
//! temporary, a type, a width, a column count, a constant flag with up to four known
//! floats, and a sampler flag).

use super::super::consteval::ConstData;
use super::super::types::Type;

/// Where a value lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Repr {
    /// Known at compile time; materialized into a temporary only when an
    /// instruction needs it.
    Const(ConstData),
    /// In temporaries `t .. t + columns` (one per matrix column).
    Temp(i16),
    /// A `sampler2D`: its sampler slot.
    Sampler(u16),
}

/// A typed value. `Type::None` is the poison type (an error was reported); `Type::Void`
/// is the result of a void call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Value {
    pub ty: Type,
    pub repr: Repr,
}

impl Value {
    /// A compile-time value.
    pub fn konst(ty: Type, data: ConstData) -> Value {
        Value {
            ty,
            repr: Repr::Const(data),
        }
    }

    /// A scalar float constant.
    pub fn float(v: f32) -> Value {
        Value::konst(Type::Float, ConstData::scalar(v))
    }

    /// A bool constant (1.0 / 0.0).
    pub fn bool(v: bool) -> Value {
        Value::konst(Type::Bool, ConstData::scalar(if v { 1.0 } else { 0.0 }))
    }

    /// A value in temporaries starting at `t`.
    pub fn temp(ty: Type, t: i16) -> Value {
        Value {
            ty,
            repr: Repr::Temp(t),
        }
    }

    /// The result of a void call.
    pub fn void() -> Value {
        Value::konst(Type::Void, ConstData::ZERO)
    }

    /// The constant, if known.
    pub fn as_const(&self) -> Option<ConstData> {
        match self.repr {
            Repr::Const(c) => Some(c),
            _ => None,
        }
    }

    /// The first temporary, if in temporaries.
    pub fn as_temp(&self) -> Option<i16> {
        match self.repr {
            Repr::Temp(t) => Some(t),
            _ => None,
        }
    }

    /// The same storage viewed as another type (no instruction: int↔float, bool →
    /// number and vector truncation only reinterpret lanes).
    pub fn retyped(self, ty: Type) -> Value {
        Value { ty, ..self }
    }
}
