//! The syntax tree the parser builds and the lowering walks (docs/csir-original.md B §1.3,
//! widened to the GLSL 3.30 forms listed in the module docs of `parser`).
//!
//! Every node keeps the position of the token that best identifies it, so that
//! semantic errors point at the real place (docs/csir-original.md A4).

use super::dialect::Dialect;
use super::token::Pos;
use super::types::Type;
use crate::ir::Interpolation;

/// A whole translation unit: global items in source order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Declarations and functions, in source order.
    pub items: Vec<Item>,
    /// The dialect of the `#version` line (GLSL 1.10 without one).
    pub dialect: Dialect,
    /// Struct definitions, global and local, in source order: `Type::Struct(k)` is
    /// `structs[k]`. The struct pass (`lang/structs.rs`) flattens every use.
    pub structs: Vec<StructDef>,
    /// Float declarations written with no precision qualifier while no default float
    /// precision was in scope, in source order: an error in GLSL ES fragment shaders
    /// only (`parser/precision.rs`), which the parser cannot tell.
    pub float_without_precision: Vec<UnqualifiedFloat>,
    /// A geometry shader's layout declarations (GLSL 1.50 §4.3.8).
    pub geometry: GeometryDecls,
}

/// What a geometry shader's `layout(...) in;` and `layout(...) out;` declared, each
/// with its position (the parser refuses a declaration that contradicts an earlier
/// one; the lowering checks that the stage may have them and that they are complete).
#[derive(Clone, Copy, Debug, Default)]
pub struct GeometryDecls {
    /// The input primitive type.
    pub input: Option<(crate::ir::InputPrimitive, Pos)>,
    /// The output primitive type.
    pub output: Option<(crate::ir::OutputPrimitive, Pos)>,
    /// `max_vertices = N`.
    pub max_vertices: Option<(u32, Pos)>,
    /// The number of global items (functions, declarations, blocks) before the first
    /// input layout declaration: an unsized input array's size is unknown in them
    /// (GLSL 1.50 §4.3.8.1).
    pub input_items_before: Option<usize>,
}

/// A float-typed variable, parameter or return type declared with no precision
/// qualifier and no default float precision in scope (see
/// [`Program::float_without_precision`]).
#[derive(Clone, Debug)]
pub struct UnqualifiedFloat {
    /// Position of the type.
    pub pos: Pos,
    /// The declared type (`float`, `vecN` or a float matrix).
    pub ty: Type,
    /// What is declared: "variable", "parameter" or "return type of function".
    pub what: &'static str,
    /// The declared name (the function's for a return type).
    pub name: String,
}

/// A struct definition (GLSL 1.10 §4.1.8): `struct NAME { members };`.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// The type name (`""` for an anonymous struct, which only its declarators use).
    pub name: String,
    /// Position of the name (or of `struct`).
    pub pos: Pos,
    /// Members in declaration order.
    pub members: Vec<Member>,
}

/// One member of a struct: `TYPE name;` or `TYPE name[N];`.
#[derive(Clone, Debug)]
pub struct Member {
    /// Member type (possibly another struct).
    pub ty: Type,
    /// Member name.
    pub name: String,
    /// Position of the name.
    pub pos: Pos,
    /// `[N]`: the size expression (a constant integer expression).
    pub array: Option<ArraySize>,
    /// The interpolation qualifier of an interface block member (`flat float f;` in an
    /// `out` block, GLSL 1.50 §4.3.7); always `None` in a struct.
    pub interpolation: Option<(Interpolation, Pos)>,
}

/// An interface block (GLSL 1.40 §4.3.7 uniform blocks, GLSL 1.50 §4.3.7 `in`/`out`
/// blocks): `uniform NAME { members } [instance [N]];`. The block pass
/// (`lang/blocks.rs`) turns it into ordinary globals before anything else sees it.
#[derive(Clone, Debug)]
pub struct Block {
    /// `Uniform`, `In` or `Out`.
    pub storage: Storage,
    /// Position of the storage qualifier.
    pub storage_pos: Pos,
    /// The block name (used only for matching across units and stages, and in the
    /// interface names of its members).
    pub name: String,
    /// Position of the block name.
    pub pos: Pos,
    /// Members in declaration order (a member's type may be a struct).
    pub members: Vec<Member>,
    /// The instance name and its position; `None` for a block without one, whose
    /// members are globals of their own.
    pub instance: Option<(String, Pos)>,
    /// `instance[N]`: an array of blocks.
    pub array: Option<ArraySize>,
}

