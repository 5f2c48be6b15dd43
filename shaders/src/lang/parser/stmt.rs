//! Statements.

use super::super::ast::{Decl, Expr, ExprKind, Stmt, StmtKind, UnOp};
use super::super::token::{Keyword, Pos, Punct, Reserved, TokenKind};
use super::{PResult, Parser};

impl Parser<'_, '_> {
    /// `{ stmts }` starting at `{`; returns the statements and the position of `}`.
    /// Errors inside are recovered statement by statement.
    pub(super) fn block_body(&mut self) -> PResult<(Vec<Stmt>, Pos)> {
        self.expect(Punct::LBrace, "expected '{'")?;
        self.enter(1)?;
        self.enter_precision_scope();
        let mut stmts = Vec::new();
        let result = loop {
            if self.is_punct(Punct::RBrace) {
                let end = self.pos();
                self.advance();
                break Ok(end);
            }
            if self.at_eof() {
                break self.fail("expected '}'");
            }
            if self.diags.full() {
                break Err(super::Reported);
            }
            let before = self.at;
            match self.statement(&mut stmts) {
                Ok(()) => {}
                Err(_) => {
                    self.recover();
                    if self.at == before {
                        self.advance();
                    }
                }
            }
        };
        self.leave_precision_scope();
        self.leave(1);
        result.map(|end| (stmts, end))
    }

    /// One statement; declarations with several declarators push several statements.
    fn statement(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.pos();
        let kind = match self.kind() {
            TokenKind::Punct(Punct::LBrace, _) => {
                let (body, _) = self.block_body()?;
                StmtKind::Block(body)
            }
            TokenKind::Punct(Punct::Semi, _) => {
                self.advance();
                StmtKind::Empty
            }
            TokenKind::Keyword(Keyword::If) => self.if_statement()?,
            TokenKind::Keyword(Keyword::For) => self.for_statement()?,
            TokenKind::Keyword(Keyword::While) => self.while_statement()?,
            TokenKind::Keyword(Keyword::Do) => self.do_statement()?,
            TokenKind::Keyword(Keyword::Return) => {
                self.advance();
                let value = if self.is_punct(Punct::Semi) {
                    None
                } else {
                    Some(self.comma_expr()?)
                };
                self.expect(Punct::Semi, "expected ';'")?;
                StmtKind::Return(value)
            }
            TokenKind::Keyword(k @ (Keyword::Discard | Keyword::Break | Keyword::Continue)) => {
                let k = *k;
                self.advance();
                self.expect(Punct::Semi, "expected ';'")?;
                match k {
                    Keyword::Discard => StmtKind::Discard,
                    Keyword::Break => StmtKind::Break,
                    _ => StmtKind::Continue,
                }
            }
            TokenKind::Keyword(Keyword::Precision) => {
                self.precision_statement()?;
                StmtKind::Empty
            }
            TokenKind::Reserved(Reserved::Other, "switch") => {
                self.advance();
                self.expect(Punct::LParen, "expected '(' after switch")?;
                let selector = self.comma_expr()?;
                self.expect(Punct::RParen, "expected ')'")?;
                let (body, _) = self.block_body()?;
                StmtKind::Switch { selector, body }
            }
            TokenKind::Reserved(Reserved::Other, "case") => {
                self.advance();
                let value = self.expr()?;
                self.expect(Punct::Colon, "expected ':' after the case label")?;
                StmtKind::Case(Some(value))
            }
            TokenKind::Reserved(Reserved::Other, "default") => {
                self.advance();
                self.expect(Punct::Colon, "expected ':' after default")?;
                StmtKind::Case(None)
            }
            TokenKind::Reserved(Reserved::Other, "struct") if self.struct_definition_only() => {
                // A local `struct S { ... };` defines the type only.
                self.type_name()?;
                self.expect(Punct::Semi, "expected ';'")?;
                StmtKind::Empty
            }
            _ if self.starts_declaration() => {
                let first = out.len();
                self.declaration(|d| {
                    let pos = d.pos;
                    out.push(Stmt {
                        kind: StmtKind::Decl(d),
                        pos,
                    })
                })?;
                let depth = self.block_depth();
                for s in &out[first..] {
                    if let StmtKind::Decl(d) = &s.kind {
                        self.hide_struct(&d.name, depth);
                    }
                }
                return Ok(());
            }
            _ => {
                let s = self.simple_statement()?;
                self.expect(Punct::Semi, "expected ';'")?;
                s
            }
        };
        out.push(Stmt { kind, pos });
        Ok(())
    }

