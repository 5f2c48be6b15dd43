//! Where piglit's corpus is and which part of it the piglit tests run
//! (docs/conformance.md, "The GLSL execution corpus").

use csir_render::shader_test::{ReasonCount, TestReport};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The directories of the selection, relative to the corpus root: the GLSL 1.10 to
/// 3.30 execution tests, hand-written and generated.
pub const SELECTION: [&str; 12] = [
    "tests/spec/glsl-1.10/execution",
    "generated_tests/spec/glsl-1.10/execution",
    "tests/spec/glsl-1.20/execution",
    "generated_tests/spec/glsl-1.20/execution",
    "tests/spec/glsl-1.30/execution",
    "generated_tests/spec/glsl-1.30/execution",
    "tests/spec/glsl-1.40/execution",
    "generated_tests/spec/glsl-1.40/execution",
    "tests/spec/glsl-1.50/execution",
    "generated_tests/spec/glsl-1.50/execution",
    "tests/spec/glsl-3.30/execution",
    "generated_tests/spec/glsl-3.30/execution",
];

/// The directories of piglit's compiler tests (`.vert`/`.frag`/`.geom` files with a
/// `[config]` block) that the piglit compiler test runs, relative to the corpus root
/// (docs/conformance.md, "Compiler tests").
pub const COMPILER_SELECTION: [&str; 16] = [
    "tests/spec/glsl-1.10/compiler",
    "tests/spec/glsl-1.10/preprocessor",
    "generated_tests/spec/glsl-1.10/compiler",
    "tests/spec/glsl-1.20/compiler",
    "generated_tests/spec/glsl-1.20/compiler",
    "tests/spec/glsl-1.30/compiler",
    "tests/spec/glsl-1.30/preprocessor",
    "generated_tests/spec/glsl-1.30/compiler",
    "tests/spec/glsl-1.40/compiler",
    "generated_tests/spec/glsl-1.40/compiler",
    "tests/spec/glsl-1.50/compiler",
    "generated_tests/spec/glsl-1.50/compiler",
    "tests/spec/glsl-3.30/compiler",
    "tests/spec/glsl-es-1.00/compiler",
    "tests/spec/glsl-es-3.00/compiler",
    "generated_tests/spec/glsl-es-3.00/compiler",
];

