//! Run-time indexes in assignment targets (docs/glsl-dialects.md, "Run-time
//! indexes"): vector lanes, matrix columns and elements, elements of arrays of
//! vectors and matrices, after a swizzle, as `out`/`inout` arguments and in compound
//! assignment. Each is lowered onto `IF index == k` per element, so every back end
//! agrees (checked here on TGSI and a CSI v2 round trip); an out-of-range index
//! writes nothing and reads element 0.

mod backends;
mod common;
use backends::{eval, eval_u};
use common::messages;
use csir::Stage;

#[test]
fn vector_lane_writes() {
    let body = "vec4 w = vec4(1.0, 2.0, 3.0, 4.0); w[int(u.x)] = 9.0; c = w;";
    for (i, want) in [
        (0.0, [9.0, 2.0, 3.0, 4.0]),
        (2.0, [1.0, 2.0, 9.0, 4.0]),
        (3.0, [1.0, 2.0, 3.0, 9.0]),
        (4.0, [1.0, 2.0, 3.0, 4.0]),
        (-1.0, [1.0, 2.0, 3.0, 4.0]),
    ] {
        assert_eq!(eval_u(body, [i, 0.0, 0.0, 0.0]), want, "index {i}");
    }
    // After a swizzle, the index counts in the swizzle's order.
    let body = "c = vec4(0.0); c.wzyx[int(u.x)] = 1.0;";
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [0.0, 0.0, 1.0, 0.0]);
    // Compound assignment reads and writes the same lane.
    let body = "vec3 w = vec3(1.0, 2.0, 3.0); w[int(u.x)] *= u.y; c = vec4(w, 0.0);";
    assert_eq!(eval_u(body, [1.0, 10.0, 0.0, 0.0]), [1.0, 20.0, 3.0, 0.0]);
}

#[test]
fn matrix_column_and_element_writes() {
    let body = "mat3 m = mat3(1.0); m[int(u.x)] = vec3(5.0, 6.0, 7.0);\n\
                c = vec4(m[0].x, m[1].y, m[2].z, m[1].x);";
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [1.0, 6.0, 1.0, 5.0]);
    assert_eq!(eval_u(body, [3.0, 0.0, 0.0, 0.0]), [1.0, 1.0, 1.0, 0.0]);
    // Both indexes at run time; `m[i][j] += x`.
    let body = "mat4 m = mat4(0.0); m[int(u.x)][int(u.y)] = 3.0; m[int(u.x)][int(u.y)] += u.z;\n\
                c = vec4(m[2][1], m[1][2], m[2][2], m[int(u.x)][int(u.y)]);";
    assert_eq!(eval_u(body, [2.0, 1.0, 0.5, 0.0]), [3.5, 0.0, 0.0, 3.5]);
    assert_eq!(eval_u(body, [1.0, 2.0, 0.5, 0.0]), [0.0, 3.5, 0.0, 3.5]);
    // A constant column, a run-time row.
    let body = "mat2 m = mat2(1.0, 2.0, 3.0, 4.0); m[1][int(u.x)] = -1.0; c = vec4(m[0], m[1]);";
    assert_eq!(eval_u(body, [0.0; 4]), [1.0, 2.0, -1.0, 4.0]);
}

#[test]
fn array_element_parts() {
    // `a[i].x`, `a[i][j]` and `a[i][j][k]` for arrays of vectors and matrices.
    let body = "vec2 a[3]; a[int(u.x)].y = 4.0; c = vec4(a[0].y, a[1].y, a[2].y, a[2].x);";
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [0.0, 0.0, 4.0, 0.0]);
    let body = "mat2x2 a[2] = mat2x2[2](mat2(1.0), mat2(2.0));\n\
                a[int(u.x)][int(u.y)][int(u.z)] = 8.0; a[int(u.x)][0] += vec2(0.5);\n\
                c = vec4(a[1][0], a[1][1]);";
    assert_eq!(eval_u(body, [1.0, 1.0, 0.0, 0.0]), [2.5, 0.5, 8.0, 2.0]);
    assert_eq!(eval_u(body, [0.0, 1.0, 0.0, 0.0]), [2.0, 0.0, 0.0, 2.0]);
}

#[test]
fn out_and_inout_arguments() {
    let decls = "void set(out float x) { x = 3.0; }\n\
                 void bump(inout int i, inout float x) { i = 0; x += 1.0; }";
    // `set(w[i])`: the out value lands in the lane the index chose at the call.
    let body = "vec4 w = vec4(0.0); set(w[int(u.x)]); int i = int(u.y); bump(i, w[i]); c = w;";
    assert_eq!(
        eval(decls, body, [1.0, 2.0, 0.0, 0.0], [0.0; 4]),
        [0.0, 3.0, 1.0, 0.0]
    );
}

