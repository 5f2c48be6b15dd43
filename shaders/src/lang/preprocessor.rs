//! The preprocessor subset real shaders use (GLSL 3.30 §3.3), driven by the lexer:
//! object-like `#define NAME tokens…` and `#undef`, conditional compilation with
//! `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif` (nested), `#error`, and the
//! predefined `__VERSION__`.
//!
//! A macro's body is the tokens of the rest of its line; a use of the name is replaced
//! by them (recursively, a macro never expanding inside itself), every token placed at
//! the use so that diagnostics point there. `#if`/`#elif` evaluate a C-like integer
//! expression: literals, `defined NAME`, `defined(NAME)`, macros that expand to one,
//! undefined names as 0, and `! - + * / % + - < > <= >= == != && ||` with
//! parentheses. Not supported (named in the error): function-like macros, `#` and
//! `##` in bodies, `#line`, `#extension`. Expansion is bounded
//! ([`MAX_EXPANDED_TOKENS`]) so that self-multiplying macros cannot exhaust memory.

use super::dialect::Dialect;
use super::token::{Pos, Punct, Token, TokenKind};
use std::collections::HashMap;

/// Most tokens macro expansion may produce in one compile.
pub const MAX_EXPANDED_TOKENS: usize = 100_000;

/// Deepest chain of macros expanding inside each other.
const MAX_DEPTH: usize = 32;

/// One open `#if` group.
#[derive(Clone, Copy, Debug)]
struct Cond {
    /// Lines are compiled here.
    active: bool,
    /// The enclosing group is active (else nothing here ever is).
    parent: bool,
    /// A branch of this group was already taken.
    taken: bool,
    /// `#else` was seen.
    seen_else: bool,
    /// Where the group's `#if` is.
    pos: Pos,
}

/// Macro definitions and the conditional-compilation stack of one compile.
#[derive(Debug, Default)]
pub struct Preprocessor {
    macros: HashMap<String, Vec<TokenKind>>,
    conds: Vec<Cond>,
    expanded: usize,
}

impl Preprocessor {
    /// A preprocessor with `__VERSION__` predefined as 110, GLSL's version when a
    /// shader has no `#version` (updated by [`Self::define_version`]).
    pub fn new() -> Preprocessor {
        let mut pp = Preprocessor::default();
        pp.define_version(110);
        pp
    }

    /// `#version v`: `__VERSION__` becomes `v`.
    pub fn define_version(&mut self, v: u32) {
        self.define("__VERSION__".into(), vec![TokenKind::Int(v as i32)]);
    }

    /// Define the macros of `dialect` ([`Dialect::predefined_macros`]).
    pub fn set_dialect(&mut self, dialect: Dialect) {
        for (name, value) in dialect.predefined_macros() {
            self.define(name.into(), vec![TokenKind::Int(value)]);
        }
    }

    /// Whether lines are being compiled (every enclosing group active).
    pub fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    /// `#define name body`.
    pub fn define(&mut self, name: String, body: Vec<TokenKind>) {
        self.macros.insert(name, body);
    }

    /// `#undef name`.
    pub fn undef(&mut self, name: &str) {
        self.macros.remove(name);
    }