/// The checkout's root.
pub fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus root (`$CSIR_CACHE/piglit`, default `target/test-deps/piglit`), when it
/// has been fetched (its `VERSION` file exists).
pub fn corpus() -> Option<PathBuf> {
    let cache = std::env::var_os("CSIR_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest().join("target/test-deps"));
    let root = if cache.is_absolute() {
        cache
    } else {
        manifest().join(cache)
    }
    .join("piglit");
    root.join("VERSION").is_file().then_some(root)
}

/// The corpus root, or `None` after printing why the calling test skips. A missing
/// corpus is a failure (a panic) when `CSIR_REQUIRE_TEST_DEPS=1`, as `scripts/test.sh`
/// sets it.
pub fn corpus_or_skip(test: &str) -> Option<PathBuf> {
    let root = corpus();
    if root.is_none() {
        let how = "run scripts/fetch-piglit.sh (or scripts/test-deps.sh) to fetch it";
        if std::env::var("CSIR_REQUIRE_TEST_DEPS").as_deref() == Ok("1") {
            panic!("the piglit corpus is missing: {how}");
        }
        eprintln!("skipping {test}: the piglit corpus is not fetched; {how}");
    }
    root
}

/// The piglit package version the corpus came from (its `VERSION` file).
pub fn version(root: &Path) -> String {
    std::fs::read_to_string(root.join("VERSION"))
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Every `.shader_test` file of the selection under `root`, with its directory.
pub fn selection_files(root: &Path) -> Vec<(&'static str, PathBuf)> {
    files_of(root, &SELECTION, 4000)
}

/// Every compiler test of [`COMPILER_SELECTION`] under `root`, with its directory (the
/// few `.shader_test` files of those folders are left out: they are not compiler
/// tests).
pub fn compiler_selection_files(root: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut files = files_of(root, &COMPILER_SELECTION, 5000);
    files.retain(|(_, f)| csir_render::shader_test::compiler_test::stage_of(f).is_some());
    files
}

/// The tests `find_tests` finds in `dirs` under `root`, with their directory; more
/// than `at_least` of them, or the corpus is broken (a panic).
fn files_of(root: &Path, dirs: &[&'static str], at_least: usize) -> Vec<(&'static str, PathBuf)> {
    let mut files = Vec::new();
    for &dir in dirs {
        let path = root.join(dir);
        if path.is_dir() {
            let found = csir_render::shader_test::find_tests(&[path])
                .expect("the corpus folder is readable");
            files.extend(found.into_iter().map(|f| (dir, f)));
        }
    }
    assert!(
        files.len() > at_least,
        "only {} test files in {}",
        files.len(),
        root.display()
    );
    files
}

/// Whether this run rewrites the recorded results (`CSIR_PIGLIT_WRITE_BASELINE=1`, as
/// `scripts/update-piglit-baseline.sh` sets it) instead of checking against them.
pub fn writing_baseline() -> bool {
    std::env::var("CSIR_PIGLIT_WRITE_BASELINE").as_deref() == Ok("1")
}

/// Write a baseline: `{"piglit": version, "measured": today, "total": total,
/// "directories": directories}`, pretty-printed, to `path`.
pub fn write_baseline(path: &Path, version: &str, total: Value, directories: Value) {
    let baseline = json!({
        "piglit": version,
        "measured": today(),
        "total": total,
        "directories": directories,
    });
    let text = serde_json::to_string_pretty(&baseline).expect("JSON") + "\n";
    std::fs::write(path, text).expect("write the baseline");
}

/// The baseline at `path` ([`write_baseline`]), with a note when it was measured on
/// another piglit version than `version`.
pub fn read_baseline(path: &Path, version: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let baseline: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    if baseline["piglit"].as_str() != Some(version) {
        eprintln!(
            "note: the baseline was measured on piglit {}, the corpus is {version}",
            baseline["piglit"]
        );
    }
    baseline
}

/// Write `files`, one per line, to `path` after `header` (comment lines).
pub fn write_list<'a>(path: &Path, header: &str, files: impl IntoIterator<Item = &'a str>) {
    let mut list = header.to_string();
    for f in files {
        list += f;
        list.push('\n');
    }
    std::fs::write(path, list).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The files listed in `path` ([`write_list`]): its lines, without blank and `#`
/// comment lines.
pub fn read_list(path: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Compare the passes of each of `dirs` (`passed(dir)`) with `baseline`'s: a line for
/// every directory where fewer pass than it records, and whether any passes more.
pub fn compare_passes(
    baseline: &Value,
    dirs: &[&str],
    passed: impl Fn(&str) -> usize,
) -> (Vec<String>, bool) {
    let mut drops = Vec::new();
    let mut improved = false;
    for &dir in dirs {
        let want = baseline["directories"][dir]["passed"].as_u64().unwrap_or(0) as usize;
        let have = passed(dir);
        if have < want {
            drops.push(format!("{dir}: {have} tests pass, the baseline is {want}"));
        }
        improved |= have > want;
    }
    (drops, improved)
}

/// The failing tests (`failing`, each a file of `reports`) that the allow-list
/// `allowed` does not name, one problem each: `what`, then the test's report. Prints
/// the note to raise the baseline when the run `improved` on it or fails fewer tests
/// than the list names.
pub fn unlisted_failures(
    reports: &[(&str, String, TestReport)],
    failing: &BTreeSet<&str>,
    allowed: &BTreeSet<String>,
    improved: bool,
    what: &str,
) -> Vec<String> {
    let problems = failing
        .iter()
        .filter(|f| !allowed.contains(**f))
        .map(|f| {
            let report = &reports
                .iter()
                .find(|(_, file, _)| file == f)
                .expect("listed")
                .2;
            format!("{what}:\n{report}")
        })
        .collect();
    if improved || failing.len() < allowed.len() {
        eprintln!(
            "note: more tests pass or fewer fail than the baseline records: raise it with \
             scripts/update-piglit-baseline.sh"
        );
    }
    problems
}

/// The markdown table of reason `groups`: one row per group of at least `min_row`
/// tests, then one row counting the rest.
pub fn reasons_table(groups: &[ReasonCount], min_row: usize) -> String {
    let mut out = String::from("| count | outcome | reason |\n|---:|---|---|\n");
    let (rows, rest): (Vec<_>, Vec<_>) = groups.iter().partition(|g| g.count >= min_row);
    for g in rows {
        let reason = g.reason.replace('|', "\\|").replace('\n', " ");
        out += &format!("| {} | {} | {reason} |\n", g.count, g.status);
    }
    if !rest.is_empty() {
        let tests: usize = rest.iter().map(|g| g.count).sum();
        out += &format!(
            "| {tests} | | {} other reasons with fewer than {min_row} tests each \
             (`csir-render shader-test ... --reasons` lists them) |\n",
            rest.len()
        );
    }
    out
}

/// Today's date, YYYY-MM-DD (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date (proleptic Gregorian).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// docs/conformance.md.
pub fn conformance_doc_path() -> PathBuf {
    manifest().join("docs/conformance.md")
}

/// Replace the text of docs/conformance.md between the line `<!-- NAME:begin ... -->`
/// and the line `<!-- NAME:end -->` by `body`.
///
/// # Panics
/// When the document or the markers are missing (a broken checkout).
pub fn write_doc_block(name: &str, body: &str) {
    let path = conformance_doc_path();
    let doc = std::fs::read_to_string(&path).expect("docs/conformance.md exists");
    let begin_marker = format!("<!-- {name}:begin");
    let end_marker = format!("<!-- {name}:end -->");
    let begin = doc
        .find(&begin_marker)
        .and_then(|b| doc[b..].find('\n').map(|n| b + n + 1));
    let (Some(begin), Some(end)) = (begin, doc.find(&end_marker)) else {
        panic!(
            "{} has no '{begin_marker} ...' ... '{end_marker}' block to write into",
            path.display()
        );
    };
    let text = format!("{}{body}{}", &doc[..begin], &doc[end..]);
    std::fs::write(&path, text).expect("write docs/conformance.md");
}

/// Where a test of the selection stands in the conformance targets (docs/conformance.md,
/// "Measured"): whether it needs only a vertex and a fragment shader and no extension,
/// and whether its shaders use none of `uint`/`uvecN`, bit operators and shifts, `log`,
/// `log2` or `exp` (the instructions of the integer issue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    /// No geometry, tessellation or compute stage and no `GL_*` extension in `[require]`
    /// (a limit such as `GL_MAX_VARYING_COMPONENTS >= 64` is not an extension).
    pub vertex_fragment: bool,
    /// The shader text (comments removed) names none of `uint`, `uvec2..4`, `log`,
    /// `log2`, `exp` and has no `&`, `|`, `^`, `~`, `<<`, `>>` operator (`&&`, `||` and
    /// `^^` are the logical ones and do not count).
    pub integer_free: bool,
}

/// The [`Scope`] of a `.shader_test` file's text.
pub fn scope(text: &str) -> Scope {
    let mut section = String::new();
    let mut vertex_fragment = true;
    let mut shader_text = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            section = trimmed.to_ascii_lowercase();
            if ["[geometry", "[tessellation", "[compute"]
                .iter()
                .any(|s| section.starts_with(s))
            {
                vertex_fragment = false;
            }
            continue;
        }
        if section == "[require]" {
            if trimmed.starts_with("GL_") && !trimmed.contains(['<', '>', '=']) {
                vertex_fragment = false;
            }
        } else if section.ends_with("shader]") {
            shader_text.push_str(line);
            shader_text.push('\n');
        }
    }
    Scope {
        vertex_fragment,
        integer_free: !uses_integer_features(&without_comments(&shader_text)),
    }
}

/// GLSL text with `//` and `/* */` comments replaced by a space.
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |n| &after[n..]);
            out.push(' ');
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |n| &after[n + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Whether comment-free GLSL uses the integer issue's features ([`Scope::integer_free`]).
fn uses_integer_features(src: &str) -> bool {
    const NAMES: [&str; 7] = ["uint", "uvec2", "uvec3", "uvec4", "log", "log2", "exp"];
    let names = src
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| NAMES.contains(&word));
    let bytes = src.as_bytes();
    let operators = bytes.iter().enumerate().any(|(i, &b)| {
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let next = bytes.get(i + 1).copied();
        match b {
            b'~' => true,
            b'&' | b'|' | b'^' => prev != Some(b) && next != Some(b),
            b'<' | b'>' => next == Some(b),
            _ => false,
        }
    });
    names || operators
}

