//! The results of a `check` run: one record per scene (status, metrics, image paths,
//! the trace command for its worst pixel), the summary counts, and the `csir-check/1`
//! JSON that `--json` writes and `--merge` reads back (`docs/reference-checks.md`).

use super::{CheckError, Shard};
use crate::compare::{ImageDiff, ToleranceRule};
use crate::file_write::write_file;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The `format` value of a results document (`--json`, `results.json`).
pub const RESULTS_FORMAT: &str = "csir-check/1";

/// The results of a `check` run, or of several merged: what `--json` writes and
/// `--merge` reads (`docs/reference-checks.md` shows the JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResults {
    /// Always [`RESULTS_FORMAT`].
    pub format: String,
    /// The share of the suite this run checked; `None` for a whole suite or a merge.
    pub shard: Option<Shard>,
    /// Scenes found before sharding (the whole suite's size), so a merge can tell
    /// whether every share is there.
    pub scenes_found: usize,
    /// One result per scene checked, in scene path order.
    pub results: Vec<SceneResult>,
    /// Who drew the images checked: `csir-render` (the CPU renderer), or `GL driver
    /// RENDERER` (`check --backend gl`). Results without it were drawn by csir-render.
    #[serde(default = "default_drawn_by")]
    pub drawn_by: String,
    /// What they were judged against: `reference files`, or `GL driver RENDERER`
    /// (`check --against gl`). Results without it were judged against the files.
    #[serde(default = "default_compared_with")]
    pub compared_with: String,
}

/// [`CheckResults::drawn_by`] of the CPU renderer.
pub const DRAWN_BY_CSIR_RENDER: &str = "csir-render";

/// [`CheckResults::compared_with`] for reference files.
pub const COMPARED_WITH_FILES: &str = "reference files";

fn default_drawn_by() -> String {
    DRAWN_BY_CSIR_RENDER.into()
}

fn default_compared_with() -> String {
    COMPARED_WITH_FILES.into()
}

/// How one scene's check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The render does not match its reference (the rule is broken, or the sizes
    /// differ). Exit status 1.
    Failed,
    /// The scene could not be checked: it does not load or render, or its reference
    /// is missing or unreadable. Exit status 2.
    Error,
    /// The render matches its reference under the scene's rule.
    Passed,
}

impl Status {
    /// `passed`, `failed` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Error => "error",
        }
    }
}

/// What `--update` did to a scene's reference image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReferenceWrite {
    /// There was none; our render was written as the reference.
    Created,
    /// The reference did not match and `--force` replaced it with our render.
    Replaced,
}

/// One scene's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneResult {
    /// The scene file, as found (`reference-images/lit_cube.json`).
    pub scene: String,
    /// Its reference image (`reference-images/lit_cube.llvmpipe.png`).
    pub reference: String,
    /// Passed, failed or error.
    pub status: Status,
    /// Why it failed (each broken bound, `; `-separated) or what the error is; for a
    /// written reference, what was done. `None` for a plain pass.
    pub message: Option<String>,
    /// The rule the render was judged by; `None` when the scene did not load.
    pub rule: Option<ToleranceRule>,
    /// True when the rule is the scene's own `expect` block, false for the project's.
    pub scene_rule: bool,
    /// The comparison's metrics; `None` when no comparison was made.
    pub metrics: Option<Metrics>,
    /// What `--update` did to the reference, if anything.
    pub reference_written: Option<ReferenceWrite>,
    /// Wall time of the whole check of this scene (load, render, compare), seconds.
    pub seconds: f64,
    /// The `csir-render trace` command line for the worst pixel, ready to paste into a
    /// shell; `None` when the images are identical or were not compared.
    pub trace: Option<String>,
    /// The images kept for the report; `None` when no report folder was given.
    pub images: Option<ImagePaths>,
    /// One of [`CheckOptions::outputs`](super::CheckOptions::outputs) is one of this
    /// scene's files (its message names both): the run must write none of them. Not
    /// part of the results file.
    #[serde(skip)]
    pub overwrites_input: bool,
}

