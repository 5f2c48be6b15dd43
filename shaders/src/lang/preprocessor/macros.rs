//! Macros (C99 §6.10.3, adopted by GLSL 3.30 §3.3 without `#` and `##`): object-like
//! (`#define NAME BODY`) and function-like (`#define NAME(A, B) BODY`, the `(` right
//! after the name), their definition rules and their expansion.
//!
//! Expansion follows C99 §6.10.3.1–4 with hide sets (the "painted blue" rule): every
//! token carries the macros it came out of, and a name whose own macro is among them is
//! never expanded again, there or later. A function-like invocation collects its
//! arguments up to the matching `)` (nested parentheses protect their commas), expands
//! each argument on its own, puts them in the body in place of the parameters, and the
//! result is rescanned together with the text after it. Tokens a body brings are placed
//! at the macro's use, so that diagnostics point there; argument tokens keep their own
//! positions.

use super::super::token::{Pos, Punct, Token, TokenKind};
use super::{MAX_EXPANDED_TOKENS, PpError, Preprocessor, ident};
use std::rc::Rc;

/// Deepest nesting of invocations inside arguments (each level pre-expands the
/// arguments of the one around it).
const MAX_ARGUMENT_NESTING: usize = 64;

/// One macro definition.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Macro {
    /// The parameter names of a function-like macro; `None` for an object-like one.
    params: Option<Vec<String>>,
    /// The replacement list.
    body: Vec<TokenKind>,
    /// `__VERSION__` and the dialect's macros (replaced when the dialect changes).
    pub(super) predefined: bool,
}

impl Macro {
    /// A predefined object-like macro whose value is `value`.
    pub(super) fn predefined(value: TokenKind) -> Macro {
        Macro {
            params: None,
            body: vec![value],
            predefined: true,
        }
    }
}

/// A token of text being preprocessed, with its hide set: the macros whose expansion
/// produced it, which therefore never expand it (C99 §6.10.3.4).
#[derive(Clone, Debug)]
pub struct PpToken {
    /// The token (every word an [`TokenKind::Ident`]: keywords are told apart after
    /// expansion).
    pub token: Token,
    hide: Option<Rc<Vec<String>>>,
}

impl PpToken {
    /// A token straight from the source (nothing hidden).
    pub fn new(token: Token) -> PpToken {
        PpToken { token, hide: None }
    }

    fn hides(&self, name: &str) -> bool {
        self.hide
            .as_ref()
            .is_some_and(|h| h.iter().any(|n| n == name))
    }

    /// This token with every name of `more` hidden too.
    fn hiding(mut self, more: &[String]) -> PpToken {
        let mut set: Vec<String> = self.hide.as_deref().cloned().unwrap_or_default();
        for n in more {
            if !set.contains(n) {
                set.push(n.clone());
            }
        }
        self.hide = Some(Rc::new(set));
        self
    }
}

fn is_punct(t: &PpToken, p: Punct) -> bool {
    matches!(t.token.kind, TokenKind::Punct(q, _) if q == p)
}

/// Why `name` may not be defined or undefined by `directive`, if it may not.
fn reserved_name(name: &str, directive: &str) -> Option<String> {
    if name == "defined" {
        return Some(format!(
            "#{directive} defined: 'defined' is an operator and cannot be a macro name (C99 §6.10.8)"
        ));
    }
    // Names containing `__` are reserved, but "defining such a name in a shader does
    // not itself result in an error" (GLSL ES 3.00 §3.4; GLSL 1.30 §3.3 reserves them
    // with no diagnostic required, and piglit's tests expect none); the predefined
    // ones cannot be defined or undefined (C99 §6.10.8).
    let why = if name.starts_with("GL_") {
        "names beginning with GL_ are reserved"
    } else if matches!(name, "__LINE__" | "__FILE__" | "__VERSION__") {
        return Some(format!(
            "#{directive} {name}: a predefined macro cannot be defined or undefined (C99 \
             §6.10.8)"
        ));
    } else {
        return None;
    };
    Some(format!(
        "#{directive} {name}: {why} (GLSL 3.30 §3.3, GLSL ES 3.00 §3.4)"
    ))
}

