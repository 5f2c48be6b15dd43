//! `csir-render shader-test FILE|DIR... [--json] [--trace-failures] [--reasons]`: piglit's
//! `.shader_test` files and compiler tests (`.vert`/`.frag`/`.geom` with a `[config]` block).

use super::fail;
use clap::Args;
use csir_render::pipeline::with_threads;
use csir_render::shader_test::{
    RunOptions, Summary, TestReport, find_tests, gl33_selection, reasons, run_file,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `shader-test`.
#[derive(Args, Debug)]
pub struct ShaderTestArgs {
    /// `.shader_test` files and piglit compiler tests (`.vert`, `.frag`, `.geom` files
    /// with a `[config]` block), or folders searched recursively for them.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    /// Print one JSON document (every test, the summary and the reasons) instead of
    /// text.
    #[arg(long)]
    pub json: bool,
    /// For each failed test, print the pixel trace of its first wrong pixel (the
    /// `trace` command's report: the triangles, varyings and instructions that made it).
    #[arg(long)]
    pub trace_failures: bool,
    /// Before the summary, list the reasons tests failed, were skipped or errored,
    /// with counts.
    #[arg(long)]
    pub reasons: bool,
    /// Worker threads, 1 to 256 as for `render` (tests run in parallel; the results do
    /// not depend on it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Run only the tests whose `[require]` asks for no more than OpenGL 3.3 / GLSL
    /// 3.30 and the extensions GL 3.3 made core (docs/conformance.md, "The GL 3.3
    /// selection of the whole corpus"); the others, and compiler tests, are counted on
    /// the closing line.
    #[arg(long)]
    pub gl33: bool,
    #[command(flatten)]
    pub profile: super::ProfileArgs,
}

/// The `--json` document.
#[derive(Serialize)]
struct JsonReport<'a> {
    tests: &'a [TestReport],
    summary: Summary,
    reasons: Vec<csir_render::shader_test::ReasonCount>,
}

/// Tests run in parallel per batch; a batch's results are printed in file order.
const BATCH: usize = 64;

/// Whether the test at `path` is in the GL 3.3 selection: a `.shader_test` file
/// (not a compiler test) whose `[require]` asks for no more than GL 3.3; an unreadable
/// one is (running it reports why).
fn in_gl33_selection(path: &std::path::Path) -> bool {
    if path.extension().is_none_or(|e| e != "shader_test") {
        return false;
    }
    csir_render::file_read::read_text_bounded(path, csir_render::shader_test::MAX_SHADER_TEST_BYTES)
        .map_or(true, |text| gl33_selection::within_gl33(&text))
}

/// Run `shader-test`: exit 0 when every test passed or was skipped, 1 when some test
/// failed or could not run (error), 2 for bad usage (no such file, no tests found).
pub fn run(args: &ShaderTestArgs) -> ExitCode {
    let mut files = match find_tests(&args.paths) {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let found = files.len();
    if args.gl33 {
        files.retain(|f| in_gl33_selection(f));
    }
    let left_out = found - files.len();
    if found == 0 {
        errln!("error: no .shader_test files or piglit compiler tests found in the paths given");
        return ExitCode::from(2);
    }
    let options = RunOptions {
        trace_failures: args.trace_failures,
        limits: args.profile.limits(),
    };
    let json = args.json;
    // On stderr, and hidden by indicatif when stderr is not a terminal (a log gets the
    // result lines only); the lines go to stdout above it.
    let bar = ProgressBar::new(files.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40.cyan/blue} {pos}/{len} tests, {elapsed} {msg}")
            .expect("a valid template"),
    );
    let result = with_threads(args.threads.map(|t| t as usize), || {
        let mut reports = Vec::with_capacity(files.len());
        let mut so_far = Summary::default();
        for batch in files.chunks(BATCH) {
            let done: Vec<TestReport> = batch
                .par_iter()
                .map(|f| {
                    let report = run_file(f, &options);
                    bar.inc(1);
                    report
                })
                .collect();
            if !json {
                bar.suspend(|| {
                    for r in &done {
                        out!("{r}");
                    }
                    super::out::flush_stdout();
                });
            }
            for r in &done {
                so_far.add(r);
            }
            bar.set_message(so_far.to_string());
            reports.extend(done);
        }
        reports
    });
    bar.finish_and_clear();
    let reports = match result {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let summary = Summary::of(&reports);
    if json {
        let doc = JsonReport {
            tests: &reports,
            summary,
            reasons: reasons(&reports),
        };
        match serde_json::to_string_pretty(&doc) {
            Ok(text) => outln!("{text}"),
            Err(e) => return fail(e),
        }
    } else {
        if args.reasons {
            outln!();
            for r in reasons(&reports) {
                outln!("{:>6}  {:<5}  {}", r.count, r.status, r.reason);
            }
            outln!();
        }
        outln!("{summary}");
        if args.gl33 {
            outln!(
                "{left_out} of {found} tests are compiler tests or ask for more than GL 3.3 and were not run"
            );
        }
    }
    if summary.failed > 0 || summary.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
