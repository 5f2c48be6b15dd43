//! "Reject what GLSL rejects": the rules of function declarations, of the
//! order and placement of qualifiers, the operators and words reserved by version, the
//! colour outputs of a fragment shader, built-in functions in GLSL ES 3.00, and writes
//! to read-only variables. Every rejection names its symbol and rule; every test has a
//! valid twin that compiles (and runs, where there is a value to check).

mod common;
use common::{build, located, messages, run};
use csir::exec::NoSamplers;
use csir::{Limits, Stage, compile};

/// Compile under the extended profile (exact integers) or panic with the diagnostics.
fn build_extended(src: &str, stage: Stage) -> csir::Shader {
    compile(src, "t", stage, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// The one message of a failing compile.
fn only_message(src: &str, stage: Stage) -> String {
    let m = messages(src, stage);
    assert_eq!(m.len(), 1, "{m:?}\n{src}");
    m[0].clone()
}

/// GLSL 1.10 §6.1: declarations with the same parameter types are one function and
/// agree in return type and in every qualifier; a function is defined once.
#[test]
fn declarations_of_one_function_agree() {
    let frag = |decls: &str| {
        format!(
            "#version 120\n{decls}\nvoid main() {{ float y = 0.0; g(y); gl_FragColor = vec4(f(0.25), y, 0.0, 1.0); }}\n"
        )
    };
    let ok_g = "void g(out float y) { y = 0.5; }";
    let src = frag(&format!(
        "int f(float x);\nfloat f(float x) {{ return x; }}\n{ok_g}"
    ));
    assert_eq!(
        located(&src, Stage::Fragment),
        vec![
            "t.glsl:3:1: function return type mismatch: 'f' returns float here and int in its \
             declaration at line 2; declarations with the same parameter types must agree in \
             return type (GLSL 1.20 §6.1)"
        ]
    );
    let ok_f = "float f(float x) { return x; }";
    let src = frag(&format!(
        "{ok_f}\nvoid g(out float y);\nvoid g(inout float y) {{ y = 0.5; }}"
    ));
    assert_eq!(
        located(&src, Stage::Fragment),
        vec![
            "t.glsl:4:20: parameter 'y' of 'g' is 'inout' here and 'out' in its declaration at \
             line 3; declarations with the same parameter types must agree in every qualifier \
             (GLSL 1.20 §6.1)"
        ]
    );
    // `const` is a qualifier too, and two prototypes must agree as well.
    let src = frag(&format!(
        "float f(const float x);\nfloat f(float);\n{ok_f}\n{ok_g}"
    ));
    let m = messages(&src, Stage::Fragment);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(
        m[0].starts_with(
            "parameter of 'f' is 'in' here and 'const in' in its declaration at line 2"
        ),
        "{m:?}"
    );
    assert!(
        m[1].starts_with(
            "parameter 'x' of 'f' is 'in' here and 'const in' in its declaration at line 2"
        ),
        "{m:?}"
    );
    let src = frag(&format!("{ok_f}\nfloat f(float y) {{ return y; }}\n{ok_g}"));
    assert_eq!(
        only_message(&src, Stage::Fragment),
        "duplicate symbol 'f': a function with these parameter types is already defined \
         (GLSL 1.20 §6.1)"
    );

    // Valid twin: matching prototypes (repeated, as desktop GLSL allows), the
    // definitions after the call, and an overload that differs in a parameter type.
    let src = "#version 120\nfloat f(const in float x);\nfloat f(const float);\n\
               void g(out float y);\nvoid g(out float y);\n\
               void main() { float y = 0.0; g(y); gl_FragColor = vec4(f(0.25), y, f(2), 1.0); }\n\
               float f(const float x) { return x; }\nfloat f(int x) { return 0.75; }\n\
               void g(out float y) { y = 0.5; }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(
        run(&shader, &[], &[], &NoSamplers).color,
        [0.25, 0.5, 0.75, 1.0]
    );
}

/// GLSL ES 1.00 §4.2.7: one prototype and one definition of a function, no more.
#[test]
fn es_100_declares_a_function_once() {
    let src = "#version 100\nprecision mediump float;\nint f(int a);\nint f(int a);\n\
               int f(int a) { return a; }\nvoid main() { gl_FragColor = vec4(f(1)); }\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![
            "t.glsl:4:5: function 'f' is declared twice (also at line 3): GLSL ES 1.00 allows \
             one prototype and one definition of a function (GLSL ES 1.00 §4.2.7)"
        ]
    );
    // Valid twin: one prototype, one definition.
    let src = "#version 100\nprecision mediump float;\nfloat f(float a);\n\
               void main() { gl_FragColor = vec4(f(0.5)); }\nfloat f(float a) { return a * 2.0; }\n";
    assert_eq!(
        run(&build(src, Stage::Fragment), &[], &[], &NoSamplers).color,
        [1.0; 4]
    );
}

