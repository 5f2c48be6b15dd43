//! An error inside deeply nested loops ends the unrolling (fuzz finding, see
//! docs/robustness.md): 16 nested 16-trip loops around an unknown identifier used to
//! unroll 16^16 times and never finish; now the compile fails at once, naming the line.
//! Loops around a loop that never runs meet the work limit instead of running for hours.

use csir::{Limits, Stage, compile};
use std::time::{Duration, Instant};

fn nested(depth: usize, inner: &str) -> String {
    let mut s = String::from("void main() {\n if (gl_Vertex.x > 2.0) {\n");
    for i in 0..depth {
        s += &format!("  for (int i{i} = 0; i{i} < 16; ++i{i})\n");
    }
    s += &format!("  {inner}\n }}\n gl_Position = gl_Vertex;\n}}\n");
    s
}

#[test]
fn an_unknown_identifier_in_sixteen_nested_loops_fails_fast() {
    let source = nested(
        15,
        "for (int j = 0; i99 < 16; ++i99) { gl_TexCoord[0] = exp(gl_TexCoord[0]); }",
    );
    let start = Instant::now();
    let errors = compile(&source, "nested.vert", Stage::Vertex, &Limits::EXTENDED).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "took {:?}",
        start.elapsed()
    );
    let text = errors.to_string();
    assert!(
        text.starts_with("nested.vert:18:19: error: unknown identifier"),
        "{text}"
    );
}

#[test]
fn an_error_in_a_loop_body_is_reported_once_and_ends_the_loop() {
    let source = nested(4, "gl_TexCoord[0] = undefined_name;");
    let start = Instant::now();
    let errors = compile(&source, "body.vert", Stage::Vertex, &Limits::EXTENDED).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(errors.total(), 1, "{errors}");
    assert!(
        errors
            .to_string()
            .starts_with("body.vert:7:20: error: unknown identifier"),
        "{errors}"
    );
}

/// A loop that never runs, inside nested loops that do (a second `shader_test` fuzz
/// finding, docs/robustness.md): nothing in it is lowered and nothing fails, but each
/// unrolled iteration declares the inner loop's variable again and copies the growing
/// lowering state before the inner loop, so 15 nested 16-trip loops ran for hours
/// without reaching the work limit. Those copies count as work now.
#[test]
fn loops_around_a_loop_that_never_runs_meet_the_work_limit() {
    let inner = "for (int j = 0; j < 0; ++j) { gl_TexCoord[0] = exp(gl_TexCoord[0]); }";
    let start = Instant::now();
    let errors = compile(
        &nested(15, inner),
        "nested.vert",
        Stage::Vertex,
        &Limits::EXTENDED,
    )
    .unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "took {:?}",
        start.elapsed()
    );
    assert_eq!(
        errors.diagnostics()[0].message,
        "shader exceeds the compile-time work limit (200000 units: statements and expression nodes lowered, unrolled and inlined copies included)",
        "{errors}"
    );
    // Two levels (256 iterations of the empty loop) stay well within it.
    let shader = compile(
        &nested(2, inner),
        "nested.vert",
        Stage::Vertex,
        &Limits::EXTENDED,
    )
    .expect("compiles");
    assert!(shader.ir.len() < 16, "{} instructions", shader.ir.len());
}
