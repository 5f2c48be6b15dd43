//! Functions returning arrays (GLSL 1.20 §4.1.9, §6.1; GLSL ES 3.00 §6.1): the call
//! is an array value wherever an array is one (initializer, index, `==`, `.length()`,
//! array argument, whole-array assignment). GLSL 1.10 and GLSL ES 1.00 allow arrays
//! as arguments but not as the return type; a prototype and its definition agree in
//! the array size of the return type.

mod common;
use common::{build, eval, located, run};
use csir::Stage;
use csir::exec::NoSamplers;

fn frag(decls: &str, body: &str, u: [f32; 4]) -> [f32; 4] {
    eval(decls, body, u, [0.0; 4])
}

#[test]
fn a_returned_array_initializes_indexes_and_measures() {
    let decls = "float[3] f() { return float[3](1.0, 2.0, 3.0); }";
    let got = frag(
        decls,
        "float a[3] = f(); c = vec4(a[0], f()[1], a[2], float(f().length()));",
        [0.0; 4],
    );
    assert_eq!(got, [1.0, 2.0, 3.0, 3.0]);
}

#[test]
fn a_returned_local_array_uses_the_arguments() {
    let decls = "vec4[2] g(vec4 a) { vec4 r[2]; r[0] = a; r[1] = a * 2.0; return r; }";
    let got = frag(
        decls,
        "vec4 b[2]; b = g(u); c = b[1] - b[0] + g(u)[0];",
        [1.0, 2.0, 3.0, 4.0],
    );
    // b[1] - b[0] = u, plus u.
    assert_eq!(got, [2.0, 4.0, 6.0, 8.0]);
}

#[test]
fn a_returned_array_compares_and_passes_as_an_argument() {
    let decls = "float[2] f(float x) { return float[2](x, x + 1.0); }\n\
                 float sum(float a[2]) { return a[0] + a[1]; }";
    let body = "float b[2] = float[2](1.0, 2.0);\n\
                c = vec4(f(u.x) == b ? 1.0 : 0.0, f(u.y) != b ? 1.0 : 0.0, sum(f(u.z)), 0.0);";
    assert_eq!(
        frag(decls, body, [1.0, 1.0, 5.0, 0.0]),
        [1.0, 0.0, 11.0, 0.0]
    );
    assert_eq!(
        frag(decls, body, [2.0, 0.0, 0.0, 0.0]),
        [0.0, 1.0, 1.0, 0.0]
    );
}

/// Early returns inside conditionals leave the elements of whichever `return` ran.
#[test]
fn early_returns_pick_the_taken_return() {
    let decls = "float[2] pick(float x) {\n\
                   if (x > 0.0) return float[2](1.0, x);\n\
                   for (int i = 0; i < 3; i++) { if (float(i) == -x) return float[2](2.0, float(i)); }\n\
                   return float[2](3.0, 3.0);\n\
                 }";
    let body = "float a[2] = pick(u.x); c = vec4(a[0], a[1], pick(u.y)[0], pick(u.y)[1]);";
    assert_eq!(
        frag(decls, body, [5.0, -2.0, 0.0, 0.0]),
        [1.0, 5.0, 2.0, 2.0]
    );
    assert_eq!(
        frag(decls, body, [-1.0, -7.0, 0.0, 0.0]),
        [2.0, 1.0, 3.0, 3.0]
    );
}

/// A call as a statement runs the function for its effects.
#[test]
fn a_call_as_a_statement_keeps_its_effects() {
    let decls = "float g;\nfloat[1] bump() { g += 1.0; return float[1](g); }";
    let got = frag(
        decls,
        "g = 0.0; bump(); bump(); c = vec4(g, bump()[0], 0.0, 0.0);",
        [0.0; 4],
    );
    assert_eq!(got, [2.0, 3.0, 0.0, 0.0]);
}

