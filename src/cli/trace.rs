//! `csir-render trace [SCENE.json] --pixel X,Y [--json] [--max-draws N]
//! [--max-fragments N] [--max-memory BYTES]`.

use super::fail;
use clap::Args;
use csir_render::debug::{TraceOptions, trace_pixel_with};
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
    /// Print JSON Lines instead of text: one compact JSON object per line, `pixel`,
    /// then each `draw` followed by its `fragment`s, then `end` with the colour (the
    /// `record` field names each; see README.md "trace --json").
    #[arg(long)]
    pub json: bool,
    /// Draws shown (the scene's first); later ones are drawn and counted as "N more
    /// draws not shown".
    #[arg(long, value_name = "N", default_value_t = TraceOptions::DEFAULT_DRAWS)]
    pub max_draws: usize,
    /// Fragments shown per draw (the first to reach the pixel); later ones are counted
    /// as "N more fragments not shown".
    #[arg(long, value_name = "N", default_value_t = TraceOptions::DEFAULT_FRAGMENTS)]
    pub max_fragments: usize,
    #[command(flatten)]
    pub memory: super::MemoryArgs,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
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
    let scene = match super::load_scene(
        args.scene.as_deref(),
        &args.memory,
        csir_render::budget::FrameUse::PixelTrace,
    ) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let options = TraceOptions {
        max_draws: args.max_draws,
        max_fragments: args.max_fragments,
        profile: args.profile.profile(),
    };
    let trace = match trace_pixel_with(&scene, args.pixel.0, &options) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if args.json {
        for line in trace.json_lines() {
            match line {
                Ok(line) => outln!("{line}"),
                Err(e) => return fail(e),
            }
        }
    } else {
        out!("{trace}");
    }
    ExitCode::SUCCESS
}