    /// Whether `name` is a macro.
    pub fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name)
    }

    /// `#if` / `#ifdef` / `#ifndef` with its outcome.
    pub fn open(&mut self, cond: bool, pos: Pos) {
        let parent = self.active();
        self.conds.push(Cond {
            active: parent && cond,
            parent,
            taken: cond,
            seen_else: false,
            pos,
        });
    }

    /// Whether an `#elif` condition needs evaluating (the group is open, its parent
    /// active and no branch taken yet).
    pub fn elif_pending(&self) -> bool {
        self.conds
            .last()
            .is_some_and(|c| c.parent && !c.taken && !c.seen_else)
    }

    /// `#elif` with its outcome (only meaningful when [`Self::elif_pending`]).
    pub fn elif(&mut self, cond: bool) -> Result<(), &'static str> {
        let c = self.conds.last_mut().ok_or("#elif without #if")?;
        if c.seen_else {
            return Err("#elif after #else");
        }
        c.active = c.parent && !c.taken && cond;
        c.taken |= cond;
        Ok(())
    }

    /// `#else`.
    pub fn else_branch(&mut self) -> Result<(), &'static str> {
        let c = self.conds.last_mut().ok_or("#else without #if")?;
        if c.seen_else {
            return Err("#else after #else");
        }
        c.seen_else = true;
        c.active = c.parent && !c.taken;
        c.taken = true;
        Ok(())
    }

    /// `#endif`.
    pub fn endif(&mut self) -> Result<(), &'static str> {
        self.conds.pop().map(|_| ()).ok_or("#endif without #if")
    }

    /// The `#if` of a group still open at the end of the source.
    pub fn unterminated(&self) -> Option<Pos> {
        self.conds.last().map(|c| c.pos)
    }

    /// Expand macro `name` used at `pos` into `out`.
    pub fn expand(
        &mut self,
        name: &str,
        pos: Pos,
        out: &mut Vec<Token>,
    ) -> Result<(), &'static str> {
        let mut stack = vec![name.to_string()];
        self.expand_into(name, pos, out, &mut stack)
    }

    fn expand_into(
        &mut self,
        name: &str,
        pos: Pos,
        out: &mut Vec<Token>,
        stack: &mut Vec<String>,
    ) -> Result<(), &'static str> {
        if stack.len() > MAX_DEPTH {
            return Err("macros nest too deeply");
        }
        let body = self.macros.get(name).cloned().unwrap_or_default();
        for kind in body {
            if let TokenKind::Ident(n) = &kind
                && self.macros.contains_key(n)
                && !stack.contains(n)
            {
                stack.push(n.clone());
                self.expand_into(&n.clone(), pos, out, stack)?;
                stack.pop();
                continue;
            }
            self.expanded += 1;
            if self.expanded > MAX_EXPANDED_TOKENS {
                return Err("macro expansion is too large");
            }
            out.push(Token { kind, pos });
        }
        Ok(())
    }

    /// Evaluate the tokens of an `#if` / `#elif` line.
    pub fn eval(&mut self, line: &[TokenKind]) -> Result<bool, &'static str> {
        const BAD: &str = "invalid #if expression";
        // `defined` first (its operand is not expanded), then macros, then parse.
        let mut flat = Vec::new();
        let mut i = 0;
        while i < line.len() {
            match &line[i] {
                TokenKind::Ident(d) if d == "defined" => {
                    let (name, next) = match (line.get(i + 1), line.get(i + 2), line.get(i + 3)) {
                        (Some(TokenKind::Ident(n)), ..) => (n, i + 2),
                        (
                            Some(TokenKind::Punct(Punct::LParen, _)),
                            Some(TokenKind::Ident(n)),
                            Some(TokenKind::Punct(Punct::RParen, _)),
                        ) => (n, i + 4),
                        _ => return Err(BAD),
                    };
                    flat.push(TokenKind::Int(i32::from(self.is_defined(name))));
                    i = next;
                }
                TokenKind::Ident(n) if self.is_defined(n) => {
                    let mut out = Vec::new();
                    self.expand(n, Pos::START, &mut out)?;
                    flat.extend(out.into_iter().map(|t| t.kind));
                    i += 1;
                }
                other => {
                    flat.push(other.clone());
                    i += 1;
                }
            }
        }
        let mut p = IfExpr { toks: &flat, at: 0 };
        let v = p.binary(0).ok_or(BAD)?;
        if p.at != flat.len() {
            return Err(BAD);
        }
        Ok(v != 0)
    }
}

/// Precedence climbing over an `#if` expression (undefined names are 0).
struct IfExpr<'t> {
    toks: &'t [TokenKind],
    at: usize,
}

