//! Uniform initializers (GLSL 1.20 §4.3.5): `uniform T name = constant;` gives the
//! value the uniform holds until it is set, through linking and CSI v2.

mod common;
use csir::{Limits, Program, Stage, compile, load_csi, save_csi};

const VS: &str = "#version 330 core\nin vec4 p;\nuniform float scale = 2;\n\
                  void main() { gl_Position = p * scale; }\n";
const FS: &str = "#version 330 core\nuniform vec3 tint = vec3(0.25, 0.5, 1.0);\n\
                  uniform mat2 m = mat2(3.0);\nuniform bool on = true;\nuniform float plain;\n\
                  out vec4 c;\nvoid main() { c = vec4(tint * m[0].x, plain + float(on)); }\n";

fn program() -> Program {
    let v = compile(VS, "i.vert", Stage::Vertex, &Limits::default()).unwrap();
    let f = compile(FS, "i.frag", Stage::Fragment, &Limits::default()).unwrap();
    Program::link(v, f).unwrap()
}

#[test]
fn initializers_are_the_values_before_a_uniform_is_set() {
    let p = program();
    let mut u = p.new_uniforms();
    let slot = |stage: &csir::Shader, name: &str| match stage.interface.find(name).unwrap().kind {
        csir::ir::SymbolKind::Uniform { slot } => slot as usize,
        k => panic!("{k:?}"),
    };
    // int 2 converts to float in GLSL 3.30.
    assert_eq!(u.vertex[slot(&p.vertex, "scale")], [2.0, 0.0, 0.0, 0.0]);
    let f = &p.fragment;
    assert_eq!(u.fragment[slot(f, "tint")], [0.25, 0.5, 1.0, 0.0]);
    assert_eq!(u.fragment[slot(f, "m")], [3.0, 0.0, 0.0, 0.0]);
    assert_eq!(u.fragment[slot(f, "m") + 1], [0.0, 3.0, 0.0, 0.0]);
    assert_eq!(u.fragment[slot(f, "on")], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(u.fragment[slot(f, "plain")], [0.0; 4]);
    // Setting one overrides its initializer.
    p.set_uniform(&mut u, "tint", &[1.0, 1.0, 1.0]).unwrap();
    assert_eq!(u.fragment[slot(f, "tint")], [1.0, 1.0, 1.0, 0.0]);
}

#[test]
fn csi_v2_keeps_initializers_and_checks_them() {
    let p = program();
    let blob = save_csi(&p.fragment).unwrap();
    let back = load_csi(&blob, &Limits::default()).unwrap();
    assert_eq!(back, p.fragment);
    assert_eq!(
        back.interface.uniform_initializers,
        vec![
            ("tint".to_string(), vec![0.25, 0.5, 1.0]),
            ("m".to_string(), vec![3.0, 0.0, 0.0, 3.0]),
            ("on".to_string(), vec![1.0]),
        ]
    );
    // A shader whose initializer has the wrong float count cannot be saved.
    let mut bad = p.fragment.clone();
    bad.interface.uniform_initializers[0].1.pop();
    let e = save_csi(&bad).unwrap_err().to_string();
    assert!(e.contains("uniform initializer for 'tint'"), "{e}");
    // Nor one that names no uniform.
    let mut bad = p.fragment.clone();
    bad.interface.uniform_initializers[0].0 = "c".into();
    let e = save_csi(&bad).unwrap_err().to_string();
    assert!(e.contains("no uniform of that name"), "{e}");
}

#[test]
fn initializer_errors_name_the_rule() {
    let m = common::messages(
        &common::frag_src("uniform float k = u.x;", "c = vec4(k);"),
        Stage::Fragment,
    );
    assert!(
        m.iter()
            .any(|m| m.contains("the initializer of uniform 'k' must be a constant expression")),
        "{m:?}"
    );
    for (decls, want) in [
        (
            "uniform float a[2] = float[3](1.0, 2.0, 3.0);",
            "type mismatch in assignment",
        ),
        (
            "uniform float a[2] = float[2](1.0, u.x);",
            "the initializer of uniform 'a' must be a constant expression",
        ),
        (
            "uniform vec2 a[2] = 1.0;",
            "type mismatch in assignment: an array needs an array",
        ),
    ] {
        let m = common::messages(&common::frag_src(decls, "c = vec4(a[0]);"), Stage::Fragment);
        assert!(m.iter().any(|m| m.contains(want)), "{decls}: {m:?}");
    }
    // GLSL 1.10 has no implicit int to float conversion.
    let src = "#version 110\nuniform float k = 1;\nvoid main() { gl_FragColor = vec4(k); }\n";
    let m = common::messages(src, Stage::Fragment);
    assert!(
        m.iter()
            .any(|m| m.contains("a value of type int cannot become float")),
        "{m:?}"
    );
}

/// piglit `*-set-by-other-stage`: a uniform is one variable of the program, so an
/// initializer in the vertex shader gives the fragment shader's declaration its value.
#[test]
fn an_initializer_in_one_stage_gives_the_value_in_both() {
    let vs = "#version 120\nuniform vec4 color = vec4(0.0, 1.0, 0.0, 0.0);\n\
              void main() { gl_Position = gl_Vertex; }\n";
    let fs = "#version 120\nuniform vec4 color;\nvoid main() { gl_FragColor = color; }\n";
    let v = compile(vs, "o.vert", Stage::Vertex, &Limits::default()).unwrap();
    let f = compile(fs, "o.frag", Stage::Fragment, &Limits::default()).unwrap();
    let p = Program::link(v, f).unwrap();
    let u = p.new_uniforms();
    let csir::ir::SymbolKind::Uniform { slot } = p.fragment.interface.find("color").unwrap().kind
    else {
        panic!("color is a uniform")
    };
    assert_eq!(u.fragment[slot as usize], [0.0, 1.0, 0.0, 0.0]);
}

/// Uniform arrays take an array initializer (piglit `uniform-initializer/*-array`):
/// every element holds its value, in its own slot, until the array or an element is
/// set; the floats survive CSI v2.
#[test]
fn uniform_arrays_take_array_initializers() {
    let fs = "#version 120\nuniform vec2 a[3] = vec2[3](vec2(1.0, 2.0), vec2(3.0), vec2(5.0, 6.0));\n\
              uniform mat3 m[2] = mat3[2](mat3(2.0), mat3(4.0));\nuniform float f[] = float[](7.0, 8.0);\n\
              uniform int index;\n\
              void main() { gl_FragColor = vec4(a[index], m[1][index].y, f[1]); }\n";
    let vs = "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n";
    let v = compile(vs, "a.vert", Stage::Vertex, &Limits::default()).unwrap();
    let f = compile(fs, "a.frag", Stage::Fragment, &Limits::default()).unwrap();
    assert_eq!(
        f.interface.uniform_initializers,
        vec![
            ("a".to_string(), vec![1.0, 2.0, 3.0, 3.0, 5.0, 6.0]),
            (
                "m".to_string(),
                [2.0, 4.0]
                    .iter()
                    .flat_map(|&d| [d, 0.0, 0.0, 0.0, d, 0.0, 0.0, 0.0, d])
                    .collect()
            ),
            ("f".to_string(), vec![7.0, 8.0]),
        ]
    );
    let back = load_csi(&save_csi(&f).unwrap(), &Limits::default()).unwrap();
    assert_eq!(back, f);
    let p = Program::link(v, f).unwrap();
    let mut u = p.new_uniforms();
    let run = |u: &csir::UniformStorage| {
        let mut m = csir::exec::Machine::new(&p.fragment).unwrap();
        let mut out = csir::exec::Outputs::default();
        m.run(
            &csir::exec::Inputs {
                uniforms: &u.fragment,
                ..Default::default()
            },
            &mut out,
        )
        .unwrap();
        out.color
    };
    assert_eq!(run(&u), [1.0, 2.0, 0.0, 8.0]);
    p.set_uniform(&mut u, "index", &[1.0]).unwrap();
    assert_eq!(run(&u), [3.0, 3.0, 4.0, 8.0]);
    // Setting one element overrides that element only.
    p.set_uniform(&mut u, "a[1]", &[9.0, 10.0]).unwrap();
    assert_eq!(run(&u), [9.0, 10.0, 4.0, 8.0]);
    p.set_uniform(&mut u, "index", &[2.0]).unwrap();
    assert_eq!(run(&u), [5.0, 6.0, 0.0, 8.0]);
}
