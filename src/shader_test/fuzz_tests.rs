//! Property tests: no `.shader_test` text makes the harness panic, whether it is raw
//! bytes or lines of the format with values from the edges (NaN, infinities, huge and
//! negative numbers), and every report names a line inside the file.

use super::report::Outcome;
use super::{RunOptions, run_text};
use proptest::prelude::*;
use std::path::Path;

/// Lines a test file is made of: headers, requirements, shader text that compiles,
/// `[vertex data]` rows and script commands with `{}` (a float) and `{i}` (an
/// integer) to fill in.
const LINES: &[&str] = &[
    "[require]",
    "[vertex shader]",
    "[vertex shader passthrough]",
    "[fragment shader]",
    "[vertex data]",
    "[test]",
    "[geometry shader]",
    "[bogus]",
    "[test",
    "GLSL >= 3.30",
    "GLSL >= 1.10",
    "GLSL ES >= 3.00",
    "GLSL == 3.30",
    "GL >= {}",
    "SIZE {i} {i}",
    "GL_MAX_VARYING_COMPONENTS >= {i}",
    "INT GL_MAX_VERTEX_ATTRIBS > {i}",
    "GL_ARB_foo",
    "ignore_missing_uniforms",
    "/* comment",
    "*/",
    "#version 330 core",
    "in vec4 piglit_vertex; in vec2 piglit_texcoord; out vec2 uv;",
    "void main() { gl_Position = piglit_vertex; uv = piglit_texcoord; }",
    "in vec2 pos; in vec3 tint; out vec3 t;",
    "void main() { gl_Position = vec4(pos, 0.0, 1.0); t = tint; }",
    "uniform vec4 c; uniform sampler2D s; uniform mat4 m; uniform float f[3]; in vec2 uv; out vec4 o;",
    "void main() { o = c * m + texture(s, uv) + vec4(f[1]); }",
    "piglit_vertex/float/2 piglit_texcoord/float/2",
    "pos/float/2 tint/float/3",
    "pos/int/{i} tint/uint/3",
    "{} {} {} {} {}",
    "{i} {i} {i}",
    "draw rect {} {} {} {}",
    "draw rect ortho {} {} {} {}",
    "draw rect tex {} {} {} {} {} {} {} {}",
    "draw arrays GL_TRIANGLE_FAN {i} {i}",
    "draw arrays GL_QUAD_STRIP {i} {i}",
    "draw arrays GL_POINTS {i} {i}",
    "probe rgba {} {} {} {} {} {}",
    "probe rgb {i} {i} {} {} {}",
    "probe rect rgba ({i}, {i}, {i}, {i}) ({}, {}, {}, {})",
    "relative probe rgb ({}, {}) ({}, {}, {})",
    "relative probe rect rgba ({}, {}, {}, {}) ({}, {}, {}, {})",
    "probe all rgba {} {} {} {}",
    "probe all rgb {} {}",
    "uniform vec4 c {} {} {} {}",
    "uniform mat4 m {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}",
    "uniform float f[{i}] {}",
    "uniform int s {i}",
    "uniform uint c {i}",
    "uniform ivec2 nothing {i} {i}",
    "texture rgbw {i} ({i}, {i})",
    "texture checkerboard {i} {i} ({i}, {i}) ({}, {}, {}, {}) ({}, {}, {}, {})",
    "texparameter 2D min linear",
    "texparameter 2D wrap_s repeat",
    "ortho",
    "ortho {} {} {} {}",
    "frustum {} {} {} {} {} {}",
    "clear color {} {} {} {}",
    "clear",
    "clear depth {}",
    "tolerance {} {} {} {}",
    "color {} {} {} {}",
    "link success",
    "enable GL_DEPTH_TEST",
    "# comment",
    "",
];

/// Values from the edges, as text.
const FLOATS: &[&str] = &[
    "0",
    "1",
    "-1",
    "0.5",
    "2",
    "-0.75",
    "250",
    "1e30",
    "-1e30",
    "inf",
    "-inf",
    "nan",
    "0x7fc00000",
    "1e-45",
    "x",
];
const INTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "8",
    "-1",
    "31",
    "32",
    "250",
    "4096",
    "2147483647",
    "0x7fffffff",
    "-2147483648",
    "010",
];

