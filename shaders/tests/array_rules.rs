//! "Reject what GLSL rejects" for arrays and the expressions around them:
//! the version rules of whole-array assignment and `out`/`inout` array parameters,
//! embedded struct definitions, array sizes that must be constant integral
//! expressions (and may be any of them), `?:` and `,` with array operands, and a
//! division by a constant zero outside a constant expression. Each rejection has a
//! valid twin that compiles and runs.

mod common;
use common::{build, located, located_with, messages, run};
use csir::exec::NoSamplers;
use csir::{Limits, Shader, Stage, compile};

/// Compile under the extended profile (the renderer's) or panic.
fn build_ext(src: &str, stage: Stage) -> Shader {
    compile(src, "t.glsl", stage, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Messages of a compile under the extended profile that must fail.
fn messages_ext(src: &str, stage: Stage) -> Vec<String> {
    located_with(src, stage, &Limits::EXTENDED)
        .into_iter()
        .map(|m| m.splitn(4, ':').nth(3).unwrap_or("").trim().to_string())
        .collect()
}

/// GLSL 1.10 §5.9: division by zero "does not cause an exception but does result in
/// an unspecified value". Under the extended profile a constant zero divisor outside
/// a constant expression divides at run time (IDIV gives 0, IMOD -1, DIV +inf); where
/// GLSL requires a constant expression (a `const` initializer, an array size, a case
/// label) it stays "division by zero", and the seed profile keeps the error everywhere.
#[test]
fn a_constant_zero_divisor_outside_a_constant_expression_divides_at_run_time() {
    let src = "#version 130\nout vec4 c;\n\
               int f() { int x = 7 / 0; return x; }\n\
               void main() { int m = 7 % 0; float y = 1.0 / 0.0; \
               c = vec4(float(f()), float(m), y, 1.0); }\n";
    let got = run(&build_ext(src, Stage::Fragment), &[], &[], &NoSamplers).color;
    assert_eq!(got, [0.0, -1.0, f32::INFINITY, 1.0]);
    let constant = [
        ("const int k = 1 / 0;", "division by zero"),
        ("const float k = 1.0 / 0.0;", "division by zero"),
        ("float a[4 / 0];", "division by zero"),
        (
            "const int z = 0; int k = 3 % z; const int q = 3 % z;",
            "division by zero",
        ),
    ];
    for (body, want) in constant {
        let src = format!("#version 130\nout vec4 c;\nvoid main() {{ {body} c = vec4(1.0); }}\n");
        assert_eq!(messages_ext(&src, Stage::Fragment), [want], "{body}");
    }
    let switch = "#version 130\nout vec4 c;\nuniform int u;\n\
                  void main() { switch (u) { case 1 / 0: c = vec4(1.0); break; } }\n";
    assert_eq!(messages_ext(switch, Stage::Fragment), ["division by zero"]);
    // The seed profile (RCP(0) = 0) keeps the original's compile-time error.
    let seed = "#version 130\nout vec4 c;\nvoid main() { int x = 7 / 0; c = vec4(float(x)); }\n";
    assert_eq!(messages(seed, Stage::Fragment), ["division by zero"]);
}

/// GLSL 1.10 §5.8: "non-dereferenced arrays ... cannot be l-values"; GLSL ES 1.00
/// §5.8: arrays "may not be used as the target of an assignment". GLSL 1.20 allows
/// both (§5.8).
#[test]
fn whole_array_assignment_needs_glsl_1_20() {
    let body = "void f(float x[2]) {\n  float y[2];\n  y = x;\n}\n\
                void main() { gl_Position = vec4(0.0); }\n";
    assert_eq!(
        located(&format!("#version 110\n{body}"), Stage::Vertex),
        [
            "t.glsl:4:3: assignment to the whole array 'y' is not allowed in GLSL 1.10: \
          arrays are not l-values (GLSL 1.10 §5.8)"
        ]
    );
    assert_eq!(
        located(&format!("#version 100\n{body}"), Stage::Vertex),
        [
            "t.glsl:4:3: assignment to the whole array 'y' is not allowed in GLSL ES 1.00: \
          an array may not be the target of an assignment (GLSL ES 1.00 §5.8)"
        ]
    );
    // Valid twin: GLSL 1.20 copies the elements.
    let src = "#version 120\nuniform vec4 u;\n\
               void main() { float x[2]; x[0] = u.x; x[1] = u.y; float y[2]; y = x; \
               x[0] = 9.0; gl_FragColor = vec4(y[0], y[1], x[0], 1.0); }\n";
    let got = run(
        &build(src, Stage::Fragment),
        &[[0.25, 0.5, 0.0, 0.0]],
        &[],
        &NoSamplers,
    )
    .color;
    assert_eq!(got, [0.25, 0.5, 9.0, 1.0]);
}

/// GLSL 1.10 §5.8: an array is not an l-value, so it cannot be an `out` or `inout`
/// parameter; GLSL ES 1.00 §5.8 says arrays "may be passed to parameters declared as
/// out or inout", and GLSL 1.20 allows them too.
#[test]
fn out_and_inout_array_parameters_need_glsl_1_20_or_es() {
    for (dir, col) in [("out", 18), ("inout", 20)] {
        let src = format!(
            "#version 110\nvoid f({dir} float x[2]) {{ x[0] = 1.0; }}\n\
             void main() {{ gl_FragColor = vec4(0.0); }}\n"
        );
        assert_eq!(
            located(&src, Stage::Fragment),
            [format!(
                "t.glsl:2:{col}: the {dir} array parameter 'x' is not allowed in GLSL 1.10: \
                 arrays are not l-values (GLSL 1.10 §5.8)"
            )]
        );
    }
    // A prototype is checked as well.
    let proto =
        "#version 110\nvoid f(out float x[2]);\nvoid main() { gl_FragColor = vec4(0.0); }\n";
    assert_eq!(
        messages(proto, Stage::Fragment),
        [
            "the out array parameter 'x' is not allowed in GLSL 1.10: arrays are not l-values \
          (GLSL 1.10 §5.8)"
        ]
    );
    // Valid twins: GLSL 1.20 and GLSL ES 1.00 write through them.
    for version in ["#version 120", "#version 100\nprecision mediump float;"] {
        let src = format!(
            "{version}\nuniform vec4 u;\n\
             void f(out float x[2], inout float y[2]) {{ x[0] = u.x; x[1] = u.y; y[1] = y[0] + 1.0; }}\n\
             void main() {{ float a[2]; float b[2]; b[0] = 2.0; f(a, b); \
             gl_FragColor = vec4(a[0], a[1], b[0], b[1]); }}\n"
        );
        let got = run(
            &build(&src, Stage::Fragment),
            &[[0.25, 0.5, 0.0, 0.0]],
            &[],
            &NoSamplers,
        )
        .color;
        assert_eq!(got, [0.25, 0.5, 2.0, 3.0], "{version}");
    }
}

/// GLSL 1.10 to 4.60 and GLSL ES 1.00/3.00 §4.1.8: "Embedded structure definitions
/// are not supported".
#[test]
fn struct_definitions_inside_a_struct_are_errors() {
    for (version, inner, what) in [
        (
            "#version 120",
            "struct { float f; } s;",
            "an anonymous struct",
        ),
        ("#version 100", "struct T { int a; } t;", "struct 'T'"),
        ("#version 330", "struct T { int a; } t;", "struct 'T'"),
    ] {
        let src = format!(
            "{version}\nstruct S {{\n    {inner}\n    int b;\n}};\n\
             void main() {{ gl_Position = vec4(1.0); }}\n"
        );
        assert_eq!(
            located(&src, Stage::Vertex),
            [format!(
                "t.glsl:3:5: embedded structure definitions are not supported: {what} is \
                 defined inside another struct; define it at global scope and declare the \
                 member with its name (GLSL 1.10 §4.1.8)"
            )],
            "{version}"
        );
    }
    // Valid twin: the inner struct defined first, used by name.
    let src = "#version 120\nuniform vec4 u;\nstruct T { float f; };\nstruct S { T t; float b; };\n\
               void main() { S s = S(T(u.x), u.y); gl_FragColor = vec4(s.t.f, s.b, 0.0, 1.0); }\n";
    let got = run(
        &build(src, Stage::Fragment),
        &[[0.25, 0.5, 0.0, 0.0]],
        &[],
        &NoSamplers,
    )
    .color;
    assert_eq!(got, [0.25, 0.5, 0.0, 1.0]);
}

/// GLSL 1.20 §4.1.9: an array size is any constant integral expression: global
/// `const`s of any scalar type, conversions, `?:`, built-in constants and
/// `.length()` of an array declared before; ES 1.00 counts the sequence operator
/// (ES 3.00 does not, §4.3.3). An expression with an assignment is not one, even when
/// its value is known.
#[test]
fn array_sizes_are_any_constant_integral_expression() {
    let src = "#version 120\n\
               const int N = 2;\nconst float size = 3.14159;\nconst bool yes = 1.5 > 1.0;\n\
               uniform float a[N * 2 + 1];\nuniform vec4 b[int(size)];\nuniform vec4 d[a.length() - 1];\n\
               const vec4[] p = vec4[](vec4(0), vec4(1));\nconst vec4[] q = vec4[](vec4(1), vec4(0));\n\
               float e[(yes ? p : q).length() + (yes ? 4 : 1)];\nfloat f[gl_MaxDrawBuffers + 0];\n\
               void main() { float g[N * N + int(size)]; \
               gl_FragColor = vec4(a.length(), b.length(), d.length(), e.length() * 10 + g.length()); }\n";
    let got = run(&build(src, Stage::Fragment), &[], &[], &NoSamplers).color;
    assert_eq!(got, [5.0, 3.0, 4.0, 67.0]);
    let es = "#version 100\nprecision mediump float;\nuniform float uf[(1, 2)];\n\
              void main() { gl_FragColor = vec4(uf[0], uf[1], 0.0, 1.0); }\n";
    let got = run(
        &build(es, Stage::Fragment),
        &[[0.5, 0.0, 0.0, 0.0], [0.75, 0.0, 0.0, 0.0]],
        &[],
        &NoSamplers,
    )
    .color;
    assert_eq!(got, [0.5, 0.75, 0.0, 1.0]);
    let es3 =
        "#version 300 es\nuniform float uf[(1, 2)];\nvoid main() { gl_Position = vec4(uf[0]); }\n";
    assert_eq!(
        messages(es3, Stage::Vertex),
        [
            "array size must be a constant integer expression, and the sequence operator (,) \
          is not one in GLSL ES 3.00 (GLSL ES 3.00 §4.3.3)"
        ]
    );
    // Desktop GLSL sizes arrays with a conditional_expression (the grammar, §9), at
    // global and local scope.
    for decl in ["uniform float uf[(5, 3)];", "void f() { float l[(5, 3)]; }"] {
        let src = format!("#version 120\n{decl}\nvoid main() {{ gl_Position = vec4(0.0); }}\n");
        assert_eq!(
            messages(&src, Stage::Vertex),
            [
                "array size must be a constant integer expression, and the sequence operator \
              (,) is not one in GLSL 1.20 (GLSL 1.20 §4.1.9 and §9: an array size is a \
              constant_expression, a conditional_expression)"
            ],
            "{decl}"
        );
    }
    let side_effect = "#version 120\nvoid main() {\n  int x;\n  vec4[(x = 3)] a;\n  gl_Position = vec4(0.0);\n}\n";
    assert_eq!(
        located(side_effect, Stage::Vertex),
        ["t.glsl:4:11: array size must be a constant integer expression (GLSL 1.20 §4.1.9)"]
    );
}

/// GLSL 1.20 §5.8 (`?:` "can be any type, as long their types match") and §5.9 (the
/// sequence operator's value is its right operand's), for arrays: indexed, compared,
/// assigned, with a run-time and a known condition.
#[test]
fn conditional_and_sequence_operators_take_arrays() {
    let src = "#version 120\nuniform vec4 a[2];\nuniform vec4 b[2];\nuniform int i;\nuniform bool pick;\n\
               void main() { vec4 x = (pick ? a : b)[i]; vec4 y = (a, b)[0]; \
               float k[2] = pick ? float[2](1.0, 2.0) : float[2](3.0, 4.0); \
               float m[2] = true ? float[](5.0, 6.0) : k; \
               bool same = (pick ? a : b) == a; \
               gl_FragColor = vec4(x.x, y.x, k[1] + m[0], same ? 1.0 : 0.0); }\n";
    let shader = build(src, Stage::Fragment);
    // Uniform slots in order: a[0], a[1], b[0], b[1], i, pick.
    let uniforms = |i: f32, pick: f32| {
        [
            [1.0, 0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0, 0.0],
            [3.0, 0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0, 0.0],
            [i, 0.0, 0.0, 0.0],
            [pick, 0.0, 0.0, 0.0],
        ]
    };
    let got = run(&shader, &uniforms(1.0, 1.0), &[], &NoSamplers).color;
    assert_eq!(got, [2.0, 3.0, 7.0, 1.0]);
    let got = run(&shader, &uniforms(0.0, 0.0), &[], &NoSamplers).color;
    assert_eq!(got, [3.0, 3.0, 9.0, 0.0]);
    // Operands that are not arrays of one type and size.
    let bad = [
        (
            "float x = (u.x > 0.0 ? a : c)[0];",
            "operator ?: on arrays that differ in type or size: the second and third \
             expressions must have the same type (GLSL 1.20 §5.8)",
        ),
        (
            "float x = (true ? a : c)[0];",
            "operator ?: on arrays that differ in type or size: the second and third \
             expressions must have the same type (GLSL 1.20 §5.8)",
        ),
        (
            "float x = (u.x > 0.0 ? a : u)[0];",
            "operator ?: on an array and a value that is not one: the second and third \
             expressions must have the same type (GLSL 1.20 §5.8)",
        ),
    ];
    for (body, want) in bad {
        let src = format!(
            "#version 120\nuniform vec4 u;\nvoid main() {{ float a[2]; float c[3]; {body} \
             gl_FragColor = vec4(x); }}\n"
        );
        assert_eq!(messages(&src, Stage::Fragment), [want], "{body}");
    }
}
