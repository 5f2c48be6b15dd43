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

/// Every artifact flag given `-` streams the artifact alone to stdout, with the status
/// text on stderr; two artifacts to `-`, an artifact and a text dump, or a report folder
/// to `-` are refused by name before any work.
#[test]
fn artifacts_to_stdout_are_never_mixed_with_text() {
    let a = reference("triangle.llvmpipe.png");
    let out = bin(&["diff", &a, &a, "--heatmap", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(&out.stdout[..8], b"\x89PNG\r\n\x1a\n");
    assert!(stderr(&out).contains("0 pixels differ"), "{}", stderr(&out));

    let out = bin(&["compile", &corpus_shader(), "--csi", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // CSI v2 begins with the magic `CSIR` and the version 2 as a little-endian u32.
    assert_eq!(&out.stdout[..8], b"CSIR\x02\0\0\0");
    assert!(
        stderr(&out).contains("fragment shader OK"),
        "{}",
        stderr(&out)
    );

    let scene = reference("triangle.json");
    let out = bin(&["check", &scene, "--json", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON alone");
    assert_eq!(doc["results"][0]["status"], "passed", "{doc}");
    assert!(stderr(&out).contains("1 passed"), "{}", stderr(&out));

    let out = bin(&["check", &scene, "--junit", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("<?xml"), "{}", stdout(&out));

    // check's usage errors exit 2 (nothing could be checked), compile's exit 1.
    for (args, code, message) in [
        (
            vec!["check", &scene, "--json", "-", "--junit", "-"],
            2,
            "error: --json - and --junit - both write to standard output: give one of them a file",
        ),
        (
            vec!["compile", &corpus_shader(), "--csi", "-", "--tgsi"],
            1,
            "error: --csi - writes to standard output, and --tgsi prints there too: give --csi \
             a file, or leave out --tgsi",
        ),
    ] {
        let out = bin(&args);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr(&out).trim_end(), message);
    }
    let out = bin(&["check", &scene, "--report", "-"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("--report - : the report is a folder"),
        "{}",
        stderr(&out)
    );
}

/// `-o /dev/stdout` into a pipe is written into (the link points at `pipe:[N]`, no path).
#[test]
fn dev_stdout_as_a_pipe_is_written_into() {
    let out = bin(&["render", "-o", "/dev/stdout"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(&out.stdout[..8], b"\x89PNG\r\n\x1a\n");
}

/// A run stopped by SIGTERM while it renders leaves no output and no hidden temporary.
#[test]
fn a_terminated_render_leaves_nothing_behind() {
    let dir = temp_dir("sigterm");
    let png = dir.join("out.png");
    let mut child = csir()
        .args(["render", "-o", png.to_str().unwrap(), "--frames", "100000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let pid = child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
