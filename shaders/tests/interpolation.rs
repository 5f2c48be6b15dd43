//! Interpolation qualifiers (GLSL 1.30 §4.3.6): `smooth`, `flat`, `noperspective` on
//! varyings reach the interface, are matched at link, survive CSI v2 and the TGSI
//! declarations, and are refused by CSI v1 and wherever GLSL does not allow them.

mod common;

use common::{build, messages};
use csir::csi::SaveError;
use csir::ir::{Interpolation, SymbolKind};
use csir::{
    Limits, LinkError, Program, Stage, compile, emit_tgsi, load_csi, save_csi, save_csi_v1,
};

const VS: &str = "#version 130\nin vec4 p;\nflat out vec3 a;\nnoperspective out float b;\n\
                  smooth out vec2 c;\nout vec2 d;\nflat out int k;\n\
                  void main() { gl_Position = p; a = p.xyz; b = p.x; c = p.xy; d = p.zw; k = 3; }\n";

fn fragment(quals: [&str; 4]) -> String {
    format!(
        "#version 130\n{} in vec3 a;\n{} in float b;\n{} in vec2 c;\n{} in vec2 d;\n\
         flat in int k;\nout vec4 o;\n\
         void main() {{ o = vec4(a.x + b + c.x + d.y, float(k), 0.0, 1.0); }}\n",
        quals[0], quals[1], quals[2], quals[3]
    )
}

fn qualifier(shader: &csir::Shader, name: &str) -> Option<Interpolation> {
    shader.interface.find(name).unwrap().interpolation
}

#[test]
fn qualifiers_reach_the_interface_and_the_linked_program() {
    let vs = build(VS, Stage::Vertex);
    assert_eq!(qualifier(&vs, "a"), Some(Interpolation::Flat));
    assert_eq!(qualifier(&vs, "b"), Some(Interpolation::NoPerspective));
    assert_eq!(qualifier(&vs, "c"), Some(Interpolation::Smooth));
    assert_eq!(qualifier(&vs, "d"), None);
    assert_eq!(qualifier(&vs, "k"), Some(Interpolation::Flat));
    assert_eq!(qualifier(&vs, "p"), None);
    // An unqualified fragment input links to an explicitly smooth output and back.
    let fs = build(
        &fragment(["flat", "noperspective", "", "smooth"]),
        Stage::Fragment,
    );
    let program = Program::link(vs, fs).unwrap();
    let by_name = |n: &str| {
        program
            .varyings
            .iter()
            .find(|v| v.name == n)
            .unwrap()
            .interpolation
    };
    assert_eq!(by_name("a"), Some(Interpolation::Flat));
    assert_eq!(by_name("b"), Some(Interpolation::NoPerspective));
    assert_eq!(by_name("c"), None);
    assert_eq!(by_name("d"), Some(Interpolation::Smooth));
    assert_eq!(by_name("k"), Some(Interpolation::Flat));
}

#[test]
fn mismatched_qualifiers_are_a_link_error() {
    let vs = build(VS, Stage::Vertex);
    let fs = build(
        &fragment(["smooth", "noperspective", "", ""]),
        Stage::Fragment,
    );
    let err = Program::link(vs, fs).unwrap_err();
    assert_eq!(
        err,
        LinkError::VaryingInterpolation {
            name: "a".into(),
            vertex_name: "a".into(),
            vertex: "flat",
            fragment: "smooth",
        }
    );
    assert_eq!(
        err.to_string(),
        "interpolation mismatch for varying 'a': vertex 'a' is flat, fragment is smooth \
         (GLSL 1.30 §4.3.6: the qualifiers must match)"
    );
    let vs = build(VS, Stage::Vertex);
    let frag = build(&fragment(["flat", "", "", ""]), Stage::Fragment);
    assert!(matches!(
        Program::link(vs, frag),
        Err(LinkError::VaryingInterpolation {
            vertex: "noperspective",
            fragment: "unqualified",
            ..
        })
    ));
}

