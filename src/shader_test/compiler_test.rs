//! piglit's compiler tests (`glslparsertest`): a single `.vert`, `.frag` or `.geom`
//! shader whose leading comment says whether GLSL accepts it.
//!
//! ```text
//! // [config]
//! // expect_result: pass|fail
//! // glsl_version: 1.30
//! // require_extensions: GL_ARB_foo      (optional)
//! // check_link: true|false               (optional)
//! // [end config]
//! ```
//!
//! The block may also be written as a `/* ... */` comment whose lines start with `*`
//! (piglit's generated tests do). The shader is compiled alone, its stage taken from
//! the file's extension, as `glCompileShader` compiles one compilation unit
//! ([`csir::compile_unit_alone`]: `main` need not be defined); with `check_link: true`
//! the test also expects the unit to form a whole stage, so `main` is required
//! ([`csir::compile`]). The test passes when the compile result is the expected one:
//! a must-fail shader that compiles fails the test ("compiled, but GLSL requires an
//! error"), and so does a must-pass shader that is rejected (the compiler's first
//! message). A required extension, a stage other than vertex and fragment, or a GLSL
//! version above what csir-render accepts skips the test. docs/conformance.md,
//! "Compiler tests".

use super::compile::reason_of;
use super::error::ParseError;
use super::parse::{Line, lines};
use super::report::{Outcome, TestReport};
use super::require::{GLSL_ES_VERSION, GLSL_VERSION};
use super::run::RunOptions;
use csir::{CompileErrors, Stage};
use std::path::Path;

/// The file extensions of compiler tests, with the stage each one compiles as, or for
/// a stage csir-render does not have, the reason the test skips.
pub const EXTENSIONS: [(&str, Result<Stage, &str>); 6] = [
    ("vert", Ok(Stage::Vertex)),
    ("frag", Ok(Stage::Fragment)),
    ("geom", Ok(Stage::Geometry)),
    ("tesc", Err("tessellation shaders are not supported")),
    ("tese", Err("tessellation shaders are not supported")),
    ("comp", Err("compute shaders are not supported")),
];

/// The stage a file's extension names, when it is a compiler test's extension.
pub fn stage_of(path: &Path) -> Option<Result<Stage, &'static str>> {
    let ext = path.extension()?.to_str()?;
    EXTENSIONS
        .iter()
        .find(|(e, _)| *e == ext)
        .map(|(_, stage)| *stage)
}

/// What a compiler test expects of the compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `expect_result: pass`: GLSL accepts the shader.
    Pass,
    /// `expect_result: fail`: GLSL requires an error.
    Fail,
}

/// The `glsl_version` of a compiler test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlslVersion {
    /// Version times 100: 110 ... 460; 100, 300, 310, 320 for ES.
    pub version: u32,
    /// GLSL ES: written `3.00 es`, or one of piglit's ES-only numbers (1.00, 3.00,
    /// 3.10, 3.20) without the suffix.
    pub es: bool,
}

/// A compiler test's `[config]` block, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Line of `[config]`.
    pub line: u32,
    /// `expect_result`, and its line.
    pub expect: (Expect, u32),
    /// `glsl_version`, and its line.
    pub glsl: (GlslVersion, u32),
    /// `require_extensions`: the names, and the line (empty when absent). A name
    /// starting with `!` asks for the extension to be *absent*.
    pub extensions: (Vec<String>, u32),
    /// `check_link: true`: the unit must also link, so it must be a whole stage.
    pub check_link: bool,
}

/// The keys a `[config]` block may hold (piglit's `glsl_parser_test.py`).
const KEYS: [&str; 4] = [
    "expect_result",
    "glsl_version",
    "require_extensions",
    "check_link",
];

/// The text of a comment line of the block without its comment marker (`//`, `/*`
/// or `*`) and surrounding blanks; `None` for a line that is not a comment.
fn comment_body(line: &str) -> Option<&str> {
    let t = line.trim();
    ["//", "/*", "*"]
        .iter()
        .find_map(|m| t.strip_prefix(m))
        .map(|rest| rest.strip_suffix("*/").unwrap_or(rest).trim())
}

