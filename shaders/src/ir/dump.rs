//! The human-readable IR dump (docs/csir.md "IR dump"; docs/csir-original.md B §3.1). A
//! debugging surface, not an interchange format.

use super::{Ir, Op, Shader, SymbolKind};
use std::fmt::Write;

/// Render `shader` as text:
///
/// ```text
/// shader NAME
/// stage vertex|fragment
/// uniform TYPE NAME slot N      (samplers too; arrays as NAME[N])
/// input TYPE NAME
/// output TYPE NAME
/// block 0:
///   %D = mnemonic %A %B aux X
/// ```
///
/// One line per non-NOP instruction: `%D = ` when dst ≥ 0, ` %A` / ` %B` when ≥ 0,
/// ` aux X` when aux ≠ 0 and always for `load_attr`, `load_uni` and `sample2d`.
/// `ty`, `ncomp` and `aux2` are not printed (as in the original).
pub fn dump(shader: &Shader) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "shader {}", shader.name);
    let _ = writeln!(out, "stage {}", shader.stage);
    if let Some(g) = &shader.interface.geometry {
        let _ = writeln!(
            out,
            "layout {} in, {} out, max_vertices {}",
            g.input, g.output, g.max_vertices
        );
    }
    for sym in &shader.interface.symbols {
        let name = match sym.array_len {
            Some(n) => format!("{}[{n}]", sym.name),
            None => sym.name.clone(),
        };
        let _ = match sym.kind {
            SymbolKind::Uniform { slot } | SymbolKind::Sampler { slot, .. } => {
                writeln!(out, "uniform {} {name} slot {slot}", sym.ty)
            }
            SymbolKind::Attribute { .. } | SymbolKind::VaryingIn { .. } => {
                writeln!(out, "input {} {name}", sym.ty)
            }
            SymbolKind::VaryingOut { .. } | SymbolKind::ColorOut { .. } => {
                writeln!(out, "output {} {name}", sym.ty)
            }
        };
    }
    out.push_str("block 0:\n");
    for ir in &shader.ir {
        if ir.op != Op::Nop.code() {
            let _ = writeln!(out, "  {}", instruction(ir));
        }
    }
    out
}

/// One instruction as the dump prints it, without indentation: `%D = ` when
/// dst ≥ 0, the mnemonic, ` %A` / ` %B` when ≥ 0, ` aux X` when aux ≠ 0 and always
/// for `load_attr`, `load_uni` and `sample2d` (`invalid opcode N` for a bad byte).
/// Also used by the TGSI parity dump, which prints each record beside its TGSI.
pub fn instruction(ir: &Ir) -> String {
    let Some(info) = ir.info() else {
        return format!("invalid opcode {}", ir.op);
    };
    let mut out = String::new();
    if ir.dst >= 0 {
        let _ = write!(out, "%{} = ", ir.dst);
    }
    out.push_str(info.mnemonic);
    if ir.a >= 0 {
        let _ = write!(out, " %{}", ir.a);
    }
    if ir.b >= 0 {
        let _ = write!(out, " %{}", ir.b);
    }
    if ir.aux != 0 || info.dump_aux_always {
        let _ = write!(out, " aux {}", ir.aux);
    }
    let offset_form = matches!(
        ir.opcode(),
        Some(Op::SampleLod | Op::SampleBias | Op::SampleGrad)
    ) && ir.aux2 != 0;
    if ir.opcode() == Some(Op::LoadVtx) {
        let _ = write!(out, " vertex {}", ir.aux2);
    }
    if ir.opcode() == Some(Op::SampleOffset) || offset_form {
        let [dx, dy] = ir.texel_offset();
        let _ = write!(out, " offset ({dx}, {dy})");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Interface, InterfaceSymbol, Limits, Stage, Type};
    use super::*;

    #[test]
    fn dump_matches_the_reference_layout() {
        let s = Shader {
            name: "tri.vert".into(),
            stage: Stage::Vertex,
            limits: Limits::SEED,
            ir: vec![
                Ir::new(Op::Const, Type::Vec4).dst(1).aux(0).ncomp(4),
                Ir::new(Op::Nop, Type::Vec4).dst(7),
                Ir::new(Op::LoadAttr, Type::Vec4).dst(2).aux(0).ncomp(4),
                Ir::new(Op::StoreVar, Type::Vec4).a(4).aux(0),
                Ir::new(Op::Cmp, Type::Bool).dst(7).a(5).b(6).aux(1),
            ],
            imm: vec![0.0; 4],
            ntmp: 8,
            interface: Interface {
                symbols: vec![
                    InterfaceSymbol {
                        name: "position".into(),
                        ty: Type::Vec4,
                        array_len: None,
                        kind: SymbolKind::Attribute { location: 0 },
                        interpolation: None,
                    },
                    InterfaceSymbol {
                        name: "uTex".into(),
                        ty: Type::Sampler2D,
                        array_len: None,
                        kind: SymbolKind::sampler_2d(0),
                        interpolation: None,
                    },
                    InterfaceSymbol {
                        name: "vcolor".into(),
                        ty: Type::Vec4,
                        array_len: None,
                        kind: SymbolKind::VaryingOut { slot: 0 },
                        interpolation: None,
                    },
                ],
                ..Interface::default()
            },
        };
        let expected = "shader tri.vert\nstage vertex\ninput vec4 position\n\
uniform sampler2D uTex slot 0\noutput vec4 vcolor\nblock 0:\n  %1 = const\n  \
%2 = load_attr aux 0\n  store_var %4\n  %7 = cmp %5 %6 aux 1\n";
        assert_eq!(dump(&s), expected);
    }
}
