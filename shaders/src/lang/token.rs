//! Tokens of the shader language (docs/csir-original.md B §1.2, widened to the GLSL 3.30
//! keywords so that constructs outside the subset get a clear error instead of
//! "unknown identifier").

use super::types::Type;
use crate::ir::Interpolation;
use std::fmt;

/// A 1-based source position: line, and column counted in characters (a tab is one
/// column, as in the original's diagnostics, docs/csir-original.md B §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
}

impl Pos {
    /// The position of the first character of a source (used for errors that have no
    /// better place, docs/csir-original.md B §1.14).
    pub const START: Pos = Pos { line: 1, col: 1 };
}

/// Keywords the subset understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    /// `in`
    In,
    /// `out`
    Out,
    /// `inout`
    InOut,
    /// `uniform`
    Uniform,
    /// `const`
    Const,
    /// `layout`
    Layout,
    /// An interpolation qualifier, `smooth`, `flat` or `noperspective` (GLSL 1.30
    /// §4.3.6).
    Interpolation(Interpolation),
    /// `precision`
    Precision,
    /// `highp`, `mediump`, `lowp`: accepted and ignored (GLSL 3.30 §4.5).
    PrecisionQualifier,
    /// `attribute` (GLSL 1.10 §4.3.3): a vertex shader input.
    Attribute,
    /// `varying` (GLSL 1.10 §4.3.6): a vertex output or a fragment input.
    Varying,
    /// `invariant`: accepted and ignored, since the interpreter computes the same
    /// expression the same way in every shader, which is what it asks for (GLSL 3.30
    /// §4.6); where it may stand is checked (GLSL 1.30 §4.7).
    Invariant,
    /// `centroid`: accepted and ignored, since with one sample per pixel centroid and
    /// centre sampling agree (GLSL 3.30 §4.3.9); where it may stand is checked (just
    /// before `in`, `out` or `varying`, GLSL 1.30 §4.3).
    Centroid,
    /// A type keyword of the subset (`void bool int float vec2..4 ivec2..4 bvec2..4
    /// every matCxR, sampler2D`).
    Type(Type),
    /// `if`
    If,
    /// `else`
    Else,
    /// `for`
    For,
    /// `while` (rejected with a clear error)
    While,
    /// `do` (rejected with a clear error)
    Do,
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `return`
    Return,
    /// `discard`
    Discard,
    /// `true`
    True,
    /// `false`
    False,
}

/// Why a GLSL keyword outside the subset is rejected; decides the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reserved {
    /// A type such as `mat2x3`, `uint`, `samplerCube`: "type X is not supported".
    Type,
    /// A qualifier such as `precise`, `readonly`, `buffer`: "unsupported qualifier".
    Qualifier,
    /// Any other GLSL keyword (`struct`, `switch`, `case`, ...): "X is not supported".
    Other,
}

/// Operators and punctuation. Bitwise and shift operators are lexed so that the
/// parser can say they are unsupported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `;`
    Semi,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `=`
    Assign,
    /// `+=`
    PlusAssign,
    /// `-=`
    MinusAssign,
    /// `*=`
    StarAssign,
    /// `/=`
    SlashAssign,
    /// `%=`
    PercentAssign,
    /// `++`
    Inc,
    /// `--`
    Dec,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `!`
    Not,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `^^`
    XorXor,
    /// `?`
    Question,
    /// `:`
    Colon,
    /// `& | ^ ~ << >>` and their assignment forms: lexed, never accepted.
    Bitwise,
}

