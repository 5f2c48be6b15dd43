//! Interface matching between stages: a fragment input links to the vertex
//! output of the same name, type and array size (GLSL 1.30 §4.3.4, §4.3.6; GLSL 1.10
//! §4.3.6 for varyings). Each mismatch is a named `LinkError`; the valid twin links and
//! the fragment shader reads what the vertex shader wrote.

mod common;

use common::run;
use csir::exec::NoSamplers;
use csir::ir::Type;
use csir::{Limits, LinkError, Program, Stage, compile};

fn shader(src: &str, stage: Stage) -> csir::Shader {
    compile(src, "t.glsl", stage, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"))
}

/// A vertex shader writing `out vec3 n` and `out float w[2]` from attribute `p`.
const VS: &str = "#version 330 core\nin vec4 p;\nout vec3 n;\nout float w[2];\n\
                  void main() { gl_Position = p; n = p.xyz * 2.0; w[0] = p.w; w[1] = -p.w; }\n";

fn fragment(n: &str, w: &str) -> String {
    format!(
        "#version 330 core\nin {n};\nin {w};\nout vec4 o;\n\
         void main() {{ o = vec4(n.xy, w[0], w[1]); }}\n"
    )
}

#[test]
fn a_varying_of_another_type_is_a_link_error() {
    let fs = shader(&fragment("vec2 n", "float w[2]"), Stage::Fragment);
    let err = Program::link(shader(VS, Stage::Vertex), fs).unwrap_err();
    assert_eq!(
        err,
        LinkError::VaryingType {
            name: "n".into(),
            vertex: Type::Vec3,
            fragment: Type::Vec2,
        }
    );
    assert_eq!(
        err.to_string(),
        "type mismatch for varying 'n': vertex vec3, fragment vec2"
    );
}

#[test]
fn a_varying_array_of_another_size_is_a_link_error() {
    let fs = shader(&fragment("vec3 n", "float w[3]"), Stage::Fragment);
    let err = Program::link(shader(VS, Stage::Vertex), fs).unwrap_err();
    assert_eq!(
        err,
        LinkError::VaryingLength {
            name: "w".into(),
            vertex: 2,
            fragment: 3,
        }
    );
    assert_eq!(
        err.to_string(),
        "array length mismatch for varying 'w': vertex 2 elements, fragment 3"
    );
}

#[test]
fn a_varying_the_vertex_shader_lacks_is_a_link_error() {
    let fs = "#version 330 core\nin vec3 m;\nout vec4 o;\nvoid main() { o = vec4(m, 1.0); }\n";
    let err = Program::link(shader(VS, Stage::Vertex), shader(fs, Stage::Fragment)).unwrap_err();
    assert_eq!(err, LinkError::MissingVarying("m".into()));
    assert_eq!(
        err.to_string(),
        "missing varying 'm': the vertex shader has no output of that name"
    );
}

#[test]
fn matching_varyings_link_and_carry_the_vertex_values() {
    let program = Program::link(
        shader(VS, Stage::Vertex),
        shader(&fragment("vec3 n", "float w[2]"), Stage::Fragment),
    )
    .expect("same names, types and sizes link");
    let names: Vec<_> = program
        .varyings
        .iter()
        .map(|v| (v.name.as_str(), v.ty))
        .collect();
    assert_eq!(names, [("n", Type::Vec3), ("w", Type::Float)]);
    // Run the vertex shader, hand its outputs to the fragment shader through the
    // link's slot map, and read the colour.
    let vs = run(&program.vertex, &[], &[[0.25, 0.5, 0.75, 3.0]], &NoSamplers);
    let mut fs_in = [[0.0f32; 4]; 8];
    for (frag_slot, &vertex_slot) in program.var_remap.iter().enumerate() {
        if vertex_slot >= 0 {
            fs_in[frag_slot] = vs.varyings[vertex_slot as usize];
        }
    }
    let color = run(&program.fragment, &[], &fs_in, &NoSamplers).color;
    assert_eq!(color, [0.5, 1.0, 3.0, -3.0]);
}