/// The line of the `[config]` header, if the text has one: a comment line whose text
/// is `[config]`.
fn header(text: &str) -> Option<Line<'_>> {
    lines(text).find(|l| comment_body(l.text) == Some("[config]"))
}

/// Whether `text` is a compiler test: it has a `[config]` comment line.
pub fn has_config(text: &str) -> bool {
    header(text).is_some()
}

/// Read the `[config]` block of `text`.
///
/// # Errors
/// A [`ParseError`] naming the line: no `[config]` block, no `[end config]`, a line
/// of the block that is not `KEY: VALUE` in a comment, an unknown or repeated key, an
/// `expect_result` other than `pass` or `fail`, a `glsl_version` that is not
/// `MAJOR.MINOR` (optionally followed by `es`, `core` or `compatibility`), a
/// `check_link` other than `true` or `false`, and a missing `expect_result` or
/// `glsl_version` (at the `[config]` line).
pub fn parse_config(text: &str) -> Result<Config, ParseError> {
    let Some(start) = header(text) else {
        return Err(ParseError::new(
            1,
            "no [config] block: a piglit compiler test starts with a comment holding \
             '[config]', 'expect_result: pass|fail', 'glsl_version: X.Y', '[end config]'",
        ));
    };
    let mut expect = None;
    let mut glsl = None;
    let mut extensions = (Vec::new(), 0);
    let mut check_link = false;
    let mut seen: Vec<&str> = Vec::new();
    let mut ended = false;
    for line in lines(text).skip(start.number as usize) {
        let n = line.number;
        let Some(body) = comment_body(line.text) else {
            if line.text.trim().is_empty() {
                continue;
            }
            return Err(ParseError::new(
                n,
                format!(
                    "'{}' inside the [config] block, which ends at '[end config]'",
                    line.text.trim()
                ),
            ));
        };
        if body.is_empty() {
            continue;
        }
        if body == "[end config]" {
            ended = true;
            break;
        }
        let Some((key, value)) = body.split_once(':') else {
            return Err(ParseError::new(
                n,
                format!("expected 'KEY: VALUE' in the [config] block, found '{body}'"),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if !KEYS.contains(&key) {
            return Err(ParseError::new(
                n,
                format!(
                    "unknown key '{key}' in the [config] block (expected one of {})",
                    KEYS.join(", ")
                ),
            ));
        }
        if seen.contains(&key) {
            return Err(ParseError::new(
                n,
                format!("'{key}' appears twice in the [config] block"),
            ));
        }
        seen.push(key);
        match key {
            "expect_result" => {
                let e = match value {
                    "pass" => Expect::Pass,
                    "fail" => Expect::Fail,
                    _ => {
                        return Err(ParseError::new(
                            n,
                            format!("expect_result must be 'pass' or 'fail', found '{value}'"),
                        ));
                    }
                };
                expect = Some((e, n));
            }
            "glsl_version" => {
                glsl = Some((glsl_version(value).map_err(|m| ParseError::new(n, m))?, n));
            }
            "require_extensions" => {
                extensions = (value.split_whitespace().map(str::to_string).collect(), n);
            }
            _ => {
                check_link = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(ParseError::new(
                            n,
                            format!("check_link must be 'true' or 'false', found '{value}'"),
                        ));
                    }
                };
            }
        }
    }
    if !ended {
        return Err(ParseError::new(
            start.number,
            "the [config] block has no '[end config]' line",
        ));
    }
    let missing = |key: &str| {
        ParseError::new(
            start.number,
            format!("the [config] block has no '{key}' line"),
        )
    };
    Ok(Config {
        line: start.number,
        expect: expect.ok_or_else(|| missing("expect_result"))?,
        glsl: glsl.ok_or_else(|| missing("glsl_version"))?,
        extensions,
        check_link,
    })
}

/// A `glsl_version` value: `MAJOR.MINOR` with two minor digits, then optionally
/// `es`, `core` or `compatibility` (piglit writes `1.50compatibility` without a
/// space). 1.00, 3.00, 3.10 and 3.20 are GLSL ES versions even without `es`, as
/// piglit reads them.
fn glsl_version(value: &str) -> Result<GlslVersion, String> {
    let bad = || {
        format!(
            "glsl_version must be MAJOR.MINOR (1.10, 3.00 es, 1.50 compatibility), found \
             '{value}'"
        )
    };
    let digits = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    let (number, suffix) = value.split_at(digits);
    let (major, minor) = number.split_once('.').ok_or_else(bad)?;
    if minor.len() != 2 {
        return Err(bad());
    }
    let major: u32 = major.parse().map_err(|_| bad())?;
    let minor: u32 = minor.parse().map_err(|_| bad())?;
    let version = major
        .checked_mul(100)
        .and_then(|v| v.checked_add(minor))
        .ok_or_else(bad)?;
    let es = match suffix.trim() {
        "es" => true,
        "" => matches!(version, 100 | 300 | 310 | 320),
        "core" | "compatibility" => false,
        _ => return Err(bad()),
    };
    Ok(GlslVersion { version, es })
}

/// Run the compiler test whose text is `text`; `path` names it and its extension
/// gives the stage. `options.limits` are the limits it compiles with.
pub fn run_text(path: &Path, text: &str, options: &RunOptions) -> TestReport {
    TestReport::new(path.display().to_string(), outcome(path, text, options))
}

fn outcome(path: &Path, text: &str, options: &RunOptions) -> Outcome {
    let config = match parse_config(text) {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Error {
                line: Some(e.line),
                message: format!("{}:{}: {}", path.display(), e.line, e.message),
                reason: e.message,
            };
        }
    };
    let skip = |line: u32, reason: String| Outcome::Skip {
        line: Some(line),
        reason,
    };
    let (extensions, ext_line) = &config.extensions;
    if let Some(ext) = extensions.iter().find(|e| !e.starts_with('!')) {
        return skip(*ext_line, format!("needs extension {ext}"));
    }
    let (glsl, glsl_line) = config.glsl;
    let max = if glsl.es {
        GLSL_ES_VERSION
    } else {
        GLSL_VERSION
    };
    if glsl.version > max {
        return skip(
            glsl_line,
            format!(
                "needs GLSL{} {}.{:02} (csir-render accepts up to {}.{:02})",
                if glsl.es { " ES" } else { "" },
                glsl.version / 100,
                glsl.version % 100,
                max / 100,
                max % 100
            ),
        );
    }
    let stage = match stage_of(path) {
        Some(Ok(stage)) => stage,
        Some(Err(reason)) => return skip(config.line, reason.to_string()),
        None => {
            return Outcome::Error {
                line: None,
                message: format!(
                    "{}: a compiler test's extension names its stage (.vert, .frag, .geom, \
                     .tesc, .tese, .comp)",
                    path.display()
                ),
                reason: "unknown compiler test extension".into(),
            };
        }
    };
    let name = path.display().to_string();
    let compiled = match config.check_link {
        true => csir::compile(text, &name, stage, &options.limits),
        false => csir::compile_unit_alone(text, &name, stage, &options.limits),
    };
    match (config.expect.0, compiled) {
        (Expect::Pass, Ok(_)) | (Expect::Fail, Err(_)) => Outcome::Pass,
        (Expect::Fail, Ok(_)) => {
            let line = config.expect.1;
            let reason = "compiled, but GLSL requires an error".to_string();
            Outcome::Mismatch {
                line: Some(line),
                message: format!("{}:{line}: {reason} (expect_result: fail)", path.display()),
                reason,
            }
        }
        (Expect::Pass, Err(errors)) => rejected(text, &errors),
    }
}

