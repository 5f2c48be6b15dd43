//! Sampling checked against Mesa llvmpipe: `reference-images/texture_filter_grid` and
//! `texture_nearest_grid` sample textures at uv = (gl_FragCoord.xy − uOffset) · uScale,
//! which involves no interpolation, so every pixel of their reference images is one
//! `texture()` result.

use std::path::Path;

use crate::image_io::read_png;
use crate::scene::Scene;
use crate::texture::{Filter, Wrap};

#[test]
fn linear_filtering_matches_llvmpipe_texel_for_texel() {
    check_grid("texture_filter_grid");
}

#[test]
fn nearest_filtering_matches_llvmpipe_texel_for_texel() {
    check_grid("texture_nearest_grid");
}

/// Samples every pixel of the grid scene `name` and compares with its reference image.
fn check_grid(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-images");
    let scene = Scene::load(dir.join(format!("{name}.json"))).unwrap();
    let image = read_png(&dir.join(format!("{name}.llvmpipe.png"))).unwrap();
    let (w, h) = (scene.width as f32, scene.height as f32);
    for draw in &scene.draws {
        let binding = scene.sampler_bindings(draw).next().unwrap();
        let offset = &draw.uniform("uOffset").unwrap().values;
        let scale = &draw.uniform("uScale").unwrap().values;
        // the cell is the quad's bounding box, in window pixels (y up)
        let pos = &draw.attribute(0).unwrap().data;
        let xs = pos
            .iter()
            .step_by(2)
            .map(|x| ((x + 1.0) * 0.5 * w).round() as u32);
        let ys = pos
            .iter()
            .skip(1)
            .step_by(2)
            .map(|y| ((y + 1.0) * 0.5 * h).round() as u32);
        let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
        let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
        let (mut differing, mut max_diff) = (0, 0);
        for y in y0..y1 {
            for x in x0..x1 {
                let s = (x as f32 + 0.5 - offset[0]) * scale[0];
                let t = (y as f32 + 0.5 - offset[1]) * scale[1];
                let ours = binding
                    .texture
                    .sample(binding.sampler, s, t)
                    .map(|c| (c * 255.0).round() as u8);
                let theirs = image.pixel(x, scene.height - 1 - y).unwrap();
                let d = (0..4).map(|c| ours[c].abs_diff(theirs[c])).max().unwrap();
                differing += usize::from(d > 0);
                max_diff = max_diff.max(d);
            }
        }
        let what = format!("draw {} ({:?})", draw.index, binding.sampler);
        if binding.sampler.wrap == Wrap::Mirror && binding.sampler.mag_filter == Filter::Linear {
            // llvmpipe filters mirror in f32 too; rounding differs on a few pixels
            assert!(
                max_diff <= 1 && differing <= 16,
                "{what}: {differing} pixels, max {max_diff}"
            );
        } else {
            assert_eq!((differing, max_diff), (0, 0), "{what}");
        }
    }
}
