//! Checking one scene: render it, compare the render with its reference image by the
//! tolerance rule (the project's or the scene's `expect` block), optionally write or
//! update the reference and keep the images for the report. Every failure becomes a
//! result, never an early return.

use super::reference_path;
use super::results::{ImagePaths, Metrics, ReferenceWrite, SceneResult, Status};
use crate::compare::{CompareError, DEFAULT_HEAT_GAIN, ToleranceRule, heat_map};
use crate::file_read::{MAX_PNG_BYTES, read_bounded};
use crate::file_write::{refuse_inputs, write_file};
use crate::gl::{GlOptions, render_scene_gl};
use crate::image_io::{Rgba8Image, decode_png, encode_png, write_png_small};
use crate::pipeline::{RenderOptions, render_scene};
use crate::scene::Scene;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `check` may do to reference images.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpdatePolicy {
    /// Never write one: a missing reference is an error (the default).
    #[default]
    Never,
    /// Write missing references from our render (`--update`); an existing reference is
    /// never touched.
    Missing,
    /// Also replace references that our render does not match (`--update --force`);
    /// references that match are kept as they are.
    ReplaceFailing,
    /// Write missing references and replace every one whose pixels differ from the
    /// render at all; one with the same pixels is kept byte for byte. For references
    /// made by a driver (`--backend gl --update`): the driver's image *is* the
    /// reference, so any difference means the file is stale.
    ReplaceDiffering,
}

/// Who draws the image that is checked, and who draws the reference.
#[derive(Clone, Debug, Default)]
pub enum Renderers {
    /// Ours (the CPU renderer) against the reference file (the default).
    #[default]
    CpuAgainstFile,
    /// A GL driver (`check --backend gl`) against the reference file: "does my
    /// driver draw the scenes like the reference images?", and with an update
    /// policy, the way the references are made.
    GlAgainstFile(GlOptions),
    /// Ours against a GL driver drawing the same scene (`check --against gl`): no
    /// file is read or written.
    CpuAgainstGl(GlOptions),
}

/// How to check scenes.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Appended to a scene's path without its extension to name its reference image
    /// (default `.llvmpipe.png`).
    pub reference_suffix: String,
    /// Whether references may be written.
    pub update: UpdatePolicy,
    /// The folder to keep each scene's images in for the report (ours, a copy of the
    /// reference, the heat map), or `None` to keep none.
    pub images_dir: Option<PathBuf>,
    /// The files the run writes once every scene is checked (results, JUnit XML, the
    /// report's page). A scene one of whose files or reference image is among them is
    /// not rendered: its result is the error and has
    /// [`SceneResult::overwrites_input`] set, and the run is to write nothing.
    pub outputs: Vec<PathBuf>,
    /// The CSIR profile the scenes' shaders are compiled for (default extended, as
    /// `render`'s).
    pub profile: csir::Profile,
    /// Each scene's memory limit in bytes ([`crate::budget`]; default this machine's,
    /// [`default_max_memory`](crate::budget::default_max_memory), as `render`'s): a
    /// scene over it is an error result.
    pub max_memory: u64,
    /// Who draws each side of the comparison.
    pub renderers: Renderers,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            reference_suffix: ".llvmpipe.png".into(),
            update: UpdatePolicy::Never,
            images_dir: None,
            outputs: Vec::new(),
            profile: csir::Profile::default(),
            max_memory: crate::budget::default_max_memory(),
            renderers: Renderers::default(),
        }
    }
}