/// GLSL 1.10 §6.1.1: `const` qualifies `in` parameters only, a parameter has one
/// direction; GLSL 1.20 §4.1.7: a sampler (or a struct holding one) is not an l-value,
/// so it is never an `out` or `inout` parameter.
#[test]
fn parameter_qualifiers_fit_the_parameter() {
    let with = |decl: &str| format!("{decl}\nvoid main() {{ gl_FragColor = vec4(1.0); }}\n");
    assert_eq!(
        located(&with("void f(const inout int i) {}"), Stage::Fragment),
        vec![
            "t.glsl:1:14: a parameter cannot be both 'const' and 'inout': const qualifies in \
             parameters only (GLSL 1.10 §6.1.1)"
        ]
    );
    assert_eq!(
        only_message(&with("void f(const out int i) { i = 1; }"), Stage::Fragment),
        "a parameter cannot be both 'const' and 'out': const qualifies in parameters only \
         (GLSL 1.10 §6.1.1)"
    );
    assert_eq!(
        only_message(&with("void f(in out float x) {}"), Stage::Fragment),
        "'out' after 'in': a parameter takes one of in, out and inout (GLSL 1.10 §6.1.1)"
    );
    assert_eq!(
        located(&with("void f(inout sampler2D p) {}"), Stage::Fragment),
        vec![
            "t.glsl:1:24: parameter 'p' cannot be 'inout': it is a sampler, and samplers are \
             not l-values (GLSL 1.20 §4.1.7)"
        ]
    );
    let src = with("struct foo { float x; sampler2D tex; };\nvoid f(out foo p) {}");
    assert_eq!(
        only_message(&src, Stage::Fragment),
        "parameter 'p' cannot be 'out': its type, struct 'foo', holds a sampler, and \
         samplers are not l-values (GLSL 1.20 §4.1.7)"
    );

    // Valid twin: `const in`, `const` alone and a sampler passed `in`.
    let src = "uniform sampler2D s;\nfloat f(const in float a, const float b) { return a + b; }\n\
               vec4 g(in sampler2D p) { return texture2D(p, vec2(0.5)); }\n\
               void main() { gl_FragColor = vec4(f(0.25, 0.5)) + g(s) * 0.0; }\n";
    assert_eq!(
        run(&build(src, Stage::Fragment), &[], &[], &NoSamplers).color,
        [0.75; 4]
    );
}

