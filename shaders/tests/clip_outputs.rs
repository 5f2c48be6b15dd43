//! The vertex shader's user clipping outputs (GL 3.0 §2.17): `gl_ClipDistance[]` (GLSL
//! 1.30 §7.1) and `gl_ClipVertex` are vertex outputs with their values in their slots,
//! sized as GLSL says, declared `CLIPVERTEX` in TGSI, carried by CSI v2, and refused
//! by name where GLSL or csir-render does not have them.

mod common;

use common::{build, messages, run};
use csir::exec::NoSamplers;
use csir::ir::SymbolKind;
use csir::{Limits, Stage, emit_tgsi, load_csi, save_csi};

/// The vertex slot and element count of output `name`.
fn output(shader: &csir::Shader, name: &str) -> (u16, Option<u16>) {
    let s = shader.varying_output(name).expect(name);
    let SymbolKind::VaryingOut { slot } = s.kind else {
        panic!("{name} is not a vertex output")
    };
    (slot, s.array_len)
}

#[test]
fn clip_distances_are_one_float_per_slot_sized_by_their_use() {
    // Constant indexes size the array by the largest (GLSL 1.10 §4.1.9).
    let vs = build(
        "#version 130\nin vec4 p;\nout vec2 v;\nvoid main() { gl_Position = p; v = p.xy;\n\
         gl_ClipDistance[0] = p.x - 0.25;\ngl_ClipDistance[2] = 2.0 * p.y; }\n",
        Stage::Vertex,
    );
    let (slot, len) = output(&vs, "gl_ClipDistance");
    assert_eq!(len, Some(3));
    let out = run(&vs, &[], &[[0.75, -4.0, 0.0, 1.0]], &NoSamplers);
    assert_eq!(out.varyings[usize::from(slot)][0], 0.5);
    assert_eq!(out.varyings[usize::from(slot) + 2][0], -8.0);
    // A run-time index gives the largest size, gl_MaxClipDistances = 8; a
    // redeclaration its own.
    let dynamic = build(
        "#version 130\nin vec4 p;\nuniform int k;\n\
         void main() { gl_Position = p; gl_ClipDistance[k] = 1.0; }\n",
        Stage::Vertex,
    );
    assert_eq!(output(&dynamic, "gl_ClipDistance").1, Some(8));
    let sized = build(
        "#version 330 core\nin vec4 p;\nout float gl_ClipDistance[5];\n\
         void main() { gl_Position = p; for (int i = 0; i < 5; i++) gl_ClipDistance[i] = float(i); }\n",
        Stage::Vertex,
    );
    let (slot, len) = output(&sized, "gl_ClipDistance");
    assert_eq!(len, Some(5));
    // A built-in constant sizes a global array too (GLSL 1.30 §7.4).
    let to_max = build(
        "#version 130\nin vec4 p;\nout float gl_ClipDistance[gl_MaxClipDistances];\n\
         void main() { gl_Position = p; gl_ClipDistance[7] = 1.0; }\n",
        Stage::Vertex,
    );
    assert_eq!(output(&to_max, "gl_ClipDistance").1, Some(8));
    let out = run(&sized, &[], &[[0.0; 4]], &NoSamplers);
    let got: Vec<f32> = (0..5)
        .map(|i| out.varyings[usize::from(slot) + i][0])
        .collect();
    assert_eq!(got, [0.0, 1.0, 2.0, 3.0, 4.0]);
    let consts = build(
        "#version 130\nout vec4 c;\nvoid main() { c = vec4(float(gl_MaxClipDistances), \
         float(gl_MaxClipPlanes), 0.0, 1.0); gl_Position = c; }\n",
        Stage::Vertex,
    );
    assert_eq!(
        run(&consts, &[], &[], &NoSamplers).position,
        [8.0, 8.0, 0.0, 1.0]
    );
}

#[test]
fn clip_vertex_is_a_vec4_output_declared_clipvertex_in_tgsi() {
    let vs = build(
        "#version 120\nvoid main() { gl_Position = gl_Vertex;\n\
         gl_ClipVertex = gl_Vertex * vec4(5.0, 5.0, 1.0, 0.5); }\n",
        Stage::Vertex,
    );
    let (slot, len) = output(&vs, "gl_ClipVertex");
    assert_eq!(len, None);
    let out = run(&vs, &[], &[[1.0, 2.0, 3.0, 4.0]], &NoSamplers);
    assert_eq!(out.varyings[usize::from(slot)], [5.0, 10.0, 3.0, 2.0]);
    let tgsi = emit_tgsi(&vs, None, None).unwrap();
    let decl = format!("DCL OUT[{}], CLIPVERTEX", slot + 1);
    assert!(tgsi.contains(&decl), "{tgsi}");
    assert!(!tgsi.contains("GENERIC"), "{tgsi}");
}

#[test]
fn csi_v2_carries_the_clip_outputs() {
    for src in [
        "#version 120\nvoid main() { gl_Position = gl_Vertex; gl_ClipVertex = gl_Vertex; }\n",
        "#version 130\nin vec4 p;\nout float gl_ClipDistance[3];\n\
         void main() { gl_Position = p; gl_ClipDistance[1] = p.z; }\n",
    ] {
        let vs = build(src, Stage::Vertex);
        let blob = save_csi(&vs).unwrap();
        let back = load_csi(&blob, &Limits::default()).unwrap();
        assert_eq!(back, vs, "{src}");
    }
}

#[test]
fn clip_outputs_are_refused_where_they_do_not_exist() {
    let v = |version: &str, body: &str| {
        format!(
            "#version {version}\nattribute vec4 p;\nvoid main() {{ gl_Position = p; {body} }}\n"
        )
    };
    assert_eq!(
        messages(&v("120", "gl_ClipDistance[0] = 1.0;"), Stage::Vertex),
        ["gl_ClipDistance is not available in GLSL 1.20: it needs GLSL 1.30 (GLSL 1.30 §7.1)"]
    );
    assert!(
        messages(&v("330 core", "gl_ClipVertex = p;"), Stage::Vertex)[0]
            .starts_with("gl_ClipVertex is not available in GLSL 3.30 core"),
    );
    assert_eq!(
        messages(
            "#version 130\nout float gl_ClipDistance[9];\n\
             void main() { gl_Position = vec4(0.0); }\n",
            Stage::Vertex
        ),
        ["gl_ClipDistance has at most gl_MaxClipDistances (8) elements, not 9 (GLSL 1.30 §7.1)"]
    );
    let fragment = "is not supported in a fragment shader: the clip distances are used by \
                    the clipper and do not reach the fragment stage";
    assert_eq!(
        messages(
            "#version 130\nvoid main() { gl_FragColor = vec4(gl_ClipDistance[0]); }\n",
            Stage::Fragment
        ),
        [format!("gl_ClipDistance {fragment}")]
    );
    assert_eq!(
        messages(
            "#version 130\nin float gl_ClipDistance[2];\n\
             void main() { gl_FragColor = vec4(1.0); }\n",
            Stage::Fragment
        ),
        [format!("gl_ClipDistance {fragment}")]
    );
    assert_eq!(
        messages(&v("130", "gl_ClipPlane[0];"), Stage::Vertex),
        [
            "gl_ClipPlane is not supported: the clip plane equations are not provided as a \
          uniform array"
        ]
    );
}