/// The interface name of part of a flattened struct uniform (GLSL 1.10 §4.1.8 and the
/// OpenGL naming of `glGetUniformLocation`): `lights[2].pos`, for the flattened
/// variable's elements `first .. first + len` (`len` `None`: one element, not an array).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterfaceName {
    /// The name as OpenGL spells it.
    pub name: String,
    /// First element of the flattened variable it covers.
    pub first: u16,
    /// `Some(n)`: an array of `n` elements; `None`: one value.
    pub len: Option<u16>,
}

/// One global item.
#[derive(Clone, Debug)]
pub enum Item {
    /// A global variable (interface or private) or global constant.
    Global(Decl),
    /// A function definition.
    Function(Function),
    /// A function prototype (checked against its definition).
    Prototype(Function),
    /// An interface block; only the parser and the unit join see these (the block
    /// pass replaces each with globals).
    Block(Block),
}

/// Storage qualifier of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// No qualifier: a private variable.
    None,
    /// `const`.
    Const,
    /// `in` (vertex attribute or fragment varying).
    In,
    /// `out` (vertex varying or fragment colour).
    Out,
    /// `uniform`.
    Uniform,
    /// `attribute` (vertex stage: `in`).
    Attribute,
    /// `varying` (vertex stage: `out`; fragment stage: `in`).
    Varying,
}

/// The qualifiers in front of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Qualifiers {
    /// Storage qualifier.
    pub storage: Storage,
    /// Position of the storage qualifier (or of the type when there is none).
    pub storage_pos: Pos,
    /// `layout(location = N)` with the position of N.
    pub location: Option<(u32, Pos)>,
    /// `layout(index = N)` with the position of N: a fragment output's blend source
    /// index (GLSL 3.30 §4.3.8.2, ARB_blend_func_extended).
    pub index: Option<(u32, Pos)>,
    /// Position of the `layout` keyword, if present.
    pub layout_pos: Option<Pos>,
    /// The interpolation qualifier (`smooth`, `flat`, `noperspective`; GLSL 1.30
    /// §4.3.6) and its position, if present.
    pub interpolation: Option<(Interpolation, Pos)>,
    /// The position of a block layout qualifier (`std140`, `shared`, `packed`; GLSL
    /// 1.40 §4.3.8), which only interface blocks accept and which changes no value
    /// here (uniforms are set by name, never through a buffer).
    pub block_layout: Option<Pos>,
    /// `row_major` (`Some(true)`) or `column_major` (`Some(false)`) and its position
    /// (GLSL 1.40 §4.3.8), for uniform blocks and their members only.
    pub matrix_layout: Option<(bool, Pos)>,
    /// Position of the precision qualifier (`highp`, `mediump`, `lowp`), if present;
    /// it changes no value (GLSL 1.30 §4.5), only where it may appear is checked.
    pub precision: Option<Pos>,
    /// The position of `centroid` (GLSL 1.20 §4.3.6, GLSL 1.30 §4.3), if present: no
    /// effect on a value here (one sample per pixel), but not every input or output
    /// takes it.
    pub centroid: Option<Pos>,
    /// The position of `invariant` (GLSL 1.20 §4.6.1), if present: no effect on a
    /// value here (the interpreters compute an expression one way), but only outputs
    /// take it.
    pub invariant: Option<Pos>,
}

/// A variable declaration: one declarator (`float a = 1.0, b;` is split into two).
#[derive(Clone, Debug)]
pub struct Decl {
    /// Qualifiers.
    pub quals: Qualifiers,
    /// Declared type.
    pub ty: Type,
    /// Position of the type keyword.
    pub ty_pos: Pos,
    /// Variable name.
    pub name: String,
    /// Position of the name.
    pub pos: Pos,
    /// `[N]` or `[]` when the variable is an array.
    pub array: Option<ArraySize>,
    /// Initializer.
    pub init: Option<Expr>,
    /// For a variable the struct pass made from a member of an array of structs
    /// (`lights.pos` from `S lights[3]`): how its elements are named in the interface
    /// (`lights[0].pos`, ...). Empty for every other declaration, whose name is its
    /// interface name.
    pub iface_names: Vec<InterfaceName>,
    /// For a variable made from an interface block (`lang/blocks.rs`): the name the
    /// interface uses in place of `name`, the prefix of the member names after the
    /// struct pass (`Blk` for instance `inst` of uniform block `Blk`, so `inst.color`
    /// is the uniform `Blk.color`; `Blk.m` for member `m` of an `in`/`out` block
    /// without an instance name). `None` for every other declaration.
    pub iface_root: Option<String>,
}