/// The macro name a `#define` / `#undef` / `#ifdef` / `#ifndef` line starts with.
fn macro_name<'t>(line: &'t [Token], directive: &str, start: Pos) -> Result<&'t Token, PpError> {
    match line.first() {
        Some(t) if ident(t).is_some() => Ok(t),
        Some(t) => Err(PpError::new(
            t.pos,
            format!("#{directive} expects a macro name, found {}", t.kind),
        )),
        None => Err(PpError::new(
            start,
            format!("#{directive} expects a macro name"),
        )),
    }
}

/// The name of `#undef NAME`, `#ifdef NAME` or `#ifndef NAME` (`directive`), whose
/// operands are `line` and which starts at `start`.
///
/// Errors: no name, or a token after it (C99 §6.10.1, §6.10.3.5: one name only).
pub fn lone_name(line: &[Token], directive: &str, start: Pos) -> Result<String, PpError> {
    let name = macro_name(line, directive, start)?;
    let name = ident(name).unwrap_or_default().to_string();
    match line.get(1) {
        Some(extra) => Err(PpError::new(
            extra.pos,
            format!(
                "unexpected {} after #{directive} {name} (C99 §6.10: the directive takes one name)",
                extra.kind
            ),
        )),
        None => Ok(name),
    }
}

impl Preprocessor {
    /// `#define`: `line` is the directive's tokens after the word `define`, `start` the
    /// directive's position. A `(` touching the name makes the macro function-like.
    ///
    /// Errors: no name; a reserved name ([`reserved_name`]); a malformed parameter
    /// list or a parameter named twice; a redefinition that is not identical to the
    /// definition in effect (C99 §6.10.3: same parameters, same replacement tokens).
    pub fn define(&mut self, line: Vec<Token>, start: Pos) -> Result<(), PpError> {
        let name_tok = macro_name(&line, "define", start)?;
        let name = ident(name_tok).unwrap_or_default().to_string();
        if let Some(m) = reserved_name(&name, "define") {
            return Err(PpError::new(name_tok.pos, m));
        }
        let touching = |t: &Token| {
            t.pos.line == name_tok.pos.line && t.pos.col == name_tok.pos.col + name.len() as u32
        };
        let mut rest = line[1..].iter();
        let params = match line.get(1) {
            Some(
                t @ Token {
                    kind: TokenKind::Punct(Punct::LParen, _),
                    ..
                },
            ) if touching(t) => {
                rest.next();
                Some(parse_params(&mut rest, &name, t.pos)?)
            }
            _ => None,
        };
        let def = Macro {
            params,
            body: rest.map(|t| t.kind.clone()).collect(),
            predefined: false,
        };
        match self.macros.get(&name) {
            Some(old) if *old != def => Err(PpError::new(
                name_tok.pos,
                format!(
                    "macro '{name}' redefined differently (C99 §6.10.3: a redefinition must be identical; #undef it first)"
                ),
            )),
            _ => {
                self.macros.insert(name, def);
                Ok(())
            }
        }
    }

    /// `#undef NAME` (`line`: the tokens after the word `undef`). Undefining a name
    /// that is not a macro is allowed (C99 §6.10.3.5).
    ///
    /// Errors: no name, a reserved name, tokens after the name.
    pub fn undef(&mut self, line: Vec<Token>, start: Pos) -> Result<(), PpError> {
        let name = lone_name(&line, "undef", start)?;
        if let Some(m) = reserved_name(&name, "undef") {
            return Err(PpError::new(line[0].pos, m));
        }
        self.macros.remove(&name);
        Ok(())
    }

