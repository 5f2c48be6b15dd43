//! Diagnostics: `NAME:LINE:COL: error: MESSAGE`, the source line and a caret, for the
//! common mistakes; several errors per compile; no cascades; never a panic.

mod common;
use common::*;
use csir::{Limits, Stage, compile};

#[test]
fn one_error_has_header_source_line_and_caret() {
    let src = "#version 330\nout vec4 c;\nvoid main() {\n    c = vec3(1.0);\n}\n";
    assert_eq!(
        errors(src, Stage::Fragment),
        "t.glsl:4:9: error: type mismatch in assignment: a value of type vec3 cannot become vec4\n    c = vec3(1.0);\n        ^\n"
    );
}

#[test]
fn several_errors_in_one_compile() {
    let src = "#version 330\nout vec4 c;\nvoid main() {\n    c = vec4(x);\n    float y = 1.0 / 0.0;\n    int i = 1.5;\n    c.xx = vec2(1.0);\n    discard;\n}\n";
    assert_eq!(
        errors(src, Stage::Vertex),
        "t.glsl:4:14: error: unknown identifier 'x'\n    c = vec4(x);\n             ^\n\
         t.glsl:5:19: error: division by zero\n    float y = 1.0 / 0.0;\n                  ^\n\
         t.glsl:6:13: error: type mismatch in assignment: a value of type float cannot become int\n    int i = 1.5;\n            ^\n\
         t.glsl:7:7: error: a swizzle assignment cannot repeat a component\n    c.xx = vec2(1.0);\n      ^\n\
         t.glsl:8:5: error: discard is only valid in a fragment shader\n    discard;\n    ^\n"
    );
}

#[test]
fn catalogue_messages_at_their_tokens() {
    let src = "#version 330\nout vec4 c;\nuniform float u;\nvoid main() {\n    u = 1.0;\n    const float k = u;\n\
               for (int i = 0; i < int(u); i++) {}\n    for (int i = 0; i < 100; i++) {}\n    vec3 v = vec3(1.0, 2.0);\n\
               float q = vec2(1.0) + vec3(1.0);\n  if (vec2(1.0)) {}\n}\n";
    let e = errors(src, Stage::Fragment);
    for want in [
        "t.glsl:5:5: error: invalid assignment",
        "t.glsl:6:21: error: const initializer is not a constant expression",
        "t.glsl:7:1: error: CSIR has no loops: the trip count of this loop cannot be determined at compile time",
        "t.glsl:8:23: error: loop bound exceeds the unroll limit: more than 64 iterations",
        "t.glsl:9:14: error: constructor component count does not match the type",
        "t.glsl:10:21: error: type mismatch",
        "t.glsl:11:7: error: if condition must be a scalar",
    ] {
        assert!(e.contains(want), "missing {want:?} in\n{e}");
    }
    let src = "#version 330\nout vec4 c;\nvoid f() {}\nfloat r(float x) { return r(x); }\n\
               void main() { float x = f(); c = vec4(g(1.0)); c = mat3(1.0) * vec4(1.0); c.x = c[4]; vec2 w = c.xy; c.x = w.z; x = r(x); }\n";
    assert_eq!(
        messages(src, Stage::Fragment),
        vec![
            "void function used as a value",
            "unknown function 'g'",
            "cannot multiply mat3 by vec4",
            "index out of range",
            "invalid swizzle",
            "recursion is not supported: 'r' is called while it runs",
        ]
    );
}

#[test]
fn interface_errors_point_at_the_declaration() {
    let src = "#version 330\nlayout(location = 9) in vec3 a;\nlayout(location = 1) in vec3 b;\nlayout(location = 1) in vec3 d;\nvoid main() { gl_Position = vec4(a, 1.0); }\n";
    assert_eq!(
        errors(src, Stage::Vertex),
        "t.glsl:2:19: error: attribute location conflict\nlayout(location = 9) in vec3 a;\n                  ^\n\
         t.glsl:4:19: error: attribute location conflict\nlayout(location = 1) in vec3 d;\n                  ^\n"
    );
    let src =
        "#version 330\nout vec4 c;\nout vec4 d;\nvoid main() { d = vec4(1.0); c = gl_Position; }\n";
    assert_eq!(
        messages(src, Stage::Fragment),
        vec![
            "only one fragment output is supported",
            "gl_Position is not available in this stage"
        ]
    );
    let mut many = String::from("#version 330\nout vec4 c;\n");
    for i in 0..5 {
        many.push_str(&format!("uniform sampler2D s{i};\n"));
    }
    many.push_str("uniform sampler2D t[2];\nvoid main() {}\n");
    assert_eq!(
        messages(&many, Stage::Fragment),
        vec![
            "too many samplers: 's4' would be sampler 5 and the limit is 4",
            // an array takes a unit per element: t[0] and t[1] are samplers 6 and 7
            "too many samplers: 't' would be sampler 7 and the limit is 4"
        ]
    );
    let many = many.replace("uniform sampler2D t[2];\n", "");
    let e = errors(&many, Stage::Fragment);
    assert!(
        e.starts_with(
            "t.glsl:7:19: error: too many samplers: 's4' would be sampler 5 and the limit is 4\n"
        ),
        "{e}"
    );
    let mut uniforms = String::from("#version 330\nout vec4 c;\n");
    for i in 0..9 {
        uniforms.push_str(&format!("uniform mat4 m{i};\n"));
    }
    uniforms.push_str("void main() {}\n");
    assert_eq!(
        messages(&uniforms, Stage::Fragment),
        vec!["too many uniforms: with 'm8' they take 36 vec4 slots and the limit is 32"]
    );
}