#[test]
fn csi_v2_round_trips_the_qualifiers_and_v1_refuses_them() {
    let vs = build(VS, Stage::Vertex);
    let blob = save_csi(&vs).unwrap();
    let back = load_csi(&blob, &Limits::default()).unwrap();
    assert_eq!(back, vs);
    assert_eq!(save_csi(&back).unwrap(), blob, "canonical");
    // Symbol `a` (name "a"): kind byte 4 (varying out) | flat (2) << 4.
    let a = blob
        .windows(8)
        .find(|w| w[0] & 0x0f == 4 && w[6..] == [1, b'a'])
        .expect("symbol a");
    assert_eq!(a[0], 4 | 2 << 4);
    assert_eq!(
        save_csi_v1(&vs).unwrap_err(),
        SaveError::V1Interpolation {
            name: "a".into(),
            qualifier: "flat"
        }
    );
    assert_eq!(
        save_csi_v1(&vs).unwrap_err().to_string(),
        "CSI v1 stores no interpolation qualifiers and cannot hold the flat varying 'a'; \
         save as CSI v2"
    );
    // Smooth is what v1's loader assumes: a shader with only smooth varyings saves.
    let smooth = build(
        "#version 130\nin vec4 p;\nsmooth out vec2 c;\nvoid main() { gl_Position = p; c = p.xy; }\n",
        Stage::Vertex,
    );
    assert!(save_csi_v1(&smooth).is_ok());
}

#[test]
fn a_qualifier_on_a_symbol_that_is_not_a_varying_does_not_load() {
    let vs = build(VS, Stage::Vertex);
    let mut blob = save_csi(&vs).unwrap();
    // The attribute `p`: kind 2, a type, location 0, not an array, name "p".
    let at = blob
        .windows(8)
        .position(|w| w[0] == 2 && w[2..] == [0, 0, 0, 0, 1, b'p'])
        .expect("the attribute symbol");
    for (bits, loads) in [(0u8, true), (2 << 4, false)] {
        blob[at] = 2 | bits;
        let mut h = crc32fast::Hasher::new();
        h.update(&blob[..24]);
        h.update(&blob[28..]);
        let crc = h.finalize().to_le_bytes();
        blob[24..28].copy_from_slice(&crc);
        let result = load_csi(&blob, &Limits::default());
        assert_eq!(result.is_ok(), loads, "{result:?}");
        if let Err(e) = result {
            assert_eq!(e.offset, at);
            assert!(
                e.to_string()
                    .contains("invalid symbol interpolation qualifier 2"),
                "{e}"
            );
        }
    }
}

#[test]
fn tgsi_declares_flat_and_noperspective_inputs() {
    let vs = build(VS, Stage::Vertex);
    let fs = build(
        &fragment(["flat", "noperspective", "", "smooth"]),
        Stage::Fragment,
    );
    let program = Program::link(vs, fs).unwrap();
    let tgsi = emit_tgsi(&program.fragment, Some(&program.var_remap), None).unwrap();
    let slot = |name: &str| match program.vertex.varying_output(name).unwrap().kind {
        SymbolKind::VaryingOut { slot } => slot,
        _ => unreachable!(),
    };
    let decl = |name: &str, mode: &str| {
        let s = slot(name);
        format!("DCL IN[{s}], GENERIC[{s}], {mode}")
    };
    for (name, mode) in [
        ("a", "CONSTANT"),
        ("b", "LINEAR"),
        ("c", "PERSPECTIVE"),
        ("d", "PERSPECTIVE"),
        ("k", "CONSTANT"),
    ] {
        assert!(tgsi.contains(&decl(name, mode)), "{name}: {tgsi}");
    }
}

