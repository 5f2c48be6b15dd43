//! Built-in functions, executed with asserted values.

mod backends;
mod common;
// The evaluations also check the TGSI back end and the CSI v2 round trip.
use backends::{eval, eval_u};
use common::*;
use csir::Stage;
use csir::exec::NearestClampTexture;

#[test]
fn geometric_functions() {
    let body = "c = vec4(length(u.xyz), dot(u.xy, v.xy), distance(u.xyz, v.xyz), length(u.w));";
    close(
        eval("", body, [3.0, 4.0, 0.0, -2.0], [1.0, 1.0, 0.0, 0.0]),
        [5.0, 7.0, (4.0f32 + 9.0).sqrt(), 2.0],
        1e-6,
    );
    let body = "c = vec4(cross(u.xyz, v.xyz), 0.0) + vec4(0.0, 0.0, 0.0, dot(u, v));";
    assert_eq!(
        eval("", body, [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 2.0]),
        [0.0, 0.0, 1.0, 2.0]
    );
    let body = "c = vec4(normalize(u.xyz), 0.0) + vec4(0.0, 0.0, 0.0, normalize(u.w));";
    close(
        eval_u(body, [3.0, 0.0, 4.0, -5.0]),
        [0.6, 0.0, 0.8, -1.0],
        1e-6,
    );
    let body = "c = vec4(reflect(u.xyz, vec3(0.0, 1.0, 0.0)), 0.0);";
    assert_eq!(eval_u(body, [1.0, -1.0, 0.0, 0.0]), [1.0, 1.0, 0.0, 0.0]);
    let body = "c = vec4(faceforward(vec3(0.0, 1.0, 0.0), u.xyz, vec3(0.0, 1.0, 0.0)), 0.0);";
    assert_eq!(eval_u(body, [0.0, -1.0, 0.0, 0.0]), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(eval_u(body, [0.0, 1.0, 0.0, 0.0]), [0.0, -1.0, 0.0, 0.0]);
}

#[test]
fn common_functions_with_scalar_vector_mixes() {
    let body = "c = vec4(min(u.xy, 0.5), max(u.z, v.z), clamp(u.w, 0.0, 1.0));";
    assert_eq!(
        eval("", body, [0.25, 0.75, 1.0, 3.0], [0.0, 0.0, 2.0, 0.0]),
        [0.25, 0.5, 2.0, 1.0]
    );
    let body = "c = vec4(clamp(u.xyz, vec3(0.0), vec3(1.0, 2.0, 3.0)), abs(u.w));";
    assert_eq!(eval_u(body, [-1.0, 5.0, 2.5, -7.0]), [0.0, 2.0, 2.5, 7.0]);
    let body =
        "c = vec4(mix(vec2(0.0, 10.0), vec2(2.0, 20.0), u.x), mix(vec2(0.0), vec2(4.0), u.yz));";
    assert_eq!(eval_u(body, [0.5, 0.25, 1.0, 0.0]), [1.0, 15.0, 1.0, 4.0]);
    let body = "ivec2 k = min(ivec2(int(u.x), 4), 3); c = vec4(float(k.x), float(k.y), float(abs(int(u.y))), float(sign(int(u.y))));";
    assert_eq!(eval_u(body, [7.0, -2.0, 0.0, 0.0]), [3.0, 3.0, 2.0, -1.0]);
}

#[test]
fn rounding_functions() {
    let body = "c = vec4(floor(u.x), ceil(u.y), fract(u.z), trunc(u.w));";
    assert_eq!(
        eval_u(body, [-1.5, -1.5, -1.25, -1.75]),
        [-2.0, -1.0, 0.75, -1.0]
    );
    assert_eq!(eval_u(body, [2.0, 2.25, 3.5, 1.75]), [2.0, 3.0, 0.5, 1.0]);
    let body = "c = vec4(floor(u.xyz), round(u.w));";
    assert_eq!(eval_u(body, [0.5, -0.5, 7.0, 2.6]), [0.0, -1.0, 7.0, 3.0]);
    let body = "c = vec4(mod(u.x, 3.0), mod(u.yz, vec2(2.0, 0.5)), sign(u.w));";
    assert_eq!(eval_u(body, [-1.0, 5.5, 1.25, -0.0]), [2.0, 1.5, 0.25, 0.0]);
    let body = "c = vec4(step(0.5, u.xy), step(vec2(1.0, 2.0), u.zw));";
    assert_eq!(eval_u(body, [0.25, 0.5, 1.0, 1.0]), [0.0, 1.0, 1.0, 0.0]);
    let body = "c = vec4(smoothstep(0.0, 2.0, u.x), smoothstep(vec2(0.0), vec2(1.0), u.yz), 0.0);";
    close(
        eval_u(body, [1.0, 0.25, 2.0, 0.0]),
        [0.5, 0.15625, 1.0, 0.0],
        1e-6,
    );
}

#[test]
fn exponential_and_trigonometric_functions() {
    let body = "c = vec4(sqrt(u.x), inversesqrt(u.y), exp2(u.z), pow(u.w, 2.0));";
    close(
        eval_u(body, [16.0, 4.0, 3.0, -3.0]),
        [4.0, 0.5, 8.0, 9.0],
        1e-5,
    );
    assert_eq!(eval_u("c = vec4(sqrt(u.x));", [0.0; 4]), [0.0; 4]);
    let body = "c = vec4(pow(u.xy, vec2(2.0, 0.5)), exp(u.z), tan(u.w));";
    close(
        eval_u(body, [3.0, 9.0, 1.0, 0.5]),
        [9.0, 3.0, std::f32::consts::E, 0.5f32.tan()],
        1e-5,
    );
    let body = "c = vec4(radians(180.0), degrees(u.x), sin(u.y), cos(u.z));";
    close(
        eval_u(body, [std::f32::consts::PI, 0.5, 0.25, 0.0]),
        [std::f32::consts::PI, 180.0, 0.5f32.sin(), 0.25f32.cos()],
        1e-5,
    );
}

#[test]
fn matrix_helpers() {
    let body = "mat3 m = mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, u.x); mat3 t = transpose(m); mat3 p = matrixCompMult(m, m);\n\
                c = vec4(t[0], p[2].z);";
    assert_eq!(eval_u(body, [9.0, 0.0, 0.0, 0.0]), [1.0, 4.0, 7.0, 81.0]);
    let body = "mat4 m = mat4(mat3(u.x)); mat3 n = mat3(m); c = vec4(m[3].xyw, n[2].z + m[2].z);";
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [0.0, 0.0, 1.0, 4.0]);
}

