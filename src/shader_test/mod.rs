//! piglit's `shader_runner` test format (`.shader_test` files), run natively: the
//! library behind `csir-render shader-test`.
//!
//! ```text
//! FILE ─parse──▶ sections ([require], [vertex shader], [fragment shader], [vertex data], [test])
//!      ─require─▶ met, or skip naming what is missing
//!      ─commands▶ the [test] script (unknown commands skip the test)
//!      ─compile─▶ linked program (errors in the .shader_test file's line numbers)
//!      ─run─────▶ draws through the pipeline into a 250×250 framebuffer, probes
//!      ─report──▶ pass / fail (first wrong pixel) / skip (why) / error (message)
//! ```
//!
//! One file per concept: [`parse`] (sections), [`require`], [`commands`] (the script),
//! [`vertex_data`], `cursor` (piglit's number syntax), `compile`, `geometry` (rectangles
//! and primitives), `fixed_function` (matrices and current values read through
//! built-in names), `textures`, [`probe`] (the tolerance rule), `run`, [`report`].
//! The format, the tolerance rule and what is supported are described in
//! docs/conformance.md.
//!
//! piglit's compiler tests (a `.vert`, `.frag` or `.geom` shader with a `[config]`
//! comment saying whether GLSL accepts it) run here too: [`compiler_test`] compiles the
//! shader alone and compares the result with the expectation. [`run_file`] picks the
//! runner by the file's extension.
//!
//! Nothing here panics on any input: every malformed file gives an error naming its
//! line.
//!
//! ```no_run
//! use csir_render::shader_test::{RunOptions, Summary, find_tests, run_file};
//! let files = find_tests(&["tests/shader_test".into()])?;
//! let reports: Vec<_> = files.iter().map(|f| run_file(f, &RunOptions::default())).collect();
//! for r in &reports {
//!     print!("{r}");
//! }
//! println!("{}", Summary::of(&reports));
//! # Ok::<(), String>(())
//! ```

pub mod commands;
mod compile;
pub mod compiler_test;
mod cursor;
pub mod error;
mod fixed_function;
#[cfg(test)]
mod fuzz_tests;
mod geometry;
pub mod gl33_selection;
pub mod parse;
pub mod probe;
pub mod report;
pub mod require;
mod run;
pub mod texture_commands;
mod textures;
mod unit_textures;
pub mod vertex_data;

pub use compile::PASSTHROUGH_VERTEX_SHADER;
pub use error::ParseError;
pub use report::{Outcome, ReasonCount, Summary, TestReport, reasons};
pub use run::{MAX_SHADER_TEST_BYTES, RunOptions, run_file, run_text};

use std::path::{Path, PathBuf};

/// The test files `paths` name: a file as given, a directory searched recursively for
/// `*.shader_test` files and piglit compiler tests (`.vert`, `.frag`, `.geom`, ...
/// files with a `[config]` block, [`compiler_test::has_config`]), sorted by path, so a
/// run is in a stable order. A compiler-test file that cannot be read is listed, so
/// that running it reports why.
///
/// # Errors
/// A message naming a path that does not exist or a directory that cannot be read.
pub fn find_tests(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if metadata.is_dir() {
            let mut found = Vec::new();
            collect(path, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "shader_test")
            || (compiler_test::stage_of(&path).is_some() && is_compiler_test(&path))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether the shader file at `path` is a piglit compiler test (it has a `[config]`
/// block), or cannot be read (running it then says why).
fn is_compiler_test(path: &Path) -> bool {
    crate::file_read::read_text_bounded(path, MAX_SHADER_TEST_BYTES)
        .map_or(true, |text| compiler_test::has_config(&text))
}
