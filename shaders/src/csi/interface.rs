//! The interface rules CSI v2 enforces on save and on load.
//!
//! The IR verifier guards the instruction stream; these rules guard the metadata
//! beside it, which the linker and uniform setter index with (`slot`, `array_len`,
//! the high-water marks). A compiled shader always satisfies them; a loaded one must,
//! so that no consumer can be pushed out of range or into an overflow by a crafted
//! blob. The rules are listed on [`InterfaceRule`].

use super::error::InterfaceRule;
use crate::ir::{Interface, Limits, Shader, Stage, SymbolKind, Type};
use std::collections::HashSet;

/// The most symbols a shader with `limits` can declare: every symbol takes at least
/// one attribute, varying, uniform or sampler slot, plus the colour output.
pub(super) fn max_symbols(limits: &Limits) -> usize {
    limits.attributes + limits.varyings + limits.uniform_slots + limits.samplers + 1
}

/// Check `shader`'s interface. On failure returns the index of the offending symbol
/// (`None` for the high-water marks and counts) and the rule broken.
pub(super) fn check(shader: &Shader) -> Result<(), (Option<usize>, InterfaceRule)> {
    let iface = &shader.interface;
    let lim = &shader.limits;
    check_marks(iface, lim).map_err(|r| (None, r))?;
    let max = max_symbols(lim);
    if iface.symbols.len() > max {
        return Err((
            None,
            InterfaceRule::TooManySymbols {
                count: iface.symbols.len(),
                max,
            },
        ));
    }
    if !iface.named && !iface.symbols.is_empty() {
        return Err((None, InterfaceRule::SymbolsWithoutNames));
    }
    let mut names = HashSet::with_capacity(iface.symbols.len());
    let mut colour_outputs = 0u16;
    for (index, sym) in iface.symbols.iter().enumerate() {
        let fail = |rule| Err((Some(index), rule));
        if !names.insert(sym.name.as_str()) {
            return fail(InterfaceRule::DuplicateName(sym.name.clone()));
        }
        if sym.array_len == Some(0) {
            return fail(InterfaceRule::EmptyArray(sym.name.clone()));
        }
        let len = u32::from(sym.array_len.unwrap_or(1));
        let (kind, stage, first, slots, mark, hi) = match sym.kind {
            SymbolKind::Uniform { slot } => (
                "uniform",
                None,
                slot,
                u32::from(sym.ty.columns()) * len,
                "uni_hi",
                iface.uni_hi,
            ),
            SymbolKind::Sampler { slot, .. } => {
                ("sampler", None, slot, len, "samp_hi", iface.samp_hi)
            }
            SymbolKind::Attribute { location } => (
                "attribute",
                Some(Stage::Vertex),
                location,
                len,
                "attr_hi",
                iface.attr_hi,
            ),
            SymbolKind::VaryingIn { slot } => (
                "varying input",
                Some(Stage::Fragment),
                slot,
                len,
                "var_hi",
                iface.var_hi,
            ),
            SymbolKind::VaryingOut { slot } => (
                "varying output",
                Some(Stage::Vertex),
                slot,
                len,
                "var_hi",
                iface.var_hi,
            ),
            SymbolKind::ColorOut { location, index } => {
                // One output per draw buffer and index (the v2 decoder keeps
                // locations below 8 and indices below 2).
                let bit = 1u16 << (SymbolKind::color_store_aux(location, index) & 15);
                if colour_outputs & bit != 0 {
                    return fail(InterfaceRule::SecondColorOutput(sym.name.clone()));
                }
                colour_outputs |= bit;
                ("colour output", Some(Stage::Fragment), 0, 0, "", 0)
            }
        };
        let varying = matches!(
            sym.kind,
            SymbolKind::VaryingIn { .. } | SymbolKind::VaryingOut { .. }
        );
        if sym.interpolation.is_some() && !varying {
            return fail(InterfaceRule::Interpolation {
                kind,
                name: sym.name.clone(),
            });
        }
        if stage.is_some_and(|s| s != shader.stage) {
            return fail(InterfaceRule::Stage {
                kind,
                name: sym.name.clone(),
                stage: shader.stage,
            });
        }
        let type_ok = match sym.kind {
            SymbolKind::Sampler { .. } => sym.ty == Type::Sampler2D,
            _ => is_value_type(sym.ty),
        };
        if !type_ok {
            return fail(InterfaceRule::Type {
                kind,
                name: sym.name.clone(),
                ty: sym.ty,
            });
        }
        let end = u32::from(first) + slots;
        if slots > 0 && i64::from(end) > i64::from(hi) + 1 {
            return fail(InterfaceRule::Slot {
                kind,
                name: sym.name.clone(),
                first: u32::from(first),
                end,
                mark,
                hi,
            });
        }
    }
    check_initializers(iface).map_err(|r| (None, r))
}

