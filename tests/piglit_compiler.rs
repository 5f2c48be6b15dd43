//! piglit's compiler tests (`.vert`/`.frag`/`.geom` files with a `[config]` block saying
//! whether GLSL accepts the shader; fetched with the rest of the corpus by
//! `scripts/fetch-piglit.sh`), run in the library as `shader-test` runs them and held
//! to a committed baseline (docs/conformance.md, "Compiler tests"):
//!
//! * in every directory of [`COMPILER_SELECTION`], at least as many tests pass as
//!   `tests/piglit/compiler-baseline.json` records;
//! * every test that does not pass (a must-fail shader that compiles, a must-pass
//!   shader that is rejected) is listed in `tests/piglit/compiler-failures.txt`: a test
//!   missing from it is a new failure, named with its message.
//!
//! After a validation rule is added, raise the baseline (and shrink the list) with
//! `scripts/update-piglit-baseline.sh` (which runs this test with
//! `CSIR_PIGLIT_WRITE_BASELINE=1`): it rewrites both files and the measured table of
//! docs/conformance.md (between its `piglit-compiler-measured` markers).
//!
//! Without the corpus the test skips with a note, unless `CSIR_REQUIRE_TEST_DEPS=1`
//! (set by `scripts/test.sh`).

mod common;

use common::piglit::{
    COMPILER_SELECTION, compare_passes, compiler_selection_files, conformance_doc_path,
    corpus_or_skip, manifest, read_baseline, read_list, reasons_table, today, version,
    write_baseline, write_doc_block, write_list, writing_baseline,
};
use csir_render::shader_test::compiler_test::{Expect, parse_config};
use csir_render::shader_test::{RunOptions, Summary, TestReport, reasons, run_file};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn baseline_path() -> PathBuf {
    manifest().join("tests/piglit/compiler-baseline.json")
}

fn failures_path() -> PathBuf {
    manifest().join("tests/piglit/compiler-failures.txt")
}

/// One test's run: its directory, its path relative to the corpus root, what it
/// expects (`None` when its `[config]` does not parse) and its report.
struct Run {
    dir: &'static str,
    file: String,
    expect: Option<Expect>,
    report: TestReport,
}

/// A directory's counts: the outcomes, and by expectation how many came out right
/// (skipped tests are in neither).
#[derive(Default)]
struct Counts {
    summary: Summary,
    must_fail_rejected: usize,
    must_fail: usize,
    must_pass_accepted: usize,
    must_pass: usize,
}

impl Counts {
    fn add(&mut self, run: &Run) {
        self.summary.add(&run.report);
        let status = run.report.status();
        match run.expect {
            _ if status == "skip" => {}
            Some(Expect::Fail) => {
                self.must_fail += 1;
                self.must_fail_rejected += usize::from(status == "pass");
            }
            Some(Expect::Pass) => {
                self.must_pass += 1;
                self.must_pass_accepted += usize::from(status == "pass");
            }
            None => {}
        }
    }

    fn json(&self) -> Value {
        let s = &self.summary;
        json!({
            "passed": s.passed, "failed": s.failed, "skipped": s.skipped, "errors": s.errors,
            "must_fail": {"rejected": self.must_fail_rejected, "run": self.must_fail},
            "must_pass": {"accepted": self.must_pass_accepted, "run": self.must_pass},
        })
    }

    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {}/{} | {}/{} | {} | {} |\n",
            self.summary.total(),
            self.must_fail_rejected,
            self.must_fail,
            self.must_pass_accepted,
            self.must_pass,
            self.summary.skipped,
            self.summary.errors
        )
    }
}

/// The markdown table: per directory, then the total.
fn table(per_dir: &BTreeMap<&str, Counts>, total: &Counts) -> String {
    let mut out = String::from(
        "| directory | tests | must-fail rejected | must-pass accepted | skipped | errors |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for dir in COMPILER_SELECTION {
        if let Some(c) = per_dir.get(dir) {
            out += &c.row(dir);
        }
    }
    out + &total.row("**all**")
}

