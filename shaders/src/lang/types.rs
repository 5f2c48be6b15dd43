//! The front end's types and their rules (GLSL 3.30 §4.1 and §5.9, where
//! docs/csir-original.md A2 asks us to follow GLSL instead of the original).
//!
//! [`Type`] is [`crate::ir::Type`] plus `bvec2..4` and `mat2`, which exist
//! only in the front end: a `bvecN` lives in a register like a `vecN` whose lanes are
//! 0.0 or 1.0 (the values comparisons give, docs/csir-original.md A1), a `mat2` in two
//! registers holding its vec2 columns; both are recorded in CSIR as float vectors
//! ([`Type::ir`]), so no consumer of CSIR sees a new type code.
//!
//! `Type::None` doubles as the *poison* type: the value of an expression whose error
//! was already reported. Every rule treats it as compatible so that one mistake gives
//! one diagnostic.

use crate::ir;
use crate::sampler_type::SamplerType;

impl Type {
    /// Whether the type is a sampler (`sampler2D` or another, [`Type::Sampler`]).
    pub const fn is_sampler(self) -> bool {
        matches!(self, Type::Sampler2D | Type::Sampler(_))
    }

    /// The sampler type of a sampler, `None` for every other type.
    pub const fn sampler_type(self) -> Option<SamplerType> {
        match self {
            Type::Sampler2D => Some(SamplerType::SAMPLER_2D),
            Type::Sampler(st) => Some(st),
            _ => None,
        }
    }
}
use std::fmt;

/// A value type of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Poison (an error was reported) or "no type".
    None,
    Void,
    Bool,
    Int,
    Float,
    Vec2,
    Vec3,
    Vec4,
    IVec2,
    IVec3,
    IVec4,
    /// `uint` (GLSL 1.30 §4.1.3): front-end only, recorded in CSIR as `int`. Under the
    /// extended profile its register lane holds the `u32` pattern
    /// (`docs/glsl-dialects.md`, "32-bit integers"); the seed profile has no `uint`.
    Uint,
    /// `uvec2`, recorded as `ivec2`.
    UVec2,
    /// `uvec3`, recorded as `ivec3`.
    UVec3,
    /// `uvec4`, recorded as `ivec4`.
    UVec4,
    /// `bvec2`: two lanes of 0.0 / 1.0.
    BVec2,
    /// `bvec3`.
    BVec3,
    /// `bvec4`.
    BVec4,
    /// `mat2`: two vec2 columns in two temporaries. Front-end only like `bvecN`: it is
    /// never a uniform, input or output, and every instruction on it works on one
    /// column (a vec2) at a time.
    Mat2,
    Mat3,
    Mat4,
    /// `mat2x3`: 2 columns of 3 rows (GLSL's matCxR is C columns by R rows). Like
    /// `mat2`, the non-square matrices are front-end only: columns in consecutive
    /// temporaries, a uniform takes one vec4 slot per column, and every instruction on
    /// them works on one column at a time.
    Mat2x3,
    /// `mat2x4`.
    Mat2x4,
    /// `mat3x2`.
    Mat3x2,
    /// `mat3x4`.
    Mat3x4,
    /// `mat4x2`.
    Mat4x2,
    /// `mat4x3`.
    Mat4x3,
    Sampler2D,
    /// Every other GLSL 3.30 sampler type (`sampler3D`, `isampler2DArray`,
    /// `sampler2DShadow`, …; never [`SamplerType::SAMPLER_2D`], which is
    /// [`Type::Sampler2D`]): a sampler slot, looked up by the TEX family (extended
    /// profile). Recorded in CSIR as `sampler2D`, its interface entry carrying the
    /// [`SamplerType`].
    Sampler(SamplerType),
    /// A struct (GLSL 1.10 §4.1.8): the index of its definition in
    /// [`Program::structs`](super::ast::Program::structs). Front-end only and shorter
    /// lived than the others: the struct pass (`lang/structs.rs`) replaces every struct
    /// by its members before the lowering, so no instruction or symbol has this type.
    Struct(u16),
}