/// GLSL 1.10 §6.1 and GLSL ES 1.00 §6.1: "Arrays are allowed as arguments, but not as
/// the return type"; GLSL 1.20 allows them.
#[test]
fn array_return_types_need_glsl_1_20() {
    let body = "float[2] f() { return float[2](0.25, 0.5); }\n\
                void main() { float a[2] = f(); gl_FragColor = vec4(a[0], a[1], 0.0, 1.0); }\n";
    assert_eq!(
        located(&format!("#version 110\n{body}"), Stage::Fragment),
        [
            "t.glsl:2:6: function 'f' returns an array: GLSL 1.10 allows arrays as arguments \
             but not as the return type (GLSL 1.10 §6.1; GLSL 1.20 and GLSL ES 3.00 allow it)"
        ]
    );
    assert_eq!(
        located(
            &format!("#version 100\nprecision mediump float;\n{body}"),
            Stage::Fragment
        ),
        [
            "t.glsl:3:6: function 'f' returns an array: GLSL ES 1.00 allows arrays as \
             arguments but not as the return type (GLSL ES 1.00 §6.1; GLSL 1.20 and GLSL ES \
             3.00 allow it)"
        ]
    );
    let s = build(&format!("#version 120\n{body}"), Stage::Fragment);
    assert_eq!(run(&s, &[], &[], &NoSamplers).color, [0.25, 0.5, 0.0, 1.0]);
}

/// GLSL 1.20 §6.1: declarations with the same parameter types agree in return type,
/// an array's size included.
#[test]
fn a_prototype_agrees_in_the_returned_array_size() {
    let shader = |proto: &str| {
        format!(
            "#version 120\n{proto}\nfloat[3] f() {{ return float[3](0.5, 0.25, 1.0); }}\n\
             void main() {{ gl_FragColor = vec4(f()[0], f()[1], f()[2], 1.0); }}\n"
        )
    };
    assert_eq!(
        located(&shader("float[2] f();"), Stage::Fragment),
        [
            "t.glsl:3:1: function return type mismatch: 'f' returns float[3] here and float[2] \
             in its declaration at line 2; declarations with the same parameter types must \
             agree in return type (GLSL 1.20 §6.1)"
        ]
    );
    let s = build(&shader("float[3] f();"), Stage::Fragment);
    assert_eq!(run(&s, &[], &[], &NoSamplers).color, [0.5, 0.25, 1.0, 1.0]);
}

/// A returned array is not a scalar value, and must match the declared type and size.
#[test]
fn returned_arrays_keep_their_type() {
    let src = |decls: &str, body: &str| common::frag_src(decls, body);
    let cases = [
        (
            "float[2] f() { return float[3](1.0, 2.0, 3.0); }",
            "c = vec4(f()[0]);",
            "return type mismatch: the function returns float[2], not float[3]",
        ),
        (
            "float[2] f() { return float[2](1.0, 2.0); }",
            "c = vec4(f());",
            "function 'f' returns an array, which is not a value here",
        ),
    ];
    for (decls, body, want) in cases {
        let m = common::messages(&src(decls, body), Stage::Fragment);
        assert!(m.iter().any(|m| m.contains(want)), "{decls} {body}: {m:?}");
    }
}

/// GLSL ES 3.00 §6.1: nested calls, `?:` of returned arrays, a run-time index, calls
/// in a branch, and a function never called.
#[test]
fn es_3_00_returned_arrays_nest_and_select() {
    let src = "#version 300 es\nprecision mediump float;\nuniform vec4 u;\nout vec4 c;\n\
               float[2] f(float x) { return float[2](x, 2.0 * x); }\n\
               float[2] g(float a[2]) { float r[2] = a; r[0] += 1.0; return r; }\n\
               float[2] unused() { return float[2](0.0, 1.0); }\n\
               void main() {\n\
                 float b[2] = f(u.x);\n\
                 if (u.y > 100.0) { b = g(f(1.0)); b = g(f(2.0)); }\n\
                 float d[2] = u.z > 0.0 ? f(3.0) : g(b);\n\
                 c = vec4(b[0], b[1], d[0], d[1]) + vec4(g(f(u.x))[int(u.w)]);\n\
               }\n";
    let s = build(src, Stage::Fragment);
    let got = |u: [f32; 4]| run(&s, &[u], &[], &NoSamplers).color;
    // b = (1, 2), d = f(3) = (3, 6), g(f(1))[1] = 2.
    assert_eq!(got([1.0, 0.0, 1.0, 1.0]), [3.0, 4.0, 5.0, 8.0]);
    // b = g(f(2)) = (3, 4), d = g(b) = (4, 4), g(f(1))[0] = 2.
    assert_eq!(got([1.0, 200.0, 0.0, 0.0]), [5.0, 6.0, 6.0, 6.0]);
}
