//! Depth test functions, depth writes, 24-bit storage and rotation invariance.

use crate::support::*;
use csir_raster::*;

/// A triangle covering all of a 16 × 16 framebuffer at window depth `z`.
fn cover_all(z: f32) -> Mesh {
    Mesh::from_window(&[[-1.0, -1.0, z], [40.0, -1.0, z], [-1.0, 40.0, z]], 16, 16)
}

#[test]
fn each_depth_function_against_less_equal_and_greater_fragments() {
    let stored = quantize_depth(0.5);
    for (_, test) in DepthTest::NAMES {
        for (z, relation) in [(0.25f32, "less"), (0.5, "equal"), (0.75, "greater")] {
            let mut fb = Framebuffer::new(16, 16).unwrap();
            fb.clear([0.0; 4], 0.5);
            let state = RasterState {
                depth_test: test,
                depth_write: true,
                ..RasterState::default()
            };
            let stats = draw(&mut fb, &cover_all(z), None, &Flat::new([1.0; 4]), state);
            let fragment = quantize_depth(f64::from(z));
            let passes = test.passes(fragment, stored);
            let expect_pass = match (test, relation) {
                (DepthTest::Disabled | DepthTest::Always, _) => true,
                (DepthTest::Never, _) => false,
                (DepthTest::Less, r) => r == "less",
                (DepthTest::LessEqual, r) => r != "greater",
                (DepthTest::Greater, r) => r == "greater",
                (DepthTest::GreaterEqual, r) => r != "less",
                (DepthTest::Equal, r) => r == "equal",
                (DepthTest::NotEqual, r) => r != "equal",
            };
            assert_eq!(passes, expect_pass, "{test:?} {relation}");
            let color = fb.color(5, 7).unwrap();
            assert_eq!(
                color == [255; 4],
                expect_pass,
                "{test:?} {relation}: colour"
            );
            let depth = fb.depth(5, 7).unwrap();
            let written = expect_pass && test != DepthTest::Disabled;
            assert_eq!(
                depth,
                if written { fragment } else { stored },
                "{test:?} {relation}: depth"
            );
            let shaded = if expect_pass { 256 } else { 0 };
            assert_eq!(
                stats.fragments_shaded, shaded,
                "{test:?}: failing fragments are not shaded"
            );
        }
    }
}

#[test]
fn depth_write_off_keeps_the_buffer() {
    let mut fb = framebuffer(16, 16);
    let state = RasterState {
        depth_test: DepthTest::Always,
        depth_write: false,
        ..RasterState::default()
    };
    draw(&mut fb, &cover_all(0.25), None, &Flat::new([1.0; 4]), state);
    assert_eq!(fb.color(3, 3), Some([255; 4]));
    assert_eq!(fb.depth(3, 3), Some(DEPTH_MAX));
}

#[test]
fn nearer_triangle_hides_farther_one_in_either_order() {
    for near_first in [true, false] {
        let mut fb = framebuffer(16, 16);
        let (near, far) = (cover_all(0.25), cover_all(0.75));
        let (a, b) = if near_first {
            (&near, &far)
        } else {
            (&far, &near)
        };
        let ca = if near_first {
            [0.0, 1.0, 0.0, 1.0]
        } else {
            [1.0, 0.0, 0.0, 1.0]
        };
        let cb = if near_first {
            [1.0, 0.0, 0.0, 1.0]
        } else {
            [0.0, 1.0, 0.0, 1.0]
        };
        draw(&mut fb, a, None, &Flat::new(ca), RasterState::default());
        let second = draw(&mut fb, b, None, &Flat::new(cb), RasterState::default());
        assert_eq!(fb.color(8, 8), Some([0, 255, 0, 255]), "near (green) wins");
        if near_first {
            assert_eq!(
                second.fragments_shaded, 0,
                "early depth test skips hidden fragments"
            );
            assert_eq!(second.fragments_depth_failed, 256);
        }
    }
}

#[test]
fn discarded_fragments_write_no_depth() {
    let mut fb = framebuffer(16, 16);
    let fs = Flat {
        color: [1.0; 4],
        discard_right_of: Some(8.0),
    };
    let stats = draw(&mut fb, &cover_all(0.25), None, &fs, RasterState::default());
    assert_eq!(stats.fragments_discarded, 8 * 16);
    assert_eq!(fb.depth(7, 3), Some(quantize_depth(0.25)));
    assert_eq!(fb.color(7, 3), Some([255; 4]));
    assert_eq!(fb.depth(8, 3), Some(DEPTH_MAX));
    assert_eq!(fb.color(8, 3), Some([0; 4]));
}

