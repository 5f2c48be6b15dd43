//! Expressions: precedence climbing over the GLSL operator table.
//!
//! From low to high (GLSL 1.30 §5.1): `?:` (right-associative), `||`, `^^`, `&&`,
//! `|`, `^`, `&`, `== !=`, `< > <= >=`, `<< >>`, `+ -`, `* / %`, prefix
//! `- + ! ~ ++ --`, postfix `.swizzle [index] ++ --`. Binary operators are
//! left-associative.

use super::super::ast::{AssignOp, BinOp, Expr, ExprKind, UnOp};
use super::super::token::{Keyword, Pos, Punct, TokenKind};
use super::{PResult, Parser};

/// Precedence of a binary operator token (higher binds tighter).
fn binary_op(kind: &TokenKind) -> Option<(BinOp, u8)> {
    let TokenKind::Punct(p, spelling) = kind else {
        return None;
    };
    Some(match p {
        Punct::OrOr => (BinOp::Or, 1),
        Punct::XorXor => (BinOp::Xor, 2),
        Punct::AndAnd => (BinOp::And, 3),
        Punct::Bitwise => match *spelling {
            "|" => (BinOp::BitOr, 4),
            "^" => (BinOp::BitXor, 5),
            "&" => (BinOp::BitAnd, 6),
            "<<" => (BinOp::Shl, 9),
            ">>" => (BinOp::Shr, 9),
            _ => return None,
        },
        Punct::Eq => (BinOp::Eq, 7),
        Punct::Ne => (BinOp::Ne, 7),
        Punct::Lt => (BinOp::Lt, 8),
        Punct::Gt => (BinOp::Gt, 8),
        Punct::Le => (BinOp::Le, 8),
        Punct::Ge => (BinOp::Ge, 8),
        Punct::Plus => (BinOp::Add, 10),
        Punct::Minus => (BinOp::Sub, 10),
        Punct::Star => (BinOp::Mul, 11),
        Punct::Slash => (BinOp::Div, 11),
        Punct::Percent => (BinOp::Mod, 11),
        _ => return None,
    })
}

/// Decode a swizzle word into lane selectors: one set of `xyzw`, `rgba` or `stpq`,
/// 1 to 4 letters (docs/csir-original.md B §1.8 plus `stpq`).
pub(crate) fn decode_swizzle(word: &str) -> Result<Vec<u8>, &'static str> {
    const SETS: [&str; 3] = ["xyzw", "rgba", "stpq"];
    if word.is_empty() || word.len() > 4 {
        return Err("invalid swizzle");
    }
    let mut set = None;
    let mut lanes = Vec::with_capacity(4);
    for c in word.chars() {
        let found = SETS
            .iter()
            .enumerate()
            .find_map(|(s, letters)| letters.find(c).map(|lane| (s, lane as u8)));
        let Some((s, lane)) = found else {
            return Err("invalid swizzle");
        };
        match set {
            None => set = Some(s),
            Some(prev) if prev != s => return Err("mixed swizzle sets"),
            _ => {}
        }
        lanes.push(lane);
    }
    Ok(lanes)
}

impl Parser<'_, '_> {
    /// Fail at an operator GLSL reserves before integers have them: `%`, `~`, `<<`,
    /// `>>`, `&`, `|`, `^` (GLSL 1.10 and 1.20 §5.1, GLSL ES 1.00 §5.1) and their
    /// assignments (§5.8, `section`), until GLSL 1.30 and GLSL ES 3.00 define them.
    fn reserved_operator(&mut self, spelling: &str, section: &str) -> PResult<()> {
        let d = self.dialect;
        if d.version >= 300 || !d.is_es() && d.version >= 130 {
            return Ok(());
        }
        let spec = self.spec();
        self.fail(format!(
            "operator '{spelling}' is reserved in {spec} ({spec} §{section}): the integer \
             operators %, ~, <<, >>, &, |, ^ and their assignments need GLSL 1.30 or GLSL ES 3.00"
        ))
    }