/// The comparison's metrics ([`ImageDiff`] in a form JSON can hold).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// Largest channel difference, 0..=255.
    pub max_channel_diff: u8,
    /// Mean absolute error over R, G and B, 1/255 units.
    pub mean_abs_error: f64,
    /// PSNR over R, G and B in dB; `None` (JSON `null`) for identical images.
    pub psnr_db: Option<f64>,
    /// Pixels that differ at all.
    pub differing_pixels: u64,
    /// Pixels over the rule's tolerance.
    pub over_tolerance_pixels: u64,
    /// The same as a percentage of all pixels.
    pub over_tolerance_percent: f64,
    /// The first pixel with the largest difference, `[x, y]` from the top-left.
    pub worst_pixel: Option<[u32; 2]>,
}

impl From<&ImageDiff> for Metrics {
    fn from(d: &ImageDiff) -> Self {
        Metrics {
            width: d.width,
            height: d.height,
            max_channel_diff: d.max_channel_diff,
            mean_abs_error: d.mean_abs_error,
            psnr_db: d.psnr_db.is_finite().then_some(d.psnr_db),
            differing_pixels: d.differing_pixels,
            over_tolerance_pixels: d.over_tolerance_pixels,
            over_tolerance_percent: d.over_tolerance_percent(),
            worst_pixel: d.worst_pixel,
        }
    }
}

impl SceneResult {
    /// The metrics in one line: `max diff 3/255, 12 pixels (0.016%) over 2/255, mean
    /// abs error 0.0123/255, PSNR 58.10 dB`; `None` without metrics.
    pub fn metrics_text(&self) -> Option<String> {
        let m = self.metrics.as_ref()?;
        let tolerance = self.rule.map_or(0, |r| r.tolerance);
        Some(format!(
            "max diff {}/255, {} pixels ({:.3}%) over {tolerance}/255, mean abs error {:.4}/255, PSNR {}",
            m.max_channel_diff,
            m.over_tolerance_pixels,
            m.over_tolerance_percent,
            m.mean_abs_error,
            m.psnr_db
                .map_or_else(|| "inf (identical)".to_string(), |p| format!("{p:.2} dB")),
        ))
    }

    /// The rule in words, with where it comes from: `at most 0.5% … (project rule)`.
    pub fn rule_text(&self) -> Option<String> {
        let rule = self.rule?;
        let from = if self.scene_rule {
            "scene's expect block"
        } else {
            "project rule"
        };
        Some(format!("{rule} ({from})"))
    }
}

/// The PNG files kept for a scene's report row. In memory the paths are absolute; in a
/// results file they are relative to the file's folder when they lie under it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImagePaths {
    /// Our render.
    pub ours: Option<PathBuf>,
    /// A copy of the reference image.
    pub reference: Option<PathBuf>,
    /// The heat map of |ours − reference| ([`crate::compare::heat_map`], gain 16).
    pub heat_map: Option<PathBuf>,
}

impl ImagePaths {
    fn map(&self, f: impl Fn(&Path) -> PathBuf) -> ImagePaths {
        ImagePaths {
            ours: self.ours.as_deref().map(&f),
            reference: self.reference.as_deref().map(&f),
            heat_map: self.heat_map.as_deref().map(&f),
        }
    }
}

/// How many scenes passed, failed and could not be checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Scenes whose render matches.
    pub passed: usize,
    /// Scenes whose render does not match.
    pub failed: usize,
    /// Scenes that could not be checked.
    pub errors: usize,
    /// References written by `--update`.
    pub written: usize,
}

impl Summary {
    /// The process exit status: 2 when any scene had an error, else 1 when any
    /// failed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

impl fmt::Display for Summary {
    /// The closing line: `N passed, N failed, N errors`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} errors",
            self.passed, self.failed, self.errors
        )
    }
}

impl CheckResults {
    /// Results of a run over `scenes_found` scenes (`shard` when only a share was
    /// checked), sorted by scene path.
    pub fn new(shard: Option<Shard>, scenes_found: usize, mut results: Vec<SceneResult>) -> Self {
        sort_by_scene(&mut results);
        CheckResults {
            format: RESULTS_FORMAT.into(),
            shard,
            scenes_found,
            results,
            drawn_by: default_drawn_by(),
            compared_with: default_compared_with(),
        }
    }