/// Each uniform initializer names a uniform symbol, after the previous one's, and
/// holds exactly the floats [`Interface::set_uniform`] takes for it.
fn check_initializers(iface: &crate::ir::Interface) -> Result<(), InterfaceRule> {
    let mut previous = None;
    let mut scratch = vec![[0.0; 4]; (iface.uni_hi + 1).max(0) as usize];
    for (name, values) in &iface.uniform_initializers {
        let fail = |reason: &str| InterfaceRule::Initializer {
            name: name.clone(),
            reason: reason.to_string(),
        };
        let index = iface
            .symbols
            .iter()
            .position(|s| &s.name == name && matches!(s.kind, SymbolKind::Uniform { .. }))
            .ok_or_else(|| fail("no uniform of that name"))?;
        if previous.is_some_and(|p| index <= p) {
            return Err(fail("out of symbol order"));
        }
        previous = Some(index);
        iface
            .set_uniform_lanes(
                &mut scratch,
                name,
                values,
                crate::layout::IntLanes::AsStored,
            )
            .map_err(|e| fail(&e.to_string()))?;
    }
    Ok(())
}

fn check_marks(iface: &Interface, lim: &Limits) -> Result<(), InterfaceRule> {
    for (mark, value, limit) in [
        ("attr_hi", iface.attr_hi, lim.attributes),
        ("var_hi", iface.var_hi, lim.varyings),
        ("samp_hi", iface.samp_hi, lim.samplers),
        ("uni_hi", iface.uni_hi, lim.uniform_slots),
    ] {
        if value < -1 || i64::from(value) >= limit as i64 {
            return Err(InterfaceRule::Mark { mark, value, limit });
        }
    }
    Ok(())
}