/// The outcome of a must-pass shader the compiler rejected: the compiler's messages,
/// its first one as the reason.
fn rejected(text: &str, errors: &CompileErrors) -> Outcome {
    let first = errors.diagnostics().first();
    let reason = first.map_or_else(
        || "compile error".to_string(),
        |d| {
            let source = text
                .split('\n')
                .nth(d.line.saturating_sub(1) as usize)
                .unwrap_or_default();
            reason_of(d, source)
        },
    );
    Outcome::Mismatch {
        line: first.map(|d| d.line),
        message: errors.to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "// [config]\n// expect_result: fail\n// glsl_version: 1.30\n// [end config]\n";

    fn error(text: &str) -> String {
        parse_config(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_both_comment_styles() {
        let c = parse_config(HEADER).unwrap();
        assert_eq!(c.line, 1);
        assert_eq!(c.expect, (Expect::Fail, 2));
        assert_eq!(
            c.glsl,
            (
                GlslVersion {
                    version: 130,
                    es: false
                },
                3
            )
        );
        assert_eq!(c.extensions, (vec![], 0));
        assert!(!c.check_link);
        let block = "#version 300 es\n/* [config]\n *   expect_result: pass\n * glsl_version: 3.00\n *\n \
                     * require_extensions: GL_ARB_a !GL_ARB_b\n * check_link: true\n * [end config]\n */\n";
        let c = parse_config(block).unwrap();
        assert_eq!(c.line, 2);
        assert_eq!(c.expect, (Expect::Pass, 3));
        assert_eq!(
            c.glsl.0,
            GlslVersion {
                version: 300,
                es: true
            }
        );
        assert_eq!(
            c.extensions,
            (vec!["GL_ARB_a".to_string(), "!GL_ARB_b".to_string()], 6)
        );
        assert!(c.check_link);
    }

    #[test]
    fn reads_piglit_version_spellings() {
        let v = |s: &str| glsl_version(s).unwrap();
        assert_eq!(
            v("1.50compatibility"),
            GlslVersion {
                version: 150,
                es: false
            }
        );
        assert_eq!(
            v("3.00 es"),
            GlslVersion {
                version: 300,
                es: true
            }
        );
        assert_eq!(
            v("1.00"),
            GlslVersion {
                version: 100,
                es: true
            }
        );
        assert_eq!(
            v("3.30"),
            GlslVersion {
                version: 330,
                es: false
            }
        );
        assert_eq!(
            glsl_version("1.5").unwrap_err(),
            "glsl_version must be MAJOR.MINOR (1.10, 3.00 es, 1.50 compatibility), found '1.5'"
        );
        assert!(glsl_version("1.50 turbo").is_err());
        assert!(glsl_version("").is_err());
        assert!(glsl_version("99999999999.10").is_err());
        // 42949672 * 100 fits in u32; adding 99 does not.
        assert!(glsl_version("42949672.99").is_err());
    }

    #[test]
    fn malformed_blocks_are_errors_naming_the_line() {
        assert_eq!(
            error("void main() {}\n"),
            "1: no [config] block: a piglit compiler test starts with a comment holding \
             '[config]', 'expect_result: pass|fail', 'glsl_version: X.Y', '[end config]'"
        );
        assert_eq!(
            error("// [config]\n// expect_result: maybe\n"),
            "2: expect_result must be 'pass' or 'fail', found 'maybe'"
        );
        assert_eq!(
            error("// [config]\n// expect_result: pass\n// glsl_version: 1.10\n"),
            "1: the [config] block has no '[end config]' line"
        );
        assert_eq!(
            error("\n// [config]\n// glsl_version: 1.10\n// [end config]\n"),
            "2: the [config] block has no 'expect_result' line"
        );
        assert_eq!(
            error("// [config]\n// expect_result: pass\n// [end config]\n"),
            "1: the [config] block has no 'glsl_version' line"
        );
        assert_eq!(
            error("// [config]\n// expect_result pass\n"),
            "2: expected 'KEY: VALUE' in the [config] block, found 'expect_result pass'"
        );
        assert_eq!(
            error("// [config]\n// expected_result: pass\n"),
            "2: unknown key 'expected_result' in the [config] block (expected one of \
             expect_result, glsl_version, require_extensions, check_link)"
        );
        assert_eq!(
            error("// [config]\n// glsl_version: 1.10\n// glsl_version: 1.20\n"),
            "3: 'glsl_version' appears twice in the [config] block"
        );
        assert_eq!(
            error("// [config]\n// glsl_version: one\n"),
            "2: glsl_version must be MAJOR.MINOR (1.10, 3.00 es, 1.50 compatibility), found 'one'"
        );
        assert_eq!(
            error("// [config]\n// check_link: yes\n"),
            "2: check_link must be 'true' or 'false', found 'yes'"
        );
        assert_eq!(
            error("// [config]\nvoid main() {}\n// [end config]\n"),
            "2: 'void main() {}' inside the [config] block, which ends at '[end config]'"
        );
    }

    #[test]
    fn config_parsing_never_panics() {
        // Every prefix of a valid block, and some odd bytes, give Ok or an error.
        let text = "/* [config]\n * expect_result: pass\n * glsl_version: 1.50compatibility\n \
                    * require_extensions: GL_ARB_x\n * [end config]\n */\n";
        for end in 0..=text.len() {
            let _ = parse_config(&text[..end]);
        }
        for odd in [
            "// [config]\n//:\n",
            "// [config]\n// : x\n",
            "*[config]\r\n*\r\n",
            "//[config]",
        ] {
            assert!(parse_config(odd).is_err(), "{odd:?}");
        }
    }

    fn run(name: &str, text: &str) -> TestReport {
        run_text(Path::new(name), text, &RunOptions::default())
    }

    #[test]
    fn outcomes_compare_the_compile_with_the_expectation() {
        let helper = "float twice(float x) { return 2.0 * x; }\n";
        let config = |expect: &str, extra: &str| {
            format!(
                "// [config]\n// expect_result: {expect}\n// glsl_version: 1.10\n{extra}// [end config]\n"
            )
        };
        // a unit without main compiles (GLSL 1.10 §6.1)
        let pass = run("t.vert", &(config("pass", "") + helper));
        assert_eq!(pass.outcome, Outcome::Pass, "{pass}");
        // ... but not when the test links it
        let linked = run(
            "t.vert",
            &(config("pass", "// check_link: true\n") + helper),
        );
        assert_eq!(linked.status(), "fail");
        assert_eq!(linked.reason(), Some("missing main"));
        let wrong = run("t.frag", &(config("fail", "") + helper));
        assert_eq!(
            wrong.to_string(),
            "FAIL  t.frag:2: compiled, but GLSL requires an error (expect_result: fail)\n"
        );
        let bad = "float f() { return undeclared; }\n";
        let right = run("t.frag", &(config("fail", "") + bad));
        assert_eq!(right.outcome, Outcome::Pass);
        let rejected = run("t.frag", &(config("pass", "") + bad));
        assert_eq!(rejected.reason(), Some("unknown identifier 'undeclared'"));
        assert_eq!(
            rejected.to_string(),
            "FAIL  t.frag:5:20: error: unknown identifier 'undeclared'\n      \
             float f() { return undeclared; }\n                         ^\n"
        );
        let ext = run(
            "t.frag",
            &(config("pass", "// require_extensions: !GL_A GL_ARB_b\n") + helper),
        );
        assert_eq!(
            ext.to_string(),
            "SKIP  t.frag:4: needs extension GL_ARB_b\n"
        );
        let negated = run(
            "t.frag",
            &(config("pass", "// require_extensions: !GL_A\n") + helper),
        );
        assert_eq!(negated.outcome, Outcome::Pass);
        // A geometry shader compiles as one, and needs GLSL 1.50.
        let geom = run("t.geom", &(config("pass", "") + helper));
        assert_eq!(geom.status(), "fail");
        assert!(geom.to_string().contains("needs GLSL 1.50"), "{geom}");
        let geom = run(
            "t.geom",
            &(config("pass", "").replace("1.10", "1.50") + "#version 150\n" + helper),
        );
        assert_eq!(geom.outcome, Outcome::Pass, "{geom}");
        let new = run("t.frag", &config("pass", "").replace("1.10", "4.60"));
        assert_eq!(
            new.to_string(),
            "SKIP  t.frag:3: needs GLSL 4.60 (csir-render accepts up to 3.30)\n"
        );
        let malformed = run("t.frag", "// [config]\n// expect_result: perhaps\n");
        assert_eq!(
            malformed.to_string(),
            "ERROR t.frag:2: expect_result must be 'pass' or 'fail', found 'perhaps'\n"
        );
        let json = serde_json::to_value(&wrong).unwrap();
        assert_eq!(json["status"], "fail");
        assert_eq!(json["reason"], "compiled, but GLSL requires an error");
    }
}