    /// The same results, recorded as drawn by `drawn_by` and judged against
    /// `compared_with` ([`CheckResults::drawn_by`], [`CheckResults::compared_with`]).
    pub fn drawn(mut self, drawn_by: impl Into<String>, compared_with: impl Into<String>) -> Self {
        self.drawn_by = drawn_by.into();
        self.compared_with = compared_with.into();
        self
    }

    /// The counts for the closing line and the exit status.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for r in &self.results {
            match r.status {
                Status::Passed => s.passed += 1,
                Status::Failed => s.failed += 1,
                Status::Error => s.errors += 1,
            }
            s.written += usize::from(r.reference_written.is_some());
        }
        s
    }

    /// The results in report order: failures first, then errors, then passes, each
    /// group by scene path.
    pub fn in_report_order(&self) -> Vec<&SceneResult> {
        let mut rows: Vec<&SceneResult> = self.results.iter().collect();
        rows.sort_by_key(|r| r.status); // stable: path order inside a group
        rows
    }

    /// Writes the results as pretty JSON to `path` (atomically), with image paths made
    /// relative to `path`'s folder where they lie under it.
    ///
    /// # Errors
    /// [`CheckError::Write`] when the file cannot be written.
    pub fn write_json(&self, path: &Path) -> Result<(), CheckError> {
        let base = absolute(folder_of(path));
        let mut doc = self.clone();
        for r in &mut doc.results {
            r.images = r.images.as_ref().map(|i| {
                i.map(|p| {
                    p.strip_prefix(&base)
                        .map_or_else(|_| p.to_path_buf(), Path::to_path_buf)
                })
            });
        }
        let text = serde_json::to_string_pretty(&doc).expect("results serialize");
        write_file(path, format!("{text}\n").as_bytes())
            .map_err(|e| CheckError::Write(e.to_string()))
    }

    /// Reads a results file written by [`CheckResults::write_json`], or the
    /// `results.json` inside a report folder; image paths come back absolute.
    ///
    /// # Errors
    /// [`CheckError::Results`] when the file cannot be read, is not JSON of this
    /// format, or holds another format version.
    pub fn read_json(path: &Path) -> Result<CheckResults, CheckError> {
        let file = if path.is_dir() {
            path.join(super::RESULTS_FILE)
        } else {
            path.to_path_buf()
        };
        let error = |message: String| CheckError::Results {
            path: file.clone(),
            message,
        };
        let text = crate::file_read::read_text_bounded(&file, crate::file_read::MAX_SCENE_BYTES)
            .map_err(|e| error(e.to_string()))?;
        // The scene reader's parser first: a key given twice is an error (serde_json
        // would keep the last), with its line and column.
        crate::scene::json::parse(&text).map_err(|e| {
            error(format!(
                "line {} column {}: {}",
                e.line, e.column, e.message
            ))
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| error(e.to_string()))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(RESULTS_FORMAT) => {}
            other => {
                return Err(error(format!(
                    "not a check results file (format {}, expected \"{RESULTS_FORMAT}\")",
                    other.map_or_else(|| "missing".to_string(), |f| format!("{f:?}"))
                )));
            }
        }
        let mut doc: CheckResults =
            serde_json::from_value(value).map_err(|e| error(e.to_string()))?;
        if let Some(s) = doc.shard
            && !(1..=s.count).contains(&s.index)
        {
            return Err(error(format!(
                "shard {}/{} is not a share (I counts from 1 to N)",
                s.index, s.count
            )));
        }
        let base = absolute(folder_of(&file));
        for r in &mut doc.results {
            r.images = r.images.as_ref().map(|i| i.map(|p| base.join(p)));
        }
        Ok(doc)
    }

    /// Merges the results of the shares of one suite (or of separate runs) into one,
    /// as if one run had checked every scene.
    ///
    /// # Errors
    /// [`CheckError::Merge`] when the documents disagree on the suite's size, when a
    /// share is given twice or missing, or when a scene appears twice.
    pub fn merge(parts: Vec<(PathBuf, CheckResults)>) -> Result<CheckResults, CheckError> {
        let Some((_, first)) = parts.first() else {
            return Err(CheckError::Merge("nothing to merge".into()));
        };
        let scenes_found = first.scenes_found;
        let (drawn_by, compared_with) = (first.drawn_by.clone(), first.compared_with.clone());
        if let Some((path, part)) = parts
            .iter()
            .find(|(_, p)| (&p.drawn_by, &p.compared_with) != (&drawn_by, &compared_with))
        {
            return Err(CheckError::Merge(format!(
                "{} holds images drawn by {} against {}, {} by {drawn_by} against \
                 {compared_with}: not the same check",
                path.display(),
                part.drawn_by,
                part.compared_with,
                parts[0].0.display()
            )));
        }
        let sharded: Vec<Shard> = parts.iter().filter_map(|(_, p)| p.shard).collect();
        if !sharded.is_empty() {
            let count = sharded[0].count;
            for (path, part) in &parts {
                match part.shard {
                    None => {
                        return Err(CheckError::Merge(format!(
                            "{} holds a whole run, the others are shares",
                            path.display()
                        )));
                    }
                    Some(s) if !(1..=s.count).contains(&s.index) => {
                        return Err(CheckError::Merge(format!(
                            "{} holds share {s}, which is not a share",
                            path.display()
                        )));
                    }
                    Some(s) if s.count != count => {
                        return Err(CheckError::Merge(format!(
                            "{} is share {s}, others are shares of {count}",
                            path.display()
                        )));
                    }
                    Some(_) => {}
                }
                if part.scenes_found != scenes_found {
                    return Err(CheckError::Merge(format!(
                        "{} found {} scenes, {} found {scenes_found}: not the same suite",
                        path.display(),
                        part.scenes_found,
                        parts[0].0.display()
                    )));
                }
            }
            let mut seen = vec![false; count as usize];
            for (path, part) in &parts {
                let index = part.shard.map_or(0, |s| s.index) as usize;
                if std::mem::replace(&mut seen[index - 1], true) {
                    return Err(CheckError::Merge(format!(
                        "share {index}/{count} is given twice (again in {})",
                        path.display()
                    )));
                }
            }
            let missing: Vec<String> = (1..=count)
                .filter(|i| !seen[*i as usize - 1])
                .map(|i| format!("{i}/{count}"))
                .collect();
            if !missing.is_empty() {
                return Err(CheckError::Merge(format!(
                    "missing share{} {}",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                )));
            }
        }
        let whole = sharded.is_empty();
        let mut results: Vec<SceneResult> = Vec::new();
        let mut total = 0;
        for (_, part) in parts {
            total += part.scenes_found;
            results.extend(part.results);
        }
        sort_by_scene(&mut results);
        if let Some(pair) = results.windows(2).find(|w| w[0].scene == w[1].scene) {
            return Err(CheckError::Merge(format!(
                "{} is in more than one of the results",
                pair[0].scene
            )));
        }
        let scenes_found = if whole { total } else { scenes_found };
        if results.len() != scenes_found {
            return Err(CheckError::Merge(format!(
                "the shares hold {} results for a suite of {scenes_found} scenes",
                results.len()
            )));
        }
        Ok(CheckResults::new(None, scenes_found, results).drawn(drawn_by, compared_with))
    }
}

