//! A closed or full standard output never makes a command panic (issue: trustworthy
//! pipes): a closed pipe silences the rest of the output and keeps the command's exit
//! status; a failing one (`/dev/full`) prints one line and exits 1 (src/cli/out.rs).

mod cli_support;
use cli_support::*;
use std::process::{Command, Stdio};

fn csir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_csir-render"))
}

fn corpus_shader() -> String {
    format!(
        "{}/shaders/tests/corpus/bricks.frag",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_full_stdout_is_one_error_line_and_exit_1() {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let out = csir()
        .args(["compile", &corpus_shader(), "--ir"])
        .stdout(Stdio::from(full))
        .output()
        .expect("runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim_end(),
        "error: cannot write to standard output: No space left on device (os error 28)"
    );
}

/// The reader of the pipe is gone before the command prints (as `| head -0`).
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let mut child = csir()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("waits")
}

#[test]
fn a_closed_pipe_keeps_the_exit_status_and_does_not_panic() {
    let out = with_closed_stdout(&["compile", &corpus_shader(), "--ir", "--tgsi"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));

    // diff's status still says whether the images match.
    let a = reference("corpus/corpus_sdf.llvmpipe.png");
    let b = reference("corpus/corpus_misc.llvmpipe.png");
    let out = with_closed_stdout(&["diff", &a, &b]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let out = with_closed_stdout(&["diff", &a, &a]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `-o -` streams the PNG to stdout and moves the summary to stderr; an output over an
/// input (here the scene's own OBJ mesh) is refused and leaves the input alone.
#[test]
fn png_to_stdout_and_inputs_are_never_overwritten() {
    let out = bin(&["render", "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(&out.stdout[..8], b"\x89PNG\r\n\x1a\n");
    assert!(stderr(&out).contains("-> -"), "{}", stderr(&out));

    // A copy of the lit cube scene, with its shaders, texture and OBJ mesh.
    let dir = temp_dir("mesh-input");
    let refs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
    for rel in [
        "lit_cube.json",
        "shaders/lit.vert",
        "shaders/lit.frag",
        "meshes/cube.obj",
        "textures/checker.png",
    ] {
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(refs.join(rel), &to).unwrap();
    }
    let scene = dir.join("lit_cube.json");
    let mesh = dir.join("meshes/cube.obj");
    let obj = std::fs::read(&mesh).unwrap();
    let out = bin(&[
        "render",
        scene.to_str().unwrap(),
        "-o",
        mesh.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: refusing to write the output over {}, a mesh of the scene of this \
             command",
            mesh.display(),
            mesh.display()
        )
    );
    assert_eq!(std::fs::read(&mesh).unwrap(), obj);
    std::fs::remove_dir_all(&dir).unwrap();
}
