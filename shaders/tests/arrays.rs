//! Arrays, executed with asserted values and checked on every back end
//! (TGSI parity, CSI v2): `const` arrays that fold, uniform arrays of float / vecN /
//! mat4 laid out one element per vec4 slot (4 for mat4) with `array_len` and set by
//! `name` or `name[i]` through the linker, local arrays, `.length()`, constant and
//! run-time indexes, whole-array assignment, and the errors that remain.

mod backends;
mod common;
use backends::{eval, eval_u};
use common::{build, messages, run};
use csir::exec::NoSamplers;
use csir::ir::SymbolKind;
use csir::{Program, Stage};

#[test]
fn const_arrays_fold() {
    let decls = "const int N = 3;\nconst float K[N] = float[N](1.0, 2.0, 4.0);\nconst vec2 P[] = vec2[](vec2(1.0, 2.0), vec2(3.0, 4.0));";
    let body = "float s = 0.0; for (int i = 0; i < K.length(); i++) { s += K[i]; }\n\
                const float L[2] = float[2](0.5, 0.25);\n\
                c = vec4(s, P[1].y, L[1], float(P.length()) + vec3[2](vec3(1.0), vec3(5.0))[1].z);";
    assert_eq!(eval(decls, body, [0.0; 4], [0.0; 4]), [7.0, 4.0, 0.25, 7.0]);
    // Entirely folded: the colour is one constant (no arithmetic left).
    let s = build(&common::frag_src(decls, body), Stage::Fragment);
    let arith =
        s.ir.iter()
            .filter(|i| matches!(i.opcode(), Some(csir::Op::Add | csir::Op::Mul)))
            .count();
    assert_eq!(arith, 0, "{}", csir::ir::dump(&s));
}

/// Uniform slots: one element per vec4 slot (mat4: 4 slots per element), after the
/// uniforms declared before it; the symbol records `array_len`.
#[test]
fn uniform_arrays_are_laid_out_per_element() {
    let src = "#version 330 core\nuniform float a;\nuniform float w[3];\nuniform vec3 L[2];\nuniform mat4 M[2];\nuniform vec4 z;\nout vec4 c;\n\
               void main() { c = vec4(w[0] + w[2], L[1].z, (M[1] * vec4(1.0)).x, z.x + a); }";
    let s = build(src, Stage::Fragment);
    let slot = |n: &str| match s.interface.find(n).unwrap().kind {
        SymbolKind::Uniform { slot } => slot,
        k => panic!("{k:?}"),
    };
    assert_eq!(
        [slot("a"), slot("w"), slot("L"), slot("M"), slot("z")],
        [0, 1, 4, 6, 14]
    );
    assert_eq!(s.interface.find("w").unwrap().array_len, Some(3));
    assert_eq!(s.interface.find("M").unwrap().array_len, Some(2));
    assert_eq!(s.interface.find("z").unwrap().array_len, None);
    assert_eq!(s.interface.uni_hi, 14);
    let mut u = vec![[0.0f32; 4]; 15];
    u[0][0] = 0.5;
    u[1][0] = 1.0;
    u[3][0] = 2.0;
    u[5] = [0.0, 0.0, 7.0, 0.0];
    for c in 0..4 {
        u[10 + c] = [c as f32 + 1.0, 0.0, 0.0, 0.0]; // M[1]: row 0 = 1, 2, 3, 4
    }
    u[14][0] = 10.0;
    backends::check(&s, &u, &[]);
    assert_eq!(run(&s, &u, &[], &NoSamplers).color, [3.0, 7.0, 10.0, 10.5]);
}

