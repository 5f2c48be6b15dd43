//! Helpers shared by the command-line tests: run the built binary, read its output,
//! find the reference files, make a scratch folder.

#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run `csir-render ARGS...` and wait for it.
pub fn bin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csir-render"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Its standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Its standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `reference-images/REL` as a string argument.
pub fn reference(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference-images")
        .join(rel)
        .display()
        .to_string()
}

/// A fresh scratch folder for `test` (remove it when done).
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csir-render-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `p.json` (with `p.vert` and `p.frag`) into `dir`: an 8×8 scene whose one
/// full-screen triangle is coloured `vec4(1.0 / z, 0, 0, 1)` with `z = 0`, red 255 in
/// the extended profile (+inf, clamped) and 0 in the seed profile (RCP(0) = 0).
/// Returns the scene's path.
pub fn reciprocal_of_zero_scene(dir: &Path) -> PathBuf {
    std::fs::write(
        dir.join("p.vert"),
        "#version 330 core\nlayout(location = 0) in vec2 aPos;\n\
         void main() { gl_Position = vec4(aPos, 0.0, 1.0); }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("p.frag"),
        "#version 330 core\nuniform float z;\nout vec4 c;\n\
         void main() { c = vec4(1.0 / z, 0.0, 0.0, 1.0); }\n",
    )
    .unwrap();
    let scene = dir.join("p.json");
    std::fs::write(
        &scene,
        r#"{"format": "csir-scene/1", "width": 8, "height": 8,
            "clear": {"color": [0.0, 0.0, 0.0, 1.0]},
            "draws": [{"vertex": "p.vert", "fragment": "p.frag",
              "attributes": [{"location": 0, "size": 2, "data": [-1, -1, 3, -1, -1, 3]}],
              "uniforms": {"z": 0.0},
              "state": {"depth_test": "none", "cull": "none", "blend": "none"}}]}"#,
    )
    .unwrap();
    scene
}
