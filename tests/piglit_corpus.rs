//! piglit's GLSL execution tests (Debian's `piglit` package, fetched by
//! `scripts/fetch-piglit.sh` into `$CSIR_CACHE/piglit`, default `target/test-deps`),
//! run with `shader-test` and held to a committed baseline (docs/conformance.md):
//!
//! * in every directory of the selection, at least as many tests pass as
//!   `tests/piglit/baseline.json` records;
//! * every test that *fails* (a wrong pixel, not an error or a skip) is listed in
//!   `tests/piglit/allowed-failures.txt`.
//!
//! After a front-end improvement, raise the baseline (and shrink the allow-list) with
//! `scripts/update-piglit-baseline.sh` (which runs this test with
//! `CSIR_PIGLIT_WRITE_BASELINE=1`): it rewrites both files and the measured table of
//! docs/conformance.md (between its `piglit-measured` markers); review the diff.
//! `-- --nocapture` prints the table of the run.
//!
//! Without the corpus the test skips with a note, unless `CSIR_REQUIRE_TEST_DEPS=1`
//! (set by `scripts/test.sh`), which makes a missing corpus a failure.

mod common;

use common::piglit::{
    SELECTION, Scope, compare_passes, conformance_doc_path, corpus_or_skip, manifest,
    read_baseline, read_list, reasons_table, scope, selection_files, today, unlisted_failures,
    version, write_baseline, write_doc_block, write_list, writing_baseline,
};
use csir_render::shader_test::{RunOptions, Summary, TestReport, reasons, run_file};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn baseline_path() -> PathBuf {
    manifest().join("tests/piglit/baseline.json")
}

fn allow_list_path() -> PathBuf {
    manifest().join("tests/piglit/allowed-failures.txt")
}

fn summary_json(s: &Summary) -> Value {
    json!({"passed": s.passed, "failed": s.failed, "skipped": s.skipped, "errors": s.errors})
}

/// The pass rates in the terms of docs/conformance.md's targets: over the tests that need only
/// a vertex and a fragment shader and no extension, and over those of them that use no
/// `uint`, bit operation, `log`, `log2` or `exp` ([`Scope`]).
fn issue_terms(runs: &[(&str, String, TestReport, Scope)]) -> String {
    let rate = |keep: &dyn Fn(&Scope) -> bool| {
        let kept: Vec<&TestReport> = runs
            .iter()
            .filter(|(_, _, _, s)| keep(s))
            .map(|(_, _, r, _)| r)
            .collect();
        let passed = kept.iter().filter(|r| r.status() == "pass").count();
        let percent = 100.0 * passed as f64 / kept.len().max(1) as f64;
        (passed, kept.len(), percent)
    };
    let (p, n, pc) = rate(&|s| s.vertex_fragment);
    let (ip, i_n, ipc) = rate(&|s| s.vertex_fragment && s.integer_free);
    format!(
        "Of the {n} tests that need only a vertex and a fragment shader and no extension, \
         {p} pass ({pc:.1} %); of the {i_n} of those whose shaders use no `uint`, bit \
         operation, `log`, `log2` or `exp`, {ip} pass ({ipc:.1} %)."
    )
}

/// The markdown table of a run: per directory, then the total.
fn table(per_dir: &BTreeMap<&str, Summary>, total: &Summary) -> String {
    let mut out = String::from(
        "| directory | tests | passed | failed | skipped | errors |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for dir in SELECTION {
        if let Some(s) = per_dir.get(dir) {
            out += &format!(
                "| {dir} | {} | {} | {} | {} | {} |\n",
                s.total(),
                s.passed,
                s.failed,
                s.skipped,
                s.errors
            );
        }
    }
    out += &format!(
        "| **all** | {} | {} | {} | {} | {} |\n",
        total.total(),
        total.passed,
        total.failed,
        total.skipped,
        total.errors
    );
    out
}

