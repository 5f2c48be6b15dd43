//! The GLSL preprocessor (GLSL 3.30 §3.3, GLSL ES 3.00 §3.4, GLSL 4.60 §3.3: the C99
//! preprocessor of §6.10 without `#include`, `#` and `##`), driven by the lexer.
//!
//! The lexer does translation phases 1 to 3 (C99 §5.1.1.2): line ends are normalised,
//! a `\` before a line end splices the two lines, then comments become blanks and the
//! text becomes tokens; a directive line goes to this module (phase 4), and the tokens
//! of ordinary text are macro-expanded here before the parser sees them. The pieces:
//!
//! - [`cond`]: conditional groups (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`,
//!   `#endif`), nested;
//! - [`expr`]: the `#if` / `#elif` expression (C integer operators of GLSL 4.60 §3.3,
//!   `defined NAME`, `defined(NAME)`);
//! - [`macros`]: object-like and function-like macros, their definition rules and
//!   their expansion (arguments pre-expanded, results rescanned, a macro never expanding
//!   inside its own expansion: C99 §6.10.3.4).
//!
//! Predefined: `__LINE__`, `__FILE__` (the source string number, 0 unless `#line`
//! changes it), `__VERSION__` and the dialect's macros ([`Dialect::predefined_macros`]).
//! Names that begin with `GL_` or contain `__` are reserved (GLSL 3.30 §3.3): defining or
//! undefining one is an error. Expansion is bounded ([`MAX_EXPANDED_TOKENS`]) so that
//! self-multiplying macros cannot exhaust memory.

mod cond;
mod expr;
mod macros;

pub use macros::{PpToken, lone_name};

use super::dialect::Dialect;
use super::token::{Pos, Token, TokenKind};
use cond::Cond;
use macros::Macro;
use std::collections::HashMap;

/// Most tokens macro expansion may produce in one compile.
pub const MAX_EXPANDED_TOKENS: usize = 100_000;

/// A preprocessing error: where and what (the message names the rule and the token).
#[derive(Clone, Debug, PartialEq)]
pub struct PpError {
    /// The offending token, or the directive when no token is to blame.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

impl PpError {
    /// An error at `pos`.
    pub fn new(pos: Pos, message: impl Into<String>) -> PpError {
        PpError {
            pos,
            message: message.into(),
        }
    }
}

/// Macro definitions and the conditional-compilation stack of one compilation unit.
#[derive(Debug, Default)]
pub struct Preprocessor {
    macros: HashMap<String, Macro>,
    conds: Vec<Cond>,
    /// Tokens produced by expansion so far (bounded by [`MAX_EXPANDED_TOKENS`]).
    expanded: usize,
    /// OpenGL ES: an undefined name in `#if` is an error (GLSL ES 3.00 §3.4).
    es: bool,
    /// `#line`: `__LINE__` is the physical line plus this.
    line_delta: i64,
    /// `#line N S`: the value of `__FILE__`.
    source_string: i32,
}

impl Preprocessor {
    /// A preprocessor with `__VERSION__` predefined as 110, GLSL's version when a
    /// shader has no `#version` (updated by [`Self::set_dialect`]).
    pub fn new() -> Preprocessor {
        let mut pp = Preprocessor::default();
        pp.set_dialect(Dialect::default());
        pp
    }

    /// Define the macros of `dialect` ([`Dialect::predefined_macros`]), replacing those
    /// of the default dialect.
    pub fn set_dialect(&mut self, dialect: Dialect) {
        self.macros.retain(|_, m| !m.predefined);
        for (name, value) in dialect.predefined_macros() {
            self.macros
                .insert(name.into(), Macro::predefined(TokenKind::Int(value)));
        }
        self.es = dialect.is_es();
    }

    /// Whether `name` is a macro (predefined ones included).
    pub fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || matches!(name, "__LINE__" | "__FILE__")
    }

    /// `#line LINE [SOURCE]` on physical line `here`: the next line is `LINE` (C99
    /// §6.10.4), `__FILE__` becomes `SOURCE`. `tokens` are the directive's operands,
    /// macro-expanded here; `start` is the directive's position.
    ///
    /// Errors: anything but one or two integers ("#line expects LINE [SOURCE-STRING]
    /// as integers", naming the token).
    pub fn line_directive(&mut self, tokens: Vec<PpToken>, start: Pos) -> Result<(), PpError> {
        let line = self.expand_line(tokens)?;
        let int = |k: usize| match line.get(k).map(|t| &t.kind) {
            Some(TokenKind::Int(v)) if *v >= 0 => Some(*v),
            _ => None,
        };
        let bad = |k: usize| {
            let (pos, what) = match line.get(k) {
                Some(t) => (t.pos, t.kind.to_string()),
                None => (start, "end of line".into()),
            };
            PpError::new(
                pos,
                format!(
                    "#line expects LINE [SOURCE-STRING] as non-negative integers (GLSL 3.30 §3.3), found {what}"
                ),
            )
        };
        let n = int(0).ok_or_else(|| bad(0))?;
        if line.len() > 1 {
            self.source_string = int(1).ok_or_else(|| bad(1))?;
        }
        if line.len() > 2 {
            return Err(bad(2));
        }
        self.line_delta = i64::from(n) - i64::from(start.line) - 1;
        Ok(())
    }

    /// Expand the operands of a directive; an invocation left open is an error.
    fn expand_line(&mut self, tokens: Vec<PpToken>) -> Result<Vec<Token>, PpError> {
        let (out, held) = self.expand_text(tokens, false)?;
        debug_assert!(held.is_empty(), "nothing is held at the end of a line");
        Ok(out)
    }
}

/// The identifier a raw token spells, if it is one (the lexer classifies keywords only
/// after expansion, so every word is an identifier here).
fn ident(t: &Token) -> Option<&str> {
    match &t.kind {
        TokenKind::Ident(s) => Some(s),
        _ => None,
    }
}