/// A line of `LINES` with its placeholders filled from `picks`.
fn fill(template: &str, picks: &[usize]) -> String {
    let mut out = String::new();
    let mut rest = template;
    let mut k = 0;
    loop {
        let float = rest.find("{}");
        let int = rest.find("{i}");
        let (at, len, table) = match (float, int) {
            (Some(f), Some(i)) if i < f => (i, 3, INTS),
            (Some(f), _) => (f, 2, FLOATS),
            (None, Some(i)) => (i, 3, INTS),
            (None, None) => break,
        };
        out.push_str(&rest[..at]);
        out.push_str(table[picks.get(k).copied().unwrap_or(0) % table.len()]);
        k += 1;
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

fn check(text: &str) {
    let report = run_text(Path::new("fuzz.shader_test"), text, &RunOptions::default());
    let lines = u32::try_from(text.split('\n').count()).unwrap_or(u32::MAX);
    let line = match &report.outcome {
        Outcome::Pass => None,
        Outcome::Fail { line, .. } => Some(*line),
        Outcome::Skip { line, .. }
        | Outcome::Error { line, .. }
        | Outcome::Mismatch { line, .. } => *line,
    };
    if let Some(line) = line {
        assert!(
            (1..=lines).contains(&line),
            "line {line} of {lines}: {report}"
        );
    }
    // the text form never panics either
    let _ = report.to_string();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn files_made_of_format_lines_never_panic(
        lines in prop::collection::vec(
            (0..LINES.len(), prop::collection::vec(0usize..64, 16)),
            0..40,
        )
    ) {
        let text: Vec<String> = lines.iter().map(|(i, picks)| fill(LINES[*i], picks)).collect();
        check(&text.join("\n"));
    }

    #[test]
    fn scripts_of_a_valid_file_never_panic(
        size in 0..INTS.len(),
        lines in prop::collection::vec(
            (31..LINES.len(), prop::collection::vec(0usize..64, 16)),
            0..24,
        )
    ) {
        let mut text = valid_header(INTS[size]);
        for (i, picks) in &lines {
            text.push('\n');
            text.push_str(&fill(LINES[*i], picks));
        }
        check(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        check(&text);
        check(&format!("[require]\nGLSL >= 3.30\n[test]\n{text}"));
    }
}

/// A file whose shaders compile, with a `SIZE size size` window (which may be out of
/// range), `[vertex data]` rows for both attribute pairs, and an empty `[test]`.
fn valid_header(size: &str) -> String {
    [
        "[require]",
        "GLSL >= 3.30",
        &format!("SIZE {size} {size}"),
        "[vertex shader]",
        LINES[21],
        LINES[22],
        LINES[23],
        "[fragment shader]",
        LINES[21],
        LINES[26],
        LINES[27],
        "[vertex data]",
        "piglit_vertex/float/2 piglit_texcoord/float/2",
        "-1 -1 0 0",
        "1 -1 1 0",
        "1 1 1 1",
        "-1 1 0 1",
        "[test]",
    ]
    .join("\n")
}

#[test]
fn a_valid_file_from_the_vocabulary_runs() {
    let text = [
        valid_header("64").as_str(),
        "uniform mat4 m 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
        "uniform vec4 c 0 0 0 0",
        "texture rgbw 0 (2, 2)",
        "draw rect tex -1 -1 2 2 0 0 1 1",
        "relative probe rgb (0.25, 0.25) (1, 0, 0)",
        "draw arrays GL_TRIANGLE_FAN 0 4",
        "relative probe rgba (0.75, 0.75) (1, 1, 1, 1)",
    ]
    .join("\n");
    let report = run_text(Path::new("v.shader_test"), &text, &RunOptions::default());
    assert_eq!(report.outcome, Outcome::Pass, "{report}");
    assert_eq!(
        fill("probe rgb {i} {i} {} {} {}", &[1, 2, 3]),
        "probe rgb 1 2 0.5 0 0"
    );
}