/// Sorts results the way [`super::find_scenes`] sorts scenes.
fn sort_by_scene(results: &mut [SceneResult]) {
    results.sort_by(|a, b| Path::new(&a.scene).cmp(Path::new(&b.scene)));
}

/// `path`'s folder (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `path` made absolute against the current folder (unchanged when that fails).
pub(super) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(scene: &str, status: Status) -> SceneResult {
        SceneResult {
            scene: scene.into(),
            reference: scene.replace(".json", ".llvmpipe.png"),
            status,
            message: None,
            rule: Some(ToleranceRule::PROJECT),
            scene_rule: false,
            metrics: None,
            reference_written: None,
            seconds: 0.25,
            trace: None,
            images: None,
            overwrites_input: false,
        }
    }

    #[test]
    fn shares_drawn_by_different_renderers_do_not_merge() {
        let a = shard(1, 2, &[("a.json", Status::Passed)], 2);
        let b = shard(2, 2, &[("b.json", Status::Passed)], 2).drawn(
            "GL driver llvmpipe (LLVM 15.0.6, 256 bits)",
            COMPARED_WITH_FILES,
        );
        let e = CheckResults::merge(vec![
            ("a.json".into(), a.clone()),
            ("b.json".into(), b.clone()),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("b.json holds images drawn by GL driver llvmpipe (LLVM 15.0.6, 256 bits) against reference files, a.json by csir-render against reference files"),
            "{e}"
        );
        let gl = |r: CheckResults| r.drawn("GL driver x", COMPARED_WITH_FILES);
        let merged =
            CheckResults::merge(vec![("a.json".into(), gl(a)), ("b.json".into(), gl(b))]).unwrap();
        assert_eq!(merged.drawn_by, "GL driver x");
        // results written before the fields existed read as csir-render's, against files
        let json = serde_json::to_string(&merged).unwrap();
        let old = json.replace(
            r#","drawn_by":"GL driver x","compared_with":"reference files""#,
            "",
        );
        assert_ne!(old, json, "{json}");
        let read: CheckResults = serde_json::from_str(&old).unwrap();
        assert_eq!(
            (read.drawn_by.as_str(), read.compared_with.as_str()),
            (DRAWN_BY_CSIR_RENDER, COMPARED_WITH_FILES)
        );
    }

    fn shard(index: u32, count: u32, scenes: &[(&str, Status)], found: usize) -> CheckResults {
        CheckResults::new(
            Some(Shard { index, count }),
            found,
            scenes.iter().map(|(s, st)| result(s, *st)).collect(),
        )
    }

    #[test]
    fn a_results_file_with_a_key_given_twice_is_refused() {
        let dir = std::env::temp_dir().join(format!("csir-results-dup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let doc = shard(1, 1, &[("a.json", Status::Passed)], 1);
        let json = serde_json::to_string_pretty(&doc).unwrap();
        std::fs::write(&path, &json).unwrap();
        assert!(CheckResults::read_json(&path).is_ok());
        let twice = json.replacen("\"shard\"", "\"scenes_found\": 7,\n  \"shard\"", 1);
        std::fs::write(&path, twice).unwrap();
        let e = CheckResults::read_json(&path).unwrap_err().to_string();
        assert!(
            e.contains("line 8 column") && e.contains("key `scenes_found` is given twice"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_summary_counts_and_picks_the_exit_status() {
        let mut doc = CheckResults::new(
            None,
            3,
            vec![
                result("c.json", Status::Passed),
                result("a.json", Status::Passed),
                result("b.json", Status::Failed),
            ],
        );
        assert_eq!(doc.results[0].scene, "a.json");
        let s = doc.summary();
        assert_eq!((s.passed, s.failed, s.errors), (2, 1, 0));
        assert_eq!(s.to_string(), "2 passed, 1 failed, 0 errors");
        assert_eq!(s.exit_code(), 1);
        let order: Vec<&str> = doc
            .in_report_order()
            .iter()
            .map(|r| r.scene.as_str())
            .collect();
        assert_eq!(order, ["b.json", "a.json", "c.json"]);
        doc.results[0].status = Status::Error;
        assert_eq!(doc.summary().exit_code(), 2);
        doc.results
            .iter_mut()
            .for_each(|r| r.status = Status::Passed);
        assert_eq!(doc.summary().exit_code(), 0);
    }

    #[test]
    fn shares_merge_into_the_whole_suite() {
        let one = shard(
            1,
            2,
            &[("s/a.json", Status::Passed), ("s/c.json", Status::Failed)],
            3,
        );
        let two = shard(2, 2, &[("s/b.json", Status::Passed)], 3);
        let merged =
            CheckResults::merge(vec![("2".into(), two.clone()), ("1".into(), one.clone())])
                .unwrap();
        let whole = CheckResults::new(
            None,
            3,
            vec![
                result("s/a.json", Status::Passed),
                result("s/b.json", Status::Passed),
                result("s/c.json", Status::Failed),
            ],
        );
        assert_eq!(merged, whole);

        let err = |parts: Vec<(PathBuf, CheckResults)>| {
            CheckResults::merge(parts).unwrap_err().to_string()
        };
        assert_eq!(
            err(vec![("1".into(), one.clone())]),
            "cannot merge: missing share 2/2"
        );
        assert_eq!(
            err(vec![("1".into(), one.clone()), ("1b".into(), one.clone())]),
            "cannot merge: share 1/2 is given twice (again in 1b)"
        );
        let other = shard(2, 3, &[], 3);
        assert_eq!(
            err(vec![("1".into(), one.clone()), ("x".into(), other)]),
            "cannot merge: x is share 2/3, others are shares of 2"
        );
        let bigger = shard(2, 2, &[], 4);
        assert_eq!(
            err(vec![("1".into(), one.clone()), ("y".into(), bigger)]),
            "cannot merge: y found 4 scenes, 1 found 3: not the same suite"
        );
        // two whole runs of different suites merge into one
        let a = CheckResults::new(None, 1, vec![result("x/a.json", Status::Passed)]);
        let b = CheckResults::new(None, 1, vec![result("y/a.json", Status::Error)]);
        let both = CheckResults::merge(vec![("a".into(), a.clone()), ("b".into(), b)]).unwrap();
        assert_eq!((both.scenes_found, both.summary().errors), (2, 1));
        assert_eq!(
            err(vec![("a".into(), a.clone()), ("a2".into(), a)]),
            "cannot merge: x/a.json is in more than one of the results"
        );
    }

    #[test]
    fn json_round_trips_with_image_paths_relative_to_the_file() {
        let dir = std::env::temp_dir().join(format!("csir-check-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dir = absolute(&dir);
        let mut r = result("a.json", Status::Failed);
        r.images = Some(ImagePaths {
            ours: Some(dir.join("images/a.ours.png")),
            reference: Some(PathBuf::from("/elsewhere/a.png")),
            heat_map: None,
        });
        r.metrics = Some(Metrics::from(
            &crate::compare::compare(
                &crate::image_io::Rgba8Image::filled(2, 2, [0; 4]).unwrap(),
                &crate::image_io::Rgba8Image::filled(2, 2, [0; 4]).unwrap(),
                2,
            )
            .unwrap(),
        ));
        let doc = CheckResults::new(Some(Shard { index: 1, count: 1 }), 1, vec![r]);
        let file = dir.join("results.json");
        doc.write_json(&file).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"ours\": \"images/a.ours.png\""), "{text}");
        assert!(
            text.contains("\"reference\": \"/elsewhere/a.png\""),
            "{text}"
        );
        assert!(text.contains("\"psnr_db\": null"), "{text}");
        assert!(text.contains("\"status\": \"failed\""), "{text}");
        assert_eq!(CheckResults::read_json(&file).unwrap(), doc);
        assert_eq!(CheckResults::read_json(&dir).unwrap(), doc);

        std::fs::write(
            &file,
            r#"{"format": "csir-check/1", "shard": {"index": 0, "count": 2}, "scenes_found": 0, "results": []}"#,
        )
        .unwrap();
        let err = CheckResults::read_json(&file).unwrap_err().to_string();
        assert!(
            err.ends_with("shard 0/2 is not a share (I counts from 1 to N)"),
            "{err}"
        );
        std::fs::write(&file, r#"{"format": "csir-scene/1"}"#).unwrap();
        let err = CheckResults::read_json(&file).unwrap_err().to_string();
        assert!(
            err.ends_with(
                "not a check results file (format \"csir-scene/1\", expected \"csir-check/1\")"
            ),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
