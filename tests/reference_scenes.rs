//! Every scene in `reference-images/` renders within tolerance of Mesa llvmpipe's
//! image of it (issue bound: at most 0.5% of pixels more than 2/255 off in any
//! channel, and a mean absolute error below 0.5/255), and the bytes do not depend on
//! the number of threads.

use csir_render::compare::compare;
use csir_render::image_io::read_png;
use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;
use std::path::Path;

mod common;
use common::{reference_dir, reference_scenes as scenes};

const TOLERANCE: u8 = 2;
/// Largest share of pixels allowed over [`TOLERANCE`].
const MAX_OVER_FRACTION: f64 = 0.005;
/// Largest mean absolute error, in 1/255 units.
const MAX_MEAN_ABS_ERROR: f64 = 0.5;

fn render(path: &Path, threads: Option<usize>) -> csir_render::pipeline::Frame {
    let scene = Scene::load(path).unwrap_or_else(|e| panic!("{e}"));
    render_scene(
        &scene,
        &RenderOptions {
            threads,
            ..RenderOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_reference_scene_matches_llvmpipe() {
    let scenes = scenes();
    assert!(
        scenes.len() >= 10,
        "expected the reference set, found {scenes:?}"
    );
    let mut failures = Vec::new();
    for path in &scenes {
        let reference_path = path.with_extension("llvmpipe.png");
        let reference = read_png(&reference_path).unwrap_or_else(|e| panic!("{e}"));
        let frame = render(path, None);
        let ours = csir_render::image_io::Rgba8Image::new(frame.width, frame.height, frame.pixels)
            .expect("frame size matches its pixels");
        let diff = compare(&ours, &reference, TOLERANCE).unwrap_or_else(|e| panic!("{e}"));
        let over = diff.over_tolerance_pixels as f64 / diff.pixels as f64;
        let name = path.file_name().unwrap().to_string_lossy();
        println!(
            "{name}: max {} mae {:.4} over-tol {} ({:.3}%)",
            diff.max_channel_diff,
            diff.mean_abs_error,
            diff.over_tolerance_pixels,
            over * 100.0
        );
        if over > MAX_OVER_FRACTION || diff.mean_abs_error >= MAX_MEAN_ABS_ERROR {
            failures.push(format!(
                "{name}: {} of {} pixels over {TOLERANCE}/255 (max {}), mean abs error {:.4}/255",
                diff.over_tolerance_pixels, diff.pixels, diff.max_channel_diff, diff.mean_abs_error
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "scenes off the reference:\n{}",
        failures.join("\n")
    );
}

#[test]
fn output_bytes_do_not_depend_on_the_thread_count() {
    for name in ["lit_cube.json", "wrap_blend.json", "fan64_additive.json"] {
        let path = reference_dir().join(name);
        let one = render(&path, Some(1));
        let four = render(&path, Some(4));
        assert!(one.pixels == four.pixels, "{name}: 1 and 4 threads differ");
    }
}