/// GLSL 1.30 §4.7 (and §4.7 of 1.20, 1.40 to 3.30 and GLSL ES): before GLSL 4.20,
/// qualifiers come in the order invariant, interpolation, storage, precision, and a
/// parameter's in the order const, in/out/inout, precision.
#[test]
fn qualifiers_come_in_order() {
    let vert =
        |decl: &str| format!("#version 130\n{decl}\nvoid main() {{ gl_Position = vec4(0.0); }}\n");
    let order = "qualifiers come in the order invariant, interpolation, storage, precision, \
                 with centroid just before in, out or varying (GLSL 1.30 §4.7)";
    let cases = [
        (
            "smooth invariant out float x;",
            "'invariant' cannot follow 'smooth'",
        ),
        (
            "smooth out invariant float x;",
            "'invariant' cannot follow 'out'",
        ),
        (
            "highp smooth out float x;",
            "'smooth' cannot follow the precision qualifier",
        ),
        ("out centroid float x;", "'centroid' cannot follow 'out'"),
        (
            "centroid smooth out float x;",
            "'smooth' cannot follow 'centroid'",
        ),
    ];
    for (decl, want) in cases {
        assert_eq!(
            only_message(&vert(decl), Stage::Vertex),
            format!("{want}: {order}"),
            "{decl}"
        );
    }
    let e = located(&vert("smooth invariant out float x;"), Stage::Vertex);
    assert!(e[0].starts_with("t.glsl:2:8: 'invariant'"), "{e:?}");
    let params = "a parameter's qualifiers come in the order const, in/out/inout, precision";
    for (decl, want) in [
        (
            "float f(highp in float x) { return x; }",
            "'in' cannot follow the precision qualifier",
        ),
        (
            "float f(highp const float x) { return x; }",
            "'const' cannot follow the precision qualifier",
        ),
        (
            "float f(in const float x) { return x; }",
            "'const' cannot follow 'in'",
        ),
    ] {
        assert_eq!(
            only_message(&vert(decl), Stage::Vertex),
            format!("{want}: {params} (GLSL 1.30 §4.7)"),
            "{decl}"
        );
    }
    // GLSL ES 1.00 §4.7 has the rule too.
    let es = "#version 100\nuniform highp float u;\nhighp uniform float v;\n\
              void main() { gl_Position = vec4(u + v); }\n";
    assert_eq!(
        only_message(es, Stage::Vertex),
        "'uniform' cannot follow the precision qualifier: qualifiers come in the order \
         invariant, interpolation, storage, precision, with centroid just before in, out or \
         varying (GLSL ES 1.00 §4.7)"
    );

    // Valid twin: every class in order, layout before the storage qualifier, a
    // parameter's qualifiers in order, and GLSL 1.20 (no precision qualifiers) leaves
    // csir-render's precision words unordered.
    let src = "#version 330\nlayout(location = 0) in vec4 p;\n\
               invariant smooth centroid out highp vec4 a;\n\
               float f(const in highp float x) { return x * 2.0; }\n\
               void main() { a = vec4(f(0.25)); gl_Position = p; }\n";
    build(src, Stage::Vertex);
    let src = "#version 120\nhighp uniform float u;\ninvariant centroid varying vec4 a;\n\
               void main() { a = vec4(u); gl_Position = vec4(0.0); }\n";
    build(src, Stage::Vertex);
}

/// GLSL 1.30 §4.3: `centroid` stands just before `in`, `out` or `varying`;
/// interpolation qualifiers do not apply to `varying`; a vertex shader has no
/// `centroid in` (§4.3.4), a fragment shader no `centroid out` (§4.3.6).
#[test]
fn centroid_and_interpolation_qualify_interpolated_values() {
    let shader = |stage: &str, decl: &str| {
        let body = if stage == "vert" {
            "gl_Position = vec4(0.0);"
        } else {
            "gl_FragColor = vec4(0.0);"
        };
        format!("#version 130\n{decl}\nvoid main() {{ {body} }}\n")
    };
    assert_eq!(
        located(&shader("vert", "centroid uniform float x;"), Stage::Vertex),
        vec![
            "t.glsl:2:1: 'centroid' qualifies in, out and varying declarations only, and \
             stands just before them (GLSL 1.30 §4.3)"
        ]
    );
    assert_eq!(
        located(&shader("frag", "smooth varying float x;"), Stage::Fragment),
        vec![
            "t.glsl:2:1: 'smooth' cannot qualify 'varying': interpolation qualifiers apply to \
             in and out declarations, not to the deprecated varying (GLSL 1.30 §4.3)"
        ]
    );
    assert_eq!(
        located(&shader("vert", "centroid in float x;"), Stage::Vertex),
        vec![
            "t.glsl:2:1: 'x' cannot be declared 'centroid in' in a vertex shader: centroid \
             qualifies interpolated values, the vertex shader's outputs and the fragment \
             shader's inputs (GLSL 1.30 §4.3.4)"
        ]
    );
    let src = "#version 130\ncentroid out vec4 o;\nvoid main() { o = vec4(0.0); }\n";
    assert!(
        only_message(src, Stage::Fragment)
            .starts_with("'o' cannot be declared 'centroid out' in a fragment shader"),
    );

    // Valid twin: centroid on the interpolated values (a block member too),
    // interpolation on in and out, and `centroid varying` in GLSL 1.20.
    let vs = "#version 130\nin vec4 p;\ncentroid out vec4 a;\nflat out int k;\n\
              void main() { a = p; k = 1; gl_Position = p; }\n";
    build(vs, Stage::Vertex);
    let fs = "#version 130\ncentroid in vec4 a;\nsmooth in vec4 b;\n\
              void main() { gl_FragColor = a + b; }\n";
    build(fs, Stage::Fragment);
    let fs = "#version 150\nin B { centroid vec4 x; };\nout vec4 o;\nvoid main() { o = x; }\n";
    build(fs, Stage::Fragment);
    let fs = "#version 120\ncentroid varying vec4 a;\nvoid main() { gl_FragColor = a; }\n";
    let out = run(
        &build(fs, Stage::Fragment),
        &[],
        &[[0.5, 0.25, 0.0, 1.0]],
        &NoSamplers,
    );
    assert_eq!(out.color, [0.5, 0.25, 0.0, 1.0]);
}

