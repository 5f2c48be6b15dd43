//! docs/csir-original.md A2: each fix gets a test that the original's behaviour (B §10)
//! fails.

mod common;
use common::*;
use csir::Stage;

#[test]
fn a_value_assigned_in_a_branch_is_not_folded_after_it() {
    // B §10.1: the original folds x to 2.0 after the if, whatever branch ran.
    let body = "float x = 1.0; if (u.x > 0.0) { x = 2.0; } c = vec4(x);";
    assert_eq!(eval_u(body, [-1.0, 0.0, 0.0, 0.0]), [1.0; 4]);
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [2.0; 4]);
    // The else branch reads the value from before the if, not the then branch's.
    let body = "float x = 1.0; if (u.x > 0.0) { x = 2.0; } else { x = x + 10.0; } c = vec4(x);";
    assert_eq!(eval_u(body, [-1.0, 0.0, 0.0, 0.0]), [11.0; 4]);
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [2.0; 4]);
    // Partial writes in a branch, and writes through a function called in a branch.
    let decls = "float g = 3.0; void bump() { g = g * 2.0; }";
    let body =
        "vec2 p = vec2(1.0, 2.0); if (u.x > 0.0) { p.y = 5.0; bump(); } c = vec4(p, g, 0.0);";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 5.0, 6.0, 0.0]
    );
    assert_eq!(
        eval(decls, body, [-1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 2.0, 3.0, 0.0]
    );
}

#[test]
fn local_matrices_copies_constructors_and_columns_work() {
    // B §10.2: MOVs into local matrix columns were deleted by the optimizer.
    let body = "mat4 m = mat4(1.0); m[3] = vec4(u.xyz, 1.0); mat4 n = m; c = n * vec4(1.0, 2.0, 3.0, 1.0);";
    assert_eq!(
        eval_u(body, [10.0, 20.0, 30.0, 0.0]),
        [11.0, 22.0, 33.0, 1.0]
    );
    let body = "mat3 m = mat3(u.xyz, v.xyz, vec3(0.0, 0.0, 1.0)); vec3 r = m * vec3(1.0, 1.0, 1.0); c = vec4(r, m[1].y);";
    assert_eq!(
        eval("", body, [1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0]),
        [5.0, 7.0, 10.0, 5.0]
    );
    // mat3 from 9 scalars, column-major.
    let body = "mat3 m = mat3(u.x, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0); c = vec4(m[0].x, m[1].x, m[2].z, m[2][1]);";
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [1.0, 4.0, 9.0, 8.0]);
}

#[test]
fn matrix_parameters_pass_every_column() {
    // B §10.3: a matrix parameter got one temp and one MOV (column 0 only).
    let decls = "vec4 apply(mat4 m, vec4 p) { return m * p; }";
    let body = "mat4 t = mat4(1.0); t[3] = u; c = apply(t, vec4(1.0, 1.0, 1.0, 1.0));";
    assert_eq!(
        eval(decls, body, [1.0, 2.0, 3.0, 1.0], [0.0; 4]),
        [2.0, 3.0, 4.0, 1.0]
    );
}

#[test]
fn vec_times_mat_scalar_times_mat_and_mat_plus_minus_follow_glsl() {
    // B §10.4: these silently used column 0.
    // m = [[1,2,3],[4,5,6],[7,8,9]] (columns); v*m = (dot(v,c0), dot(v,c1), dot(v,c2)).
    let decls = "const mat3 M = mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);";
    let body = "mat3 m = M * u.w; vec3 r = u.xyz * m; c = vec4(r, 0.0);";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 1.0, 1.0], [0.0; 4]),
        [4.0, 10.0, 16.0, 0.0]
    );
    let body = "mat3 m = M * u.w; mat3 s = 2.0 * m; mat3 a = s + m; mat3 d = a - M; c = vec4(d[0], d[2].z);";
    assert_eq!(
        eval(decls, body, [0.0, 0.0, 0.0, 1.0], [0.0; 4]),
        [2.0, 4.0, 6.0, 18.0]
    );
    // m[i] selects a column (the original rejected it).
    let body = "mat3 m = M * u.w; c = vec4(m[2], m[0][1]);";
    assert_eq!(
        eval(decls, body, [0.0, 0.0, 0.0, 1.0], [0.0; 4]),
        [7.0, 8.0, 9.0, 2.0]
    );
}

#[test]
fn integer_division_truncates_toward_zero_exactly() {
    // B §10.7: `/` never truncated (7/2 was 3.5).
    let body = "int a = int(u.x); int b = int(u.y); int q = a / b; c = vec4(float(q), float(a % b), float(7 / 2), float(-7 / 2));";
    assert_eq!(eval_u(body, [7.0, 2.0, 0.0, 0.0]), [3.0, 1.0, 3.0, -3.0]);
    assert_eq!(eval_u(body, [-7.0, 2.0, 0.0, 0.0]), [-3.0, -1.0, 3.0, -3.0]);
    assert_eq!(eval_u(body, [7.0, -2.0, 0.0, 0.0]), [-3.0, 1.0, 3.0, -3.0]);
    assert_eq!(eval_u(body, [-8.0, -2.0, 0.0, 0.0]), [4.0, 0.0, 3.0, -3.0]);
    // Exact for large operands (below 2^24), where a*rcp(b) alone is off by one.
    for (a, b) in [
        (16777215.0, 3.0),
        (16777213.0, 7.0),
        (9999999.0, 9999999.0),
        (49.0, 7.0),
        (1.0, 16777215.0),
        (16777215.0, 1.0),
        (14.0, 7.0),
        (20.0, 10.0),
        (99.0, 33.0),
    ] {
        let got = eval_u(
            "int q = int(u.x) / int(u.y); c = vec4(float(q), float(int(u.x) % int(u.y)), 0.0, 0.0);",
            [a, b, 0.0, 0.0],
        );
        let (ai, bi) = (a as i64, b as i64);
        assert_eq!(got[0], (ai / bi) as f32, "{a} / {b}");
        assert_eq!(got[1], (ai % bi) as f32, "{a} % {b}");
    }
}

