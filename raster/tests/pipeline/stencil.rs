//! The stencil test and depth clamp through a whole draw (GL 3.3 §4.1.4, §2.20):
//! values written against hand-computed ones, front and back faces, the ops after a
//! depth failure, a discarding shader, and clamped depth.

use crate::support::*;
use csir_raster::*;

/// A triangle covering all of a 16 × 16 framebuffer at window depth `z`,
/// counter-clockwise (front facing) unless `back`.
fn cover_all(z: f32, back: bool) -> Mesh {
    let mut p = vec![[-1.0, -1.0, z], [40.0, -1.0, z], [-1.0, 40.0, z]];
    if back {
        p.swap(1, 2);
    }
    Mesh::from_window(&p, 16, 16)
}

fn stencil(front: StencilFace, back: StencilFace) -> RasterState {
    RasterState {
        depth_test: DepthTest::Disabled,
        stencil: Some(StencilState { front, back }),
        ..RasterState::default()
    }
}

fn every_stencil(fb: &Framebuffer) -> Vec<u8> {
    (0..16)
        .flat_map(|y| (0..16).map(move |x| (x, y)))
        .map(|(x, y)| fb.stencil(x, y).unwrap())
        .collect()
}

#[test]
fn front_and_back_faces_take_their_own_ops_and_wrap() {
    let front = StencilFace {
        pass: StencilOp::IncrWrap,
        ..StencilFace::default()
    };
    let back = StencilFace {
        pass: StencilOp::DecrWrap,
        ..StencilFace::default()
    };
    let mut fb = framebuffer(16, 16);
    fb.clear_stencil(0);
    let fs = Flat::new([1.0; 4]);
    // Back face first: 0 wraps to 255; then the front face: 255 wraps to 0, then 1.
    draw(
        &mut fb,
        &cover_all(0.5, true),
        None,
        &fs,
        stencil(front, back),
    );
    assert!(every_stencil(&fb).iter().all(|&s| s == 255));
    draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(front, back),
    );
    assert!(every_stencil(&fb).iter().all(|&s| s == 0));
    draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(front, back),
    );
    assert!(every_stencil(&fb).iter().all(|&s| s == 1));
    // Saturating ops stop at the ends.
    let sat = |op| StencilFace {
        pass: op,
        ..StencilFace::default()
    };
    fb.clear_stencil(255);
    draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(sat(StencilOp::Incr), sat(StencilOp::Keep)),
    );
    assert_eq!(fb.stencil(3, 3), Some(255));
    fb.clear_stencil(0);
    draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(sat(StencilOp::Decr), sat(StencilOp::Keep)),
    );
    assert_eq!(fb.stencil(3, 3), Some(0));
}

#[test]
fn the_test_compares_through_the_value_mask_and_writes_through_the_write_mask() {
    let mut fb = framebuffer(16, 16);
    fb.clear_stencil(0x5a);
    // equal: (0x1a & 0x0f) == (0x5a & 0x0f) passes; replace 0xc3 through 0xf0 gives
    // 0xc0 | 0x0a = 0xca.
    let face = StencilFace {
        func: DepthTest::Equal,
        reference: 0xc3 & 0xf0 | 0x0a,
        value_mask: 0x0f,
        write_mask: 0xf0,
        pass: StencilOp::Replace,
        fail: StencilOp::Invert,
        ..StencilFace::default()
    };
    let fs = Flat::new([1.0, 0.0, 0.0, 1.0]);
    let stats = draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(face, face),
    );
    assert!(every_stencil(&fb).iter().all(|&s| s == 0xca));
    assert_eq!(stats.fragments_shaded, 256);
    assert_eq!(fb.color(7, 7), Some([255, 0, 0, 255]));
    // Now 0xca & 0x0f = 0x0a still equals: passes again (no change). With ref 0x0b it
    // fails: invert through 0xf0 gives 0x3a; nothing is shaded or written.
    let failing = StencilFace {
        reference: 0x0b,
        ..face
    };
    let fs = Flat::new([0.0, 1.0, 0.0, 1.0]);
    let stats = draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(failing, failing),
    );
    assert!(every_stencil(&fb).iter().all(|&s| s == 0x3a));
    assert_eq!(stats.fragments_shaded, 0);
    assert_eq!(fb.color(7, 7), Some([255, 0, 0, 255]));
}

