//! Multisampling (docs/scene-format.md "Multisampling"): one pass per sample with
//! `RasterState::sample_offset`, coverage and depth at the sample, fragment inputs at
//! the pixel centre, and the alpha-to-coverage mask.

use crate::support::*;
use csir_raster::*;

/// The framebuffer of each sample's pass of `mesh`, drawn with `fs` and `state`.
fn sample_passes<F: FragmentStage>(
    mesh: &Mesh,
    indices: &[u32],
    fs: &F,
    state: RasterState,
) -> Vec<Framebuffer> {
    (0..SAMPLE_COUNT)
        .map(|s| {
            let mut fb = framebuffer(16, 16);
            let state = RasterState {
                sample_offset: SamplePattern::offset(s),
                ..state
            };
            draw(&mut fb, mesh, Some(indices), fs, state);
            fb
        })
        .collect()
}

/// A quad `x0..x1 × y0..y1` in window pixels, as two CCW triangles.
fn quad(x0: f32, x1: f32, y0: f32, y1: f32, z: f32) -> (Mesh, Vec<u32>) {
    let points = [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]];
    (Mesh::from_window(&points, 16, 16), vec![0, 1, 2, 0, 2, 3])
}

#[test]
fn each_sample_is_covered_by_the_fill_rule_at_its_position() {
    // Left edge x = 2.375 (on sample 0's x in pixel 2: a left edge includes it), right
    // edge x = 5.625 (on sample 3's x in pixel 5: a right edge excludes it).
    let (mesh, indices) = quad(2.375, 5.625, 1.0, 14.0, 0.5);
    let passes = sample_passes(&mesh, &indices, &Flat::new([1.0; 4]), additive());
    for (s, fb) in passes.iter().enumerate() {
        let sx = SamplePattern::POSITIONS[s][0];
        for x in 0..16u32 {
            let at = x as f32 + sx;
            let expect = if (2.375..5.625).contains(&at) { 255 } else { 0 };
            assert_eq!(fb.color(x, 7).unwrap()[0], expect, "sample {s}, pixel {x}");
        }
    }
    // Pixel 2 holds samples 0, 1, 3 (not sample 2 at x 2.125); pixel 5 samples 0, 2.
    let in_pixel = |x: u32| -> Vec<usize> {
        (0..SAMPLE_COUNT)
            .filter(|&s| passes[s].color(x, 7).unwrap()[0] == 255)
            .collect()
    };
    assert_eq!(in_pixel(2), vec![0, 1, 3]);
    assert_eq!(in_pixel(5), vec![0, 2]);
    // Bottom edge y = 1.125 (sample 0's y in row 1: a bottom edge includes it).
    let (mesh, indices) = quad(0.0, 16.0, 1.125, 14.0, 0.5);
    let passes = sample_passes(&mesh, &indices, &Flat::new([1.0; 4]), additive());
    let rows: Vec<u8> = passes.iter().map(|fb| fb.color(8, 1).unwrap()[0]).collect();
    assert_eq!(rows, vec![255, 255, 255, 255]);
    let rows: Vec<u8> = passes.iter().map(|fb| fb.color(8, 0).unwrap()[0]).collect();
    assert_eq!(rows, vec![0, 0, 0, 0]);
}

#[test]
fn depth_is_the_plane_at_the_sample() {
    // Depth rises 1/16 per pixel in x: z = x / 16.
    let points = [
        [0.0, 0.0, 0.0],
        [16.0, 0.0, 1.0],
        [16.0, 16.0, 1.0],
        [0.0, 16.0, 0.0],
    ];
    let mesh = Mesh::from_window(&points, 16, 16);
    let state = RasterState {
        depth_test: DepthTest::Always,
        ..RasterState::default()
    };
    let passes = sample_passes(&mesh, &[0, 1, 2, 0, 2, 3], &Flat::new([1.0; 4]), state);
    for (s, fb) in passes.iter().enumerate() {
        let x = 6.0 + f64::from(SamplePattern::POSITIONS[s][0]);
        let expect = quantize_depth(x / 16.0);
        let got = fb.depth(6, 9).unwrap();
        assert!(got.abs_diff(expect) <= 1, "sample {s}: {got} vs {expect}");
    }
}

#[test]
fn fragment_inputs_are_the_pixel_centres_in_every_pass() {
    // A colour gradient: every pass gives a covered pixel the bytes the
    // single-sampled draw gives it (the inputs are evaluated at the pixel centre).
    let points = [[0.0, 0.0, 0.5], [16.0, 0.0, 0.5], [0.0, 16.0, 0.5]];
    let varyings = vec![
        vec![1.0, 0.0, 0.2],
        vec![0.0, 1.0, 0.7],
        vec![0.3, 0.1, 1.0],
    ];
    let clip = points
        .iter()
        .map(|&[x, y, z]| window_to_clip(x, y, z, 16, 16))
        .collect();
    let mesh = Mesh::with_varyings(clip, varyings);
    let state = RasterState {
        depth_test: DepthTest::Disabled,
        ..RasterState::default()
    };
    let mut single = framebuffer(16, 16);
    draw(&mut single, &mesh, Some(&[0, 1, 2]), &VaryingColor, state);
    let passes = sample_passes(&mesh, &[0, 1, 2], &VaryingColor, state);
    let mut compared = 0;
    for y in 0..16 {
        for x in 0..16 {
            let want = single.color(x, y).unwrap();
            for fb in &passes {
                let got = fb.color(x, y).unwrap();
                if got[3] != 0 && want[3] != 0 {
                    assert_eq!(got, want, "pixel ({x}, {y})");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

#[test]
fn alpha_to_coverage_drops_the_samples_above_the_alpha() {
    let (mesh, indices) = quad(0.0, 16.0, 0.0, 16.0, 0.5);
    let colour = Flat::new([1.0, 1.0, 1.0, 0.6]);
    for s in 0..SAMPLE_COUNT {
        let mut fb = framebuffer(16, 16);
        let state = RasterState {
            sample_offset: SamplePattern::offset(s),
            ..RasterState::default()
        };
        draw(
            &mut fb,
            &mesh,
            Some(&indices),
            &SampleMaskStage::new(&colour, s),
            state,
        );
        // 0.6 is above 0, 1/4 and 1/2, not above 3/4: samples 0, 1, 2.
        let written = fb.color(5, 5).unwrap()[0] == 255;
        assert_eq!(written, s < 3, "sample {s}");
        assert_eq!(
            fb.depth(5, 5).unwrap() < DEPTH_MAX,
            s < 3,
            "depth of sample {s}"
        );
    }
}