#[test]
fn piglit_glsl_execution_corpus_meets_the_baseline() {
    let Some(root) = corpus_or_skip("the piglit corpus test") else {
        return;
    };
    let version = version(&root);
    let files = selection_files(&root);
    let options = RunOptions::default();
    let start = std::time::Instant::now();
    let runs: Vec<(&str, String, TestReport, Scope)> = files
        .par_iter()
        .map(|(dir, file)| {
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(file)
                .display()
                .to_string();
            let text = std::fs::read_to_string(file).unwrap_or_default();
            (*dir, relative, run_file(file, &options), scope(&text))
        })
        .collect();
    let issue_terms = issue_terms(&runs);
    let reports: Vec<(&str, String, TestReport)> =
        runs.into_iter().map(|(d, f, r, _)| (d, f, r)).collect();
    let elapsed = start.elapsed();

    let mut per_dir: BTreeMap<&str, Summary> = BTreeMap::new();
    for (dir, _, report) in &reports {
        per_dir.entry(dir).or_default().add(report);
    }
    let total = Summary::of(reports.iter().map(|(_, _, r)| r));
    let failing: BTreeSet<&str> = reports
        .iter()
        .filter(|(_, _, r)| r.status() == "fail")
        .map(|(_, file, _)| file.as_str())
        .collect();
    eprintln!(
        "piglit {version}: {} tests in {:.1} s: {total}\n\n{}",
        reports.len(),
        elapsed.as_secs_f64(),
        table(&per_dir, &total)
    );
    eprintln!("{issue_terms}");
    let groups = reasons(reports.iter().map(|(_, _, r)| r));
    for r in groups.iter().take(40) {
        eprintln!("{:>6}  {:<5}  {}", r.count, r.status, r.reason);
    }

    if writing_baseline() {
        let dirs: serde_json::Map<String, Value> = per_dir
            .iter()
            .map(|(d, s)| (d.to_string(), summary_json(s)))
            .collect();
        write_baseline(
            &baseline_path(),
            &version,
            summary_json(&total),
            Value::Object(dirs),
        );
        write_list(
            &allow_list_path(),
            "# Tests of the piglit selection that fail (a wrong pixel) and are allowed to,\n\
             # one per line, relative to the corpus root. Written by\n\
             # scripts/update-piglit-baseline.sh; every entry should\n\
             # be explained in docs/conformance.md, and the list only ever shrink.\n",
            failing.iter().copied(),
        );
        write_doc_block(
            "piglit-measured",
            &format!(
                "Measured {} with piglit `{version}` (Debian's package), {} tests:\n\n{}\n\
             {issue_terms}\n\n\
             Why the tests that do not pass do not (a compiler error's first message, a \
             skip's reason, `wrong pixel` for a failure), with counts:\n\n{}",
                today(),
                total.total(),
                table(&per_dir, &total),
                reasons_table(&groups, 2)
            ),
        );
        eprintln!(
            "wrote {}, {} and the measured table of {}",
            baseline_path().display(),
            allow_list_path().display(),
            conformance_doc_path().display()
        );
        return;
    }

    let baseline = read_baseline(&baseline_path(), &version);
    let allowed = read_list(&allow_list_path());
    let (mut problems, improved) = compare_passes(&baseline, &SELECTION, |dir| {
        per_dir.get(dir).map_or(0, |s| s.passed)
    });
    problems.extend(unlisted_failures(
        &reports,
        &failing,
        &allowed,
        improved,
        "a wrong pixel not in the allow-list",
    ));
    assert!(
        problems.is_empty(),
        "{}\n\nA test that passed no longer does, or renders a wrong pixel: fix it. A wrong \
         pixel that is a known bug or an intended difference goes in docs/conformance.md \
         (\"Known wrong pixels\" or \"Intended failures\") and into the allow-list with \
         scripts/update-piglit-baseline.sh.",
        problems.join("\n")
    );
}

/// The issue-14 classification of a test's text (tests/common/piglit.rs `scope`).
#[test]
fn scope_reads_stages_extensions_and_integer_features() {
    let plain = "[require]\nGLSL >= 1.10\nGL_MAX_VARYING_COMPONENTS >= 64\n\
                 [vertex shader]\nvoid main() { gl_Position = gl_Vertex; } // a & b\n\
                 [fragment shader]\nvoid main() { bool b = true && false || true ^^ b; \
                 gl_FragColor = vec4(exp2(1.0)); }\n[test]\ndraw rect -1 -1 2 2\n";
    assert_eq!(
        scope(plain),
        Scope {
            vertex_fragment: true,
            integer_free: true
        }
    );
    let ext = plain.replace("GLSL >= 1.10", "GLSL >= 1.10\nGL_ARB_gpu_shader5");
    assert!(!scope(&ext).vertex_fragment);
    let geom = plain.replace(
        "[fragment shader]",
        "[geometry shader]\nvoid main(){}\n[fragment shader]",
    );
    assert!(!scope(&geom).vertex_fragment);
    for integer in [
        "a & b", "a | b", "~a", "a ^ b", "a << 1", "a >>= 2", "uint x", "log2(x)", "exp(x)",
    ] {
        let text = plain.replace("exp2(1.0)", integer);
        assert!(!scope(&text).integer_free, "{integer}");
    }
    let commented = plain.replace("exp2(1.0)", "1.0 /* uint */");
    assert!(scope(&commented).integer_free);
}
