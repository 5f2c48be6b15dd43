//! Precision qualifiers and `precision` statements (GLSL 1.30 §4.5, GLSL ES 1.00 §4.5,
//! GLSL ES 3.00 §4.5): where they may appear, the scope of a default precision, and the
//! GLSL ES fragment shader's missing default for float. Each rejection has a valid twin
//! that compiles and runs.

mod common;

use common::{build, located, run};
use csir::exec::NoSamplers;
use csir::ir::Stage;

/// A GLSL ES fragment shader has no default float precision (GLSL ES 1.00 §4.5.3,
/// GLSL ES 3.00 §4.5.4): a float variable, parameter or return type needs a precision
/// qualifier or a `precision … float;` in scope. Vertex shaders and desktop GLSL have a
/// default.
#[test]
fn es_fragment_floats_need_a_precision() {
    let src = "#version 100\nvarying float f[4];\nvoid main() {\n  gl_FragColor = vec4(f[0]);\n}\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![
            "t.glsl:2:9: variable 'f' of type 'float' has no precision: a GLSL ES fragment \
             shader has no default precision for float (GLSL ES 1.00 §4.5.3); write \
             'precision mediump float;' before it or qualify it ('mediump float')"
        ]
    );
    let src = "#version 300 es\nout highp vec4 o;\nvec2 half_of(highp vec2 v) { return v * 0.5; }\n\
               void main() { o = vec4(half_of(vec2(1.0)), 0.0, 1.0); }\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![
            "t.glsl:3:1: return type of function 'half_of' of type 'vec2' has no precision: \
             a GLSL ES fragment shader has no default precision for float (GLSL ES 3.00 \
             §4.5.4); write 'precision mediump float;' before it or qualify it ('mediump \
             vec2')"
        ]
    );
    // Valid twins: a default in scope, or each declaration qualified; the same
    // unqualified source as a vertex shader.
    let src = "#version 100\nprecision mediump float;\nuniform vec4 u;\n\
               float twice(float x) { return 2.0 * x; }\n\
               void main() { gl_FragColor = vec4(twice(u.x), u.y, 0.0, 1.0); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(
        run(&shader, &[[0.25, 0.5, 0.0, 0.0]], &[], &NoSamplers).color,
        [0.5, 0.5, 0.0, 1.0]
    );
    let src = "#version 300 es\nout highp vec4 o;\nhighp vec2 half_of(highp vec2 v) { return v * 0.5; }\n\
               void main() { o = vec4(half_of(vec2(1.0)), 0.0, 1.0); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(
        run(&shader, &[], &[], &NoSamplers).color,
        [0.5, 0.5, 0.0, 1.0]
    );
    build(
        "#version 100\nattribute vec4 p;\nvoid main() { float s = 0.5; gl_Position = p * s; }\n",
        Stage::Vertex,
    );
}

/// A default precision holds to the end of the block that states it (GLSL ES 1.00
/// §4.5.3).
#[test]
fn a_default_precision_ends_with_its_block() {
    let src = "#version 100\nuniform bool b;\nvoid f() {\n  if (b) {\n    precision mediump float;\n  }\n  float x;\n}\n\
               void main() { gl_FragColor = vec4(1.0); }\n";
    assert_eq!(
        located(src, Stage::Fragment),
        vec![
            "t.glsl:7:3: variable 'x' of type 'float' has no precision: a GLSL ES fragment \
             shader has no default precision for float (GLSL ES 1.00 §4.5.3); write \
             'precision mediump float;' before it or qualify it ('mediump float')"
        ]
    );
    // Valid twin: the default stated in the function's own block covers its locals.
    let src = "#version 100\nuniform mediump vec4 u;\n\
               mediump float f() {\n  precision highp float;\n  float x = u.x * 4.0;\n  return x;\n}\n\
               void main() { gl_FragColor = vec4(f(), 0.0, 0.0, 1.0); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(
        run(&shader, &[[0.125, 0.0, 0.0, 0.0]], &[], &NoSamplers).color,
        [0.5, 0.0, 0.0, 1.0]
    );
}

