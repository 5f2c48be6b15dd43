//! Matrices of every shape (GLSL 3.30 §4.1.6, §5.4.2, §5.10, §8.5): the non-square
//! `matCxR` types, `mat2`, `bvec` and non-square uniforms, and the matrix built-ins.
//! Expected values are worked out by hand from the specification's definitions.

mod backends;
mod common;
use common::{build, eval, frag_src, messages, run};
use csir::Stage;
use csir::exec::NoSamplers;

/// `c` of `frag_src(decls, body)` with uniform slots `slots` (u, v, then the rest in
/// declaration order).
fn eval_slots(decls: &str, body: &str, slots: &[[f32; 4]]) -> [f32; 4] {
    let s = build(&frag_src(decls, body), Stage::Fragment);
    run(&s, slots, &[], &NoSamplers).color
}

#[test]
fn non_square_products_follow_the_column_row_rules() {
    // m = mat2x3((1,2,3), (4,5,6)): 2 columns of 3 rows.
    let m = "mat2x3 m = mat2x3(u.x, 2.0, 3.0, 4.0, 5.0, 6.0);";
    // m * vec2(1, 10) = c0 + 10·c1 = (41, 52, 63)
    let got = eval(
        "",
        &format!("{m} c = vec4(m * vec2(v.x, 10.0), 0.0);"),
        [1.0; 4],
        [1.0; 4],
    );
    assert_eq!(got, [41.0, 52.0, 63.0, 0.0]);
    // vec3(1, 0, 2) * m = (dot(·, c0), dot(·, c1)) = (7, 16)
    let got = eval(
        "",
        &format!("{m} c = vec4(vec3(v.x, 0.0, 2.0) * m, 0.0, 0.0);"),
        [1.0; 4],
        [1.0; 4],
    );
    assert_eq!(got, [7.0, 16.0, 0.0, 0.0]);
    // mat3x2 t = transpose(m); (m * t) is mat3: column 0 = m * t[0] = m * (1, 4)
    let got = eval(
        "",
        &format!("{m} mat3x2 t = transpose(m); mat3 p = m * t; c = vec4(p[0], t[2].y);"),
        [1.0; 4],
        [1.0; 4],
    );
    assert_eq!(got, [17.0, 22.0, 27.0, 6.0]);
    // t * m is mat2: column 1 = t * (4, 5, 6) = (1·4+2·5+3·6, 4·4+5·5+6·6)
    let got = eval(
        "",
        &format!("{m} mat2 q = transpose(m) * m; c = vec4(q[0], q[1]);"),
        [1.0; 4],
        [1.0; 4],
    );
    assert_eq!(got, [14.0, 32.0, 32.0, 77.0]);
    // Constant-folded (u.x replaced by 1.0) gives the same.
    let got = eval(
        "",
        "mat2x3 m = mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0); mat2 q = transpose(m) * m; \
         c = vec4(q[0], q[1]);",
        [0.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [14.0, 32.0, 32.0, 77.0]);
}

#[test]
fn constructors_resize_between_shapes_with_the_identity() {
    // mat4x2(mat2x3): cell (c, r) where both have it, identity elsewhere.
    let got = eval(
        "",
        "mat2x3 m = mat2x3(u.x, 2.0, 3.0, 4.0, 5.0, 6.0); mat4x2 n = mat4x2(m); \
         c = vec4(n[1], n[2].x + n[3].y * 10.0, n[0].y);",
        [1.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [4.0, 5.0, 0.0 + 0.0 * 10.0, 2.0]);
    // mat3x4(s) is s on the diagonal.
    let got = eval(
        "",
        "mat3x4 d = mat3x4(u.x); c = vec4(d[2].z, d[2].w, d[0].x, d[1].x);",
        [7.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [7.0, 0.0, 7.0, 0.0]);
    // Scalar arithmetic and negation keep the shape.
    let got = eval(
        "",
        "mat3x2 a = mat3x2(u.x, 2.0, 3.0, 4.0, 5.0, 6.0); mat3x2 b = -(a * 2.0 + 1.0); \
         c = vec4(b[0], b[2]);",
        [1.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [-3.0, -5.0, -11.0, -13.0]);
    // matrixCompMult and == on a non-square shape.
    let got = eval(
        "",
        "mat2x4 a = mat2x4(u, u); a[1] = vec4(2.0); mat2x4 p = matrixCompMult(a, a); \
         c = vec4(p[0].y, p[1].w, float(a == a), float(a != p));",
        [1.0, 3.0, 5.0, 7.0],
        [0.0; 4],
    );
    assert_eq!(got, [9.0, 4.0, 1.0, 1.0]);
}

#[test]
fn outer_product_determinant_and_inverse() {
    // outerProduct(vec3 c, vec2 r) is mat2x3 with column j = c · r[j].
    let got = eval(
        "",
        "mat2x3 o = outerProduct(u.xyz, v.xy); c = vec4(o[0].z, o[1].x, o[1].y, o[1].z);",
        [1.0, 2.0, 3.0, 0.0],
        [10.0, 100.0, 0.0, 0.0],
    );
    assert_eq!(got, [30.0, 100.0, 200.0, 300.0]);
    // det of [[2, 0, 1], [1, 3, 2], [1, 1, 1]] (columns) = 2(3-2) - 0 + 1(1-3) = 0
    // by rows... worked column-major: m = (2,1,1 | 0,3,1 | 1,2,1), det = 0? Use a
    // clear one: diag(2, 3, 4) with m[2].x = 5 → det = 24.
    let got = eval(
        "",
        "mat3 m = mat3(u.x, 0.0, 0.0, 0.0, 3.0, 0.0, 5.0, 0.0, 4.0); \
         mat2 n = mat2(u.x, 1.0, 4.0, 3.0); \
         mat4 f = mat4(u.x); f[3].x = 7.0; \
         c = vec4(determinant(m), determinant(n), determinant(f), 0.0);",
        [2.0; 4],
        [0.0; 4],
    );
    // n = columns (2,1),(4,3): 2·3 − 4·1 = 2; f = 2·I with a translation: 16.
    assert_eq!(got, [24.0, 2.0, 16.0, 0.0]);
    // inverse(n) = 1/2 · (3, -1 | -4, 2)
    let got = eval(
        "",
        "mat2 n = mat2(u.x, 1.0, 4.0, 3.0); mat2 i = inverse(n); c = vec4(i[0], i[1]);",
        [2.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [1.5, -0.5, -2.0, 1.0]);
    // inverse of a 3×3 and 4×4 times the matrix is the identity (exact here).
    let got = eval(
        "",
        "mat3 m = mat3(u.x, 0.0, 0.0, 0.0, 4.0, 0.0, 2.0, 0.0, 1.0); mat3 p = inverse(m) * m; \
         mat4 f = mat4(u.x); f[3] = vec4(1.0, 2.0, 3.0, 1.0); mat4 q = f * inverse(f); \
         c = vec4(p[2].x, p[1].y, q[3].x, q[3].w);",
        [2.0; 4],
        [0.0; 4],
    );
    assert_eq!(got, [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn mat2_non_square_and_bvec_uniforms_are_set_by_column() {
    // uniform slots: u (0), v (1), m (2, 3: the two columns), b (4).
    let got = eval_slots(
        "uniform mat2x3 m; uniform bvec3 b;",
        "c = vec4(m * vec2(1.0, 1.0), float(b.x) + float(b.y) * 2.0 + float(b.z) * 4.0);",
        &[
            [0.0; 4],
            [0.0; 4],
            [1.0, 2.0, 3.0, 9.0],
            [10.0, 20.0, 30.0, 9.0],
            [0.5, 0.0, -3.0, 0.0],
        ],
    );
    // A bvec lane set to any non-zero number is true: 1 + 4.
    assert_eq!(got, [11.0, 22.0, 33.0, 5.0]);
    let s = build(
        &frag_src("uniform mat2 r; uniform mat4x2 w;", "c = vec4(r[1], w[3]);"),
        Stage::Fragment,
    );
    let syms: Vec<_> = s
        .interface
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.ty.keyword(), s.array_len))
        .collect();
    assert!(syms.contains(&("r", "vec2", Some(2))), "{syms:?}");
    assert!(syms.contains(&("w", "vec2", Some(4))), "{syms:?}");
}

#[test]
fn shape_errors_name_both_types() {
    let m = messages(
        &frag_src(
            "",
            "mat2x3 a = mat2x3(1.0); mat2x3 b = a * a; c = vec4(0.0);",
        ),
        Stage::Fragment,
    );
    assert!(
        m.iter()
            .any(|m| m.contains("matrix size mismatch: mat2x3 * mat2x3")),
        "{m:?}"
    );
    let m = messages(
        &frag_src(
            "",
            "mat2x3 a = mat2x3(1.0); vec3 x = a * vec3(1.0); c = vec4(0.0);",
        ),
        Stage::Fragment,
    );
    assert!(
        m.iter()
            .any(|m| m.contains("cannot multiply mat2x3 by vec3")),
        "{m:?}"
    );
    let m = messages(
        &frag_src(
            "",
            "mat2x3 a = mat2x3(1.0); float d = determinant(a); c = vec4(d);",
        ),
        Stage::Fragment,
    );
    assert!(
        m.iter()
            .any(|m| m.contains("determinant takes a square matrix, not mat2x3")),
        "{m:?}"
    );
}

/// An array of `mat2` or non-square matrix uniforms is recorded as the array of all
/// their columns (docs/scene-format.md): `q` of `mat3x2 q[2]` is `vec2 q[6]`, element
/// k's column c at index 3k + c, so the whole array's floats are GL's order; a
/// run-time index picks the element.
#[test]
fn arrays_of_column_stored_matrix_uniforms() {
    use csir::ir::SymbolKind;
    let src = frag_src(
        "uniform mat3x2 q[2];\nuniform mat2 r[2];",
        "int i = int(u.x); c = vec4(q[i][2], r[1][i]);",
    );
    let s = build(&src, Stage::Fragment);
    let q = s.interface.find("q").unwrap();
    assert_eq!((q.ty, q.array_len), (csir::ir::Type::Vec2, Some(6)));
    let r = s.interface.find("r").unwrap();
    assert_eq!(r.array_len, Some(4));
    let (SymbolKind::Uniform { slot: qs }, SymbolKind::Uniform { slot: rs }) = (q.kind, r.kind)
    else {
        panic!("uniforms")
    };
    let mut iface_uniforms = s.interface.new_uniforms();
    let floats: Vec<f32> = (1..=12).map(|k| k as f32).collect();
    s.interface
        .set_uniform(&mut iface_uniforms, "q", &floats)
        .unwrap();
    s.interface
        .set_uniform(
            &mut iface_uniforms,
            "r",
            &[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5],
        )
        .unwrap();
    assert_eq!(iface_uniforms[qs as usize + 5], [11.0, 12.0, 0.0, 0.0]);
    assert_eq!(iface_uniforms[rs as usize + 3], [6.5, 7.5, 0.0, 0.0]);
    for (i, want) in [(0.0, [5.0, 6.0, 4.5, 5.5]), (1.0, [11.0, 12.0, 6.5, 7.5])] {
        let mut u = iface_uniforms.clone();
        u[0] = [i, 0.0, 0.0, 0.0];
        backends::check(&s, &u, &[]);
        assert_eq!(run(&s, &u, &[], &NoSamplers).color, want, "i = {i}");
    }
}

/// Array and matrix varyings take consecutive slots (a slot per matrix column and per
/// array element); the link maps each of them, and the fragment shader reads what the
/// vertex shader wrote, whatever the declaration order.
#[test]
fn array_and_matrix_varyings_use_consecutive_slots() {
    use csir::exec::{Inputs, Machine, Outputs};
    use csir::{Limits, Program, compile};
    let vs = "#version 130\nin vec4 p;\nout float w;\nout vec2 arr[3];\nout mat2x3 m;\n\
              void main() { gl_Position = p; w = 9.0; arr[0] = p.xy; arr[1] = vec2(3.0, 4.0);\n\
              arr[2] = p.zw * 2.0; m = mat2x3(p.xyz, vec3(7.0, 8.0, 9.0)); }\n";
    let fs = "#version 130\nin mat2x3 m;\nin vec2 arr[3];\nin float w;\nout vec4 c;\n\
              void main() { int i = int(w) - 8; c = vec4(arr[i], m[1].z + arr[2].y, w + m[0].x); }\n";
    let v = compile(vs, "a.vert", Stage::Vertex, &Limits::default()).unwrap();
    let f = compile(fs, "a.frag", Stage::Fragment, &Limits::default()).unwrap();
    let program = Program::link(v, f).unwrap();
    let attr = [[1.0, 2.0, 5.0, 6.0]];
    let mut vm = Machine::new(&program.vertex).unwrap();
    let mut vout = Outputs::default();
    let inputs = Inputs {
        attributes: &attr,
        ..Inputs::default()
    };
    vm.run(&inputs, &mut vout).unwrap();
    let vars = vout.varyings.to_vec();
    let mut fm = Machine::new(&program.fragment).unwrap();
    let mut fout = Outputs::default();
    let inputs = Inputs {
        varyings: &vars,
        var_remap: &program.var_remap,
        ..Inputs::default()
    };
    fm.run(&inputs, &mut fout).unwrap();
    // i = 1: arr[1] = (3, 4); m[1].z + arr[2].y = 9 + 12; w + m[0].x = 9 + 1.
    assert_eq!(fout.color, [3.0, 4.0, 21.0, 10.0]);
    let slots: Vec<_> = program
        .fragment
        .interface
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.ty.keyword(), s.array_len))
        .collect();
    assert!(slots.contains(&("m", "vec3", Some(2))), "{slots:?}");
    assert!(slots.contains(&("arr", "vec2", Some(3))), "{slots:?}");
}
