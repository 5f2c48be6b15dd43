//! Fragment colour outputs: which declarations are allowed, and at which location.
//!
//! The seed profile keeps the seed's single `out vec4` at location 0
//! (docs/csir-original.md B §1.5). The extended profile follows GLSL 3.30 §4.3.8.2 and
//! GL 3.3 §3.9.2: a fragment shader may declare several outputs, each a scalar or
//! vector of `float`, `int` or `uint`, at `layout(location = N)` with `N` below
//! [`MAX_DRAW_BUFFERS`]; output `N` writes draw buffer `N` (the scene's target `N`).
//! One output may omit its location (it takes location 0, as GL assigns it when it is
//! the only output); with several, each must give one: GL would assign the others
//! itself, and the scene could not say which target each one writes.
//! Location 0 may also have an output of `layout(index = 1)`: the second source
//! colour of dual-source blending (GL 3.3 §4.1.8), stored by STORE_COLOR with `aux`
//! [`SECOND_SOURCE_AUX`](crate::ir::SECOND_SOURCE_AUX).

use super::super::ast::Decl;
use super::super::token::Pos;
use super::super::types::Type;
use super::Lowerer;
use super::interface::Role;

/// Draw buffers a fragment shader can write: GL 3.3's minimum `GL_MAX_DRAW_BUFFERS`.
pub const MAX_DRAW_BUFFERS: u32 = 8;

/// Why a fragment output declaration is refused.
pub(super) enum ColorOutputError {
    /// The output's type (reported at the type).
    Type(String),
    /// Its location (reported at the number).
    Location(String, Pos),
    /// Another output conflicts with it (reported at the name).
    Other(String),
}

impl ColorOutputError {
    pub(super) fn message(&self) -> String {
        match self {
            ColorOutputError::Type(m) | ColorOutputError::Location(m, _) => m.clone(),
            ColorOutputError::Other(m) => m.clone(),
        }
    }
}

/// Whether `ty` may be a fragment output under the extended profile: a scalar or a
/// vector of `float`, `int` or `uint` (GLSL 3.30 §4.3.8.2: no `bool`, no matrix).
fn output_type_allowed(ty: Type) -> bool {
    matches!(ty, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4) || ty.is_integer()
}