    /// An assignment expression (GLSL 1.10 §5.8, right-associative) or a `?:`: an
    /// argument, an initializer, an operand. Full expressions with `,` are
    /// [`Parser::comma_expr`].
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        self.enter(1)?;
        let r = self.assignment();
        self.leave(1);
        r
    }

    fn assignment(&mut self) -> PResult<Expr> {
        let target = self.ternary()?;
        let op = match self.kind() {
            TokenKind::Punct(Punct::Assign, _) => AssignOp::Set,
            TokenKind::Punct(Punct::PlusAssign, _) => AssignOp::Compound(BinOp::Add),
            TokenKind::Punct(Punct::MinusAssign, _) => AssignOp::Compound(BinOp::Sub),
            TokenKind::Punct(Punct::StarAssign, _) => AssignOp::Compound(BinOp::Mul),
            TokenKind::Punct(Punct::SlashAssign, _) => AssignOp::Compound(BinOp::Div),
            TokenKind::Punct(Punct::PercentAssign, _) => AssignOp::Compound(BinOp::Mod),
            TokenKind::Punct(Punct::Bitwise, s) => match *s {
                "&=" => AssignOp::Compound(BinOp::BitAnd),
                "|=" => AssignOp::Compound(BinOp::BitOr),
                "^=" => AssignOp::Compound(BinOp::BitXor),
                "<<=" => AssignOp::Compound(BinOp::Shl),
                ">>=" => AssignOp::Compound(BinOp::Shr),
                _ => return Ok(target),
            },
            _ => return Ok(target),
        };
        let pos = self.pos();
        if let (
            AssignOp::Compound(
                BinOp::Mod | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr,
            ),
            TokenKind::Punct(_, spelling),
        ) = (op, self.kind())
        {
            self.reserved_operator(spelling, "5.8")?;
        }
        self.advance();
        let value = self.expr()?;
        Ok(Expr {
            kind: ExprKind::Assign {
                target: Box::new(target),
                op,
                value: Box::new(value),
            },
            pos,
        })
    }

    /// A full expression: assignment expressions separated by the comma operator
    /// (GLSL 1.10 §5.9), left to right.
    pub(super) fn comma_expr(&mut self) -> PResult<Expr> {
        let mut e = self.expr()?;
        let mut levels = 0;
        let result = loop {
            if !self.is_punct(Punct::Comma) {
                break Ok(e);
            }
            let pos = self.pos();
            self.advance();
            if let Err(r) = self.enter_chain() {
                break Err(r);
            }
            levels += 1;
            match self.expr() {
                Ok(b) => {
                    e = Expr {
                        kind: ExprKind::Comma(Box::new(e), Box::new(b)),
                        pos,
                    }
                }
                Err(r) => break Err(r),
            }
        };
        self.leave_chain(levels);
        result
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let cond = self.binary(1)?;
        if !self.is_punct(Punct::Question) {
            return Ok(cond);
        }
        let pos = self.pos();
        self.advance();
        let a = self.expr()?;
        self.expect(Punct::Colon, "expected ':'")?;
        let b = self.expr()?;
        Ok(Expr {
            kind: ExprKind::Ternary(Box::new(cond), Box::new(a), Box::new(b)),
            pos,
        })
    }

    /// Operators of precedence `min` and above; chains count towards
    /// [`super::MAX_OPERATOR_CHAIN`] because they deepen the tree.
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let mut chain = 0;
        let result = loop {
            let Some((op, prec)) = binary_op(self.kind()) else {
                break Ok(lhs);
            };
            if prec < min {
                break Ok(lhs);
            }
            if let (
                BinOp::Mod | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr,
                TokenKind::Punct(_, spelling),
            ) = (op, self.kind())
                && let Err(e) = self.reserved_operator(spelling, "5.1")
            {
                break Err(e);
            }
            let pos = self.pos();
            self.advance();
            if let Err(e) = self.enter_chain() {
                break Err(e);
            }
            chain += 1;
            let rhs = match self.binary(prec + 1) {
                Ok(r) => r,
                Err(e) => break Err(e),
            };
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        };
        self.leave_chain(chain);
        result
    }

    /// Prefix operators, then a postfix expression.
    pub(super) fn unary(&mut self) -> PResult<Expr> {
        let pos = self.pos();
        let op = match self.kind() {
            TokenKind::Punct(Punct::Minus, _) => Some(UnOp::Neg),
            TokenKind::Punct(Punct::Not, _) => Some(UnOp::Not),
            TokenKind::Punct(Punct::Plus, _) => Some(UnOp::Plus),
            TokenKind::Punct(p @ (Punct::Inc | Punct::Dec), _) => {
                let up = *p == Punct::Inc;
                self.advance();
                self.enter(1)?;
                let e = self.unary();
                self.leave(1);
                return Ok(Expr {
                    kind: ExprKind::Step(Box::new(e?), up, true),
                    pos,
                });
            }
            TokenKind::Punct(Punct::Bitwise, "~") => {
                self.reserved_operator("~", "5.1")?;
                Some(UnOp::BitNot)
            }
            _ => return self.postfix(),
        };
        self.advance();
        self.enter(1)?;
        let e = self.unary();
        self.leave(1);
        let e = e?;
        Ok(match op {
            Some(op) => Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                pos,
            },
            None => e,
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        let mut levels = 0;
        let result = loop {
            let pos = self.pos();
            if self.is_punct(Punct::Dot) {
                self.advance();
                let spos = self.pos();
                let word = match self.kind() {
                    TokenKind::Ident(w) => w.clone(),
                    _ => break self.fail("expected a swizzle"),
                };
                self.advance();
                if self.is_punct(Punct::LParen) {
                    if word != "length"
                        || !matches!(self.peek_kind(1), TokenKind::Punct(Punct::RParen, _))
                    {
                        break self.fail_at(spos, format!("method '{word}' is not supported"));
                    }
                    self.advance();
                    self.advance();
                    e = Expr {
                        kind: ExprKind::Length(Box::new(e)),
                        pos: spos,
                    };
                    if let Err(r) = self.enter(1) {
                        break Err(r);
                    }
                    levels += 1;
                    continue;
                }
                // A member or a swizzle: the struct pass tells them apart by the
                // type of `e` (`lang/structs.rs`).
                e = Expr {
                    kind: ExprKind::Field(Box::new(e), word),
                    pos: spos,
                };
            } else if self.is_punct(Punct::LBracket) {
                self.advance();
                let index = match self.expr() {
                    Ok(i) => i,
                    Err(r) => break Err(r),
                };
                if let Err(r) = self.expect(Punct::RBracket, "expected ']'") {
                    break Err(r);
                }
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(index)),
                    pos,
                };
            } else if let TokenKind::Punct(p @ (Punct::Inc | Punct::Dec), _) = self.kind() {
                let up = *p == Punct::Inc;
                self.advance();
                e = Expr {
                    kind: ExprKind::Step(Box::new(e), up, false),
                    pos,
                };
            } else {
                break Ok(e);
            }
            if let Err(r) = self.enter(1) {
                break Err(r);
            }
            levels += 1;
        };
        self.leave(levels);
        result
    }

    fn primary(&mut self) -> PResult<Expr> {
        let pos = self.pos();
        let kind = match self.kind() {
            TokenKind::Int(v) => ExprKind::Int(*v),
            TokenKind::UInt(v) => ExprKind::UInt(*v),
            TokenKind::Float(v) => ExprKind::Float(*v),
            TokenKind::Keyword(Keyword::True) => ExprKind::Bool(true),
            TokenKind::Keyword(Keyword::False) => ExprKind::Bool(false),
            TokenKind::Ident(name) if self.struct_named(name).is_some() => {
                // `S(args)` / `S[N](args)`: a struct constructor (GLSL 1.10 §5.4.3).
                let ty = self
                    .struct_named(name)
                    .unwrap_or(super::super::types::Type::None);
                self.advance();
                return self.constructor(ty, pos);
            }
            TokenKind::Ident(name) => {
                let name = name.clone();
                self.advance();
                if self.is_punct(Punct::LParen) {
                    let args = self.args()?;
                    return Ok(Expr {
                        kind: ExprKind::Call { name, args },
                        pos,
                    });
                }
                return Ok(Expr {
                    kind: ExprKind::Ident(name),
                    pos,
                });
            }
            TokenKind::Keyword(Keyword::Type(ty)) => {
                let ty = *ty;
                self.advance();
                return self.constructor(ty, pos);
            }
            TokenKind::Reserved(r, w) => {
                let m = Self::reserved_message(*r, w);
                return self.fail(m);
            }
            TokenKind::Punct(Punct::LParen, _) => {
                self.advance();
                let e = self.comma_expr()?;
                self.expect(Punct::RParen, "expected ')'")?;
                return Ok(e);
            }
            _ => return self.fail("expected an expression"),
        };
        self.advance();
        Ok(Expr { kind, pos })
    }

    /// `TYPE(args)` or `TYPE[N](args)` after the type (`pos`: the type).
    fn constructor(&mut self, ty: super::super::types::Type, pos: Pos) -> PResult<Expr> {
        let size = self.opt_array_size()?;
        if !self.is_punct(Punct::LParen) {
            return self.fail("expected '(' after type");
        }
        let args = self.args()?;
        let kind = match size {
            Some(size) => ExprKind::ArrayConstruct { ty, size, args },
            None => ExprKind::Construct { ty, args },
        };
        Ok(Expr { kind, pos })
    }

    /// `( args )` of a call or constructor, starting at `(`.
    fn args(&mut self) -> PResult<Vec<Expr>> {
        self.advance();
        let mut args = Vec::new();
        if self.eat_punct(Punct::RParen) {
            return Ok(args);
        }
        if self.is_keyword(Keyword::Type(super::super::types::Type::Void))
            && matches!(self.peek_kind(1), TokenKind::Punct(Punct::RParen, _))
        {
            self.advance();
            self.advance();
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat_punct(Punct::Comma) {
                continue;
            }
            self.expect(Punct::RParen, "expected ')'")?;
            return Ok(args);
        }
    }
}
