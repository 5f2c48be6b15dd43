//! The geometry shader's layout declarations (GLSL 1.50 §4.3.8.1, §4.3.8.2):
//! `layout(triangles) in;` and `layout(triangle_strip, max_vertices = 4) out;`,
//! recorded in [`Program::geometry`](super::super::ast::Program::geometry); whether
//! the stage may have them and whether they are complete is the lowering's rule
//! (`lower/geometry.rs`).

use super::super::ast::GeometryDecls;
use super::super::token::{Keyword, Pos, Punct, TokenKind};
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

    /// Parse a declaration [`Self::at_geometry_layout`] found into `decls`;
    /// `items_before` is the number of global items before it. GLSL 1.50 §4.3.8:
    /// layout identifiers are not case sensitive (GLSL ES 3.00 §4.3.8 makes them
    /// case sensitive, but ES has no geometry stage). §4.3.8.1: an input layout takes
    /// one primitive type and every input layout declaration of a shader names the same
    /// one; §4.3.8.2: likewise for the output primitive type and `max_vertices`, which
    /// may be declared apart (`layout(max_vertices = 4) out; layout(points) out;`).
    pub(super) fn geometry_layout(
        &mut self,
        decls: &mut GeometryDecls,
        items_before: usize,
    ) -> PResult<()> {
        self.advance(); // layout
        self.advance(); // (
        let mut primitives: Vec<(String, Pos)> = Vec::new();
        let mut max_vertices = None;
        loop {
            let pos = self.pos();
            let word = match self.kind() {
                TokenKind::Ident(w) => w.to_ascii_lowercase(),
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
                max_vertices = Some((value, vpos, pos));
            } else {
                primitives.push((word, pos));
            }
            if !self.eat_punct(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "expected ')' after layout")?;
        let input = self.is_keyword(Keyword::In);
        self.advance(); // in / out
        self.advance(); // ;
        let io = if input { "in" } else { "out" };
        if let [(first, _), (second, pos), ..] = primitives.as_slice() {
            return self.fail_at(
                *pos,
                format!(
                    "layout({first}, {second}) {io}: a geometry shader {io}put layout takes \
                     one primitive type (GLSL 1.50 §4.3.8.{})",
                    if input { 1 } else { 2 }
                ),
            );
        }
        if input {
            if let Some((_, _, pos)) = max_vertices {
                return self.fail_at(
                    pos,
                    "max_vertices is a layout qualifier of the geometry shader's `out` \
                     (GLSL 1.50 §4.3.8.2)",
                );
            }
            let Some((word, pos)) = primitives.pop() else {
                return Ok(());
            };
            let Some(p) = InputPrimitive::from_name(&word) else {
                return self.fail_at(
                    pos,
                    format!(
                        "'{word}' is not a geometry shader input layout: points, lines, \
                         lines_adjacency, triangles or triangles_adjacency (GLSL 1.50 \
                         §4.3.8.1)"
                    ),
                );
            };
            self.agrees(
                decls.input,
                p,
                pos,
                |v| format!("layout({v}) in"),
                INPUT_RULE,
            )?;
            decls.input = Some((p, pos));
            decls.input_items_before.get_or_insert(items_before);
            return Ok(());
        }
        if let Some((word, pos)) = primitives.pop() {
            let Some(p) = OutputPrimitive::from_name(&word) else {
                return self.fail_at(
                    pos,
                    format!(
                        "'{word}' is not a geometry shader output layout: points, \
                         line_strip or triangle_strip with max_vertices = N (GLSL 1.50 \
                         §4.3.8.2)"
                    ),
                );
            };
            self.agrees(
                decls.output,
                p,
                pos,
                |v| format!("layout({v}) out"),
                OUTPUT_RULE,
            )?;
            decls.output = Some((p, pos));
        }
        if let Some((n, vpos, _)) = max_vertices {
            let rule = "all output layout declarations of a geometry shader declare the same \
                        value (GLSL 1.50 §4.3.8.2)";
            self.agrees(
                decls.max_vertices,
                n,
                vpos,
                |v| format!("max_vertices = {v}"),
                rule,
            )?;
            decls.max_vertices = Some((n, vpos));
        }
        Ok(())
    }

    /// The error when `value` (declared at `pos`) differs from the `earlier` declaration
    /// of the same layout: "`{this}` does not match the earlier `{that}` at L:C: `rule`",
    /// each side named by `name`.
    fn agrees<T: PartialEq + Copy + std::fmt::Display>(
        &mut self,
        earlier: Option<(T, Pos)>,
        value: T,
        pos: Pos,
        name: impl Fn(T) -> String,
        rule: &str,
    ) -> PResult<()> {
        match earlier {
            Some((e, at)) if e != value => self.fail_at(
                pos,
                format!(
                    "{} does not match the earlier {} at {}:{}: {rule}",
                    name(value),
                    name(e),
                    at.line,
                    at.col
                ),
            ),
            _ => Ok(()),
        }
    }
}

/// GLSL 1.50 §4.3.8.1's rule for repeated input layout declarations.
const INPUT_RULE: &str = "every input layout declaration of a geometry shader names the same \
                          primitive type (GLSL 1.50 §4.3.8.1)";

/// GLSL 1.50 §4.3.8.2's rule for repeated output primitive declarations.
const OUTPUT_RULE: &str = "all output layout declarations of a geometry shader declare the \
                           same primitive type (GLSL 1.50 §4.3.8.2)";