/// A type a variable can hold: bool, int, float, vectors and matrices.
fn is_value_type(ty: Type) -> bool {
    !matches!(ty, Type::None | Type::Void | Type::Sampler2D)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csi::tests::sym;
    use crate::ir::InterfaceSymbol;

    fn shader(stage: Stage, symbols: Vec<InterfaceSymbol>) -> Shader {
        Shader {
            name: "t".into(),
            stage,
            limits: Limits::SEED,
            ir: vec![],
            imm: vec![],
            ntmp: 0,
            interface: Interface {
                symbols,
                attr_hi: 3,
                var_hi: 2,
                samp_hi: 1,
                uni_hi: 7,
                ..Interface::default()
            },
        }
    }

    fn rule(stage: Stage, symbols: Vec<InterfaceSymbol>) -> Option<(Option<usize>, InterfaceRule)> {
        check(&shader(stage, symbols)).err()
    }

    #[test]
    fn accepts_a_consistent_interface() {
        let s = vec![
            sym("uMVP", Type::Mat4, None, SymbolKind::Uniform { slot: 0 }),
            sym("uL", Type::Vec3, Some(4), SymbolKind::Uniform { slot: 4 }),
            sym("uTex", Type::Sampler2D, None, SymbolKind::sampler_2d(1)),
            sym(
                "aPos",
                Type::Vec3,
                None,
                SymbolKind::Attribute { location: 3 },
            ),
            sym("vUv", Type::Vec2, None, SymbolKind::VaryingOut { slot: 2 }),
        ];
        assert_eq!(rule(Stage::Vertex, s), None);
    }

    #[test]
    fn rejects_spans_past_the_marks() {
        // mat4 at slot 5 needs 5..9, uni_hi is 7.
        let s = vec![sym("m", Type::Mat4, None, SymbolKind::Uniform { slot: 5 })];
        assert!(matches!(
            rule(Stage::Vertex, s),
            Some((Some(0), InterfaceRule::Slot { end: 9, hi: 7, .. }))
        ));
        let s = vec![sym(
            "a",
            Type::Vec4,
            None,
            SymbolKind::Attribute { location: 4 },
        )];
        assert!(matches!(
            rule(Stage::Vertex, s),
            Some((Some(0), InterfaceRule::Slot { .. }))
        ));
        // A huge array cannot overflow the slot arithmetic.
        let s = vec![sym(
            "u",
            Type::Mat4,
            Some(u16::MAX),
            SymbolKind::Uniform { slot: u16::MAX },
        )];
        assert!(matches!(
            rule(Stage::Vertex, s),
            Some((Some(0), InterfaceRule::Slot { .. }))
        ));
    }

    #[test]
    fn rejects_wrong_stage_type_duplicates_and_empty_arrays() {
        let a = sym("a", Type::Vec4, None, SymbolKind::Attribute { location: 0 });
        assert!(matches!(
            rule(Stage::Fragment, vec![a.clone()]),
            Some((Some(0), InterfaceRule::Stage { .. }))
        ));
        assert_eq!(
            rule(Stage::Vertex, vec![a.clone(), a.clone()]),
            Some((Some(1), InterfaceRule::DuplicateName("a".into())))
        );
        let t = sym("t", Type::Vec4, None, SymbolKind::sampler_2d(0));
        assert!(matches!(
            rule(Stage::Vertex, vec![t]),
            Some((Some(0), InterfaceRule::Type { .. }))
        ));
        let e = sym("e", Type::Float, Some(0), SymbolKind::Uniform { slot: 0 });
        assert_eq!(
            rule(Stage::Vertex, vec![e]),
            Some((Some(0), InterfaceRule::EmptyArray("e".into())))
        );
        let c1 = sym("c1", Type::Vec4, None, SymbolKind::color_out(0));
        let c2 = sym("c2", Type::Vec4, None, SymbolKind::color_out(0));
        let c3 = sym("c3", Type::Vec4, None, SymbolKind::color_out(3));
        assert_eq!(
            rule(Stage::Fragment, vec![c3.clone(), c1.clone()]),
            None,
            "two locations"
        );
        assert_eq!(
            rule(Stage::Fragment, vec![c1, c2]),
            Some((Some(1), InterfaceRule::SecondColorOutput("c2".into())))
        );
    }

    #[test]
    fn rejects_marks_out_of_range_and_unnamed_symbols() {
        let mut s = shader(Stage::Vertex, vec![]);
        s.interface.attr_hi = 8;
        assert!(matches!(
            check(&s),
            Err((
                None,
                InterfaceRule::Mark {
                    mark: "attr_hi",
                    ..
                }
            ))
        ));
        s.interface.attr_hi = -2;
        assert!(check(&s).is_err());
        let mut s = shader(
            Stage::Vertex,
            vec![sym(
                "a",
                Type::Vec4,
                None,
                SymbolKind::Attribute { location: 0 },
            )],
        );
        s.interface.named = false;
        assert_eq!(check(&s), Err((None, InterfaceRule::SymbolsWithoutNames)));
    }
}
