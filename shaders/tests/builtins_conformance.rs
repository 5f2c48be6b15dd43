//! Built-ins of GLSL 1.30 §8, with asserted values on every back end: `outerProduct` and
//! other float-only built-ins called with int vectors (GLSL 1.20 §6.1: the implicit
//! int → float conversion of arguments when no overload matches exactly), `refract`,
//! `modf`, `isnan`/`isinf` (exact per IEEE 754), and the built-in constants
//! (`gl_MaxVertexAttribs`, `gl_MaxLights`, ...).

mod backends;
mod common;
use backends::{eval, eval_u};
use common::{close, messages};
use csir::Stage;

#[test]
fn outer_product_of_int_vectors() {
    let body = "mat3x2 m = outerProduct(ivec2(1, 2), ivec3(3, 4, int(u.x)));\n\
                c = vec4(m[0], m[2]);";
    assert_eq!(eval_u(body, [5.0, 0.0, 0.0, 0.0]), [3.0, 6.0, 5.0, 10.0]);
    // ES has no implicit conversion: the call matches no overload.
    let es = "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() {\n\
              mat2 m = outerProduct(ivec2(1), ivec2(2)); c = vec4(m[0], m[1]); }\n";
    assert_eq!(
        messages(es, Stage::Fragment),
        vec!["outerProduct takes two float vectors (vec2..vec4), not ivec2 and ivec2"]
    );
}

fn refract(i: [f32; 3], n: [f32; 3], eta: f32) -> [f32; 3] {
    let d = i[0] * n[0] + i[1] * n[1] + i[2] * n[2];
    let k = 1.0 - eta * eta * (1.0 - d * d);
    if k < 0.0 {
        return [0.0; 3];
    }
    let s = eta * d + k.sqrt();
    [0, 1, 2].map(|j| eta * i[j] - s * n[j])
}

#[test]
fn refract_bends_and_reflects_totally() {
    let body = "vec3 i = normalize(vec3(u.x, -1.0, 0.0)); vec3 r = refract(i, vec3(0.0, 1.0, 0.0), u.y);\n\
                c = vec4(r, dot(r, r));";
    for (x, eta) in [(1.0f32, 0.5f32), (0.3, 1.0 / 1.33), (3.0, 1.5), (0.0, 2.0)] {
        let len = (x * x + 1.0).sqrt();
        let want = refract([x / len, -1.0 / len, 0.0], [0.0, 1.0, 0.0], eta);
        let d = want.iter().map(|v| v * v).sum::<f32>();
        let got = eval_u(body, [x, eta, 0.0, 0.0]);
        close(got, [want[0], want[1], want[2], d], 1e-5);
    }
    // Total internal reflection gives the zero vector.
    assert_eq!(eval_u(body, [3.0, 1.5, 0.0, 0.0])[..3], [0.0, 0.0, 0.0]);
}

#[test]
fn modf_splits_with_the_sign_of_x() {
    let body = "vec2 i; vec2 f = modf(vec2(u.x, u.y), i); float j; float g = modf(-2.75, j);\n\
                c = vec4(f, i.x + 100.0 * i.y, g * 10.0 + j);";
    assert_eq!(
        eval_u(body, [3.5, -0.25, 0.0, 0.0]),
        [0.5, -0.25, 3.0, -7.5 - 2.0]
    );
    let got = eval_u(
        "vec2 i; vec2 f = modf(u.xy, i); c = vec4(f, i);",
        [-1.5, 7.0, 0.0, 0.0],
    );
    assert_eq!(got, [-0.5, 0.0, -1.0, 7.0]);
}

#[test]
fn isnan_and_isinf_are_exact() {
    let body = "c = vec4(isnan(u)) + 10.0 * vec4(isinf(u)) + 100.0 * vec4(isnan(u.w), isinf(v.x), 0.0, 0.0);";
    let u = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX];
    let got = eval("", body, u, [f32::MIN, 0.0, 0.0, 0.0]);
    assert_eq!(got, [1.0, 10.0, 10.0, 0.0]);
    let got = eval_u(
        "c = vec4(isnan(u.x), isinf(u.y), isnan(u.z), isinf(u.w));",
        [1e-40, -f32::INFINITY, 0.0, 1e38],
    );
    assert_eq!(got, [0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn built_in_constants() {
    let body = "c = vec4(gl_MaxVertexAttribs, gl_MaxDrawBuffers, gl_MaxTextureImageUnits, gl_MaxVaryingComponents);";
    assert_eq!(eval_u(body, [0.0; 4]), [8.0, 1.0, 4.0, 32.0]);
    // The compatibility ones (piglit built-in-constants), and sizing an array.
    let src = "#version 110\nvoid main() { float a[gl_MaxClipPlanes];\n\
               gl_FragColor = vec4(gl_MaxLights, gl_MaxClipPlanes, gl_MaxTextureUnits, gl_MaxTextureCoords) + vec4(float(a.length()) * 0.0); }\n";
    let s = common::build(src, Stage::Fragment);
    let got = common::run(&s, &[], &[], &csir::exec::NoSamplers).color;
    // gl_MaxClipPlanes is the renderer's 8 user clip planes (GLSL 1.10 §7.4 asks 6).
    assert_eq!(got, [8.0, 8.0, 2.0, 8.0]);
    let core = common::frag_src("", "c = vec4(gl_MaxLights);");
    assert_eq!(
        messages(&core, Stage::Fragment),
        vec!["unknown identifier 'gl_MaxLights'"]
    );
    let assign = common::frag_src("", "gl_MaxDrawBuffers = 2;");
    assert_eq!(
        messages(&assign, Stage::Fragment),
        vec!["cannot assign to const"]
    );
}
