//! `#if` / `#elif` expressions (GLSL 3.30 §3.3, GLSL 4.60 §3.3, C99 §6.10.1): integer
//! literals, `defined NAME` and `defined(NAME)` (applied before macro expansion), the
//! macros that expand to them, and the C operators GLSL lists, from the tightest:
//!
//! | precedence | operators |
//! |---|---|
//! | 1 | `( )` |
//! | 2 | unary `+ - ~ !` |
//! | 3 | `* / %` |
//! | 4 | `+ -` |
//! | 5 | `<< >>` |
//! | 6 | `< > <= >=` |
//! | 7 | `== !=` |
//! | 8 | `&` |
//! | 9 | `^` |
//! | 10 | `\|` |
//! | 11 | `&&` |
//! | 12 | `\|\|` |
//!
//! Values are 64-bit signed (C99's `intmax_t`). `&&` and `||` do not evaluate their
//! right operand when the left one decides, so `0 && 1 / 0` is 0. A name left after
//! expansion is 0 on the desktop (C99 §6.10.1) and an error in OpenGL ES (GLSL ES 3.00
//! §3.4: only names consumed by `defined` may appear). Every error names the token and
//! its position; division by zero, overflow and shifts outside 0..63 are errors.

use super::super::token::{Pos, Punct, Token, TokenKind};
use super::{PpError, PpToken, Preprocessor, ident};

/// Deepest nesting of parentheses and unary operators in one expression.
const MAX_NESTING: usize = 64;

impl Preprocessor {
    /// Evaluate the operands of `#if` or `#elif` (`directive`), whose line starts at
    /// `start` and ends at `end`.
    ///
    /// Errors: see the module documentation; each names the directive, the token and
    /// the rule.
    pub fn eval(
        &mut self,
        line: Vec<PpToken>,
        directive: &str,
        start: Pos,
        end: Pos,
    ) -> Result<bool, PpError> {
        let mut resolved = Vec::with_capacity(line.len());
        let mut toks = line.into_iter().peekable();
        while let Some(t) = toks.next() {
            if ident(&t.token) != Some("defined") {
                resolved.push(t);
                continue;
            }
            let pos = t.token.pos;
            let paren = toks
                .next_if(|n| matches!(n.token.kind, TokenKind::Punct(Punct::LParen, _)))
                .is_some();
            let name = toks.next().filter(|n| ident(&n.token).is_some());
            let closed = !paren
                || toks
                    .next_if(|n| matches!(n.token.kind, TokenKind::Punct(Punct::RParen, _)))
                    .is_some();
            let (Some(name), true) = (name, closed) else {
                return Err(PpError::new(
                    pos,
                    format!(
                        "#{directive}: 'defined' expects a macro name: defined NAME or defined(NAME) (C99 §6.10.1)"
                    ),
                ));
            };
            let value = self.is_defined(ident(&name.token).unwrap_or_default());
            resolved.push(PpToken::new(Token {
                kind: TokenKind::Int(i32::from(value)),
                pos,
            }));
        }
        let toks = self.expand_line(resolved)?;
        if toks.is_empty() {
            return Err(PpError::new(
                start,
                format!("#{directive} without an expression"),
            ));
        }
        let mut p = IfExpr {
            toks: &toks,
            at: 0,
            end,
            directive,
            es: self.es,
            nesting: 0,
        };
        let v = p.binary(0, true)?;
        if let Some(t) = toks.get(p.at) {
            return Err(p.unexpected(Some(t), "an operator or the end of the line"));
        }
        Ok(v != 0)
    }
}

/// Precedence climbing over an expanded `#if` line.
struct IfExpr<'t> {
    toks: &'t [Token],
    at: usize,
    /// Where the line ends (the position of an error at its end).
    end: Pos,
    directive: &'t str,
    es: bool,
    nesting: usize,
}

/// The binary operator `p` spells and its binding strength (higher binds tighter).
fn binary_op(kind: &TokenKind) -> Option<(&'static str, u8)> {
    let TokenKind::Punct(p, s) = kind else {
        return None;
    };
    let prec = match p {
        Punct::OrOr => 1,
        Punct::AndAnd => 2,
        Punct::Bitwise if *s == "|" => 3,
        Punct::Bitwise if *s == "^" => 4,
        Punct::Bitwise if *s == "&" => 5,
        Punct::Eq | Punct::Ne => 6,
        Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 7,
        Punct::Bitwise if *s == "<<" || *s == ">>" => 8,
        Punct::Plus | Punct::Minus => 9,
        Punct::Star | Punct::Slash | Punct::Percent => 10,
        _ => return None,
    };
    Some((s, prec))
}

