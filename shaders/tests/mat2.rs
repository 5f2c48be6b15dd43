//! `mat2`: a front-end type of two vec2 columns; `mat2 * vec2` and
//! `mat2 * mat2` are column products and sums (MULMV and MULMM take 3 or 4 columns),
//! everything else is the generic matrix code. Executed with asserted values on every
//! back end.

mod backends;
mod common;
use backends::eval_u;
use common::messages;
use csir::Stage;

#[test]
fn rotations_products_and_constructors() {
    // The usual 2D rotation: mat2(c, s, -s, c) * p rotates p by the angle.
    let body = "float a = u.x; mat2 r = mat2(cos(a), sin(a), -sin(a), cos(a)); vec2 p = r * u.yz;\n\
                mat2 twice = r * r; c = vec4(p, twice * vec2(1.0, 0.0));";
    let a = 0.5f32;
    let (s, co) = (a.sin(), a.cos());
    let got = eval_u(body, [a, 1.0, 0.0, 0.0]);
    let want = [co, s, (2.0 * a).cos(), (2.0 * a).sin()];
    for k in 0..4 {
        assert!((got[k] - want[k]).abs() < 1e-6, "{got:?} {want:?}");
    }
    // Row-vector product, transpose, columns, scalar and component-wise products,
    // resizing to and from mat3.
    let body = "mat2 m = mat2(1.0, 2.0, 3.0, 4.0) * u.x; vec2 row = vec2(1.0, 1.0) * m;\n\
                mat2 t = transpose(m); mat3 big = mat3(m); mat2 back = mat2(mat3(u.x));\n\
                c = vec4(row, t[0].y + matrixCompMult(m, m)[1].x, big[2].z + back[1].y + m[1][1]);";
    // m = [[2,4],[6,8]] (columns); row = (6, 14); t[0].y = 6; compmult[1].x = 36.
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [6.0, 14.0, 42.0, 11.0]);
    let body = "mat2 m = mat2(u.x); m[1] = u.zw; m += mat2(1.0); c = vec4(m[0], m[1]);";
    assert_eq!(eval_u(body, [3.0, 0.0, 5.0, 6.0]), [4.0, 0.0, 5.0, 7.0]);
}

#[test]
fn mat2_shape_errors_name_the_types() {
    let src = common::frag_src("", "mat2 m = mat2(1.0); vec3 v = m * vec3(1.0);");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["cannot multiply mat2 by vec3"]
    );
}
