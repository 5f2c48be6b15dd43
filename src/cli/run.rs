//! `csir-render run SHADER [--stage vert|frag] [--uniform NAME=V,...]... [--attr LOC=V,...]...
//! [--varying NAME=V,...]... [--fragcoord X,Y,Z,W] [--texture SAMPLER=FILE.png]...
//! [--strict] [--trace] [--json]`.
//!
//! Inputs that are not given read OpenGL's defaults and get a `note:` line on stderr
//! (`--strict` makes them errors); see `csir_render::debug::run_invocation`. Under the
//! extended profile (the default) an int/uint/bool input takes exact integers and
//! integer outputs print as integers; under `--profile seed` integers are floats.

use super::compile::{StageArg, stage_of};
use super::fail;
use super::report::print_report;
use clap::Args;
use csir_render::debug::{Assignment, InvocationRequest, parse_floats, run_invocation};
use csir_render::texture::Texture;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Shader source file (`.vert` or `.frag`, or give --stage).
    pub shader: PathBuf,
    /// Shader stage; default: from the file extension.
    #[arg(long, value_enum)]
    pub stage: Option<StageArg>,
    /// A uniform's values (column-major for matrices; `NAME[i]=...` for one array
    /// element). An int, ivecN, uint, uvecN or bool uniform takes exact integers
    /// (-2147483648..=4294967295, bool: nonzero is true; under --profile seed,
    /// floats truncated toward zero, exact to 2^24). Unset uniforms read 0.
    #[arg(long = "uniform", value_name = "NAME=V0,V1,...")]
    pub uniforms: Vec<Assignment>,
    /// A vertex input by location or name: 1 to its width values, missing lanes from
    /// (0, 0, 0, 1); integers for an integer input, as for --uniform. Unset
    /// attributes read (0, 0, 0, 1).
    #[arg(long = "attr", value_name = "LOCATION=V0,V1,...")]
    pub attributes: Vec<Assignment>,
    /// A fragment input by name (all its values; integers for an integer input, as
    /// for --uniform). Unset varyings read 0.
    #[arg(long = "varying", value_name = "NAME=V0,V1,...")]
    pub varyings: Vec<Assignment>,
    /// gl_FragCoord: window x, y, depth, 1/w (default 0.5,0.5,0.5,1).
    #[arg(long, value_name = "X,Y,Z,W", value_parser = parse_float_list, allow_hyphen_values = true)]
    pub fragcoord: Option<FloatList>,
    /// A texture for a sampler uniform, sampled nearest / clamp-to-edge (rows flipped
    /// on load, as in scenes). Unbound samplers read (0, 0, 0, 0).
    #[arg(long = "texture", value_name = "SAMPLER=FILE.png", value_parser = parse_texture)]
    pub textures: Vec<(String, PathBuf)>,
    /// Every declared input must be given (otherwise: a note per defaulted input).
    #[arg(long)]
    pub strict: bool,
    /// Print every executed instruction with the values it produced (an int or uint
    /// result as the integer, under the extended profile).
    #[arg(long)]
    pub trace: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
}

/// A comma-separated list of floats.
#[derive(Clone, Debug)]
pub struct FloatList(Vec<f32>);

fn parse_float_list(text: &str) -> Result<FloatList, String> {
    parse_floats(text).map(FloatList).map_err(|e| e.to_string())
}

fn parse_texture(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, path)) if !name.trim().is_empty() && !path.is_empty() => {
            Ok((name.trim().to_string(), PathBuf::from(path)))
        }
        _ => Err(format!("'{text}' is not SAMPLER=FILE.png")),
    }
}

/// Run `run`: print the outputs (and notes on defaulted inputs to stderr), or print
/// the error and exit 1.
pub fn run(args: &RunArgs) -> ExitCode {
    let stage = match stage_of(&args.shader, args.stage) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let limits = args.profile.limits();
    let source = match super::read_shader_source(&args.shader, &limits) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let name = args.shader.display().to_string();
    let shader = match csir::compile(&source, &name, stage, &limits) {
        Ok(s) => s,
        Err(errors) => {
            err!("{errors}");
            return ExitCode::from(1);
        }
    };
    let mut textures = Vec::with_capacity(args.textures.len());
    for (sampler, path) in &args.textures {
        match Texture::load_png(path) {
            Ok(t) => textures.push((sampler.clone(), t)),
            Err(e) => return fail(format!("--texture {sampler}: {e}")),
        }
    }
    let request = InvocationRequest {
        uniforms: args.uniforms.clone(),
        attributes: args.attributes.clone(),
        varyings: args.varyings.clone(),
        frag_coord: args.fragcoord.clone().map(|FloatList(v)| v),
        textures,
        strict: args.strict,
    };
    let mut invocation = match run_invocation(&shader, &request) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    for input in &invocation.defaulted {
        errln!("note: {input}");
    }
    if !args.trace {
        invocation.instructions.clear();
    }
    print_report(&invocation, args.json)
}