    /// Whether the current token starts a local declaration: a qualifier, a reserved
    /// type or qualifier word, or a type keyword followed by a name (a type followed
    /// by `(` is a constructor expression).
    fn starts_declaration(&self) -> bool {
        match self.kind() {
            TokenKind::Keyword(
                Keyword::Const
                | Keyword::In
                | Keyword::Out
                | Keyword::InOut
                | Keyword::Uniform
                | Keyword::Layout
                | Keyword::Interpolation(_)
                | Keyword::PrecisionQualifier,
            ) => true,
            TokenKind::Reserved(Reserved::Qualifier, _) => true,
            TokenKind::Reserved(Reserved::Other, "struct") => true,
            // `S x`, `S[2] x`; not the constructors `S(...)` and `S[2](...)`.
            TokenKind::Ident(_) if self.at_struct_name() => match self.peek_kind(1) {
                TokenKind::Punct(Punct::LParen, _) => false,
                TokenKind::Punct(Punct::LBracket, _) => !self.array_constructor_follows(),
                _ => true,
            },
            TokenKind::Reserved(Reserved::Type, _) | TokenKind::Keyword(Keyword::Type(_)) => {
                !matches!(self.peek_kind(1), TokenKind::Punct(Punct::LParen, _))
            }
            _ => false,
        }
    }

    /// At `struct`: whether the definition is followed directly by `;` (no variable).
    fn struct_definition_only(&self) -> bool {
        self.after_group(0, Punct::LBrace, Punct::RBrace, Punct::Semi)
    }

    /// At `NAME [` for a struct NAME: whether `[ ... ] (` follows (an array
    /// constructor, not the declaration `S[3] name;`).
    fn array_constructor_follows(&self) -> bool {
        self.after_group(1, Punct::LBracket, Punct::RBracket, Punct::LParen)
    }

