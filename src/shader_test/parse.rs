//! Splitting a `.shader_test` file into its sections, with line numbers.
//!
//! As in piglit's `shader_runner`: a line whose first character is `[` starts a
//! section; text before the first section is ignored; a shader section's text runs from
//! the line after its header to the line before the next header; everything after
//! `[test]` is the test script, even lines that start with `[`. The sections this
//! renderer cannot run (a geometry shader, SPIR-V, ...) are kept by name, so that the
//! test is *skipped* naming them; a header that is no section of the format is an
//! error.

use super::error::ParseError;

/// A line of a section: its 1-based number in the file and its text (without the line
/// break).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number in the file.
    pub number: u32,
    /// The text, without `\n` or `\r\n`.
    pub text: &'a str,
}

/// Which stage a shader section feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderKind {
    /// `[vertex shader]`: the GLSL text that follows.
    Vertex,
    /// `[vertex shader passthrough]`: shader_runner's built-in vertex shader, which
    /// copies the attribute `piglit_vertex` to `gl_Position`.
    VertexPassthrough,
    /// `[fragment shader]`.
    Fragment,
    /// `[geometry shader]` (GLSL 1.50 §2.2).
    Geometry,
}

/// One shader section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderSection<'a> {
    /// The stage.
    pub kind: ShaderKind,
    /// Line of the `[...]` header; the text starts on the next line.
    pub header_line: u32,
    /// The GLSL text, exactly as in the file (empty for a passthrough section).
    pub text: String,
    /// The lines of the text (to point at a source line in messages).
    pub lines: Vec<Line<'a>>,
}

/// A section the format defines but this renderer does not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedSection {
    /// Line of the header.
    pub line: u32,
    /// The header as written, e.g. `[geometry shader]`.
    pub header: String,
    /// What it needs, for the skip reason, e.g. `a geometry shader`.
    pub needs: &'static str,
}

/// A `.shader_test` file cut into sections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sections<'a> {
    /// Line of the `[require]` header, if there is one.
    pub require_line: Option<u32>,
    /// The `[require]` lines that are neither blank nor comments.
    pub require: Vec<Line<'a>>,
    /// Shader sections in file order.
    pub shaders: Vec<ShaderSection<'a>>,
    /// Line of the `[vertex data]` header, if there is one.
    pub vertex_data_line: Option<u32>,
    /// The `[vertex data]` lines (comments and blank lines included).
    pub vertex_data: Vec<Line<'a>>,
    /// Line of the `[test]` header, if there is one.
    pub test_line: Option<u32>,
    /// The `[test]` script lines (comments and blank lines included).
    pub test: Vec<Line<'a>>,
    /// Sections this renderer cannot run, in file order.
    pub unsupported: Vec<UnsupportedSection>,
}

/// The sections of the format this renderer does not run, and what each needs.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("[geometry shader spirv]", "a geometry shader"),
    ("[geometry shader specializations]", "a geometry shader"),
    ("[geometry layout]", "a geometry shader"),
    ("[tessellation control shader]", "a tessellation shader"),
    (
        "[tessellation control shader spirv]",
        "a tessellation shader",
    ),
    (
        "[tessellation control shader specializations]",
        "a tessellation shader",
    ),
    ("[tessellation evaluation shader]", "a tessellation shader"),
    (
        "[tessellation evaluation shader spirv]",
        "a tessellation shader",
    ),
    (
        "[tessellation evaluation shader specializations]",
        "a tessellation shader",
    ),
    ("[compute shader]", "a compute shader"),
    ("[compute shader spirv]", "a compute shader"),
    ("[compute shader specializations]", "a compute shader"),
    ("[vertex shader spirv]", "SPIR-V shaders"),
    ("[vertex shader specializations]", "SPIR-V shaders"),
    ("[fragment shader spirv]", "SPIR-V shaders"),
    ("[fragment shader specializations]", "SPIR-V shaders"),
    ("[vertex program]", "an ARB assembly vertex program"),
    ("[fragment program]", "an ARB assembly fragment program"),
    (
        "[shader include]",
        "shader includes (GL_ARB_shading_language_include)",
    ),
    (
        "[shader include paths]",
        "shader includes (GL_ARB_shading_language_include)",
    ),
    ("[elements]", "indexed drawing ([elements])"),
];

/// Which section a header line opens.
enum Header {
    Require,
    Shader(ShaderKind),
    VertexData,
    Test,
    Unsupported(&'static str),
}

/// The header `line` names (the text up to its first `]`), or an error for a header
/// that is no section of the format.
fn header(line: Line<'_>) -> Result<(Header, String), ParseError> {
    let name = match line.text.find(']') {
        Some(end) => &line.text[..=end],
        None => {
            return Err(ParseError::new(
                line.number,
                format!(
                    "section header '{}' has no closing ']'",
                    line.text.trim_end()
                ),
            ));
        }
    };
    let kind = match name {
        "[require]" => Header::Require,
        "[vertex shader]" => Header::Shader(ShaderKind::Vertex),
        "[vertex shader passthrough]" => Header::Shader(ShaderKind::VertexPassthrough),
        "[fragment shader]" => Header::Shader(ShaderKind::Fragment),
        "[geometry shader]" => Header::Shader(ShaderKind::Geometry),
        "[vertex data]" => Header::VertexData,
        "[test]" => Header::Test,
        _ => match UNSUPPORTED.iter().find(|(n, _)| *n == name) {
            Some((_, needs)) => Header::Unsupported(needs),
            None => {
                return Err(ParseError::new(
                    line.number,
                    format!(
                        "unknown section '{name}' (sections are [require], [vertex shader], \
                         [vertex shader passthrough], [fragment shader], [vertex data], \
                         [test] and the ones of other stages)"
                    ),
                ));
            }
        },
    };
    Ok((kind, name.to_string()))
}

/// The lines of `text`, numbered from 1, without line breaks.
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n').enumerate().map(|(i, t)| Line {
        number: u32::try_from(i + 1).unwrap_or(u32::MAX),
        text: t.strip_suffix('\r').unwrap_or(t),
    })
}

