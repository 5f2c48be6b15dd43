//! Where piglit's corpus is and which part of it the piglit tests run
//! (docs/conformance.md, "The GLSL execution corpus").

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
    let mut files = Vec::new();
    for dir in SELECTION {
        let path = root.join(dir);
        if path.is_dir() {
            let found = csir_render::shader_test::find_tests(&[path])
                .expect("the corpus folder is readable");
            files.extend(found.into_iter().map(|f| (dir, f)));
        }
    }
    assert!(
        files.len() > 4000,
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
