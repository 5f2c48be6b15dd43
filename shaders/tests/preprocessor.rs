//! The preprocessor (the GLSL people write starts with `#define`;
//! the C rules exactly): translation phases in order, the predefined macros, `#if`
//! expressions, function-like macros and the directive syntax GLSL requires. Every
//! rejection has a valid twin that compiles and runs with an asserted value.

mod backends;
mod common;
use common::{build, located, messages, run};
use csir::Stage;
use csir::exec::NoSamplers;

/// The colour a fragment shader writes (zero uniforms).
fn color(src: &str) -> [f32; 4] {
    run(&build(src, Stage::Fragment), &[[0.0; 4]], &[], &NoSamplers).color
}

/// A GLSL 3.30 fragment shader: `out vec4 c;`, then `text`.
fn frag(text: &str) -> String {
    format!("#version 330 core\nout vec4 c;\n{text}")
}

#[test]
fn macros_and_conditionals_shape_the_program() {
    let src = "#version 330 core\n#define LIGHTS 3\n#define SCALE (0.5 * 2.0)\n#define FANCY\n\
               uniform vec4 u;\nout vec4 c;\n\
               #if __VERSION__ >= 330 && LIGHTS > 2\nconst float K = 10.0;\n#else\nconst float K = 20.0;\n#endif\n\
               void main() {\n  float s = 0.0;\n  for (int i = 0; i < LIGHTS; i++) s += u[i] * SCALE;\n\
               #ifdef FANCY\n  s *= K;\n#elif defined(PLAIN)\n  s = -1.0;\n#endif\n\
               #undef FANCY\n#ifndef FANCY\n  c = vec4(s, K, float(LIGHTS), 1.0);\n#endif\n}\n";
    let s = build(src, Stage::Fragment);
    let u = [[1.0, 2.0, 3.0, 4.0]];
    backends::check(&s, &u, &[]);
    assert_eq!(run(&s, &u, &[], &NoSamplers).color, [60.0, 10.0, 3.0, 1.0]);
}

#[test]
fn a_backslash_newline_splices_before_comments_in_every_line_end_form() {
    // C99 §5.1.1.2 phase 2 before phase 3: the `\` at the end of the `//` comment
    // continues it, so the first assignment is part of the comment.
    for eol in ["\n", "\r\n", "\r"] {
        let src = frag("void main() {\n  c = vec4(1.0);\n  // off \\\n  c = vec4(2.0);\n}\n")
            .replace('\n', eol);
        assert_eq!(color(&src), [1.0; 4], "line ends {eol:?}");
        // The twin without the `\`: the line is code.
        let twin = src.replace("off \\", "off");
        assert_eq!(color(&twin), [2.0; 4], "line ends {eol:?}");
    }
    // A splice inside a macro body and inside a word.
    let src = frag("#define TWO \\\n  2.0\nvoid main() { c = vec4(TW\\\nO); }\n");
    assert_eq!(color(&src), [2.0; 4]);
}

#[test]
fn gl_es_is_one_in_es_and_undefined_on_the_desktop() {
    let es = |head: &str, out: &str| {
        format!(
            "{head}\nprecision mediump float;\n{out}\nvoid main() {{\n#ifdef GL_ES\n  o = vec4(float(GL_ES), 0.0, 0.0, 1.0);\n#else\n  o = vec4(0.5);\n#endif\n}}\n"
        )
    };
    let gles3 = es("#version 300 es", "out vec4 o;");
    assert_eq!(color(&gles3), [1.0, 0.0, 0.0, 1.0], "GLSL ES 3.00 §3.4");
    let gles1 = es("#version 100", "#define o gl_FragColor");
    assert_eq!(color(&gles1), [1.0, 0.0, 0.0, 1.0], "GLSL ES 1.00 §3.4");
    for head in [
        "#version 330 core",
        "#version 150 compatibility",
        "#version 120",
        "",
    ] {
        let desktop = es(head, "").replace("precision mediump float;\n", "");
        let desktop = desktop.replace("o = ", "gl_FragColor = ");
        assert_eq!(color(&desktop), [0.5; 4], "{head:?}: GLSL 3.30 §3.3");
    }
    assert_eq!(
        located(&frag("#undef GL_ES\nvoid main() {}\n"), Stage::Fragment),
        vec![
            "t.glsl:3:8: #undef GL_ES: names beginning with GL_ are reserved (GLSL 3.30 §3.3, GLSL ES 3.00 §3.4)"
        ]
    );
}

