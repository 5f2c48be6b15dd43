//! The image does not depend on the number of threads.

use crate::support::*;
use csir_raster::*;

/// Draws a busy scene: overlapping random triangles with depth, then alpha-blended ones,
/// some crossing the near plane, on a framebuffer with partial edge tiles.
fn render() -> (Vec<u8>, Vec<u32>, Vec<DrawStats>) {
    let mut rng = Rng(0x5eed);
    let mut fb = Framebuffer::new(150, 130).unwrap();
    fb.clear([0.1, 0.2, 0.3, 1.0], 1.0);
    let mut renderer = Renderer::new();
    let mut stats = Vec::new();
    for (pass, blend) in [BlendMode::Replace, BlendMode::Alpha, BlendMode::Additive]
        .into_iter()
        .enumerate()
    {
        let n = 300;
        let positions: Vec<[f32; 4]> = (0..n)
            .map(|i| {
                let w = rng.range(0.5, 2.0);
                let z = if i % 17 == 0 {
                    -3.0 * w
                } else {
                    rng.range(-1.0, 1.0) * w
                };
                [rng.range(-1.2, 1.2) * w, rng.range(-1.2, 1.2) * w, z, w]
            })
            .collect();
        let varyings = (0..n)
            .map(|_| {
                vec![
                    rng.range(0.0, 1.0),
                    rng.range(0.0, 1.0),
                    rng.range(0.0, 1.0),
                    0.6,
                ]
            })
            .collect();
        let mesh = Mesh::with_varyings(positions, varyings);
        let indices: Vec<u32> = (0..n as u32).rev().collect();
        let state = RasterState {
            blend,
            depth_write: pass == 0,
            ..RasterState::default()
        };
        let call = DrawCall {
            vertex_stage: &mesh,
            fragment_stage: &VaryingColor,
            vertex_count: n as u32,
            indices: Some(Indices::new(&indices)),
            state,
            topology: Default::default(),
        };
        stats.push(renderer.draw(&mut fb, &call).unwrap());
    }
    (fb.to_rgba8_top_down(), fb.depth_top_down(), stats)
}

#[test]
fn one_and_four_threads_give_identical_bytes() {
    let in_pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(render)
    };
    let (one, four) = (in_pool(1), in_pool(4));
    assert!(one.2[0].fragments_written > 1000);
    assert!(one.0 == four.0, "colour differs between 1 and 4 threads");
    assert!(one.1 == four.1, "depth differs between 1 and 4 threads");
    assert_eq!(one.2, four.2);
}

/// Many small triangles, indexed as a strip-like list (each vertex shared by three
/// triangles), some crossing the near plane, drawn with depth and then blended: enough
/// set-up triangles for several setup chunks and for parallel binning.
fn render_many() -> (Vec<u8>, Vec<u32>, Vec<DrawStats>) {
    let mut rng = Rng(0xb16_d4a7);
    let mut fb = Framebuffer::new(333, 250).unwrap();
    fb.clear([0.0, 0.0, 0.0, 1.0], 1.0);
    let mut renderer = Renderer::new();
    let mut stats = Vec::new();
    for (pass, blend) in [BlendMode::Replace, BlendMode::Alpha]
        .into_iter()
        .enumerate()
    {
        let n = 24_000;
        let (mut x, mut y) = (0.0f32, 0.0f32);
        let positions: Vec<[f32; 4]> = (0..n)
            .map(|i| {
                // A random walk of small steps, wrapped into [-1.1, 1.1].
                x = (x + rng.range(-0.05, 0.05) + 1.1).rem_euclid(2.2) - 1.1;
                y = (y + rng.range(-0.05, 0.05) + 1.1).rem_euclid(2.2) - 1.1;
                let w = rng.range(0.8, 1.5);
                let z = if i % 97 == 0 {
                    -2.0 * w
                } else {
                    rng.range(-0.9, 0.9) * w
                };
                [x * w, y * w, z, w]
            })
            .collect();
        let varyings = (0..n)
            .map(|_| vec![rng.range(0.0, 1.0), rng.range(0.0, 1.0), 0.5, 0.5])
            .collect();
        let mesh = Mesh::with_varyings(positions, varyings);
        let indices: Vec<u32> = (0..n as u32 - 2).flat_map(|i| [i, i + 1, i + 2]).collect();
        let state = RasterState {
            blend,
            depth_write: pass == 0,
            ..RasterState::default()
        };
        let call = DrawCall {
            vertex_stage: &mesh,
            fragment_stage: &VaryingColor,
            vertex_count: n as u32,
            indices: Some(Indices::new(&indices)),
            state,
            topology: Default::default(),
        };
        stats.push(renderer.draw(&mut fb, &call).unwrap());
    }
    (fb.to_rgba8_top_down(), fb.depth_top_down(), stats)
}

#[test]
fn many_triangles_give_identical_bytes_on_one_two_and_seven_threads() {
    let in_pool = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(render_many)
    };
    let one = in_pool(1);
    let s = one.2[0];
    // Several setup chunks (512 triangles each), parallel binning (8192 and more),
    // clipped triangles (vertices made in several chunks) and the vertex cache.
    assert_eq!(s.triangles_in, 23_998);
    assert_eq!(s.vertices_shaded, 24_000);
    assert!(s.triangles_rasterized > 8192, "{s:?}");
    assert!(s.triangles_clipped > 100, "{s:?}");
    assert!(s.fragments_written > 20_000, "{s:?}");
    for threads in [2, 7] {
        let other = in_pool(threads);
        assert!(
            one.0 == other.0,
            "colour differs between 1 and {threads} threads"
        );
        assert!(
            one.1 == other.1,
            "depth differs between 1 and {threads} threads"
        );
        assert_eq!(
            one.2, other.2,
            "stats differ between 1 and {threads} threads"
        );
    }
}