#[test]
fn depth_is_interpolated_linearly_in_window_space() {
    // Depth 0 at x = 0 to 1 at x = 16 along the bottom; constant in y.
    let mesh = Mesh::from_window(
        &[[0.0, 0.0, 0.0], [16.0, 0.0, 1.0], [0.0, 32.0, 0.0]],
        16,
        16,
    );
    let mut fb = framebuffer(16, 16);
    let state = RasterState {
        depth_test: DepthTest::Always,
        ..RasterState::default()
    };
    draw(&mut fb, &mesh, None, &Flat::new([1.0; 4]), state);
    for x in 0..8 {
        let expect = quantize_depth((f64::from(x) + 0.5) / 16.0);
        let got = fb.depth(x, 1).unwrap();
        assert!(got.abs_diff(expect) <= 1, "x {x}: {got} vs {expect}");
    }
}

/// Draws random triangles (some crossing the near plane) with `less`, then the same
/// triangles with their vertices rotated or reversed with `equal`: every pixel of the
/// first pass must be repainted.
#[test]
fn same_triangle_in_any_vertex_order_gives_the_same_depth_bits() {
    let mut rng = Rng(0xdead_beef);
    for round in 0..24 {
        let mut p: Vec<[f32; 4]> = (0..3)
            .map(|_| {
                let w = rng.range(0.5, 3.0);
                [
                    rng.range(-1.5, 1.5) * w,
                    rng.range(-1.5, 1.5) * w,
                    rng.range(-0.9, 0.9) * w,
                    w,
                ]
            })
            .collect();
        if round % 3 == 0 {
            p[2] = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), -2.0, -1.0]; // behind the eye
        }
        let mut fb = framebuffer(40, 36);
        let first = draw(
            &mut fb,
            &Mesh::new(p.clone()),
            None,
            &Flat::new([1.0, 0.0, 0.0, 1.0]),
            RasterState::default(),
        );
        for order in [[1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0]] {
            let state = RasterState {
                depth_test: DepthTest::Equal,
                ..RasterState::default()
            };
            let mesh = Mesh::new(order.iter().map(|&i| p[i]).collect());
            let again = draw(
                &mut fb,
                &mesh,
                None,
                &Flat::new([0.0, 1.0, 0.0, 1.0]),
                state,
            );
            assert_eq!(
                again.fragments_written, first.fragments_written,
                "round {round} order {order:?}"
            );
        }
        assert!(
            red(&fb).iter().flatten().all(|&r| r == 0),
            "round {round}: hole in the equal pass"
        );
    }
}

/// Draws `mesh` with `state` and a flat `color` into `early` (depth written before
/// shading, so coarse rejection gets tight bounds) and into `late` through a shader
/// that may discard but never does (depth written after shading, bounds only rise);
/// asserts both draws counted the same covered, depth-failed and written fragments
/// (`what` names the draw) and returns their statistics.
fn draw_early_and_late(
    [early, late]: [&mut Framebuffer; 2],
    mesh: &Mesh,
    color: [f32; 4],
    state: RasterState,
    what: &str,
) -> (DrawStats, DrawStats) {
    let a = draw(early, mesh, None, &Flat::new(color), state);
    let never = Flat {
        color,
        discard_right_of: Some(f32::INFINITY),
    };
    let b = draw(late, mesh, None, &never, state);
    let counts = |d: &DrawStats| {
        (
            d.fragments_covered,
            d.fragments_depth_failed,
            d.fragments_written,
        )
    };
    assert_eq!(counts(&a), counts(&b), "{what}");
    (a, b)
}

/// `early` and `late` hold the same colours and depths, and the draws overlapped
/// enough to exercise the rejection (more than a tenth of the `covered` fragments
/// were `rejected` by the depth test).
fn assert_same_frames(
    early: &Framebuffer,
    late: &Framebuffer,
    rejected: u64,
    covered: u64,
    seed: u64,
) {
    assert_eq!(
        early.to_rgba8_top_down(),
        late.to_rgba8_top_down(),
        "seed {seed}"
    );
    assert_eq!(early.depth_top_down(), late.depth_top_down(), "seed {seed}");
    assert!(
        rejected > covered / 10,
        "seed {seed}: the draws overlap: {rejected} of {covered}"
    );
}

