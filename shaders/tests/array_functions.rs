//! Arrays as function parameters (GLSL 1.20 §6.1: copied in, and back for `out` and
//! `inout`, element by element) and whole-array comparison (GLSL 1.20 §5.7), with
//! asserted values on every back end (issues 14 and 21).

mod backends;
mod common;
use backends::eval;
use common::messages;
use csir::Stage;

#[test]
fn arrays_pass_in_out_and_inout() {
    let decls = "float sum(float a[3]) { float s = 0.0; for (int i = 0; i < 3; i++) s += a[i]; return s; }\n\
                 float last(float[3] a) { return a[2]; }\n\
                 void fill(out vec2 a[2], float x) { a[0] = vec2(x); a[1] = vec2(x * 2.0, 1.0); }\n\
                 void bump(inout int b[2]) { b[0] = 2; b[1] = b[1] * 3; }";
    let body = "float a[3] = float[3](u.x, 2.0, 3.0); vec2 v[2]; fill(v, u.y); int b[2]; b[0] = 1; b[1] = int(u.z); bump(b);\n\
                c = vec4(sum(a), last(float[3](1.0, 2.0, u.w)), v[1].x + v[0].y * 10.0, float(b[0] * 100 + b[1]));";
    assert_eq!(
        eval(decls, body, [1.0, 0.5, 4.0, 7.0], [0.0; 4]),
        [6.0, 7.0, 6.0, 212.0]
    );
    // The callee's writes to an `in` array do not reach the caller.
    let decls = "float f(float a[2]) { a[0] = 9.0; return a[0] + a[1]; }";
    let body = "float a[2] = float[2](u.x, u.y); float r = f(a); c = vec4(r, a[0], a[1], 0.0);";
    assert_eq!(
        eval(decls, body, [1.0, 2.0, 0.0, 0.0], [0.0; 4]),
        [11.0, 1.0, 2.0, 0.0]
    );
}

#[test]
fn array_arguments_must_match_exactly() {
    let src = common::frag_src(
        "float f(float a[3]) { return a[0]; }",
        "float b[2] = float[2](1.0, 2.0); c = vec4(f(b));",
    );
    let m = messages(&src, Stage::Fragment);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].starts_with("argument type mismatch"), "{m:?}");
    let src = common::frag_src(
        "void f(out float a[2]) { a[0] = 1.0; a[1] = 2.0; }",
        "f(float[2](1.0, 2.0)); c = u;",
    );
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["an out or inout array argument must be an array variable"]
    );
}

#[test]
fn whole_arrays_compare() {
    // piglit glsl-array-compare: equal arrays, then one element differs at run time.
    let body = "float a[2] = float[2](3.3, u.x); float b[2] = float[2](3.3, 3.5);\n\
                c = vec4(a == b, a != b, b == float[2](3.3, 3.5), a != a);";
    assert_eq!(
        eval("", body, [3.5, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 0.0, 1.0, 0.0]
    );
    assert_eq!(
        eval("", body, [3.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [0.0, 1.0, 1.0, 0.0]
    );
    let src = common::frag_src("", "float a[2]; float b[3]; c = vec4(a == b);");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["operator ==: the arrays differ in type or size"]
    );
}

/// GLSL 1.20 §6.1: an array parameter's size is part of its type, so overloads may
/// differ only in array size, or in taking an array or a single value; two definitions
/// with the same sizes are still one function defined twice.
#[test]
fn overloads_may_differ_in_array_size() {
    let decls = "float f(float a[2]) { return a[0] + 10.0; }\n\
                 float f(float a[3]) { return a[2] + 20.0; }\n\
                 float f(float a) { return a + 30.0; }";
    let body = "float x[2] = float[2](u.x, 0.0); float y[3] = float[3](0.0, 0.0, u.y);\n\
                c = vec4(f(x), f(y), f(u.z), 0.0);";
    assert_eq!(
        eval(decls, body, [1.0, 2.0, 3.0, 0.0], [0.0; 4]),
        [11.0, 22.0, 33.0, 0.0]
    );
    let src = "#version 120\nfloat f(float a[2]) { return a[0]; }\nfloat f(float b[2]) { return b[1]; }\n\
               void main() { gl_FragColor = vec4(0.0); }\n";
    assert_eq!(
        messages(src, Stage::Fragment),
        [
            "duplicate symbol 'f': a function with these parameter types is already defined (GLSL 1.20 §6.1)"
        ]
    );
}