/// The kind of a token.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier (at most the lexer's name limit).
    Ident(String),
    /// An integer literal, already reduced to its 32-bit two's-complement value.
    Int(i32),
    /// An unsigned integer literal (`5u`, `0xFFFFFFFFu`; GLSL 1.30 §4.1.3).
    UInt(u32),
    /// A floating-point literal (finite).
    Float(f32),
    /// A keyword of the subset.
    Keyword(Keyword),
    /// A GLSL keyword outside the subset, with its spelling.
    Reserved(Reserved, &'static str),
    /// An operator or punctuation mark, with its spelling for messages.
    Punct(Punct, &'static str),
    /// End of input (always the last token).
    Eof,
}

/// One token with the position of its first character.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Where it starts.
    pub pos: Pos,
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenKind::Ident(s) => write!(f, "'{s}'"),
            TokenKind::Int(v) => write!(f, "'{v}'"),
            TokenKind::UInt(v) => write!(f, "'{v}u'"),
            TokenKind::Float(v) => write!(f, "'{v:?}'"),
            TokenKind::Keyword(k) => write!(f, "'{}'", keyword_text(*k)),
            TokenKind::Reserved(_, s) | TokenKind::Punct(_, s) => write!(f, "'{s}'"),
            TokenKind::Eof => f.write_str("end of input"),
        }
    }
}

/// The spelling of a keyword (type keywords print their type name).
pub fn keyword_text(k: Keyword) -> &'static str {
    match k {
        Keyword::In => "in",
        Keyword::Out => "out",
        Keyword::InOut => "inout",
        Keyword::Uniform => "uniform",
        Keyword::Const => "const",
        Keyword::Layout => "layout",
        Keyword::Interpolation(q) => q.keyword(),
        Keyword::Precision => "precision",
        Keyword::PrecisionQualifier => "precision qualifier",
        Keyword::Attribute => "attribute",
        Keyword::Varying => "varying",
        Keyword::Invariant => "invariant",
        Keyword::Centroid => "centroid",
        Keyword::Type(t) => t.keyword(),
        Keyword::If => "if",
        Keyword::Else => "else",
        Keyword::For => "for",
        Keyword::While => "while",
        Keyword::Do => "do",
        Keyword::Break => "break",
        Keyword::Continue => "continue",
        Keyword::Return => "return",
        Keyword::Discard => "discard",
        Keyword::True => "true",
        Keyword::False => "false",
    }
}

/// Classify an identifier-shaped word: a subset keyword, a reserved GLSL word, or
/// `None` for a plain identifier. `sample`, `shared` and `patch` stay identifiers
/// (docs/csir-original.md B §10.18 is a bug we do not keep).
pub fn classify_word(word: &str) -> Option<TokenKind> {
    use Keyword as K;
    let kw = match word {
        "in" => K::In,
        "out" => K::Out,
        "inout" => K::InOut,
        "uniform" => K::Uniform,
        "const" => K::Const,
        "layout" => K::Layout,
        "smooth" => K::Interpolation(Interpolation::Smooth),
        "flat" => K::Interpolation(Interpolation::Flat),
        "noperspective" => K::Interpolation(Interpolation::NoPerspective),
        "precision" => K::Precision,
        "highp" | "mediump" | "lowp" => K::PrecisionQualifier,
        "attribute" => K::Attribute,
        "varying" => K::Varying,
        "invariant" => K::Invariant,
        "centroid" => K::Centroid,
        "void" => K::Type(Type::Void),
        "bool" => K::Type(Type::Bool),
        "int" => K::Type(Type::Int),
        "float" => K::Type(Type::Float),
        "vec2" => K::Type(Type::Vec2),
        "vec3" => K::Type(Type::Vec3),
        "vec4" => K::Type(Type::Vec4),
        "ivec2" => K::Type(Type::IVec2),
        "ivec3" => K::Type(Type::IVec3),
        "ivec4" => K::Type(Type::IVec4),
        "uint" => K::Type(Type::Uint),
        "uvec2" => K::Type(Type::UVec2),
        "uvec3" => K::Type(Type::UVec3),
        "uvec4" => K::Type(Type::UVec4),
        "bvec2" => K::Type(Type::BVec2),
        "bvec3" => K::Type(Type::BVec3),
        "bvec4" => K::Type(Type::BVec4),
        "mat2" | "mat2x2" => K::Type(Type::Mat2),
        "mat3" | "mat3x3" => K::Type(Type::Mat3),
        "mat4" | "mat4x4" => K::Type(Type::Mat4),
        "mat2x3" => K::Type(Type::Mat2x3),
        "mat2x4" => K::Type(Type::Mat2x4),
        "mat3x2" => K::Type(Type::Mat3x2),
        "mat3x4" => K::Type(Type::Mat3x4),
        "mat4x2" => K::Type(Type::Mat4x2),
        "mat4x3" => K::Type(Type::Mat4x3),
        "sampler2D" => K::Type(Type::Sampler2D),
        w if let Some(st) = crate::sampler_type::SamplerType::from_keyword(w) => {
            K::Type(Type::Sampler(st))
        }
        "if" => K::If,
        "else" => K::Else,
        "for" => K::For,
        "while" => K::While,
        "do" => K::Do,
        "break" => K::Break,
        "continue" => K::Continue,
        "return" => K::Return,
        "discard" => K::Discard,
        "true" => K::True,
        "false" => K::False,
        _ => return reserved(word),
    };
    Some(TokenKind::Keyword(kw))
}