    /// Whether the token after the balanced `open`…`close` group that starts at or
    /// after token `from` (counted from the current one) is `then`.
    fn after_group(&self, from: usize, open: Punct, close: Punct, then: Punct) -> bool {
        let mut depth = 0usize;
        let mut k = from;
        loop {
            match self.peek_kind(k) {
                TokenKind::Eof => return false,
                TokenKind::Punct(p, _) if *p == open => depth += 1,
                TokenKind::Punct(p, _) if *p == close => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return matches!(self.peek_kind(k + 1), TokenKind::Punct(p, _) if *p == then);
                    }
                }
                _ => {}
            }
            k += 1;
        }
    }

    fn declaration(&mut self, out: impl FnMut(Decl)) -> PResult<()> {
        let quals = self.qualifiers(false)?;
        let (ty, ty_pos) = self.type_name()?;
        let type_array = self.opt_array_size()?;
        let (name, pos) = self.name()?;
        self.check_precision(quals.precision, ty, ty_pos, "variable", &name)?;
        self.declarators(quals, (ty, ty_pos, type_array), name, pos, out)
    }

    fn if_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        self.expect(Punct::LParen, "expected '(' after if")?;
        let cond = self.comma_expr()?;
        self.expect(Punct::RParen, "expected ')'")?;
        let then = Box::new(self.sub_statement()?);
        let otherwise = if self.is_keyword(Keyword::Else) {
            self.advance();
            Some(Box::new(self.sub_statement()?))
        } else {
            None
        };
        Ok(StmtKind::If {
            cond,
            then,
            otherwise,
        })
    }

    /// The body of an if/else/for: one statement, nested one level. A declaration
    /// there is wrapped in a block so that its scope ends with the statement.
    fn sub_statement(&mut self) -> PResult<Stmt> {
        self.enter(1)?;
        let pos = self.pos();
        let mut stmts = Vec::new();
        let r = self.statement(&mut stmts);
        self.leave(1);
        r?;
        if stmts.len() == 1 && !matches!(stmts[0].kind, StmtKind::Decl(_)) {
            return Ok(stmts.pop().expect("one statement"));
        }
        Ok(Stmt {
            kind: StmtKind::Block(stmts),
            pos,
        })
    }

    fn for_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        self.expect(Punct::LParen, "expected '(' after for")?;
        let init_pos = self.pos();
        let init = if self.eat_punct(Punct::Semi) {
            None
        } else if self.starts_declaration() {
            let mut decls = Vec::new();
            self.declaration(|d| decls.push(d))?;
            if decls.len() > 1 {
                let names: Vec<String> = decls.iter().map(|d| format!("'{}'", d.name)).collect();
                let message = format!(
                    "a for loop's init declares one variable, this one declares {} ({}): \
                     declare the others before the loop",
                    decls.len(),
                    names.join(", ")
                );
                // Reported, then parsed on with the first: no follow-on errors.
                self.diags.error(decls[1].pos, message);
                decls.truncate(1);
            }
            if decls.is_empty() {
                return self.fail_at(init_pos, "expected a loop variable");
            }
            let d = decls.pop().expect("one declarator");
            Some(Box::new(Stmt {
                pos: d.pos,
                kind: StmtKind::Decl(d),
            }))
        } else {
            let s = self.simple_statement()?;
            self.expect(Punct::Semi, "expected ';'")?;
            Some(Box::new(Stmt {
                kind: s,
                pos: init_pos,
            }))
        };
        let cond = if self.is_punct(Punct::Semi) {
            None
        } else {
            Some(self.comma_expr()?)
        };
        self.expect(Punct::Semi, "expected ';'")?;
        let step_pos = self.pos();
        let step = if self.is_punct(Punct::RParen) {
            None
        } else {
            Some(Box::new(Stmt {
                kind: self.simple_statement()?,
                pos: step_pos,
            }))
        };
        self.expect(Punct::RParen, "expected ')'")?;
        let body = Box::new(self.sub_statement()?);
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
            do_while: false,
        })
    }

    /// `while (cond) body` (GLSL 1.10 §6.3): a `for` without init and step.
    fn while_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        self.expect(Punct::LParen, "expected '(' after while")?;
        if self.starts_declaration() {
            return self.while_declaration();
        }
        let cond = self.comma_expr()?;
        self.expect(Punct::RParen, "expected ')'")?;
        let body = Box::new(self.sub_statement()?);
        Ok(StmtKind::For {
            init: None,
            cond: Some(cond),
            step: None,
            body,
            do_while: false,
        })
    }

    /// `while (TYPE NAME = INIT) body` (GLSL 1.10 §6.3: the condition may declare a
    /// variable, initialized on every test and in scope in the body): the loop
    /// `for (;;) { TYPE NAME = INIT; if (!NAME) break; body }`, which runs the same
    /// steps in the same order.
    fn while_declaration(&mut self) -> PResult<StmtKind> {
        let start = self.pos();
        let quals = self.qualifiers(false)?;
        let (ty, ty_pos) = self.type_name()?;
        let (name, pos) = self.name()?;
        self.check_precision(quals.precision, ty, ty_pos, "variable", &name)?;
        self.expect(
            Punct::Assign,
            "a declaration in a while condition needs an initializer: while (bool b = e)",
        )?;
        let init = self.expr()?;
        self.expect(Punct::RParen, "expected ')'")?;
        let body = self.sub_statement()?;
        let ident = Expr {
            kind: ExprKind::Ident(name.clone()),
            pos,
        };
        let decl = Decl {
            quals,
            ty,
            ty_pos,
            name,
            pos,
            array: None,
            init: Some(init),
            iface_names: Vec::new(),
            iface_root: None,
        };
        let stop = Stmt {
            kind: StmtKind::If {
                cond: Expr {
                    kind: ExprKind::Unary(UnOp::Not, Box::new(ident)),
                    pos,
                },
                then: Box::new(Stmt {
                    kind: StmtKind::Break,
                    pos,
                }),
                otherwise: None,
            },
            pos,
        };
        let stmts = vec![
            Stmt {
                kind: StmtKind::Decl(decl),
                pos: start,
            },
            stop,
            body,
        ];
        Ok(StmtKind::For {
            init: None,
            cond: None,
            step: None,
            body: Box::new(Stmt {
                kind: StmtKind::Block(stmts),
                pos: start,
            }),
            do_while: false,
        })
    }

    /// `do body while (cond);` (GLSL 1.10 §6.3): the body runs before the first test.
    fn do_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        let body = Box::new(self.sub_statement()?);
        if !self.is_keyword(Keyword::While) {
            return self.fail("expected 'while' after the body of a do loop");
        }
        self.advance();
        self.expect(Punct::LParen, "expected '(' after while")?;
        let cond = self.comma_expr()?;
        self.expect(Punct::RParen, "expected ')'")?;
        self.expect(Punct::Semi, "expected ';'")?;
        Ok(StmtKind::For {
            init: None,
            cond: Some(cond),
            step: None,
            body,
            do_while: true,
        })
    }

    /// An expression statement, assignment or `++`/`--` statement, without the `;`.
    pub(super) fn simple_statement(&mut self) -> PResult<StmtKind> {
        let e = self.comma_expr()?;
        Ok(statement_of(e).kind)
    }
}

/// An expression used as a statement: assignments and `++`/`--` become their
/// statements, `a, b` the block of both, anything else an expression statement.
fn statement_of(e: Expr) -> Stmt {
    let pos = match &e.kind {
        ExprKind::Assign { target, .. } => target.pos,
        _ => e.pos,
    };
    let kind = match e.kind {
        ExprKind::Assign { target, op, value } => StmtKind::Assign {
            target: *target,
            op,
            value: *value,
        },
        ExprKind::Step(target, up, _) => StmtKind::Step {
            target: *target,
            up,
        },
        ExprKind::Comma(a, b) => StmtKind::Block(vec![statement_of(*a), statement_of(*b)]),
        kind => StmtKind::Expr(Expr { kind, pos }),
    };
    Stmt { kind, pos }
}
