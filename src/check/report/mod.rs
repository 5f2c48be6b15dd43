//! `report.html`: one self-contained page (styles, script and every image inlined as
//! `data:` URLs) that shows a check run, for a browser, a CI artifact or an e-mail.
//!
//! A row per scene, failures first: status, scene, the rule's verdict, thumbnails of
//! our render, the reference and the heat map, the metrics and the `trace` command for
//! the worst pixel. A click on a row opens a viewer with the full-size images side by
//! side, a slider that wipes between ours and the reference, and a blink toggle. The
//! page's script is `report.js`, its styles `report.css` (both in this folder).

mod page;
mod thumbnail;

use super::results::{CheckResults, ImagePaths};
use super::{CheckError, IMAGES_DIR, RESULTS_FILE};
use crate::file_read::{MAX_PNG_BYTES, read_bounded};
use crate::file_write::write_file;
use std::path::{Path, PathBuf};

/// The page's file name inside the report folder.
pub const REPORT_FILE: &str = "report.html";

/// Writes the report folder `dir`: `report.html`, `results.json` (the same document as
/// `--json`, image paths relative to `dir`) and, under `images/`, every image the
/// results name that is not there yet (after `--merge`, the shares' images), so the
/// folder stands alone and can itself be merged again. Returns the page's path.
///
/// # Errors
/// [`CheckError::Write`] when the folder, an image copy, the page or the JSON cannot be
/// written.
pub fn write_report(results: &CheckResults, dir: &Path) -> Result<PathBuf, CheckError> {
    let write_error = |path: &Path, e: &dyn std::fmt::Display| {
        CheckError::Write(format!("{}: {e}", path.display()))
    };
    let images = dir.join(IMAGES_DIR);
    std::fs::create_dir_all(&images).map_err(|e| write_error(&images, &e))?;
    let images = super::results::absolute(&images);
    let mut results = results.clone();
    for r in &mut results.results {
        if let Some(paths) = &r.images {
            r.images = Some(adopt(paths, &images)?);
        }
    }
    results.write_json(&dir.join(RESULTS_FILE))?;
    let page = dir.join(REPORT_FILE);
    write_file(&page, page::html(&results).as_bytes())
        .map_err(|e| CheckError::Write(e.to_string()))?;
    Ok(page)
}

/// The same images, copied into `images` where they are elsewhere.
fn adopt(paths: &ImagePaths, images: &Path) -> Result<ImagePaths, CheckError> {
    let copy = |path: &Option<PathBuf>| -> Result<Option<PathBuf>, CheckError> {
        let Some(path) = path else { return Ok(None) };
        if path.parent() == Some(images) {
            return Ok(Some(path.clone()));
        }
        let Some(name) = path.file_name() else {
            return Ok(None);
        };
        let target = images.join(name);
        // read with the PNG size limit: a results file may name any path
        match read_bounded(path, MAX_PNG_BYTES) {
            Ok(bytes) => write_file(&target, &bytes)
                .map(|()| Some(target))
                .map_err(|e| CheckError::Write(e.to_string())),
            // an image that is gone or unusable: the row shows no picture, the rest
            // of the report stands
            Err(_) => Ok(None),
        }
    };
    Ok(ImagePaths {
        ours: copy(&paths.ours)?,
        reference: copy(&paths.reference)?,
        heat_map: copy(&paths.heat_map)?,
    })
}
