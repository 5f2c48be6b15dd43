//! The constructs added for the renderer's scenes, executed with asserted values.

mod backends;
mod common;
// The evaluations also check the TGSI back end and the CSI v2 round trip.
use backends::{eval, eval_u};
use common::*;

#[test]
fn compound_assignment_and_steps() {
    let body = "vec3 a = u.xyz; a += vec3(1.0); a -= 0.5; a *= 2.0; a /= vec3(1.0, 2.0, 4.0);\n\
                int i = int(u.w); i++; ++i; i--; i *= 3; i /= 2; i -= 1;\n\
                c = vec4(a, float(i));";
    // a = ((u + 1 - 0.5) * 2) / (1,2,4); i = ((w + 1) * 3) / 2 - 1.
    assert_eq!(eval_u(body, [1.0, 2.0, 3.0, 4.0]), [3.0, 2.5, 1.75, 6.0]);
    let body = "mat3 m = mat3(2.0); m *= mat3(u.x); vec3 r = vec3(1.0); r *= m; c = vec4(r, 0.0);";
    assert_eq!(eval_u(body, [3.0, 0.0, 0.0, 0.0]), [6.0, 6.0, 6.0, 0.0]);
}

#[test]
fn swizzle_and_index_targets() {
    let body =
        "vec4 p = vec4(0.0); p.x = u.x; p.zy = u.xy * 2.0; p[3] = 9.0; p.rgb.b += 1.0; c = p;";
    assert_eq!(eval_u(body, [1.0, 2.0, 0.0, 0.0]), [1.0, 4.0, 3.0, 9.0]);
    let body = "vec4 q = u; q.xz = q.zx; q.st = vec2(q.q, 5.0); c = q;";
    assert_eq!(eval_u(body, [1.0, 2.0, 3.0, 4.0]), [4.0, 5.0, 1.0, 4.0]);
    let body = "mat3 m = mat3(0.0); m[1] = u.xyz; m[2].y = 7.0; m[0][2] = u.w; c = vec4(m[1].z, m[2].y, m[0].z, m[0].x);";
    assert_eq!(eval_u(body, [1.0, 2.0, 3.0, 4.0]), [3.0, 7.0, 4.0, 0.0]);
    // Output swizzle targets store the whole output.
    let body = "c = vec4(1.0); c.g = u.x; c.ba = vec2(0.25, 0.5);";
    assert_eq!(eval_u(body, [0.75, 0.0, 0.0, 0.0]), [1.0, 0.75, 0.25, 0.5]);
}