impl IfExpr<'_> {
    /// An error at `t` (the end of the line when `None`) saying what was expected.
    fn unexpected(&self, t: Option<&Token>, wanted: &str) -> PpError {
        let (pos, found) = match t {
            Some(t) => (t.pos, t.kind.to_string()),
            None => (self.end, "the end of the line".to_string()),
        };
        PpError::new(
            pos,
            format!(
                "invalid #{} expression: expected {wanted}, found {found}",
                self.directive
            ),
        )
    }

    fn error(&self, pos: Pos, what: &str) -> PpError {
        PpError::new(pos, format!("#{}: {what}", self.directive))
    }

    /// Operators binding at least as tightly as `min`; `eval` false in an operand that
    /// `&&` / `||` skip (no division-by-zero or overflow errors there).
    fn binary(&mut self, min: u8, eval: bool) -> Result<i64, PpError> {
        let mut lhs = self.unary(eval)?;
        loop {
            let Some(t) = self.toks.get(self.at) else {
                return Ok(lhs);
            };
            let Some((op, prec)) = binary_op(&t.kind) else {
                return Ok(lhs);
            };
            if prec < min {
                return Ok(lhs);
            }
            self.at += 1;
            let rhs_eval = eval
                && match op {
                    "&&" => lhs != 0,
                    "||" => lhs == 0,
                    _ => true,
                };
            let rhs = self.binary(prec + 1, rhs_eval)?;
            lhs = match eval {
                true => self.apply(op, lhs, rhs, t.pos, rhs_eval)?,
                false => 0,
            };
        }
    }

    fn apply(&self, op: &str, a: i64, b: i64, pos: Pos, b_eval: bool) -> Result<i64, PpError> {
        let overflow = || self.error(pos, &format!("integer overflow in '{op}'"));
        Ok(match op {
            "||" => i64::from(a != 0 || (b_eval && b != 0)),
            "&&" => i64::from(a != 0 && b_eval && b != 0),
            "|" => a | b,
            "^" => a ^ b,
            "&" => a & b,
            "==" => i64::from(a == b),
            "!=" => i64::from(a != b),
            "<" => i64::from(a < b),
            ">" => i64::from(a > b),
            "<=" => i64::from(a <= b),
            ">=" => i64::from(a >= b),
            "<<" | ">>" => {
                if !(0..64).contains(&b) {
                    return Err(self.error(
                        pos,
                        &format!("shift by {b} in '{op}' (the amount must be 0 to 63)"),
                    ));
                }
                match op {
                    "<<" => a.checked_shl(b as u32).ok_or_else(overflow)?,
                    _ => a >> b,
                }
            }
            "+" => a.checked_add(b).ok_or_else(overflow)?,
            "-" => a.checked_sub(b).ok_or_else(overflow)?,
            "*" => a.checked_mul(b).ok_or_else(overflow)?,
            "/" | "%" if b == 0 => {
                return Err(self.error(pos, &format!("division by zero in '{op}'")));
            }
            "/" => a.checked_div(b).ok_or_else(overflow)?,
            _ => a.checked_rem(b).ok_or_else(overflow)?,
        })
    }

    fn unary(&mut self, eval: bool) -> Result<i64, PpError> {
        const OPERAND: &str = "an integer, '(' or a unary operator";
        let Some(t) = self.toks.get(self.at) else {
            return Err(self.unexpected(None, OPERAND));
        };
        self.at += 1;
        if self.nesting >= MAX_NESTING {
            return Err(self.error(
                t.pos,
                &format!("the expression nests too deeply (more than {MAX_NESTING} levels)"),
            ));
        }
        self.nesting += 1;
        let v = self.operand(t, eval);
        self.nesting -= 1;
        v
    }

    fn operand(&mut self, t: &Token, eval: bool) -> Result<i64, PpError> {
        const OPERAND: &str = "an integer, '(' or a unary operator";
        match &t.kind {
            TokenKind::Int(v) => Ok(i64::from(*v)),
            TokenKind::UInt(v) => Ok(i64::from(*v)),
            TokenKind::Ident(n) if self.es => Err(self.error(
                t.pos,
                &format!("undefined macro '{n}' in the expression (GLSL ES 3.00 §3.4: names other than the operand of 'defined' are errors)"),
            )),
            TokenKind::Ident(_) => Ok(0),
            TokenKind::Float(_) => Err(self.error(
                t.pos,
                &format!("{} is not an integer (GLSL 3.30 §3.3: #if takes integer expressions)", t.kind),
            )),
            TokenKind::Punct(Punct::Not, _) => Ok(i64::from(self.unary(eval)? == 0)),
            TokenKind::Punct(Punct::Bitwise, "~") => Ok(!self.unary(eval)?),
            TokenKind::Punct(Punct::Plus, _) => self.unary(eval),
            TokenKind::Punct(Punct::Minus, _) => {
                let v = self.unary(eval)?;
                match eval {
                    true => v
                        .checked_neg()
                        .ok_or_else(|| self.error(t.pos, "integer overflow in '-'")),
                    false => Ok(0),
                }
            }
            TokenKind::Punct(Punct::LParen, _) => {
                let v = self.binary(0, eval)?;
                match self.toks.get(self.at) {
                    Some(Token {
                        kind: TokenKind::Punct(Punct::RParen, _),
                        ..
                    }) => {
                        self.at += 1;
                        Ok(v)
                    }
                    other => Err(self.unexpected(other, "')'")),
                }
            }
            _ => Err(self.unexpected(Some(t), OPERAND)),
        }
    }
}