#[test]
fn int_conversions_and_ivec_constructors() {
    // int(x) truncates; an int variable never holds a fraction; bool(x) is x != 0.
    let body = "int i = int(u.x); int h = int(u.y) / 2; bool b = bool(u.z); bool z = bool(u.w); c = vec4(float(i), float(h), float(b), float(z));";
    assert_eq!(eval_u(body, [-2.7, 3.0, 0.5, 0.0]), [-2.0, 1.0, 1.0, 0.0]);
    // ivecN constructors give ivecN (assignable to ivecN, truncating float lanes).
    let body = "ivec3 k = ivec3(u.xyz); ivec2 w = ivec2(1); vec3 f = vec3(k) + vec3(float(w.x + w.y)); c = vec4(f, float(k.z / 2));";
    assert_eq!(eval_u(body, [1.7, -1.7, 5.9, 0.0]), [3.0, 1.0, 7.0, 2.0]);
}

#[test]
fn void_functions_are_callable_as_statements_and_return_may_sit_in_branches() {
    let decls = "vec4 acc; void add(vec4 x) { acc += x; }\n\
                 float pick(float x) { if (x > 0.0) { return 1.0; } else if (x < 0.0) { return -1.0; } return 0.0; }\n\
                 void early(float x) { if (x > 5.0) return; acc.w = 7.0; }";
    let body = "acc = vec4(0.0); add(u); add(vec4(1.0)); early(u.x); c = vec4(acc.xyz, acc.w + pick(u.y) * 100.0);";
    assert_eq!(
        eval(decls, body, [1.0, 2.0, 3.0, 4.0], [0.0; 4]),
        [2.0, 3.0, 4.0, 107.0]
    );
    assert_eq!(
        eval(decls, body, [6.0, -2.0, 3.0, 4.0], [0.0; 4]),
        [7.0, -1.0, 4.0, -95.0]
    );
    assert_eq!(
        eval(decls, body, [6.0, 0.0, 3.0, 4.0], [0.0; 4]),
        [7.0, 1.0, 4.0, 5.0]
    );
}

#[test]
fn return_type_is_checked_and_every_function_is_checked() {
    let src = frag_src(
        "float f() { return vec2(1.0); }\nfloat unused(float x) { return x + y; }",
        "c = vec4(1.0);",
    );
    let e = errors(&src, Stage::Fragment);
    assert!(
        e.contains("t.glsl:5:20: error: return type mismatch"),
        "{e}"
    );
    assert!(e.contains("t.glsl:6:36: error: unknown identifier"), "{e}");
}

#[test]
fn scoping_is_lexical() {
    // B §10.3 (dynamic scoping): a function saw its caller's locals.
    let src = frag_src(
        "float f() { return secret; }",
        "float secret = 1.0; c = vec4(f());",
    );
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["unknown identifier 'secret'"]
    );
    // Shadowing in inner scopes; the outer variable is intact afterwards.
    let body = "float x = u.x; { float x = 5.0; x = x + 1.0; } for (int i = 0; i < 2; i++) { float x = 9.0; } c = vec4(x);";
    assert_eq!(eval_u(body, [3.0, 0.0, 0.0, 0.0]), [3.0; 4]);
}

#[test]
fn global_consts_fold_and_bound_loops() {
    // B §10.5/§10.6: global consts were unusable; loop bounds could not be named.
    let decls = "const int N = 3; const float K = 0.5 * 4.0; const vec2 V = vec2(K, 1.0);";
    let body = "float s = 0.0; for (int i = 0; i < N; i++) { s += K; } c = vec4(s, V, float(N));";
    let shader = build(&frag_src(decls, body), Stage::Fragment);
    // Everything folds: one CONST stored.
    let ops: Vec<_> = shader
        .ir
        .iter()
        .filter(|i| i.op == csir::Op::Const as u8)
        .collect();
    assert_eq!(ops.len(), 2, "{}", csir::ir::dump(&shader));
    assert_eq!(
        run(&shader, &[], &[], &csir::exec::NoSamplers).color,
        [6.0, 2.0, 1.0, 3.0]
    );
}

#[test]
fn no_cascade_after_a_syntax_error() {
    // B §1.14/§10.13: the original added "missing main" after any syntax error.
    let e = messages(
        "#version 330\nout vec4 c;\nvoid mian() { c = vec4(1.0) }\n",
        Stage::Fragment,
    );
    assert_eq!(e, vec!["expected ';'"]);
}

#[test]
fn writes_through_out_parameters_and_shadowed_globals_respect_branches() {
    let decls = "float g = 3.0; void setg() { g = 7.0; } float getg() { return g; } void outp(out float x) { x = 5.0; }";
    let body = "float k = 1.0; float g = 100.0; if (u.x > 0.0) { outp(k); setg(); } c = vec4(k, g, getg(), 0.0);";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [5.0, 100.0, 7.0, 0.0]
    );
    assert_eq!(
        eval(decls, body, [-1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 100.0, 3.0, 0.0]
    );
}
