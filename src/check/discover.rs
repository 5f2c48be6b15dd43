//! Finding the scenes of a suite: the scene files named by `check`'s inputs (files as
//! given, folders searched for `*.json`), in a fixed order that sharding and merging
//! rely on, and the path of each scene's reference image.

use super::{CheckError, IMAGES_DIR, REPORT_FILE, RESULTS_FILE};
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// Every scene file named by `inputs`, sorted by path and without repeats: a file is
/// taken as it is (whatever its extension); a folder is searched recursively for
/// `*.json` files, skipping entries whose name starts with `.` and the folders in
/// `exclude` (the report folder, so a report written inside a scene folder is not read
/// back as a scene), and any other folder that holds a report (`report.html` and
/// `results.json`: one written by an earlier run). An input folder that holds a report
/// or is excluded (`check DIR --report DIR`) is searched without the report's own
/// `results.json` and `images/`. Symbolic links are followed; a link loop is an error.
///
/// The order is the order of [`Path`] (component by component), so it does not depend
/// on the order of `inputs` or of the file system; sharding ([`super::Shard`]) and
/// merging rely on it.
///
/// # Errors
/// [`CheckError::Input`] when an input does not exist or a folder cannot be read, and
/// when no scene is found at all.
pub fn find_scenes(inputs: &[PathBuf], exclude: &[PathBuf]) -> Result<Vec<PathBuf>, CheckError> {
    let excluded: Vec<PathBuf> = exclude
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let mut scenes = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input).map_err(|e| CheckError::Input {
            path: input.clone(),
            message: e.to_string(),
        })?;
        if !meta.is_dir() {
            scenes.push(input.clone());
            continue;
        }
        let root_excluded =
            input.canonicalize().is_ok_and(|p| excluded.contains(&p)) || holds_report(input);
        let walk = WalkDir::new(input)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                let hidden =
                    entry.depth() > 0 && entry.file_name().to_string_lossy().starts_with('.');
                let skip = entry.depth() > 0
                    && entry.file_type().is_dir()
                    && (holds_report(entry.path())
                        || entry
                            .path()
                            .canonicalize()
                            .is_ok_and(|p| excluded.contains(&p)));
                let report_output = root_excluded
                    && entry.depth() == 1
                    && (entry.file_name() == RESULTS_FILE || entry.file_name() == IMAGES_DIR);
                !hidden && !skip && !report_output
            });
        for entry in walk {
            let entry = entry.map_err(|e| CheckError::Input {
                path: e.path().unwrap_or(input).to_path_buf(),
                message: e
                    .io_error()
                    .map_or_else(|| e.to_string(), ToString::to_string),
            })?;
            if entry.file_type().is_file() && entry.path().extension().is_some_and(|x| x == "json")
            {
                scenes.push(entry.into_path());
            }
        }
    }
    scenes.sort();
    scenes.dedup();
    if scenes.is_empty() {
        return Err(CheckError::Input {
            path: inputs.first().cloned().unwrap_or_default(),
            message: "no scene files (*.json) found".into(),
        });
    }
    Ok(scenes)
}

/// Whether `folder` holds a check report: its page and its results file.
fn holds_report(folder: &Path) -> bool {
    folder.join(REPORT_FILE).is_file() && folder.join(RESULTS_FILE).is_file()
}

/// The reference image of `scene`: its path without the extension, then `suffix`
/// (`lit_cube.json` + `.llvmpipe.png` → `lit_cube.llvmpipe.png`).
pub fn reference_path(scene: &Path, suffix: &str) -> PathBuf {
    let mut path = scene.with_extension("").into_os_string();
    path.push(suffix);
    PathBuf::from(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("csir-check-discover-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn folders_are_searched_for_json_files_in_path_order() {
        let dir = scratch("walk");
        for file in [
            "b.json",
            "a.json",
            "sub/c.json",
            "sub/x.png",
            ".hidden/d.json",
            "out/results.json",
            "z.txt",
        ] {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "{}").unwrap();
        }
        let found = find_scenes(&[dir.join("sub"), dir.clone()], &[dir.join("out")]).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_owned())
            .collect();
        assert_eq!(
            names,
            [
                Path::new("a.json"),
                Path::new("b.json"),
                Path::new("sub/c.json")
            ]
        );
        // a file is taken whatever its extension
        assert_eq!(
            find_scenes(&[dir.join("z.txt")], &[]).unwrap(),
            [dir.join("z.txt")]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_inputs_and_empty_folders_are_errors() {
        let dir = scratch("empty");
        let err = find_scenes(&[dir.join("nope")], &[]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("{}: ", dir.join("nope").display())),
            "{err}"
        );
        let err = find_scenes(std::slice::from_ref(&dir), &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{}: no scene files (*.json) found", dir.display())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_reference_replaces_the_extension() {
        assert_eq!(
            reference_path(Path::new("r/lit_cube.json"), ".llvmpipe.png"),
            Path::new("r/lit_cube.llvmpipe.png")
        );
        assert_eq!(
            reference_path(Path::new("a.b.json"), ".png"),
            Path::new("a.b.png")
        );
    }
}