    /// Expand `input`, text in the order of the source. With `more` (source text
    /// follows), an invocation whose arguments are not complete yet is returned as
    /// the second part, to be expanded with the text after it; otherwise it is an error.
    ///
    /// Errors: a wrong number of arguments, an unterminated argument list, more than
    /// [`MAX_EXPANDED_TOKENS`] tokens produced in one compile, invocations nested more
    /// than 64 deep inside arguments.
    pub fn expand_text(
        &mut self,
        input: Vec<PpToken>,
        more: bool,
    ) -> Result<(Vec<Token>, Vec<PpToken>), PpError> {
        let (out, held) = self.expand_list(input, more, 0)?;
        Ok((out.into_iter().map(|t| t.token).collect(), held))
    }

    fn expand_list(
        &mut self,
        input: Vec<PpToken>,
        more: bool,
        depth: usize,
    ) -> Result<(Vec<PpToken>, Vec<PpToken>), PpError> {
        // `rest` is the text still to scan, reversed: expansions are pushed back onto
        // it and rescanned with what follows (C99 §6.10.3.4).
        let mut rest: Vec<PpToken> = input.into_iter().rev().collect();
        let mut out = Vec::with_capacity(rest.len());
        while let Some(t) = rest.pop() {
            let Some(name) = ident(&t.token).filter(|n| !t.hides(n)) else {
                out.push(t);
                continue;
            };
            let pos = t.token.pos;
            if let Some(kind) = self.dynamic(name, pos) {
                out.push(PpToken {
                    token: Token { kind, pos },
                    hide: t.hide,
                });
                continue;
            }
            let Some(m) = self.macros.get(name) else {
                out.push(t);
                continue;
            };
            let name = name.to_string();
            let Some(params) = m.params.clone() else {
                let body = m.body.clone();
                self.count(body.len(), pos)?;
                let hidden = t.hiding(std::slice::from_ref(&name));
                rest.extend(body.into_iter().rev().map(|kind| PpToken {
                    token: Token { kind, pos },
                    hide: hidden.hide.clone(),
                }));
                continue;
            };
            if !rest.last().is_some_and(|n| is_punct(n, Punct::LParen)) {
                // A function-like name without arguments is an ordinary name, unless
                // its `(` may still come in text not seen yet.
                if rest.is_empty() && more {
                    return Ok((out, vec![t]));
                }
                out.push(t);
                continue;
            }
            let Some(close) = matching_paren(&rest) else {
                if more {
                    let mut held = vec![t];
                    held.extend(rest.into_iter().rev());
                    return Ok((out, held));
                }
                return Err(PpError::new(
                    pos,
                    format!(
                        "unterminated argument list invoking macro '{name}' (a '(' without its ')')"
                    ),
                ));
            };
            let mut inner: Vec<PpToken> = rest.drain(close..).rev().collect();
            let rparen = inner.pop().expect("the matching ')'");
            let mut args = split_args(inner.split_off(1));
            if params.is_empty() && args.len() == 1 && args[0].is_empty() {
                args.clear();
            }
            if args.len() != params.len() {
                return Err(PpError::new(
                    pos,
                    format!(
                        "macro '{name}' takes {} argument{}, {} given (C99 §6.10.3)",
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                ));
            }
            if depth >= MAX_ARGUMENT_NESTING {
                return Err(PpError::new(
                    pos,
                    format!(
                        "macro invocations nest too deeply in arguments (more than {MAX_ARGUMENT_NESTING} levels)"
                    ),
                ));
            }
            let mut expanded = Vec::with_capacity(args.len());
            for arg in args {
                expanded.push(self.expand_list(arg, false, depth + 1)?.0);
            }
            // The result hides what both the name and the `)` hide, and the macro.
            let body = self.macros.get(&name).map(|m| m.body.clone());
            let mut subst = Vec::new();
            for kind in body.unwrap_or_default() {
                let param = match &kind {
                    TokenKind::Ident(n) => params.iter().position(|p| p == n),
                    _ => None,
                };
                match param {
                    Some(i) => subst.extend(expanded[i].iter().cloned()),
                    None => subst.push(PpToken::new(Token { kind, pos })),
                }
            }
            self.count(subst.len(), pos)?;
            // The result hides what both the name and the `)` hide, and the macro.
            let mut hide: Vec<String> = t
                .hide
                .iter()
                .flat_map(|h| h.iter())
                .filter(|n| rparen.hides(n))
                .cloned()
                .collect();
            hide.push(name);
            rest.extend(subst.into_iter().rev().map(|s| s.hiding(&hide)));
        }
        Ok((out, Vec::new()))
    }

    /// `__LINE__` and `__FILE__` at `pos`.
    fn dynamic(&self, name: &str, pos: Pos) -> Option<TokenKind> {
        let v = match name {
            "__LINE__" => {
                (i64::from(pos.line) + self.line_delta).clamp(0, i64::from(i32::MAX)) as i32
            }
            "__FILE__" => self.source_string,
            _ => return None,
        };
        Some(TokenKind::Int(v))
    }

    /// Account for `n` more tokens produced by expansion.
    fn count(&mut self, n: usize, pos: Pos) -> Result<(), PpError> {
        self.expanded += n;
        match self.expanded > MAX_EXPANDED_TOKENS {
            true => Err(PpError::new(
                pos,
                format!("macro expansion is too large (more than {MAX_EXPANDED_TOKENS} tokens)"),
            )),
            false => Ok(()),
        }
    }
}

/// The parameter list after `NAME(` of macro `name`: identifiers separated by commas,
/// then `)`.
fn parse_params<'t>(
    rest: &mut impl Iterator<Item = &'t Token>,
    name: &str,
    open: Pos,
) -> Result<Vec<String>, PpError> {
    let mut params: Vec<String> = Vec::new();
    let bad = |t: Option<&Token>, wanted: &str| {
        let (pos, found) = match t {
            Some(t) => (t.pos, t.kind.to_string()),
            None => (open, "end of line".to_string()),
        };
        PpError::new(
            pos,
            format!("expected {wanted} in the parameter list of macro '{name}', found {found}"),
        )
    };
    loop {
        let t = rest.next();
        match t.map(|t| &t.kind) {
            Some(TokenKind::Punct(Punct::RParen, _)) if params.is_empty() => return Ok(params),
            Some(TokenKind::Ident(p)) => {
                if params.contains(p) {
                    return Err(PpError::new(
                        t.map_or(open, |t| t.pos),
                        format!("parameter '{p}' appears twice in macro '{name}' (C99 §6.10.3)"),
                    ));
                }
                params.push(p.clone());
            }
            _ => return Err(bad(t, "a parameter name")),
        }
        let t = rest.next();
        match t.map(|t| &t.kind) {
            Some(TokenKind::Punct(Punct::Comma, _)) => {}
            Some(TokenKind::Punct(Punct::RParen, _)) => return Ok(params),
            _ => return Err(bad(t, "',' or ')'")),
        }
    }
}

/// The index in `rest` (reversed text whose last element is a `(`) of the `)` that
/// closes it.
fn matching_paren(rest: &[PpToken]) -> Option<usize> {
    let mut depth = 0usize;
    for i in (0..rest.len()).rev() {
        if is_punct(&rest[i], Punct::LParen) {
            depth += 1;
        } else if is_punct(&rest[i], Punct::RParen) {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The arguments between an invocation's parentheses, split at commas outside nested
/// parentheses (`F()` has one, empty: a macro without parameters takes it as none).
fn split_args(inner: Vec<PpToken>) -> Vec<Vec<PpToken>> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for t in inner {
        if depth == 0 && is_punct(&t, Punct::Comma) {
            args.push(Vec::new());
            continue;
        }
        if is_punct(&t, Punct::LParen) {
            depth += 1;
        } else if is_punct(&t, Punct::RParen) {
            depth = depth.saturating_sub(1);
        }
        args.last_mut().expect("at least one").push(t);
    }
    args
}
