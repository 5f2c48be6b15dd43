//! `csir-render diff A.png B.png [--heatmap OUT.png] [--tolerance N]`; two `.exr`
//! render targets are compared by value (docs/reference-checks.md "Render targets").

use clap::Args;
use csir_render::compare::{ToleranceRule, compare, heat_map};
use csir_render::image_io::{read_png, write_png};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// First image (e.g. ours).
    pub a: PathBuf,
    /// Second image (e.g. the reference).
    pub b: PathBuf,
    /// Write a heat map of |A − B| (×16, black where equal) to this PNG.
    #[arg(long)]
    pub heatmap: Option<PathBuf>,
    /// Largest per-channel difference (0..=255) a pixel may have and still match.
    #[arg(long, default_value_t = 2)]
    pub tolerance: u8,
}

/// `error: MESSAGE` and exit 2: the comparison itself failed (unreadable image, sizes
/// differ, heat map not writable), distinct from 1 = "pixels over the tolerance".
fn fail(message: impl std::fmt::Display) -> ExitCode {
    super::fail_with(super::CANNOT_COMPARE, message)
}

/// Run `diff`: print the metrics, then whether B would pass as A's reference under the
/// project's tolerance rule ([`ToleranceRule::PROJECT`], what `check` applies to a
/// scene without an `expect` block). Exit 0 when every pixel is within `--tolerance`,
/// 1 when some pixel exceeds it (stricter than the rule, which allows a few), 2 when
/// the images cannot be compared (unreadable, not PNG, different sizes) or the heat
/// map cannot be written.
pub fn run(args: &DiffArgs) -> ExitCode {
    if let Err(e) = super::out::reserve_stdout(&[("--heatmap", args.heatmap.as_deref())], &[]) {
        return fail(e);
    }
    // The heat map's place is checked first, so that a run that cannot write it fails
    // before printing any result.
    if let Some(path) = &args.heatmap {
        let inputs = [(args.a.as_path(), "image A"), (args.b.as_path(), "image B")];
        if let Err(e) = csir_render::file_write::refuse_inputs(path, &inputs) {
            return fail(e);
        }
        let folder = path.parent().filter(|f| !f.as_os_str().is_empty());
        if let Some(folder) = folder.filter(|f| !f.is_dir()) {
            return fail(format!(
                "{}: cannot write the heat map: the folder {} does not exist",
                path.display(),
                folder.display()
            ));
        }
    }
    let exr = |p: &PathBuf| p.extension().is_some_and(|e| e == "exr");
    if exr(&args.a) && exr(&args.b) {
        return diff_exr(args);
    }
    let a = match read_png(&args.a) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let b = match read_png(&args.b) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let diff = match compare(&a, &b, args.tolerance) {
        Ok(d) => d,
        Err(e) => return fail(format!("{} vs {}: {e}", args.a.display(), args.b.display())),
    };
    outln!(
        "{}x{}: max channel diff {}, mean abs error {:.4}/255, PSNR {:.2} dB, {} pixels differ, {} over tolerance {}",
        diff.width,
        diff.height,
        diff.max_channel_diff,
        diff.mean_abs_error,
        diff.psnr_db,
        diff.differing_pixels,
        diff.over_tolerance_pixels,
        diff.tolerance
    );
    let rule = ToleranceRule::PROJECT;
    if let Ok(judgement) = rule.judge(&a, &b) {
        let breaches: Vec<String> = judgement.breaches.iter().map(ToString::to_string).collect();
        if breaches.is_empty() {
            outln!("project rule ({rule}): passes");
        } else {
            outln!("project rule ({rule}): fails: {}", breaches.join("; "));
        }
    }
    if let Some(path) = &args.heatmap {
        let map = match heat_map(&a, &b, 16) {
            Ok(m) => m,
            Err(e) => return fail(e),
        };
        if let Err(e) = write_png(path, map.width(), map.height(), map.pixels()) {
            return fail(e);
        }
    }
    if diff.within_tolerance() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `diff` of two OpenEXR targets (docs/reference-checks.md "Render targets"): floats
/// equal within `--tolerance`/255 (relative above 1), integers exactly. Exit 0 when
/// every pixel is equal so, 1 otherwise, 2 when they cannot be compared.
fn diff_exr(args: &DiffArgs) -> ExitCode {
    use csir_render::compare::compare_target;
    use csir_render::image_io::{decode_exr, exr_holds_integers};
    use csir_render::pipeline::TargetImage;
    let read = |path: &PathBuf| -> Result<(TargetImage, bool), String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let integer = exr_holds_integers(&bytes, path).map_err(|e| e.to_string())?;
        let (width, height, values) = decode_exr(&bytes, path).map_err(|e| e.to_string())?;
        let format = if integer {
            csir_raster::TargetFormat::Rgba32ui
        } else {
            csir_raster::TargetFormat::Rgba32f
        };
        let target = csir_raster::ColorTarget {
            format,
            framebuffer_srgb: false,
        };
        Ok((
            TargetImage {
                target,
                width,
                height,
                values,
            },
            integer,
        ))
    };
    let ((a, integer), (b, _)) = match (read(&args.a), read(&args.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let rule = ToleranceRule {
        tolerance: args.tolerance,
        ..ToleranceRule::PROJECT
    };
    let Some(d) = compare_target(&a, &b.values, &rule) else {
        return fail(format!(
            "{} vs {}: the images are {}x{} and {}x{}",
            args.a.display(),
            args.b.display(),
            a.width,
            a.height,
            b.width,
            b.height
        ));
    };
    let kind = if integer {
        "integers, exactly".to_string()
    } else {
        format!("floats within {}/255, relative above 1", args.tolerance)
    };
    outln!(
        "{}x{}: {} of {} pixels differ ({kind}), largest channel difference {}",
        a.width,
        a.height,
        d.pixels_over,
        d.pixels,
        d.max_diff
    );
    if d.pixels_over == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