#[test]
fn piglit_compiler_tests_meet_the_baseline() {
    let Some(root) = corpus_or_skip("the piglit compiler test") else {
        return;
    };
    let version = version(&root);
    let files = compiler_selection_files(&root);
    let options = RunOptions::default();
    let start = std::time::Instant::now();
    let runs: Vec<Run> = files
        .par_iter()
        .map(|(dir, path)| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            Run {
                dir,
                file: path
                    .strip_prefix(&root)
                    .unwrap_or(path)
                    .display()
                    .to_string(),
                expect: parse_config(&text).ok().map(|c| c.expect.0),
                report: run_file(path, &options),
            }
        })
        .collect();
    let elapsed = start.elapsed();

    let mut per_dir: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut total = Counts::default();
    for run in &runs {
        per_dir.entry(run.dir).or_default().add(run);
        total.add(run);
    }
    let failing: BTreeSet<&str> = runs
        .iter()
        .filter(|r| matches!(r.report.status(), "fail" | "error"))
        .map(|r| r.file.as_str())
        .collect();
    let table = table(&per_dir, &total);
    eprintln!(
        "piglit {version}: {} compiler tests in {:.1} s: {}\n\n{table}",
        runs.len(),
        elapsed.as_secs_f64(),
        total.summary
    );
    let groups = reasons(runs.iter().map(|r| &r.report));
    for g in groups.iter().take(40) {
        eprintln!("{:>6}  {:<5}  {}", g.count, g.status, g.reason);
    }

    if writing_baseline() {
        let dirs: serde_json::Map<String, Value> = per_dir
            .iter()
            .map(|(d, c)| (d.to_string(), c.json()))
            .collect();
        write_baseline(
            &baseline_path(),
            &version,
            total.json(),
            Value::Object(dirs),
        );
        write_list(
            &failures_path(),
            "# piglit compiler tests that do not pass today: a must-fail shader csir-render\n\
             # compiles, or a must-pass shader it rejects; one per line, relative to the\n\
             # corpus root. Written by scripts/update-piglit-baseline.sh; the list should only\n\
             # ever shrink (docs/conformance.md, \"Compiler tests\").\n",
            failing.iter().copied(),
        );
        write_doc_block(
            "piglit-compiler-measured",
            &format!(
                "Measured {} with piglit `{version}` (Debian's package), {} compiler \
                 tests (a skipped test counts in neither column):\n\n{table}\n\
                 Why the tests that do not pass do not (`compiled, but GLSL requires an \
                 error` for a must-fail shader, the compiler's first message for a \
                 must-pass shader rejected) and why tests skip, with counts:\n\n{}",
                today(),
                runs.len(),
                reasons_table(&groups, 1)
            ),
        );
        eprintln!(
            "wrote {}, {} and the compiler table of {}",
            baseline_path().display(),
            failures_path().display(),
            conformance_doc_path().display()
        );
        return;
    }

    let baseline = read_baseline(&baseline_path(), &version);
    let known = read_list(&failures_path());
    let (mut problems, improved) = compare_passes(&baseline, &COMPILER_SELECTION, |dir| {
        per_dir.get(dir).map_or(0, |c| c.summary.passed)
    });
    let new: Vec<&Run> = runs
        .iter()
        .filter(|r| failing.contains(r.file.as_str()) && !known.contains(&r.file))
        .collect();
    if !new.is_empty() {
        let mut text = format!("{} newly failing compiler tests:", new.len());
        for r in new {
            text += &format!("\n{}", r.report);
        }
        problems.push(text);
    }
    if improved || failing.len() < known.len() {
        eprintln!(
            "note: more compiler tests pass than the baseline records: raise it with \
             scripts/update-piglit-baseline.sh"
        );
    }
    assert!(
        problems.is_empty(),
        "{}\n\nA compiler test that passed no longer does: the compiler now accepts a shader \
         GLSL rejects, or rejects one GLSL accepts. Fix it; a deliberate difference goes in \
         docs/conformance.md and into tests/piglit/compiler-failures.txt with \
         scripts/update-piglit-baseline.sh.",
        problems.join("\n")
    );
}
