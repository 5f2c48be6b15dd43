//! Directives: `#version`, `#pragma` and the preprocessor's (docs/csir-original.md B §1.2
//! and the [`Preprocessor`] subset).

use super::super::dialect::Dialect;
use super::super::preprocessor::{PpError, PpToken, lone_name};
use super::super::token::{Pos, Token};
use super::Lexer;

/// The extensions whose shading-language part the front end has in every desktop
/// dialect (GL 3.3 made them core; `#extension NAME : require` of one compiles):
/// the bit-encoding built-ins (`floatBitsToInt` ..., GLSL 3.30 §8.3), `layout(location
/// = N)` (GLSL 3.30 §4.3.8), uniform blocks (GLSL 1.40 §4.3.5.1), the rectangle
/// samplers (GLSL 1.40 §4.1.7) and the array samplers with their GLSL 1.10 look-ups
/// (`texture2DArray`, `shadow1DArray`, ...; `GL_EXT_texture_array`, which enabling
/// turns on before GLSL 1.30).
pub(crate) const IMPLEMENTED_EXTENSIONS: [&str; 5] = [
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_texture_rectangle",
    "GL_EXT_texture_array",
];

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
        // The text before a directive is expanded with the macros in effect there.
        self.flush(true);
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
            "" => {
                // The null directive (C99 §6.10.7): `#` alone, comments allowed.
                let rest = self.line_tokens();
                if let Some(t) = rest.first()
                    && self.pp.active()
                {
                    self.diags.error(
                        t.pos,
                        format!("expected a directive name after '#', found {}", t.kind),
                    );
                }
            }
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
        if self.dialect.is_some()
            || !self.tokens.is_empty()
            || !self.pending.is_empty()
            || self.seen_directive
        {
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

    /// `#extension NAME : BEHAVIOR` (GLSL 3.30 §3.3). `require` of an extension
    /// outside [`IMPLEMENTED_EXTENSIONS`] is an error naming it; `enable` and `warn` are
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
        self.skip_blanks();
        if !behavior.is_empty() && !matches!(self.peek(0), '\n' | '\0') && !self.at_comment() {
            let pos = self.pos;
            let c = self.peek(0);
            self.diags.error(
                pos,
                format!(
                    "unexpected '{c}' after #extension {name} : {behavior}: the directive \
                     ends with its behavior (GLSL 3.30 §3.3)"
                ),
            );
            return;
        }
        match behavior.as_str() {
            "require" if name == "all" => self
                .diags
                .error(start, "#extension all : require is not allowed"),
            "require" if IMPLEMENTED_EXTENSIONS.contains(&name.as_str()) => {
                self.texture_array |= name == "GL_EXT_texture_array";
            }
            "require" => self.diags.error(
                start,
                format!("extension {name} is required but not supported by csir-render"),
            ),
            "enable" | "warn" if name == "GL_EXT_texture_array" => self.texture_array = true,
            "disable" if name == "GL_EXT_texture_array" => self.texture_array = false,
            "enable" | "warn" | "disable" => {}
            _ => self.diags.error(
                start,
                format!(
                    "unknown #extension behavior '{behavior}' (require, enable, warn or disable)"
                ),
            ),
        }
    }

    /// `#define`, `#undef`, the conditionals, `#line` and `#error` (see
    /// [`Preprocessor`](super::super::preprocessor::Preprocessor)). In a group that is
    /// compiled out only the conditionals count (C99 §6.10.1), and only for nesting.
    fn macro_directive(&mut self, word: &str, start: Pos) {
        let conditional = matches!(word, "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif");
        if !self.pp.active() && !conditional {
            self.rest_of_line();
            return;
        }
        let r = match word {
            "define" => {
                let line = self.line_tokens();
                self.pp.define(line, start)
            }
            "undef" => {
                let line = self.line_tokens();
                self.pp.undef(line, start)
            }
            "ifdef" | "ifndef" => {
                let line = self.line_tokens();
                let evaluate = self.pp.active();
                let name = match evaluate {
                    true => lone_name(&line, word, start),
                    false => Ok(String::new()),
                };
                let defined = name.as_deref().is_ok_and(|n| self.pp.is_defined(n));
                self.pp
                    .open(evaluate && defined == (word == "ifdef"), start);
                name.map(|_| ())
            }
            "if" | "elif" => self.if_directive(word, start),
            "else" | "endif" => {
                let line = self.line_tokens();
                let r = match word {
                    "else" => self.pp.else_branch(),
                    _ => self.pp.endif(),
                };
                if let Err(m) = r {
                    self.diags.error(start, m);
                }
                match line.first() {
                    Some(extra) => Err(PpError::new(
                        extra.pos,
                        format!(
                            "unexpected {} after #{word} (C99 §6.10: the directive takes no operand)",
                            extra.kind
                        ),
                    )),
                    None => Ok(()),
                }
            }
            "line" => {
                let line = self.line_tokens().into_iter().map(PpToken::new).collect();
                self.pp.line_directive(line, start)
            }
            "error" => {
                self.skip_blanks();
                let mut text = String::new();
                while !self.done() && self.peek(0) != '\n' {
                    text.push(self.bump());
                }
                Err(PpError::new(start, format!("#error {}", text.trim_end())))
            }
            _ => {
                self.rest_of_line();
                Err(PpError::new(
                    start,
                    format!(
                        "unknown preprocessor directive '#{word}' (GLSL 3.30 §3.3 lists #define, #undef, #if, #ifdef, #ifndef, #else, #elif, #endif, #error, #pragma, #extension, #version and #line)"
                    ),
                ))
            }
        };
        if let Err(e) = r {
            self.pp_error(e);
        }
        self.line_start = false;
    }

    /// `#if` / `#elif` (`word`): evaluated only where it decides something.
    fn if_directive(&mut self, word: &str, start: Pos) -> Result<(), PpError> {
        let line: Vec<PpToken> = self.line_tokens().into_iter().map(PpToken::new).collect();
        let end = self.pos;
        let evaluate = match word {
            "if" => self.pp.active(),
            _ => self.pp.elif_pending(),
        };
        let value = match evaluate {
            true => self.pp.eval(line, word, start, end),
            false => Ok(false),
        };
        let r = match word {
            "if" => {
                self.pp.open(*value.as_ref().unwrap_or(&false), start);
                Ok(())
            }
            _ => self.pp.elif(*value.as_ref().unwrap_or(&false)),
        };
        if let Err(m) = r {
            self.diags.error(start, m);
        }
        value.map(|_| ())
    }
}
