//! Type codes, stage codes and comparison codes with the seed's numeric values
//! (docs/csir-original.md B §2.1).

use std::fmt;

/// Largest integer magnitude CSIR holds exactly: 2^24 − 1. An `int` lives in an f32
/// register (the seed profile has no 32-bit integer arithmetic), and every integer of
/// smaller magnitude is an f32. A larger value given to a shader (a uniform, an
/// attribute) would be silently rounded, so it is refused with an error naming this
/// limit; the front end refuses such integer constants the same way.
pub const MAX_EXACT_INT: f32 = 16_777_215.0;

/// Semantic type of a value (`SH_TY_*`). Stored in [`Ir::ty`](super::Ir) for
/// information only: neither the interpreter nor the TGSI emitter reads it; the
/// debug tools (`run`, `trace`) read it to print a register as the integer it holds.
///
/// Codes 0..=13 are the seed's. The unsigned types (14..=17) exist only in the
/// extended profile, where a register holds a 32-bit pattern and `uint` must be told
/// from `int` to link (GLSL 1.30 §4.3.4: the types of a varying must match) and to
/// print; under the seed profile `uint` is refused by the front end.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// No type recorded (an instruction whose result has no source-level type).
    None = 0,
    /// `void`: a function without a value; never a register's type.
    Void = 1,
    /// `bool`: one lane, 0.0 (false) or 1.0 (true).
    Bool = 2,
    /// `int`: one lane; a float value (seed profile, exact to ±(2^24 − 1)) or a 32-bit
    /// two's-complement pattern (extended profile).
    Int = 3,
    /// `float`: one lane, IEEE f32.
    Float = 4,
    /// `vec2`: lanes x, y.
    Vec2 = 5,
    /// `vec3`: lanes x, y, z.
    Vec3 = 6,
    /// `vec4`: lanes x, y, z, w.
    Vec4 = 7,
    /// `ivec2`: two `int` lanes.
    IVec2 = 8,
    /// `ivec3`: three `int` lanes.
    IVec3 = 9,
    /// `ivec4`: four `int` lanes.
    IVec4 = 10,
    /// `mat3`: 3 columns of 3 floats (9 floats), one vec4 slot per column, w unused.
    Mat3 = 11,
    /// `mat4`: 4 columns of 4 floats (16 floats), one vec4 slot per column.
    Mat4 = 12,
    /// `sampler2D`: a sampler slot, not a register value.
    Sampler2D = 13,
    /// `uint` (extended profile only): one lane holding a 32-bit unsigned pattern.
    Uint = 14,
    /// `uvec2` (extended profile only): two `uint` lanes.
    UVec2 = 15,
    /// `uvec3` (extended profile only): three `uint` lanes.
    UVec3 = 16,
    /// `uvec4` (extended profile only): four `uint` lanes.
    UVec4 = 17,
}

impl Type {
    /// Every type in code order.
    pub const ALL: [Type; 18] = [
        Type::None,
        Type::Void,
        Type::Bool,
        Type::Int,
        Type::Float,
        Type::Vec2,
        Type::Vec3,
        Type::Vec4,
        Type::IVec2,
        Type::IVec3,
        Type::IVec4,
        Type::Mat3,
        Type::Mat4,
        Type::Sampler2D,
        Type::Uint,
        Type::UVec2,
        Type::UVec3,
        Type::UVec4,
    ];

    /// The code stored in the `ty` byte.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// Decode a `ty` byte; `None` above 17.
    pub fn from_code(code: u8) -> Option<Type> {
        Self::ALL.get(code as usize).copied()
    }

