//! The GL 3.3 selection of piglit's whole shader_test corpus (docs/conformance.md, "The
//! GL 3.3 selection of the whole corpus"): every `.shader_test` file of the package's
//! `tests/spec` and `generated_tests/spec` whose `[require]` asks for no more than
//! OpenGL 3.3 / GLSL 3.30 and the extensions GL 3.3 made core
//! (`csir_render::shader_test::gl33_selection`), run with `shader-test` and held to a
//! committed baseline:
//!
//! * in every group (spec folder) of the selection, at least as many tests pass as
//!   `tests/piglit/gl33-baseline.json` records;
//! * every test that *fails* (a wrong pixel, or a program that links where the test
//!   expects a link error) is listed in `tests/piglit/gl33-allowed-failures.txt`.
//!
//! `scripts/update-piglit-baseline.sh` rewrites both files and the table of
//! docs/conformance.md (between its `piglit-gl33-measured` markers). Without the whole
//! corpus (`scripts/fetch-piglit.sh`; a cache from before it fetched every spec folder
//! has no `LAYOUT` file) the test skips with a note, unless `CSIR_REQUIRE_TEST_DEPS=1`.

mod common;

use common::piglit::{
    compare_passes, conformance_doc_path, corpus_or_skip, gl33_selection_files, has_whole_corpus,
    manifest, read_baseline, read_list, reasons_table, today, unlisted_failures, version,
    write_baseline, write_doc_block, write_list, writing_baseline,
};
use csir_render::shader_test::{RunOptions, Summary, TestReport, reasons, run_file};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn baseline_path() -> PathBuf {
    manifest().join("tests/piglit/gl33-baseline.json")
}

fn allow_list_path() -> PathBuf {
    manifest().join("tests/piglit/gl33-allowed-failures.txt")
}

fn summary_json(s: &Summary) -> Value {
    json!({"passed": s.passed, "failed": s.failed, "skipped": s.skipped, "errors": s.errors})
}

/// The markdown table of a run: per group its counts and the most common reason its
/// tests do not pass, then the total.
fn table(groups: &BTreeMap<&str, Vec<&TestReport>>, total: &Summary) -> String {
    let mut out = String::from(
        "| group | tests | passed | failed | skipped | errors | most common reason (tests) |\n\
         |---|---:|---:|---:|---:|---:|---|\n",
    );
    for (group, reports) in groups {
        let s = Summary::of(reports.iter().copied());
        let top = reasons(reports.iter().copied())
            .first()
            .map_or(String::new(), |r| {
                format!(
                    "{} {} ({})",
                    r.status,
                    r.reason.replace('|', "\\|").replace('\n', " "),
                    r.count
                )
            });
        out += &format!(
            "| {group} | {} | {} | {} | {} | {} | {top} |\n",
            s.total(),
            s.passed,
            s.failed,
            s.skipped,
            s.errors
        );
    }
    out += &format!(
        "| **all** | {} | {} | {} | {} | {} | |\n",
        total.total(),
        total.passed,
        total.failed,
        total.skipped,
        total.errors
    );
    out
}

#[test]
fn piglit_gl33_selection_meets_the_baseline() {
    let Some(root) = corpus_or_skip("the piglit GL 3.3 selection test") else {
        return;
    };
    if !has_whole_corpus(&root) {
        let how = "the cached corpus has only the GLSL folders: delete it and run \
                   scripts/fetch-piglit.sh";
        if std::env::var("CSIR_REQUIRE_TEST_DEPS").as_deref() == Ok("1") {
            panic!("{how}");
        }
        eprintln!("skipping the piglit GL 3.3 selection test: {how}");
        return;
    }
    let version = version(&root);
    let start = std::time::Instant::now();
    let (files, found) = gl33_selection_files(&root);
    let options = RunOptions::default();
    let reports: Vec<(&str, String, TestReport)> = files
        .par_iter()
        .map(|(group, file)| {
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(file)
                .display()
                .to_string();
            (group.as_str(), relative, run_file(file, &options))
        })
        .collect();
    let elapsed = start.elapsed();

    let mut groups: BTreeMap<&str, Vec<&TestReport>> = BTreeMap::new();
    for (group, _, report) in &reports {
        groups.entry(group).or_default().push(report);
    }
    let total = Summary::of(reports.iter().map(|(_, _, r)| r));
    let percent = 100.0 * total.passed as f64 / total.total().max(1) as f64;
    let failing: BTreeSet<&str> = reports
        .iter()
        .filter(|(_, _, r)| r.status() == "fail")
        .map(|(_, file, _)| file.as_str())
        .collect();
    let all_reasons = reasons(reports.iter().map(|(_, _, r)| r));
    eprintln!(
        "piglit {version}: {} of {found} shader_test files in the GL 3.3 selection, run in \
         {:.1} s: {total} ({percent:.1} % pass)\n\n{}",
        reports.len(),
        elapsed.as_secs_f64(),
        table(&groups, &total)
    );
    for r in all_reasons.iter().take(40) {
        eprintln!("{:>6}  {:<5}  {}", r.count, r.status, r.reason);
    }

    if writing_baseline() {
        let dirs: serde_json::Map<String, Value> = groups
            .iter()
            .map(|(g, r)| (g.to_string(), summary_json(&Summary::of(r.iter().copied()))))
            .collect();
        write_baseline(
            &baseline_path(),
            &version,
            summary_json(&total),
            Value::Object(dirs),
        );
        write_list(
            &allow_list_path(),
            "# Tests of the GL 3.3 selection of piglit's whole shader_test corpus that fail\n\
             # (a wrong pixel, or a link that the test expects to fail), one per line,\n\
             # relative to the corpus root. Written by scripts/update-piglit-baseline.sh;\n\
             # docs/conformance.md explains them, and the list should only ever shrink.\n",
            failing.iter().copied(),
        );
        write_doc_block(
            "piglit-gl33-measured",
            &format!(
                "Measured {} with piglit `{version}` (Debian's package): {} of the {found} \
                 `.shader_test` files are in the selection, and {} of them pass \
                 ({percent:.1} %).\n\n{}\n\
                 Why the tests that do not pass do not, with counts:\n\n{}",
                today(),
                total.total(),
                total.passed,
                table(&groups, &total),
                reasons_table(&all_reasons, 2)
            ),
        );
        eprintln!(
            "wrote {}, {} and the GL 3.3 table of {}",
            baseline_path().display(),
            allow_list_path().display(),
            conformance_doc_path().display()
        );
        return;
    }

    let baseline = read_baseline(&baseline_path(), &version);
    let allowed = read_list(&allow_list_path());
    let names: Vec<String> = baseline["directories"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (mut problems, improved) = compare_passes(&baseline, &names, |group| {
        groups
            .get(group)
            .map_or(0, |r| r.iter().filter(|r| r.status() == "pass").count())
    });
    problems.extend(unlisted_failures(
        &reports,
        &failing,
        &allowed,
        improved,
        "a failure not in the allow-list",
    ));
    assert!(
        problems.is_empty(),
        "{}\n\nA test of the GL 3.3 selection that passed no longer does, or fails where \
         it did not: fix it, or record an intended difference in docs/conformance.md and \
         the allow-list with scripts/update-piglit-baseline.sh.",
        problems.join("\n")
    );
}