impl Lowerer<'_> {
    /// The error of declaring `d` (a fragment `out`, with its `layout(location)` if
    /// any) next to the outputs declared before it, or `None` when it is allowed.
    pub(super) fn color_output_error(
        &self,
        d: &Decl,
        location: Option<(u32, Pos)>,
    ) -> Option<ColorOutputError> {
        let extended = self.limits.extended_ops();
        if !extended {
            if d.ty != Type::Vec4 {
                return Some(ColorOutputError::Type(
                    "fragment output must be vec4".into(),
                ));
            }
            if let Some((loc, pos)) = location
                && loc != 0
            {
                let m = "the fragment output must be at location 0".to_string();
                return Some(ColorOutputError::Location(m, pos));
            }
        } else {
            if !output_type_allowed(d.ty) {
                let m = "a fragment output is a float, int or uint scalar or vector \
                         (GLSL 3.30 §4.3.8.2)";
                return Some(ColorOutputError::Type(m.into()));
            }
            if let Some((loc, pos)) = location
                && loc >= MAX_DRAW_BUFFERS
            {
                let m = format!(
                    "fragment output location {loc} is past the last draw buffer \
                     ({}: GL_MAX_DRAW_BUFFERS is {MAX_DRAW_BUFFERS})",
                    MAX_DRAW_BUFFERS - 1
                );
                return Some(ColorOutputError::Location(m, pos));
            }
        }
        let earlier = self.globals.iter().filter(|g| g.role == Role::Color);
        for g in earlier {
            let other = self.scopes.var(g.var).name.clone();
            if other.starts_with("gl_") {
                return Some(ColorOutputError::Other(format!(
                    "'{}' cannot be declared in a shader that writes {other}: a fragment \
                     shader writes either gl_FragColor/gl_FragData or its own output",
                    d.name
                )));
            }
            if !extended {
                return Some(ColorOutputError::Other(
                    "only one fragment output is supported".into(),
                ));
            }
            let other_location = g.decl.and_then(|o| o.quals.location).map(|(l, _)| l);
            let index_of = |d: &Decl| d.quals.index.map_or(0, |(x, _)| x);
            let same_index = g.decl.map_or(0, index_of) == index_of(d);
            match (location, other_location) {
                (Some((a, pos)), Some(b)) if a == b && same_index => {
                    return Some(ColorOutputError::Location(
                        format!(
                            "fragment outputs '{other}' and '{}' both at location {a}",
                            d.name
                        ),
                        pos,
                    ));
                }
                (Some(_), Some(_)) => {}
                _ => {
                    return Some(ColorOutputError::Other(format!(
                        "'{}' and '{other}': a fragment shader with several outputs gives \
                         each a layout(location = N), the draw buffer it writes (GLSL 3.30 \
                         §4.3.8.2)",
                        d.name
                    )));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Op, SymbolKind};
    use crate::{Limits, Stage, compile};

    fn extended(src: &str) -> Result<crate::ir::Shader, String> {
        compile(src, "t", Stage::Fragment, &Limits::EXTENDED).map_err(|e| e.to_string())
    }

    #[test]
    fn several_outputs_store_at_their_locations() {
        let s = extended(
            "#version 330\nlayout(location = 2) out uvec4 id;\nlayout(location = 0) out vec4 c;\n\
             layout(location = 1) out float r;\n\
             void main() { c = vec4(0.5); id = uvec4(7u); r = 0.25; }\n",
        )
        .unwrap();
        let stores: Vec<i16> =
            s.ir.iter()
                .filter(|i| i.opcode() == Some(Op::StoreColor))
                .map(|i| i.aux)
                .collect();
        let mut sorted = stores.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2], "one store per output: {stores:?}");
        let outputs: Vec<(u16, &str)> = s
            .interface
            .color_outputs()
            .map(|(l, sym)| (l, sym.name.as_str()))
            .collect();
        assert_eq!(outputs, vec![(2, "id"), (0, "c"), (1, "r")]);
        assert_eq!(
            s.interface.color_output_at(2).map(|o| o.kind),
            Some(SymbolKind::color_out(2))
        );
    }

    #[test]
    fn one_output_without_a_location_is_at_zero() {
        let s = extended("#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n").unwrap();
        assert_eq!(
            s.interface.color_output().map(|o| o.name.as_str()),
            Some("c")
        );
    }

    #[test]
    fn output_errors_name_the_rule() {
        let both = "#version 330\nlayout(location = 1) out vec4 a;\nlayout(location = 1) out vec4 b;\n\
                    void main() { a = vec4(1.0); b = a; }\n";
        let e = extended(both).unwrap_err();
        assert!(e.contains("'a' and 'b' both at location 1"), "{e}");
        let unplaced =
            "#version 330\nout vec4 a;\nout vec4 b;\nvoid main() { a = vec4(1.0); b = a; }\n";
        let e = extended(unplaced).unwrap_err();
        assert!(e.contains("gives each a layout(location = N)"), "{e}");
        let far =
            "#version 330\nlayout(location = 8) out vec4 a;\nvoid main() { a = vec4(1.0); }\n";
        let e = extended(far).unwrap_err();
        assert!(e.contains("location 8 is past the last draw buffer"), "{e}");
        let boolean = "#version 330\nout bool a;\nvoid main() { a = true; }\n";
        let e = extended(boolean).unwrap_err();
        assert!(e.contains("float, int or uint scalar or vector"), "{e}");
        // The seed profile keeps its single vec4 output.
        let e = compile(unplaced, "t", Stage::Fragment, &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("only one fragment output"), "{e}");
    }

    /// `layout(location = 0, index = 1)`: the second source colour, stored with
    /// `aux` 8, its interface entry index 1; index 1 elsewhere, or twice, is refused
    /// naming the rule.
    #[test]
    fn second_source_colour_at_index_one() {
        let s = extended(
            "#version 330\nlayout(location = 0, index = 1) out vec4 f;\n\
             layout(location = 0, index = 0) out vec4 c;\n\
             void main() { c = vec4(0.5); f = vec4(0.25); }\n",
        )
        .unwrap();
        let mut stores: Vec<i16> =
            s.ir.iter()
                .filter(|i| i.opcode() == Some(Op::StoreColor))
                .map(|i| i.aux)
                .collect();
        stores.sort();
        assert_eq!(stores, vec![0, crate::ir::SECOND_SOURCE_AUX]);
        assert_eq!(
            s.interface
                .second_color_output()
                .map(|o| (o.name.as_str(), o.kind)),
            Some((
                "f",
                SymbolKind::ColorOut {
                    location: 0,
                    index: 1
                }
            ))
        );
        let outputs: Vec<(u16, &str)> = s
            .interface
            .color_outputs()
            .map(|(l, sym)| (l, sym.name.as_str()))
            .collect();
        assert_eq!(outputs, vec![(0, "c")], "index 1 is not a draw buffer's");
        // CSI v2 keeps it.
        let blob = crate::csi::save_csi(&s).unwrap();
        let back = crate::csi::load_csi(&blob, &Limits::EXTENDED).unwrap();
        assert_eq!(back.interface, s.interface);

        let at_one = "#version 330\nlayout(location = 1) out vec4 c;\n\
                      layout(location = 1, index = 1) out vec4 f;\n\
                      void main() { c = vec4(1.0); f = c; }\n";
        let e = extended(at_one).unwrap_err();
        assert!(e.contains("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1"), "{e}");
        let unplaced = "#version 330\nlayout(index = 1) out vec4 f;\n\
                        void main() { f = vec4(1.0); }\n";
        let e = extended(unplaced).unwrap_err();
        assert!(e.contains("needs layout(location = 0)"), "{e}");
        let twice = "#version 330\nlayout(location = 0, index = 1) out vec4 a;\n\
                     layout(location = 0, index = 1) out vec4 b;\n\
                     void main() { a = vec4(1.0); b = a; }\n";
        let e = extended(twice).unwrap_err();
        assert!(e.contains("'a' and 'b' both at location 0"), "{e}");
        let two = "#version 330\nlayout(location = 0, index = 2) out vec4 a;\n\
                   void main() { a = vec4(1.0); }\n";
        assert!(extended(two).unwrap_err().contains("index is 0 or 1"));
    }
}
