//! Batches holding several small triangles (`FragmentStage::shades_several_triangles`)
//! give the same pixels, depths and counts as one batch per triangle, whatever the
//! overlaps, facings, depth test, discards and blending.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use csir_raster::*;

use crate::support::{Mesh, Rng, draw, framebuffer, window_to_clip};

/// Colour from varyings 0..3 (smooth) and 3 (flat), the facing and `gl_FragCoord`;
/// discards where varying 0 is above `discard_above` (when set). Runs per triangle or
/// several triangles per batch (`several`), counting its shader runs.
struct Shader {
    several: bool,
    discard_above: Option<f32>,
    runs: AtomicU64,
}

impl Shader {
    fn new(several: bool, discard_above: Option<f32>) -> Self {
        Shader {
            several,
            discard_above,
            runs: AtomicU64::new(0),
        }
    }

    fn run(
        &self,
        varyings: &[LaneArray],
        front_facing: bool,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let facing = if front_facing { 1.0 } else { 0.25 };
        for lane in 0..batch.padded_len() {
            let z = batch.frag_coord[2][lane];
            let w = batch.frag_coord[3][lane];
            out.color[0][lane] = varyings[0][lane] * facing;
            out.color[1][lane] = varyings[1][lane] * z + batch.frag_coord[0][lane] / 64.0;
            out.color[2][lane] = varyings[2][lane] * w + batch.frag_coord[1][lane] / 64.0;
            out.color[3][lane] = varyings[3][lane];
            if lane < batch.len
                && self
                    .discard_above
                    .is_some_and(|cut| varyings[0][lane] > cut)
            {
                out.discard.insert(lane);
            }
        }
    }
}

impl FragmentStage for Shader {
    type Scratch = Vec<LaneArray>;
    fn new_scratch(&self) -> Self::Scratch {
        vec![[0.0; MAX_LANES]; 4]
    }
    fn may_discard(&self) -> bool {
        self.discard_above.is_some()
    }
    fn shades_several_triangles(&self) -> bool {
        self.several
    }
    fn interpolate_lanes(
        &self,
        scratch: &mut Self::Scratch,
        tri: &Triangle<'_>,
        batch: &FragmentBatch,
        lanes: Range<usize>,
    ) {
        tri.interpolate_selected_lanes(batch, u64::MAX, scratch, lanes);
    }
    fn shade_interpolated(
        &self,
        scratch: &mut Self::Scratch,
        front_facing: bool,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        let (last, padded) = (batch.len - 1, batch.padded_len());
        for a in scratch.iter_mut() {
            let v = a[last];
            a[last + 1..padded].fill(v);
        }
        self.run(scratch, front_facing, batch, out);
    }
    fn shade(
        &self,
        scratch: &mut Self::Scratch,
        tri: &Triangle<'_>,
        batch: &FragmentBatch,
        out: &mut FragmentOutput,
    ) {
        tri.interpolate(batch, scratch);
        self.run(scratch, tri.front_facing, batch, out);
    }
}

/// `n` random small triangles (a few pixels across, both windings, random depths and
/// varyings) over a `size × size` framebuffer: many overlap one another. Every tenth
/// is large (up to 40 pixels across), so batches of small triangles are also cut by
/// large triangles, which shade batches of their own.
fn small_triangles(rng: &mut Rng, n: usize, size: u32) -> Mesh {
    let mut positions = Vec::new();
    let mut varyings = Vec::new();
    for i in 0..n {
        let (cx, cy) = (rng.range(0.0, size as f32), rng.range(0.0, size as f32));
        let r = if i % 10 == 0 { 20.0 } else { 3.0 };
        for _ in 0..3 {
            let (x, y) = (cx + rng.range(-r, r), cy + rng.range(-r, r));
            positions.push(window_to_clip(x, y, rng.range(0.0, 1.0), size, size));
            varyings.push((0..4).map(|_| rng.range(0.0, 1.0)).collect());
        }
    }
    let mut mesh = Mesh::with_varyings(positions, varyings);
    mesh.interpolation = vec![
        Interpolation::Smooth,
        Interpolation::NoPerspective,
        Interpolation::Smooth,
        Interpolation::Flat,
    ];
    mesh
}

#[test]
fn several_triangles_per_batch_match_one_batch_per_triangle() {
    let size = 96;
    let mut rng = Rng(0x5eed_0017);
    let mesh = small_triangles(&mut rng, 1500, size);
    for depth_test in [
        DepthTest::Disabled,
        DepthTest::Less,
        DepthTest::LessEqual,
        DepthTest::Always,
    ] {
        for blend in [BlendMode::Replace, BlendMode::Alpha, BlendMode::Additive] {
            for discard_above in [None, Some(0.6)] {
                let state = RasterState {
                    depth_test,
                    blend,
                    ..RasterState::default()
                };
                let mut fbs = Vec::new();
                let mut runs = Vec::new();
                for several in [false, true] {
                    let fs = Shader::new(several, discard_above);
                    let mut fb = framebuffer(size, size);
                    let stats = draw(&mut fb, &mesh, None, &fs, state);
                    fbs.push((fb.to_rgba8_top_down(), fb.depth_top_down(), stats));
                    runs.push(fs.runs.load(Ordering::Relaxed));
                }
                let what = format!("{depth_test:?} {blend:?} discard {discard_above:?}");
                assert_eq!(fbs[0].0, fbs[1].0, "colours, {what}");
                assert_eq!(fbs[0].1, fbs[1].1, "depths, {what}");
                assert_eq!(fbs[0].2, fbs[1].2, "counts, {what}");
                assert!(fbs[0].2.fragments_written > 1000, "{what}");
                // Many triangles share a shader run with others (overlaps and the large
                // triangles still cut batches short: this field is crowded on purpose).
                assert!(runs[1] * 4 < runs[0] * 3, "{what}: runs {runs:?}");
            }
        }
    }
}