/// Linked end to end: `set_uniform` takes the whole array or `name[i]`, in both stages.
#[test]
fn uniform_arrays_link_and_take_elements_by_name() {
    let vs = "#version 330 core\nlayout(location = 0) in vec3 p;\nuniform mat4 uBones[2];\nuniform float uW[2];\n\
              void main() { gl_Position = (uBones[0] * uW[0] + uBones[1] * uW[1]) * vec4(p, 1.0); }";
    let fs = "#version 330 core\nuniform vec3 uL[3];\nuniform float uW[2];\nout vec4 c;\n\
              void main() { vec3 s = vec3(0.0); for (int i = 0; i < 3; i++) s += uL[i]; c = vec4(s, uW[1]); }";
    let program = Program::link(build(vs, Stage::Vertex), build(fs, Stage::Fragment)).unwrap();
    let rec = program.uniform("uL").unwrap();
    assert_eq!(
        (rec.array_len, rec.type_name()),
        (Some(3), "vec3[3]".to_string())
    );
    let mut st = program.new_uniforms();
    program
        .set_uniform(
            &mut st,
            "uL",
            &[1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0],
        )
        .unwrap();
    program
        .set_uniform(&mut st, "uL[1]", &[0.0, 5.0, 0.0])
        .unwrap();
    program.set_uniform(&mut st, "uW", &[0.25, 0.75]).unwrap();
    let ident: Vec<f32> = (0..16)
        .map(|i| if i % 5 == 0 { 1.0 } else { 0.0 })
        .collect();
    let twice: Vec<f32> = ident.iter().map(|x| x * 2.0).collect();
    program.set_uniform(&mut st, "uBones[0]", &ident).unwrap();
    program.set_uniform(&mut st, "uBones[1]", &twice).unwrap();
    assert!(program.set_uniform(&mut st, "uL[3]", &[0.0; 3]).is_err());
    let f = run(&program.fragment, &st.fragment, &[], &NoSamplers);
    assert_eq!(f.color, [1.0, 5.0, 3.0, 0.75]);
    let v = run(
        &program.vertex,
        &st.vertex,
        &[[1.0, 2.0, 3.0, 1.0]],
        &NoSamplers,
    );
    // (0.25·I + 0.75·2I) · (1, 2, 3, 1) = 1.75 · (1, 2, 3, 1).
    assert_eq!(v.position, [1.75, 3.5, 5.25, 1.75]);
    backends::check(&program.vertex, &st.vertex, &[[1.0, 2.0, 3.0, 1.0]]);
    backends::check(&program.fragment, &st.fragment, &[]);
}

#[test]
fn local_arrays_declarations_and_branches() {
    // Element writes in a branch are right after it, whichever way it went.
    let body = "float a[3]; a[0] = 1.0; if (u.x > 0.0) { a[1] = u.y; a[0] += 1.0; } else { a[2] = 9.0; }\n\
                float[2] b = float[2](u.z, 4.0); vec3 d[] = vec3[](u.xyz, vec3(1.0));\n\
                c = vec4(a[0] + a[1], a[2], b[0] * b[1], d[0].y + d[1].x + float(d.length()));";
    assert_eq!(eval_u(body, [1.0, 5.0, 0.5, 0.0]), [7.0, 0.0, 2.0, 8.0]);
    assert_eq!(eval_u(body, [-1.0, 5.0, 0.5, 0.0]), [1.0, 9.0, 2.0, 8.0]);
    // Whole-array assignment copies every element; an int initializer converts.
    let body = "float a[2] = float[2](1, 2); float b[2]; b = a; a = float[](u.x, u.y); b[1] += a[1];\n\
                c = vec4(a[0], a[1], b[0], b[1]);";
    assert_eq!(eval_u(body, [3.0, 4.0, 0.0, 0.0]), [3.0, 4.0, 1.0, 6.0]);
}

#[test]
fn length_of_arrays_vectors_and_matrices() {
    let body = "float a[5]; mat3 m; c = vec4(float(a.length()), float(u.xyz.length()), float(m.length()), float(vec2(1.0).length()));";
    assert_eq!(eval_u(body, [0.0; 4]), [5.0, 3.0, 3.0, 2.0]);
}

