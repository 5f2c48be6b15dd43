//! Reference checks at scale (`csir-render check`): render every scene of a suite,
//! judge each against its reference image by the tolerance rule
//! ([`crate::compare::ToleranceRule`], or the scene's own `expect` block), and report
//! the results as text, JSON, JUnit XML and a self-contained HTML page.
//!
//! ```text
//! inputs ──discover.rs──▶ scene paths (sorted) ──shard.rs──▶ this machine's share
//!        ──scene_check.rs──▶ SceneResult per scene (load, render, compare, images)
//!        ──results.rs──▶ CheckResults ──▶ JSON (merge.rs reads shares back)
//!                                     ──▶ junit.rs: JUnit XML
//!                                     ──▶ report/: report.html
//! ```
//!
//! `docs/reference-checks.md` describes the command, the files it writes and how to
//! spread a suite over many machines.
//!
//! ```no_run
//! use csir_render::check::{CheckOptions, CheckResults, check_scenes, find_scenes};
//! let scenes = find_scenes(&["reference-images".into()], &[])?;
//! let results = check_scenes(&scenes, &CheckOptions::default(), &|_| {});
//! let results = CheckResults::new(None, scenes.len(), results);
//! println!("{}", results.summary()); // "20 passed, 0 failed, 0 errors"
//! # Ok::<(), csir_render::check::CheckError>(())
//! ```

mod discover;
mod junit;
mod report;
mod results;
mod scene_check;
mod shard;
mod target_check;

pub use discover::{find_scenes, reference_path};
pub use junit::{junit_xml, write_junit};
pub use report::{REPORT_FILE, write_report};
pub use results::{
    COMPARED_WITH_FILES, CheckResults, DRAWN_BY_CSIR_RENDER, ImagePaths, Metrics, RESULTS_FORMAT,
    ReferenceWrite, SceneResult, Status, Summary,
};
pub use scene_check::{CheckOptions, Renderers, UpdatePolicy, check_scene};
pub use shard::Shard;

use rayon::prelude::*;
use std::path::PathBuf;

/// The results file inside a report folder.
pub const RESULTS_FILE: &str = "results.json";

/// The folder inside a report folder that holds the scenes' images.
pub const IMAGES_DIR: &str = "images";

/// Why a check run could not be made or its results not be written. (A scene that
/// fails or cannot be checked is a result, not an error.)
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// An input file or folder is missing or unreadable, or holds no scenes.
    #[error("{}: {message}", .path.display())]
    Input {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A results file cannot be read or is not a results file.
    #[error("{}: {message}", .path.display())]
    Results {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Results cannot be merged (a share missing or twice, different suites).
    #[error("cannot merge: {0}")]
    Merge(String),
    /// An output (report, JSON, JUnit, image) cannot be written; the message names it.
    #[error("{0}")]
    Write(String),
    /// The options cannot be carried out together, or the GL driver they need cannot
    /// be opened; the message says which.
    #[error("{0}")]
    Usage(String),
}

/// Checks every scene of `scenes` with [`check_scene`], several at once on the current
/// rayon pool (each render also draws its tiles on that pool, so its size bounds all
/// threads). `on_done` is called as each scene finishes, from the worker threads, in
/// any order. The results are in the order of `scenes`; each render's bytes are the
/// same whatever the pool's size or the other scenes.
pub fn check_scenes(
    scenes: &[PathBuf],
    options: &CheckOptions,
    on_done: &(dyn Fn(&SceneResult) + Sync),
) -> Vec<SceneResult> {
    scenes
        .par_iter()
        .map(|scene| {
            let result = check_scene(scene, options);
            on_done(&result);
            result
        })
        .collect()
}
