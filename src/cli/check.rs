//! `csir-render check SCENES_OR_DIRS... [--reference-suffix S] [--report DIR]
//! [--junit FILE] [--json FILE] [--jobs N] [--shard I/N] [--update [--force]]
//! [--backend cpu|gl | --against gl] [--gl-device N] [--profile seed|extended]`, and
//! `csir-render check --merge RESULTS... [--report DIR] [--junit FILE] [--json FILE]`.

use clap::Args;
use csir_render::check::{
    COMPARED_WITH_FILES, CheckError, CheckOptions, CheckResults, DRAWN_BY_CSIR_RENDER, IMAGES_DIR,
    REPORT_FILE, RESULTS_FILE, Renderers, SceneResult, Shard, Status, UpdatePolicy, check_scenes,
    find_scenes, reference_path, write_junit, write_report,
};
use csir_render::file_write::refuse_inputs;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `check`.
#[derive(Args, Debug)]
#[command(
    override_usage = "csir-render check [OPTIONS] <SCENES_OR_DIRS>...\n       csir-render check --merge [--report DIR] [--junit FILE] [--json FILE] <RESULTS>..."
)]
pub struct CheckArgs {
    /// Scene files, and folders searched recursively for `*.json` scenes. With
    /// --merge: the shares' results (report folders, or files written by --json).
    #[arg(required = true, value_name = "SCENES_OR_DIRS")]
    pub inputs: Vec<PathBuf>,
    /// A scene's reference image is its path without `.json`, then this.
    #[arg(long, value_name = "SUFFIX", default_value = ".llvmpipe.png")]
    pub reference_suffix: String,
    /// Write DIR/report.html (a self-contained page with every image), DIR/results.json
    /// and the images under DIR/images/.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Write the results as JUnit XML (for a CI's test view).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the results as JSON (what --merge reads).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Threads for rendering, shared by the scenes checked at once and their tiles
    /// (default: one per CPU). The images do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Check only share I of N (1 ≤ I ≤ N): the scenes, sorted by path, are dealt out
    /// in turn; the same on every machine.
    #[arg(long, value_name = "I/N", value_parser = clap::value_parser!(Shard))]
    pub shard: Option<Shard>,
    /// Merge the results of several runs (shares) into one: the inputs are their
    /// report folders or JSON files. Nothing is rendered.
    #[arg(long, conflicts_with_all = ["shard", "update", "jobs"])]
    pub merge: bool,
    /// Write missing reference images from our render. Existing ones are kept.
    #[arg(long)]
    pub update: bool,
    /// With --update: also replace the references our render does not match.
    #[arg(long, requires = "update")]
    pub force: bool,
    /// Who draws the images checked: `cpu` (this renderer, the default) or `gl`, the
    /// system's OpenGL driver ("does my driver draw like the references?"). With
    /// --update, `gl` (re)writes the references: each missing one, and each whose
    /// pixels differ from the driver's at all (`.llvmpipe.png` only from llvmpipe).
    #[arg(long, value_enum, default_value_t = CheckBackend::Cpu, conflicts_with = "merge")]
    pub backend: CheckBackend,
    /// Compare our render with the system's OpenGL driver drawing the same scene,
    /// instead of with the reference files (no file is read or written).
    #[arg(long, value_enum, conflicts_with_all = ["update", "merge"])]
    pub against: Option<Against>,
    #[command(flatten)]
    pub gl: super::GlDeviceArgs,
    /// Print a line for every scene, passed ones too (failures and errors always get
    /// one).
    #[arg(short, long)]
    pub verbose: bool,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
    #[command(flatten)]
    pub memory: super::MemoryArgs,
}

/// Who draws the images `check` judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckBackend {
    /// This renderer.
    Cpu,
    /// The system's OpenGL driver (docs/gl-backend.md).
    Gl,
}

/// What `--against` compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Against {
    /// The system's OpenGL driver (docs/gl-backend.md).
    Gl,
}

/// `error: MESSAGE` and exit 2: the run cannot be made or its results not written.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    super::fail_with(super::CANNOT_COMPARE, message)
}

