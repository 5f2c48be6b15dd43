//! Directives: `#version`, `#pragma` and the preprocessor's (docs/csir-original.md B §1.2
//! and the [`Preprocessor`] subset).

use super::super::dialect::Dialect;
use super::super::token::{Pos, Token, TokenKind};
use super::Lexer;

impl Lexer<'_> {
    /// The tokens of the rest of the current line (a directive's operands).
    fn line_tokens(&mut self) -> Vec<Token> {
        self.capture = Some(Vec::new());
        while !self.done() && self.peek(0) != '\n' {
            if !self.step() {
                break;
            }
        }
        self.capture.take().unwrap_or_default()
    }

    /// An identifier after a directive word (`#define NAME`).
    fn directive_name(&mut self) -> String {
        self.skip_blanks();
        let mut name = String::new();
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == '_' {
            name.push(self.bump());
        }
        name
    }

    pub(super) fn directive(&mut self) {
        let start = self.pos;
        self.bump();
        self.skip_blanks();
        let mut word = String::new();
        while self.peek(0).is_ascii_alphabetic() {
            word.push(self.bump());
        }
        if word != "version" {
            self.seen_directive = true;
        }
        match word.as_str() {
            "" if matches!(self.peek(0), '\n' | '\0') => {}
            "version" | "pragma" | "extension" if !self.pp.active() => {}
            "version" => self.version_directive(start),
            "extension" => self.extension_directive(start),
            "pragma" => {}
            _ => {
                self.macro_directive(&word, start);
                return;
            }
        }
        self.rest_of_line();
        self.line_start = false;
    }

    /// `#version NUMBER [PROFILE]`: must come once, before anything but comments and
    /// blanks (GLSL 3.30 §3.3); selects the [`Dialect`] and its predefined macros.
    fn version_directive(&mut self, start: Pos) {
        if self.dialect.is_some() || !self.tokens.is_empty() || self.seen_directive {
            self.diags.error(
                start,
                "#version must come first, once, before anything but comments and blanks",
            );
            return;
        }
        self.skip_blanks();
        let num_pos = self.pos;
        let mut digits = String::new();
        while self.peek(0).is_ascii_digit() {
            digits.push(self.bump());
        }
        if digits.is_empty() {
            self.diags.error(num_pos, "expected a version number");
            return;
        }
        self.skip_blanks();
        let profile = self.directive_name();
        self.skip_blanks();
        if !matches!(self.peek(0), '\n' | '\0') && !self.at_comment() {
            let pos = self.pos;
            self.diags
                .error(pos, "unexpected text after #version NUMBER [PROFILE]");
            return;
        }
        let version: u32 = digits.parse().unwrap_or(u32::MAX);
        let profile = (!profile.is_empty()).then_some(profile.as_str());
        match Dialect::from_directive(version, profile) {
            Ok(d) => {
                self.pp.set_dialect(d);
                self.dialect = Some(d);
            }
            Err(m) => self.diags.error(num_pos, m),
        }
    }

    /// `#extension NAME : BEHAVIOR` (GLSL 3.30 §3.3). csir-render supports no
    /// extension, so `require` of one is an error naming it; `enable` and `warn` are
    /// accepted (the specification asks only for a warning), `disable` is a no-op.
    fn extension_directive(&mut self, start: Pos) {
        let name = self.directive_name();
        self.skip_blanks();
        if name.is_empty() || self.peek(0) != ':' {
            self.diags
                .error(start, "expected #extension NAME : BEHAVIOR");
            return;
        }
        self.bump();
        let behavior = self.directive_name();
        match behavior.as_str() {
            "require" if name == "all" => self
                .diags
                .error(start, "#extension all : require is not allowed"),
            "require" => self.diags.error(
                start,
                format!("extension {name} is required but not supported by csir-render"),
            ),
            "enable" | "warn" | "disable" => {}
            _ => self.diags.error(
                start,
                format!(
                    "unknown #extension behavior '{behavior}' (require, enable, warn or disable)"
                ),
            ),
        }
    }

    /// `#define`, `#undef`, the conditionals and `#error` (see [`Preprocessor`]).
    fn macro_directive(&mut self, word: &str, start: Pos) {
        let conditional = matches!(word, "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif");
        if !self.pp.active() && !conditional {
            self.rest_of_line();
            return;
        }
        let fail = |lx: &mut Self, message: &str| {
            lx.diags.error(start, message);
            lx.rest_of_line();
        };
        match word {
            "define" => {
                let name = self.directive_name();
                if name.is_empty() {
                    return fail(self, "expected a macro name");
                }
                if self.peek(0) == '(' {
                    return fail(self, "function-like macros are not supported");
                }
                let body = self.line_tokens().into_iter().map(|t| t.kind).collect();
                self.pp.define(name, body);
            }
            "undef" => {
                let name = self.directive_name();
                self.pp.undef(&name);
                self.rest_of_line();
            }
            "ifdef" | "ifndef" => {
                let name = self.directive_name();
                if name.is_empty() {
                    return fail(self, "expected a macro name");
                }
                let defined = self.pp.is_defined(&name);
                self.pp.open(defined == (word == "ifdef"), start);
                self.rest_of_line();
            }
            "if" | "elif" => {
                let line: Vec<TokenKind> = self.line_tokens().into_iter().map(|t| t.kind).collect();
                let evaluate = if word == "if" {
                    self.pp.active()
                } else {
                    self.pp.elif_pending()
                };
                let value = match evaluate {
                    true => self.pp.eval(&line),
                    false => Ok(false),
                };
                let value = value.unwrap_or_else(|m| {
                    self.diags.error(start, m);
                    false
                });
                let r = match word {
                    "if" => {
                        self.pp.open(value, start);
                        Ok(())
                    }
                    _ => self.pp.elif(value),
                };
                if let Err(m) = r {
                    self.diags.error(start, m);
                }
            }
            "else" | "endif" => {
                let r = match word {
                    "else" => self.pp.else_branch(),
                    _ => self.pp.endif(),
                };
                if let Err(m) = r {
                    self.diags.error(start, m);
                }
                self.rest_of_line();
            }
            "error" => {
                self.skip_blanks();
                let mut text = String::new();
                while !self.done() && self.peek(0) != '\n' {
                    text.push(self.bump());
                }
                self.diags
                    .error(start, format!("#error {}", text.trim_end()));
            }
            _ => fail(self, "unsupported preprocessor directive"),
        }
        self.line_start = false;
    }
}
