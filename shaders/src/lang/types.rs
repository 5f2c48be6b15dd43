//! Type rules of the subset on top of [`Type`] (GLSL 3.30 §4.1 and §5.9, where the
//! reference's Part A asks us to follow GLSL instead of the original).
//!
//! `Type::None` doubles as the *poison* type: the value of an expression whose error
//! was already reported. Every rule treats it as compatible so that one mistake gives
//! one diagnostic.

use crate::ir::Type;

/// Scalar kind of a type's components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// `bool`.
    Bool,
    /// `int`, `ivecN`.
    Int,
    /// `float`, `vecN`, `mat3`, `mat4`.
    Float,
    /// void, sampler, poison.
    Other,
}

/// The component kind of `t` (matrices are float).
pub fn base(t: Type) -> Base {
    match t {
        Type::Bool => Base::Bool,
        Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4 => Base::Int,
        Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4 | Type::Mat3 | Type::Mat4 => Base::Float,
        _ => Base::Other,
    }
}

/// The type with components of kind `b` and `n` lanes (bool vectors do not exist in
/// the subset: `None`).
pub fn with_base(b: Base, n: u8) -> Option<Type> {
    match (b, n) {
        (Base::Float, 1..=4) => Some(Type::float_vec(n)),
        (Base::Int, 1..=4) => Some(Type::int_vec(n)),
        (Base::Bool, 1) => Some(Type::Bool),
        _ => None,
    }
}

/// Lanes of a scalar or vector (rows of a matrix column).
pub fn width(t: Type) -> u8 {
    t.width()
}

/// Consecutive temporaries a value of `t` occupies.
pub fn cols(t: Type) -> u8 {
    t.columns()
}

/// Whether `t` is a scalar or vector of numbers (int or float).
pub fn is_numeric(t: Type) -> bool {
    matches!(base(t), Base::Int | Base::Float) && !t.is_matrix()
}

/// The column type of a matrix.
pub fn column_type(t: Type) -> Type {
    Type::float_vec(t.width())
}

/// Whether a value of type `from` may be used where `to` is expected: equal types, or
/// GLSL's implicit int → float conversion (int → float, ivecN → vecN). Poison matches.
pub fn converts_to(from: Type, to: Type) -> bool {
    from == to
        || from == Type::None
        || to == Type::None
        || (base(from) == Base::Int
            && base(to) == Base::Float
            && !to.is_matrix()
            && width(from) == width(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_conversions_follow_glsl() {
        assert!(converts_to(Type::Int, Type::Float));
        assert!(converts_to(Type::IVec3, Type::Vec3));
        assert!(!converts_to(Type::Float, Type::Int));
        assert!(!converts_to(Type::IVec2, Type::Vec3));
        assert!(!converts_to(Type::Bool, Type::Float));
        assert!(converts_to(Type::None, Type::Mat4));
        assert_eq!(with_base(Base::Bool, 2), None);
        assert_eq!(with_base(Base::Int, 3), Some(Type::IVec3));
    }
}
