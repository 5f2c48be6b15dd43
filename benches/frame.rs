//! Whole frames through the pipeline (`PreparedScene::render_into`: clear + draws
//! into one reused framebuffer, the region `csir-render render --frames` and
//! peer-render time) at 1920×1080, with 1 and 2 worker threads:
//!
//! - `procedural_1080p`: `reference-images/procedural_1080p.json` (one full-screen
//!   quad, the procedural shader: 4 Blinn-Phong lights, `pow(…, 48.0)`, sin/cos);
//! - `lit_cube_1080p`: `benches/lit_cube_1080p.json`, the `lit_cube` reference scene
//!   at 1920×1080 (its `uMVP` x row scaled by 0.75 for the 16:9 aspect).
//!
//! ```sh
//! cargo bench --bench frame                                   # criterion
//! cargo bench --bench frame -- --warm-up-time 1 --measurement-time 5 procedural
//! MIN_OF=40 cargo bench --bench frame                         # best-of-40 table
//! ```
//!
//! Results and the comparison with llvmpipe: `benches/README.md`.

use criterion::{Criterion, criterion_group};
use csir::Limits;
use csir_raster::{Framebuffer, Renderer};
use csir_render::pipeline::PreparedScene;
use csir_render::scene::Scene;
use std::path::Path;
use std::time::Instant;

/// The benchmarked scenes: name and path from the workspace root.
const SCENES: [(&str, &str); 2] = [
    ("procedural_1080p", "reference-images/procedural_1080p.json"),
    ("lit_cube_1080p", "benches/lit_cube_1080p.json"),
];

/// Worker thread counts.
const THREADS: [usize; 2] = [1, 2];

fn load(path: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    Scene::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

fn bench(c: &mut Criterion) {
    for (name, path) in SCENES {
        let scene = load(path);
        let prepared = PreparedScene::new(&scene, &Limits::default()).expect("scene prepares");
        let mut group = c.benchmark_group(format!("frame/{name}"));
        group.sample_size(20);
        for threads in THREADS {
            let pool = pool(threads);
            let mut renderer = Renderer::new();
            let mut fb = Framebuffer::new(scene.width, scene.height).unwrap();
            group.bench_function(format!("threads={threads}"), |b| {
                b.iter(|| {
                    pool.install(|| prepared.render_into(&mut renderer, &mut fb))
                        .expect("renders")
                })
            });
        }
        group.finish();
    }
}

/// Best-of-`reps` and median ms per frame for every scene and thread count
/// (`MIN_OF=reps`): on a shared, loaded machine the fastest frame is the most
/// repeatable figure.
fn min_of(reps: usize) {
    println!("scene            | threads | best ms | median ms");
    for (name, path) in SCENES {
        let scene = load(path);
        let prepared = PreparedScene::new(&scene, &Limits::default()).expect("scene prepares");
        for threads in THREADS {
            let pool = pool(threads);
            let mut renderer = Renderer::new();
            let mut fb = Framebuffer::new(scene.width, scene.height).unwrap();
            let mut times: Vec<f64> = (0..reps + 1)
                .map(|_| {
                    let t = Instant::now();
                    pool.install(|| prepared.render_into(&mut renderer, &mut fb))
                        .expect("renders");
                    t.elapsed().as_secs_f64() * 1e3
                })
                .skip(1)
                .collect();
            times.sort_by(f64::total_cmp);
            println!(
                "{name:16} | {threads:7} | {:7.2} | {:9.2}",
                times[0],
                times[times.len() / 2]
            );
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Some(reps) = std::env::var("MIN_OF").ok().and_then(|v| v.parse().ok()) {
        min_of(reps);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
