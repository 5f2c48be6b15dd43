//! Each l-value is evaluated once (GLSL 1.30 §6.1.1, ES 3.00 §6.1.1: a call's
//! arguments are evaluated exactly once, in order, and `out`/`inout` parameters are
//! copied back to the l-value computed then; GLSL 1.10 §5.7, §5.8: `++`, `--` and the
//! compound assignments read and write the one l-value their operand names).
//!
//! `f()` counts its calls in `n` and returns the next index, so an l-value whose index
//! expression ran twice shows both in the counter and in the element written. Every
//! case runs on every back end (interpreter, TGSI parity, CSI v2 round trip) with
//! a run-time index (`u.x` is 0 or more) so nothing folds away.

mod backends;
mod common;
use backends::eval;

/// `n` counts the calls of `f`, which returns `int(u.x) + n - 1`: the first call
/// gives `int(u.x)`, a second one the element after it.
const COUNTER: &str = "int n = 0;\n\
                       int f() { n++; return int(u.x) + n - 1; }\n";

/// The colour on every back end under the seed profile, checked equal to the
/// extended profile's (whose `int` is a 32-bit pattern with its own instructions).
fn run(decls: &str, body: &str, x: f32) -> [f32; 4] {
    let decls = format!("{COUNTER}{decls}");
    let u = [[x, 0.0, 0.0, 0.0], [0.0; 4]];
    let seed = eval(&decls, body, u[0], u[1]);
    let src = common::frag_src(&decls, body);
    let extended = csir::compile(&src, "t", csir::Stage::Fragment, &csir::Limits::EXTENDED)
        .unwrap_or_else(|e| panic!("{e}"));
    let got = common::run(&extended, &u, &[], &csir::exec::NoSamplers).color;
    assert_eq!(got, seed, "extended profile");
    seed
}

#[test]
fn inout_argument_evaluates_its_index_once() {
    let decls = "void foo(inout float x) { x += 10.0; }";
    let body = "vec4 v = vec4(1.0, 2.0, 3.0, 4.0); foo(v[f()]); c = vec4(float(n), v.xyz);";
    assert_eq!(run(decls, body, 0.0), [1.0, 11.0, 2.0, 3.0]);
    assert_eq!(run(decls, body, 1.0), [1.0, 1.0, 12.0, 3.0]);
}

#[test]
fn out_argument_evaluates_its_index_once() {
    let decls = "void set(out float x) { x = 9.0; }";
    let body = "vec4 v = vec4(1.0, 2.0, 3.0, 4.0); set(v[f()]); c = vec4(float(n), v.xyz);";
    assert_eq!(run(decls, body, 1.0), [1.0, 1.0, 9.0, 3.0]);
    // Two out arguments, in order: the first call gives 0, the second 1.
    let decls = "void two(out float a, out float b) { a = 7.0; b = 8.0; }";
    let body = "float w[3] = float[3](0.0, 0.0, 0.0); two(w[f()], w[f()]); \
                c = vec4(float(n), w[0], w[1], w[2]);";
    assert_eq!(run(decls, body, 0.0), [2.0, 7.0, 8.0, 0.0]);
}

#[test]
fn inout_matrix_column_and_element_and_swizzle() {
    let decls = "void foo(inout float x) { x += 10.0; }\n\
                 void bar(inout vec2 x) { x *= 2.0; }";
    // m[f()][f()]: column 0, row 1, each index once.
    let body = "mat2 m = mat2(1.0, 2.0, 3.0, 4.0); foo(m[f()][f()]); \
                c = vec4(float(n), m[0].y, m[1].x, m[1].y);";
    assert_eq!(run(decls, body, 0.0), [2.0, 12.0, 3.0, 4.0]);
    // A swizzle of an indexed column.
    let body = "mat2 m = mat2(1.0, 2.0, 3.0, 4.0); bar(m[f()].yx); \
                c = vec4(float(n), m[0].x, m[1].x, m[1].y);";
    assert_eq!(run(decls, body, 1.0), [1.0, 1.0, 6.0, 8.0]);
}

#[test]
fn compound_assignment_evaluates_its_index_once() {
    let body = "float a[3] = float[3](1.0, 2.0, 3.0); a[f()] += 10.0; \
                c = vec4(float(n), a[0], a[1], a[2]);";
    assert_eq!(run("", body, 1.0), [1.0, 1.0, 12.0, 3.0]);
    // As an expression: its value is the element's new value.
    let body = "float a[3] = float[3](1.0, 2.0, 3.0); float r = (a[f()] *= 5.0); \
                c = vec4(float(n), a[0], a[1], r);";
    assert_eq!(run("", body, 0.0), [1.0, 5.0, 2.0, 5.0]);
}