/// A run-time index selects with IFs (element 0 when out of range).
#[test]
fn run_time_indexes_select() {
    let decls = "uniform vec4 P[4];";
    let body = "int i = int(u.x); const float K[3] = float[3](10.0, 20.0, 30.0);\n\
                c = vec4(P[i].y, K[i], u[i], mat4(1.0)[i].w);";
    let src = common::frag_src(decls, body);
    let s = build(&src, Stage::Fragment);
    let mut uni = vec![[0.0f32; 4]; 6];
    for k in 0..4 {
        uni[2 + k] = [0.0, 100.0 + k as f32, 0.0, 0.0];
    }
    for (i, want) in [
        (0.0, [100.0, 10.0, 0.0, 0.0]),
        (1.0, [101.0, 20.0, 1.0, 0.0]),
        (2.0, [102.0, 30.0, 2.0, 0.0]),
        (3.0, [103.0, 10.0, 3.0, 1.0]),
        (7.0, [100.0, 10.0, 7.0, 0.0]),
    ] {
        uni[0] = [i, 1.0, 2.0, 3.0];
        backends::check(&s, &uni, &[]);
        assert_eq!(run(&s, &uni, &[], &NoSamplers).color, want, "i = {i}");
    }
}

/// A run-time index in a write stores into the element it names (none when out of
/// range), also compound and inside branches.
#[test]
fn run_time_indexes_write() {
    let body = "float h[4] = float[4](0.0, 0.0, 0.0, 0.0); int i = int(u.x);\n\
                h[i] = 5.0; h[int(u.y)] += 2.0; if (u.z > 0.0) { h[i] *= 3.0; }\n\
                c = vec4(h[0], h[1], h[2], h[3]);";
    for (u, want) in [
        ([0.0, 0.0, 1.0, 0.0], [21.0, 0.0, 0.0, 0.0]),
        ([1.0, 3.0, 1.0, 0.0], [0.0, 15.0, 0.0, 2.0]),
        ([2.0, 2.0, -1.0, 0.0], [0.0, 0.0, 7.0, 0.0]),
        ([9.0, -1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]),
    ] {
        assert_eq!(eval_u(body, u), want, "u = {u:?}");
    }
    // A histogram: counting into bins chosen at run time inside a loop.
    let body = "float bins[3] = float[3](0.0, 0.0, 0.0); for (int k = 0; k < 4; k++) { bins[int(u[k])] += 1.0; }\n\
                c = vec4(bins[0], bins[1], bins[2], 0.0);";
    assert_eq!(eval_u(body, [2.0, 0.0, 2.0, 1.0]), [1.0, 1.0, 2.0, 0.0]);
}

#[test]
fn loops_over_arrays_with_steps() {
    let body = "float a[6] = float[6](1.0, 2.0, 3.0, 4.0, 5.0, 6.0); float s = 0.0; float t = 0.0;\n\
                for (int i = 0; i < a.length(); i += 2) { s += a[i]; }\n\
                for (int i = a.length() - 1; i >= 0; i -= 3) { t += a[i] * u.x; }\n\
                c = vec4(s, t, 0.0, 0.0);";
    assert_eq!(eval_u(body, [2.0, 0.0, 0.0, 0.0]), [9.0, 18.0, 0.0, 0.0]);
}

