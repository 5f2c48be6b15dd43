//! Checking the other targets of a scene with `targets` (docs/reference-checks.md
//! "Render targets"): target 0 is checked as every scene's image is; each further
//! target, and target 0 when it holds floats or integers, against its own reference
//! beside the scene's (`NAME.llvmpipe.k.png`, or `.exr` for a float or integer
//! target: `NAME.llvmpipe.exr` for target 0), written and replaced under the same
//! update policy.

use super::results::{ReferenceWrite, SceneResult, Status};
use super::scene_check::{CheckOptions, UpdatePolicy};
use crate::compare::{ToleranceRule, compare_target};
use crate::file_read::{MAX_PNG_BYTES, read_bounded};
use crate::image_io::{decode_exr, decode_png, encode_exr, target_file_path, write_png_small};
use crate::pipeline::TargetImage;
use csir_raster::TargetClass;
use std::path::{Path, PathBuf};

/// The references a target is compared with: files beside the scene's, or the GL
/// driver's targets (`check --against-gl`).
pub(super) enum TargetReferences<'a> {
    /// Files next to the scene's reference image `reference`.
    Files(&'a Path),
    /// The driver's render of the same targets.
    Rendered(&'a [TargetImage]),
}

/// Checks `ours` (every target of the scene) against `references` by `rule`; a target
/// that fails, or whose reference is missing or unreadable, makes `result` fail with a
/// message naming the target and its file. Targets checked by the main image (target
/// 0 of a unorm format) are skipped.
pub(super) fn check_targets(
    result: &mut SceneResult,
    ours: &[TargetImage],
    references: TargetReferences<'_>,
    options: &CheckOptions,
    rule: ToleranceRule,
) {
    for (k, target) in ours.iter().enumerate() {
        let class = target.target.format.class();
        if k == 0 && class == TargetClass::Unorm {
            continue;
        }
        let failure = match &references {
            TargetReferences::Rendered(theirs) => match theirs.get(k) {
                Some(r) => judge(k, target, &r.values, &rule).err(),
                None => Some(format!("targets[{k}]: the driver read back no such target")),
            },
            TargetReferences::Files(main) => {
                let path = target_file_path(main, k, class);
                check_file(result, k, target, &path, options, &rule).err()
            }
        };
        if let Some(message) = failure {
            result.status = Status::Failed;
            result.message = Some(match result.message.take() {
                Some(m) => format!("{m}; {message}"),
                None => message,
            });
        }
    }
}

/// Target `k` against the reference values `reference` by `rule`.
fn judge(
    k: usize,
    ours: &TargetImage,
    reference: &[[u32; 4]],
    rule: &ToleranceRule,
) -> Result<(), String> {
    let format = ours.target.format.name();
    match ours.target.format.class() {
        TargetClass::Unorm => {
            let bytes: Vec<u8> = reference.iter().flat_map(|p| p.map(|w| w as u8)).collect();
            let theirs = crate::image_io::Rgba8Image::new(ours.width, ours.height, bytes);
            let mine = crate::image_io::Rgba8Image::new(ours.width, ours.height, ours.to_rgba8());
            let (Some(theirs), Some(mine)) = (theirs, mine) else {
                return Err(format!("targets[{k}] ({format}): the sizes differ"));
            };
            match rule.judge(&mine, &theirs) {
                Ok(j) if j.passed() => Ok(()),
                Ok(j) => {
                    let why: Vec<String> = j.breaches.iter().map(ToString::to_string).collect();
                    Err(format!("targets[{k}] ({format}): {}", why.join("; ")))
                }
                Err(e) => Err(format!("targets[{k}] ({format}): {e}")),
            }
        }
        _ => match compare_target(ours, reference, rule) {
            None => Err(format!("targets[{k}] ({format}): the sizes differ")),
            Some(d) if d.passed => Ok(()),
            Some(d) => Err(format!(
                "targets[{k}] ({format}): {} of {} pixels differ beyond the target tolerance \
                 (largest difference {})",
                d.pixels_over, d.pixels, d.max_diff
            )),
        },
    }
}

/// Target `k` against its reference file `path`, writing it when the update policy
/// says so (missing, or differing/failing under `--force`).
fn check_file(
    result: &mut SceneResult,
    k: usize,
    ours: &TargetImage,
    path: &Path,
    options: &CheckOptions,
    rule: &ToleranceRule,
) -> Result<(), String> {
    let write = || -> Result<(), String> {
        let outcome = match ours.target.format.class() {
            TargetClass::Unorm => write_png_small(path, ours.width, ours.height, &ours.to_rgba8()),
            _ => encode_exr(ours).and_then(|b| Ok(crate::file_write::write_file(path, &b)?)),
        };
        outcome.map_err(|e| format!("cannot write the reference of targets[{k}]: {e}"))
    };
    let bytes = match read_bounded(path, MAX_PNG_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if options.update == UpdatePolicy::Never {
                return Err(format!(
                    "targets[{k}]: no reference image {} (run with --update to write it)",
                    path.display()
                ));
            }
            write()?;
            result
                .reference_written
                .get_or_insert(ReferenceWrite::Created);
            return Ok(());
        }
        Err(e) => return Err(format!("targets[{k}]: cannot read {}: {e}", path.display())),
    };
    let values = read_values(&bytes, path).map_err(|e| format!("targets[{k}]: {e}"))?;
    let verdict = judge(k, ours, &values, rule);
    let replace = match options.update {
        UpdatePolicy::ReplaceDiffering => values != ours_values(ours),
        UpdatePolicy::ReplaceFailing => verdict.is_err(),
        _ => false,
    };
    if replace {
        write()?;
        result.reference_written = Some(ReferenceWrite::Replaced);
        return Ok(());
    }
    verdict
}

/// A reference file's values: a PNG's bytes as words, an EXR's words.
fn read_values(bytes: &[u8], path: &Path) -> Result<Vec<[u32; 4]>, String> {
    let is_exr = path.extension().is_some_and(|e| e == "exr");
    if is_exr {
        return decode_exr(bytes, path)
            .map(|(_, _, v)| v)
            .map_err(|e| e.to_string());
    }
    let image = decode_png(bytes, path).map_err(|e| e.to_string())?;
    Ok(image
        .pixels()
        .chunks_exact(4)
        .map(|p| [0, 1, 2, 3].map(|c| u32::from(p[c])))
        .collect())
}

/// `ours` as the values its reference file holds (unorm targets as their PNG bytes).
fn ours_values(ours: &TargetImage) -> Vec<[u32; 4]> {
    match ours.target.format.class() {
        TargetClass::Unorm => ours
            .to_rgba8()
            .chunks_exact(4)
            .map(|p| [0, 1, 2, 3].map(|c| u32::from(p[c])))
            .collect(),
        _ => ours.values.clone(),
    }
}

/// The reference files of a scene's targets beside `main` (its reference image), for
/// the list of a check's inputs: every target but a unorm target 0.
pub(super) fn target_reference_paths(main: &Path, targets: &[TargetImage]) -> Vec<PathBuf> {
    targets
        .iter()
        .enumerate()
        .filter(|(k, t)| *k > 0 || t.target.format.class() != TargetClass::Unorm)
        .map(|(k, t)| target_file_path(main, k, t.target.format.class()))
        .collect()
}