/// Precision qualifiers qualify float, integer and sampler types, not `bool`, `bvecN`
/// or a struct; a `precision` statement names `float`, `int` or a sampler type (GLSL
/// 1.30 §4.5.2–4.5.3, GLSL ES 1.00 §4.5.2–4.5.3).
#[test]
fn precision_qualifies_numbers_and_samplers_only() {
    let cases = [
        (
            "#version 130\nvoid main() {\n  highp bool b = true;\n  gl_FragColor = vec4(b);\n}\n",
            "t.glsl:3:3: a precision qualifier cannot qualify 'bool': precision qualifiers \
             apply to float, integer and sampler types only (GLSL 1.30 §4.5.2, GLSL ES 1.00 \
             §4.5.2)",
        ),
        (
            "#version 100\nprecision mediump float;\nlowp struct s { float a; };\n\
             void main() { gl_FragColor = vec4(1.0); }\n",
            "t.glsl:3:1: a precision qualifier cannot qualify a struct: precision qualifiers \
             apply to float, integer and sampler types only (GLSL 1.30 §4.5.2, GLSL ES 1.00 \
             §4.5.2)",
        ),
        (
            "#version 130\nprecision mediump vec2;\nvoid main() { gl_FragColor = vec4(1.0); }\n",
            "t.glsl:2:19: a precision statement cannot name 'vec2': it sets the default \
             precision of float, int or a sampler type only (GLSL 1.30 §4.5.3, GLSL ES 1.00 \
             §4.5.3)",
        ),
        (
            "#version 100\nprecision highp bool;\nvoid main() { gl_FragColor = vec4(1.0); }\n",
            "t.glsl:2:17: a precision statement cannot name 'bool': it sets the default \
             precision of float, int or a sampler type only (GLSL 1.30 §4.5.3, GLSL ES 1.00 \
             §4.5.3)",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(located(src, Stage::Fragment), vec![want], "{src}");
    }
    // Valid twin: the numeric and sampler forms, also the sampler types csir-render
    // cannot declare a variable of, in a precision statement.
    let src = "#version 130\nprecision lowp int;\nprecision mediump sampler2D;\n\
               precision mediump samplerCube;\nprecision highp float;\n\
               uniform lowp vec2 n;\nstruct s { lowp float a; };\n\
               void main() { bool ok = n.x == 2.0; s v = s(0.5); \
               gl_FragColor = vec4(ok ? v.a : 0.0, 0.0, 0.0, 1.0); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(
        run(&shader, &[[2.0, 0.0, 0.0, 0.0]], &[], &NoSamplers).color,
        [0.5, 0.0, 0.0, 1.0]
    );
}

/// `GL_FRAGMENT_PRECISION_HIGH` is 1 in GLSL ES, where highp is supported in the
/// fragment language (GLSL ES 1.00 §4.5.4), and in desktop GLSL from 1.30 (GLSL 1.30
/// §4.5.4), undefined before.
#[test]
fn fragment_precision_high_is_defined_in_es_and_from_glsl_130() {
    let src = "#version 100\n#if GL_FRAGMENT_PRECISION_HIGH != 1\n#error no highp\n#endif\n\
               void main() { highp float x = 0.75; gl_FragColor = vec4(x); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(run(&shader, &[], &[], &NoSamplers).color, [0.75; 4]);
    let src = "#version 120\n#ifdef GL_FRAGMENT_PRECISION_HIGH\n#error defined\n#endif\n\
               void main() { gl_FragColor = vec4(0.25); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(run(&shader, &[], &[], &NoSamplers).color, [0.25; 4]);
    let src = "#version 130\n#if GL_FRAGMENT_PRECISION_HIGH != 1\n#error undefined\n#endif\n\
               void main() { gl_FragColor = vec4(0.5); }\n";
    let shader = build(src, Stage::Fragment);
    assert_eq!(run(&shader, &[], &[], &NoSamplers).color, [0.5; 4]);
}