#[test]
fn depth_fail_and_pass_ops_follow_the_depth_test() {
    let mut fb = framebuffer(16, 16);
    fb.clear([0.0; 4], 0.5);
    fb.clear_stencil(10);
    let face = StencilFace {
        fail: StencilOp::Zero,
        depth_fail: StencilOp::Decr,
        pass: StencilOp::Incr,
        ..StencilFace::default()
    };
    let state = RasterState {
        depth_test: DepthTest::Less,
        ..stencil(face, face)
    };
    let fs = Flat::new([1.0; 4]);
    // Behind the stored 0.5: depth fails, decr; depth and colour kept.
    draw(&mut fb, &cover_all(0.75, false), None, &fs, state);
    assert_eq!(fb.stencil(2, 9), Some(9));
    assert_eq!(fb.depth(2, 9), Some(quantize_depth(0.5)));
    assert_eq!(fb.color(2, 9), Some([0; 4]));
    // In front: incr, depth written.
    draw(&mut fb, &cover_all(0.25, false), None, &fs, state);
    assert_eq!(fb.stencil(2, 9), Some(10));
    assert_eq!(fb.depth(2, 9), Some(quantize_depth(0.25)));
    // A failing stencil test: zero, and the depth test does not run (no depth write
    // although 0.125 would pass).
    let never = StencilFace {
        func: DepthTest::Never,
        ..face
    };
    draw(
        &mut fb,
        &cover_all(0.125, false),
        None,
        &fs,
        RasterState {
            depth_test: DepthTest::Less,
            ..stencil(never, never)
        },
    );
    assert_eq!(fb.stencil(2, 9), Some(0));
    assert_eq!(fb.depth(2, 9), Some(quantize_depth(0.25)));
}

#[test]
fn discarded_fragments_do_not_take_the_pass_op() {
    let mut fb = framebuffer(16, 16);
    fb.clear_stencil(0);
    let face = StencilFace {
        pass: StencilOp::Replace,
        reference: 9,
        ..StencilFace::default()
    };
    let fs = Flat {
        color: [1.0; 4],
        discard_right_of: Some(8.0),
    };
    draw(
        &mut fb,
        &cover_all(0.5, false),
        None,
        &fs,
        stencil(face, face),
    );
    for y in 0..16 {
        for x in 0..16 {
            let kept = x as f32 + 0.5 <= 8.0;
            assert_eq!(
                fb.stencil(x, y),
                Some(if kept { 9 } else { 0 }),
                "({x}, {y})"
            );
        }
    }
}

#[test]
fn depth_clamp_keeps_geometry_past_the_near_and_far_planes() {
    // Window depth -0.5 (NDC z = -2): clipped away without depth_clamp, drawn with
    // it at the clamped depth 0 (the depth range's near end); likewise 1.5 at 1.
    for (z, clamped) in [(-0.5f32, 0.0f64), (1.5, 1.0)] {
        let mesh = cover_all(z, false);
        let fs = Flat::new([1.0; 4]);
        let mut fb = framebuffer(16, 16);
        fb.clear([0.0; 4], 1.0);
        let state = RasterState {
            depth_test: DepthTest::Always,
            ..RasterState::default()
        };
        let stats = draw(&mut fb, &mesh, None, &fs, state);
        assert_eq!(stats.fragments_shaded, 0, "z {z}: clipped");
        let stats = draw(
            &mut fb,
            &mesh,
            None,
            &fs,
            RasterState {
                depth_clamp: true,
                ..state
            },
        );
        assert_eq!(stats.fragments_shaded, 256, "z {z}: clamped");
        assert_eq!(fb.depth(4, 4), Some(quantize_depth(clamped)));
        // With a depth range, to its ends.
        let stats = draw(
            &mut fb,
            &mesh,
            None,
            &fs,
            RasterState {
                depth_clamp: true,
                depth_range: [0.75, 0.25],
                ..state
            },
        );
        assert_eq!(stats.fragments_shaded, 256);
        // The range is reversed: NDC -2 maps beyond 0.75, NDC 2 beyond 0.25.
        let expect = if z < 0.0 { 0.75 } else { 0.25 };
        assert_eq!(fb.depth(4, 4), Some(quantize_depth(expect)));
    }
}
