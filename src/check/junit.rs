//! The results of a check as JUnit XML, the report format CI systems display: one test
//! case per scene, with a failure for a scene that does not match its reference and an
//! error for one that could not be checked (`docs/reference-checks.md`).

use super::CheckError;
use super::results::{CheckResults, SceneResult, Status};
use crate::file_write::write_file;
use quick_xml::escape::escape;
use std::fmt::Write;
use std::path::Path;

/// The results as JUnit XML, the test-report format CI systems display (GitHub
/// Actions through a reporter action, GitLab, Jenkins, Buildkite): one `<testsuite>`
/// named `csir-render check`, one `<testcase>` per scene (`name` = the scene's file
/// stem, `classname` = its folder with `/` as `.`, `file` = its path, `time` in
/// seconds), a `<failure type="tolerance">` for a scene that does not match and an
/// `<error>` for one that could not be checked, each with the details as text, and the
/// metrics and trace command in `<system-out>`. The suite's `<properties>` say who drew
/// the images and what they were compared with (`drawn_by`, `compared_with`, as in the
/// JSON results).
pub fn junit_xml(results: &CheckResults) -> String {
    let summary = results.summary();
    let seconds: f64 = results.results.iter().map(|r| r.seconds).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{seconds:.3}\"",
        results.results.len(),
        summary.failed,
        summary.errors
    );
    let _ = writeln!(xml, "<testsuites name=\"csir-render check\" {counts}>");
    let _ = writeln!(xml, "  <testsuite name=\"csir-render check\" {counts}>");
    xml.push_str("    <properties>\n");
    for (name, value) in [
        ("drawn_by", &results.drawn_by),
        ("compared_with", &results.compared_with),
    ] {
        let _ = writeln!(
            xml,
            "      <property name=\"{name}\" value=\"{}\"/>",
            text(value)
        );
    }
    xml.push_str("    </properties>\n");
    for r in &results.results {
        write_case(&mut xml, r);
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// Writes [`junit_xml`] to `path` atomically.
///
/// # Errors
/// [`CheckError::Write`] when it cannot be written.
pub fn write_junit(results: &CheckResults, path: &Path) -> Result<(), CheckError> {
    write_file(path, junit_xml(results).as_bytes()).map_err(|e| CheckError::Write(e.to_string()))
}

fn write_case(xml: &mut String, r: &SceneResult) {
    let path = Path::new(&r.scene);
    let name = path
        .file_stem()
        .map_or_else(|| r.scene.clone(), |s| s.to_string_lossy().into_owned());
    let classname = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_string_lossy().replace('/', "."),
        _ => ".".to_string(),
    };
    let _ = write!(
        xml,
        "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" time=\"{:.3}\">",
        text(&name),
        text(&classname),
        text(&r.scene),
        r.seconds
    );
    let mut details = vec![
        format!("scene: {}", r.scene),
        format!("reference: {}", r.reference),
    ];
    details.extend(r.rule_text().map(|t| format!("rule: {t}")));
    details.extend(r.metrics_text());
    details.extend(r.trace.as_ref().map(|t| format!("worst pixel: {t}")));
    let message = r.message.clone().unwrap_or_default();
    let problem = match r.status {
        Status::Passed => None,
        Status::Failed => Some(("failure", "tolerance")),
        Status::Error => Some(("error", "error")),
    };
    if let Some((element, kind)) = problem {
        let _ = write!(
            xml,
            "\n      <{element} type=\"{kind}\" message=\"{}\">{}</{element}>",
            text(&message),
            text(&format!("{message}\n{}", details.join("\n")))
        );
    }
    if let Some(note) = &r.message.as_ref().filter(|_| r.status == Status::Passed) {
        details.insert(0, note.to_string());
    }
    let _ = write!(
        xml,
        "\n      <system-out>{}</system-out>\n    </testcase>\n",
        text(&details.join("\n"))
    );
}

/// `s` escaped for XML text and attribute values, without the control characters XML
/// 1.0 cannot hold (an ANSI colour code in a message, say).
fn text(s: &str) -> String {
    let clean: String = s
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect();
    escape(clean.as_str()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::ToleranceRule;

    fn result(scene: &str, status: Status, message: Option<&str>) -> SceneResult {
        SceneResult {
            scene: scene.into(),
            reference: scene.replace(".json", ".llvmpipe.png"),
            status,
            message: message.map(Into::into),
            rule: Some(ToleranceRule::PROJECT),
            scene_rule: false,
            metrics: None,
            reference_written: None,
            seconds: 0.5,
            trace: None,
            images: None,
            overwrites_input: false,
        }
    }

    #[test]
    fn failures_and_errors_become_junit_elements() {
        let doc = CheckResults::new(
            None,
            3,
            vec![
                result("r/a.json", Status::Passed, None),
                result(
                    "r/sub/b.json",
                    Status::Failed,
                    Some("3 pixels <off> & \"more\""),
                ),
                result("c.json", Status::Error, Some("bad\u{1b}[0m")),
            ],
        );
        let xml = junit_xml(&doc);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"csir-render check\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"0\" time=\"1.500\">"), "{xml}");
        assert!(xml.contains("<testcase name=\"a\" classname=\"r\" file=\"r/a.json\" time=\"0.500\">\n      <system-out>scene: r/a.json"), "{xml}");
        assert!(xml.contains("<testcase name=\"b\" classname=\"r.sub\" file=\"r/sub/b.json\" time=\"0.500\">\n      <failure type=\"tolerance\" message=\"3 pixels &lt;off&gt; &amp; &quot;more&quot;\">"), "{xml}");
        assert!(xml.contains("<testcase name=\"c\" classname=\".\" file=\"c.json\" time=\"0.500\">\n      <error type=\"error\" message=\"bad[0m\">"), "{xml}");
        assert_eq!(xml.matches("</testcase>").count(), 3);
        assert!(
            xml.contains(
                "<properties>\n      <property name=\"drawn_by\" value=\"csir-render\"/>\n      \
                 <property name=\"compared_with\" value=\"reference files\"/>\n    </properties>"
            ),
            "{xml}"
        );
        assert!(xml.ends_with("  </testsuite>\n</testsuites>\n"));
    }
}