/// [`classify_word`] in a dialect of GLSL `version` (`es` for OpenGL ES): a sampler
/// type of a later version than the dialect's stays the reserved word it was before
/// (GLSL 1.10 §4.1.7 has the 1D, 2D, 3D, cube and 1D/2D shadow samplers; GLSL 1.30
/// adds the arrays, the integer samplers and the cube and array shadows; GLSL 1.40 the
/// rectangle and buffer samplers, but the rectangle ones (`sampler2DRect`,
/// `sampler2DRectShadow`, words GLSL 1.10 §3.6 reserves) are types from 1.10 on, as
/// `GL_ARB_texture_rectangle` (core in GL 3.1) provides them without an `#extension`
/// directive and Mesa always enables them; GLSL ES 1.00 has the 2D and cube samplers only,
/// ES 3.00 adds 3D, 2D arrays, shadows and the integer samplers).
pub fn classify_word_in(word: &str, version: u16, es: bool) -> Option<TokenKind> {
    let kind = classify_word(word)?;
    if let TokenKind::Keyword(Keyword::Type(Type::Sampler(st))) = kind {
        use crate::sampler_type::{SampleKind as K, TexTarget as T};
        let since = match (st.target, st.kind) {
            (T::Rect | T::Buffer, _) if es => u16::MAX,
            (T::D1 | T::D1Array, _) if es => u16::MAX,
            (T::Rect, _) => 110,
            (T::Buffer, _) => 140,
            (T::Cube, K::Float) if es => 100,
            (T::D1 | T::D3 | T::D2, K::Float | K::Shadow) | (T::Cube, K::Float) if es => 300,
            (T::D1 | T::D3 | T::D2, K::Float | K::Shadow) | (T::Cube, K::Float) => 110,
            _ if es => 300,
            _ => 130,
        };
        if version < since {
            return reserved(word);
        }
    }
    if let TokenKind::Reserved(Reserved::Qualifier, w) = kind
        && !qualifier_reserved_in(w, version, es)
    {
        return None;
    }
    Some(kind)
}

/// Whether the dialect reserves the later qualifier word `w` (one of
/// `RESERVED_QUALIFIERS`): `volatile` is reserved in every version (GLSL 1.10 §3.6,
/// GLSL ES 1.00 §3.7); GLSL ES 3.00 §3.7 also reserves `coherent`, `restrict`,
/// `readonly`, `writeonly` and `subroutine`; desktop GLSL up to 3.30 reserves none of
/// the others, and no dialect here reserves `buffer` or `precise` (keywords of GLSL
/// 4.x and GLSL ES 3.10), so they are ordinary names.
fn qualifier_reserved_in(w: &str, version: u16, es: bool) -> bool {
    match w {
        "volatile" => true,
        "coherent" | "restrict" | "readonly" | "writeonly" | "subroutine" => es && version >= 300,
        _ => false,
    }
}

