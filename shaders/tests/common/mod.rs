//! Helpers for the front-end tests: compile a snippet, run it on the interpreter.
#![allow(dead_code)]

use csir::exec::{Inputs, Machine, NoSamplers, Outputs, Samplers};
use csir::{Limits, Shader, Stage, compile};

/// A fragment shader with `uniform vec4 u; uniform vec4 v; out vec4 c;`, the global
/// declarations `decls` and `main`'s body `body`.
pub fn frag_src(decls: &str, body: &str) -> String {
    format!(
        "#version 330 core\nuniform vec4 u;\nuniform vec4 v;\nout vec4 c;\n{decls}\nvoid main() {{\n{body}\n}}\n"
    )
}

/// Compile a `.vert` / `.frag` file (the stage from the extension) or panic.
pub fn compile_path(path: &std::path::Path) -> Shader {
    let name = path.file_name().unwrap().to_str().unwrap();
    let stage = if name.ends_with(".frag") {
        Stage::Fragment
    } else {
        Stage::Vertex
    };
    let source = std::fs::read_to_string(path).unwrap();
    // The renderer's profile: corpus shaders may use extended instructions
    // (gl_FrontFacing's LOAD_FACE).
    compile(&source, name, stage, &Limits::EXTENDED).unwrap_or_else(|e| panic!("{e}"))
}

/// Compile or panic with the diagnostics.
pub fn build(src: &str, stage: Stage) -> Shader {
    match compile(src, "test", stage, &Limits::default()) {
        Ok(s) => s,
        Err(e) => panic!("compile failed:\n{e}\n--- source ---\n{src}"),
    }
}

/// The diagnostics text of a failing compile (panics if it compiles).
pub fn errors(src: &str, stage: Stage) -> String {
    match compile(src, "t.glsl", stage, &Limits::default()) {
        Ok(_) => panic!("compiled but should not:\n{src}"),
        Err(e) => e.to_string(),
    }
}

/// Just the messages of a failing compile.
pub fn messages(src: &str, stage: Stage) -> Vec<String> {
    match compile(src, "t.glsl", stage, &Limits::default()) {
        Ok(_) => panic!("compiled but should not:\n{src}"),
        Err(e) => e.diagnostics().iter().map(|d| d.message.clone()).collect(),
    }
}

/// The diagnostics of a failing compile as `t.glsl:LINE:COL: MESSAGE` (panics if it
/// compiles).
pub fn located(src: &str, stage: Stage) -> Vec<String> {
    located_with(src, stage, &Limits::default())
}

/// [`located`] under the given limits (the profile decides some rules).
pub fn located_with(src: &str, stage: Stage, limits: &Limits) -> Vec<String> {
    match compile(src, "t.glsl", stage, limits) {
        Ok(_) => panic!("compiled but should not:\n{src}"),
        Err(e) => e
            .diagnostics()
            .iter()
            .map(|d| format!("t.glsl:{}:{}: {}", d.line, d.col, d.message))
            .collect(),
    }
}

/// Run a compiled shader once.
pub fn run(
    shader: &Shader,
    uniforms: &[[f32; 4]],
    io: &[[f32; 4]],
    samplers: &dyn Samplers,
) -> Outputs {
    let mut m = Machine::new(shader).expect("compiled shaders verify");
    let mut out = Outputs::default();
    let inputs = Inputs {
        uniforms,
        attributes: io,
        varyings: io,
        samplers,
        frag_coord: [0.5, 1.5, 0.25, 1.0],
        ..Inputs::default()
    };
    m.run(&inputs, &mut out).expect("runs");
    out
}

/// Compile `frag_src(decls, body)` and return `c` for uniforms u, v.
pub fn eval(decls: &str, body: &str, u: [f32; 4], v: [f32; 4]) -> [f32; 4] {
    let s = build(&frag_src(decls, body), Stage::Fragment);
    run(&s, &[u, v], &[], &NoSamplers).color
}

/// `eval` with no globals and zero uniforms except `u`.
pub fn eval_u(body: &str, u: [f32; 4]) -> [f32; 4] {
    eval("", body, u, [0.0; 4])
}

/// Assert four lanes within `eps`.
pub fn close(got: [f32; 4], want: [f32; 4], eps: f32) {
    for i in 0..4 {
        assert!(
            (got[i] - want[i]).abs() <= eps || (got[i].is_nan() && want[i].is_nan()),
            "lane {i}: got {got:?}, want {want:?}"
        );
    }
}