/// GLSL 1.10 and 1.20 §5.1 and GLSL ES 1.00 §5.1 reserve `%`, `~`, `<<`, `>>`, `&`,
/// `|`, `^`, and §5.8 their assignments, for GLSL 1.30 and GLSL ES 3.00 to define.
#[test]
fn integer_operators_are_reserved_before_130() {
    let need = "the integer operators %, ~, <<, >>, &, |, ^ and their assignments need \
                GLSL 1.30 or GLSL ES 3.00";
    let src = "#version 110\nint f() {\n    int t = 15 % 24;\n    return t;\n}\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![format!(
            "t.glsl:3:16: operator '%' is reserved in GLSL 1.10 (GLSL 1.10 §5.1): {need}"
        )]
    );
    let src = "#version 100\nint f() { int x = 19; x %= 4; return x; }\n";
    assert_eq!(
        only_message(src, Stage::Fragment),
        format!("operator '%=' is reserved in GLSL ES 1.00 (GLSL ES 1.00 §5.8): {need}")
    );
    for (expr, op) in [
        ("a & 3", "&"),
        ("a << 1", "<<"),
        ("~a", "~"),
        ("a ^ a", "^"),
    ] {
        let src = format!("#version 120\nint f(int a) {{ return {expr}; }}\n");
        assert_eq!(
            only_message(&src, Stage::Fragment),
            format!("operator '{op}' is reserved in GLSL 1.20 (GLSL 1.20 §5.1): {need}"),
            "{expr}"
        );
    }

    // Valid twin: GLSL 1.30 defines them.
    let src = "#version 130\nuniform int u;\nout vec4 o;\nvoid main() {\n\
               int t = 15 % 4; t %= 2; int b = (u | 6) & ~1;\n\
               o = vec4(float(t), float(b), float(u << 2), float(12 >> 2));\n}\n";
    let shader = build_extended(src, Stage::Fragment);
    let u = [f32::from_bits(1), 0.0, 0.0, 0.0];
    assert_eq!(
        run(&shader, &[u], &[], &NoSamplers).color,
        [1.0, 6.0, 4.0, 3.0]
    );
}

/// GLSL 1.30 §3.6 reserves the image types (as GLSL ES 3.00 §3.7 does) and, in 1.30
/// only, `row_major`; every version reserves `packed` (GLSL 1.10 §3.6), which GLSL 1.40
/// also uses as a block layout.
#[test]
fn words_reserved_from_130() {
    let frag = |version: &str, word: &str| {
        format!("#version {version}\nint f() {{\n    int {word};\n    return 0;\n}}\n")
    };
    for word in [
        "image1D",
        "iimage2DArray",
        "uimageBuffer",
        "image2DArrayShadow",
        "row_major",
    ] {
        assert_eq!(
            located(&frag("130", word), Stage::Fragment),
            vec![format!(
                "t.glsl:3:9: '{word}' is reserved for future use in GLSL 1.30 (GLSL 1.30 §3.6): \
                 it cannot be a name"
            )],
        );
    }
    assert_eq!(
        only_message(&frag("300 es", "imageCube"), Stage::Fragment),
        "'imageCube' is reserved for future use in GLSL ES 3.00 (GLSL ES 3.00 §3.7): it \
         cannot be a name"
    );
    for version in ["110", "130", "330"] {
        assert_eq!(
            only_message(&frag(version, "packed"), Stage::Fragment),
            "'packed' is a reserved word",
            "{version}"
        );
    }

    // Valid twins: before GLSL 1.30 these are names, and `layout(packed)` is a block
    // layout in 1.40.
    let src = "#version 120\nvoid main() { float image2D = 0.5; float row_major = 0.25;\n\
               gl_FragColor = vec4(image2D, row_major, 0.0, 1.0); }\n";
    assert_eq!(
        run(&build(src, Stage::Fragment), &[], &[], &NoSamplers).color,
        [0.5, 0.25, 0.0, 1.0]
    );
    let src = "#version 140\nlayout(packed) uniform B { vec4 v; };\nout vec4 o;\n\
               void main() { o = v; }\n";
    build(src, Stage::Fragment);
}