/// Checks one scene: loads it, renders it (on the current rayon pool, so the caller's
/// pool size bounds the threads), reads its reference image and judges the render by
/// the scene's rule ([`Scene::tolerance_rule`]). With an update policy, writes the
/// reference from our render (atomically); with an images folder, keeps the images for
/// the report.
///
/// Never fails: whatever goes wrong ends up as a [`Status::Error`] result whose message
/// names the file (and the JSON field, for scene errors).
pub fn check_scene(scene_path: &Path, options: &CheckOptions) -> SceneResult {
    let start = Instant::now();
    let reference = reference_path(scene_path, &options.reference_suffix);
    let mut result = SceneResult {
        scene: scene_path.display().to_string(),
        reference: reference.display().to_string(),
        status: Status::Error,
        message: None,
        rule: None,
        scene_rule: false,
        metrics: None,
        reference_written: None,
        seconds: 0.0,
        trace: None,
        images: None,
        overwrites_input: false,
    };
    if let Err(message) = check_into(&mut result, scene_path, &reference, options) {
        result.status = Status::Error;
        result.message = Some(message);
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// The body of [`check_scene`]; an `Err` is the message of an error result.
fn check_into(
    result: &mut SceneResult,
    scene_path: &Path,
    reference_path: &Path,
    options: &CheckOptions,
) -> Result<(), String> {
    // the result names the scene already: its errors need not start with it again
    let without_scene = |e: &dyn std::fmt::Display| {
        let text = e.to_string();
        let prefix = format!("{}: ", result.scene);
        text.strip_prefix(&prefix)
            .map_or_else(|| text.clone(), str::to_owned)
    };
    let scene =
        Scene::load_within(scene_path, options.max_memory).map_err(|e| without_scene(&e))?;
    let mut inputs = scene.input_files();
    inputs.push((reference_path, "the scene's reference image"));
    for output in &options.outputs {
        if let Err(e) = refuse_inputs(output, &inputs) {
            result.overwrites_input = true;
            return Err(e.to_string());
        }
    }
    let rule = scene.tolerance_rule();
    result.rule = Some(rule);
    result.scene_rule = scene.expect.is_some();
    let cpu = || {
        let render = RenderOptions {
            limits: options.profile.limits(),
            ..RenderOptions::default()
        };
        render_scene(&scene, &render)
            .map(|frame| (frame.image, frame.targets))
            .map_err(|e| without_scene(&e))
    };
    let gl = |gl: &GlOptions| {
        render_scene_gl(&scene, gl)
            .map(|r| (r.image, r.targets))
            .map_err(|e| without_scene(&e))
    };
    let (ours, outcome, kept) = match &options.renderers {
        Renderers::CpuAgainstGl(options_gl) => {
            let (ours, our_targets) = cpu()?;
            let (reference, their_targets) = gl(options_gl)?;
            result.reference = "the GL driver's render".into();
            judge_against(result, &ours, &reference, options, rule);
            let theirs = super::target_check::TargetReferences::Rendered(&their_targets);
            super::target_check::check_targets(result, &our_targets, theirs, options, rule);
            let bytes = encode_png(reference.width(), reference.height(), reference.pixels())
                .map_err(|e| e.to_string())?;
            (ours, Ok(()), KeptReference::File(reference, bytes))
        }
        against_file => {
            let (ours, targets) = match against_file {
                Renderers::GlAgainstFile(options_gl) => gl(options_gl)?,
                _ => cpu()?,
            };
            for path in super::target_check::target_reference_paths(reference_path, &targets) {
                if let Some(output) = options.outputs.iter().find(|o| **o == path) {
                    result.overwrites_input = true;
                    return Err(format!(
                        "{} is a target's reference image",
                        output.display()
                    ));
                }
            }
            // whatever becomes of the comparison, the render goes into the report
            let (kept, outcome) = judge_into(result, &ours, reference_path, options, rule);
            if outcome.is_ok() {
                let files = super::target_check::TargetReferences::Files(reference_path);
                super::target_check::check_targets(result, &targets, files, options, rule);
            }
            if let Renderers::GlAgainstFile(_) = against_file {
                // `trace` explains the CPU renderer's pixels, not a driver's
                result.trace = None;
            }
            (ours, outcome, kept)
        }
    };
    result.images = keep_images(options, &result.scene, &inputs, &ours, &kept)?;
    outcome
}

/// Judges `ours` against `reference` by `rule` into `result`: its status, message,
/// metrics and the trace command for the worst pixel.
fn judge_against(
    result: &mut SceneResult,
    ours: &Rgba8Image,
    reference: &Rgba8Image,
    options: &CheckOptions,
    rule: ToleranceRule,
) {
    let (status, message) = match rule.judge(ours, reference) {
        Ok(judgement) => {
            result.metrics = Some(Metrics::from(&judgement.diff));
            result.trace = judgement
                .diff
                .worst_pixel
                .map(|[x, y]| trace_command(&result.scene, x, y, options.profile));
            if judgement.passed() {
                (Status::Passed, None)
            } else {
                let why: Vec<String> = judgement.breaches.iter().map(ToString::to_string).collect();
                (Status::Failed, Some(why.join("; ")))
            }
        }
        Err(CompareError::SizeMismatch { a, b }) => (
            Status::Failed,
            Some(format!(
                "the render is {}x{}, the reference {}x{}",
                a.0, a.1, b.0, b.1
            )),
        ),
    };
    result.status = status;
    result.message = message;
}

/// The reference image a check ends up with, for the report.
enum KeptReference {
    /// None could be read.
    None,
    /// Our render was written as the reference.
    Ours,
    /// The reference file: decoded, and its bytes.
    File(Rgba8Image, Vec<u8>),
}

/// Reads the reference, judges `ours` against it by `rule` into `result` and writes
/// the reference if the update policy says so.
fn judge_into(
    result: &mut SceneResult,
    ours: &Rgba8Image,
    reference_path: &Path,
    options: &CheckOptions,
    rule: ToleranceRule,
) -> (KeptReference, Result<(), String>) {
    let write_reference = |what: ReferenceWrite| {
        write_png_small(reference_path, ours.width(), ours.height(), ours.pixels())
            .map(|()| what)
            .map_err(|e| format!("cannot write the reference image: {e}"))
    };
    let bytes = match read_bounded(reference_path, MAX_PNG_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if options.update == UpdatePolicy::Never {
                let message = format!(
                    "no reference image {} (run with --update to write it from this render)",
                    reference_path.display()
                );
                return (KeptReference::None, Err(message));
            }
            return match write_reference(ReferenceWrite::Created) {
                Ok(written) => {
                    result.reference_written = Some(written);
                    result.status = Status::Passed;
                    result.message = Some("reference written from this render".into());
                    (KeptReference::Ours, Ok(()))
                }
                Err(message) => (KeptReference::None, Err(message)),
            };
        }
        Err(e) => {
            let message = format!(
                "cannot read the reference image {}: {e}",
                reference_path.display()
            );
            return (KeptReference::None, Err(message));
        }
    };
    let reference = match decode_png(&bytes, reference_path) {
        Ok(image) => image,
        Err(e) => return (KeptReference::None, Err(e.to_string())),
    };

    judge_against(result, ours, &reference, options, rule);
    let differs = *ours != reference;
    let kept = KeptReference::File(reference, bytes);
    let replaced_because = match options.update {
        UpdatePolicy::ReplaceDiffering if differs => {
            "reference rewritten from this render (it differed"
        }
        UpdatePolicy::ReplaceFailing if result.status == Status::Failed => {
            "reference replaced by this render (it failed"
        }
        _ => return (kept, Ok(())),
    };
    match write_reference(ReferenceWrite::Replaced) {
        Ok(written) => {
            result.reference_written = Some(written);
            result.status = Status::Passed;
            result.message = Some(format!(
                "{replaced_because}{})",
                result
                    .message
                    .as_deref()
                    .map_or_else(String::new, |m| format!(": {m}"))
            ));
        }
        Err(message) => return (kept, Err(message)),
    }
    (kept, Ok(()))
}

/// Writes the scene's images into the report's image folder, if there is one: our
/// render, the reference file's bytes unchanged (the old ones, when `--force` replaced
/// it), and the heat map when the sizes match. An image whose path is one of `inputs`
/// (the scene's files and its reference image, by device and inode) is not written:
/// that is the scene's error.
fn keep_images(
    options: &CheckOptions,
    scene: &str,
    inputs: &[(&Path, &str)],
    ours: &Rgba8Image,
    reference: &KeptReference,
) -> Result<Option<ImagePaths>, String> {
    let Some(dir) = &options.images_dir else {
        return Ok(None);
    };
    let stem = image_stem(scene);
    let write = |kind: &str, bytes: &[u8]| {
        let path = super::results::absolute(&dir.join(format!("{stem}.{kind}.png")));
        refuse_inputs(&path, inputs)
            .and_then(|()| write_file(&path, bytes))
            .map(|()| path)
            .map_err(|e| format!("cannot keep an image for the report: {e}"))
    };
    let encode = |image: &Rgba8Image| {
        encode_png(image.width(), image.height(), image.pixels()).map_err(|e| e.to_string())
    };
    let ours_path = write("ours", &encode(ours)?)?;
    let (reference_path, heat_path) = match reference {
        KeptReference::None => (None, None),
        KeptReference::Ours => (Some(ours_path.clone()), None),
        KeptReference::File(image, bytes) => {
            let heat = match heat_map(ours, image, DEFAULT_HEAT_GAIN) {
                Ok(map) => Some(write("heat", &encode(&map)?)?),
                Err(CompareError::SizeMismatch { .. }) => None,
            };
            (Some(write("reference", bytes)?), heat)
        }
    };
    Ok(Some(ImagePaths {
        ours: Some(ours_path),
        reference: reference_path,
        heat_map: heat_path,
    }))
}

/// A file name stem for a scene's images that is the same in every run and shard and
/// differs between scenes: the scene's file stem (letters, digits, `-`, `_`) and the
/// CRC-32 of its whole path.
pub(crate) fn image_stem(scene: &str) -> String {
    let stem: String = Path::new(scene)
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    format!("{stem}-{:08x}", crc32fast::hash(scene.as_bytes()))
}

/// `csir-render trace SCENE --pixel X,Y` (with `--profile seed` under the seed
/// profile, so that it traces what was checked), the scene path quoted for a POSIX
/// shell when it needs it.
pub(crate) fn trace_command(scene: &str, x: u32, y: u32, profile: csir::Profile) -> String {
    let profile = match profile {
        csir::Profile::Seed => " --profile seed",
        csir::Profile::Extended => "",
    };
    format!(
        "csir-render trace {} --pixel {x},{y}{profile}",
        shell_quote(scene)
    )
}

/// `text` as one POSIX shell word: unchanged when it holds only characters no shell
/// treats specially, else in single quotes (a `'` inside becomes `'\''`).
fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+:,=@%".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_commands_quote_only_what_a_shell_would_split() {
        let extended = csir::Profile::Extended;
        assert_eq!(
            trace_command("reference-images/lit_cube.json", 105, 140, extended),
            "csir-render trace reference-images/lit_cube.json --pixel 105,140"
        );
        assert_eq!(
            trace_command("my scenes/it's.json", 0, 7, extended),
            r"csir-render trace 'my scenes/it'\''s.json' --pixel 0,7"
        );
        assert_eq!(
            trace_command("a.json", 1, 2, csir::Profile::Seed),
            "csir-render trace a.json --pixel 1,2 --profile seed"
        );
    }

    /// README "Output files": a report image that would land on one of the scene's
    /// files (here a hard link to its fragment shader) is refused, and the file keeps
    /// its bytes; the scene's result is the error.
    #[test]
    fn report_images_are_never_written_over_the_scene_s_files() {
        let root = std::env::temp_dir().join(format!("csir-keep-images-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let images = root.join("images");
        std::fs::create_dir_all(&images).unwrap();
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
        let shaders = root.join("shaders");
        std::fs::create_dir_all(&shaders).unwrap();
        for f in ["triangle.vert", "triangle.frag"] {
            std::fs::copy(manifest.join("shaders").join(f), shaders.join(f)).unwrap();
        }
        let scene = root.join("triangle.json");
        for f in ["triangle.json", "triangle.llvmpipe.png"] {
            std::fs::copy(manifest.join(f), root.join(f)).unwrap();
        }
        let shader = shaders.join("triangle.frag");
        let before = std::fs::read(&shader).unwrap();
        let stem = image_stem(&scene.display().to_string());
        std::fs::hard_link(&shader, images.join(format!("{stem}.ours.png"))).unwrap();
        let options = CheckOptions {
            images_dir: Some(images),
            ..CheckOptions::default()
        };
        let result = check_scene(&scene, &options);
        assert_eq!(result.status, Status::Error, "{result:?}");
        let message = result.message.unwrap_or_default();
        assert!(
            message.contains("refusing to write the output over"),
            "{message}"
        );
        assert_eq!(std::fs::read(&shader).unwrap(), before);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn image_stems_are_stable_and_distinct() {
        let a = image_stem("reference-images/corpus/corpus_sdf.json");
        assert!(
            a.starts_with("corpus_sdf-") && a.len() == "corpus_sdf-".len() + 8,
            "{a}"
        );
        assert_eq!(a, image_stem("reference-images/corpus/corpus_sdf.json"));
        assert_ne!(a, image_stem("other/corpus_sdf.json"));
        assert!(image_stem("odd name!.json").starts_with("odd_name_-"));
    }
}
