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