/// GLSL 1.10 §7.2: a shader that statically assigns gl_FragColor may not assign any
/// element of gl_FragData, even in code that never runs.
#[test]
fn frag_color_and_frag_data_are_not_both_written() {
    let src = "void main()\n{\n\tgl_FragColor = vec4(1.0);\n\tif (false)\n\t\tgl_FragData[0] = vec4(1.0);\n}\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![
            "t.glsl:5:3: gl_FragData is written here, and gl_FragColor at line 3: a fragment \
             shader that assigns gl_FragColor may not assign any element of gl_FragData \
             (GLSL 1.10 §7.2)"
        ]
    );
    let src = "#version 120\nvoid main() { gl_FragData[0].x += 1.0; gl_FragColor.y = 0.5; }\n";
    assert!(
        only_message(src, Stage::Fragment)
            .starts_with("gl_FragColor is written here, and gl_FragData at line 2"),
    );
    // Valid twin: one of them, written and read.
    let src =
        "void main() { gl_FragData[0] = vec4(0.25); gl_FragData[0].y += gl_FragData[0].x; }\n";
    assert_eq!(
        run(&build(src, Stage::Fragment), &[], &[], &NoSamplers).color,
        [0.25, 0.5, 0.25, 0.25]
    );
}

/// GLSL ES 3.00 §6.1: "A shader cannot redefine or overload built-in functions";
/// desktop GLSL and GLSL ES 1.00 let a shader overload them.
#[test]
fn es_300_shaders_cannot_redefine_or_overload_builtins() {
    let src = "#version 300 es\nint sqrt(int x) { return x; }\nvoid main() {}\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![
            "t.glsl:2:5: function 'sqrt' is defined here, but 'sqrt' is a built-in function: \
             a shader cannot redefine or overload built-in functions (GLSL ES 3.00 §6.1)"
        ]
    );
    let src = "#version 300 es\nprecision mediump float;\nvec4 texture(sampler2D s, vec2 p);\n\
               void main() {}\n";
    assert!(only_message(src, Stage::Fragment).starts_with("function 'texture' is declared here"),);
    // Valid twins: `texture2D` is no built-in of GLSL ES 3.00, and desktop GLSL
    // overloads a built-in.
    let src = "#version 300 es\nprecision mediump float;\nout vec4 o;\n\
               float texture2D(float x) { return x * 2.0; }\n\
               void main() { o = vec4(texture2D(0.25)); }\n";
    assert_eq!(
        run(&build(src, Stage::Fragment), &[], &[], &NoSamplers).color,
        [0.5; 4]
    );
    let src = "#version 130\nint sqrt(int x) { return x + 1; }\n\
               void main() { gl_FragColor = vec4(float(sqrt(2))); }\n";
    assert_eq!(
        run(&build_extended(src, Stage::Fragment), &[], &[], &NoSamplers).color,
        [3.0; 4]
    );
}