/// Run `check`: print a line per failure and error (and per pass with --verbose), the
/// files written, and the closing line `N passed, N failed, N errors`. Exit 0 when
/// every scene passed, 1 when any failed, 2 when any could not be checked (or the run
/// itself could not be made).
pub fn run(args: &CheckArgs) -> ExitCode {
    if args.report.as_ref().is_some_and(|r| r.as_os_str() == "-") {
        return fail(
            "--report - : the report is a folder (a page, its images and results.json), \
             which standard output cannot hold; give a folder, or use --json - or --junit -",
        );
    }
    if let Err(e) = super::out::reserve_stdout(
        &[
            ("--json", args.json.as_deref()),
            ("--junit", args.junit.as_deref()),
        ],
        &[],
    ) {
        return fail(e);
    }
    let results = if args.merge { merge(args) } else { check(args) };
    let results = match results {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Err(e) = write_outputs(args, &results) {
        return fail(e);
    }
    let summary = results.summary();
    if summary.written > 0 {
        outln!(
            "{} reference image{} written",
            summary.written,
            if summary.written == 1 { "" } else { "s" }
        );
    }
    outln!("{summary}");
    ExitCode::from(summary.exit_code())
}

/// The files the run writes once the checks are done: the report folder's results and
/// page, the JUnit XML and the JSON results.
fn outputs(args: &CheckArgs) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(dir) = &args.report {
        files.push(dir.join(RESULTS_FILE));
        files.push(dir.join(REPORT_FILE));
    }
    files.extend(args.junit.iter().cloned());
    files.extend(args.json.iter().cloned());
    files
}

/// An error if one of `outputs` is one of `inputs` (`refuse_inputs`: the same file by
/// device and inode, whatever the spelling or link), so that nothing is written over an
/// input of the command (README, "Output files").
fn refuse_overwrites(outputs: &[PathBuf], inputs: &[(&Path, &str)]) -> Result<(), CheckError> {
    for output in outputs {
        refuse_inputs(output, inputs).map_err(|e| CheckError::Write(e.to_string()))?;
    }
    Ok(())
}

/// Render and compare this machine's share of the scenes.
///
/// Before rendering, the outputs are checked against every scene found (all shares)
/// and their reference images; each scene checked here compares them with its own
/// files when it loads ([`CheckOptions::outputs`]), and any match stops the run before
/// anything is written.
fn check(args: &CheckArgs) -> Result<CheckResults, CheckError> {
    let exclude: Vec<PathBuf> = args.report.iter().cloned().collect();
    let scenes = find_scenes(&args.inputs, &exclude)?;
    let outputs = outputs(args);
    let references: Vec<PathBuf> = scenes
        .iter()
        .map(|s| reference_path(s, &args.reference_suffix))
        .collect();
    let mut inputs: Vec<(&Path, &str)> = scenes.iter().map(|s| (s.as_path(), "a scene")).collect();
    inputs.extend(
        references
            .iter()
            .map(|r| (r.as_path(), "the reference image of a scene")),
    );
    refuse_overwrites(&outputs, &inputs)?;
    let found = scenes.len();
    let mine = match args.shard {
        Some(shard) => shard.select(&scenes),
        None => scenes,
    };
    if let Some(shard) = args.shard {
        errln!(
            "shard {shard}: {} of {found} scene{}",
            mine.len(),
            if found == 1 { "" } else { "s" }
        );
    }
    let (renderers, labels) = renderers(args)?;
    let images_dir = match &args.report {
        Some(dir) => {
            let images = dir.join(IMAGES_DIR);
            std::fs::create_dir_all(&images)
                .map_err(|e| CheckError::Write(format!("{}: {e}", images.display())))?;
            Some(images)
        }
        None => None,
    };
    let options = CheckOptions {
        reference_suffix: args.reference_suffix.clone(),
        update: match (args.update, args.force, &renderers) {
            (false, _, _) => UpdatePolicy::Never,
            (true, _, Renderers::GlAgainstFile(_)) => UpdatePolicy::ReplaceDiffering,
            (true, false, _) => UpdatePolicy::Missing,
            (true, true, _) => UpdatePolicy::ReplaceFailing,
        },
        images_dir,
        outputs,
        profile: args.profile.profile(),
        max_memory: args.memory.limit(),
        renderers,
    };
    // Hidden by indicatif when stderr is not a terminal (a CI log gets the lines only).
    let bar = ProgressBar::new(mine.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40.cyan/blue} {pos}/{len} scenes, {elapsed} {msg}")
            .expect("a valid template"),
    );
    let verbose = args.verbose;
    let on_done = |r: &SceneResult| {
        if verbose || r.status != Status::Passed || r.reference_written.is_some() {
            bar.suspend(|| outln!("{}", scene_line(r)));
        }
        bar.set_message(
            std::path::Path::new(&r.scene)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        bar.inc(1);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, |j| j as usize))
        .build()
        .map_err(|e| CheckError::Write(format!("cannot start the render threads: {e}")))?;
    let results = pool.install(|| check_scenes(&mine, &options, &on_done));
    bar.finish_and_clear();
    if let Some(r) = results.iter().find(|r| r.overwrites_input) {
        return Err(CheckError::Write(r.message.clone().unwrap_or_default()));
    }
    let (drawn_by, compared_with) = labels;
    Ok(CheckResults::new(args.shard, found, results).drawn(drawn_by, compared_with))
}