#[test]
fn qualifiers_are_refused_where_glsl_does_not_allow_them() {
    let v = |decls: &str| {
        format!("#version 130\n{decls}\nvoid main() {{ gl_Position = vec4(0.0); }}\n")
    };
    assert_eq!(
        messages(&v("flat in vec4 p;"), Stage::Vertex),
        [
            "'flat' qualifies the outputs of a vertex shader and the inputs of a fragment \
          shader only (GLSL 1.30 §4.3.6)"
        ]
    );
    assert_eq!(
        messages(&v("noperspective uniform float u;"), Stage::Vertex),
        [
            "'noperspective' qualifies the outputs of a vertex shader and the inputs of a \
          fragment shader only (GLSL 1.30 §4.3.6)"
        ]
    );
    // GLSL 1.50 §4.3.4: the fragment input must be flat; a vertex output need not
    // be (GLSL ES 3.00 §4.3.6 asks it of both).
    let int_out = "#version 130\nout int k;\nvoid main() { k = 1; gl_Position = vec4(0.0); }\n";
    build(int_out, Stage::Vertex);
    assert_eq!(
        messages(
            &int_out.replace("#version 130", "#version 300 es"),
            Stage::Vertex
        ),
        ["an integer vertex shader output must be qualified 'flat' (GLSL ES 3.00 §4.3.6)"]
    );
    assert_eq!(
        messages(
            "#version 130\nin int k;\nvoid main() { gl_FragColor = vec4(float(k)); }\n",
            Stage::Fragment
        ),
        ["an integer fragment shader input must be qualified 'flat' (GLSL 1.50 §4.3.4)"]
    );
    assert_eq!(
        messages(&v("flat smooth out float k;"), Stage::Vertex),
        ["only one interpolation qualifier is allowed"]
    );
    assert_eq!(
        messages(
            "#version 130\nflat out vec4 o;\nvoid main() { o = vec4(1.0); }\n",
            Stage::Fragment
        ),
        [
            "'flat' qualifies the outputs of a vertex shader and the inputs of a fragment \
          shader only (GLSL 1.30 §4.3.6)"
        ]
    );
    assert_eq!(
        messages(
            "#version 130\nvoid main() { flat float x = 1.0; gl_Position = vec4(x); }\n",
            Stage::Vertex
        ),
        ["qualifiers are only valid at global scope"]
    );
    assert_eq!(
        messages(
            "#version 130\nfloat f(flat float x) { return x; }\n\
             void main() { gl_Position = vec4(f(1.0)); }\n",
            Stage::Vertex
        ),
        ["'flat' qualifies shader inputs and outputs, not parameters (GLSL 1.30 §4.3.6)"]
    );
    // GLSL ES 3.00 has flat but no noperspective; GLSL 1.20 has neither word.
    let es = "#version 300 es\nnoperspective out float b;\nflat out float a;\n\
              void main() { gl_Position = vec4(0.0); a = 1.0; b = 1.0; }\n";
    assert_eq!(
        messages(es, Stage::Vertex),
        [
            "'noperspective' is not part of GLSL ES (GLSL ES 3.00 §4.3.9 has smooth and flat \
          only)"
        ]
    );
    let old = "#version 120\nfloat flat = 1.0;\nvoid main() { gl_Position = vec4(flat); }\n";
    assert!(compile(old, "t", Stage::Vertex, &Limits::default()).is_ok());
}

#[test]
fn built_in_colours_can_be_redeclared_with_a_qualifier() {
    let vs = build(
        "#version 130\nin vec4 p;\nflat out vec4 gl_FrontColor;\n\
         void main() { gl_Position = p; gl_FrontColor = p; }\n",
        Stage::Vertex,
    );
    assert_eq!(qualifier(&vs, "gl_FrontColor"), Some(Interpolation::Flat));
    let fs = build(
        "#version 130\nflat in vec4 gl_Color;\nvoid main() { gl_FragColor = gl_Color; }\n",
        Stage::Fragment,
    );
    assert_eq!(qualifier(&fs, "gl_Color"), Some(Interpolation::Flat));
    let program = Program::link(vs.clone(), fs).unwrap();
    assert_eq!(program.varyings[0].interpolation, Some(Interpolation::Flat));
    // gl_Color without the qualifier does not match a flat gl_FrontColor.
    let plain = build(
        "#version 130\nvoid main() { gl_FragColor = gl_Color; }\n",
        Stage::Fragment,
    );
    assert!(matches!(
        Program::link(vs, plain),
        Err(LinkError::VaryingInterpolation { .. })
    ));
    assert_eq!(
        messages(
            "#version 130\nflat in vec3 gl_Color;\nvoid main() { gl_FragColor = vec4(1.0); }\n",
            Stage::Fragment
        ),
        [
            "gl_Color may only be redeclared as '[smooth|flat|noperspective] in vec4 gl_Color;' \
          (GLSL 1.30 §4.3.6)"
        ]
    );
}
