//! The recursive-descent parser (docs/csir-original.md B §1.3, widened to GLSL 3.30 forms).
//!
//! Accepted beyond the original: qualifiers in any order, `highp`/`mediump`/`lowp` and
//! `precision` statements (no effect on values; where they may appear is checked in
//! `precision.rs`), `const in` / `in` parameters, `(void)` parameter
//! lists, prototypes, several declarators per declaration, compound assignment,
//! `++`/`--` statements, `?:`, `break`/`continue`, swizzle and index assignment
//! targets, the `stpq` swizzle set, arrays (`float a[3]`, `float[3] a`, `float a[]`,
//! constructors `float[3](…)`, `.length()`). Constructs outside the subset (`while`,
//! `struct`, arrays of arrays, array parameters, bitwise operators, reserved types)
//! are parsed far enough to give a clear error. On an error the parser
//! re-synchronises at the next `;` or balanced `}` and continues, so one compile
//! reports several syntax errors.
//!
//! Nesting is bounded, so that the recursion of every later pass stays shallow whatever
//! the input. Real nesting (parentheses and arguments, operands of unary operators,
//! members and indexes, blocks and statements) may not exceed [`MAX_NESTING`] levels;
//! chains of binary or comma operators (`a + b + c ...`, which nest the syntax tree one
//! level per operator without nesting in the source) may not exceed
//! [`MAX_OPERATOR_CHAIN`] operators along any path. Each error states its limit.

mod expr;
mod geometry_layout;
pub(crate) use expr::decode_swizzle;
mod item;
mod precision;
pub(crate) use precision::report_missing_float_precision;
mod stmt;

use super::ast::{Program, StructDef, UnqualifiedFloat};
use super::diagnostic::Diagnostics;
use super::dialect::Dialect;
use super::token::{Keyword, Pos, Punct, Reserved, Token, TokenKind};

/// Deepest expression/statement nesting accepted (docs/csir-original.md A3: the original's
/// 32 is a pool detail; 64 keeps real shaders far from the limit and the stack small).
pub const MAX_NESTING: usize = 64;

/// Most binary and comma operators chained along one path of an expression (`a + b + c`
/// is a chain of 2), summed over the nesting levels the path crosses. Each operator
/// nests the syntax tree one level deeper, so this bounds the recursion of the passes
/// after the parser, beside [`MAX_NESTING`]; 256 lets a sum of 257 terms compile.
pub const MAX_OPERATOR_CHAIN: usize = 256;

/// Parse a token stream (ending with EOF) into a program, as GLSL 1.10 (the dialect of
/// a shader without `#version`). Errors go to `diags`; the returned program is only
/// meaningful when none were reported.
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> Program {
    parse_in(tokens, Dialect::default(), diags)
}

/// [`parse`] for a shader written in `dialect`, which decides the rules of the grammar
/// that changed between versions: the order of qualifiers (GLSL 1.30 §4.7) and the
/// operators reserved before GLSL 1.30 (GLSL 1.10 §5.1). The program carries `dialect`.
pub fn parse_in(tokens: &[Token], dialect: Dialect, diags: &mut Diagnostics) -> Program {
    let mut p = Parser {
        tokens,
        at: 0,
        diags,
        depth: 0,
        chain: 0,
        structs: Vec::new(),
        precision: precision::PrecisionScopes::new(),
        hidden_structs: Vec::new(),
        float_without_precision: Vec::new(),
        dialect,
        global_names: Vec::new(),
        global_structs: Vec::new(),
    };
    let mut program = p.program();
    program.dialect = dialect;
    program
}

/// Marker: an error was reported and the caller should re-synchronise.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reported;

type PResult<T> = Result<T, Reported>;

struct Parser<'t, 'd> {
    tokens: &'t [Token],
    at: usize,
    diags: &'d mut Diagnostics,
    /// Current nesting (see [`MAX_NESTING`]).
    depth: usize,
    /// Operators of binary and comma chains on the current path (see
    /// [`MAX_OPERATOR_CHAIN`]).
    chain: usize,
    /// Struct definitions so far (`Type::Struct(k)` is the k-th).
    structs: Vec<StructDef>,
    /// The default float precision of each open block (`parser/precision.rs`).
    precision: precision::PrecisionScopes,
    /// Struct type names hidden by a local variable or parameter of the same name,
    /// each with the block depth (the precision scope depth) it is declared at: within
    /// that block the name is the variable, not the type (GLSL 1.10 §4.2.2).
    hidden_structs: Vec<(String, usize)>,
    /// Float declarations with no precision qualifier and no default in scope (see
    /// [`Program::float_without_precision`]).
    float_without_precision: Vec<UnqualifiedFloat>,
    /// The dialect of the `#version` line.
    dialect: Dialect,
    /// The global variables and functions declared so far (GLSL ES 1.00 §4.2.7).
    global_names: Vec<String>,
    /// The names of the structs declared at global scope so far.
    global_structs: Vec<String>,
}

