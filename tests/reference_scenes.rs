//! Every scene in `reference-images/` (and its subfolders) matches Mesa llvmpipe's image
//! of it under the tolerance rule, checked exactly as `csir-render check
//! reference-images` checks it (`docs/reference-checks.md`): the project's rule
//! (`ToleranceRule::PROJECT`: at most 0.5 % of pixels more than 2/255 off in any
//! channel, mean absolute error below 0.5/255) or the scene's own `expect` block. And
//! the bytes do not depend on the number of threads.

use csir_render::check::{CheckOptions, CheckResults, Status, check_scenes};
use csir_render::pipeline::{RenderOptions, render_scene};
use csir_render::scene::Scene;
use std::path::Path;

mod common;
use common::{reference_dir, reference_scenes};

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
    let scenes = reference_scenes();
    assert!(
        scenes.len() >= 20,
        "expected the reference set, found {scenes:?}"
    );
    let results = check_scenes(&scenes, &CheckOptions::default(), &|_| {});
    let results = CheckResults::new(None, scenes.len(), results);
    let mut problems = Vec::new();
    for r in &results.results {
        println!(
            "{}: {:?} {}{}",
            r.scene,
            r.status,
            r.metrics_text().unwrap_or_default(),
            if r.scene_rule {
                " (scene's own rule)"
            } else {
                ""
            }
        );
        if r.status != Status::Passed {
            problems.push(format!(
                "{}: {}",
                r.scene,
                r.message.as_deref().unwrap_or("")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "scenes off the reference:\n{}",
        problems.join("\n")
    );
    assert_eq!(
        results.summary().to_string(),
        format!("{} passed, 0 failed, 0 errors", scenes.len())
    );
}

#[test]
fn the_exactness_scenes_carry_their_own_bounds() {
    // where the project rule's 0.5 % would hide what the scene tests (a pixel covered
    // twice or never, a wrong texel), the scene says so (reference-images/README.md)
    for (name, tolerance) in [
        ("shared_edges_additive.json", 2),
        ("fan64_additive.json", 2),
        ("discard_depth.json", 2),
        ("depth_equal_redraw.json", 2),
        ("texture_nearest_grid.json", 0),
    ] {
        let scene = Scene::load(reference_dir().join(name)).unwrap_or_else(|e| panic!("{e}"));
        let rule = scene
            .expect
            .unwrap_or_else(|| panic!("{name} has no expect block"));
        assert_eq!(
            (rule.tolerance, rule.max_over_percent),
            (tolerance, 0.0),
            "{name}"
        );
    }
}

#[test]
fn output_bytes_do_not_depend_on_the_thread_count() {
    for name in ["lit_cube.json", "wrap_blend.json", "fan64_additive.json"] {
        let path = reference_dir().join(name);
        let one = render(&path, Some(1));
        let four = render(&path, Some(4));
        assert!(one.image == four.image, "{name}: 1 and 4 threads differ");
    }
}

#[test]
fn quads_give_the_same_bytes_at_any_thread_count() {
    // fwidth_sdf shades 2x2 quads with helper lanes: a quad never spans
    // tiles, so the bytes stay the same whatever the split of tiles among threads.
    let path = reference_dir().join("derivatives/fwidth_sdf.json");
    let one = render(&path, Some(1));
    for threads in [2, 7] {
        let other = render(&path, Some(threads));
        assert!(one.image == other.image, "1 and {threads} threads differ");
    }
}