/// Where the lines that follow a header go.
enum Target {
    None,
    Require,
    Shader(usize),
    VertexData,
    Ignored,
}

/// Cut `text` into sections.
///
/// # Errors
/// [`ParseError`] at a header that is not a section of the format or has no `]`.
pub fn sections(text: &str) -> Result<Sections<'_>, ParseError> {
    let mut out = Sections::default();
    let mut target = Target::None;
    let mut in_comment = false;
    let mut all = lines(text);
    for line in all.by_ref() {
        if line.text.starts_with('[') {
            let (kind, name) = header(line)?;
            target = match kind {
                Header::Require => {
                    out.require_line = Some(line.number);
                    Target::Require
                }
                Header::Shader(kind) => {
                    out.shaders.push(ShaderSection {
                        kind,
                        header_line: line.number,
                        text: String::new(),
                        lines: Vec::new(),
                    });
                    Target::Shader(out.shaders.len() - 1)
                }
                Header::VertexData => {
                    out.vertex_data_line = Some(line.number);
                    out.vertex_data.clear();
                    Target::VertexData
                }
                Header::Test => {
                    out.test_line = Some(line.number);
                    break;
                }
                Header::Unsupported(needs) => {
                    out.unsupported.push(UnsupportedSection {
                        line: line.number,
                        header: name,
                        needs,
                    });
                    Target::Ignored
                }
            };
            continue;
        }
        match target {
            Target::None | Target::Ignored => {}
            Target::Require => {
                if !is_require_comment(line.text, &mut in_comment) {
                    out.require.push(line);
                }
            }
            Target::Shader(i) => {
                let section = &mut out.shaders[i];
                if section.kind != ShaderKind::VertexPassthrough {
                    section.text.push_str(line.text);
                    section.text.push('\n');
                    section.lines.push(line);
                }
            }
            Target::VertexData => out.vertex_data.push(line),
        }
    }
    out.test = all.collect();
    Ok(out)
}

/// Whether a `[require]` line is blank or a comment: `#` to the end of the line, or
/// a C block comment `/* ... */`, which may span lines (`in_comment` carries that
/// state). shader_runner ignores such lines (it ignores every line it does not
/// recognise); here an unrecognised requirement skips the test, so comments must be
/// told apart.
fn is_require_comment(text: &str, in_comment: &mut bool) -> bool {
    let t = text.trim();
    if *in_comment {
        if t.contains("*/") {
            *in_comment = false;
        }
        return true;
    }
    if t.starts_with("/*") {
        *in_comment = !t.contains("*/");
        return true;
    }
    t.is_empty() || t.starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# a comment before any section\n\
[require]\n\
GLSL >= 1.10\n\
/* a block\n\
   comment */\n\
\n\
[vertex shader]\n\
void main() {\n\
\tgl_Position = gl_Vertex;\n\
}\n\
\n\
[fragment shader]\r\n\
void main() { gl_FragColor = vec4(1.0); }\r\n\
[geometry shader]\n\
junk\n\
[tessellation control shader]\n\
[test]\n\
draw rect -1 -1 2 2\n\
[not a section]\n";

    #[test]
    fn sections_keep_their_lines() {
        let s = sections(FILE).unwrap();
        assert_eq!(s.require_line, Some(2));
        assert_eq!(
            s.require,
            vec![Line {
                number: 3,
                text: "GLSL >= 1.10"
            }]
        );
        assert_eq!(s.shaders.len(), 3);
        assert_eq!(s.shaders[0].kind, ShaderKind::Vertex);
        assert_eq!(s.shaders[0].header_line, 7);
        assert_eq!(
            s.shaders[0].text,
            "void main() {\n\tgl_Position = gl_Vertex;\n}\n\n"
        );
        assert_eq!(s.shaders[0].lines[1].number, 9);
        assert_eq!(s.shaders[1].kind, ShaderKind::Fragment);
        assert_eq!(
            s.shaders[1].text,
            "void main() { gl_FragColor = vec4(1.0); }\n"
        );
        assert_eq!(s.shaders[2].kind, ShaderKind::Geometry);
        assert_eq!(s.shaders[2].text, "junk\n");
        assert_eq!(s.unsupported.len(), 1);
        assert_eq!(s.unsupported[0].line, 16);
        assert_eq!(s.unsupported[0].needs, "a tessellation shader");
        assert_eq!(s.test_line, Some(17));
        // after [test], every line is the script, even one that starts with '['
        let test: Vec<_> = s.test.iter().map(|l| (l.number, l.text)).collect();
        assert_eq!(
            test,
            vec![
                (18, "draw rect -1 -1 2 2"),
                (19, "[not a section]"),
                (20, "")
            ]
        );
    }

    #[test]
    fn bad_headers_are_errors_with_the_line() {
        let e = sections("[require]\nGLSL >= 1.10\n[vertex shadr]\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.starts_with("unknown section '[vertex shadr]'"),
            "{e}"
        );
        let e = sections("\n[test\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "2: section header '[test' has no closing ']'"
        );
    }
}
