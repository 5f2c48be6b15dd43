//! `csir-render render [SCENE.json] [-o OUT.png] [--threads N] [--frames N]`.

use super::fail;
use clap::Args;
use csir::Limits;
use csir_raster::Renderer;
use csir_render::image_io::write_png;
use csir_render::pipeline::{PreparedScene, with_threads};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Scene file (`csir-scene/1` JSON). Without it, the built-in lit textured cube.
    pub scene: Option<PathBuf>,
    /// Output PNG; default: the scene's file name with `.png`, in the current folder
    /// (`default_cube.png` for the built-in scene).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Worker threads (default: one per CPU). The image does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// After the first frame, render N more and print the median time per frame.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frames: Option<u32>,
}

/// Run `render`: write the PNG and print a one-line summary, or print the error and
/// exit 1 without writing anything.
pub fn run(args: &RenderArgs) -> ExitCode {
    let scene = match super::load_scene(args.scene.as_deref()) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let output = args.output.clone().unwrap_or_else(|| {
        let stem = args
            .scene
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "default_cube".into());
        PathBuf::from(format!("{stem}.png"))
    });
    let prepared = match PreparedScene::new(&scene, &Limits::default()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let threads = args.threads.map(|t| t as usize);
    let frames = args.frames.unwrap_or(0) as usize;
    let result = with_threads(threads, || {
        let mut renderer = Renderer::new();
        let start = Instant::now();
        let frame = prepared.render(&mut renderer)?;
        let first = start.elapsed();
        let mut times = Vec::with_capacity(frames);
        for _ in 0..frames {
            let t = Instant::now();
            prepared.render(&mut renderer)?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        Ok::<_, csir_render::pipeline::RenderError>((frame, first, times))
    });
    let (frame, first, mut times) = match result.and_then(|r| r) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Err(e) = write_png(&output, frame.width, frame.height, &frame.pixels) {
        return fail(e);
    }
    let draws = frame.draws.len();
    let shown = match &args.scene {
        Some(path) => path.display().to_string(),
        None => "built-in default scene (lit textured cube)".to_string(),
    };
    println!(
        "{}: {}x{}, {} draw{}, {} triangles, {:.2} ms -> {}",
        shown,
        frame.width,
        frame.height,
        draws,
        if draws == 1 { "" } else { "s" },
        frame.triangles(),
        first.as_secs_f64() * 1e3,
        output.display()
    );
    if !times.is_empty() {
        times.sort_by(f64::total_cmp);
        let median = if times.len() % 2 == 1 {
            times[times.len() / 2]
        } else {
            (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
        };
        println!(
            "frames: {}, median {:.3} ms/frame, min {:.3} ms, threads: {}",
            times.len(),
            median,
            times[0],
            threads.map_or_else(
                || rayon::current_num_threads().to_string(),
                |t| t.to_string()
            )
        );
    }
    ExitCode::SUCCESS
}
