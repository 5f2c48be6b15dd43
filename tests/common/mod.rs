//! Helpers shared by the integration tests: where the reference scenes are.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `reference-images/` in the checkout.
pub fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images")
}

/// Every scene (`*.json`) in `reference-images/` and its subfolders, sorted: what
/// `csir-render check reference-images` checks.
pub fn reference_scenes() -> Vec<PathBuf> {
    csir_render::check::find_scenes(&[reference_dir()], &[]).unwrap_or_else(|e| panic!("{e}"))
}
pub mod piglit;
