//! The geometry shader's layout declarations (GLSL 1.50 §4.3.8.1, §4.3.8.2):
//! `layout(triangles) in;` and `layout(triangle_strip, max_vertices = 4) out;`,
//! recorded in [`Program::geometry`](super::super::ast::Program::geometry); whether
//! the stage may have them and whether they are complete is the lowering's rule
//! (`lower/geometry.rs`).

use super::super::ast::GeometryDecls;
use super::super::token::{Keyword, Punct, TokenKind};
use super::{PResult, Parser};
use crate::ir::{InputPrimitive, OutputPrimitive};

impl Parser<'_, '_> {
    /// Whether the tokens ahead are `layout ( ... ) in ;` or `layout ( ... ) out ;`:
    /// a layout without a declaration, which only a geometry shader's primitive
    /// types and `max_vertices` are in GLSL up to 3.30.
    pub(super) fn at_geometry_layout(&self) -> bool {
        if !self.is_keyword(Keyword::Layout)
            || !matches!(self.peek_kind(1), TokenKind::Punct(Punct::LParen, _))
        {
            return false;
        }
        let mut k = 2;
        loop {
            match self.peek_kind(k) {
                TokenKind::Punct(Punct::RParen, _) => break,
                TokenKind::Eof => return false,
                _ => {}
            }
            k += 1;
            if k > 64 {
                return false;
            }
        }
        matches!(
            self.peek_kind(k + 1),
            TokenKind::Keyword(Keyword::In | Keyword::Out)
        ) && matches!(self.peek_kind(k + 2), TokenKind::Punct(Punct::Semi, _))
    }

    /// Parse a declaration [`Self::at_geometry_layout`] found into `decls`.
    pub(super) fn geometry_layout(&mut self, decls: &mut GeometryDecls) -> PResult<()> {
        self.advance(); // layout
        self.advance(); // (
        let mut words = Vec::new();
        loop {
            let pos = self.pos();
            let word = match self.kind() {
                TokenKind::Ident(w) => w.clone(),
                _ => return self.fail("expected a layout qualifier"),
            };
            self.advance();
            if word == "max_vertices" {
                self.expect(Punct::Assign, "expected '=' after max_vertices")?;
                let vpos = self.pos();
                let value = match self.kind() {
                    TokenKind::Int(v) if *v >= 0 => *v as u32,
                    _ => return self.fail("max_vertices takes a non-negative integer"),
                };
                self.advance();
                words.push((None, Some(value), vpos));
            } else {
                words.push((Some(word), None, pos));
            }
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "expected ')' after layout")?;
        let input = self.is_keyword(Keyword::In);
        self.advance(); // in / out
        self.advance(); // ;
        for (word, max, pos) in words {
            if let Some(max) = max {
                if input {
                    return self.fail_at(
                        pos,
                        "max_vertices is a layout qualifier of the geometry shader's `out` \
                         (GLSL 1.50 §4.3.8.2)",
                    );
                }
                decls.max_vertices = Some((max, pos));
                continue;
            }
            let word = word.unwrap_or_default();
            if input {
                match InputPrimitive::from_name(&word) {
                    Some(p) => decls.input = Some((p, pos)),
                    None => {
                        return self.fail_at(
                            pos,
                            format!(
                                "'{word}' is not a geometry shader input layout: points, \
                                 lines, lines_adjacency, triangles or triangles_adjacency \
                                 (GLSL 1.50 §4.3.8.1)"
                            ),
                        );
                    }
                }
            } else {
                match OutputPrimitive::from_name(&word) {
                    Some(p) => decls.output = Some((p, pos)),
                    None => {
                        return self.fail_at(
                            pos,
                            format!(
                                "'{word}' is not a geometry shader output layout: points, \
                                 line_strip or triangle_strip with max_vertices = N (GLSL \
                                 1.50 §4.3.8.2)"
                            ),
                        );
                    }
                }
            }
        }
        Ok(())
    }
}