#[test]
fn array_errors_name_the_construct() {
    let cases = [
        ("float a[2]; a[u.x] = 1.0;", "an index must be an int"),
        (
            "const float a[2] = float[2](1.0, 2.0); a[0] = 1.0;",
            "cannot assign to const",
        ),
        (
            "float a[2]; a[2] = 1.0;",
            "array index 2 is out of range for a (2 elements)",
        ),
        (
            "float a[2]; float b = a[-1];",
            "array index -1 is out of range for a (2 elements)",
        ),
        (
            "float a[2]; float b = a;",
            "an array can only be indexed here",
        ),
        (
            "float a[2]; a.x = 1.0;",
            "an array can only be indexed here",
        ),
        (
            "float a[int(u.x)];",
            "array size must be a constant integer expression (GLSL 1.20 §4.1.9)",
        ),
        ("float a[0];", "array size must be positive"),
        (
            "float a[]; c = vec4(float(a.length()));",
            "the size of array 'a' cannot be found: declared without a size, it is used \
             other than indexed by an integer literal (GLSL 1.20 §4.1.9: such a use needs \
             the size declared first)",
        ),
        (
            "float a[3] = float[2](1.0, 2.0);",
            "type mismatch in assignment",
        ),
        (
            "float a[2] = float[3](1.0, 2.0);",
            "the array constructor's size does not match its arguments",
        ),
        (
            "vec2 a[2] = float[2](1.0, 2.0);",
            "type mismatch in assignment",
        ),
        (
            "float a[2] = 1.0;",
            "type mismatch in assignment: an array needs an array",
        ),
        (
            "float a[2] = float[2](1.0, vec2(1.0));",
            "type mismatch in array constructor",
        ),
        (
            "const float a[2] = float[2](u.x, 1.0);",
            "const initializer is not a constant expression",
        ),
        (
            "float a[2]; a += float[2](1.0, 1.0);",
            "compound assignment to a whole array is not supported",
        ),
        (
            "float b = float[2](1.0, 2.0) + 1.0;",
            "an array constructor can only initialize or index an array",
        ),
        (
            "float a[2]; float n = a.size();",
            "method 'size' is not supported",
        ),
        ("float a[300];", "arrays are limited to 256 elements"),
    ];
    for (body, want) in cases {
        let src = common::frag_src("", body);
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{body}");
    }
    let decls = [
        (
            "uniform float w[2][2];",
            "arrays of arrays are not supported",
        ),
        (
            "float[] f() { return float[2](1.0, 2.0); }",
            "function 'f' returns an array without a size: a return type's array size is \
             a constant expression (GLSL 1.20 §4.1.9, §6.1)",
        ),
        (
            // An array of samplers takes a unit per element (GLSL 3.30 §4.1.7).
            "uniform sampler2D s[5];",
            "too many samplers: 's' would be sampler 5 and the limit is 4",
        ),
        (
            "out vec4 o[2];",
            "arrays of vertex inputs and fragment outputs are not supported",
        ),
        (
            "uniform vec4 big[31];",
            "too many uniforms: with 'big' they take 33 vec4 slots and the limit is 32",
        ),
        (
            "const int K = 2; uniform float w[K * 0];",
            "array size must be positive",
        ),
        (
            "uniform float w[k];",
            "array size must be a constant integer expression",
        ),
    ];
    for (decl, want) in decls {
        let src = common::frag_src(decl, "");
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{decl}");
    }
}

#[test]
fn implicitly_sized_arrays_take_their_size() {
    // GLSL 1.20 §4.1.9: sized by the largest literal index used, at global and local
    // scope.
    let decls = "vec2 g[];";
    let body = "g[3].y = u.x; float a[]; a[5] = u.y; a[1] = 2.0;\n\
                c = vec4(g[3].y, a[5], a[1], g[0].x);";
    assert_eq!(
        eval(decls, body, [7.0, 8.0, 0.0, 0.0], [0.0; 4]),
        [7.0, 8.0, 2.0, 0.0]
    );
    // a later declaration with an initializer sizes it and becomes an assignment
    let body = "float a[]; float a[] = float[](0.0, u.x, 3.0); c = vec4(a[1], a[2], float(a.length()), 0.0);";
    assert_eq!(eval_u(body, [5.0, 0.0, 0.0, 0.0]), [5.0, 3.0, 3.0, 0.0]);
    let decls = "float g[]; float g[2];";
    let body = "g[1] = u.x; c = vec4(g[1], float(g.length()), 0.0, 0.0);";
    assert_eq!(
        eval(decls, body, [4.0, 0.0, 0.0, 0.0], [0.0; 4]),
        [4.0, 2.0, 0.0, 0.0]
    );
}

#[test]
fn implicitly_sized_arrays_need_literal_indexes() {
    for body in [
        "float a[]; a[int(u.x)] = 1.0; c = vec4(a[0]);",
        "float a[]; float b[3]; b = a; c = vec4(a[0]);",
    ] {
        let src = common::frag_src("", body);
        assert_eq!(
            messages(&src, Stage::Fragment),
            [
                "the size of array 'a' cannot be found: declared without a size, it is used \
              other than indexed by an integer literal (GLSL 1.20 §4.1.9: such a use needs \
              the size declared first)"
            ],
            "{body}"
        );
    }
}
