//! The built-ins a VirGL host computes, declared with their TGSI semantics
//! (`shaders/src/tgsi/builtins.rs`, docs/virgl.md "Points, lines and instancing"):
//! `gl_VertexID` / `gl_InstanceID` as `SV` system values, `gl_PrimitiveID` as a
//! `PRIM_ID` input, `gl_PointCoord` as a sprite-replaced `GENERIC` input that no
//! linked varying uses, `gl_PointSize` as a `PSIZE` output.

mod common;
use common::build;
use csir::ir::SymbolKind;
use csir::{Program, Stage, emit_tgsi};

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn vertex_and_instance_ids_are_system_values() {
    let vs = build(
        "#version 330 core\nlayout(location = 0) in vec2 p;\n\
         void main() { gl_Position = vec4(p * float(gl_VertexID + gl_InstanceID), 0.0, 1.0); }",
        Stage::Vertex,
    );
    let text = emit_tgsi(&vs, None, None).unwrap();
    let l = lines(&text);
    assert!(l.contains(&"DCL IN[0]"), "{text}");
    assert!(
        !l.iter()
            .any(|s| s.starts_with("DCL IN[1]") || s.starts_with("DCL IN[2]")),
        "the IDs are not attributes: {text}"
    );
    let vertex = l.iter().position(|s| s.ends_with(", VERTEXID"));
    let instance = l.iter().position(|s| s.ends_with(", INSTANCEID"));
    assert!(vertex.is_some() && instance.is_some(), "{text}");
    // Each is read from its own SV register.
    for name in ["VERTEXID", "INSTANCEID"] {
        let decl = l.iter().find(|s| s.ends_with(name)).unwrap();
        let reg = decl.trim_start_matches("DCL ").split(',').next().unwrap();
        assert!(
            l.iter()
                .any(|s| s.contains("MOV") && s.ends_with(&format!(", {reg}"))),
            "{reg} is read: {text}"
        );
    }
}

/// The fragment-local slot of `name`.
fn local_slot(shader: &csir::Shader, name: &str) -> u16 {
    shader
        .interface
        .symbols
        .iter()
        .find_map(|s| match s.kind {
            SymbolKind::VaryingIn { slot } if s.name == name => Some(slot),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{name} is not a fragment input"))
}

#[test]
fn point_size_is_psize_and_fragment_builtins_take_free_inputs() {
    let vs = build(
        "#version 330 core\nlayout(location = 0) in vec2 p;\nout vec4 b;\nout vec4 a;\n\
         void main() { a = vec4(1.0); b = vec4(2.0); gl_PointSize = 4.0; gl_Position = vec4(p, 0.0, 1.0); }",
        Stage::Vertex,
    );
    let vertex_text = emit_tgsi(&vs, None, None).unwrap();
    let psize = vs.varying_output("gl_PointSize").map(|s| s.kind);
    let Some(SymbolKind::VaryingOut { slot }) = psize else {
        panic!("gl_PointSize is a vertex output");
    };
    assert!(
        lines(&vertex_text).contains(&format!("DCL OUT[{}], PSIZE", slot + 1).as_str()),
        "{vertex_text}"
    );
    let fs = build(
        "#version 330 core\nin vec4 b;\nout vec4 c;\n\
         void main() { c = b + vec4(gl_PointCoord, float(gl_PrimitiveID), 1.0); }",
        Stage::Fragment,
    );
    let program = Program::link(vs, fs).unwrap();
    let f = &program.fragment;
    let b = program.var_remap[local_slot(f, "b") as usize];
    assert!(b >= 0, "b is linked");
    // The rasterizer inputs have no vertex slot; they take the lowest IN indices b's
    // vertex slot leaves, in declaration order, whatever their local slots.
    let mut free = (0i16..).filter(|&i| i != b);
    let (first, second) = (free.next().unwrap(), free.next().unwrap());
    let (coord, prim) = if local_slot(f, "gl_PointCoord") < local_slot(f, "gl_PrimitiveID") {
        (first, second)
    } else {
        (second, first)
    };
    let text = emit_tgsi(f, Some(&program.var_remap), None).unwrap();
    let l = lines(&text);
    for decl in [
        format!("DCL IN[{b}], GENERIC[{b}], PERSPECTIVE"),
        format!("DCL IN[{coord}], GENERIC[{coord}], PERSPECTIVE"),
        format!("DCL IN[{prim}], PRIM_ID, CONSTANT"),
    ] {
        assert!(l.contains(&decl.as_str()), "{decl} in\n{text}");
    }
    assert_eq!(
        l.iter().filter(|s| s.starts_with("DCL IN[")).count(),
        3,
        "{text}"
    );
    assert_eq!(
        csir::tgsi::point_coord_generic(f, Some(&program.var_remap)),
        Some(coord as u16)
    );
}