/// Coarse depth rejection (`depth_bound.rs`) changes nothing: the same random draws
/// give the same colours, depths and counts whether depth is written before shading
/// (the per-block bounds are tightened, so blocks get skipped) or after it (the
/// bounds only rise, so nothing below the clear value is ever skipped). Mostly
/// `less` / `lequal` with some `greater` and `always` draws that raise stored depth.
#[test]
fn coarse_depth_rejection_matches_the_per_pixel_test() {
    let (w, h) = (160u32, 96u32);
    let tests = [
        DepthTest::Less,
        DepthTest::LessEqual,
        DepthTest::Less,
        DepthTest::Greater,
        DepthTest::LessEqual,
        DepthTest::Always,
    ];
    for seed in 1..=4u64 {
        let mut rng = Rng(seed * 0x9e37_79b9);
        let mut early = framebuffer(w, h);
        let mut late = framebuffer(w, h);
        let (mut early_failed, mut late_failed) = (0, 0);
        let (mut rejected, mut covered) = (0, 0);
        for i in 0..60 {
            let mut point = || {
                [
                    rng.range(-20.0, w as f32 + 20.0),
                    rng.range(-20.0, h as f32 + 20.0),
                    rng.range(0.0, 1.0),
                ]
            };
            let mesh = Mesh::from_window(&[point(), point(), point()], w, h);
            let state = RasterState {
                depth_test: tests[(rng.next_u64() % tests.len() as u64) as usize],
                ..RasterState::default()
            };
            let color = [
                (i % 7) as f32 / 7.0,
                (i % 5) as f32 / 5.0,
                (i % 3) as f32 / 3.0,
                1.0,
            ];
            let (a, b) = draw_early_and_late(
                [&mut early, &mut late],
                &mesh,
                color,
                state,
                &format!("seed {seed}, draw {i}"),
            );
            early_failed += a.fragments_depth_failed;
            late_failed += b.fragments_depth_failed;
            rejected += a.fragments_depth_failed;
            covered += a.fragments_covered;
        }
        assert_eq!(early_failed, late_failed);
        assert_same_frames(&early, &late, rejected, covered, seed);
    }
}

/// `lequal` after an equal-depth draw passes everywhere, block bounds or not (the
/// coarse test must not reject a block whose smallest depth equals its bound).
#[test]
fn lequal_passes_at_the_block_bound() {
    let mut fb = framebuffer(16, 16);
    let less = RasterState::default();
    let lequal = RasterState {
        depth_test: DepthTest::LessEqual,
        ..RasterState::default()
    };
    let first = draw(&mut fb, &cover_all(0.5), None, &Flat::new([1.0; 4]), less);
    assert_eq!(first.fragments_written, 256);
    let second = draw(&mut fb, &cover_all(0.5), None, &Flat::new([0.5; 4]), lequal);
    assert_eq!(
        (second.fragments_written, second.fragments_depth_failed),
        (256, 0)
    );
    let third = draw(&mut fb, &cover_all(0.5), None, &Flat::new([0.5; 4]), less);
    assert_eq!(
        (third.fragments_written, third.fragments_depth_failed),
        (0, 256)
    );
}

/// The same comparison as [`coarse_depth_rejection_matches_the_per_pixel_test`] with
/// many triangles per draw, large and small (a few pixels), so a block's bound is
/// read by later triangles of the draw that wrote it: the early-write draw recomputes
/// a written block's bound only when a test reads it or the tile ends
/// (`rasterize.rs`, `stale_bounds`), including after `greater` / `always` draws
/// whose writes raise the stored depth.
#[test]
fn coarse_depth_rejection_matches_with_many_triangles_per_draw() {
    let (w, h) = (160u32, 96u32);
    let tests = [
        DepthTest::Less,
        DepthTest::LessEqual,
        DepthTest::Less,
        DepthTest::Greater,
        DepthTest::Always,
    ];
    for seed in 1..=4u64 {
        let mut rng = Rng(seed * 0x51_7cc1_b727);
        let mut early = framebuffer(w, h);
        let mut late = framebuffer(w, h);
        let (mut rejected, mut covered) = (0, 0);
        for i in 0..12 {
            let mut points = Vec::new();
            for t in 0..40 {
                let (cx, cy) = (rng.range(0.0, w as f32), rng.range(0.0, h as f32));
                let size = if t % 2 == 0 { 60.0 } else { 4.0 };
                let z = rng.range(0.0, 1.0);
                for _ in 0..3 {
                    points.push([
                        cx + rng.range(-size, size),
                        cy + rng.range(-size, size),
                        (z + rng.range(-0.2, 0.2)).clamp(0.0, 1.0),
                    ]);
                }
            }
            let mesh = Mesh::from_window(&points, w, h);
            let state = RasterState {
                depth_test: tests[(rng.next_u64() % tests.len() as u64) as usize],
                ..RasterState::default()
            };
            let color = [(i % 7) as f32 / 7.0, (i % 5) as f32 / 5.0, 0.5, 1.0];
            let (a, _) = draw_early_and_late(
                [&mut early, &mut late],
                &mesh,
                color,
                state,
                &format!("seed {seed}, draw {i}"),
            );
            rejected += a.fragments_depth_failed;
            covered += a.fragments_covered;
        }
        assert_same_frames(&early, &late, rejected, covered, seed);
    }
}
