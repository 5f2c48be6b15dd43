//! Regression tests for the wrong values the differential tester (`tools/difftest`,
//! docs/robustness.md "Differential testing") found. Each compares a program whose
//! inputs are uniforms with the same program whose inputs are constants (folded by
//! the front end): the bits must be the same (glsl-dialects.md: "constant folding
//! calls the interpreters' own functions").

mod common;
use common::{build, run};
use csir::Stage;
use csir::exec::NoSamplers;

/// `expr` over `vec4 u` at run time and with `u` a constant: both colours' bits.
fn run_time_and_folded(expr: &str, u: [f32; 4]) -> ([u32; 4], [u32; 4]) {
    let body = format!("void main() {{ c = {expr}; }}\n");
    let run_time = build(
        &format!("#version 330 core\nuniform vec4 u;\nout vec4 c;\n{body}"),
        Stage::Fragment,
    );
    let folded = build(
        &format!(
            "#version 330 core\nconst vec4 u = vec4({:?}, {:?}, {:?}, {:?});\nout vec4 c;\n{body}",
            u[0], u[1], u[2], u[3]
        ),
        Stage::Fragment,
    );
    let a = run(&run_time, &[u], &[], &NoSamplers)
        .color
        .map(f32::to_bits);
    let b = run(&folded, &[], &[], &NoSamplers).color.map(f32::to_bits);
    (a, b)
}

/// Finding 2 (difftest seed 248, transform `constify`): `cos(1.875)` folded with the
/// platform's `f32::cos` was 0xbe995c75, the interpreters' COS gives 0xbe995c74.
#[test]
fn folded_cos_has_the_interpreters_bits() {
    let (a, b) = run_time_and_folded(
        "vec4(cos(u.x), cos(u.y), sin(u.z), sin(u.w))",
        [1.875, 0.875, 1.875, -2.5],
    );
    assert_eq!(a, b);
    assert_eq!(a[0], 0xbe99_5c74, "COS(1.875) of exec::math::cos");
}

/// The same over a sweep of arguments for SIN, COS and POW (every folded lane must
/// match the instruction's).
#[test]
fn folded_sin_cos_pow_match_run_time_over_a_sweep() {
    for k in 0..24 {
        let x = -6.0 + k as f32 * 0.53;
        let y = 0.3 + k as f32 * 0.17;
        let (a, b) = run_time_and_folded(
            "vec4(sin(u.x), cos(u.x), pow(u.y, u.z), pow(u.y, -u.w))",
            [x, y, 1.37 + k as f32 * 0.11, 0.61],
        );
        assert_eq!(a, b, "x = {x}, y = {y}");
    }
}

/// Finding 3 (difftest seed 1000, transform `constify`): a function returning a global
/// that is also its `out` argument returned the value copied back, not the value at
/// the `return` (GLSL 1.30 §6.1.1: `out` parameters are copied back after the call).
#[test]
fn a_returned_global_is_read_before_the_out_copy_back() {
    let src = common::frag_src(
        "float g = 0.25;\n\
         float f(out float p) { p = -0.5; p *= (mat4(1.0))[clamp(int(u.y * 3.0), 0, 3)].w; return g; }",
        "g *= acos(clamp(u.x, -1.0, 1.0)); float before = g; float r = f(g); c = vec4(g, r, before, 0.0);",
    );
    let s = build(&src, Stage::Fragment);
    let got = run(&s, &[[-0.125, 1.0, 0.0, 0.0]], &[], &NoSamplers).color;
    assert_eq!(got[0], -0.5, "g holds the out parameter after the call");
    assert_eq!(
        got[1].to_bits(),
        got[2].to_bits(),
        "f returned g as it was at the return"
    );
    let want = 0.25 * (-0.125f64).acos();
    assert!((got[1] as f64 - want).abs() < 1e-6, "{} vs {want}", got[1]);
}

/// Finding 4 (difftest seed 11511, transform `constify`): a swizzled assignment whose
/// right side is the variable itself (`v.yx = v`) wrote one lane at a time from the
/// register being written, so `v.yx = v` gave `(x, x)`, not `(y, x)` (GLSL 1.30 §5.8:
/// the right side is evaluated first).
#[test]
fn a_swizzled_self_assignment_reads_the_old_value() {
    let src = common::frag_src(
        "void swap(inout vec2 p) { p.ts = p; }",
        "vec2 a = u.xy; a.yx = a; vec2 b = u.xy; swap(b); vec3 d = u.xyz; d.zxy = d; \
         c = vec4(a, b.x, d.x);",
    );
    let s = build(&src, Stage::Fragment);
    let got = run(&s, &[[-1.75, -0.125, 3.0, 0.0]], &[], &NoSamplers).color;
    // a = (y, x); b = (y, x); d.zxy = d.xyz gives d = (y, z, x), so d.x = y.
    assert_eq!(got, [-0.125, -1.75, -0.125, -0.125]);
}

/// Finding 6: `s + z` with `s` a folded `+0.0` and `z` a run-time `-0.0` must be
/// `+0.0` (IEEE 754 §6.3), the bits the folded program gives; the lowering dropped
/// the `+ 0.0` as an identity and gave `-0.0`. Seed 102995 ("identity"), reduced:
/// `-(distance(g2, g2 * fone))` is `-0.0` at run time and
/// `-0.5 + dot(g2, vec3(1.0, 0.5, 0.25))` folds to `+0.0`. `x + (-0.0)` and
/// `x - 0.0` stay identities (exact for every `x`).
#[test]
fn adding_a_folded_zero_keeps_the_sign_rule() {
    // u.x = 1.0 (the uniform `fone`), u.y = -0.0
    let u = [1.0, -0.0, 0.0, 0.0];
    let (rt, folded) = run_time_and_folded(
        "vec4(0.5 * u.x - 0.5 + (-0.0 * u.x), 0.0 + u.y, u.y + 0.0, (u.y + (-0.0)) - 0.0)",
        u,
    );
    // +0 + -0 = +0, +0 + -0 = +0, -0 + +0 = +0, (-0 + -0) - (+0) = -0
    let want = [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x8000_0000];
    assert_eq!(rt, want, "run time");
    assert_eq!(folded, want, "folded");
}