/// The size of an array declaration or constructor (GLSL 3.30 §4.1.9): `[N]` with a
/// constant integer expression, or `[]` (the size comes from the initializer).
#[derive(Clone, Debug)]
pub struct ArraySize {
    /// The size expression, `None` for `[]`.
    pub len: Option<Box<Expr>>,
    /// Position of the `[`.
    pub pos: Pos,
}

/// Parameter direction (GLSL 3.30 §6.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamDir {
    /// `in` or nothing.
    In,
    /// `out`.
    Out,
    /// `inout`.
    InOut,
}

/// A function parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Type.
    pub ty: Type,
    /// Name (may be empty in a prototype).
    pub name: String,
    /// Position of the name (or the type when unnamed).
    pub pos: Pos,
    /// Direction.
    pub dir: ParamDir,
    /// `const in`.
    pub is_const: bool,
    /// `float a[3]` or `float[3] a`: an array parameter (GLSL 1.20 §6.1).
    pub array: Option<ArraySize>,
}

/// A function definition or prototype.
#[derive(Clone, Debug)]
pub struct Function {
    /// Return type.
    pub ret: Type,
    /// Position of the return type.
    pub ret_pos: Pos,
    /// The size of an array return type (`float[3] f()`, GLSL 1.20 §6.1).
    pub ret_array: Option<ArraySize>,
    /// Name.
    pub name: String,
    /// Position of the name.
    pub pos: Pos,
    /// Parameters.
    pub params: Vec<Param>,
    /// Body statements (empty for a prototype).
    pub body: Vec<Stmt>,
    /// Position of the closing brace (end of the body).
    pub end: Pos,
}

/// A statement.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Position of its first token.
    pub pos: Pos,
}

/// Assignment operators (`=` and the compound forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=` `-=` `*=` `/=` `%=`: the binary operator applied first.
    Compound(BinOp),
}

/// Statement kinds.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `;`
    Empty,
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// A local declaration (one declarator).
    Decl(Decl),
    /// `target op value;`
    Assign {
        /// Left-hand side (a name, swizzle or constant index chain).
        target: Expr,
        /// Operator.
        op: AssignOp,
        /// Right-hand side.
        value: Expr,
    },
    /// `target++;` / `++target;` / `--`.
    Step {
        /// The variable stepped.
        target: Expr,
        /// +1 or -1.
        up: bool,
    },
    /// An expression evaluated for its effects (typically a void call).
    Expr(Expr),
    /// `if (cond) then [else otherwise]`
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then: Box<Stmt>,
        /// Else branch.
        otherwise: Option<Box<Stmt>>,
    },
    /// `for (init; cond; step) body`, `while (cond) body` (no init or step) and
    /// `do body while (cond);` (`do_while`: the condition is tested after the body),
    /// all unrolled at compile time.
    For {
        /// Init statement (declaration or expression statement).
        init: Option<Box<Stmt>>,
        /// Condition (`None` = always true, which fails the unroll limit).
        cond: Option<Expr>,
        /// Step statement.
        step: Option<Box<Stmt>>,
        /// Body.
        body: Box<Stmt>,
        /// `do`/`while`: the body runs before the first test.
        do_while: bool,
    },
    /// `switch (selector) { body }` (GLSL 1.30 §6.2); the body's `case`/`default`
    /// labels are [`StmtKind::Case`] statements.
    Switch {
        /// The integer selector.
        selector: Expr,
        /// The statements and labels of the body.
        body: Vec<Stmt>,
    },
    /// `case value:` (`Some`) or `default:` (`None`), directly in a switch body.
    Case(Option<Expr>),
    /// `return [value];`
    Return(Option<Expr>),
    /// `discard;`
    Discard,
    /// `break;`
    Break,
    /// `continue;`
    Continue,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `^^`
    Xor,
    /// `&` (GLSL 1.30 §5.9, integers)
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

