//! Precision qualifiers (`highp`, `mediump`, `lowp`) and `precision` statements.
//!
//! They change no value here (every float is a 32-bit IEEE float), but GLSL restricts
//! where they may appear, and the parser checks those rules:
//!
//! - a precision qualifier qualifies a float, integer or sampler type, not `bool`,
//!   `bvecN` or a struct (GLSL 1.30 §4.5.2, GLSL ES 1.00 §4.5.2);
//! - a `precision` statement names `float`, `int` or a sampler type, not a vector, a
//!   matrix or `bool` (GLSL 1.30 §4.5.3, GLSL ES 1.00 §4.5.3); every sampler type word
//!   is accepted there, also those csir-render cannot declare a variable of;
//! - a default precision holds to the end of the block that states it (GLSL ES 1.00
//!   §4.5.3: "the same scoping rules as variable declarations").
//!
//! GLSL ES fragment shaders have no default precision for float (GLSL ES 1.00 §4.5.3,
//! GLSL ES 3.00 §4.5.4), so there every float-typed variable, parameter and return type
//! needs a qualifier or a `precision … float;` in scope. The parser does not know the
//! stage: it records each float declaration made with neither in
//! [`Program::float_without_precision`](super::super::ast::Program), and the compiler
//! reports them for ES fragment shaders ([`report_missing_float_precision`]).

use super::super::ast::{Program, UnqualifiedFloat};
use super::super::diagnostic::Diagnostics;
use super::super::dialect::Dialect;
use super::super::token::{Keyword, Pos, Reserved, TokenKind};
use super::super::types::{Base, Type, base};
use super::{PResult, Parser};
use crate::ir::Stage;

/// The default float precision in scope, one entry per open block (the first is the
/// global scope).
#[derive(Debug)]
pub(super) struct PrecisionScopes {
    float_default: Vec<bool>,
}

impl PrecisionScopes {
    /// The global scope, with no default float precision.
    pub(super) fn new() -> Self {
        PrecisionScopes {
            float_default: vec![false],
        }
    }

    fn top(&self) -> bool {
        self.float_default.last().copied().unwrap_or(false)
    }
}

impl Parser<'_, '_> {
    /// Open a block: it starts with its parent's default precision.
    pub(super) fn enter_precision_scope(&mut self) {
        let inherited = self.precision.top();
        self.precision.float_default.push(inherited);
    }

    /// Close the block opened by [`Parser::enter_precision_scope`].
    pub(super) fn leave_precision_scope(&mut self) {
        if self.precision.float_default.len() > 1 {
            self.precision.float_default.pop();
        }
        let depth = self.precision.float_default.len();
        self.hidden_structs.retain(|(_, d)| *d <= depth);
    }

    /// The number of blocks open (1 at global scope).
    pub(super) fn block_depth(&self) -> usize {
        self.precision.float_default.len()
    }

    /// A local variable or parameter named `name` is declared in the block at `depth`:
    /// a struct type of that name is hidden there (GLSL 1.10 §4.2.2).
    pub(super) fn hide_struct(&mut self, name: &str, depth: usize) {
        if self.struct_named(name).is_some() {
            self.hidden_structs.push((name.to_string(), depth));
        }
    }

    /// `precision QUALIFIER TYPE ;` at `precision`: the type must be `float`, `int` or
    /// a sampler type (GLSL 1.30 §4.5.3); `float` sets the default of the current
    /// block.
    pub(super) fn precision_statement(&mut self) -> PResult<()> {
        self.advance();
        if !self.is_keyword(Keyword::PrecisionQualifier) {
            return self.fail("expected a precision qualifier");
        }
        self.advance();
        let pos = self.pos();
        match self.kind() {
            TokenKind::Keyword(Keyword::Type(Type::Float)) => {
                if let Some(top) = self.precision.float_default.last_mut() {
                    *top = true;
                }
            }
            TokenKind::Keyword(Keyword::Type(Type::Int | Type::Sampler2D | Type::Sampler(_))) => {}
            TokenKind::Reserved(Reserved::Type, w) if w.contains("sampler") => {}
            TokenKind::Keyword(Keyword::Type(t)) => {
                let m = format!(
                    "a precision statement cannot name '{}': it sets the default precision \
                     of float, int or a sampler type only (GLSL 1.30 §4.5.3, GLSL ES 1.00 \
                     §4.5.3)",
                    t.keyword()
                );
                return self.fail_at(pos, m);
            }
            _ => {
                self.type_name()?;
                return self.fail_at(
                    pos,
                    "a precision statement sets the default precision of float, int or a \
                     sampler type only (GLSL 1.30 §4.5.3, GLSL ES 1.00 §4.5.3)",
                );
            }
        }
        self.advance();
        self.expect(super::super::token::Punct::Semi, "expected ';'")
    }

    /// Check the precision qualifier at `precision` (if any) against the declared type
    /// `ty` (GLSL 1.30 §4.5.2: not `bool`, `bvecN` or a struct), and record a float
    /// declaration `what name` made with no qualifier and no default in scope.
    pub(super) fn check_precision(
        &mut self,
        precision: Option<Pos>,
        ty: Type,
        ty_pos: Pos,
        what: &'static str,
        name: &str,
    ) -> PResult<()> {
        if let Some(at) = precision {
            let named = match (ty, base(ty)) {
                (Type::Struct(_), _) => Some("a struct"),
                (_, Base::Bool) => Some(ty.keyword()),
                _ => None,
            };
            if let Some(named) = named {
                let m = format!(
                    "a precision qualifier cannot qualify {}: precision qualifiers apply to \
                     float, integer and sampler types only (GLSL 1.30 §4.5.2, GLSL ES 1.00 \
                     §4.5.2)",
                    match ty {
                        Type::Struct(_) => named.to_string(),
                        _ => format!("'{named}'"),
                    }
                );
                return self.fail_at(at, m);
            }
        } else if base(ty) == Base::Float && !self.precision.top() {
            self.float_without_precision.push(UnqualifiedFloat {
                pos: ty_pos,
                ty,
                what,
                name: name.to_string(),
            });
        }
        Ok(())
    }
}

/// Report, for a GLSL ES fragment shader, each float declaration of `program` made
/// with no precision qualifier and no default float precision in scope (GLSL ES 1.00
/// §4.5.3, GLSL ES 3.00 §4.5.4: the fragment language has no default precision for
/// float). Other dialects and stages have a default, and nothing is reported.
pub(crate) fn report_missing_float_precision(
    program: &Program,
    dialect: Dialect,
    stage: Stage,
    diags: &mut Diagnostics,
) {
    if !dialect.is_es() || stage != Stage::Fragment {
        return;
    }
    let section = if dialect.version >= 300 {
        "GLSL ES 3.00 §4.5.4"
    } else {
        "GLSL ES 1.00 §4.5.3"
    };
    for u in &program.float_without_precision {
        diags.error(
            u.pos,
            format!(
                "{} '{}' of type '{}' has no precision: a GLSL ES fragment shader has no \
                 default precision for float ({section}); write 'precision mediump float;' \
                 before it or qualify it ('mediump {}')",
                u.what,
                u.name,
                u.ty.keyword(),
                u.ty.keyword()
            ),
        );
    }
}