#[test]
fn if_expressions_have_the_c_operators_and_precedence() {
    let src = frag(
        "#define N 4\n#define Y\n\
         #if (1 << N | 3) == 19 && ~0 == -1 && (7 % 4 ^ 1) == 2 && -8 >> 1 == -4 \\\n\
         && 2 + 3 * 4 == 14 && (6 & 3) == 2 && !defined X && defined(Y) && defined Y \\\n\
         && 1 < 2 == 1 && 0x10 >= 16u && (0 || 5) == 1 && 0 && 1 / 0 == 0 || 1\n\
         void main() { c = vec4(1.0); }\n#else\nvoid main() { c = vec4(0.0); }\n#endif\n",
    );
    assert_eq!(color(&src), [1.0; 4]);
    // Undefined names are 0 on the desktop (C99 §6.10.1) ...
    let src = frag("#if FOO == 0\nvoid main() { c = vec4(3.0); }\n#endif\n");
    assert_eq!(color(&src), [3.0; 4]);
    // ... and an error in ES (GLSL ES 3.00 §3.4).
    let es = "#version 300 es\nprecision mediump float;\nout vec4 o;\n#if FOO == 0\n#endif\nvoid main() { o = vec4(1.0); }\n";
    assert_eq!(
        located(es, Stage::Fragment),
        vec![
            "t.glsl:4:5: #if: undefined macro 'FOO' in the expression (GLSL ES 3.00 §3.4: names other than the operand of 'defined' are errors)"
        ]
    );
    let es_twin = es.replace("#if FOO == 0", "#if !defined(FOO)");
    assert_eq!(color(&es_twin), [1.0; 4]);
    for (line, want) in [
        ("#if 1 / 0", "3:7: #if: division by zero in '/'"),
        ("#if 5 % (2 - 2)", "3:7: #if: division by zero in '%'"),
        (
            "#if (1 + 2",
            "3:11: invalid #if expression: expected ')', found the end of the line",
        ),
        (
            "#if 1 2",
            "3:7: invalid #if expression: expected an operator or the end of the line, found '2'",
        ),
        (
            "#if 1 ? 2 : 3",
            "3:7: invalid #if expression: expected an operator or the end of the line, found '?'",
        ),
        (
            "#if * 2",
            "3:5: invalid #if expression: expected an integer, '(' or a unary operator, found '*'",
        ),
        (
            "#if defined",
            "3:5: #if: 'defined' expects a macro name: defined NAME or defined(NAME) (C99 §6.10.1)",
        ),
        (
            "#if defined(A",
            "3:5: #if: 'defined' expects a macro name: defined NAME or defined(NAME) (C99 §6.10.1)",
        ),
        (
            "#if 1.5",
            "3:5: #if: '1.5' is not an integer (GLSL 3.30 §3.3: #if takes integer expressions)",
        ),
        (
            "#if 1 << 64",
            "3:7: #if: shift by 64 in '<<' (the amount must be 0 to 63)",
        ),
        ("#if", "3:1: #if without an expression"),
        (
            "#if 0\n#elif (",
            "4:8: invalid #elif expression: expected an integer, '(' or a unary operator, found the end of the line",
        ),
    ] {
        let src = frag(&format!(
            "{line}\n#endif\nvoid main() {{ c = vec4(1.0); }}\n"
        ));
        assert_eq!(
            located(&src, Stage::Fragment),
            vec![format!("t.glsl:{want}")],
            "{line}"
        );
    }
    // #elif is not evaluated once a branch was taken, nor in a group compiled out.
    let src = frag(
        "#if 1\nvoid main() { c = vec4(1.0); }\n#elif 1 / 0\n#endif\n#if 0\n#if 1/0\n#endif\n#endif\n",
    );
    assert_eq!(color(&src), [1.0; 4]);
}

