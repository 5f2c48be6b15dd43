//! `csir-render trace [SCENE.json] --pixel X,Y [--json]`.

use super::fail;
use super::report::print_report;
use clap::Args;
use csir_render::debug::trace_pixel;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `trace`.
///
/// The usage line is written out: in its "required argument missing" error, clap
/// shows the arguments that were given as required, so `trace scene.json` without
/// `--pixel` printed `<SCENE>` although the scene is optional.
#[derive(Args, Debug)]
#[command(override_usage = "csir-render trace [OPTIONS] --pixel <X,Y> [SCENE]")]
pub struct TraceArgs {
    /// Scene file (`csir-scene/1` JSON). Without it, the built-in lit textured cube.
    pub scene: Option<PathBuf>,
    /// The pixel: X from the left, Y down from the top row (the PNG's coordinates).
    #[arg(long, value_name = "X,Y", value_parser = parse_pixel, allow_hyphen_values = true)]
    pub pixel: Pixel,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// An image pixel `[x, y]`, y down.
#[derive(Clone, Copy, Debug)]
pub struct Pixel([u32; 2]);

fn parse_pixel(text: &str) -> Result<Pixel, String> {
    let bad = || {
        format!("'{text}' is not X,Y (two whole numbers from 0: x from the left, y from the top)")
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x = x.trim().parse().map_err(|_| bad())?;
    let y = y.trim().parse().map_err(|_| bad())?;
    Ok(Pixel([x, y]))
}

/// Run `trace`: print the pixel's story, or print the error and exit 1.
pub fn run(args: &TraceArgs) -> ExitCode {
    let scene = match super::load_scene(args.scene.as_deref()) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let trace = match trace_pixel(&scene, args.pixel.0) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    print_report(&trace, args.json)
}