impl Type {
    /// The type recorded in CSIR (`ty` byte and interface symbols): `bvecN` → `vecN`,
    /// `mat2` and the non-square matrices → their column's `vecR` (no record ever holds
    /// a whole one; see [`Type::stored_by_column`]).
    pub const fn ir(self) -> ir::Type {
        match self {
            Type::Mat2 | Type::Mat3x2 | Type::Mat4x2 => ir::Type::Vec2,
            Type::Mat2x3 | Type::Mat4x3 => ir::Type::Vec3,
            Type::Mat2x4 | Type::Mat3x4 => ir::Type::Vec4,
            Type::None => ir::Type::None,
            Type::Void => ir::Type::Void,
            Type::Bool => ir::Type::Bool,
            Type::Int => ir::Type::Int,
            Type::Uint => ir::Type::Uint,
            Type::Float => ir::Type::Float,
            Type::Vec2 | Type::BVec2 => ir::Type::Vec2,
            Type::Vec3 | Type::BVec3 => ir::Type::Vec3,
            Type::Vec4 | Type::BVec4 => ir::Type::Vec4,
            Type::IVec2 => ir::Type::IVec2,
            Type::IVec3 => ir::Type::IVec3,
            Type::IVec4 => ir::Type::IVec4,
            Type::UVec2 => ir::Type::UVec2,
            Type::UVec3 => ir::Type::UVec3,
            Type::UVec4 => ir::Type::UVec4,
            Type::Mat3 => ir::Type::Mat3,
            Type::Mat4 => ir::Type::Mat4,
            Type::Sampler2D | Type::Sampler(_) => ir::Type::Sampler2D,
            Type::Struct(_) => ir::Type::None,
        }
    }