#[test]
fn function_like_macros_expand_and_run() {
    let src = frag(
        "#define SQ(x) ((x) * (x))\n#define MIX3(a, b, t) mix(a, b, t)\n#define ID(x) x\n\
         #define CHECK(value, expected) \\\n  if (distance(value, expected) > 0.001) \\\n    failed = true\n\
         #define SQ2 SQ(2.0)\n\
         void main() {\n  bool failed = false;\n  float s = SQ(1.0 + 2.0);\n\
         CHECK(vec2(s, 0.0), vec2(9.0, 0.0));\n  CHECK(MIX3(vec2(0.0, 1.0), vec2(2.0, 3.0), 0.5), vec2(1.0, 2.0));\n\
         vec2 p = ID((vec2(1.0, 2.0)));\n  c = vec4(s, ID(SQ2), p.y, failed ? 0.0 : 1.0);\n}\n",
    );
    let s = build(&src, Stage::Fragment);
    backends::check(&s, &[[0.0; 4]], &[]);
    assert_eq!(
        run(&s, &[[0.0; 4]], &[], &NoSamplers).color,
        [9.0, 4.0, 2.0, 1.0]
    );
    for (text, want) in [
        (
            "#define SQ(x) x * x\nfloat f = SQ(1.0, 2.0);",
            "t.glsl:4:11: macro 'SQ' takes 1 argument, 2 given (C99 §6.10.3)",
        ),
        (
            "#define SQ(x) x * x\n#define SQ(y) y * y",
            "t.glsl:4:9: macro 'SQ' redefined differently (C99 §6.10.3: a redefinition must be identical; #undef it first)",
        ),
        (
            "#define SQ(x) x * x\nfloat f = SQ(2.0;",
            "t.glsl:4:11: unterminated argument list invoking macro 'SQ' (a '(' without its ')')",
        ),
        (
            "#define CAT(a, b) a ## b",
            "t.glsl:3:21: '#' here is not a GLSL token: GLSL has no '#' (stringizing) or '##' (token pasting) operator (GLSL 4.60 §3.3)",
        ),
        (
            "#define STR(a) #a",
            "t.glsl:3:16: '#' here is not a GLSL token: GLSL has no '#' (stringizing) or '##' (token pasting) operator (GLSL 4.60 §3.3)",
        ),
    ] {
        let src = frag(&format!("{text}\nvoid main() {{ c = vec4(1.0); }}\n"));
        assert_eq!(located(&src, Stage::Fragment), vec![want], "{text}");
    }
    // Their valid twins.
    for text in [
        "#define SQ(x) x * x\nfloat f = SQ(2.0);",
        "#define SQ(x) x * x\n#define SQ(x) x * x",
        "#define SQ(x) x * x\n#undef SQ\n#define SQ(y) y * y",
    ] {
        let src = frag(&format!("{text}\nvoid main() {{ c = vec4(1.0); }}\n"));
        assert_eq!(color(&src), [1.0; 4], "{text}");
    }
}