impl<'t> Parser<'t, '_> {
    fn tok(&self) -> &'t Token {
        let last = self.tokens.len() - 1;
        &self.tokens[self.at.min(last)]
    }

    fn kind(&self) -> &'t TokenKind {
        &self.tok().kind
    }

    fn peek_kind(&self, k: usize) -> &'t TokenKind {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.at + k).min(last)].kind
    }

    fn pos(&self) -> Pos {
        self.tok().pos
    }

    fn advance(&mut self) -> &'t Token {
        let t = self.tok();
        if !matches!(t.kind, TokenKind::Eof) {
            self.at += 1;
        }
        t
    }

    fn at_eof(&self) -> bool {
        matches!(self.kind(), TokenKind::Eof)
    }

    fn is_punct(&self, p: Punct) -> bool {
        matches!(self.kind(), TokenKind::Punct(q, _) if *q == p)
    }

    fn is_keyword(&self, k: Keyword) -> bool {
        matches!(self.kind(), TokenKind::Keyword(q) if *q == k)
    }

    fn eat_punct(&mut self, p: Punct) -> bool {
        if self.is_punct(p) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Report `message` at the current token and fail.
    fn fail<T>(&mut self, message: impl Into<String>) -> PResult<T> {
        let pos = self.pos();
        self.fail_at(pos, message)
    }

    fn fail_at<T>(&mut self, pos: Pos, message: impl Into<String>) -> PResult<T> {
        self.diags.error(pos, message);
        Err(Reported)
    }

    /// Require punctuation `p`, else report `message` at the current token.
    fn expect(&mut self, p: Punct, message: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.fail(message)
        }
    }

    /// Enter one nesting level; fails with "nesting limit exceeded" past
    /// [`MAX_NESTING`].
    fn enter(&mut self, levels: usize) -> PResult<()> {
        self.depth += levels;
        if self.depth > MAX_NESTING {
            self.depth -= levels;
            return self.fail(format!(
                "nesting limit exceeded: more than {MAX_NESTING} levels of nested \
                 parentheses, calls, unary operators, members, indexes and blocks here, \
                 the limit is {MAX_NESTING}"
            ));
        }
        Ok(())
    }

    fn leave(&mut self, levels: usize) {
        self.depth -= levels;
    }

    /// Count one more operator of a binary or comma chain; fails past
    /// [`MAX_OPERATOR_CHAIN`].
    fn enter_chain(&mut self) -> PResult<()> {
        if self.chain == MAX_OPERATOR_CHAIN {
            return self.fail(format!(
                "expression too long: more than {MAX_OPERATOR_CHAIN} binary operators \
                 chained here, the limit is {MAX_OPERATOR_CHAIN} (split the expression \
                 over several statements)"
            ));
        }
        self.chain += 1;
        Ok(())
    }

    fn leave_chain(&mut self, operators: usize) {
        self.chain -= operators;
    }

    /// The struct type named `name`, if one is defined (the latest definition).
    fn struct_named(&self, name: &str) -> Option<super::types::Type> {
        if self.hidden_structs.iter().any(|(n, _)| n == name) {
            return None;
        }
        self.structs
            .iter()
            .rposition(|s| !s.name.is_empty() && s.name == name)
            .map(|k| super::types::Type::Struct(k as u16))
    }

    /// Whether the current token is the name of a struct type.
    fn at_struct_name(&self) -> bool {
        matches!(self.kind(), TokenKind::Ident(n) if self.struct_named(n).is_some())
    }

    /// The message for a reserved word found where a type or statement was expected.
    fn reserved_message(r: Reserved, word: &str) -> String {
        match (r, word) {
            (Reserved::Type, _) => format!("type '{word}' is not supported"),
            (Reserved::Qualifier, _) => format!("unsupported qualifier '{word}'"),
            (Reserved::Other, "switch" | "case" | "default") => {
                "switch statements are not supported".to_string()
            }
            (Reserved::Other, _) => format!("'{word}' is a reserved word"),
        }
    }

    /// Skip to just after the next `;` at brace depth 0, or past a balanced `{ }`
    /// group; stop (without consuming) at a `}` that closes the enclosing block.
    fn recover(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.kind() {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi, _) if depth == 0 => {
                    self.advance();
                    return;
                }
                TokenKind::Punct(Punct::LBrace, _) => depth += 1,
                TokenKind::Punct(Punct::RBrace, _) => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.advance();
                        return;
                    }
                }
                _ => {}
            }
            self.advance();
        }
    }
}

#[cfg(test)]
mod tests;