    /// The GLSL keyword.
    pub const fn keyword(self) -> &'static str {
        match self {
            Type::BVec2 => "bvec2",
            Type::BVec3 => "bvec3",
            Type::BVec4 => "bvec4",
            Type::Uint => "uint",
            Type::UVec2 => "uvec2",
            Type::UVec3 => "uvec3",
            Type::UVec4 => "uvec4",
            Type::Mat2 => "mat2",
            Type::Mat2x3 => "mat2x3",
            Type::Mat2x4 => "mat2x4",
            Type::Mat3x2 => "mat3x2",
            Type::Mat3x4 => "mat3x4",
            Type::Mat4x2 => "mat4x2",
            Type::Mat4x3 => "mat4x3",
            Type::Struct(_) => "struct",
            Type::Sampler(st) => st.keyword(),
            t => t.ir().keyword(),
        }
    }

    /// Lanes of a scalar or vector, rows of a matrix; 0 for void, poison and samplers.
    pub const fn width(self) -> u8 {
        match self {
            Type::BVec2 => 2,
            Type::BVec3 => 3,
            Type::BVec4 => 4,
            t => t.ir().width(),
        }
    }

    /// Consecutive temporaries (and uniform vec4 slots) a value occupies: a matrix's
    /// columns, 1 for every other type.
    pub const fn columns(self) -> u8 {
        match self {
            Type::Mat2 | Type::Mat2x3 | Type::Mat2x4 => 2,
            Type::Mat3x2 | Type::Mat3x4 => 3,
            Type::Mat4x2 | Type::Mat4x3 => 4,
            t => t.ir().columns(),
        }
    }

    /// Any matrix, square or not.
    pub const fn is_matrix(self) -> bool {
        self.columns() > 1
    }

    /// A matrix that CSIR stores as separate columns even in the interface (`mat2` and
    /// the non-square ones): a uniform of this type is recorded as an array of its
    /// column vectors, one vec4 slot each. `mat3` and `mat4` are CSIR types.
    pub const fn stored_by_column(self) -> bool {
        self.is_matrix() && !matches!(self, Type::Mat3 | Type::Mat4)
    }

    /// The matrix of `cols` columns and `rows` rows (each 2..=4), GLSL's `matCxR`.
    pub const fn matrix(cols: u8, rows: u8) -> Type {
        match (cols, rows) {
            (2, 2) => Type::Mat2,
            (2, 3) => Type::Mat2x3,
            (2, _) => Type::Mat2x4,
            (3, 2) => Type::Mat3x2,
            (3, 3) => Type::Mat3,
            (3, _) => Type::Mat3x4,
            (4, 2) => Type::Mat4x2,
            (4, 3) => Type::Mat4x3,
            _ => Type::Mat4,
        }
    }

    /// int, ivecN, uint or uvecN.
    pub const fn is_integer(self) -> bool {
        matches!(
            self,
            Type::Int
                | Type::IVec2
                | Type::IVec3
                | Type::IVec4
                | Type::Uint
                | Type::UVec2
                | Type::UVec3
                | Type::UVec4
        )
    }

    /// bool, int, uint or float.
    pub const fn is_scalar(self) -> bool {
        matches!(self, Type::Bool | Type::Int | Type::Uint | Type::Float)
    }

    /// The unsigned vector type of width `n` (1 → uint).
    pub const fn uint_vec(n: u8) -> Type {
        match n {
            1 => Type::Uint,
            2 => Type::UVec2,
            3 => Type::UVec3,
            _ => Type::UVec4,
        }
    }

    /// The float vector type of width `n` (1 → float).
    pub const fn float_vec(n: u8) -> Type {
        Type::from_ir(ir::Type::float_vec(n))
    }

    /// The integer vector type of width `n` (1 → int).
    pub const fn int_vec(n: u8) -> Type {
        Type::from_ir(ir::Type::int_vec(n))
    }

    /// The front-end type of a CSIR type (the inverse of [`Type::ir`] on CSIR's types).
    pub const fn from_ir(t: ir::Type) -> Type {
        match t {
            ir::Type::None => Type::None,
            ir::Type::Void => Type::Void,
            ir::Type::Bool => Type::Bool,
            ir::Type::Int => Type::Int,
            ir::Type::Float => Type::Float,
            ir::Type::Vec2 => Type::Vec2,
            ir::Type::Vec3 => Type::Vec3,
            ir::Type::Vec4 => Type::Vec4,
            ir::Type::IVec2 => Type::IVec2,
            ir::Type::IVec3 => Type::IVec3,
            ir::Type::IVec4 => Type::IVec4,
            ir::Type::Mat3 => Type::Mat3,
            ir::Type::Mat4 => Type::Mat4,
            ir::Type::Sampler2D => Type::Sampler2D,
            ir::Type::Uint => Type::Uint,
            ir::Type::UVec2 => Type::UVec2,
            ir::Type::UVec3 => Type::UVec3,
            ir::Type::UVec4 => Type::UVec4,
        }
    }

    /// The boolean vector type of width `n` (1 → bool).
    pub const fn bool_vec(n: u8) -> Type {
        match n {
            1 => Type::Bool,
            2 => Type::BVec2,
            3 => Type::BVec3,
            _ => Type::BVec4,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// Scalar kind of a type's components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// `bool`, `bvecN`.
    Bool,
    /// `int`, `ivecN`.
    Int,
    /// `uint`, `uvecN`.
    Uint,
    /// `float`, `vecN`, every matrix.
    Float,
    /// void, sampler, poison.
    Other,
}

/// The component kind of `t` (matrices are float).
pub fn base(t: Type) -> Base {
    match t {
        Type::Bool | Type::BVec2 | Type::BVec3 | Type::BVec4 => Base::Bool,
        Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4 => Base::Int,
        Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4 => Base::Uint,
        Type::Float
        | Type::Vec2
        | Type::Vec3
        | Type::Vec4
        | Type::Mat2
        | Type::Mat3
        | Type::Mat4
        | Type::Mat2x3
        | Type::Mat2x4
        | Type::Mat3x2
        | Type::Mat3x4
        | Type::Mat4x2
        | Type::Mat4x3 => Base::Float,
        _ => Base::Other,
    }
}

/// The type with components of kind `b` and `n` lanes.
pub fn with_base(b: Base, n: u8) -> Option<Type> {
    match (b, n) {
        (Base::Float, 1..=4) => Some(Type::float_vec(n)),
        (Base::Int, 1..=4) => Some(Type::int_vec(n)),
        (Base::Uint, 1..=4) => Some(Type::uint_vec(n)),
        (Base::Bool, 1..=4) => Some(Type::bool_vec(n)),
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

/// Whether `t` is a scalar or vector of numbers (int, uint or float).
pub fn is_numeric(t: Type) -> bool {
    matches!(base(t), Base::Int | Base::Uint | Base::Float) && !t.is_matrix()
}

/// Whether `b` is `int` or `uint`.
pub fn is_int_base(b: Base) -> bool {
    matches!(b, Base::Int | Base::Uint)
}

/// Whether `t` is `bool` or a `bvecN`.
pub fn is_boolean(t: Type) -> bool {
    base(t) == Base::Bool
}

/// The column type of a matrix.
pub fn column_type(t: Type) -> Type {
    Type::float_vec(t.width())
}

/// The implicit conversions of the language in effect: which values may stand where
/// another type is expected (assignments, initialisers, arguments, returns, the
/// operands of a binary operator) and which may be tested as a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conversions {
    /// GLSL's implicit int → float conversion (int → float, ivecN → vecN, and
    /// likewise uint, GLSL 1.50 §4.1.10): desktop GLSL 1.20 and later
    /// ([`Dialect::implicit_int_to_float`](super::dialect::Dialect::implicit_int_to_float)).
    pub int_to_float: bool,
    /// The seed's numeric booleans (docs/csir-original.md A1, B §1.13): a comparison
    /// result is the number 0 or 1, so a `bool` scalar is used as an `int` or `float`
    /// (`float lit = d > 0.0;`), and an `int` or `float` scalar is a condition, true
    /// when nonzero (NaN counts as nonzero, as IF does). GLSL has neither (GLSL 3.30
    /// §4.1.10 lists no conversion from `bool`; §5.9, §6.2 and §6.3 require a `bool`
    /// condition). On under the seed profile only.
    pub numeric_bools: bool,
}

/// Whether a value of type `from` may be used where `to` is expected under `conv`:
/// equal types, the int → float conversion when the dialect has it, and a `bool`
/// scalar as an `int` or `float` with the seed's numeric booleans. Poison matches.
pub fn converts_to(from: Type, to: Type, conv: Conversions) -> bool {
    from == to
        || from == Type::None
        || to == Type::None
        || (conv.numeric_bools && from == Type::Bool && matches!(to, Type::Int | Type::Float))
        || (conv.int_to_float
            && is_int_base(base(from))
            && base(to) == Base::Float
            && !to.is_matrix()
            && width(from) == width(to))
}

/// Whether a value of type `t` may be tested as a condition (`if`, `?:`, loop
/// conditions, operands of `&& || ^^ !`) under `conv`: a `bool`, and with the seed's
/// numeric booleans also an `int` or `float` scalar, true when nonzero.
pub fn is_condition(t: Type, conv: Conversions) -> bool {
    t == Type::Bool || t == Type::None || (conv.numeric_bools && t.is_scalar())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_conversions_follow_glsl() {
        let glsl = |int_to_float| Conversions {
            int_to_float,
            numeric_bools: false,
        };
        let seed = Conversions {
            int_to_float: true,
            numeric_bools: true,
        };
        assert!(converts_to(Type::Int, Type::Float, glsl(true)));
        assert!(!converts_to(Type::Int, Type::Float, glsl(false)));
        assert!(converts_to(Type::IVec3, Type::Vec3, glsl(true)));
        assert!(!converts_to(Type::Float, Type::Int, glsl(true)));
        assert!(!converts_to(Type::IVec2, Type::Vec3, glsl(true)));
        assert!(!converts_to(Type::Bool, Type::Float, glsl(true)));
        assert!(!converts_to(Type::Bool, Type::Int, glsl(true)));
        assert!(converts_to(Type::Bool, Type::Float, seed));
        assert!(converts_to(Type::Bool, Type::Int, seed));
        assert!(!converts_to(Type::Float, Type::Bool, seed));
        assert!(!converts_to(Type::BVec3, Type::Vec3, seed));
        assert!(converts_to(Type::None, Type::Mat4, glsl(true)));
        assert_eq!(with_base(Base::Bool, 2), Some(Type::BVec2));
        assert_eq!(with_base(Base::Int, 3), Some(Type::IVec3));
    }

    #[test]
    fn bool_vectors_are_float_vectors_in_csir() {
        assert_eq!(Type::BVec3.ir(), ir::Type::Vec3);
        assert_eq!(Type::BVec3.width(), 3);
        assert_eq!(Type::BVec4.columns(), 1);
        assert_eq!(Type::BVec2.to_string(), "bvec2");
        assert_eq!(Type::Mat4.ir(), ir::Type::Mat4);
        assert_eq!((Type::Mat2.width(), Type::Mat2.columns()), (2, 2));
        for t in ir::Type::ALL {
            assert_eq!(Type::from_ir(t).ir(), t);
        }
        let glsl = Conversions {
            int_to_float: true,
            numeric_bools: false,
        };
        let seed = Conversions {
            int_to_float: true,
            numeric_bools: true,
        };
        assert!(is_condition(Type::Bool, glsl) && !is_condition(Type::Float, glsl));
        assert!(!is_condition(Type::Int, glsl) && !is_condition(Type::BVec2, glsl));
        assert!(is_condition(Type::Float, seed) && is_condition(Type::Int, seed));
        assert!(!is_condition(Type::BVec2, seed));
    }
}