#[test]
fn syntax_errors_do_not_cascade() {
    let src = "#version 330\nout vec4 c;\nvoid mian() {\n  c = vec4(1.0)\n}\nfloat g( { }\n";
    assert_eq!(
        messages(src, Stage::Fragment),
        vec!["expected ';'", "expected a parameter type"]
    );
    let src = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0) @ 2; }\n";
    assert_eq!(
        errors(src, Stage::Fragment),
        "t.glsl:3:29: error: invalid token\nvoid main() { c = vec4(1.0) @ 2; }\n                            ^\n"
    );
}

#[test]
fn missing_main_and_bad_main() {
    assert_eq!(
        messages("#version 330\nout vec4 c;\n", Stage::Fragment),
        vec!["missing main"]
    );
    assert_eq!(
        messages("int main() { return 0; }", Stage::Fragment),
        vec!["main must be void main()"]
    );
    assert_eq!(messages("", Stage::Fragment), vec!["empty shader"]);
}

#[test]
fn errors_are_capped_at_the_limit_but_counted() {
    let body: String = (0..12).map(|i| format!("x{i} = 1.0;\n")).collect();
    let src = frag_src("", &body);
    let e = compile(&src, "t", Stage::Fragment, &Limits::default()).unwrap_err();
    assert_eq!(e.diagnostics().len(), 8);
    assert_eq!(e.total(), 12);
    assert!(
        e.to_string()
            .ends_with("\nt: 4 more errors not shown (the first 8 are listed)\n"),
        "{e}"
    );
}

/// Each message names what it is about — the symbol, the function and the
/// argument types — and the rules behind the plain ones are stated.
#[test]
fn messages_name_the_symbol_function_and_types() {
    let cases = [
        ("c = vec4(zz);", "unknown identifier 'zz'"),
        ("float q; float q; c = vec4(q);", "duplicate symbol 'q'"),
        (
            "c = vec4(mix(vec2(1.0), vec3(1.0), 0.5), 0.0, 1.0);",
            "wrong arguments: no 'mix' takes (vec2, vec3, float)",
        ),
        (
            "c = vec4(distance(vec2(1.0), vec3(1.0)));",
            "wrong arguments: no 'distance' takes (vec2, vec3)",
        ),
        ("c = vec4(1.0 / 0.0);", "division by zero"),
    ];
    for (body, want) in cases {
        assert_eq!(
            messages(&frag_src("", body), Stage::Fragment),
            [want],
            "{body}"
        );
    }
    let globals = [
        (
            "float f() { return 1.0; } float f() { return 2.0; }",
            "duplicate symbol 'f': a function with these parameter types is already defined \
             (GLSL 3.30 §6.1)",
        ),
        (
            "float g(float a, float a) { return a; }",
            "duplicate symbol 'a'",
        ),
        (
            "float h() { return 1.0; } float h;",
            "duplicate symbol 'h': a function has this name",
        ),
        ("uniform vec4 w; uniform vec4 w;", "duplicate symbol 'w'"),
    ];
    for (decls, want) in globals {
        assert_eq!(
            messages(&frag_src(decls, ""), Stage::Fragment),
            [want],
            "{decls}"
        );
    }
}

