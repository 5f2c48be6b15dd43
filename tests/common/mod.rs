//! Helpers shared by the integration tests: where the reference scenes are.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `reference-images/` in the checkout.
pub fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images")
}

/// Every scene (`*.json`) in `reference-images/` and its direct subfolders, sorted.
pub fn reference_scenes() -> Vec<PathBuf> {
    let mut scenes = Vec::new();
    let mut folders = vec![reference_dir()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("reference-images/ is readable") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() && folder == reference_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                scenes.push(path);
            }
        }
    }
    scenes.sort();
    scenes
}