#[test]
fn texture_and_texture2d_sample_their_slots() {
    let src = "#version 330\nin vec2 uv;\nuniform sampler2D a;\nuniform sampler2D b;\nout vec4 c;\n\
               vec4 pick(sampler2D s, vec2 p) { return texture2D(s, p); }\n\
               void main() { c = texture(a, uv) + pick(b, uv); }";
    let s = build(src, Stage::Fragment);
    assert_eq!(s.interface.samp_hi, 1);
    let texs = vec![
        NearestClampTexture::solid([255, 0, 0, 255]),
        NearestClampTexture::solid([0, 0, 255, 0]),
    ];
    let o = run(&s, &[], &[[0.5, 0.5, 0.0, 0.0]], &texs);
    assert_eq!(o.color, [1.0, 0.0, 1.0, 1.0]);
}

#[test]
fn unsupported_builtins_say_so() {
    // log and log2 need the extended profile instead (tests/logs.rs), and so do
    // textureSize and texelFetch (tests/texture_size.rs, tests/texel_fetch.rs) and the
    // derivatives (tests/derivatives.rs).
    let src = frag_src("", "c = vec4(noise1(u.x));");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["noise1 is not supported".to_string()]
    );
    // shadow2D and the other lookups of GL 3.3 samplers are TEX (tests/texture_targets.rs).
    for f in [
        "textureSize",
        "texelFetch",
        "dFdx",
        "dFdy",
        "fwidth",
        "shadow2D",
    ] {
        let src = frag_src("", &format!("c = vec4({f}(u.x));"));
        let m = messages(&src, Stage::Fragment);
        assert!(
            m.len() == 1 && m[0].starts_with(&format!("`{f}` needs the extended profile")),
            "{m:?}"
        );
    }
}
