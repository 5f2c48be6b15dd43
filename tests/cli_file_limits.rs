//! Every file the command line reads is read with a size limit: endless sources such as
//! `/dev/zero` fail at once instead of hanging, pipes still work but are cut off at the
//! limit, and text that is not UTF-8 says where.

mod cli_support;

use cli_support::{reference, stderr, temp_dir};
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run `csir-render ARGS...` feeding `stdin` (repeated forever when `endless`), and
/// fail the test rather than hang if it takes more than a minute.
fn bin_fed(args: &[&str], stdin: &[u8], endless: bool) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_csir-render"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("piped stdin");
    let chunk = stdin.to_vec();
    // Write until done or until the binary closes the pipe (EPIPE: SIGPIPE is ignored
    // in Rust programs).
    let writer = std::thread::spawn(move || while input.write_all(&chunk).is_ok() && endless {});
    let start = Instant::now();
    while child.try_wait().expect("waitable").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("csir-render {args:?} did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let _ = writer.join();
    out
}

/// Run `csir-render ARGS...` with nothing on stdin (see [`bin_fed`]).
fn bin(args: &[&str]) -> Output {
    bin_fed(args, b"", false)
}

fn assert_fails_with(out: &Output, message: &str) {
    assert!(!out.status.success(), "{}", stderr(out));
    assert!(
        stderr(out).contains(message),
        "wanted {message:?} in: {}",
        stderr(out)
    );
}

#[cfg(target_os = "linux")]
#[test]
fn dev_zero_is_refused_by_every_command() {
    let dir = temp_dir("dev-zero");
    let out_png = dir.join("out.png");
    let out_png = out_png.to_str().unwrap();
    let frag = reference("shaders/lit.frag");
    let refused = "/dev/zero: not a regular file";
    assert_fails_with(&bin(&["diff", "/dev/zero", "/dev/zero"]), refused);
    let scene_refused = "/dev/zero: cannot read the scene: not a regular file";
    assert_fails_with(&bin(&["render", "/dev/zero", "-o", out_png]), scene_refused);
    assert_fails_with(
        &bin(&["trace", "/dev/zero", "--pixel", "0,0"]),
        scene_refused,
    );
    assert_fails_with(&bin(&["compile", "/dev/zero", "--stage", "frag"]), refused);
    assert_fails_with(&bin(&["run", "/dev/zero", "--stage", "frag"]), refused);
    assert_fails_with(
        &bin(&["run", &frag, "--texture", "uTex=/dev/zero"]),
        "--texture uTex: /dev/zero: not a regular file",
    );
    // A scene naming /dev/zero as a texture.
    let scene = dir.join("zero_texture.json");
    let lit_cube = std::fs::read_to_string(reference("lit_cube.json")).unwrap();
    assert!(lit_cube.contains("textures/checker.png"));
    let edited = lit_cube
        .replace("textures/checker.png", "/dev/zero")
        .replace("shaders/", &reference("shaders/"))
        .replace("meshes/", &reference("meshes/"));
    std::fs::write(&scene, edited).unwrap();
    let out = bin(&["render", scene.to_str().unwrap(), "-o", out_png]);
    assert_fails_with(&out, "cannot read /dev/zero: not a regular file");
    assert!(!std::path::Path::new(out_png).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn shader_sources_from_pipes_are_read_up_to_the_compile_limit() {
    let source = std::fs::read(reference("shaders/lit.frag")).unwrap();
    let ok = bin_fed(
        &["compile", "/dev/stdin", "--stage", "frag"],
        &source,
        false,
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    let endless = bin_fed(
        &["compile", "/dev/stdin", "--stage", "frag"],
        b"// x\n",
        true,
    );
    assert_fails_with(&endless, "/dev/stdin: larger than the 65536-byte limit");
    let endless = bin_fed(&["run", "/dev/stdin", "--stage", "frag"], b"// x\n", true);
    assert_fails_with(&endless, "/dev/stdin: larger than the 65536-byte limit");
}

#[test]
fn shader_sources_over_the_compile_limit_or_not_utf8_are_refused() {
    let dir = temp_dir("shader-files");
    let big = dir.join("big.frag");
    std::fs::write(&big, vec![b' '; 64 * 1024 + 1]).unwrap();
    let latin1 = dir.join("latin1.frag");
    std::fs::write(&latin1, b"#version 330 core\n// caf\xe9\nvoid main() {}\n").unwrap();
    let big = big.to_str().unwrap();
    let latin1 = latin1.to_str().unwrap();
    for command in ["compile", "run"] {
        assert_fails_with(
            &bin(&[command, big]),
            &format!("error: {big}: 65537 bytes, larger than the 65536-byte limit"),
        );
        assert_fails_with(
            &bin(&[command, latin1]),
            &format!("error: {latin1}: not UTF-8 text (invalid byte at line 2, column 7)"),
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