    /// Lower-case GLSL keyword, as printed in IR dumps (`sampler2D` keeps its case).
    pub const fn keyword(self) -> &'static str {
        match self {
            Type::None => "none",
            Type::Void => "void",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Float => "float",
            Type::Vec2 => "vec2",
            Type::Vec3 => "vec3",
            Type::Vec4 => "vec4",
            Type::IVec2 => "ivec2",
            Type::IVec3 => "ivec3",
            Type::IVec4 => "ivec4",
            Type::Mat3 => "mat3",
            Type::Mat4 => "mat4",
            Type::Sampler2D => "sampler2D",
            Type::Uint => "uint",
            Type::UVec2 => "uvec2",
            Type::UVec3 => "uvec3",
            Type::UVec4 => "uvec4",
        }
    }

    /// Components per column: 1 for scalars, N for vecN/ivecN, 3 or 4 for mat3/mat4
    /// (rows), 0 for void/none/sampler.
    pub const fn width(self) -> u8 {
        match self {
            Type::Bool | Type::Int | Type::Float | Type::Uint => 1,
            Type::Vec2 | Type::IVec2 | Type::UVec2 => 2,
            Type::Vec3 | Type::IVec3 | Type::UVec3 | Type::Mat3 => 3,
            Type::Vec4 | Type::IVec4 | Type::UVec4 | Type::Mat4 => 4,
            Type::None | Type::Void | Type::Sampler2D => 0,
        }
    }

    /// Number of consecutive temporaries (and uniform vec4 slots) a value occupies:
    /// 3 for mat3, 4 for mat4, 1 for every other value type.
    pub const fn columns(self) -> u8 {
        match self {
            Type::Mat3 => 3,
            Type::Mat4 => 4,
            _ => 1,
        }
    }

    /// mat3 or mat4.
    pub const fn is_matrix(self) -> bool {
        matches!(self, Type::Mat3 | Type::Mat4)
    }

    /// int, ivecN, uint or uvecN.
    pub const fn is_integer(self) -> bool {
        matches!(self, Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4) || self.is_unsigned()
    }

    /// uint or uvecN.
    pub const fn is_unsigned(self) -> bool {
        matches!(self, Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4)
    }

    /// bool, int, uint or float.
    pub const fn is_scalar(self) -> bool {
        matches!(self, Type::Bool | Type::Int | Type::Uint | Type::Float)
    }

    /// Floats a uniform of this type takes in the scene format (mat3 = 9, mat4 = 16).
    pub const fn float_count(self) -> usize {
        match self {
            Type::Mat3 => 9,
            Type::Mat4 => 16,
            t => t.width() as usize,
        }
    }

    /// The float vector type of width `n` (1 → float).
    pub const fn float_vec(n: u8) -> Type {
        match n {
            1 => Type::Float,
            2 => Type::Vec2,
            3 => Type::Vec3,
            _ => Type::Vec4,
        }
    }

    /// The integer vector type of width `n` (1 → int).
    pub const fn int_vec(n: u8) -> Type {
        match n {
            1 => Type::Int,
            2 => Type::IVec2,
            3 => Type::IVec3,
            _ => Type::IVec4,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// Shader stage. Codes: vertex 0, fragment 1, geometry 2 (the original's code for it;
/// extended profile only, GLSL 1.50 §2.2; compute 3 exists in the original only to be
/// rejected).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The vertex shader: runs once per vertex, writes `gl_Position` and varyings.
    Vertex = 0,
    /// The fragment shader: runs once per covered pixel, reads interpolated varyings,
    /// writes the colour or discards.
    Fragment = 1,
    /// The geometry shader (GLSL 1.50 §2.2, GL 3.2 §2.12): runs once per input
    /// primitive, reads its vertices (LOAD_VTX) and emits vertices (EMIT) into output
    /// strips (ENDPRIM). Extended profile only.
    Geometry = 2,
}

impl Stage {
    /// The stage code stored in CSI headers.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// Decode a stage code; `None` for anything but 0, 1 and 2.
    pub fn from_code(code: u32) -> Option<Stage> {
        match code {
            0 => Some(Stage::Vertex),
            1 => Some(Stage::Fragment),
            2 => Some(Stage::Geometry),
            _ => None,
        }
    }

    /// `vertex`, `fragment` or `geometry`, as in the dump's `stage` line.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Geometry => "geometry",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Comparison code in `aux` of [`Op::Cmp`](super::Op::Cmp).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpCode {
    /// `a < b` (false if either is NaN).
    Lt = 1,
    /// `a > b` (false if either is NaN).
    Gt = 2,
    /// `a <= b` (false if either is NaN).
    Le = 3,
    /// `a >= b` (false if either is NaN).
    Ge = 4,
    /// `a == b` (false if either is NaN).
    Eq = 5,
    /// `a != b` (true if either is NaN).
    Ne = 6,
}

impl CmpCode {
    /// Decode an `aux` value; `None` outside 1..=6.
    pub fn from_code(code: i16) -> Option<CmpCode> {
        match code {
            1 => Some(CmpCode::Lt),
            2 => Some(CmpCode::Gt),
            3 => Some(CmpCode::Le),
            4 => Some(CmpCode::Ge),
            5 => Some(CmpCode::Eq),
            6 => Some(CmpCode::Ne),
            _ => None,
        }
    }

    /// The value stored in `aux`.
    pub const fn code(self) -> i16 {
        self as i16
    }

    /// IEEE comparison: NaN compares false except for `Ne` (docs/csir-original.md A1).
    #[inline]
    pub fn eval(self, a: f32, b: f32) -> bool {
        match self {
            CmpCode::Lt => a < b,
            CmpCode::Gt => a > b,
            CmpCode::Le => a <= b,
            CmpCode::Ge => a >= b,
            CmpCode::Eq => a == b,
            CmpCode::Ne => a != b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_seed() {
        assert_eq!(Type::Mat4.code(), 12);
        assert_eq!(Type::from_code(13), Some(Type::Sampler2D));
        assert_eq!(Type::from_code(14), Some(Type::Uint));
        assert_eq!(Type::from_code(17), Some(Type::UVec4));
        assert_eq!(Type::from_code(18), None);
        assert_eq!(Stage::from_code(1), Some(Stage::Fragment));
        assert_eq!(Stage::from_code(2), Some(Stage::Geometry));
        assert_eq!(Stage::from_code(3), None);
        assert_eq!(CmpCode::from_code(6), Some(CmpCode::Ne));
        assert_eq!(CmpCode::from_code(0), None);
    }

    #[test]
    fn nan_compares_false_except_ne() {
        let n = f32::NAN;
        for c in [
            CmpCode::Lt,
            CmpCode::Gt,
            CmpCode::Le,
            CmpCode::Ge,
            CmpCode::Eq,
        ] {
            assert!(!c.eval(n, 1.0));
        }
        assert!(CmpCode::Ne.eval(n, n));
    }
}