/// Who draws each side, from `--backend`, `--against` and `--gl-device`; with a GL
/// driver involved, the driver is opened once first (so that a missing driver is one
/// error, not one per scene) and named on stderr.
fn renderers(args: &CheckArgs) -> Result<(Renderers, (String, String)), CheckError> {
    use CheckBackend as Backend;
    let usage = |m: &str| Err(CheckError::Usage(m.into()));
    let gl = args.gl.options(0);
    let renderers = match (args.backend, args.against) {
        (Backend::Cpu, None) if args.gl.gl_device.is_some() => {
            return usage("--gl-device applies with --backend gl or --against gl");
        }
        (Backend::Cpu, None) => {
            let labels = (
                DRAWN_BY_CSIR_RENDER.to_string(),
                COMPARED_WITH_FILES.to_string(),
            );
            return Ok((Renderers::CpuAgainstFile, labels));
        }
        (Backend::Gl, Some(Against::Gl)) => {
            return usage("--backend gl --against gl would compare the driver with itself");
        }
        (Backend::Gl, None) => Renderers::GlAgainstFile(gl.clone()),
        (Backend::Cpu, Some(Against::Gl)) => Renderers::CpuAgainstGl(gl.clone()),
    };
    if let Some(refusal) = args.profile.gl_refusal() {
        return usage(refusal);
    }
    let driver = csir_render::gl::driver_info(&gl).map_err(|e| CheckError::Usage(e.to_string()))?;
    errln!("GL driver: {}", driver.renderer);
    let gl_label = format!("GL driver {}", driver.renderer);
    let labels = match renderers {
        Renderers::CpuAgainstGl(_) => (DRAWN_BY_CSIR_RENDER.to_string(), gl_label),
        _ => (gl_label, COMPARED_WITH_FILES.to_string()),
    };
    let llvmpipe_suffix = args
        .reference_suffix
        .to_ascii_lowercase()
        .contains("llvmpipe");
    if args.update && llvmpipe_suffix && !driver.is_llvmpipe() {
        return usage(&format!(
            "--update would write {} references from {}, not llvmpipe: run with \
             GALLIUM_DRIVER=llvmpipe LIBGL_ALWAYS_SOFTWARE=1, or give another \
             --reference-suffix",
            args.reference_suffix, driver.renderer
        ));
    }
    Ok((renderers, labels))
}

/// Read the shares' results and merge them.
fn merge(args: &CheckArgs) -> Result<CheckResults, CheckError> {
    // A share given as a report folder is read from its results file.
    let shares: Vec<PathBuf> = args.inputs.iter().map(|i| i.join(RESULTS_FILE)).collect();
    let mut inputs: Vec<(&Path, &str)> = args
        .inputs
        .iter()
        .map(|i| (i.as_path(), "a share's results"))
        .collect();
    inputs.extend(shares.iter().map(|i| (i.as_path(), "a share's results")));
    refuse_overwrites(&outputs(args), &inputs)?;
    let mut parts = Vec::new();
    for input in &args.inputs {
        parts.push((input.clone(), CheckResults::read_json(input)?));
    }
    let merged = CheckResults::merge(parts)?;
    for r in merged
        .results
        .iter()
        .filter(|r| args.verbose || r.status != Status::Passed)
    {
        outln!("{}", scene_line(r));
    }
    Ok(merged)
}

/// `FAIL scene: why` (and the trace command), `ERROR scene: message`, `ok scene: metrics`.
fn scene_line(r: &SceneResult) -> String {
    let tag = match r.status {
        Status::Passed => "ok   ",
        Status::Failed => "FAIL ",
        Status::Error => "ERROR",
    };
    let mut line = format!("{tag} {}", r.scene);
    let detail = match r.status {
        Status::Passed => r.message.clone().or_else(|| r.metrics_text()),
        _ => r.message.clone(),
    };
    if let Some(detail) = detail {
        line.push_str(": ");
        line.push_str(&detail);
    }
    if r.status == Status::Failed
        && let Some(trace) = &r.trace
    {
        line.push_str("\n      worst pixel: ");
        line.push_str(trace);
    }
    line
}

/// Write the report folder, the JUnit XML and the JSON the arguments ask for, and say
/// where.
fn write_outputs(args: &CheckArgs, results: &CheckResults) -> Result<(), CheckError> {
    if let Some(dir) = &args.report {
        let page = write_report(results, dir)?;
        outln!("report: {}", page.display());
    }
    if let Some(path) = &args.junit {
        write_junit(results, path)?;
        outln!("junit: {}", path.display());
    }
    if let Some(path) = &args.json {
        results.write_json(path)?;
        outln!("json: {}", path.display());
    }
    Ok(())
}
