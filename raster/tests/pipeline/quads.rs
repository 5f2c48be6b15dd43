//! Quads (`FragmentStage::needs_quads`): batches of whole 2×2 quads in the documented
//! lane order, helper lanes that never write colour or depth (even when the stage
//! writes a colour and no discard for them, or discards them), and the same image as
//! the compact path.

use crate::support::*;
use csir_raster::*;
use std::sync::Mutex;

/// A flat colour that asks for quads, checks each batch's quad layout, and discards
/// every helper lane plus the covered pixels right of `discard_right_of`.
struct QuadFlat {
    color: [f32; 4],
    discard_helpers: bool,
    discard_right_of: Option<f32>,
    /// (pixel, helper) of every shaded lane.
    seen: Mutex<Vec<([u32; 2], bool)>>,
}

impl QuadFlat {
    fn new(discard_helpers: bool, discard_right_of: Option<f32>) -> Self {
        QuadFlat {
            color: [1.0, 0.5, 0.25, 1.0],
            discard_helpers,
            discard_right_of,
            seen: Mutex::new(Vec::new()),
        }
    }
}

impl FragmentStage for QuadFlat {
    type Scratch = ();
    fn new_scratch(&self) {}
    fn may_discard(&self) -> bool {
        self.discard_helpers || self.discard_right_of.is_some()
    }
    fn needs_quads(&self) -> bool {
        true
    }
    fn shade(&self, _: &mut (), _: &Triangle<'_>, batch: &FragmentBatch, out: &mut FragmentOutput) {
        assert_eq!(batch.len % 4, 0, "whole quads");
        let mut seen = self.seen.lock().unwrap();
        for q in (0..batch.len).step_by(4) {
            let (x0, y0) = (batch.pixel_x[q], batch.pixel_y[q]);
            assert!(
                x0 % 2 == 0 && y0 % 2 == 0,
                "quads are aligned to even x and y"
            );
            for (k, (dx, dy)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
                let lane = q + k;
                assert_eq!(
                    (batch.pixel_x[lane], batch.pixel_y[lane]),
                    (x0 + dx, y0 + dy)
                );
                assert_eq!(batch.frag_coord[0][lane], (x0 + dx) as f32 + 0.5);
                seen.push(([x0 + dx, y0 + dy], batch.helpers.contains(lane)));
            }
        }
        for lane in 0..batch.len {
            for c in 0..4 {
                out.color[c][lane] = self.color[c];
            }
            let right = self
                .discard_right_of
                .is_some_and(|cut| batch.frag_coord[0][lane] > cut);
            if right || (self.discard_helpers && batch.helpers.contains(lane)) {
                out.discard.insert(lane);
            }
        }
    }
}

/// A triangle with slanted edges across a 32 × 32 framebuffer, at window depth 0.25.
fn slanted() -> Mesh {
    Mesh::from_window(
        &[[1.3, 2.7, 0.25], [29.6, 5.2, 0.25], [9.1, 30.4, 0.25]],
        32,
        32,
    )
}

fn depth_state() -> RasterState {
    RasterState {
        depth_test: DepthTest::Less,
        depth_write: true,
        ..RasterState::default()
    }
}

#[test]
fn helpers_never_write_and_the_image_is_the_compact_paths() {
    let mut want = framebuffer(32, 32);
    draw(
        &mut want,
        &slanted(),
        None,
        &Flat::new([1.0, 0.5, 0.25, 1.0]),
        depth_state(),
    );
    for discard_helpers in [false, true] {
        let stage = QuadFlat::new(discard_helpers, None);
        let mut fb = framebuffer(32, 32);
        let stats = draw(&mut fb, &slanted(), None, &stage, depth_state());
        for y in 0..32 {
            for x in 0..32 {
                assert_eq!(fb.color(x, y), want.color(x, y), "({x}, {y})");
                assert_eq!(fb.depth(x, y), want.depth(x, y), "({x}, {y})");
            }
        }
        let seen = stage.seen.into_inner().unwrap();
        let helpers = seen.iter().filter(|(_, h)| *h).count();
        assert!(helpers > 0, "slanted edges leave partly covered quads");
        // Every covered pixel is shaded once, as a fragment; helpers are counted apart.
        assert_eq!(seen.len() - helpers, stats.fragments_shaded as usize);
        assert_eq!(
            stats.fragments_discarded, 0,
            "a helper's discard is not counted"
        );
        for (p, helper) in &seen {
            let covered = want.color(p[0], p[1]) != Some([0; 4]);
            assert_eq!(!helper, covered, "{p:?}");
        }
    }
}

#[test]
fn a_fragment_failing_the_depth_test_is_a_helper() {
    // Columns x < 15 already hold nearer depth, so the triangle's pixels there fail
    // the test; at x = 14 they share quads with x = 15, which passes: helpers. The
    // pixels right of 28.0 are discarded as well.
    let mut fb = framebuffer(32, 32);
    let near = Mesh::from_window(
        &[[0.0, 0.0, 0.1], [15.0, 0.0, 0.1], [15.0, 32.0, 0.1]],
        32,
        32,
    );
    let near2 = Mesh::from_window(
        &[[0.0, 0.0, 0.1], [15.0, 32.0, 0.1], [0.0, 32.0, 0.1]],
        32,
        32,
    );
    draw(
        &mut fb,
        &near,
        None,
        &Flat::new([0.0, 0.0, 1.0, 1.0]),
        depth_state(),
    );
    draw(
        &mut fb,
        &near2,
        None,
        &Flat::new([0.0, 0.0, 1.0, 1.0]),
        depth_state(),
    );
    let stage = QuadFlat::new(false, Some(28.0));
    draw(&mut fb, &slanted(), None, &stage, depth_state());
    let seen = stage.seen.into_inner().unwrap();
    assert!(
        seen.iter().any(|(p, h)| *h && p[0] == 14),
        "x = 14 fails depth beside x = 15"
    );
    for y in 0..32 {
        for x in 0..32 {
            let c = fb.color(x, y).unwrap();
            // Left of x = 15: the nearer blue stays; right of 28.0: discarded.
            if x < 15 {
                assert_eq!(c, [0, 0, 255, 255], "({x}, {y})");
            }
            if x >= 28 {
                assert_ne!(c, [255, 128, 64, 255], "({x}, {y}) was discarded");
            }
        }
    }
}