#[test]
fn directive_syntax_errors_name_the_rule() {
    for (text, want) in [
        (
            "#define A 1\n#undef A B",
            "4:10: unexpected 'B' after #undef A (C99 §6.10: the directive takes one name)",
        ),
        (
            "#ifdef A B\n#endif",
            "3:10: unexpected 'B' after #ifdef A (C99 §6.10: the directive takes one name)",
        ),
        ("#ifndef\n#endif", "3:1: #ifndef expects a macro name"),
        (
            "#if 1\n#else junk\n#endif",
            "4:7: unexpected 'junk' after #else (C99 §6.10: the directive takes no operand)",
        ),
        (
            "#if 1\n#endif 1",
            "4:8: unexpected '1' after #endif (C99 §6.10: the directive takes no operand)",
        ),
        (
            "#if 1\n#else\n#elif 1\n#endif",
            "5:1: #elif after #else (C99 §6.10.1: #else is the last branch of a group)",
        ),
        (
            "#define GL_FOO 1",
            "3:9: #define GL_FOO: names beginning with GL_ are reserved (GLSL 3.30 §3.3, GLSL ES 3.00 §3.4)",
        ),
        (
            "#undef __VERSION__",
            "3:8: #undef __VERSION__: a predefined macro cannot be defined or undefined (C99 §6.10.8)",
        ),
        (
            "#define defined 1",
            "3:9: #define defined: 'defined' is an operator and cannot be a macro name (C99 §6.10.8)",
        ),
        (
            "#define 3 x",
            "3:9: #define expects a macro name, found '3'",
        ),
        (
            "#line x",
            "3:7: #line expects LINE [SOURCE-STRING] as non-negative integers (GLSL 3.30 §3.3), found 'x'",
        ),
        (
            "#line 4 1.5",
            "3:9: #line expects LINE [SOURCE-STRING] as non-negative integers (GLSL 3.30 §3.3), found '1.5'",
        ),
        (
            "#foo",
            "3:1: unknown preprocessor directive '#foo' (GLSL 3.30 §3.3 lists #define, #undef, #if, #ifdef, #ifndef, #else, #elif, #endif, #error, #pragma, #extension, #version and #line)",
        ),
        (
            "#error needs a newer compiler",
            "3:1: #error needs a newer compiler",
        ),
        ("#if 1", "3:1: unterminated #if"),
        (
            "# 12",
            "3:3: expected a directive name after '#', found '12'",
        ),
    ] {
        let src = frag(&format!("{text}\nvoid main() {{ c = vec4(1.0); }}\n"));
        assert_eq!(
            located(&src, Stage::Fragment),
            vec![format!("t.glsl:{want}")],
            "{text}"
        );
    }
    // The valid twins.
    for text in [
        "#define A 1\n#undef A // gone",
        "#define A\n#ifdef A /* yes */\n#endif",
        "#if 1\n#else // comment\n#endif /* end */",
        "#if 0\n#elif 1\n#else\n#endif",
        "#define MY_NAME 1\n#define _X 2",
        "#if 0\n#foo\n#error compiled out\n#define GL_X 1\n#endif",
        "#line 40 2",
        "#pragma optimize(off)",
        "#",
        "#  /* the null directive */",
        "#if 0\n# 12\n#endif",
    ] {
        let src = frag(&format!("{text}\nvoid main() {{ c = vec4(1.0); }}\n"));
        assert_eq!(color(&src), [1.0; 4], "{text}");
    }
    // #line sets __LINE__ (the next line is 40) and __FILE__ (C99 §6.10.4).
    let src =
        frag("#line 40 7\nvoid main() { c = vec4(float(__LINE__), float(__FILE__), 0.0, 1.0); }\n");
    assert_eq!(color(&src), [40.0, 7.0, 0.0, 1.0]);
    let src = frag("void main() {\n  c = vec4(float(__LINE__));\n}\n");
    assert_eq!(color(&src), [4.0; 4]);
}

#[test]
fn unsupported_extensions_are_named() {
    let src = frag("#extension GL_ARB_foo : require\nvoid main() {}\n");
    assert_eq!(
        messages(&src, Stage::Fragment),
        vec!["extension GL_ARB_foo is required but not supported by csir-render"]
    );
}

/// Macro names containing `__` are reserved, but defining one is not an error (GLSL ES
/// 3.00 §3.4; GLSL 1.30 §3.3 asks no diagnostic); the predefined macros cannot be
/// redefined (C99 §6.10.8).
#[test]
fn double_underscore_names_may_be_defined_but_predefined_macros_not() {
    let src = frag(
        "#define MY__NAME 0.5\n#define __LEAD 0.25\nvoid main() { c = vec4(MY__NAME, __LEAD, 0.0, 1.0); }\n",
    );
    assert_eq!(color(&src), [0.5, 0.25, 0.0, 1.0]);
    let m = messages(
        &frag("#define __LINE__ 3\nvoid main() { c = vec4(1.0); }\n"),
        Stage::Fragment,
    );
    assert_eq!(
        m,
        ["#define __LINE__: a predefined macro cannot be defined or undefined (C99 §6.10.8)"]
    );
}
