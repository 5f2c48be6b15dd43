//! Blending in RGBA8 and colour conversion, through whole draws.

use crate::support::*;
use csir_raster::*;

fn full_screen() -> Mesh {
    Mesh::new(vec![
        [-1.0, -1.0, 0.0, 1.0],
        [3.0, -1.0, 0.0, 1.0],
        [-1.0, 3.0, 0.0, 1.0],
    ])
}

fn blended(mode: BlendMode, dst: [f32; 4], src: [f32; 4]) -> [u8; 4] {
    let mut fb = Framebuffer::new(4, 4).unwrap();
    fb.clear(dst, 1.0);
    let state = RasterState {
        depth_test: DepthTest::Disabled,
        blend: mode,
        ..RasterState::default()
    };
    draw(&mut fb, &full_screen(), None, &Flat::new(src), state);
    fb.color(1, 2).unwrap()
}

#[test]
fn replace_stores_rounded_clamped_colour() {
    assert_eq!(
        blended(BlendMode::Replace, [0.3; 4], [0.5, -1.0, 2.0, 0.2]),
        [128, 0, 255, 51]
    );
}

#[test]
fn alpha_blending_values() {
    // src (1, 0.5, 0, 0.5) over dst (0, 0, 1, 1): RGB = src·a + dst·(1 − a), A likewise.
    assert_eq!(
        blended(BlendMode::Alpha, [0.0, 0.0, 1.0, 1.0], [1.0, 0.5, 0.0, 0.5]),
        [128, 64, 127, 191]
    );
    // Opaque source replaces; fully transparent keeps the destination.
    assert_eq!(
        blended(BlendMode::Alpha, [0.2; 4], [0.6, 0.6, 0.6, 1.0]),
        [153, 153, 153, 255]
    );
    assert_eq!(
        blended(BlendMode::Alpha, [0.2; 4], [0.6, 0.6, 0.6, 0.0]),
        [51, 51, 51, 51]
    );
}

#[test]
fn additive_blending_saturates() {
    assert_eq!(
        blended(
            BlendMode::Additive,
            [0.5, 0.2, 0.0, 1.0],
            [0.7, 0.2, 0.0, 0.5]
        ),
        [255, 102, 0, 255]
    );
}

#[test]
fn blend_stacks_in_submission_order() {
    let mut fb = Framebuffer::new(4, 4).unwrap();
    fb.clear([0.0, 0.0, 0.0, 1.0], 1.0);
    let state = RasterState {
        depth_test: DepthTest::Disabled,
        blend: BlendMode::Alpha,
        ..RasterState::default()
    };
    let mesh = full_screen();
    draw(
        &mut fb,
        &mesh,
        None,
        &Flat::new([1.0, 0.0, 0.0, 0.5]),
        state,
    );
    draw(
        &mut fb,
        &mesh,
        None,
        &Flat::new([0.0, 1.0, 0.0, 0.5]),
        state,
    );
    // red: 128, then 128·127/255 ≈ 64; green: 128; alpha: 191, then 64 + 191·127/255 ≈ 159.
    assert_eq!(fb.color(0, 0), Some([64, 128, 0, 159]));
}