/// GLSL 1.10 §4.3.2 and §5.8: const variables (and `const` parameters) are not
/// assigned after their declaration; §4.3.4, §4.3.5 and §7: neither are inputs,
/// uniforms and the read-only built-ins. The messages are the original's catalogue
/// (docs/csir-original.md A4), which the extended profile follows with the symbol and
/// the rule.
#[test]
fn read_only_variables_are_not_assigned() {
    let frag = |decls: &str, body: &str| {
        format!("#version 120\n{decls}\nvoid main() {{ {body} gl_FragColor = vec4(0.0); }}\n")
    };
    let cases = [
        ("const float k = 1.0;", "k = 2.0;", "cannot assign to const"),
        (
            "const vec4 k = vec4(1.0);",
            "k.x += 2.0;",
            "cannot assign to const",
        ),
        (
            "float f(const float x) { x = 1.0; return x; }",
            "",
            "cannot assign to const",
        ),
        ("", "gl_MaxTextureUnits = 2;", "cannot assign to const"),
        ("uniform float u;", "u = 1.0;", "invalid assignment"),
        ("varying vec4 v;", "v.x = 1.0;", "invalid assignment"),
        ("", "gl_FragCoord = vec4(1.0);", "invalid assignment"),
        ("", "gl_Color.r++;", "invalid assignment"),
        (
            "uniform vec4 u;\nvoid g(out vec4 x) { x = vec4(1.0); }",
            "g(u);",
            "invalid assignment",
        ),
    ];
    for (decls, body, want) in cases {
        assert_eq!(
            only_message(&frag(decls, body), Stage::Fragment),
            want,
            "{decls} {body}"
        );
    }
    let vs = "attribute vec4 p;\nvoid main() { p = vec4(0.0); gl_Position = p; }\n";
    assert_eq!(only_message(vs, Stage::Vertex), "invalid assignment");
    let src = "void main() { gl_FrontFacing = true; gl_FragColor = vec4(1.0); }\n";
    let e = compile(src, "t", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
    assert!(e.to_string().contains("invalid assignment"), "{e}");
    // Under the extended profile the original's words are followed by the symbol and
    // the rule.
    let named = [
        (
            frag("const float k = 1.0;", "k = 2.0;"),
            "cannot assign to const: 'k' is a constant, which a shader cannot write \
             (GLSL 1.10 §4.3, §4.1.7)",
        ),
        (
            frag("uniform float u;", "u = 1.0;"),
            "invalid assignment: 'u' is a uniform or a shader input, which a shader cannot \
             write (GLSL 1.10 §4.3, §4.1.7)",
        ),
        (
            frag("", "gl_MaxTextureUnits = 2;"),
            "cannot assign to const: 'gl_MaxTextureUnits' is a built-in constant, which a \
             shader cannot write (GLSL 1.10 §4.3, §4.1.7)",
        ),
    ];
    for (src, want) in named {
        let e = compile(&src, "t", Stage::Fragment, &Limits::EXTENDED).unwrap_err();
        assert!(e.to_string().contains(want), "{e}");
    }

    // Valid twin: the same names read, a copy of them written, and an `in` parameter
    // (a copy) assigned inside its function.
    let src = "#version 120\nconst float k = 0.25;\nuniform vec4 u;\n\
               float f(in float x) { x += k; return x; }\n\
               void main() { vec4 c = u; c.x += k; gl_FragColor = vec4(c.x, f(0.5), float(gl_MaxTextureUnits), gl_FragCoord.x); }\n";
    let out = run(
        &build(src, Stage::Fragment),
        &[[0.5, 0.0, 0.0, 0.0]],
        &[],
        &NoSamplers,
    );
    // common::run puts the fragment at gl_FragCoord.x = 0.5.
    assert_eq!(out.color, [0.75, 0.75, 2.0, 0.5]);
}

/// GLSL ES 1.00 §4.2.7: a name is declared once per scope, so a struct and a
/// function or variable of one name at global scope are an error.
#[test]
fn es_100_struct_names_are_declared_once_per_scope() {
    let head = "#version 100\nprecision mediump float;\n";
    let tail = "void main() { gl_Position = vec4(1.0); }\n";
    let src = format!("{head}int f(int a);\nstruct f {{ int x; }};\n{tail}");
    assert_eq!(
        located(&src, Stage::Vertex),
        vec![
            "t.glsl:4:8: struct 'f': a function or variable of this name is already declared \
             in this scope, and GLSL ES 1.00 declares a name once per scope (GLSL ES 1.00 §4.2.7)"
        ]
    );
    let src = format!("{head}struct f {{ int x; }};\nint g, f;\n{tail}");
    assert_eq!(
        located(&src, Stage::Vertex),
        vec![
            "t.glsl:4:8: 'f' is already the name of a struct in this scope: GLSL ES 1.00 \
             declares a name once per scope (GLSL ES 1.00 §4.2.7)"
        ]
    );
    // Valid twin: a struct, a variable and a function of different names, and a
    // struct declared in a function (another scope).
    let src = format!(
        "{head}struct f {{ float x; }};\nfloat k = 0.25;\nf make() {{ return f(0.5); }}\n\
         void main() {{ struct g {{ float y; }}; g b = g(k); gl_Position = vec4(make().x + b.y); }}\n"
    );
    let out = run(&build(&src, Stage::Vertex), &[], &[], &NoSamplers);
    assert_eq!(out.position, [0.75; 4]);
}

/// GLSL 3.30 §4.3.8.2: `layout(index = N)` names a fragment output's blend source, 0
/// or 1, and is allowed on fragment outputs only. Index 0 is the ordinary output;
/// index 1, the second source of dual-source blending, is refused by name (the
/// fragment stage has one colour output).
#[test]
fn output_index_is_zero_or_one_on_fragment_outputs_only() {
    let ok = "#version 330\nlayout(location = 0, index = 0) out vec4 c;\nvoid main() { c = vec4(0.5); }\n";
    build_extended(ok, Stage::Fragment);
    let two = "#version 330\nlayout(location = 0, index = 2) out vec4 c;\nvoid main() { c = vec4(0.5); }\n";
    assert_eq!(
        only_message(two, Stage::Fragment),
        "layout(index = 2): a fragment output's index is 0 or 1 (GLSL 3.30 §4.3.8.2; 1 is \
         the second source of dual-source blending)"
    );
    // Index 1 at location 0: the second source colour of dual-source blending.
    let one = "#version 330\nlayout(location = 0) out vec4 c;\nlayout(location = 0, index = 1) out vec4 f;\nvoid main() { c = vec4(0.5); f = c; }\n";
    build_extended(one, Stage::Fragment);
    let at_one = "#version 330\nlayout(location = 1, index = 1) out vec4 f;\nvoid main() { f = vec4(0.5); }\n";
    assert!(
        messages(at_one, Stage::Fragment)
            .iter()
            .any(|m| m.contains("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1")),
        "{:?}",
        messages(at_one, Stage::Fragment)
    );
    let varying = "#version 330\nlayout(index = 0) out vec4 v;\nvoid main() { v = vec4(1.0); gl_Position = v; }\n";
    assert_eq!(
        only_message(varying, Stage::Vertex),
        "layout(index = N) is only allowed on a fragment shader output (GLSL 3.30 §4.3.8.2)"
    );
    let uniform =
        "#version 330\nlayout(index = 1) uniform vec4 u;\nout vec4 c;\nvoid main() { c = u; }\n";
    assert!(!messages(uniform, Stage::Fragment).is_empty());
}

/// Rules of declarations and operators, each with a valid twin that compiles: a struct
/// name may not start with `gl_` (GLSL 1.10 §3.7); unary `+` takes numbers only
/// (§5.9); `#extension` ends with its behavior (GLSL 3.30 §3.3); a switch body does not
/// end with a label (GLSL 1.30 §6.2); only inputs and outputs are invariant (§4.6.1).
#[test]
fn declarations_operators_and_directives_follow_their_rules() {
    let vs = |decls: &str, body: &str| {
        format!("{decls}\nvoid main() {{ {body} gl_Position = vec4(0.0); }}\n")
    };
    let cases: [(String, &str); 8] = [
        (
            vs("struct gl_Hoagie { vec4 a; };", ""),
            "t.glsl:1:8: struct 'gl_Hoagie': names starting with gl_ are reserved (GLSL \
             1.10 §3.7)",
        ),
        (
            vs("void f(void) {}", "+f();"),
            "t.glsl:2:16: void function used as a value",
        ),
        (
            vs(
                "#version 120\nuniform vec4 a[2];\nuniform vec4 b[2];",
                "vec4 p = (+a)[0];",
            ),
            "t.glsl:4:25: operator + cannot apply to an array (GLSL 1.10 §5.9)",
        ),
        (
            vs("#extension GL_ARB_fragment_coord_conventions : enable;", ""),
            "t.glsl:1:54: unexpected ';' after #extension GL_ARB_fragment_coord_conventions \
             : enable: the directive ends with its behavior (GLSL 3.30 §3.3)",
        ),
        (
            vs("#version 130", "switch (1) { case 0: }"),
            "t.glsl:2:28: a case or default label must be followed by a statement before \
             the end of the switch body (GLSL 1.30 §6.2)",
        ),
        (
            vs("#version 150\ninvariant uniform vec4 junk;", ""),
            "t.glsl:2:1: 'invariant' cannot qualify a uniform: only the outputs of a shader \
             (and the inputs that receive them) can be invariant (GLSL 1.50 §4.6.1)",
        ),
        (
            vs("#version 150\ninvariant vec4 junk;", ""),
            "t.glsl:2:1: 'invariant' cannot qualify a variable that is neither an input nor \
             an output: only the outputs of a shader (and the inputs that receive them) can \
             be invariant (GLSL 1.50 §4.6.1)",
        ),
        (
            vs("#version 150\nvec4 junk;\ninvariant junk;", ""),
            "t.glsl:3:11: 'invariant junk': 'junk' is not an input or output of the shader, \
             and only those can be invariant (GLSL 1.50 §4.6.1)",
        ),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(src, want)| {
            let got = located(src, Stage::Vertex);
            (!got.iter().any(|m| m == want)).then(|| format!("{want:?} not in {got:?}\n{src}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The valid twins.
    for src in [
        vs(
            "struct Hoagie { vec4 a; };",
            "Hoagie h = Hoagie(vec4(1.0));",
        ),
        vs(
            "#version 120\nuniform vec4 a[2];\nuniform vec4 b[2];",
            "bool e = a == b; vec4 p = +a[0];",
        ),
        vs(
            "#extension GL_ARB_fragment_coord_conventions : enable // fine",
            "",
        ),
        vs("#version 130", "int k = 0; switch (k) { case 0: k = 1; }"),
        vs(
            "#version 150\ninvariant out vec4 v;\nout vec4 w;\ninvariant w;",
            "v = w = vec4(1.0);",
        ),
    ] {
        build(&src, Stage::Vertex);
    }
    // A unary + is the value itself.
    let s = build(
        "uniform vec4 u;\nvoid main() { gl_FragColor = +u + vec4(+1.0, +2, 0.0, 0.0); }\n",
        Stage::Fragment,
    );
    let out = run(&s, &[[0.25, 0.5, 0.75, 1.0]], &[], &NoSamplers).color;
    assert_eq!(out, [1.25, 2.5, 0.75, 1.0]);
}

/// GLSL 1.10 §7.6: a redeclared `gl_TexCoord` has at most `gl_MaxTextureCoords`
/// elements.
#[test]
fn redeclared_gl_texcoord_fits_the_limit() {
    let src = |n: &str| {
        format!(
            "#version 120\nvarying vec4 gl_TexCoord[{n}];\nvoid main() {{ gl_TexCoord[0] = vec4(1.0); gl_Position = vec4(0.0); }}\n"
        )
    };
    assert_eq!(
        messages(&src("gl_MaxTextureCoords + 1"), Stage::Vertex),
        ["gl_TexCoord has at most gl_MaxTextureCoords (8) elements, not 9 (GLSL 1.10 §7.6)"]
    );
    build(&src("gl_MaxTextureCoords"), Stage::Vertex);
}

/// GLSL 1.10 §6.1: a function is declared (a prototype) or defined before a call.
#[test]
fn a_function_is_declared_before_it_is_called() {
    let late =
        "#version 330\nout vec4 c;\nvoid main() { c = vec4(f()); }\nfloat f() { return 0.5; }\n";
    assert_eq!(
        located(late, Stage::Fragment),
        [
            "t.glsl:3:24: function 'f' is called before it is declared: define it or declare a \
          prototype above the call (GLSL 1.10 §6.1)"
        ]
    );
    let prototype = late.replace("out vec4 c;\n", "out vec4 c;\nfloat f();\n");
    let s = build_extended(&prototype, Stage::Fragment);
    assert_eq!(run(&s, &[], &[], &NoSamplers).color, [0.5; 4]);
}
