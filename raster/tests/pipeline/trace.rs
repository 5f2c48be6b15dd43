//! Tracing one pixel through draws.

use crate::support::*;
use csir_raster::*;

fn quad_at(z: f32) -> Mesh {
    Mesh::from_window(
        &[
            [0.0, 0.0, z],
            [16.0, 0.0, z],
            [16.0, 16.0, z],
            [0.0, 16.0, z],
        ],
        16,
        16,
    )
}

#[test]
fn trace_reports_each_fragment_of_the_pixel() {
    let mut fb = framebuffer(16, 16);
    let mut renderer = Renderer::new();
    let indices = [0, 1, 2, 0, 2, 3];
    let mut run = |fb: &mut Framebuffer, z: f32, fs: &Flat, blend: BlendMode| {
        let mesh = quad_at(z);
        let state = RasterState {
            blend,
            ..RasterState::default()
        };
        let call = DrawCall {
            vertex_stage: &mesh,
            fragment_stage: fs,
            vertex_count: 4,
            indices: Some(Indices::new(&indices)),
            state,
            topology: Default::default(),
        };
        renderer.draw_traced(fb, &call, [5, 9]).unwrap().1
    };
    let red = run(
        &mut fb,
        0.25,
        &Flat::new([1.0, 0.0, 0.0, 1.0]),
        BlendMode::Replace,
    );
    assert_eq!(red.len(), 1, "one of the two triangles covers (5, 9)");
    let e = red[0];
    assert_eq!(e.primitive, 1, "above the diagonal: second triangle");
    assert_eq!([e.frag_coord[0], e.frag_coord[1]], [5.5, 9.5]);
    assert!(e.shaded && !e.discarded);
    let d = e.depth.unwrap();
    assert!(d.passed && d.written && d.stored == DEPTH_MAX && d.fragment == quantize_depth(0.25));
    assert_eq!(e.blend.unwrap().result, [255, 0, 0, 255]);
    assert!((e.barycentric.iter().sum::<f32>() - 1.0).abs() < 1e-6);

    let hidden = run(
        &mut fb,
        0.75,
        &Flat::new([0.0, 1.0, 0.0, 1.0]),
        BlendMode::Replace,
    );
    assert_eq!(hidden.len(), 1);
    assert!(!hidden[0].depth.unwrap().passed && !hidden[0].shaded && hidden[0].blend.is_none());

    let glass = run(
        &mut fb,
        0.1,
        &Flat::new([0.0, 0.0, 1.0, 0.5]),
        BlendMode::Alpha,
    );
    let b = glass[0].blend.unwrap();
    assert_eq!(
        (b.source, b.destination, b.result),
        ([0, 0, 255, 128], [255, 0, 0, 255], [127, 0, 128, 191])
    );
    assert_eq!(glass[0].color, Some([0.0, 0.0, 1.0, 0.5]));
    assert_eq!(fb.color(5, 9), Some([127, 0, 128, 191]));
}

#[test]
fn discard_is_traced_and_tracing_does_not_change_the_image() {
    let mesh = quad_at(0.5);
    let indices = [0, 1, 2, 0, 2, 3];
    let fs = Flat {
        color: [1.0; 4],
        discard_right_of: Some(4.0),
    };
    let call = DrawCall {
        vertex_stage: &mesh,
        fragment_stage: &fs,
        vertex_count: 4,
        indices: Some(Indices::new(&indices)),
        state: RasterState::default(),
        topology: Default::default(),
    };
    let mut plain = framebuffer(16, 16);
    let plain_stats = Renderer::new().draw(&mut plain, &call).unwrap();
    let mut traced = framebuffer(16, 16);
    let (stats, events) = Renderer::new()
        .draw_traced(&mut traced, &call, [9, 2])
        .unwrap();
    assert_eq!(stats, plain_stats);
    assert_eq!(plain.to_rgba8_top_down(), traced.to_rgba8_top_down());
    assert_eq!(events.len(), 1);
    assert!(events[0].shaded && events[0].discarded && !events[0].depth.unwrap().written);
    assert!(
        Renderer::new()
            .draw_traced(&mut traced, &call, [99, 2])
            .unwrap()
            .1
            .is_empty()
    );
}

#[test]
fn a_traced_tile_draw_rasterizes_and_allocates_only_the_pixel_tile() {
    // A 1024×1024 frame is 16×16 tiles; a quad covering all of it.
    let mesh = Mesh::from_window(
        &[
            [0.0, 0.0, 0.5],
            [1024.0, 0.0, 0.5],
            [1024.0, 1024.0, 0.5],
            [0.0, 1024.0, 0.5],
        ],
        1024,
        1024,
    );
    let indices = [0, 1, 2, 0, 2, 3];
    let fs = Flat::new([0.0, 1.0, 0.0, 1.0]);
    let call = DrawCall {
        vertex_stage: &mesh,
        fragment_stage: &fs,
        vertex_count: 4,
        indices: Some(Indices::new(&indices)),
        state: RasterState::default(),
        topology: Default::default(),
    };
    let mut whole = framebuffer(1024, 1024);
    Renderer::new().draw(&mut whole, &call).unwrap();
    assert_eq!(whole.storage_bytes(), 256 * 4096 * 8, "every tile: colour and depth");

    let mut traced = framebuffer(1024, 1024);
    let (stats, events) = Renderer::new()
        .draw_traced_tile(&mut traced, &call, [700, 300])
        .unwrap();
    assert_eq!(traced.storage_bytes(), 4096 * 8, "one tile: colour and depth");
    assert_eq!(stats.fragments_written, 4096, "the tile's 64×64 fragments");
    assert_eq!(events.len(), 1);
    assert_eq!(traced.color(700, 300), whole.color(700, 300));
    assert_eq!(traced.color(700, 300), Some([0, 255, 0, 255]));
    // Another tile is untouched: still the clear colour.
    assert_eq!(traced.color(10, 10), Some([0, 0, 0, 0]));
}