const RESERVED_TYPES: &[&str] = &[
    "double",
    "dvec2",
    "dvec3",
    "dvec4",
    "dmat2",
    "dmat3",
    "dmat4",
    "sampler1D",
    "sampler3D",
    "samplerCube",
    "sampler1DShadow",
    "sampler2DShadow",
    "samplerCubeShadow",
    "sampler1DArray",
    "sampler2DArray",
    "sampler1DArrayShadow",
    "sampler2DArrayShadow",
    "sampler2DRect",
    "sampler2DRectShadow",
    "samplerBuffer",
    "sampler2DMS",
    "sampler2DMSArray",
    "isampler1D",
    "isampler2D",
    "isampler3D",
    "isamplerCube",
    "isampler1DArray",
    "isampler2DArray",
    "isampler2DRect",
    "isamplerBuffer",
    "isampler2DMS",
    "isampler2DMSArray",
    "usampler1D",
    "usampler2D",
    "usampler3D",
    "usamplerCube",
    "usampler1DArray",
    "usampler2DArray",
    "usampler2DRect",
    "usamplerBuffer",
    "usampler2DMS",
    "usampler2DMSArray",
];

const RESERVED_QUALIFIERS: &[&str] = &[
    "precise",
    "readonly",
    "writeonly",
    "coherent",
    "volatile",
    "restrict",
    "buffer",
    "subroutine",
];

/// Other words GLSL reserves. `packed` is reserved in every version (GLSL 1.10 §3.6,
/// GLSL ES 1.00 §3.6); from GLSL 1.40 and GLSL ES 3.00 on it is also a block layout
/// name, which `layout(...)` accepts.
const RESERVED_OTHER: &[&str] = &[
    "packed",
    "struct",
    "switch",
    "case",
    "default",
    "asm",
    "class",
    "union",
    "enum",
    "typedef",
    "template",
    "this",
    "goto",
    "inline",
    "noinline",
    "public",
    "static",
    "extern",
    "external",
    "interface",
    "long",
    "short",
    "half",
    "fixed",
    "unsigned",
    "superp",
    "input",
    "output",
    "hvec2",
    "hvec3",
    "hvec4",
    "fvec2",
    "fvec3",
    "fvec4",
    "sampler3DRect",
    "filter",
    "sizeof",
    "cast",
    "namespace",
    "using",
];

fn reserved(word: &str) -> Option<TokenKind> {
    let find = |list: &[&'static str]| list.iter().copied().find(|w| *w == word);
    if let Some(w) = find(RESERVED_TYPES) {
        return Some(TokenKind::Reserved(Reserved::Type, w));
    }
    if let Some(w) = find(RESERVED_QUALIFIERS) {
        return Some(TokenKind::Reserved(Reserved::Qualifier, w));
    }
    find(RESERVED_OTHER).map(|w| TokenKind::Reserved(Reserved::Other, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangle_samplers_are_types_from_glsl_1_10_and_buffers_from_1_40() {
        let is_type = |w: &str, v: u16, es: bool| {
            matches!(
                classify_word_in(w, v, es),
                Some(TokenKind::Keyword(Keyword::Type(_)))
            )
        };
        assert!(is_type("sampler2DRect", 110, false));
        assert!(is_type("sampler2DRectShadow", 120, false));
        assert!(!is_type("sampler2DRectShadow", 300, true));
        assert!(!is_type("samplerBuffer", 130, false));
        assert!(is_type("samplerBuffer", 140, false));
        assert!(!is_type("sampler2DArray", 120, false));
    }

    #[test]
    fn words_are_classified() {
        assert_eq!(
            classify_word("vec3"),
            Some(TokenKind::Keyword(Keyword::Type(Type::Vec3)))
        );
        assert_eq!(
            classify_word("flat"),
            Some(TokenKind::Keyword(Keyword::Interpolation(
                Interpolation::Flat
            )))
        );
        assert_eq!(
            classify_word("precise"),
            Some(TokenKind::Reserved(Reserved::Qualifier, "precise"))
        );
        assert_eq!(
            classify_word("mat2x3"),
            Some(TokenKind::Keyword(Keyword::Type(Type::Mat2x3)))
        );
        assert_eq!(
            classify_word("dmat3"),
            Some(TokenKind::Reserved(Reserved::Type, "dmat3"))
        );
        assert_eq!(classify_word("sample"), None);
        assert_eq!(classify_word("position"), None);
    }
}
