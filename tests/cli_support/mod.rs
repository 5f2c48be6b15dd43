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