#[test]
fn ternary_runs_one_side() {
    let decls = "float n = 0.0; float hit(float x) { n += 1.0; return x; }";
    let body = "float r = u.x > 0.0 ? hit(2.0) : hit(3.0) * 10.0; c = vec4(r, n, u.x < 0.0 ? 1.0 : 0.0, true ? 4.0 : 5.0);";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [2.0, 1.0, 0.0, 4.0]
    );
    assert_eq!(
        eval(decls, body, [-1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [30.0, 1.0, 1.0, 4.0]
    );
}

#[test]
fn loops_break_and_continue() {
    let body = "float s = 0.0; for (int i = 0; i < 8; i++) { if (float(i) >= u.x) break; if (i == 1) continue; s += float(i); } c = vec4(s);";
    // i = 0, 2, 3 (stop at 4): 5.
    assert_eq!(eval_u(body, [4.0, 0.0, 0.0, 0.0]), [5.0; 4]);
    assert_eq!(eval_u(body, [100.0, 0.0, 0.0, 0.0]), [27.0; 4]);
    let body = "float s = 0.0; for (int i = 10; i > 0; i -= 3) { s += float(i); } for (float f = 0.0; f < 1.0; f += 0.25) { s += f; } c = vec4(s);";
    assert_eq!(eval_u(body, [0.0; 4]), [23.5; 4]);
    // An unconditional break ends the unrolling.
    let body = "float s = 0.0; for (int i = 0; i < 1000; i++) { s += 1.0; break; } c = vec4(s);";
    assert_eq!(eval_u(body, [0.0; 4]), [1.0; 4]);
    // Nested loops and a return from inside a loop.
    let decls = "float find(float t) { for (int i = 0; i < 4; i++) { for (int j = 0; j < 4; j++) { if (float(i * 4 + j) == t) return float(i * 10 + j); } } return -1.0; }";
    assert_eq!(
        eval(
            decls,
            "c = vec4(find(u.x));",
            [6.0, 0.0, 0.0, 0.0],
            [0.0; 4]
        ),
        [12.0; 4]
    );
    assert_eq!(
        eval(
            decls,
            "c = vec4(find(u.x));",
            [60.0, 0.0, 0.0, 0.0],
            [0.0; 4]
        ),
        [-1.0; 4]
    );
}

#[test]
fn out_and_inout_parameters_copy_back() {
    let decls =
        "void split(vec3 v, out float len, inout vec3 dir) { len = length(v); dir = dir * len; }";
    let body = "float l; vec3 d = vec3(1.0, 2.0, 0.0); split(u.xyz, l, d); c = vec4(d, l);";
    assert_eq!(
        eval(decls, body, [3.0, 4.0, 0.0, 0.0], [0.0; 4]),
        [5.0, 10.0, 0.0, 5.0]
    );
}

#[test]
fn conditional_discard_and_fragcoord() {
    let src = frag_src("", "if (u.x > 0.5) discard; c = gl_FragCoord;");
    let s = build(&src, csir::Stage::Fragment);
    let o = run(&s, &[[1.0, 0.0, 0.0, 0.0]], &[], &csir::exec::NoSamplers);
    assert!(o.discarded);
    let o = run(&s, &[[0.0; 4]], &[], &csir::exec::NoSamplers);
    assert!(!o.discarded);
    assert_eq!(o.color, [0.5, 1.5, 0.25, 1.0]);
}

#[test]
fn vertex_shader_outputs() {
    let src = "#version 330 core\nlayout(location = 2) in vec3 a;\nin vec2 b;\nuniform mat4 m;\nout vec2 o;\nout float f;\n\
               void main() { o = b * 2.0; f = a.z; gl_Position = m * vec4(a, 1.0); gl_Position.y = -gl_Position.y; }";
    let s = build(src, csir::Stage::Vertex);
    let sym = s.interface.find("b").unwrap();
    assert_eq!(sym.kind, csir::ir::SymbolKind::Attribute { location: 0 });
    assert!(s.interface.writes_position);
    let ident = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let attrs = [[0.5, 0.25, 0.0, 0.0], [0.0; 4], [1.0, 2.0, 3.0, 1.0]];
    let o = run(&s, &ident, &attrs, &csir::exec::NoSamplers);
    assert_eq!(o.position, [1.0, -2.0, 3.0, 1.0]);
    assert_eq!(&o.varyings[0][..2], &[1.0, 0.5]);
    assert_eq!(o.varyings[1][0], 3.0);
}

#[test]
fn equality_logic_and_not() {
    let body = "bool a = u.xy == vec2(1.0, 2.0); bool b = u.xy != vec2(1.0, 2.0); bool d = !(u.z > 0.0) ^^ true; bool e = a && !b || false;\n\
                c = vec4(float(a), float(b), float(d), float(e));";
    assert_eq!(eval_u(body, [1.0, 2.0, 1.0, 0.0]), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(eval_u(body, [1.0, 3.0, -1.0, 0.0]), [0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn uninitialized_locals_read_zero_and_deep_calls_inline() {
    let decls = "float f1(float x) { return x + 1.0; } float f2(float x) { return f1(x) * 2.0; } float f3(float x) { return f2(f1(x)); }";
    let body = "vec3 z; float k; c = vec4(z, k + f3(u.x));";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [0.0, 0.0, 0.0, 6.0]
    );
}

#[test]
fn return_in_main_skips_the_rest() {
    let body = "c = vec4(1.0); if (u.x > 0.0) { c = vec4(2.0); return; } c = vec4(3.0); for (int i = 0; i < 3; i++) { if (float(i) == u.y) return; c.x += 1.0; }";
    assert_eq!(eval_u(body, [1.0, 0.0, 0.0, 0.0]), [2.0; 4]);
    assert_eq!(eval_u(body, [-1.0, 1.0, 0.0, 0.0]), [4.0, 3.0, 3.0, 3.0]);
    assert_eq!(eval_u(body, [-1.0, 9.0, 0.0, 0.0]), [6.0, 3.0, 3.0, 3.0]);
    let src = "#version 330\nuniform float k;\nvoid main() { gl_Position = vec4(1.0); if (k > 0.0) return; gl_Position = vec4(2.0); }";
    let s = build(src, csir::Stage::Vertex);
    let o = run(&s, &[[1.0, 0.0, 0.0, 0.0]], &[], &csir::exec::NoSamplers);
    assert_eq!(o.position, [1.0; 4]);
    let o = run(&s, &[[0.0; 4]], &[], &csir::exec::NoSamplers);
    assert_eq!(o.position, [2.0; 4]);
}

#[test]
fn out_parameters_do_not_clobber_the_return_value() {
    let decls = "float f(float a, out vec4 o) { o = vec4(a); return a * 3.0; }";
    let body = "vec4 w; float r = f(u.x, w); c = vec4(r, w.x, 0.0, 0.0);";
    assert_eq!(
        eval(decls, body, [2.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [6.0, 2.0, 0.0, 0.0]
    );
}

#[test]
fn logical_operators_short_circuit_calls() {
    let decls = "float n = 0.0; bool tick(bool r) { n += 1.0; return r; }";
    let body = "bool a = u.x > 0.0 && tick(true); bool b = u.x > 0.0 || tick(false); bool k = false && tick(true); c = vec4(float(a), float(b), float(k), n);";
    assert_eq!(
        eval(decls, body, [1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [1.0, 1.0, 0.0, 1.0]
    );
    assert_eq!(
        eval(decls, body, [-1.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [0.0, 0.0, 0.0, 1.0]
    );
}