impl IfExpr<'_> {
    fn binary(&mut self, min: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        loop {
            let Some(TokenKind::Punct(p, _)) = self.toks.get(self.at) else {
                return Some(lhs);
            };
            let prec = match p {
                Punct::OrOr => 1,
                Punct::AndAnd => 2,
                Punct::Eq | Punct::Ne => 3,
                Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 4,
                Punct::Plus | Punct::Minus => 5,
                Punct::Star | Punct::Slash | Punct::Percent => 6,
                _ => return Some(lhs),
            };
            if prec < min {
                return Some(lhs);
            }
            let op = *p;
            self.at += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = match op {
                Punct::OrOr => i64::from(lhs != 0 || rhs != 0),
                Punct::AndAnd => i64::from(lhs != 0 && rhs != 0),
                Punct::Eq => i64::from(lhs == rhs),
                Punct::Ne => i64::from(lhs != rhs),
                Punct::Lt => i64::from(lhs < rhs),
                Punct::Gt => i64::from(lhs > rhs),
                Punct::Le => i64::from(lhs <= rhs),
                Punct::Ge => i64::from(lhs >= rhs),
                Punct::Plus => lhs.checked_add(rhs)?,
                Punct::Minus => lhs.checked_sub(rhs)?,
                Punct::Star => lhs.checked_mul(rhs)?,
                Punct::Slash => lhs.checked_div(rhs)?,
                _ => lhs.checked_rem(rhs)?,
            };
        }
    }

    fn unary(&mut self) -> Option<i64> {
        let t = self.toks.get(self.at)?;
        self.at += 1;
        match t {
            TokenKind::Int(v) => Some(i64::from(*v)),
            TokenKind::UInt(v) => Some(i64::from(*v)),
            TokenKind::Ident(_) => Some(0),
            TokenKind::Punct(Punct::Not, _) => Some(i64::from(self.unary()? == 0)),
            TokenKind::Punct(Punct::Minus, _) => self.unary()?.checked_neg(),
            TokenKind::Punct(Punct::Plus, _) => self.unary(),
            TokenKind::Punct(Punct::LParen, _) => {
                let v = self.binary(0)?;
                match self.toks.get(self.at) {
                    Some(TokenKind::Punct(Punct::RParen, _)) => {
                        self.at += 1;
                        Some(v)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i32) -> TokenKind {
        TokenKind::Int(v)
    }

    fn p(q: Punct, s: &'static str) -> TokenKind {
        TokenKind::Punct(q, s)
    }

    #[test]
    fn conditionals_nest() {
        let mut pp = Preprocessor::default();
        pp.open(false, Pos::START);
        assert!(!pp.active());
        pp.open(true, Pos::START);
        assert!(!pp.active(), "inside an inactive group");
        pp.endif().unwrap();
        assert!(pp.elif_pending());
        pp.elif(true).unwrap();
        assert!(pp.active());
        pp.else_branch().unwrap();
        assert!(!pp.active(), "#else after a taken #elif");
        assert_eq!(pp.else_branch(), Err("#else after #else"));
        pp.endif().unwrap();
        assert_eq!(pp.endif(), Err("#endif without #if"));
        assert!(pp.active() && pp.unterminated().is_none());
    }

    #[test]
    fn expansion_is_recursive_but_not_self_referential() {
        let mut pp = Preprocessor::default();
        pp.define("A".into(), vec![TokenKind::Ident("B".into()), int(1)]);
        pp.define("B".into(), vec![TokenKind::Ident("A".into()), int(2)]);
        let mut out = Vec::new();
        pp.expand("A", Pos::START, &mut out).unwrap();
        let kinds: Vec<_> = out.into_iter().map(|t| t.kind).collect();
        assert_eq!(kinds, vec![TokenKind::Ident("A".into()), int(2), int(1)]);
    }

    #[test]
    fn if_expressions() {
        let mut pp = Preprocessor::default();
        pp.define("N".into(), vec![int(4)]);
        let defined = TokenKind::Ident("defined".into());
        let n = TokenKind::Ident("N".into());
        let line = [
            defined.clone(),
            p(Punct::LParen, "("),
            n.clone(),
            p(Punct::RParen, ")"),
            p(Punct::AndAnd, "&&"),
            n.clone(),
            p(Punct::Star, "*"),
            int(2),
            p(Punct::Eq, "=="),
            int(8),
        ];
        assert_eq!(pp.eval(&line), Ok(true));
        let line = [p(Punct::Not, "!"), defined, TokenKind::Ident("M".into())];
        assert_eq!(pp.eval(&line), Ok(true));
        assert_eq!(pp.eval(&[int(1), int(2)]), Err("invalid #if expression"));
        assert_eq!(
            pp.eval(&[int(1), p(Punct::Slash, "/"), int(0)]),
            Err("invalid #if expression")
        );
    }
}