/// A divisor the compiler knows but that is not a constant expression divides at run
/// time by CSIR's rules (RCP(0) = 0); only a constant expression is "division by zero".
#[test]
fn known_zero_divisors_that_are_not_constant_expressions_compile() {
    let body =
        "float z = u.x - u.x; float k = 0.0; c = vec4(1.0 / z, 2.0 / k, u.y / (u.x - u.x), 3.0);";
    let s = build(&frag_src("", body), Stage::Fragment);
    let got = run(&s, &[[5.0, 7.0, 0.0, 0.0]], &[], &csir::exec::NoSamplers).color;
    assert_eq!(got, [0.0, 0.0, 0.0, 3.0]);
}

/// GLSL 3.30 §3.1: a CR, an LF or CR LF ends a line; positions count lines alike.
#[test]
fn every_line_end_counts_one_line() {
    for end in ["\n", "\r\n", "\r"] {
        let src = [
            "#version 330 core",
            "out vec4 c;",
            "void main() { c = vec4(zz); }",
            "",
        ]
        .join(end);
        assert_eq!(
            errors(&src, Stage::Fragment),
            "t.glsl:3:24: error: unknown identifier 'zz'\nvoid main() { c = vec4(zz); }\n                       ^\n",
            "{end:?}"
        );
    }
}

/// GLSL 1.10 §7.1: a vertex shader must write gl_Position.
#[test]
fn a_vertex_shader_must_write_gl_position() {
    let src = "#version 330 core\nin vec4 p;\nout vec4 v;\nvoid main() { v = p; }\n";
    assert_eq!(
        messages(src, Stage::Vertex),
        [
            "the vertex shader never writes gl_Position (GLSL 1.10 §7.1: its value, and so every vertex's position, would be undefined)"
        ]
    );
    let src = "#version 330 core\nin vec4 p;\nvoid main() { if (p.x > 0.0) gl_Position = p; }\n";
    assert!(compile(src, "t", Stage::Vertex, &Limits::default()).is_ok());
}

#[test]
fn unsupported_constructs_are_named() {
    let cases = [
        ("float f[3][2];", "arrays of arrays are not supported"),
        (
            "out vec4 o[2];",
            "arrays of vertex inputs and fragment outputs are not supported",
        ),
        ("volatile in vec3 x;", "unsupported qualifier 'volatile'"),
        ("uniform dmat3 m;", "type 'dmat3' is not supported"),
        (
            "uniform uint k;",
            "`uint` needs the extended profile (the seed's CSIR keeps integers in float \
             registers; --profile extended)",
        ),
    ];
    for (decl, want) in cases {
        assert_eq!(
            messages(&frag_src(decl, ""), Stage::Fragment),
            vec![want],
            "{decl}"
        );
    }
    let bodies = [
        (
            "int i = 0; while (i < int(u.x)) { i++; }",
            "CSIR has no loops: the trip count of this loop cannot be determined at compile time",
        ),
        (
            "switch (1) { case 1.5: break; }",
            "a case label must be a constant integer expression (GLSL 1.30 §6.2)",
        ),
        ("break;", "break is only valid inside a loop"),
        (
            "c = vec4(gl_VertexID);",
            "gl_VertexID is not available in a fragment shader",
        ),
        (
            "gl_FragColor = vec4(1.0);",
            "'c' cannot be declared in a shader that writes gl_FragColor: a fragment shader \
             writes either gl_FragColor/gl_FragData or its own output",
        ),
        (
            "c = texture(u, vec2(0.0));",
            "texture() expects a sampler2D, a vec2 (and an optional float bias)",
        ),
    ];
    for (body, want) in bodies {
        assert_eq!(
            messages(&frag_src("", body), Stage::Fragment),
            vec![want],
            "{body}"
        );
    }
}

/// GLSL 1.10 §5.4.1: a vector constructor from one narrower vector has too few
/// components (one wider vector is cut to size, one scalar fills every component).
#[test]
fn a_constructor_from_a_narrower_vector_is_too_few_components() {
    for (decl, body) in [
        ("uniform vec2 u2;", "vec3 v = vec3(u2); c = vec4(v, 1.0);"),
        ("uniform ivec3 i3;", "ivec4 v = ivec4(i3); c = vec4(v);"),
    ] {
        assert_eq!(
            messages(&frag_src(decl, body), Stage::Fragment),
            ["constructor component count does not match the type"],
            "{body}"
        );
    }
    let s = build(
        &frag_src(
            "",
            "vec3 w = vec3(u); vec2 t = vec2(2.0); c = vec4(w.z, t, 1.0);",
        ),
        Stage::Fragment,
    );
    let out = run(&s, &[[1.0, 2.0, 3.0, 4.0]], &[], &csir::exec::NoSamplers).color;
    assert_eq!(out, [3.0, 2.0, 2.0, 1.0]);
}