#[test]
fn varying_matrix_columns_in_a_vertex_shader() {
    let src = "#version 330 core\nin vec4 p;\nuniform vec4 u;\nout mat2 m;\n\
               void main() { gl_Position = p; m = mat2(0.0); m[int(u.x)] = vec2(1.0, 2.0); m[1][int(u.y)] += 5.0; }";
    let s = common::build(src, Stage::Vertex);
    backends::check(&s, &[[1.0, 0.0, 0.0, 0.0]], &[[0.5; 4]]);
    let out = common::run(
        &s,
        &[[1.0, 0.0, 0.0, 0.0]],
        &[[0.5; 4]],
        &csir::exec::NoSamplers,
    );
    assert_eq!(
        &out.varyings[..2],
        &[[0.0, 0.0, 0.0, 0.0], [6.0, 2.0, 0.0, 0.0]]
    );
}

#[test]
fn errors_stay_named() {
    let src = common::frag_src("", "float f = 1.0; f[int(u.x)] = 2.0; c = vec4(f);");
    assert_eq!(messages(&src, Stage::Fragment), ["index out of range"]);
    let src = common::frag_src("", "vec4 w; w[u.x] = 2.0; c = w;");
    assert_eq!(messages(&src, Stage::Fragment), ["an index must be an int"]);
    // Every element of a large array under its own IF: the pool is the limit.
    let src = common::frag_src(
        "",
        "mat2 a[32]; a[int(u.x)][int(u.y)][int(u.z)] = 1.0; c = vec4(a[1][1], 0.0, 0.0);",
    );
    let m = messages(&src, Stage::Fragment);
    assert!(m.len() == 1 && m[0].contains("instruction"), "{m:?}");
}

/// A known index that is not a constant expression follows the run-time rule when it
/// is out of range (GLSL 1.20 §4.3.3, §4.1.9; docs/glsl-dialects.md): reads give
/// element 0, writes write nothing. A constant expression out of range stays an error.
#[test]
fn known_indexes_out_of_range_follow_the_run_time_rule() {
    let body = "float a[3] = float[3](4.0, 5.0, 6.0); int i = 20; int j = -2;\n\
                vec4 v = vec4(1.0, 2.0, 3.0, 4.0); mat2 m = mat2(7.0);\n\
                a[j] = 9.0; v[i] = 9.0; m[i] = vec2(9.0);\n\
                c = vec4(a[i] + a[1], v[j] + v.w, m[j].x + m[1].y, a[0] + a[2]);";
    assert_eq!(eval_u(body, [0.0; 4]), [9.0, 5.0, 14.0, 10.0]);
    // A loop counter past the end in an iteration a run-time exit decides.
    let body = "float a[2] = float[2](1.0, 2.0); float s = 0.0;\n\
                for (int k = 0; k < 3; k++) { if (float(k) >= u.x) break; s += a[k]; }\n\
                c = vec4(s);";
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [3.0; 4]);
    assert_eq!(eval_u(body, [5.0, 0.0, 0.0, 0.0]), [4.0; 4]);
    for (body, message) in [
        (
            "const int i = 2; float a[2]; a[0] = 1.0; c = vec4(a[i]);",
            "array index 2 is out of range for a (2 elements)",
        ),
        (
            "vec4 v = vec4(1.0); c = vec4(v[1 + 3]);",
            "index out of range",
        ),
        (
            "mat2 m = mat2(1.0); m[-1] = vec2(0.0); c = vec4(m[0], 0.0, 0.0);",
            "index out of range",
        ),
    ] {
        let src = common::frag_src("", body);
        assert_eq!(messages(&src, Stage::Fragment), [message], "{body}");
    }
}

/// The same rule for every dialect and profile: a known out-of-range index of a local
/// array that is not a constant expression reads element 0 (GLSL 1.10, whose `int`s
/// the extended profile holds as integer bit patterns, and the seed profile's floats).
#[test]
fn known_indexes_follow_the_run_time_rule_in_every_profile() {
    let src = "#version 110\nvoid main() {\n  vec4 a[8];\n  a[0] = vec4(0.25);\n  \
               int i = 9;\n  gl_FragColor = a[i] + vec4(0.0, 0.0, 0.0, 0.5);\n}\n";
    for limits in [csir::Limits::default(), csir::Limits::SEED] {
        let shader = csir::compile(src, "k.frag", Stage::Fragment, &limits)
            .unwrap_or_else(|e| panic!("{e}"));
        let color = common::run(&shader, &[], &[], &csir::exec::NoSamplers).color;
        assert_eq!(color, [0.25, 0.25, 0.25, 0.75], "{:?}", limits.profile);
    }
}