#[test]
fn increments_and_decrements_evaluate_their_index_once() {
    // Statement forms.
    for (op, d) in [("++", 1.0), ("--", -1.0)] {
        for body in [
            format!("vec3 v = vec3(5.0); v[f()]{op}; c = vec4(float(n), v);"),
            format!("vec3 v = vec3(5.0); {op}v[f()]; c = vec4(float(n), v);"),
        ] {
            assert_eq!(run("", &body, 1.0), [1.0, 5.0, 5.0 + d, 5.0], "{body}");
        }
    }
    // Expression forms: postfix gives the old value, prefix the new one.
    let body = "float a[2] = float[2](3.0, 7.0); float p = a[f()]++; float q = --a[f()]; \
                c = vec4(float(n), p, q, a[0] + a[1] * 10.0);";
    // n: the first f() gives 0 (a[0] 3 → 4, p = 3), the second 1 (a[1] 7 → 6, q = 6).
    assert_eq!(run("", body, 0.0), [2.0, 3.0, 6.0, 64.0]);
}

#[test]
fn swizzle_and_element_writes_evaluate_their_index_once() {
    let body = "vec4 v = vec4(0.0); v.wzyx[f()] = 5.0; c = vec4(float(n), v.xyz);";
    assert_eq!(run("", body, 1.0), [1.0, 0.0, 0.0, 5.0]);
    let body = "vec2 a[3]; a[f()].y += 4.0; c = vec4(float(n), a[0].y, a[1].y, a[2].y);";
    assert_eq!(run("", body, 2.0), [1.0, 0.0, 0.0, 4.0]);
    let body = "mat3 m = mat3(0.0); m[f()][f()] = 1.0; \
                c = vec4(float(n), m[1][2], m[1][1], m[2][2]);";
    assert_eq!(run("", body, 1.0), [2.0, 1.0, 0.0, 0.0]);
}

#[test]
fn struct_members_of_array_elements_evaluate_their_index_once() {
    let decls = "struct S { float x; vec2 y; };\n\
                 void foo(inout float x) { x += 10.0; }";
    let body = "S s[3]; s[0].x = 1.0; s[1].x = 2.0; s[2].x = 3.0;\n\
                s[f()].x += 1.0; s[f()].y.y++; foo(s[f()].x);\n\
                c = vec4(float(n), s[0].x, s[1].x + s[1].y.y * 100.0, s[2].x);";
    // The three calls give 0, 1 and 2.
    assert_eq!(run(decls, body, 0.0), [3.0, 2.0, 102.0, 13.0]);
}

#[test]
fn arguments_are_evaluated_in_order() {
    // `f()` in the second argument runs after the first argument's index.
    let decls = "void foo(inout float x, float k) { x += k; }";
    let body = "vec4 v = vec4(0.0); foo(v[f()], float(f()) * 10.0); c = vec4(float(n), v.xyz);";
    assert_eq!(run(decls, body, 0.0), [2.0, 10.0, 0.0, 0.0]);
}

#[test]
fn a_later_argument_does_not_change_an_earlier_ones_value() {
    // A later argument that changes a variable does not change the value an earlier
    // `in` or `inout` argument read from it.
    let decls = "float g(float a, float b) { return a * 10.0 + b; }\n\
                 void h(inout float a, float b) { a = a * 10.0 + b; }";
    let body = "float x = u.x; float r = g(x, x++); float y = u.x; h(y, y++); \
                c = vec4(r, x, y, float(n));";
    assert_eq!(run(decls, body, 2.0), [22.0, 3.0, 22.0, 0.0]);
}

#[test]
fn writability_is_checked_for_the_overload_called() {
    // `k(float)` writes its argument, `k(int)` only reads it: a uniform may be passed
    // to the second, not to the first.
    let decls = "uniform int ui;\n\
                 void k(out float x) { x = 5.0; }\n\
                 void k(int x) { n += x + 1; }";
    let body = "vec4 w = vec4(0.0); k(ui); k(w[f()]); c = vec4(float(n), w.xyz);";
    // k(ui) adds 1 (ui is 0), then f() adds 1 and gives index 1 + 2 - 1 = 2.
    assert_eq!(run(decls, body, 1.0), [2.0, 0.0, 0.0, 5.0]);
    let src = common::frag_src(&format!("{COUNTER}{decls}"), "k(u.x); c = vec4(0.0);");
    let m = common::messages(&src, csir::Stage::Fragment);
    assert_eq!(m, ["invalid assignment"], "{m:?}");
    // Where every overload writes, the same error.
    let src = common::frag_src("void s(out float x) { x = 1.0; }", "s(u.x); c = vec4(0.0);");
    assert_eq!(
        common::messages(&src, csir::Stage::Fragment),
        ["invalid assignment"]
    );
}
