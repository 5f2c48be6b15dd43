//! `csir-render shader-test` through the built binary, on the fixtures in
//! `tests/shader_test/`: one test of each outcome, the exact pixel, expected value and
//! line numbers reported, JSON, traces, exit codes and usage errors.

mod cli_support;

use cli_support::{stderr, stdout, temp_dir};
use std::process::{Command, Output};

/// Run `csir-render shader-test ARGS...` in the checkout (so fixture paths are
/// `tests/shader_test/...` as given).
fn shader_test(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csir-render"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("shader-test")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn fixture(name: &str) -> String {
    format!("tests/shader_test/{name}.shader_test")
}

#[test]
fn passing_and_skipped_tests_exit_0() {
    let out = shader_test(&[
        &fixture("pass"),
        &fixture("texture"),
        &fixture("vertex-data"),
        &fixture("skip-extension"),
    ]);
    assert_eq!(
        stdout(&out),
        "PASS  tests/shader_test/pass.shader_test\n\
         PASS  tests/shader_test/texture.shader_test\n\
         PASS  tests/shader_test/vertex-data.shader_test\n\
         SKIP  tests/shader_test/skip-extension.shader_test:3: needs extension GL_ARB_gpu_shader5\n\
         3 passed, 0 failed, 1 skipped, 0 errors\n"
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_failing_probe_reports_the_pixel_expected_and_got() {
    let out = shader_test(&[&fixture("fail"), &fixture("fail-rect")]);
    assert_eq!(
        stdout(&out),
        "FAIL  tests/shader_test/fail.shader_test:18: probe rgba 3 7 1.0 0.0 0.0 1.0\n      \
         window pixel (3, 7): expected (1, 0, 0, 1), got (0, 1, 0, 1) = rgba8 (0, 255, 0, 255); \
         tolerance (0.01, 0.01, 0.01, 0.01) per channel\n\
         FAIL  tests/shader_test/fail-rect.shader_test:23: probe rect rgb (4, 4, 3, 3) (0.5, 0.25, 1.0)\n      \
         window pixel (6, 4): expected (0.5, 0.25, 1), got (0.2, 0.2, 0.2) = rgba8 (51, 51, 51, 255); \
         compared as bytes: expected (127, 63, 255), tolerance < (3, 3, 3)\n\
         0 passed, 2 failed, 0 skipped, 0 errors\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn skips_name_what_is_missing() {
    let out = shader_test(&[&fixture("skip-command"), &fixture("skip-tessellation")]);
    assert_eq!(
        stdout(&out),
        "SKIP  tests/shader_test/skip-command.shader_test:12: command 'enable GL_DEPTH_TEST' is not supported\n\
         SKIP  tests/shader_test/skip-tessellation.shader_test:6: needs a tessellation shader ([tessellation control shader] section)\n\
         0 passed, 0 failed, 2 skipped, 0 errors\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn errors_point_at_the_shader_test_file() {
    let out = shader_test(&[
        &fixture("error-compile"),
        &fixture("error-link"),
        &fixture("error-malformed"),
        &fixture("error-uniform"),
    ]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // the undeclared identifier is on line 14 of the file, column 12 (after a tab)
    assert!(
        lines[0].starts_with("ERROR tests/shader_test/error-compile.shader_test:14:12: error: "),
        "{text}"
    );
    assert_eq!(lines[1], "      \tcolor.g = brightness;");
    assert_eq!(lines[2], "      \t          ^");
    assert_eq!(
        &lines[3..],
        [
            "ERROR tests/shader_test/error-link.shader_test: the program does not link: missing \
             varying 'normal': the vertex shader has no output of that name",
            "ERROR tests/shader_test/error-malformed.shader_test:13: probe rgba: expected a \
             number, found 'one'",
            "ERROR tests/shader_test/error-uniform.shader_test:14: uniform vec4 tint: 'tint' is \
             vec3 and takes 3 floats, got 4",
            "0 passed, 0 failed, 0 skipped, 4 errors",
        ]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_holds_every_test_the_summary_and_the_reasons() {
    let out = shader_test(&["tests/shader_test", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let tests = doc["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 13);
    let find = |name: &str| {
        tests
            .iter()
            .find(|t| t["file"] == fixture(name))
            .unwrap_or_else(|| panic!("{name} in {doc}"))
    };
    let fail = find("fail");
    assert_eq!(fail["status"], "fail");
    assert_eq!(fail["line"], 18);
    assert_eq!(fail["probe"]["pixel"], serde_json::json!([3, 7]));
    assert_eq!(
        fail["probe"]["expected"],
        serde_json::json!([1.0, 0.0, 0.0, 1.0])
    );
    assert_eq!(fail["probe"]["got"], serde_json::json!([0, 255, 0, 255]));
    let error = find("error-compile");
    assert_eq!(
        (error["status"].as_str(), error["line"].as_u64()),
        (Some("error"), Some(14))
    );
    assert_eq!(find("two-sided")["status"], "pass");
    let skip = find("skip-extension");
    assert_eq!(skip["reason"], "needs extension GL_ARB_gpu_shader5");
    assert_eq!(
        doc["summary"],
        serde_json::json!({"passed": 4, "failed": 2, "skipped": 3, "errors": 4})
    );
    assert_eq!(doc["reasons"][0]["reason"], "wrong pixel");
    assert_eq!(doc["reasons"][0]["count"], 2);
}

#[test]
fn trace_failures_explains_the_first_wrong_pixel() {
    let out = shader_test(&[&fixture("fail"), "--trace-failures", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let trace = &doc["tests"][0]["trace"];
    assert_eq!(trace["window"], serde_json::json!([3, 7]));
    assert_eq!(trace["pixel"], serde_json::json!([3, 242]));
    assert_eq!(trace["color"], doc["tests"][0]["probe"]["got"]);
    let fragment = &trace["draws"][0]["fragments"][0];
    assert_eq!(
        fragment["shader"]["output"]["values"],
        serde_json::json!([0.0, 1.0, 0.0, 1.0])
    );
    let out = shader_test(&[&fixture("fail"), "--trace-failures"]);
    let text = stdout(&out);
    assert!(
        text.contains("      | tests/shader_test/fail.shader_test: pixel 3,242 of 250x250 (window 3,7, y up) is rgba8 (0, 255, 0, 255)\n"),
        "{text}"
    );
    assert!(text.contains("store_color"), "{text}");
}

#[test]
fn folders_are_searched_and_usage_errors_exit_2() {
    let out = shader_test(&["tests/shader_test", "--reasons"]);
    let text = stdout(&out);
    assert!(
        text.ends_with("\n4 passed, 2 failed, 3 skipped, 4 errors\n"),
        "{text}"
    );
    assert!(text.contains("\n     2  fail   wrong pixel\n"), "{text}");
    let out = shader_test(&["tests/shader_test/nope.shader_test"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: tests/shader_test/nope.shader_test: "),
        "{}",
        stderr(&out)
    );
    let empty = temp_dir("shader-test-empty");
    let out = shader_test(&[empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no .shader_test files or piglit compiler tests found in the paths given\n"
    );
    std::fs::remove_dir_all(empty).ok();
    let out = shader_test(&[]);
    assert_eq!(out.status.code(), Some(2), "clap: a path is required");
    // --threads takes 1..=256, as render's does
    let out = shader_test(&["--threads", "0", &fixture("fail")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("0 is not in 1..=256"),
        "{}",
        stderr(&out)
    );
    let out = shader_test(&["--threads", "1", &fixture("fail")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// piglit compiler tests (`tests/compiler_test/`, docs/conformance.md "Compiler
/// tests"): a folder walk takes the shaders with a `[config]` block and leaves out
/// `not-a-test.frag`; the outcome compares the compile with `expect_result`.
#[test]
fn compiler_tests_compare_the_compile_with_the_expectation() {
    let out = shader_test(&["tests/compiler_test", "--json"]);
    assert_eq!(out.status.code(), Some(1), "two fixtures fail");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let outcomes: Vec<(String, String)> = doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let file = t["file"].as_str().unwrap();
            let name = file.strip_prefix("tests/compiler_test/").unwrap_or(file);
            (name.to_string(), t["status"].as_str().unwrap().to_string())
        })
        .collect();
    let want = [
        ("expects-fail-but-valid.frag", "fail"),
        ("expects-pass-but-invalid.frag", "fail"),
        ("helper-without-main.vert", "pass"),
        ("rejected-invalid.frag", "pass"),
        ("skip.tesc", "skip"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    assert_eq!(outcomes, want);
    let tests = &doc["tests"];
    assert_eq!(tests[0]["line"], 2);
    assert_eq!(tests[0]["reason"], "compiled, but GLSL requires an error");
    assert_eq!(tests[1]["line"], 11);
    assert!(
        tests[1]["reason"]
            .as_str()
            .unwrap()
            .contains("'undeclared'"),
        "{}",
        tests[1]
    );
    assert_eq!(tests[4]["reason"], "tessellation shaders are not supported");
    assert_eq!(
        doc["summary"],
        serde_json::json!({"passed": 2, "failed": 2, "skipped": 1, "errors": 0})
    );
    let out = shader_test(&["tests/compiler_test/expects-fail-but-valid.frag"]);
    assert_eq!(
        stdout(&out),
        "FAIL  tests/compiler_test/expects-fail-but-valid.frag:2: compiled, but GLSL requires \
         an error (expect_result: fail)\n0 passed, 1 failed, 0 skipped, 0 errors\n"
    );
    // named explicitly, a shader without a [config] block is an error naming line 1
    let out = shader_test(&["tests/compiler_test/not-a-test.frag"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("ERROR tests/compiler_test/not-a-test.frag:1: no [config] block"),
        "{}",
        stdout(&out)
    );
}
