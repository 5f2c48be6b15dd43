//! The preprocessor subset (issue 8: the GLSL people write starts with `#define`):
//! object-like macros, `#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`,
//! `#error`, `__VERSION__`, executed with asserted values; what is not supported is
//! named.

mod backends;
mod common;
use common::{build, messages, run};
use csir::Stage;
use csir::exec::NoSamplers;

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
fn unsupported_preprocessing_is_named() {
    for (src, want) in [
        (
            "#define SQ(x) ((x) * (x))\nvoid main() {}\n",
            "function-like macros are not supported",
        ),
        (
            "#extension GL_ARB_foo : require\nvoid main() {}\n",
            "extension GL_ARB_foo is required but not supported by csir-render",
        ),
        (
            "#line 10\nvoid main() {}\n",
            "unsupported preprocessor directive",
        ),
        ("#if 1\nvoid main() {}\n", "unterminated #if"),
        (
            "#error needs a newer compiler\nvoid main() {}\n",
            "#error needs a newer compiler",
        ),
        (
            "#if FOO(1)\n#endif\nvoid main() {}\n",
            "invalid #if expression",
        ),
    ] {
        let src = format!("#version 330 core\nout vec4 c;\n{src}");
        assert_eq!(messages(&src, Stage::Fragment), vec![want], "{src}");
    }
}
