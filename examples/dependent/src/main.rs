//! Render a scene `FRAMES` times through `PreparedScene::render_into` (what
//! `csir-render render --frames` times) and print the min and median ms per frame
//! and an FNV-1a checksum of the final RGBA8 image.
//!
//! ```sh
//! cargo run --release -- ../../reference-images/procedural_1080p.json 20 1
//! ```

use csir_raster::{Framebuffer, Renderer};
use csir_render::pipeline::{PreparedScene, RenderOptions, render_scene};
use csir_render::scene::Scene;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: csir-dependent SCENE [FRAMES] [THREADS]");
    let frames: usize = args.get(2).map_or(20, |v| v.parse().expect("frames"));
    let threads: usize = args.get(3).map_or(0, |v| v.parse().expect("threads"));
    let scene = Scene::load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let prepared = PreparedScene::new(&scene, &csir::Limits::default()).expect("prepares");
    let mut renderer = Renderer::new();
    let mut fb = Framebuffer::new(scene.width, scene.height).expect("framebuffer");
    let mut ms: Vec<f64> = (0..frames)
        .map(|_| {
            let start = Instant::now();
            pool.install(|| prepared.render_into(&mut renderer, &mut fb))
                .expect("renders");
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let frame = render_scene(&scene, &RenderOptions::default()).expect("renders");
    let fnv = frame
        .image
        .pixels()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
        });
    println!(
        "{path}: {frames} frames, {} threads: min {:.1} ms, median {:.1} ms, image fnv1a {fnv:016x}",
        pool.current_num_threads(),
        ms[0],
        ms[ms.len() / 2],
    );
}