/// The layout `scripts/fetch-piglit.sh` writes to the corpus's `LAYOUT` file when it
/// unpacked every spec folder's `.shader_test` files (not only the GLSL folders).
pub const WHOLE_CORPUS_LAYOUT: &str = "glsl-folders+spec-shader_test";

/// Whether the corpus at `root` holds the whole shader_test corpus ([`WHOLE_CORPUS_LAYOUT`];
/// a cache from before has only the GLSL folders).
pub fn has_whole_corpus(root: &Path) -> bool {
    std::fs::read_to_string(root.join("LAYOUT")).is_ok_and(|l| l.trim() == WHOLE_CORPUS_LAYOUT)
}

/// The GL 3.3 selection of the whole corpus under `root` (docs/conformance.md, "The GL
/// 3.3 selection of the whole corpus"): every `.shader_test` file of `tests/spec` and
/// `generated_tests/spec` that `csir_render::shader_test::gl33_selection::within_gl33`
/// keeps, with its group (the spec folder, `glsl-1.10`, `arb_texture_rectangle`, both
/// trees together), sorted by path; and how many `.shader_test` files were found in all.
pub fn gl33_selection_files(root: &Path) -> (Vec<(String, PathBuf)>, usize) {
    let mut files = Vec::new();
    let mut found = 0;
    for tree in ["tests/spec", "generated_tests/spec"] {
        let dir = root.join(tree);
        if !dir.is_dir() {
            continue;
        }
        let tests = csir_render::shader_test::find_tests(std::slice::from_ref(&dir))
            .expect("the corpus folder is readable");
        for file in tests {
            if file.extension().is_none_or(|e| e != "shader_test") {
                continue;
            }
            found += 1;
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if !csir_render::shader_test::gl33_selection::within_gl33(&text) {
                continue;
            }
            let group = file
                .strip_prefix(&dir)
                .ok()
                .and_then(|p| p.components().next())
                .map_or_else(String::new, |c| {
                    c.as_os_str().to_string_lossy().into_owned()
                });
            files.push((group, file));
        }
    }
    assert!(
        files.len() > 6000,
        "only {} tests of the GL 3.3 selection in {}",
        files.len(),
        root.display()
    );
    (files, found)
}