impl BinOp {
    /// `<<` or `>>`, whose operands may differ in signedness (GLSL 1.30 §5.9).
    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr)
    }

    /// `& | ^ << >>`: the operators on integer bits (GLSL 1.30 §5.9).
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        )
    }

    /// The operator's spelling.
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Xor => "^^",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `+e` (the value itself; GLSL 1.10 §5.9: integer and floating-point scalars,
    /// vectors and matrices only)
    Plus,
    /// `-e`
    Neg,
    /// `!e`
    Not,
    /// `~e` (GLSL 1.30 §5.9, integers)
    BitNot,
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Position of its identifying token (operator, name, literal, ...).
    pub pos: Pos,
}

/// Expression kinds.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Integer literal.
    Int(i32),
    /// Unsigned integer literal (`5u`).
    UInt(u32),
    /// Float literal.
    Float(f32),
    /// `true` / `false`.
    Bool(bool),
    /// A name.
    Ident(String),
    /// `name(args)`: a built-in or user function.
    Call {
        /// Function name.
        name: String,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `TYPE(args)`.
    Construct {
        /// Constructed type.
        ty: Type,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `TYPE[N](args)` or `TYPE[](args)`: an array constructor.
    ArrayConstruct {
        /// Element type.
        ty: Type,
        /// The size between the brackets.
        size: ArraySize,
        /// One argument per element.
        args: Vec<Expr>,
    },
    /// `e.length()`: the length of an array (or the size of a vector or matrix).
    Length(Box<Expr>),
    /// Unary operator.
    Unary(UnOp, Box<Expr>),
    /// Binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e.sel` with 1..=4 lane selectors (already decoded from xyzw/rgba/stpq).
    Swizzle(Box<Expr>, Vec<u8>),
    /// `e.name` as parsed: a struct member or a swizzle. The struct pass
    /// (`lang/structs.rs`) replaces every one by a flattened variable or a
    /// [`ExprKind::Swizzle`], so the lowering never sees it.
    Field(Box<Expr>, String),
    /// `e[index]`
    Index(Box<Expr>, Box<Expr>),
    /// `e++` / `e--` / `++e` / `--e`: the target, `true` to increment, `true` for the
    /// prefix form (whose value is the new one; the postfix form's is the old one).
    Step(Box<Expr>, bool, bool),
    /// `target op value` used as an expression (GLSL 1.10 §5.8): its value is the
    /// target's new value.
    Assign {
        /// Left-hand side.
        target: Box<Expr>,
        /// Operator.
        op: AssignOp,
        /// Right-hand side.
        value: Box<Expr>,
    },
    /// `a, b` (GLSL 1.10 §5.9): `a` for its effects, then `b`, the value.
    Comma(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Whether evaluating the expression may change something: a call of a function
    /// for which `user` is true, `++`/`--` or an assignment.
    pub fn has_effects(&self, user: &dyn Fn(&str) -> bool) -> bool {
        match &self.kind {
            ExprKind::Call { name, args } => user(name) || args.iter().any(|a| a.has_effects(user)),
            ExprKind::Construct { args, .. } | ExprKind::ArrayConstruct { args, .. } => {
                args.iter().any(|a| a.has_effects(user))
            }
            ExprKind::Step(..) | ExprKind::Assign { .. } => true,
            ExprKind::Unary(_, x)
            | ExprKind::Swizzle(x, _)
            | ExprKind::Field(x, _)
            | ExprKind::Length(x) => x.has_effects(user),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
                a.has_effects(user) || b.has_effects(user)
            }
            ExprKind::Ternary(c, a, b) => [c, a, b].iter().any(|x| x.has_effects(user)),
            ExprKind::Int(_)
            | ExprKind::UInt(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Ident(_) => false,
        }
    }

    /// The root variable name of an l-value chain (`v`, `v.x`, `m[1].y`), if any.
    pub fn root_name(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Ident(n) => Some(n),
            ExprKind::Swizzle(e, _) | ExprKind::Index(e, _) | ExprKind::Field(e, _) => {
                e.root_name()
            }
            _ => None,
        }
    }
}
